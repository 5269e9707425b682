# Shared helpers for tests/cli/*.sh (sourced, not run).
# Env from ctest: PERFCORR (binary), FIXTURES, SAMPLES, TESTS, PC_STRESS,
# NO_COLOR=1. A script run by hand (bash tests/cli/x.sh, from anywhere)
# sources this file by its own location and gets the same defaults from
# this source tree and its build/ folder.
set -u
TESTS=${TESTS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
FIXTURES=${FIXTURES:-$(cd "$TESTS/.." && pwd)/fixtures}
SAMPLES=${SAMPLES:-$FIXTURES/samples}
PERFCORR=${PERFCORR:-$(cd "$TESTS/.." && pwd)/build/perfcorr}
if [ ! -x "$PERFCORR" ]; then
	echo "$0: no perfcorr binary at $PERFCORR: build it first" \
		"(cmake -S . -B build && cmake --build build) or set" \
		"PERFCORR to one" >&2
	exit 1
fi
PC_STRESS=${PC_STRESS:-$(dirname "$PERFCORR")/tests/pc_stress}
NO_COLOR=${NO_COLOR-1}
export TESTS FIXTURES SAMPLES PERFCORR PC_STRESS NO_COLOR
T=$(mktemp -d "${TMPDIR:-/tmp}/perfcorr-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
export PERFCORR_DB="$T/test.db"
# PERFCORR_TEST_DB_ENGINE=pg (issue 22): the test's database is a new
# PostgreSQL database on the cluster of tests/pg/cluster.sh that
# PC_PG_DIR names (started once for the run by tests/pg/run.sh)
if [ "${PERFCORR_TEST_DB_ENGINE:-sqlite}" = pg ]; then
	PC_PG_BIN=${PC_PG_BIN:?PERFCORR_TEST_DB_ENGINE=pg needs PC_PG_BIN}
	pg_db="t_$(basename "$T" | tr -c 'a-zA-Z0-9\n' _)"
	"$PC_PG_BIN/createdb" -h "${PC_PG_DIR:?PERFCORR_TEST_DB_ENGINE=pg needs PC_PG_DIR}" \
		-U perfcorr "$pg_db" || exit 1
	export PERFCORR_DB="postgresql:///$pg_db?host=$PC_PG_DIR&user=perfcorr"
	trap 'rm -rf "$T"; "$PC_PG_BIN/dropdb" -h "$PC_PG_DIR" -U perfcorr \
		--if-exists "$pg_db" 2>/dev/null' EXIT
fi
unset NO_COLOR_FORCE
FAILS=0
PASSES=0

pc() { "$PERFCORR" "$@"; }

# run CMD...: captures $out, $err, $rc
run() {
	out=$("$@" 2>"$T/.stderr") && rc=0 || rc=$?
	err=$(cat "$T/.stderr")
}

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
ok() { PASSES=$((PASSES + 1)); }

expect_rc() { # expected description
	if [ "$rc" -eq "$1" ]; then ok; else
		fail "$2: exit $rc, expected $1 (stderr: $err)"; fi
}
expect_in() { # needle haystack description
	case "$2" in *"$1"*) ok ;; *) fail "$3: '$1' not in: $2" ;; esac
}
expect_not_in() {
	case "$2" in *"$1"*) fail "$3: '$1' unexpectedly in: $2" ;; *) ok ;; esac
}
expect_eq() { # actual expected description
	if [ "$1" = "$2" ]; then ok; else
		fail "$3: got '$1', expected '$2'"; fi
}

# Whether $PERFCORR_DB is a PostgreSQL database (a test may point it at a
# file of its own on either run).
pc_db_is_server() {
	case "$PERFCORR_DB" in postgres://*|postgresql://*) return 0 ;; esac
	return 1
}

# SQL on the test's database, as `sqlite3 "$PERFCORR_DB" SQL...` would run
# it (rows as a|b|c), on either engine: pcsql "SELECT ..." or SQL on stdin.
pcsql() {
	if pc_db_is_server; then
		if [ $# -gt 0 ]; then
			printf '%s;\n' "$@" | "$PC_PG_BIN/psql" -X -A -t -q \
				-v ON_ERROR_STOP=1 "$PERFCORR_DB"
		else
			"$PC_PG_BIN/psql" -X -A -t -q -v ON_ERROR_STOP=1 \
				"$PERFCORR_DB"
		fi
	else
		sqlite3 "$PERFCORR_DB" "$@"
	fi
}

# A digest of every table's content, to prove "the database is unchanged".
db_digest() {
	if pc_db_is_server; then
		"$PC_PG_BIN/pg_dump" --data-only --inserts "$PERFCORR_DB" \
			2>/dev/null | grep -v '^--\|^SET \|^SELECT pg_catalog\|^\\' |
			sha256sum | cut -d' ' -f1
	else
		sqlite3 "$PERFCORR_DB" .dump 2>/dev/null | sha256sum |
			cut -d' ' -f1
	fi
}

finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}
