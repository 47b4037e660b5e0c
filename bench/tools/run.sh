#!/usr/bin/env bash
# Runs the benchmarks behind docs/performance.md and writes their JMH JSON to bench/results/.
#
#   ./mvnw -q package -pl bench,cli -am -DskipTests     # the benchmarks jar and the ferry jar
#   bench/tools/run.sh                                  # every suite (about two hours)
#   bench/tools/run.sh mime broker                      # some suites
#   python3 bench/tools/charts.py                       # tables and docs/*.png from the JSON
#
# Run on a quiet machine: one benchmark at a time, no build beside it. nginx (for the broker
# suite) and slapd (for ldap-search) must be installed; the suites that need them say so.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck disable=SC1091
. .mvn/find-jdk.sh
ferry_use_jdk21
PATH="$JAVA_HOME/bin:$PATH"
JAR=bench/target/benchmarks.jar
OUT=bench/results
mkdir -p "$OUT"
VECTOR='--jvmArgsAppend --add-modules=jdk.incubator.vector'

jmh() { # name, then JMH arguments
  local name=$1; shift
  echo "== $name: $*" >&2
  java -jar "$JAR" "$@" -rf json -rff "$OUT/$name.json" > "$OUT/$name.log"
}

suite_mime() {
  jmh mime-parse 'MimeParseBenchmark.(ferry|rawRead|mime4j|mimepull)$' -p body=random,adversarial \
      -prof gc -f 2 -wi 3 -w 1s -i 5 -r 1s $VECTOR
  jmh mime-write 'MimeWriteBenchmark.(rawWrite|ferryRelated|cxf)$' -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s
}

suite_soap() {
  jmh soap-copy 'BrokerCopyBenchmark.(floorArraycopy|floorReceive|ferry|metro)$' \
      -p bodyBytes=65536,1048576 -prof gc -f 2 -wi 3 -w 1s -i 5 -r 1s
  jmh mtom-codec 'MtomCodecBenchmark.(rawCopy|ferry|cxf|metro)(Encode|Decode)?$' \
      -p blobBytes=65536,1048576,12582912 -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s
}

suite_broker() { # needs nginx
  jmh broker 'BrokerOverheadBenchmark' -p size=4096,32768,1048576,12582912 \
      -f 1 -wi 15 -w 3s -i 5 -r 3s
  jmh broker-32k 'BrokerOverheadBenchmark' -p size=32768 -f 1 -wi 15 -w 3s -i 20 -r 3s
  # every relay with Ferry's client (a Content-Length) and CXF's (chunked past 4,000 bytes)
  local probe="java -cp $JAR dev.ferry.bench.http.ProxyCpuProbe" paths=ferry-broker,nginx,netty-relay
  $probe 4096 1 20 $paths ferry,cxf > "$OUT/broker-cpu-4k.txt"
  $probe 32768 1 20 $paths ferry,cxf > "$OUT/broker-cpu-32k.txt"
  $probe 1048576 1 20 $paths ferry,cxf > "$OUT/broker-cpu-1m.txt"
  $probe 32768 8 20 $paths ferry,cxf > "$OUT/broker-cpu-32k-8.txt"
  # what JSON logs, exported spans and message logging cost ferry broker (the broker's JIT
  # needs more warm-up than a server's)
  local ops=ferry-broker,ferry-broker-json,ferry-broker-traced,ferry-broker-messages
  $probe 32768 1 40 $ops ferry > "$OUT/broker-cpu-ops-32k.txt"
  $probe 1024 1 30 $ops ferry > "$OUT/broker-cpu-ops-1k.txt"
}

suite_jaxws() {
  local typed='-p stack=ferry,ferry-jaxws,ferry-typed,cxf,metro'
  jmh http-echo 'EchoRoundTripBenchmark' $typed -p mtom=true -p size=4096,32768,1048576,12582912 \
      -f 1 -wi 10 -w 2s -i 5 -r 2s
  jmh http-alloc 'EchoRoundTripBenchmark.roundTrip' $typed -p mtom=true -p size=32768 -prof gc \
      -f 1 -wi 4 -w 2s -i 5 -r 2s
  jmh mtom-crossover 'EchoRoundTripBenchmark.roundTrip' -p stack=ferry-typed,cxf \
      -p mtom=true,false -p size=1024,2048,4096,8192,16384 -f 1 -wi 8 -w 2s -i 5 -r 1s
}

suite_server_cpu() { # each server in its own JVM: ferry serve, Ferry's JAX-WS endpoint, CXF's
  local probe="java -cp $JAR dev.ferry.bench.http.ServerCpuProbe"
  $probe 4096 1 20 > "$OUT/server-cpu-4k.txt"
  $probe 32768 1 20 > "$OUT/server-cpu-32k.txt"
  $probe 32768 8 20 > "$OUT/server-cpu-32k-8.txt"
  $probe 1048576 1 20 > "$OUT/server-cpu-1m.txt"
  # what JSON logs, exported spans (with and without attributes, and unsampled) and message
  # logging cost ferry serve
  local ops=ferry-serve,ferry-serve-json,ferry-serve-traced,ferry-serve-traced-bare
  ops=$ops,ferry-serve-unsampled,ferry-serve-messages
  $probe 1024 1 20 $ops ferry > "$OUT/server-cpu-ops-1k.txt"
  $probe 32768 1 20 $ops ferry > "$OUT/server-cpu-ops-32k.txt"
}

suite_war() { # the typed echo as a web application in Tomcat 11: Ferry's initializer, CXF's servlet
  local war='-p stack=ferry-war,cxf-war -p mtom=true'
  jmh war-echo 'EchoRoundTripBenchmark.roundTrip' $war -p size=4096,32768,1048576,12582912 \
      -bm sample -tu us -f 1 -wi 2 -w 2s -i 3 -r 2s
  jmh war-concurrent 'EchoRoundTripBenchmark.concurrent' $war -p size=32768 -bm thrpt -tu s \
      -f 1 -wi 3 -w 2s -i 8 -r 3s
}

suite_ldap() {
  jmh ldap-entry 'LdapEntryBenchmark.(arraycopy|ferry|unboundid|apache|opendj|bc)(Encode|Decode|DecodeCopied)?$' \
      -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s
}

suite_ldap_search() { # needs slapd
  java -cp "$JAR" dev.ferry.bench.ldap.LdapSearchProbe --searches 50000 --seconds 20 \
      --csv "$OUT/ldap-search.csv" --chart docs/ldap-search.png > "$OUT/ldap-search.txt"
}

suite_wss() {
  jmh wss-token 'WsSecurityRoundTripBenchmark' -p stack=ferry,cxf \
      -p security=none,usernameToken -p mtom=true -p blobBytes=1024,32768 -p keyType=RSA \
      -f 1 -wi 10 -w 3s -i 5 -r 3s
  jmh wss-signed 'WsSecurityRoundTripBenchmark' -p stack=ferry,cxf \
      -p security=none,signed -p mtom=false -p blobBytes=1024 -p keyType=RSA,EC \
      -f 1 -wi 10 -w 3s -i 5 -r 3s
  jmh wss-verify 'WsSecurityVerifyBenchmark' -f 1 -wi 10 -w 2s -i 5 -r 2s
  jmh wss-floor 'SignatureFloorBenchmark' -f 1 -wi 3 -w 1s -i 5 -r 1s
  jmh wss-library 'WssLibraryFloorBenchmark' -f 1 -wi 10 -w 2s -i 5 -r 2s
  java -Xmx256m -cp "$JAR" dev.ferry.bench.wss.SignedBrokerHeapProbe 200M > "$OUT/wss-heap.txt"
}

suite_rolling_restart() { # needs nginx: not timed, a drill; exits 1 if any call failed
  java -cp "$JAR" dev.ferry.bench.http.RollingRestartDrill 100 > "$OUT/rolling-restart.txt"
}

suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(mime soap broker jaxws server_cpu war ldap ldap_search wss)
for s in "${suites[@]}"; do
  "suite_${s//-/_}"
done
