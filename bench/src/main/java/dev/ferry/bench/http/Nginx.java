package dev.ferry.bench.http;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * nginx (Debian's package: {@code apt-get install nginx-light}) as a plain reverse proxy on
 * loopback in front of one backend, with a throw-away configuration: defaults everywhere except
 * what relaying SOAP needs (no body size limit) and what any production setup has (kept-alive
 * upstream connections), its access log on as nginx ships it. Request and response buffering
 * stay at nginx's defaults.
 */
final class Nginx implements AutoCloseable {
  private static final Path BINARY = Path.of("/usr/sbin/nginx");

  private final Process process;
  private final Path dir;
  private final int port;

  private Nginx(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  static boolean installed() {
    return Files.isExecutable(BINARY);
  }

  /**
   * Starts nginx proxying every path to {@code backendPort} on loopback. With
   * {@code memoryBodies}, request bodies up to 1 MiB stay in memory: by default nginx writes any
   * body over 16 KiB to a temp file and then sends it upstream after the headers, which on
   * loopback costs a 40 ms delayed-ACK stall per call for bodies of tens of KiB.
   */
  static Nginx start(int backendPort, boolean memoryBodies)
      throws IOException, InterruptedException {
    return start("server 127.0.0.1:%d;".formatted(backendPort),
        memoryBodies ? "client_body_buffer_size 1m;" : "");
  }

  /**
   * Starts nginx as a load balancer over {@code backendPorts} on loopback, round robin, as a
   * plain nginx (no active health checks) is set up in front of replicas: a replica that refuses
   * a connection or fails is passed over for a second ({@code max_fails=1 fail_timeout=1s}) and
   * the request goes to the next one ({@code proxy_next_upstream}'s default: only if the
   * request was not sent yet), bodies streamed both ways rather than spooled to temp files.
   */
  static Nginx balance(List<Integer> backendPorts) throws IOException, InterruptedException {
    StringBuilder servers = new StringBuilder();
    for (int p : backendPorts) {
      servers.append("server 127.0.0.1:%d max_fails=1 fail_timeout=1s; ".formatted(p));
    }
    return start(servers.toString(), """
        proxy_request_buffering off;
            proxy_buffering off;
            proxy_read_timeout 120s;""");
  }

  private static Nginx start(String upstreamServers, String serverDirectives)
      throws IOException, InterruptedException {
    if (!installed()) {
      throw new IllegalStateException("nginx is not installed: apt-get install nginx-light");
    }
    Path dir = Files.createTempDirectory("ferry-nginx");
    // nginx's workers drop to an unprivileged user and must reach their temp folders in here
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    int port = freePort();
    String conf = """
        daemon off;
        worker_processes 1;
        pid %1$s/nginx.pid;
        error_log %1$s/error.log warn;
        events { worker_connections 1024; }
        http {
          access_log %1$s/access.log;
          client_body_temp_path %1$s/body;
          proxy_temp_path %1$s/proxy;
          fastcgi_temp_path %1$s/fastcgi;
          uwsgi_temp_path %1$s/uwsgi;
          scgi_temp_path %1$s/scgi;
          upstream backend { %2$s keepalive 32; }
          server {
            listen 127.0.0.1:%3$d;
            client_max_body_size 0;
            %4$s
            location / {
              proxy_pass http://backend;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
            }
          }
        }
        """.formatted(dir, upstreamServers, port, serverDirectives);
    Path file = dir.resolve("nginx.conf");
    Files.writeString(file, conf);
    Process p = new ProcessBuilder(BINARY.toString(), "-p", dir.toString(), "-c", file.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
    for (int i = 0; i < 100; i++) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return new Nginx(p, dir, port);
      } catch (IOException notYet) {
        if (!p.isAlive()) {
          throw new IOException("nginx exited: " + Files.readString(dir.resolve("stdout.log")));
        }
        Thread.sleep(50);
      }
    }
    p.destroyForcibly();
    throw new IOException("nginx did not listen on " + port);
  }

  /** nginx's error log so far (where it says which upstream failed and why). */
  String errorLog() throws IOException {
    Path log = dir.resolve("error.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  int port() {
    return port;
  }

  /** The master process; its workers are its children. */
  ProcessHandle process() {
    return process.toHandle();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
