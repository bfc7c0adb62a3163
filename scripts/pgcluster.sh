#!/usr/bin/env bash
# A throwaway PostgreSQL server of this machine's version on a port of its own, for the tests that
# stop, hang, fail over or restrict the database (the machine's server on 5432 stays untouched):
#   scripts/pgcluster.sh init PORT              a new cluster (trust auth on 127.0.0.1), started
#   scripts/pgcluster.sh standby PORT PRIMARY   a streaming hot standby of the cluster on PRIMARY, started
#   scripts/pgcluster.sh start|stop|promote PORT
#   scripts/pgcluster.sh remove PORT            stopped and its folder deleted
# Needs root (PostgreSQL's tools run as the postgres user). Folders: /tmp/console-pg-PORT.
set -euo pipefail
action="${1:?usage: $0 init|standby|start|stop|promote|remove PORT [PRIMARY]}"
port="${2:?port}"
dir="/tmp/console-pg-$port"
bin="/usr/lib/postgresql/$(ls /etc/postgresql | head -n 1)/bin"
as_postgres() { su postgres -s /bin/bash -c "$*"; }
configure() {
  as_postgres "printf '%s\\n' \"listen_addresses = '127.0.0.1'\" \"port = $port\" \"unix_socket_directories = '/tmp'\" 'wal_level = replica' 'max_wal_senders = 5' 'hot_standby = on' 'fsync = off' 'shared_buffers = 32MB' >> '$dir/postgresql.conf'"
  as_postgres "printf '%s\\n' 'local all all trust' 'host all all 127.0.0.1/32 trust' 'host replication all 127.0.0.1/32 trust' > '$dir/pg_hba.conf'"
}
start() {
  as_postgres "$bin/pg_ctl -D '$dir' -l '$dir/server.log' -w -t 60 start" >/dev/null
  for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 -p "$port" && return 0; sleep 0.5; done
  echo "PostgreSQL on $port did not start" >&2
  exit 1
}

case "$action" in
  init)
    [ -d "$dir" ] && { as_postgres "$bin/pg_ctl -D '$dir' -m immediate -w stop" >/dev/null 2>&1 || true; rm -rf "$dir"; }
    mkdir -p "$dir" && chown postgres "$dir" && chmod 700 "$dir"
    as_postgres "$bin/initdb -D '$dir' -U postgres -A trust -E UTF8 --locale=C.UTF-8" >/dev/null
    configure
    start
    ;;
  standby)
    primary="${3:?primary port}"
    [ -d "$dir" ] && { as_postgres "$bin/pg_ctl -D '$dir' -m immediate -w stop" >/dev/null 2>&1 || true; rm -rf "$dir"; }
    mkdir -p "$dir" && chown postgres "$dir" && chmod 700 "$dir"
    as_postgres "$bin/pg_basebackup -h 127.0.0.1 -p $primary -U postgres -D '$dir' -R -X stream -c fast"
    as_postgres "sed -i '/^port = /d' '$dir/postgresql.conf'; echo 'port = $port' >> '$dir/postgresql.conf'"
    start
    ;;
  start) start ;;
  stop) as_postgres "$bin/pg_ctl -D '$dir' -m fast -w stop" >/dev/null ;;
  promote) as_postgres "$bin/pg_ctl -D '$dir' -w promote" >/dev/null ;;
  remove)
    [ -d "$dir" ] && as_postgres "$bin/pg_ctl -D '$dir' -m immediate -w stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 init|standby|start|stop|promote|remove PORT [PRIMARY]" >&2; exit 2 ;;
esac
