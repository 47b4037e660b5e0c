package dev.ferry.interop;

import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;

/**
 * The person contract (CXF's, over four files) implemented on CXF's generated interface, its
 * WSDL named by a {@code classpath:} location as CXF's users write it: a known id gets its
 * person, any other the declared fault {@code UnknownPerson} naming the id.
 */
final class PersonImpls {
  static final String NS = "urn:cxf:apache:org:samples:wsdl-first";
  static final String WSDL = "classpath:contracts/person/wsdl2/person.wsdl";
  static final String ID = "alice-1865";
  static final String SSN = "078-05-1120";
  static final String NAME = "Alice Liddell <&> Ärger";

  private PersonImpls() {}

  @WebService(serviceName = "PersonService", portName = "soap", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.cxfperson.Person", wsdlLocation = WSDL)
  public static class Cxf implements dev.ferry.interop.cxfperson.Person {
    @Override
    public void getPerson(Holder<String> personId, Holder<String> ssn, Holder<String> name)
        throws dev.ferry.interop.cxfperson.UnknownPersonFault_Exception {
      if (!ID.equals(personId.value)) {
        var fault = new dev.ferry.interop.cxfperson.UnknownPersonFault();
        fault.setPersonId(personId.value);
        throw new dev.ferry.interop.cxfperson.UnknownPersonFault_Exception(
            "no person " + personId.value, fault);
      }
      ssn.value = SSN;
      name.value = NAME;
    }
  }
}
