#!/usr/bin/env bash
# Starts a real single-node Apache Kafka broker (KRaft, broker+controller in one JVM) from Maven
# Central jars: no Docker, no tarball. `npm run kafka:start`; stop with `npm run kafka:stop`.
#
#   1. classpath of tools/kafka/pom.xml (kafka_2.13 + log4j2 binding) via maven-dependency-plugin,
#      cached in ~/.m2 and in .kafka/classpath.txt (offline `mvn -o` once resolved);
#   2. fresh run dir .kafka/run: server.properties from tools/kafka/server.properties, storage
#      formatted with a new cluster id (kafka.tools.StorageTool format);
#   3. kafka.Kafka in the background; waits for "Kafka Server started" (the broker is unfenced
#      and serving) and for the port to accept connections;
#   4. writes .kafka/kafka.pid and .kafka/brokers (host:port). Idempotent: a running broker is
#      reported and left alone.
#
# Environment: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (KAFKA_PORT+1), KAFKA_HEAP_OPTS
# (-Xms128m -Xmx512m), KAFKA_JVM_OPTS (start-up oriented defaults below), KAFKA_START_TIMEOUT
# (seconds, 90), KAFKA_STATE_DIR (.kafka; the classpath cache stays in .kafka).
#
# Secured listeners, beside the PLAINTEXT one (tests of managed-Kafka settings; inter-broker and
# controller traffic stay PLAINTEXT):
#   KAFKA_SASL_PORT       SASL_PLAINTEXT listener: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
#   KAFKA_SSL_PORT        SSL listener, client certificate required
#   KAFKA_SASL_SSL_PORT   SASL_SSL listener (the three mechanisms over TLS, no client certificate)
#   KAFKA_SASL_USERS      user:password[,user:password…] — SCRAM-SHA-256 and -512 credentials
#                         written at format time (StorageTool --add-scram), PLAIN users in the JAAS
#   KAFKA_SSL_DIR         dir with ca.pem (trusted for client certificates) and broker.pem
#                         (unencrypted PKCS#8 key + certificate chain, PEM) for the SSL listeners
# KAFKA_KEEP_DATA=1 restarts on the existing log dir of this state dir (no format), e.g. after the
# broker was killed: same cluster, topics, offsets and transactions.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
POM="$ROOT/tools/kafka/pom.xml"
TEMPLATE="$ROOT/tools/kafka/server.properties"
LOG_CONFIG="$ROOT/tools/kafka/log4j2.properties"
STATE="${KAFKA_STATE_DIR:-$ROOT/.kafka}"
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((PORT + 1))}"
TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms128m -Xmx512m}"
# ParallelGC and a small metaspace start faster than G1 on 2 cores; override for benchmarks.
JVM_OPTS="${KAFKA_JVM_OPTS:--XX:+UseParallelGC -XX:ParallelGCThreads=2 -XX:CICompilerCount=2 -Xss512k -Djava.awt.headless=true}"
MDEP="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

PID_FILE="$STATE/kafka.pid"
RUN="$STATE/run"
LOG="$RUN/kafka.log"

log() { echo "kafka-start: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Is $1 a live broker process started by this script? (pid reuse guard: cmdline names kafka.Kafka)
is_our_broker() {
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null && tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka'
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

command -v java >/dev/null || die "java not found (Kafka 4.x needs Java 17+)"
mkdir -p "$STATE"

# One start at a time (two test runs starting together must not both format and launch).
exec 9>"$STATE/start.lock"
flock -w "$TIMEOUT" 9 || die "another kafka-start holds $STATE/start.lock"

if [ -f "$PID_FILE" ]; then
  OLD_PID="$(cat "$PID_FILE")"
  if is_our_broker "$OLD_PID"; then
    log "already running: $(cat "$STATE/brokers" 2>/dev/null || echo "127.0.0.1:$PORT") (pid $OLD_PID)"
    exit 0
  fi
  log "removing stale state of a broker that is gone (pid $OLD_PID)"
  rm -f "$PID_FILE" "$STATE/brokers"
fi
port_open "$PORT" && die "127.0.0.1:$PORT is already in use by another process (set KAFKA_PORT, or KAFKA_BROKERS to use that broker)"
port_open "$CONTROLLER_PORT" && die "controller port 127.0.0.1:$CONTROLLER_PORT is already in use (set KAFKA_CONTROLLER_PORT)"

T0=$(date +%s%N)

# --- 1. classpath (re-resolved only when the POM changes or a jar went missing) ---------------
CP_DIR="$ROOT/.kafka"
mkdir -p "$CP_DIR"
CP_FILE="$CP_DIR/classpath.txt"
CP_KEY="$CP_DIR/classpath.key"
KEY="$(sha256sum "$POM" | cut -d' ' -f1)"
cp_valid() {
  [ -s "$CP_FILE" ] && [ "$(cat "$CP_KEY" 2>/dev/null)" = "$KEY" ] || return 1
  local jar
  IFS=':' read -r -a JARS < "$CP_FILE"
  for jar in "${JARS[@]}"; do [ -f "$jar" ] || return 1; done
}
if ! cp_valid; then
  command -v mvn >/dev/null || die "mvn not found (needed once to resolve the Kafka jars into ~/.m2)"
  log "resolving the classpath of tools/kafka/pom.xml"
  resolve() { mvn -B -q "$@" -f "$POM" "$MDEP:build-classpath" -DincludeScope=runtime -Dmdep.outputFile="$CP_FILE.tmp"; }
  # offline first (works once ~/.m2 holds everything), else online (Maven Central) once
  if ! resolve -o >/dev/null 2>&1; then
    resolve || die "mvn could not resolve tools/kafka/pom.xml (is Maven Central reachable?)"
  fi
  mv "$CP_FILE.tmp" "$CP_FILE"
  echo "$KEY" > "$CP_KEY"
fi
CP="$(cat "$CP_FILE")"

# --- 2. fresh run dir, config, storage ----------------------------------------------------------
SASL_PORT="${KAFKA_SASL_PORT:-}"
SSL_PORT="${KAFKA_SSL_PORT:-}"
SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-}"
LOG_OPTS="-Dlog4j2.configurationFile=$LOG_CONFIG"
if [ "${KAFKA_KEEP_DATA:-}" = "1" ] && [ -f "$RUN/data/meta.properties" ]; then
  log "restarting on the existing log dir $RUN/data"
  CLUSTER_ID="$(sed -n 's/^cluster.id=//p' "$RUN/data/meta.properties")"
else
rm -rf "$RUN"
mkdir -p "$RUN/data"
sed -e "s#@PORT@#$PORT#g" -e "s#@CONTROLLER_PORT@#$CONTROLLER_PORT#g" -e "s#@LOG_DIR@#$RUN/data#g" \
  "$TEMPLATE" > "$RUN/server.properties"
FORMAT_ARGS=()
if [ -n "$SASL_PORT$SSL_PORT$SASL_SSL_PORT" ]; then
  LISTENERS="PLAINTEXT://127.0.0.1:$PORT"
  MAP="CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
  [ -n "$SASL_PORT" ] && { LISTENERS="$LISTENERS,SASL_PLAINTEXT://127.0.0.1:$SASL_PORT"; MAP="$MAP,SASL_PLAINTEXT:SASL_PLAINTEXT"; }
  [ -n "$SSL_PORT" ] && { LISTENERS="$LISTENERS,SSL://127.0.0.1:$SSL_PORT"; MAP="$MAP,SSL:SSL"; }
  [ -n "$SASL_SSL_PORT" ] && { LISTENERS="$LISTENERS,SASL_SSL://127.0.0.1:$SASL_SSL_PORT"; MAP="$MAP,SASL_SSL:SASL_SSL"; }
  {
    echo ""
    echo "# --- secured listeners (KAFKA_SASL_PORT / KAFKA_SSL_PORT / KAFKA_SASL_SSL_PORT) ---"
    echo "listeners=$LISTENERS,CONTROLLER://127.0.0.1:$CONTROLLER_PORT"
    echo "advertised.listeners=$LISTENERS"
    echo "listener.security.protocol.map=$MAP"
  } >> "$RUN/server.properties"
  if [ -n "$SASL_PORT$SASL_SSL_PORT" ]; then
    [ -n "${KAFKA_SASL_USERS:-}" ] || die "KAFKA_SASL_USERS (user:password,…) is needed with a SASL listener"
    PLAIN_USERS=""
    IFS=',' read -r -a PAIRS <<< "$KAFKA_SASL_USERS"
    for pair in "${PAIRS[@]}"; do
      user="${pair%%:*}"; pass="${pair#*:}"
      PLAIN_USERS="$PLAIN_USERS user_$user=\"$pass\""
      FORMAT_ARGS+=(--add-scram "SCRAM-SHA-256=[name=$user,password=$pass]" --add-scram "SCRAM-SHA-512=[name=$user,password=$pass]")
    done
    {
      echo "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"
      for l in ${SASL_PORT:+sasl_plaintext} ${SASL_SSL_PORT:+sasl_ssl}; do
        echo "listener.name.$l.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required$PLAIN_USERS;"
        echo "listener.name.$l.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
        echo "listener.name.$l.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
      done
    } >> "$RUN/server.properties"
  fi
  if [ -n "$SSL_PORT$SASL_SSL_PORT" ]; then
    SSL_DIR="${KAFKA_SSL_DIR:-}"
    [ -f "$SSL_DIR/broker.pem" ] && [ -f "$SSL_DIR/ca.pem" ] || die "KAFKA_SSL_DIR must hold ca.pem and broker.pem for an SSL listener"
    {
      echo "ssl.keystore.type=PEM"
      echo "ssl.keystore.location=$SSL_DIR/broker.pem"
      echo "ssl.truststore.type=PEM"
      echo "ssl.truststore.location=$SSL_DIR/ca.pem"
      [ -n "$SSL_PORT" ] && echo "listener.name.ssl.ssl.client.auth=required"
    } >> "$RUN/server.properties"
  fi
fi
# base64url of 16 random bytes = a valid cluster id (saves the JVM of `StorageTool random-uuid`).
# Like Kafka's own Uuid.randomUuid(), draw again when it starts with '-': the format tool's
# argument parser would read such an id as an option (1 start in 64 failed that way).
CLUSTER_ID=-
while [ "${CLUSTER_ID:0:1}" = "-" ]; do
  CLUSTER_ID="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
done
# shellcheck disable=SC2086 # word splitting of the option strings is intended
java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC $LOG_OPTS -cp "$CP" kafka.tools.StorageTool \
  format -t "$CLUSTER_ID" -c "$RUN/server.properties" "${FORMAT_ARGS[@]}" > "$RUN/format.log" 2>&1 9>&- \
  || { cat "$RUN/format.log" >&2; die "storage format failed"; }
fi
T1=$(date +%s%N)

# --- 3. start and wait ----------------------------------------------------------------------------
[ -f "$LOG" ] && mv "$LOG" "$LOG.prev" # a restart (KAFKA_KEEP_DATA) waits for its own start line
# shellcheck disable=SC2086
nohup java $HEAP_OPTS $JVM_OPTS $LOG_OPTS -Dkafka.logs.dir="$RUN" -cp "$CP" \
  kafka.Kafka "$RUN/server.properties" > "$LOG" 2>&1 < /dev/null 9>&- &  # 9>&-: the broker must not inherit the lock
PID=$!
echo "$PID" > "$PID_FILE"

deadline=$(( $(date +%s) + TIMEOUT ))
until grep -q 'Kafka Server started' "$LOG" 2>/dev/null && port_open "$PORT"; do
  if ! kill -0 "$PID" 2>/dev/null; then
    tail -n 40 "$LOG" >&2 || true
    rm -f "$PID_FILE"
    die "the broker exited during start-up (log: $LOG)"
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    tail -n 40 "$LOG" >&2 || true
    kill "$PID" 2>/dev/null || true
    rm -f "$PID_FILE"
    die "the broker was not ready within ${TIMEOUT}s (log: $LOG)"
  fi
  sleep 0.1
done
T2=$(date +%s%N)

echo "127.0.0.1:$PORT" > "$STATE/brokers"
log "ready: 127.0.0.1:$PORT (pid $PID, cluster $CLUSTER_ID) in $(( (T2 - T0) / 1000000 )) ms" \
  "(classpath+format $(( (T1 - T0) / 1000000 )) ms, broker $(( (T2 - T1) / 1000000 )) ms); log: $LOG"
