package dev.ferry.jaxws;

import dev.ferry.jaxws.internal.ShapesPort;
import jakarta.jws.WebService;
import jakarta.xml.ws.BindingType;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.soap.SOAPBinding;
import java.util.Comparator;
import java.util.List;

/** Every shape of operation, served over SOAP 1.2. */
@WebService(endpointInterface = "dev.ferry.jaxws.internal.ShapesPort",
    targetNamespace = "urn:shapes")
@BindingType(SOAPBinding.SOAP12HTTP_BINDING)
public class ShapesImpl implements ShapesPort {
  @Override
  public int add(int a, int b) {
    return a + b;
  }

  @Override
  public int count(List<String> words, String tenant, Holder<String> longest) {
    longest.value = tenant + ":" + words.stream().max(Comparator.comparingInt(String::length))
        .orElse("");
    return words.size();
  }

  @Override
  public byte[] reverse(byte[] blob) {
    byte[] r = new byte[blob.length];
    for (int i = 0; i < blob.length; i++) {
      r[i] = blob[blob.length - 1 - i];
    }
    return r;
  }

  @Override
  public String greet(String person) {
    return "Hello, " + person;
  }

  @Override
  public long total(long[] values) {
    long sum = 0;
    for (long v : values) {
      sum += v;
    }
    return sum;
  }
}
