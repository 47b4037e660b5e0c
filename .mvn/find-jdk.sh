# Sourced by ./mvnw, ./ferry and .ci/run: points JAVA_HOME at a JDK 21 or newer.
# Order: JAVA_HOME if it already is one; else the newest JDK found in the usual install
# places; else the `java` on the PATH if it is new enough. Fails with a message otherwise.

ferry_java_major() { # $1 = path to a java binary; prints its feature version (17, 21, 25...)
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

ferry_find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    v=$(ferry_java_major "$JAVA_HOME/bin/java")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  best=""; best_v=0
  case $- in *f*) noglob=1; set +f ;; *) noglob=0 ;; esac
  for home in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /usr/local/jdk* \
              "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* \
              /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -x "$home/bin/javac" ] || continue
    [ -L "$home" ] && continue
    v=$(ferry_java_major "$home/bin/java")
    if [ -n "$v" ] && [ "$v" -gt "$best_v" ]; then best="$home"; best_v="$v"; fi
  done
  [ "$noglob" = 1 ] && set -f
  if [ "$best_v" -ge 21 ]; then echo "$best"; return 0; fi
  if command -v javac >/dev/null 2>&1; then
    home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(ferry_java_major "$home/bin/java")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$home"; return 0; fi
  fi
  return 1
}

ferry_use_jdk21() {
  found=$(ferry_find_jdk) || {
    echo "Ferry needs a JDK 21 or newer: set JAVA_HOME to one (none was found)." >&2
    return 1
  }
  JAVA_HOME="$found"; export JAVA_HOME
}
