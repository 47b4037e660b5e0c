package dev.ferry.soap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Makes {@link MessageGuard}s from configuration (a YAML mapping, such as a broker route's
 * {@code wsSecurity} section), found with {@link java.util.ServiceLoader}: a module that
 * implements a guard provides one, and a configuration names it by {@link #type()}. This keeps
 * the server, client and broker free of any guard's own libraries.
 */
public interface MessageGuardFactory {
  /** The name configurations use ({@code ws-security}). */
  String type();

  /**
   * Makes a guard.
   *
   * @param settings the configuration section, as a YAML parser gives it (maps, lists, text,
   *     numbers, booleans)
   * @param base the folder relative file names are read from
   * @throws IllegalArgumentException naming the key that is wrong
   * @throws IOException if a file it names cannot be read
   */
  MessageGuard create(Map<String, ?> settings, Path base) throws IOException;

  /**
   * Makes a guard of {@code type} with the factory on the class or module path that makes that
   * type.
   *
   * @throws IllegalArgumentException if none does (its module is missing), or as
   *     {@link #create(Map, Path)} says
   */
  static MessageGuard create(String type, Map<String, ?> settings, Path base)
      throws IOException {
    for (MessageGuardFactory f : ServiceLoader.load(MessageGuardFactory.class)) {
      if (f.type().equals(type)) {
        return f.create(settings, base);
      }
    }
    throw new IllegalArgumentException(type + " is not on the class path (for ws-security:"
        + " the ferry-wssecurity module)");
  }
}
