/** SOAP 1.1 and 1.2 messages: an immutable indexed buffer and a header overlay. */
module dev.ferry.soap {
  requires transitive dev.ferry.xop;
  requires org.codehaus.stax2;

  exports dev.ferry.soap;

  uses dev.ferry.soap.MessageGuardFactory;
}
