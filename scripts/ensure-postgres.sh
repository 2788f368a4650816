#!/usr/bin/env bash
# Makes sure PostgreSQL answers at 127.0.0.1:5432 (trust auth, database `test`), for the billing
# store tests. Starts the local cluster if it is down, then waits until pg_isready says yes.
# Usage: scripts/ensure-postgres.sh [timeout-seconds]   (default 60)
set -euo pipefail

HOST=127.0.0.1
PORT=5432
TIMEOUT="${1:-60}"

ready() { pg_isready -q -h "$HOST" -p "$PORT"; }

if ! command -v pg_isready >/dev/null 2>&1; then
  echo "ensure-postgres: pg_isready not found (is PostgreSQL installed?)" >&2
  exit 1
fi

if ! ready; then
  if [ ! -d /etc/postgresql ] || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "ensure-postgres: no cluster under /etc/postgresql to start" >&2
    exit 1
  fi
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "ensure-postgres: starting PostgreSQL $version/main" >&2
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
fi

for _ in $(seq 1 "$TIMEOUT"); do
  if ready; then
    # The tests use database `test`; create it if the cluster is new.
    if ! psql -h "$HOST" -p "$PORT" -U postgres -d test -Atc 'SELECT 1' >/dev/null 2>&1; then
      psql -h "$HOST" -p "$PORT" -U postgres -d postgres -Atc 'CREATE DATABASE test' >/dev/null 2>&1 || true
    fi
    echo "ensure-postgres: ready at $HOST:$PORT" >&2
    exit 0
  fi
  sleep 1
done
echo "ensure-postgres: PostgreSQL did not become ready within ${TIMEOUT}s" >&2
exit 1
