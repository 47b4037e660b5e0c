/** A Spring Boot starter for Ferry's SOAP broker: routes and listener from properties. */
module dev.ferry.spring.boot.broker {
  requires dev.ferry.broker;
  requires dev.ferry.spring.boot;
  requires org.yaml.snakeyaml;
  requires spring.beans;
  requires spring.boot.autoconfigure;
  requires spring.context;
  requires spring.core;
  requires static spring.boot.health;

  exports dev.ferry.spring.boot.broker;
  opens dev.ferry.spring.boot.broker to spring.core, spring.beans, spring.context;
}
