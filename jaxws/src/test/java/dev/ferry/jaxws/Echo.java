package dev.ferry.jaxws;

import jakarta.activation.DataHandler;

/** The testMtom request and response as a plain class: no JAX-WS or JAXB annotation. */
public class Echo {
  private String name;
  private DataHandler attachinfo;

  public Echo() {}

  public Echo(String name, DataHandler attachinfo) {
    this.name = name;
    this.attachinfo = attachinfo;
  }

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
