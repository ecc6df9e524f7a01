#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the server tests, without systemd.
#
#   scripts/ci/postgres.sh start   # prints GOLF_TEST_POSTGRES=postgresql://...
#   scripts/ci/postgres.sh stop
#
# Installs Debian's postgresql when it is missing (apt-get, as root), runs initdb and
# pg_ctl as the postgres user in a temporary directory, listens on 127.0.0.1 only.
# Idempotent: start on a running cluster reuses it; stop on a stopped one does nothing.
# GOLF_PG_PORT (default 55432) and GOLF_PG_DIR (default /tmp/golf-pg-$GOLF_PG_PORT) choose
# where; the database is golf_test.
set -euo pipefail

PORT="${GOLF_PG_PORT:-55432}"
DIR="${GOLF_PG_DIR:-/tmp/golf-pg-$PORT}"
DATA="$DIR/data"
DB=golf_test

find_bin() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
    done
    return 1
}

install_postgres() {
    if find_bin >/dev/null; then return 0; fi
    if [ "$(id -u)" != 0 ]; then
        echo "postgres.sh: PostgreSQL is not installed and installing needs root" >&2
        echo "  (apt-get install -y postgresql)" >&2
        exit 1
    fi
    echo "postgres.sh: installing Debian's postgresql" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    find_bin >/dev/null
}

# Run a command as the postgres user when we are root (initdb refuses root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    install_postgres
    local bin
    bin="$(find_bin)"
    mkdir -p "$DIR"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$DIR"; fi
    if ! as_pg "$bin/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
        if [ ! -f "$DATA/PG_VERSION" ]; then
            as_pg "$bin/initdb" -D "$DATA" -A trust -U postgres --no-sync -E UTF8 \
                >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; exit 1; }
        fi
        as_pg "$bin/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 \
            -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400" \
            start >&2 || { cat "$DIR/server.log" >&2; exit 1; }
    fi
    local psql="$bin/psql"
    [ -x "$psql" ] || psql="$(command -v psql)"
    if ! as_pg "$psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc \
            "SELECT 1 FROM pg_database WHERE datname = '$DB'" postgres | grep -q 1; then
        as_pg "$psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE $DB" postgres >&2
    fi
    echo "GOLF_TEST_POSTGRES=postgresql://postgres@127.0.0.1:$PORT/$DB"
}

stop() {
    local bin pid
    if bin="$(find_bin)" && [ -f "$DATA/PG_VERSION" ]; then
        # A fast stop ends the sessions and writes a checkpoint, which on a loaded machine
        # can outlast pg_ctl's wait; its files must not be removed under a server that
        # still listens, so then an immediate stop, and at last the postmaster's pid.
        if [ -f "$DATA/postmaster.pid" ] &&
                ! as_pg "$bin/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >&2 &&
                ! as_pg "$bin/pg_ctl" -D "$DATA" -m immediate -w -t 30 stop >&2; then
            pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null || true)"
            if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
                echo "postgres.sh: PostgreSQL (pid $pid) did not stop; killing it" >&2
                kill -9 "$pid" 2>/dev/null || true
            fi
        fi
    fi
    rm -rf "$DIR"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
