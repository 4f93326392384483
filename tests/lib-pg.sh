# A private PostgreSQL 15 cluster for one test file, sourced by it:
#
#   . "$TOP/tests/lib-pg.sh"
#   pg_start || { skip "fleet" "$PG_WHY"; return 0; }
#   psql "$PG_URL" -c ...        # superuser kma_admin, database kma
#
# initdb into a fresh directory under /tmp owned by the unprivileged postgres user
# (the tests run as root and the server refuses to run as root; $TMP is root's, mode
# 0700, so the cluster lives beside it), listening on a Unix socket in that directory
# only (listen_addresses empty: no TCP port to clash with another test file or helper),
# fsync off (a test cluster: nothing to keep after a crash). The cluster is stopped and
# removed when the test file's shell exits (trap EXIT), or by pg_stop. pg_start fails
# with $PG_WHY only where the server cannot start: no PostgreSQL 15, no postgres user,
# initdb or the server refusing.
#
# pg_hba: the superuser and every role by trust on the socket, except the roles named
# kma_pw, which must give its password (scram-sha-256): the wrong-password tests.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_DIR= PG_URL= PG_WHY= PG_SOCK=

# pg_as_owner CMD...: CMD as the cluster's owner (postgres), from a directory it may read
pg_as_owner() {
	(cd / && setpriv --reuid=postgres --regid=postgres --init-groups -- "$@")
}

pg_start() {
	local t0=$EPOCHREALTIME
	if [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
		PG_WHY="no PostgreSQL 15 server in $PG_BIN (scripts/install-deps.sh installs postgresql-15)"
		return 1
	fi
	if ! id postgres > /dev/null 2>&1; then
		PG_WHY="no postgres user to own the cluster (the postgresql-15 package makes it)"
		return 1
	fi
	if [ "$(id -u)" != 0 ] && [ "$(id -un)" != postgres ]; then
		PG_WHY="the cluster must be run as postgres, and only root may switch to it"
		return 1
	fi
	PG_DIR=$(mktemp -d /tmp/kma-pg.XXXXXX) || { PG_WHY="mktemp failed"; return 1; }
	trap pg_stop EXIT
	chown postgres:postgres "$PG_DIR"
	chmod 0755 "$PG_DIR"
	if ! pg_as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U kma_admin --auth=trust \
		--no-sync --no-instructions -E UTF8 --locale=C > "$PG_DIR/initdb.log" 2>&1; then
		PG_WHY="initdb failed: $(tail -1 "$PG_DIR/initdb.log")"
		return 1
	fi
	printf '%s\n' 'local all kma_pw scram-sha-256' 'local all all trust' \
		> "$PG_DIR/data/pg_hba.conf"
	if ! pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
		-o "-c listen_addresses= -k $PG_DIR -c fsync=off -c full_page_writes=off \
		-c synchronous_commit=off -c max_connections=40 -c shared_buffers=16MB" \
		start > "$PG_DIR/pg_ctl.log" 2>&1; then
		PG_WHY="the server did not start: $(tail -1 "$PG_DIR/server.log")"
		return 1
	fi
	PG_SOCK=$PG_DIR
	PG_URL="host=$PG_DIR user=kma_admin dbname=kma"
	if ! psql -X -q "host=$PG_DIR user=kma_admin dbname=postgres" -c 'CREATE DATABASE kma' \
		> "$PG_DIR/psql.log" 2>&1; then
		PG_WHY="CREATE DATABASE failed: $(tail -1 "$PG_DIR/psql.log")"
		return 1
	fi
	PG_START_MS=$(( ($(ms "$EPOCHREALTIME") - $(ms "$t0")) ))
	return 0
}

# pg_stop: the cluster stopped (immediately: nothing in it is kept) and removed
pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	[ -f "$PG_DIR/data/postmaster.pid" ] &&
		pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop > /dev/null 2>&1
	rm -rf "$PG_DIR"
	PG_DIR=
}

# pg_q DB SQL...: psql's unaligned rows of SQL (a query with -v variables given as
# further "-v name=value" arguments) on database DB as the superuser; exits as psql
pg_q() {
	local db=$1
	shift
	psql -X -q -A -t -v ON_ERROR_STOP=1 "host=$PG_SOCK user=kma_admin dbname=$db" "$@"
}
