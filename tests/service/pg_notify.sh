# The TUI's live refresh on PostgreSQL (issue 22): db_data_version, which
# the TUI polls (tui/data.c data_changed), LISTENs on a channel that
# every db_commit NOTIFYs in its transaction, and reads what arrived
# without blocking. pc_pgprobe changes holds one connection as the TUI
# does: another process's import and annotate move the counter (one
# each); nothing else does: an import into another database on the same
# server, a NOTIFY on another channel, the probe's own commit, a failed
# (rolled back) import. Skipped (77) without PostgreSQL.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
pg_cluster_start || { fail "the cluster did not start"; finish; }
pg_as_owner "$PC_PG_BIN/createdb" -h "$PC_PG_DIR" -U perfcorr other ||
	fail "createdb other"
OTHER="postgresql:///other?host=$PC_PG_DIR&user=perfcorr"
printf 'workload,op,metric,value,unit\nw1,gemm,time,1.5,us\nw2,gemm,time,2.5,us\n' \
	>"$T/a.csv"
printf 'workload,op,metric,value,unit\nw1,gemm,time,1.6,us\n' >"$T/b.csv"
printf 'workload,op,metric,value,unit\nw1,gemm,time,oops,us\n' >"$T/bad.csv"
pc --db "$PC_PG_URL" init >/dev/null 2>&1 || fail "init"
pc --db "$OTHER" init >/dev/null 2>&1 || fail "init other"

coproc PROBE { "$PC_PGPROBE" changes "$PC_PG_URL" 2>&1; }
# bash unsets PROBE_PID (and PROBE) once the coprocess has exited, which
# under set -u made the final wait fail when the probe ended first.
probe_pid=$PROBE_PID
ask() { # line -> the probe's answer
	echo "$1" >&"${PROBE[1]}"
	read -r -t 30 reply <&"${PROBE[0]}" || reply="(no answer)"
	printf '%s\n' "$reply"
}
read -r -t 30 first <&"${PROBE[0]}"
expect_eq "$first" "listening 0" "the probe listens"
expect_eq "$(ask "wait 300")" 0 "nothing happened"

pc --db "$OTHER" import -q --source sim --kind perfsim "$T/a.csv" ||
	fail "import other"
expect_eq "$(ask "wait 1000")" 0 "another database's commit is not heard"
pg_psql -c "NOTIFY some_other_channel" || fail "notify"
expect_eq "$(ask "wait 1000")" 0 "another channel is not heard"
expect_eq "$(ask commit)" committed "the probe commits"
expect_eq "$(ask "wait 1000")" 0 "its own commit is not another's change"

pc --db "$PC_PG_URL" import -q --source sim --kind perfsim "$T/a.csv" ||
	fail "import"
expect_eq "$(ask "wait 10000")" 1 "another process's import is heard"
pc --db "$PC_PG_URL" annotate --workload w1 --op gemm --status open \
	--category unknown --note n --author a >/dev/null || fail "annotate"
expect_eq "$(ask "wait 10000")" 2 "an annotation is heard"
pc --db "$PC_PG_URL" import -q --source lab --kind silicon "$T/bad.csv" \
	2>/dev/null && fail "a bad file imported"
expect_eq "$(ask "wait 1000")" 2 "a rolled-back import is not heard"
pc --db "$PC_PG_URL" import -q --source lab --kind silicon "$T/b.csv" ||
	fail "import b"
expect_eq "$(ask "wait 10000")" 3 "the next import is"
exec {PROBE[1]}>&-
wait "$probe_pid" || fail "the probe failed"
finish
