# Shared helpers for tests/tui/*.sh (sourced, not run).
# Builds a database from fixtures/tui/*.csv and drives `perfcorr tui`
# headless (PERFCORR_HEADLESS=1, newterm on /dev/null, keys from
# PERFCORR_SCRIPT) or in tmux. Screens are compared with expected text.
. "$(dirname "$0")/../cli/lib.sh"
export USER=tester
export TERM=dumb
export LC_ALL=C
unset NO_COLOR PERFCORR_TIMING

# The standard review database: archsim 2.3.0 and 2.4.0 (perfsim),
# roofline, t100-rtl and h100-lab (silicon), in that import order.
build_db() {
	local F="$FIXTURES/tui"
	pc init >/dev/null &&
	pc import --source h100-lab --kind silicon --version 2026.11 \
		"$F/silicon.csv" >/dev/null &&
	pc import --source archsim --kind perfsim --version 2.3.0 \
		"$F/archsim_v1.csv" >/dev/null &&
	pc import --source archsim --kind perfsim --version 2.4.0 \
		"$F/archsim.csv" >/dev/null &&
	pc import --source roofline --kind roofline --version 1.0 \
		"$F/roofline.csv" >/dev/null &&
	pc import --source t100-rtl --kind rtl --version r42 \
		"$F/rtl.csv" >/dev/null || { echo "build_db failed" >&2; exit 1; }
}

# tui_script COLS ROWS [tui args...] < keys: run headless with a 20 s
# limit (TUI_LIMIT seconds when set: a test that pairs a large study
# twice in one script); $out/$err/$rc as run() sets them.
tui_script() {
	local cols=$1 rows=$2 limit=${TUI_LIMIT:-20}
	shift 2
	cat > "$T/keys"
	run env PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" COLUMNS="$cols" \
		LINES="$rows" timeout "$limit" "$PERFCORR" tui "$@"
	if [ "$rc" -eq 124 ]; then fail "tui hung (killed after $limit s)"; fi
}

# expect_screen FILE NAME: compare a dumped screen with expected/NAME.
# UPDATE_SCREENS=1 rewrites the expected file instead.
expect_screen() {
	local exp="$TESTS/tui/expected/$2"
	if [ -n "${UPDATE_SCREENS:-}" ]; then cp "$1" "$exp"; fi
	if diff -u "$exp" "$1" >"$T/.diff"; then ok; else
		fail "screen $2 differs:"; cat "$T/.diff" >&2; fi
}

# screen_line FILE N: line N (1-based) of a dumped screen.
screen_line() { sed -n "${2}p" "$1"; }
