package dev.ferry.ldap;

import java.util.HashMap;
import java.util.Map;

/**
 * An LDAP result code (RFC 4511 section 4.1.9 and appendix A, plus the cancel and assertion codes
 * of RFC 3909 and RFC 4528). Codes are extensible: an unknown value decodes to a code without a
 * name rather than failing.
 *
 * <pre>{@code
 * assert ResultCode.valueOf(32) == ResultCode.NO_SUCH_OBJECT;
 * assert ResultCode.valueOf(32).name().equals("noSuchObject");
 * assert ResultCode.valueOf(4711).name().equals("unknown(4711)");
 * }</pre>
 */
public record ResultCode(int value) {
  private static final Map<Integer, ResultCode> KNOWN = new HashMap<>();
  private static final Map<Integer, String> NAMES = new HashMap<>();

  public static final ResultCode SUCCESS = define(0, "success");
  public static final ResultCode OPERATIONS_ERROR = define(1, "operationsError");
  public static final ResultCode PROTOCOL_ERROR = define(2, "protocolError");
  public static final ResultCode TIME_LIMIT_EXCEEDED = define(3, "timeLimitExceeded");
  public static final ResultCode SIZE_LIMIT_EXCEEDED = define(4, "sizeLimitExceeded");
  public static final ResultCode COMPARE_FALSE = define(5, "compareFalse");
  public static final ResultCode COMPARE_TRUE = define(6, "compareTrue");
  public static final ResultCode AUTH_METHOD_NOT_SUPPORTED = define(7, "authMethodNotSupported");
  public static final ResultCode STRONGER_AUTH_REQUIRED = define(8, "strongerAuthRequired");
  public static final ResultCode REFERRAL = define(10, "referral");
  public static final ResultCode ADMIN_LIMIT_EXCEEDED = define(11, "adminLimitExceeded");
  public static final ResultCode UNAVAILABLE_CRITICAL_EXTENSION =
      define(12, "unavailableCriticalExtension");
  public static final ResultCode CONFIDENTIALITY_REQUIRED = define(13, "confidentialityRequired");
  public static final ResultCode SASL_BIND_IN_PROGRESS = define(14, "saslBindInProgress");
  public static final ResultCode NO_SUCH_ATTRIBUTE = define(16, "noSuchAttribute");
  public static final ResultCode UNDEFINED_ATTRIBUTE_TYPE = define(17, "undefinedAttributeType");
  public static final ResultCode INAPPROPRIATE_MATCHING = define(18, "inappropriateMatching");
  public static final ResultCode CONSTRAINT_VIOLATION = define(19, "constraintViolation");
  public static final ResultCode ATTRIBUTE_OR_VALUE_EXISTS = define(20, "attributeOrValueExists");
  public static final ResultCode INVALID_ATTRIBUTE_SYNTAX = define(21, "invalidAttributeSyntax");
  public static final ResultCode NO_SUCH_OBJECT = define(32, "noSuchObject");
  public static final ResultCode ALIAS_PROBLEM = define(33, "aliasProblem");
  public static final ResultCode INVALID_DN_SYNTAX = define(34, "invalidDNSyntax");
  public static final ResultCode ALIAS_DEREFERENCING_PROBLEM =
      define(36, "aliasDereferencingProblem");
  public static final ResultCode INAPPROPRIATE_AUTHENTICATION =
      define(48, "inappropriateAuthentication");
  public static final ResultCode INVALID_CREDENTIALS = define(49, "invalidCredentials");
  public static final ResultCode INSUFFICIENT_ACCESS_RIGHTS =
      define(50, "insufficientAccessRights");
  public static final ResultCode BUSY = define(51, "busy");
  public static final ResultCode UNAVAILABLE = define(52, "unavailable");
  public static final ResultCode UNWILLING_TO_PERFORM = define(53, "unwillingToPerform");
  public static final ResultCode LOOP_DETECT = define(54, "loopDetect");
  public static final ResultCode NAMING_VIOLATION = define(64, "namingViolation");
  public static final ResultCode OBJECT_CLASS_VIOLATION = define(65, "objectClassViolation");
  public static final ResultCode NOT_ALLOWED_ON_NON_LEAF = define(66, "notAllowedOnNonLeaf");
  public static final ResultCode NOT_ALLOWED_ON_RDN = define(67, "notAllowedOnRDN");
  public static final ResultCode ENTRY_ALREADY_EXISTS = define(68, "entryAlreadyExists");
  public static final ResultCode OBJECT_CLASS_MODS_PROHIBITED =
      define(69, "objectClassModsProhibited");
  public static final ResultCode AFFECTS_MULTIPLE_DSAS = define(71, "affectsMultipleDSAs");
  /** draft-ietf-ldapext-ldapv3-vlv: a virtual list view could not be given. */
  public static final ResultCode VIRTUAL_LIST_VIEW_ERROR = define(76, "virtualListViewError");
  public static final ResultCode OTHER = define(80, "other");
  /** Client side (C API): the connection to the server was lost or closed. */
  public static final ResultCode SERVER_DOWN = define(81, "serverDown");
  /** Client side (C API): no response within the timeout. */
  public static final ResultCode TIMEOUT = define(85, "timeout");
  /** Client side (C API): no server a referral named could be reached. */
  public static final ResultCode CONNECT_ERROR = define(91, "connectError");
  /** Client side (C API): following referrals went more hops deep than allowed. */
  public static final ResultCode REFERRAL_LIMIT_EXCEEDED = define(97, "referralLimitExceeded");
  public static final ResultCode CANCELED = define(118, "canceled");
  public static final ResultCode NO_SUCH_OPERATION = define(119, "noSuchOperation");
  public static final ResultCode TOO_LATE = define(120, "tooLate");
  public static final ResultCode CANNOT_CANCEL = define(121, "cannotCancel");
  public static final ResultCode ASSERTION_FAILED = define(122, "assertionFailed");
  public static final ResultCode AUTHORIZATION_DENIED = define(123, "authorizationDenied");

  private static ResultCode define(int value, String name) {
    ResultCode c = new ResultCode(value);
    KNOWN.put(value, c);
    NAMES.put(value, name);
    return c;
  }

  /** Returns the code for {@code value}: a shared constant when the code is known. */
  public static ResultCode valueOf(int value) {
    ResultCode c = KNOWN.get(value);
    return c != null ? c : new ResultCode(value);
  }

  /** Returns the RFC's name, such as {@code noSuchObject}, or {@code unknown(n)}. */
  public String name() {
    String n = NAMES.get(value);
    return n != null ? n : "unknown(" + value + ")";
  }

  /**
   * Returns true for the codes that do not signal an error: success, the compare results and
   * saslBindInProgress. A referral is not success: the operation was not performed here.
   */
  public boolean isSuccess() {
    return value == 0 || value == 5 || value == 6 || value == 14;
  }

  @Override
  public String toString() {
    return name() + " (" + value + ")";
  }
}
