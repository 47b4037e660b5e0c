package dev.ferry.security.internal;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;

/**
 * Says in the log, when a listener's certificate is loaded (at start and on every reload), that
 * it has expired or soon will: clients refuse an expired certificate, so a listener that starts
 * on one is down for everyone while looking up.
 */
public final class Expiry {
  /** How long before its end a certificate is said to expire soon. */
  public static final Duration SOON = Duration.ofDays(30);
  private static final System.Logger LOG = System.getLogger("dev.ferry.security");

  private Expiry() {}

  /**
   * Logs a WARNING if {@code certificate} (from {@code where}) expired before {@code now} or
   * expires within {@link #SOON}; returns the warning, or null if there is none.
   */
  public static String check(X509Certificate certificate, String where, Instant now) {
    Instant end = certificate.getNotAfter().toInstant();
    String subject = certificate.getSubjectX500Principal().getName();
    String warning = null;
    if (end.isBefore(now)) {
      warning = "the certificate " + subject + " (" + where + ") expired on " + end
          + ": clients will refuse it";
    } else if (end.isBefore(now.plus(SOON))) {
      warning = "the certificate " + subject + " (" + where + ") expires on " + end + ", in "
          + Duration.between(now, end).toDays() + " days";
    }
    if (warning != null) {
      LOG.log(System.Logger.Level.WARNING, warning);
    }
    return warning;
  }

  /** Seconds from now until {@code certificate} expires (negative once it has). */
  public static long secondsLeft(X509Certificate certificate) {
    return Duration.between(Instant.now(), certificate.getNotAfter().toInstant()).toSeconds();
  }
}
