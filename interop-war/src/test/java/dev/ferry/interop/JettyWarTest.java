package dev.ferry.interop;

import java.net.URI;
import java.nio.file.Path;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee10.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee10.plus.webapp.EnvConfiguration;
import org.eclipse.jetty.ee10.plus.webapp.PlusConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.security.Credential;

/** The WAR in Jetty 12's ee10 web application container, its login service the test users. */
class JettyWarTest extends WarContract {
  private Server server;
  private ServerConnector connector;
  private ContextHandlerCollection contexts;
  private HashLoginService users;

  @Override
  void start(Path work) throws Exception {
    server = new Server();
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    contexts = new ContextHandlerCollection();
    server.setHandler(contexts);
    UserStore store = new UserStore();
    PASSWORDS.forEach((user, password) -> store.addUser(user, Credential.getCredential(password),
        ROLES.get(user).toArray(String[]::new)));
    users = new HashLoginService("ferry");
    users.setUserStore(store);
    server.addBean(users);
    server.start();
  }

  @Override
  URI deploy(Path war, String contextPath) throws Exception {
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath(contextPath);
    webapp.setWar(war.toAbsolutePath().toString());
    webapp.setTempDirectory(war.getParent().resolve("jetty-" + contextPath.substring(1))
        .toFile());
    webapp.setClassLoader(new WebAppClassLoader(new ContainerOnlyLoader(), webapp));
    // as Jetty's annotations module sets up: @HandlesTypes initializers, with JNDI beneath
    webapp.addConfiguration(new EnvConfiguration(), new PlusConfiguration(),
        new AnnotationConfiguration());
    webapp.getSecurityHandler().setLoginService(users);
    webapp.setThrowUnavailableOnStartupException(true);
    contexts.addHandler(webapp);
    try {
      webapp.start();
    } catch (Exception e) {
      failure = e;
      contexts.removeHandler(webapp);
      return null;
    }
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + contextPath);
  }

  @Override
  void stop() throws Exception {
    server.stop();
  }
}
