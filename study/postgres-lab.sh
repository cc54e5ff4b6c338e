#!/usr/bin/env bash
# A real PostgreSQL server on this machine for the study library's PostgreSQL tests (Postgres*Test):
#
#   bash study/postgres-lab.sh up     start it (idempotent); prints its JDBC URL last, on stdout
#   bash study/postgres-lab.sh down   stop it
#
# up installs Debian's postgresql with apt-get when no initdb is found (as root, or with sudo without a
# password), makes a cluster under LAB/data (LAB is /tmp/tunekit-postgres-lab, or $POSTGRES_LAB_DIR) with the
# superuser tunekit (password tunekit, asked on TCP, scram-sha-256), listens on 127.0.0.1 only, on a free port
# kept in LAB/port, and creates the database tunekit. PostgreSQL refuses to run as root: as root the server runs
# as the user tunekit-pg (added when missing); otherwise as the user who runs this. For tests only: fsync is off,
# unless POSTGRES_LAB_DURABLE=1 (the library's overhead benchmark measures a server that syncs every commit, as
# the SQLite store does).
set -euo pipefail

lab="${POSTGRES_LAB_DIR:-/tmp/tunekit-postgres-lab}"
data="$lab/data"
db_user=tunekit
db_password=tunekit
database=tunekit
say() { echo "postgres-lab: $*" >&2; }
die() { say "$*"; exit 1; }

if [ "$(id -u)" = 0 ]; then
  run_user=tunekit-pg
  as_user() { runuser -u "$run_user" -- "$@"; }
else
  run_user="$(id -un)"
  as_user() { "$@"; }
fi

bin_dir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return 0; fi
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

install_postgres() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      die "PostgreSQL (initdb, pg_ctl) is not installed and this is neither root nor sudo without a password: apt-get install postgresql, then run this again"
    fi
  fi
  say "installing postgresql with apt-get"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null </dev/null \
    || { $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null </dev/null \
         && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null </dev/null; } \
    || die "apt-get could not install postgresql"
}

running() { [ -n "${bin:-}" ] && [ -f "$data/PG_VERSION" ] && as_user "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

down() {
  bin="$(bin_dir || true)"
  if running; then
    as_user "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    say "stopped the server of $data"
  else
    say "no server runs in $data"
  fi
}

up() {
  bin="$(bin_dir || true)"
  if [ -z "$bin" ]; then
    install_postgres
    bin="$(bin_dir)" || die "postgresql was installed but no initdb was found under /usr/lib/postgresql"
  fi
  if [ "$(id -u)" = 0 ] && ! id "$run_user" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$run_user"
    say "added user $run_user"
  fi
  mkdir -p "$lab"
  [ "$(id -u)" = 0 ] && chown "$run_user" "$lab"
  chmod 755 "$lab"
  [ "$(stat -c %U "$lab")" = "$run_user" ] || die "$lab belongs to $(stat -c %U "$lab"), not $run_user: remove it or set POSTGRES_LAB_DIR"

  if [ ! -f "$data/PG_VERSION" ]; then
    local pw="$lab/password"
    printf '%s\n' "$db_password" > "$pw"
    [ "$(id -u)" = 0 ] && chown "$run_user" "$pw"
    chmod 600 "$pw"
    as_user "$bin/initdb" -D "$data" -U "$db_user" --pwfile="$pw" --auth-local=trust --auth-host=scram-sha-256 \
      -E UTF8 --no-locale >"$lab/initdb.log" 2>&1 || die "initdb failed; see $lab/initdb.log"
    rm -f "$pw"
    say "made a cluster in $data ($("$bin/postgres" --version))"
  fi

  local port=""
  [ -f "$lab/port" ] && port="$(cat "$lab/port")"
  if running; then
    say "already running in $data on 127.0.0.1:$port"
  else
    if [ -z "$port" ] || ! port_free "$port"; then
      port=""
      for p in $(seq 55432 55532); do port_free "$p" && { port="$p"; break; }; done
      [ -n "$port" ] || die "no free port in 55432-55532 on 127.0.0.1"
    fi
    echo "$port" > "$lab/port"
    durable=off
    [ "${POSTGRES_LAB_DURABLE:-}" = 1 ] && durable=on
    as_user tee "$data/tunekit-lab.conf" >/dev/null <<CONF
# written by tunekit's study/postgres-lab.sh: a test server
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$lab'
max_connections = 60
shared_buffers = 32MB
fsync = $durable
synchronous_commit = $durable
full_page_writes = $durable
log_min_messages = warning
CONF
    grep -q "^include_if_exists = 'tunekit-lab.conf'" "$data/postgresql.conf" \
      || echo "include_if_exists = 'tunekit-lab.conf'" | as_user tee -a "$data/postgresql.conf" >/dev/null
    as_user "$bin/pg_ctl" -D "$data" -l "$lab/server.log" -w -t 60 start >/dev/null \
      || die "the server did not start; see $lab/server.log"
    say "started on 127.0.0.1:$port (data $data, log $lab/server.log)"
  fi
  if [ -z "$(as_user "$bin/psql" -h "$lab" -p "$port" -U "$db_user" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" ]; then
    as_user "$bin/createdb" -h "$lab" -p "$port" -U "$db_user" "$database"
    say "created the database $database"
  fi
  say "user $db_user, password $db_password"
  echo "jdbc:postgresql://127.0.0.1:$port/$database"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up | down" >&2; exit 2 ;;
esac
