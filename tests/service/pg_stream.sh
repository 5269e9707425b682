# Streaming reads on PostgreSQL (issue 22): db_prepare_scan reads a
# server-side cursor in batches of 10000, so that the pairing walk, export
# and list hold one batch, not the whole result. On a table of 25000 rows
# (three batches): two streams stepped in turn each read everything; a
# write between two steps is committed at once (another connection sees
# it) while the stream reads the table as it was; a stream abandoned
# midway leaves no cursor and no transaction open and the next statement
# runs; the caller's commit midway keeps the stream going; a rollback
# midway makes the rest an error, never a short result; an error in a
# later batch is reported and leaves the connection usable. Expected
# values: sum 1..25000 = 25000 * 25001 / 2 = 312512500.
# Skipped (77) without PostgreSQL.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
pg_cluster_start || { fail "the cluster did not start"; finish; }
pc --db "$PC_PG_URL" init >/dev/null 2>&1 || fail "init"
out=$("$PC_PGPROBE" stream "$PC_PG_URL" 25000 2>&1) || fail "probe: $out"
line() { printf '%s\n' "$out" | grep "^$1" ; }
expect_eq "$(line interleaved)" \
	"interleaved: 25000 rows sum 312512500, 25000 rows sum 312512500" \
	"two streams in turn"
expect_eq "$(line "write seen")" "write seen by another connection: 25001 rows" \
	"a write between steps is committed"
expect_eq "$(line "stream after")" \
	"stream after the write: 25000 rows sum 312512500" \
	"the stream reads the table as it was"
expect_eq "$(line "after an abandoned")" "after an abandoned stream: 25001 rows" \
	"a statement after an abandoned stream"
expect_eq "$(line "open cursors")" "open cursors 0, in a transaction 0" \
	"nothing left open"
expect_eq "$(line "again")" "again from the start: 25001 rows sum 312512500" \
	"an abandoned stream reruns whole"
expect_eq "$(line "commit midway")" "commit midway: 25001 rows sum 312512500" \
	"the caller's commit keeps the stream"
# the rows of the batch already fetched are right; the next batch fails
expect_eq "$(line "rollback midway")" "rollback midway: error after 10000 rows" \
	"a rollback midway is an error"
expect_in "rolled back" "$out" "saying why"
# 1 / (i - 18750): the batch of rows 10001..20000 fails
expect_eq "$(line "error midway")" "error midway: error after 10000 rows" \
	"an error in a later batch"
expect_in "division by zero" "$out" "PostgreSQL's reason"
expect_eq "$(line "then")" "then: 25000 rows, in a transaction 0" \
	"the connection is usable after it"
finish
