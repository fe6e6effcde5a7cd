#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1 and that the `postgres` role connects over TCP
# without a password (trust), for the Postgres contract tests. Idempotent: where all of that already
# holds it changes nothing. Debian/Ubuntu (postgresql-common) only; run as root or with sudo -n.
# ENSURE_PG_PORT / ENSURE_PG_CLUSTER (default 5432 / main) exist to try the script on a spare cluster.
set -euo pipefail

HOST=127.0.0.1
PORT="${ENSURE_PG_PORT:-5432}"
CLUSTER="${ENSURE_PG_CLUSTER:-main}"
say() { echo "ensure-postgres: $*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -h "$HOST" -p "$PORT" -q; }
connects() { psql -h "$HOST" -p "$PORT" -U postgres -d postgres -w -Atqc 'SELECT 1' >/dev/null 2>&1; }

wait_ready() {
  for _ in $(seq 1 150); do
    if ready; then return 0; fi
    sleep 0.2
  done
  say "the server did not become ready on $HOST:$PORT within 30 s"
  exit 1
}

# The newest major version holding our cluster; else the newest installed one.
cluster_version() {
  local v
  v="$(pg_lsclusters -h 2>/dev/null | awk -v c="$CLUSTER" '$2 == c { print $1 }' | sort -V | tail -n 1)"
  if [ -z "$v" ]; then v="$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1)"; fi
  echo "$v"
}

if ready; then
  say "a server already answers on $HOST:$PORT"
else
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    say "PostgreSQL is not installed: apt-get install postgresql"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql
  fi
  version="$(cluster_version)"
  if [ -z "$version" ]; then
    say "no PostgreSQL version found under /usr/lib/postgresql"
    exit 1
  fi
  if ! pg_lsclusters -h | awk '{ print $1, $2 }' | grep -qx "$version $CLUSTER"; then
    say "creating cluster $version $CLUSTER on port $PORT"
    as_root pg_createcluster "$version" "$CLUSTER" -p "$PORT"
  fi
  say "starting cluster $version $CLUSTER"
  # Already running (on another address) is fine: wait_ready decides.
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" "$CLUSTER" start || true
  wait_ready
  say "the server answers on $HOST:$PORT"
fi

if connects; then
  say "role postgres connects over TCP without a password"
else
  version="$(cluster_version)"
  hba="/etc/postgresql/$version/$CLUSTER/pg_hba.conf"
  if ! as_root grep -q '^# herald: trust local TCP' "$hba"; then
    say "adding trust for 127.0.0.1 and ::1 at the top of $hba"
    tmp="$(mktemp)"
    {
      echo '# herald: trust local TCP (scripts/ensure-postgres.sh, for tests)'
      echo 'host all all 127.0.0.1/32 trust'
      echo 'host all all ::1/128 trust'
      as_root cat "$hba"
    } >"$tmp"
    as_root cp "$tmp" "$hba"
    rm -f "$tmp"
  fi
  say "reloading cluster $version $CLUSTER"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" "$CLUSTER" reload
  for _ in $(seq 1 25); do
    if connects; then break; fi
    sleep 0.2
  done
  if ! connects; then
    # Debian's clusters are made with the superuser role `postgres`; one made otherwise needs it added.
    say "role postgres still cannot connect over TCP to $HOST:$PORT"
    exit 1
  fi
  say "role postgres connects over TCP without a password"
fi

say "ready: postgres://postgres@$HOST:$PORT/postgres"
