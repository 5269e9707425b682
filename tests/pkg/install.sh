#!/usr/bin/env bash
# cmake --install: every file where it should be (and nothing else), the
# example files verbatim, --version, `perfcorr help` from the installed
# tree (man page, and --help without man), every page renders cleanly.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../pkg/lib_pkg.sh"

P=$T/prefix
run cmake --install "$BUILD" --prefix "$P"
expect_rc 0 "cmake --install"

got=$(cd "$P" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort)
want=$(expected_files)
if [ "$got" = "$want" ]; then ok; else
	fail "installed files differ (< got, > expected):
$(diff <(echo "$got") <(echo "$want"))"
fi
[ -x "$P/bin/perfcorr" ] && ok || fail "bin/perfcorr not executable"
cmp -s "$P/share/perfcorr/policy/example.json" "$FIXTURES/policy/example.json" \
	&& ok || fail "example policy differs from fixtures/policy/example.json"
cmp -s "$P/share/perfcorr/map/cuda_kernels.json" "$FIXTURES/map/cuda_kernels.json" \
	&& ok || fail "example mapping differs from fixtures/map/cuda_kernels.json"
# The example manifest is one the watcher accepts: drop it with data.
mkdir -p "$T/drop"
cp "$FIXTURES/native/ok.csv" "$T/drop/results.csv"
cp "$P/share/perfcorr/manifest/results.csv.perfcorr.json" "$T/drop/"
run env PERFCORR_DB="$T/m.db" "$P/bin/perfcorr" watch --once --interval 0.1 "$T/drop"
expect_rc 0 "watch --once on the example manifest"
expect_in "imported results.csv" "$out" "the example manifest imports"

check_version "$P/bin/perfcorr"
check_copyright "$P/share/doc/perfcorr/copyright"

# help COMMAND: the installed page through man, else --help.
if command -v man >/dev/null; then
	run env MANWIDTH=80 MANPAGER=cat PAGER=cat "$P/bin/perfcorr" help compare
	expect_rc 0 "help compare (man)"
	expect_in "PERFCORR-COMPARE(1)" "$(sed -n 1p <<<"$out")" "help opens perfcorr-compare(1)"
	expect_in "--group-by" "$out" "the page has the options"
	run env MANWIDTH=80 "$P/bin/perfcorr" help policy
	expect_in "PERFCORR-POLICY(5)" "$out" "help policy opens perfcorr-policy(5)"
else
	echo "man not installed: man-page checks skipped (scripts/bootstrap.sh installs man-db)" >&2
fi
mkdir -p "$T/noman"
run env PATH="$T/noman" "$P/bin/perfcorr" help compare
expect_rc 0 "help compare without man"
expect_eq "$out" "$("$PERFCORR" compare --help)" "help without man is --help"
run "$P/bin/perfcorr" help no-such-command
expect_rc 2 "help of an unknown command"

# Every installed page renders without a warning; and the check can fail.
if command -v man >/dev/null && command -v groff >/dev/null; then
	for page in "$P"/share/man/man*/*; do
		w=$(man_warnings "$page")
		[ -z "$w" ] && ok || fail "$w"
	done
	printf '.TH BAD 1\n.SH NAME\nbad \\- x\n.BOGUS\n' >"$T/bad.1"
	[ -n "$(man_warnings "$T/bad.1")" ] && ok || fail "a broken page passes the render check"
fi
finish
