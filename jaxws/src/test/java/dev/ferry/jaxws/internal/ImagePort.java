package dev.ferry.jaxws.internal;

import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.xml.bind.annotation.XmlMimeType;
import java.awt.Image;

/** An image travelling as an MTOM attachment, by JAXB's @XmlMimeType mapping. */
@WebService(targetNamespace = "urn:images")
public interface ImagePort {
  @WebResult(name = "image")
  @XmlMimeType("image/png")
  Image mirror(@WebParam(name = "image") @XmlMimeType("image/png") Image image);
}
