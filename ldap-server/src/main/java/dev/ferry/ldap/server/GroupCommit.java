package dev.ferry.ldap.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Applies the updates of many threads with one commit for those that arrive together, so that
 * a durable store pays one fsync for a batch of clients rather than one each. A thread queues
 * its update and takes the write lock; the first to hold it leads: it applies every update
 * queued by then, each in a {@linkplain Store.Write#nested nested} change of one write, commits
 * that write once, and marks each update done with how it ended; the threads whose updates it
 * carried find them done when they get the lock, and return. Updates that queue while a leader
 * commits are the next leader's batch.
 *
 * <p>An update that fails (an {@link OperationException}, a store refusing it) is dropped alone:
 * its nested change is not kept and the others go on. A commit that fails fails every update
 * of its batch. Each thread returns only once its update is committed, durably in a durable
 * store; readers see a batch whole, after its commit. With one thread writing there is no
 * queue to speak of: the thread leads its own batch of one, on its own thread.
 */
final class GroupCommit {
  /** Updates one commit carries at most (a write's dirty pages are bounded in LMDB). */
  static final int MAX_BATCH = 256;

  private final Directory directory;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();

  GroupCommit(Directory directory) {
    this.directory = directory;
  }

  /**
   * Applies {@code update} as one change, committed (durably, in a durable store) before this
   * returns, maybe in one commit with others'.
   *
   * @throws OperationException as the update threw it; nothing of it was kept
   * @throws StoreException if the store refused the change or its commit failed
   */
  void apply(Directory.Update update) throws OperationException {
    Pending p = new Pending(update);
    queue.add(p);
    directory.writeLock.lock();
    try {
      if (!p.done) {
        lead();
      }
    } finally {
      directory.writeLock.unlock();
    }
    p.rethrow();
  }

  /** Applies and commits the queued updates (the caller holds the write lock). */
  private void lead() {
    List<Pending> batch = new ArrayList<>();
    for (Pending p; batch.size() < MAX_BATCH && (p = queue.poll()) != null; ) {
      batch.add(p);
    }
    Throwable failed = null;
    try (Directory.Change outer = directory.change()) { // the lock again: it is reentrant
      for (Pending p : batch) {
        try (Directory.Change c = outer.nested()) {
          p.update.apply(c);
          c.commit();
        } catch (OperationException | RuntimeException | Error e) {
          p.failure = e;
        }
      }
      outer.commit();
    } catch (RuntimeException | Error e) {
      failed = e;
    } finally {
      for (Pending p : batch) {
        if (p.failure == null) {
          p.failure = failed;
        }
        p.done = true; // seen by its thread after this thread gives the write lock back
      }
    }
  }

  /** An update in the queue, and how it ended. */
  private static final class Pending {
    final Directory.Update update;
    boolean done;
    Throwable failure;

    Pending(Directory.Update update) {
      this.update = update;
    }

    void rethrow() throws OperationException {
      switch (failure) {
        case null -> { }
        case OperationException e -> throw e;
        case RuntimeException e -> throw e;
        case Error e -> throw e;
        default -> throw new IllegalStateException("unexpected failure", failure);
      }
    }
  }
}
