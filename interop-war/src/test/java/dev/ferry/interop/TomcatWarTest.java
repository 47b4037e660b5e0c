package dev.ferry.interop;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.realm.MemoryRealm;
import org.apache.catalina.startup.ContextConfig;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * The WAR in Tomcat 11 (embedded, from Maven Central), deployed as Tomcat's own deployer does
 * (a context with its {@code web.xml} and annotation scan), the users in a
 * {@code tomcat-users.xml}.
 */
class TomcatWarTest extends WarContract {
  private Tomcat tomcat;

  @Override
  void start(Path work) throws Exception {
    tomcat = new Tomcat();
    tomcat.setBaseDir(work.resolve("tomcat").toString());
    Files.createDirectories(work.resolve("tomcat/webapps"));
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    Path users = Files.writeString(work.resolve("tomcat-users.xml"), "<tomcat-users>\n"
        + PASSWORDS.keySet().stream().map(u -> "  <user username=\"" + u + "\" password=\""
            + PASSWORDS.get(u) + "\" roles=\"" + String.join(",", ROLES.get(u)) + "\"/>")
            .collect(Collectors.joining("\n")) + "\n</tomcat-users>\n");
    MemoryRealm realm = new MemoryRealm();
    realm.setPathname(users.toString());
    tomcat.getEngine().setRealm(realm);
    tomcat.getHost();
    tomcat.start();
  }

  @Override
  URI deploy(Path war, String contextPath) {
    StandardContext context = new StandardContext();
    context.setName(contextPath);
    context.setPath(contextPath);
    context.setDocBase(war.toAbsolutePath().toString());
    context.setParentClassLoader(new ContainerOnlyLoader());
    StandardJarScanner scanner = new StandardJarScanner();
    scanner.setScanClassPath(false); // the application's jars only, as in a real Tomcat
    context.setJarScanner(scanner);
    ContextConfig config = new ContextConfig();
    config.setDefaultWebXml(tomcat.noDefaultWebXmlPath());
    context.addLifecycleListener(config);
    tomcat.getHost().addChild(context);
    if (context.getState() != LifecycleState.STARTED) {
      tomcat.getHost().removeChild(context); // as Tomcat's deployer drops a failed one
      return null;
    }
    return URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + contextPath);
  }

  @Override
  void stop() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }
}
