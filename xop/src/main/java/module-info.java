/** XOP/MTOM (W3C XOP 1.0, SOAP MTOM) over Ferry's MIME engine and Woodstox. */
module dev.ferry.xop {
  requires transitive dev.ferry.mime;
  requires transitive java.xml;
  requires com.ctc.wstx;
  requires org.codehaus.stax2;

  exports dev.ferry.xop;
  exports dev.ferry.xop.internal to dev.ferry.soap;
}
