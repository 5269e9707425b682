# A private, throwaway PostgreSQL cluster for tests (issue 22). Sourced:
#   . tests/pg/cluster.sh
#   pg_cluster_start || exit 77     # 77: no PostgreSQL here (a skip)
#   ... "$PC_PG_URL" (postgresql:///perfcorr?host=DIR&user=perfcorr) ...
#   pg_cluster_stop                 # also run by the EXIT trap it sets
# pg_cluster_start DIR starts it in DIR and sets no trap (a cluster that
# several tests share: tests/pg/fixture.sh).
# initdb into a new temporary directory, pg_ctl start with no TCP port
# (listen_addresses='') and the Unix socket in that directory, trust
# authentication for that socket only. Nothing else on the machine is
# touched: no system cluster, no port, no service. As root the server
# runs as an unprivileged user (PC_PG_USER, default nobody), because
# PostgreSQL refuses to run as root; that user owns only the directory.
PC_PG_BIN=${PC_PG_BIN:-}
if [ -z "$PC_PG_BIN" ]; then
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && PC_PG_BIN=$d
	done
	command -v initdb >/dev/null 2>&1 && [ -z "$PC_PG_BIN" ] &&
		PC_PG_BIN=$(dirname "$(command -v initdb)")
fi
PC_PG_DIR=
PC_PG_URL=

# Run a PostgreSQL program as the cluster's owner.
pg_as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u "${PC_PG_USER:-nobody}" -- "$@"
	else
		"$@"
	fi
}

pg_cluster_start() {
	if [ -z "$PC_PG_BIN" ] || [ ! -x "$PC_PG_BIN/pg_ctl" ]; then
		echo "pg_cluster: no PostgreSQL server programs (initdb," \
			"pg_ctl): apt-get install postgresql" >&2
		return 1
	fi
	if [ $# -gt 0 ]; then
		# a cluster shared by a test run (tests/pg/fixture.sh): the
		# caller stops it
		PC_PG_DIR=$1
		rm -rf "$PC_PG_DIR"
		mkdir -p "$PC_PG_DIR" || return 1
	else
		PC_PG_DIR=$(mktemp -d /tmp/pc-pg.XXXXXX)
		trap pg_cluster_stop EXIT
	fi
	chmod 700 "$PC_PG_DIR"
	[ "$(id -u)" -eq 0 ] && chown "${PC_PG_USER:-nobody}" "$PC_PG_DIR"
	if ! pg_as_owner "$PC_PG_BIN/initdb" -D "$PC_PG_DIR/data" -U perfcorr \
		--auth=trust -E UTF8 --locale=C.UTF-8 --no-sync \
		>"$PC_PG_DIR/initdb.log" 2>&1; then
		echo "pg_cluster: initdb failed:" >&2
		cat "$PC_PG_DIR/initdb.log" >&2
		return 1
	fi
	# fsync off: a test cluster is thrown away, never recovered
	if ! pg_as_owner "$PC_PG_BIN/pg_ctl" -D "$PC_PG_DIR/data" -w \
		-l "$PC_PG_DIR/server.log" -o "-c listen_addresses='' \
		-c unix_socket_directories='$PC_PG_DIR' -c fsync=off \
		-c full_page_writes=off -c synchronous_commit=off" start \
		>/dev/null 2>&1; then
		echo "pg_cluster: the server did not start:" >&2
		cat "$PC_PG_DIR/server.log" >&2
		return 1
	fi
	pg_as_owner "$PC_PG_BIN/createdb" -h "$PC_PG_DIR" -U perfcorr \
		perfcorr || return 1
	PC_PG_URL="postgresql:///perfcorr?host=$PC_PG_DIR&user=perfcorr"
	export PC_PG_DIR PC_PG_URL PC_PG_BIN
}

# psql on the cluster's database, quiet and failing on the first error.
pg_psql() {
	"$PC_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PC_PG_DIR" \
		-U perfcorr -d perfcorr "$@"
}

pg_cluster_stop() {
	[ -n "$PC_PG_DIR" ] || return 0
	if [ -f "$PC_PG_DIR/data/postmaster.pid" ]; then
		pg_as_owner "$PC_PG_BIN/pg_ctl" -D "$PC_PG_DIR/data" -m immediate \
			-w stop >/dev/null 2>&1
	fi
	rm -rf "$PC_PG_DIR"
	PC_PG_DIR=
}
