# The throwaway PostgreSQL cluster of tests/pg/cluster.sh (issue 22): it
# starts as root or not, listens on its own Unix socket only (no TCP
# port), takes SQL, and leaves nothing behind when stopped: no directory,
# no server process. Skipped (77) where PostgreSQL is not installed.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
pg_cluster_start || { fail "the cluster did not start"; finish; }
dir=$PC_PG_DIR
pid=$(head -1 "$dir/data/postmaster.pid")
[ -S "$dir/.s.PGSQL.5432" ] && ok || fail "no socket in $dir"
expect_in "host=$dir" "$PC_PG_URL" "the URL names the socket directory"
expect_eq "$(pg_psql -Atc "SHOW listen_addresses")" "" "no TCP listener"
if [ "$(id -u)" -eq 0 ]; then
	owner=$(stat -c %U "$dir/data")
	[ "$owner" != root ] && ok || fail "the server's files belong to root"
fi
pg_psql -c "CREATE TABLE t (x bigint); INSERT INTO t VALUES (6), (7)"
expect_eq "$(pg_psql -Atc "SELECT sum(x) FROM t")" "13" "SQL round trip"
# libpq's URI form with host= for the socket directory, as perfcorr's
# --db will take it
expect_eq "$("$PC_PG_BIN/psql" -X -Atc "SELECT count(*) FROM t" "$PC_PG_URL")" \
	"2" "the URL connects"
pg_cluster_stop
[ ! -e "$dir" ] && ok || fail "$dir left behind"
# pg_ctl stop -w returns once the pid file is gone; the process may
# take a moment more to exit
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "server $pid still running" || ok
finish
