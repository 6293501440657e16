#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for CI: `postgres.sh start ENV_FILE` runs initdb in a temp
# folder as the postgres user, starts it on 127.0.0.1 at a random port (fsync off), creates
# the database elicit_test and writes TEST_DATABASE_URL, PG_DIR and PG_CTL to ENV_FILE for the
# caller to source; `postgres.sh stop ENV_FILE` stops it and removes the folder. Every step
# has a time limit; a failure says why and exits 1.
set -uo pipefail
cmd="$1" env_file="$2"
if [ "$cmd" = "stop" ]; then
  # shellcheck disable=SC1090
  [ -f "$env_file" ] && . "$env_file"
  [ -n "${PG_CTL:-}" ] && timeout 30 runuser -u postgres -- "$PG_CTL" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1
  [ -n "${PG_DIR:-}" ] && rm -rf "$PG_DIR"
  exit 0
fi
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$bin" ] || { echo "postgres: not installed"; exit 1; }
id postgres >/dev/null 2>&1 || { echo "postgres: no postgres user"; exit 1; }
dir="$(mktemp -d /tmp/elicit-ci-pg.XXXXXX)"
chown postgres "$dir"
port=$((20000 + RANDOM % 20000))
timeout 60 runuser -u postgres -- "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 ||
  { echo "postgres: initdb failed:"; tail -n 5 "$dir/initdb.log"; exit 1; }
timeout 60 runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null ||
  { echo "postgres: pg_ctl start failed:"; tail -n 5 "$dir/server.log"; exit 1; }
printf 'PG_DIR=%q\nPG_CTL=%q\n' "$dir" "$bin/pg_ctl" >"$env_file"
timeout 30 runuser -u postgres -- "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc \
  "create database elicit_test" >/dev/null || { echo "postgres: create database failed"; exit 1; }
echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/elicit_test" >>"$env_file"
echo "postgres: running on 127.0.0.1:$port for the server tests"
