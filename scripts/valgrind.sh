#!/usr/bin/env bash
# The whole test suite under valgrind memcheck (slow: tens of minutes;
# ctest's service/valgrind runs a bounded subset on every `make test`).
# Every perfcorr started by tests/{cli,service,tui}/*.sh runs through a
# wrapper that reports memcheck errors (definite leaks included) into
# $LOGS; unit tests and fuzz replays run under valgrind directly.
#   scripts/valgrind.sh [BUILD_DIR] [TEST_GLOB]   (default build, '*')
# Exit 1 when any memcheck error was reported.
set -uo pipefail
cd "$(dirname "$0")/.."
B=$(cd "${1:-build}" && pwd)
GLOB=${2:-*}
ROOT=$PWD
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/perfcorr-vg.XXXXXX")
PER_TEST=${VALGRIND_TEST_TIMEOUT:-900}
chmod 1777 "$LOGS"	# crash.sh runs perfcorr as nobody too
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 1; }
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
cat >"$LOGS/perfcorr" <<W
#!/bin/sh
exec $VG --log-file="$LOGS/vg.%p.log" "$B/perfcorr" "\$@"
W
chmod 755 "$LOGS/perfcorr"
bad=0
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	case $(basename "$t") in $GLOB) ;; *) continue ;; esac
	FIXTURES=$ROOT/fixtures TESTS=$ROOT/tests $VG --log-file="$LOGS/vg.unit.$(basename "$t").log" "$t" >/dev/null 2>&1 ||
		echo "unit $(basename "$t"): exit $?"
done
for s in tests/cli/*.sh tests/service/*.sh tests/tui/*.sh; do
	case $s in */lib*.sh|*/valgrind.sh) continue ;; esac
	case $(basename "$s" .sh) in $GLOB) ;; *) continue ;; esac
	start=$(date +%s)
	PERFCORR=$LOGS/perfcorr FIXTURES=$ROOT/fixtures SAMPLES=$ROOT/fixtures/samples \
		TESTS=$ROOT/tests NO_COLOR=1 PC_STRESS=$B/tests/pc_stress \
		timeout "$PER_TEST" bash "$s" >"$LOGS/$(basename "$s").out" 2>&1
	echo "$s: exit $? in $(( $(date +%s) - start )) s (functional failures under valgrind can be timing)"
done
for f in "$LOGS"/vg.*.log; do
	[ -s "$f" ] || continue
	if grep -q 'ERROR SUMMARY: [1-9]\|definitely lost\|Invalid \|uninitialised' "$f"; then
		echo "memcheck: $f"; sed -n 1,30p "$f"; bad=1
	fi
done
echo "logs in $LOGS"
[ $bad -eq 0 ] && echo "valgrind: no memcheck errors"
exit $bad
