package dev.ferry.interop;

import jakarta.activation.DataHandler;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlMimeType;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * The JAXB wrapper of the testMtomResponse element (schema type TestMtomParts). Its type is
 * anonymous because the request and response wrappers share one schema type, and JAXB refuses
 * two classes of one type name in one context.
 */
@XmlRootElement(name = "testMtomResponse", namespace = EchoContract.TYPES_NS)
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", propOrder = {"name", "attachinfo"})
public class TestMtomResponse {
  @XmlElement(namespace = EchoContract.TYPES_NS, required = true)
  private String name;

  /** Optimisable: with MTOM on, the JAXB runtime writes it as an xop:Include. */
  @XmlElement(namespace = EchoContract.TYPES_NS, required = true)
  @XmlMimeType("application/octet-stream")
  private DataHandler attachinfo;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public DataHandler getAttachinfo() {
    return attachinfo;
  }

  public void setAttachinfo(DataHandler attachinfo) {
    this.attachinfo = attachinfo;
  }
}
