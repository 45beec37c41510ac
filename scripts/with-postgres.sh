#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server: a fresh cluster in a temp dir on a
# loopback port, removed afterwards even when the command fails. Exports
# DEPOT_TEST_DATABASE_URL for the tests (each test file creates and drops its own database).
# Usage: scripts/with-postgres.sh npx vitest run --project server
set -euo pipefail

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "PostgreSQL server binaries not found: apt-get install postgresql" >&2
  exit 1
fi
port=${DEPOT_TEST_PG_PORT:-54329}
dir=$(mktemp -d "${TMPDIR:-/tmp}/depot-pg.XXXXXX")
run_as_postgres() {
  # The server refuses to run as root; on a developer's own account it runs as that user.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$dir"

cleanup() {
  run_as_postgres "$pg_bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

run_as_postgres "$pg_bin/initdb" -D "$dir/data" -U depot --auth=trust --no-sync >/dev/null
run_as_postgres "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

export DEPOT_TEST_DATABASE_URL="postgres://depot@127.0.0.1:$port/postgres"
"$@"
