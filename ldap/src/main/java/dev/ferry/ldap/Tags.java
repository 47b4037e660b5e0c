package dev.ferry.ldap;

/** The BER types of RFC 4511's protocol elements (appendix B of the RFC has the module). */
final class Tags {
  static final int BIND_REQUEST = 0x60;
  static final int BIND_RESPONSE = 0x61;
  static final int UNBIND_REQUEST = 0x42;
  static final int SEARCH_REQUEST = 0x63;
  static final int SEARCH_RESULT_ENTRY = 0x64;
  static final int SEARCH_RESULT_DONE = 0x65;
  static final int MODIFY_REQUEST = 0x66;
  static final int MODIFY_RESPONSE = 0x67;
  static final int ADD_REQUEST = 0x68;
  static final int ADD_RESPONSE = 0x69;
  static final int DEL_REQUEST = 0x4a;
  static final int DEL_RESPONSE = 0x6b;
  static final int MODIFY_DN_REQUEST = 0x6c;
  static final int MODIFY_DN_RESPONSE = 0x6d;
  static final int COMPARE_REQUEST = 0x6e;
  static final int COMPARE_RESPONSE = 0x6f;
  static final int ABANDON_REQUEST = 0x50;
  static final int SEARCH_RESULT_REFERENCE = 0x73;
  static final int EXTENDED_REQUEST = 0x77;
  static final int EXTENDED_RESPONSE = 0x78;
  static final int INTERMEDIATE_RESPONSE = 0x79;

  static final int CONTROLS = 0xa0;
  static final int REFERRAL = 0xa3;
  static final int AUTH_SIMPLE = 0x80;
  static final int AUTH_SASL = 0xa3;
  static final int SERVER_SASL_CREDS = 0x87;
  static final int NEW_SUPERIOR = 0x80;
  static final int EXT_REQUEST_NAME = 0x80;
  static final int EXT_REQUEST_VALUE = 0x81;
  static final int EXT_RESPONSE_NAME = 0x8a;
  static final int EXT_RESPONSE_VALUE = 0x8b;
  static final int INTERMEDIATE_NAME = 0x80;
  static final int INTERMEDIATE_VALUE = 0x81;

  static final int FILTER_AND = 0xa0;
  static final int FILTER_OR = 0xa1;
  static final int FILTER_NOT = 0xa2;
  static final int FILTER_EQUALITY = 0xa3;
  static final int FILTER_SUBSTRINGS = 0xa4;
  static final int FILTER_GE = 0xa5;
  static final int FILTER_LE = 0xa6;
  static final int FILTER_PRESENT = 0x87;
  static final int FILTER_APPROX = 0xa8;
  static final int FILTER_EXTENSIBLE = 0xa9;
  static final int SUBSTRING_INITIAL = 0x80;
  static final int SUBSTRING_ANY = 0x81;
  static final int SUBSTRING_FINAL = 0x82;
  static final int MATCHING_RULE = 0x81;
  static final int MATCH_TYPE = 0x82;
  static final int MATCH_VALUE = 0x83;
  static final int DN_ATTRIBUTES = 0x84;

  private Tags() {}

  /** Returns the RFC's name of a protocolOp type, for error contexts. */
  static String opName(int type) {
    return switch (type) {
      case BIND_REQUEST -> "bindRequest";
      case BIND_RESPONSE -> "bindResponse";
      case UNBIND_REQUEST -> "unbindRequest";
      case SEARCH_REQUEST -> "searchRequest";
      case SEARCH_RESULT_ENTRY -> "searchResEntry";
      case SEARCH_RESULT_DONE -> "searchResDone";
      case SEARCH_RESULT_REFERENCE -> "searchResRef";
      case MODIFY_REQUEST -> "modifyRequest";
      case MODIFY_RESPONSE -> "modifyResponse";
      case ADD_REQUEST -> "addRequest";
      case ADD_RESPONSE -> "addResponse";
      case DEL_REQUEST -> "delRequest";
      case DEL_RESPONSE -> "delResponse";
      case MODIFY_DN_REQUEST -> "modDNRequest";
      case MODIFY_DN_RESPONSE -> "modDNResponse";
      case COMPARE_REQUEST -> "compareRequest";
      case COMPARE_RESPONSE -> "compareResponse";
      case ABANDON_REQUEST -> "abandonRequest";
      case EXTENDED_REQUEST -> "extendedReq";
      case EXTENDED_RESPONSE -> "extendedResp";
      case INTERMEDIATE_RESPONSE -> "intermediateResponse";
      default -> "protocolOp 0x" + Integer.toHexString(type);
    };
  }
}
