package dev.ferry.xop.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MediaType;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopException;
import dev.ferry.xop.XopPackage;
import java.io.IOException;
import java.io.InputStream;

/**
 * Lets the SOAP layer (the only module this package is exported to) read a package in one XML
 * pass over its root: it parses the root anyway, so instead of the package parsing it once more
 * to find its {@code xop:Include} elements, the SOAP layer reports each one it meets, then says
 * that it has read the whole root. The checks are the package's own, as {@link XopCodec#read}
 * makes them.
 */
public abstract class XopAccess {
  private static XopAccess instance;

  /** For {@code dev.ferry.xop} only: installs the implementation once. */
  protected XopAccess() {}

  /** Installs the implementation; called once by the {@code dev.ferry.xop} package. */
  public static synchronized void install(XopAccess access) {
    if (instance != null) {
      throw new IllegalStateException("already installed");
    }
    instance = access;
  }

  /** Returns the implementation. */
  public static XopAccess get() {
    XopAccess a = instance;
    if (a == null) {
      try { // initializes XopPackage, which installs it
        Class.forName(XopPackage.class.getName(), true, XopPackage.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      a = instance;
    }
    return a;
  }

  /**
   * As {@link XopCodec#read(InputStream, MediaType, long)}, except that an XOP package's
   * {@code xop:Include} elements are left to the caller: it calls {@link #include} for each in
   * the root and then {@link #includesRead}, before anything else uses the package.
   */
  public abstract XopPackage readLeavingIncludes(XopCodec codec, InputStream in,
      MediaType contentType, long length) throws IOException;

  /**
   * Whether {@code root} (UTF-8) of {@code pkg} may hold an {@code xop:Include}: an XOP package
   * whose root names the XOP namespace. Where not, no Include need be looked for.
   */
  public abstract boolean mayInclude(XopPackage pkg, ByteString root);

  /**
   * Notes an {@code xop:Include} of {@code pkg}'s root with its {@code href} attribute (null if
   * it has none), the start tag at {@code byteOffset} of the root; checks it as the package's
   * own reading does.
   */
  public abstract void include(XopPackage pkg, String href, long byteOffset)
      throws XopException;

  /** Says that every {@code xop:Include} of {@code pkg}'s root has been reported. */
  public abstract void includesRead(XopPackage pkg) throws XopException;
}
