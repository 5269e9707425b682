# Shared helpers for tests/cli/*.sh (sourced, not run).
# Env from ctest: PERFCORR (binary), FIXTURES, TESTS.
set -u
: "${PERFCORR:?PERFCORR must point at the perfcorr binary}"
: "${FIXTURES:?}"
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
