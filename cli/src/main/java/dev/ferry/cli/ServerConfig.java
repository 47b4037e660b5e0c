package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.server.WsdlDocuments;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.MessageGuardFactory;
import dev.ferry.soap.SoapCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Endpoints for a {@link SoapServer} from YAML: the echo service, or mock services that answer
 * every request with a fixed envelope (for testing a client or a broker without the real
 * service), each optionally with a WSDL served at {@code ?wsdl}:
 *
 * <pre>
 * endpoints:
 *   - path: /echo
 *     service: echo              # the testMtom echo service
 *   - path: /quotes
 *     reply: quote-reply.xml     # this SOAP envelope answers every request
 *     wsdl: quotes.wsdl          # optional
 *     wsSecurity:                # optional: WS-Security (see docs/security.md)
 *       inbound: {timestamp: 5m, signBody: true}
 *       trust: ca.pem
 * </pre>
 *
 * Files are relative to the YAML file's folder. Replies are checked when the file is read: a
 * reply that is not a SOAP envelope is an error naming the entry, not a surprise at run time.
 */
public final class ServerConfig {
  private static final Set<String> KEYS = Set.of("path", "service", "reply", "wsdl",
      "wsSecurity");

  private ServerConfig() {}

  /**
   * Adds the endpoints {@code file} lists to {@code server}; returns their paths, in order.
   *
   * @throws IllegalArgumentException naming the entry and key that is wrong
   */
  public static List<String> apply(Path file, SoapCodec codec, SoapServer.Builder server)
      throws IOException {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file));
    } catch (YAMLException e) {
      throw new IllegalArgumentException(file + ": malformed YAML: " + e.getMessage(), e);
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("endpoints") instanceof List<?> list)
        || list.isEmpty()) {
      throw new IllegalArgumentException(file + ": expected endpoints: a list of at least one");
    }
    Path dir = file.toAbsolutePath().getParent();
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String where = file + ": endpoints[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> entry)) {
        throw new IllegalArgumentException(where + ": expected a mapping");
      }
      for (Object k : entry.keySet()) {
        if (!KEYS.contains(String.valueOf(k))) {
          throw new IllegalArgumentException(where + ": unknown key \"" + k + "\" (known: "
              + KEYS.stream().sorted().toList() + ")");
        }
      }
      String path = text(entry, "path", where);
      if (path == null || !path.startsWith("/")) {
        throw new IllegalArgumentException(where + ".path: missing or not starting with /");
      }
      server.endpoint(path, dispatcher(entry, dir, codec, where));
      paths.add(path);
    }
    return paths;
  }

  private static Dispatcher dispatcher(Map<?, ?> entry, Path dir, SoapCodec codec,
      String where) throws IOException {
    String service = text(entry, "service", where);
    String reply = text(entry, "reply", where);
    if ((service == null) == (reply == null)) {
      throw new IllegalArgumentException(where + ": give either service: echo or reply: FILE");
    }
    if (service != null && !service.equals("echo")) {
      throw new IllegalArgumentException(where + ".service: the only built-in service is echo,"
          + " got " + service);
    }
    String wsdl = text(entry, "wsdl", where);
    Dispatcher.Builder b = Dispatcher.builder();
    if (service != null) {
      b.fallback(EchoService::echo).wsdl(EchoService.wsdl());
    } else {
      b.fallback(fixedReply(dir.resolve(reply), codec, where));
    }
    if (wsdl != null) { // with what it imports by relative locations, at ?wsdl= and ?xsd=
      b.wsdl(WsdlDocuments.load(dir.resolve(wsdl).toUri().toURL()));
    }
    if (entry.get("wsSecurity") instanceof Map<?, ?> wss) {
      b.guard(guard(wss, dir, where + ".wsSecurity"));
    } else if (entry.get("wsSecurity") != null) {
      throw new IllegalArgumentException(where + ".wsSecurity: expected a mapping");
    }
    return b.build();
  }

  @SuppressWarnings("unchecked")
  private static MessageGuard guard(Map<?, ?> settings, Path dir, String where)
      throws IOException {
    try {
      return MessageGuardFactory.create("ws-security", (Map<String, ?>) settings, dir);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  /** An endpoint that answers every request with the envelope in {@code file}. */
  private static Endpoint fixedReply(Path file, SoapCodec codec, String where)
      throws IOException {
    MessageBuffer envelope;
    try {
      envelope = codec.parse(ByteString.of(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new IllegalArgumentException(where + ".reply: " + file + ": " + e.getMessage(), e);
    }
    return request -> envelope.toMessage().toPayload();
  }

  private static String text(Map<?, ?> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException(where + "." + key + ": expected text, got " + v);
    }
    return s.strip();
  }
}
