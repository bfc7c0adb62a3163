#!/usr/bin/env bash
# A hot standby of this machine's PostgreSQL (127.0.0.1:5432) on another port, for the read
# replica tests: `scripts/standby.sh start [port]` copies the primary with pg_basebackup and starts
# the copy as a streaming standby; `stop` stops it; `remove` stops it and deletes its folder.
# Needs root (it runs PostgreSQL's tools as the postgres user) and the primary's trust auth.
set -euo pipefail
action="${1:-start}"
port="${2:-${STANDBY_PORT:-5433}}"
dir="${STANDBY_DIR:-/tmp/console-standby-$port}"
bin="/usr/lib/postgresql/$(ls /etc/postgresql | head -n 1)/bin"
as_postgres() { su postgres -s /bin/bash -c "$*"; }

case "$action" in
  start)
    if pg_isready -q -h 127.0.0.1 -p "$port" && psql -h 127.0.0.1 -p "$port" -U postgres -Atc 'select pg_is_in_recovery()' 2>/dev/null | grep -q t; then
      echo "standby already on 127.0.0.1:$port"
      exit 0
    fi
    if [ ! -f "$dir/standby.signal" ]; then
      # The primary must take replication connections from this machine.
      hba="$(psql -h 127.0.0.1 -U postgres -Atc 'show hba_file')"
      if ! grep -Eq '^host\s+replication\s+all\s+127\.0\.0\.1/32' "$hba"; then
        echo 'host replication all 127.0.0.1/32 trust' >> "$hba"
        psql -h 127.0.0.1 -U postgres -qc 'select pg_reload_conf()' >/dev/null
      fi
      rm -rf "$dir"
      mkdir -p "$dir" && chown postgres "$dir" && chmod 700 "$dir"
      as_postgres "$bin/pg_basebackup -h 127.0.0.1 -p 5432 -U postgres -D '$dir' -R -X stream -c fast"
      # Debian keeps a cluster's configuration in /etc: the copy gets files of its own.
      as_postgres "printf '%s\\n' \"listen_addresses = '127.0.0.1'\" \"unix_socket_directories = '/tmp'\" > '$dir/postgresql.conf'"
      as_postgres "printf '%s\\n' 'local all all trust' 'host all all 127.0.0.1/32 trust' > '$dir/pg_hba.conf'"
    fi
    as_postgres "$bin/pg_ctl -D '$dir' -l '$dir/standby.log' -w -o \"-p $port -c hot_standby=on -c hot_standby_feedback=on\" start" >/dev/null
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 1; done
    psql -h 127.0.0.1 -p "$port" -U postgres -Atc 'select pg_is_in_recovery()' | grep -q t
    echo "standby on 127.0.0.1:$port ($dir)"
    ;;
  stop)
    [ -d "$dir" ] && as_postgres "$bin/pg_ctl -D '$dir' -m fast -w stop" >/dev/null 2>&1 || true
    ;;
  remove)
    [ -d "$dir" ] && as_postgres "$bin/pg_ctl -D '$dir' -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop|remove [port]" >&2; exit 2 ;;
esac
