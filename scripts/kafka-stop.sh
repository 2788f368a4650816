#!/usr/bin/env bash
# Stops the broker started by scripts/kafka-start.sh: SIGTERM to the pid in .kafka/kafka.pid
# (Kafka shuts down cleanly), SIGKILL after KAFKA_STOP_TIMEOUT seconds (20), then removes the run
# dir (log dir, logs) and the pid file. Idempotent: no broker running is reported, not an error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="${KAFKA_STATE_DIR:-$ROOT/.kafka}"
PID_FILE="$STATE/kafka.pid"
TIMEOUT="${KAFKA_STOP_TIMEOUT:-20}"

log() { echo "kafka-stop: $*" >&2; }
is_our_broker() {
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null && tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka'
}
cleanup() { rm -rf "$STATE/run"; rm -f "$PID_FILE" "$STATE/brokers"; }

if [ ! -f "$PID_FILE" ]; then
  log "no broker running (no $PID_FILE)"
  cleanup
  exit 0
fi
PID="$(cat "$PID_FILE")"
if ! is_our_broker "$PID"; then
  log "no broker running (pid $PID is gone); cleaned up"
  cleanup
  exit 0
fi

T0=$(date +%s%N)
kill -TERM "$PID"
deadline=$(( $(date +%s) + TIMEOUT ))
while kill -0 "$PID" 2>/dev/null; do
  if [ "$(date +%s)" -ge "$deadline" ]; then
    log "pid $PID still alive after ${TIMEOUT}s: SIGKILL"
    kill -KILL "$PID" 2>/dev/null || true
    sleep 0.2
    break
  fi
  sleep 0.1
done
cleanup
log "stopped (pid $PID) in $(( ($(date +%s%N) - T0) / 1000000 )) ms"
