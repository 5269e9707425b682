# One SQL for both engines (issue 22): db/schema_pg.sql has the tables,
# columns and schema version of a fresh SQLite database, and every
# statement of db/ (outside the SQLite engine's own files) prepares on
# PostgreSQL (tests/pg/dialect.py). Skipped (77) without PostgreSQL.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
SRC=$(cd "$TESTS/.." && pwd)
pg_cluster_start || { fail "the cluster did not start"; finish; }
pg_psql -f "$SRC/db/schema_pg.sql" >/dev/null
expect_eq "$?" "0" "db/schema_pg.sql loads"
pc init 2>/dev/null
run python3 "$TESTS/pg/dialect.py" "$SRC" "$PERFCORR_DB" \
	"$PC_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PC_PG_DIR" \
	-U perfcorr -d perfcorr
expect_rc 0 "schema and statements portable"
[ "$rc" -eq 0 ] || echo "$err" >&2
echo "$out" >&2
# the checker can fail: a column SQLite has and PostgreSQL lacks, and a
# statement only SQLite parses, are both reported with their cause
pg_psql -c "ALTER TABLE runs DROP COLUMN identity" >/dev/null
mkdir -p "$T/src/db"
printf '%s\n' 'static const char *q = "SELECT x FROM runs WHERE "' \
	'	"id = ? ORDER BY rowid";' >"$T/src/db/bad.c"
run python3 "$TESTS/pg/dialect.py" "$T/src" "$PERFCORR_DB" \
	"$PC_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PC_PG_DIR" \
	-U perfcorr -d perfcorr
expect_rc 1 "a broken schema and statement fail"
expect_in "no column runs.identity (SQLite has text): add it" "$err" \
	"missing column named"
expect_in "db/bad.c:1: SELECT x FROM runs WHERE id = ? ORDER BY rowid" \
	"$err" "non-portable statement named with file:line"
expect_in 'column "x" does not exist' "$err" "PostgreSQL's message"
finish
