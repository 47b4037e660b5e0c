#!/bin/sh
# Runs StartupBench on what this command built (see docs/performance.md):
#   ./mvnw -q -pl spring-boot-bench,spring-boot-sample-cxf -am package -DskipTests \
#     dependency:build-classpath -Dmdep.includeScope=runtime \
#     -Dmdep.outputFile=target/runtime.classpath
# Arguments: starts of each starter (default 5), testMtom bytes (default 32768; 0: none),
# and "floor" for the applications without endpoints.
set -e
cd "$(dirname "$0")/.."
for m in spring-boot-bench spring-boot-sample-cxf; do
  [ -f $m/target/runtime.classpath ] || { echo "$m/target/runtime.classpath: build first" >&2; exit 1; }
done
classes=$PWD/spring-boot-bench/target/classes
printf '%s:%s' "$classes" "$(cat spring-boot-bench/target/runtime.classpath)" \
  > spring-boot-bench/target/ferry.classpath
printf '%s:%s' "$classes" "$(cat spring-boot-sample-cxf/target/runtime.classpath)" \
  > spring-boot-bench/target/cxf.classpath
. .mvn/find-jdk.sh
ferry_use_jdk21
exec "$JAVA_HOME/bin/java" -cp "$classes" dev.ferry.spring.boot.bench.StartupBench \
  spring-boot-bench/target/ferry.classpath spring-boot-bench/target/cxf.classpath \
  "${1:-5}" "${2:-32768}" spring-boot-bench/target/logs ${3:-}
