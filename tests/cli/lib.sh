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

# A digest of every table's content, to prove "the database is unchanged".
db_digest() {
	sqlite3 "$PERFCORR_DB" .dump 2>/dev/null | sha256sum | cut -d' ' -f1
}

finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}
