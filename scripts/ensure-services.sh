#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on this machine before the demo, the tests or a benchmark run.
# Starts them with the machine's own commands when they are down; fails with a clear message when it can't.
# Set VETTED_SKIP_SERVICE_START=1 to only check (for example when they run in Docker or elsewhere).
set -euo pipefail

PG_HOST="${PGHOST:-127.0.0.1}"
PG_PORT="${PGPORT:-5432}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"

pg_up() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" 2>/dev/null; }
redis_up() { [ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]; }

wait_for() { # wait_for <check-fn> <seconds>
  local i
  for ((i = 0; i < $2 * 5; i++)); do "$1" && return 0; sleep 0.2; done
  return 1
}

start_postgres() {
  if ! command -v pg_ctlcluster >/dev/null || [ ! -d /etc/postgresql ]; then return 1; fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start >/dev/null 2>&1 || true
  wait_for pg_up 30
}

start_redis() {
  command -v redis-server >/dev/null || return 1
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null 2>&1 || true
  wait_for redis_up 15
}

if ! pg_up; then
  if [ "${VETTED_SKIP_SERVICE_START:-}" = "1" ] || ! start_postgres; then
    echo "error: PostgreSQL is not answering on $PG_HOST:$PG_PORT and could not be started." >&2
    echo "       Start it (pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start," >&2
    echo "       or 'docker compose up -d postgres'), or point DATABASE_URL/PGHOST at a running server." >&2
    exit 1
  fi
  echo "started PostgreSQL on $PG_HOST:$PG_PORT"
fi

if ! redis_up; then
  if [ "${VETTED_SKIP_SERVICE_START:-}" = "1" ] || ! start_redis; then
    echo "error: Redis is not answering on $REDIS_HOST:$REDIS_PORT and could not be started." >&2
    echo "       Start it (redis-server --daemonize yes, or 'docker compose up -d redis'), or set REDIS_URL." >&2
    exit 1
  fi
  echo "started Redis on $REDIS_HOST:$REDIS_PORT"
fi
