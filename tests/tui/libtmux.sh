# tmux helpers for tests/tui/tmux_*.sh (sourced after libtui.sh).
# Each test gets its own tmux server (-L), killed on exit, so a hung TUI
# fails the test (every wait has a timeout) and never outlives it.
SOCK="pctui$$"
TM() { tmux -L "$SOCK" "$@"; }
trap 'TM kill-server 2>/dev/null; rm -rf "$T"' EXIT

# tmux_start COLS ROWS [env NAME=VALUE...] -- [tui args...]
tmux_start() {
	local cols=$1 rows=$2 envs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
	[ "${1:-}" = "--" ] && shift
	rm -f "$T/exit"
	printf '%q ' env PERFCORR_DB="$PERFCORR_DB" USER=tester LC_ALL=C \
		TERM=screen "${envs[@]}" "$PERFCORR" tui "$@" > "$T/cmd"
	echo '; echo $? > '"$T/exit"'; sleep 60' >> "$T/cmd"
	TM new-session -d -x "$cols" -y "$rows" -s tui "bash $T/cmd" ||
		{ fail "tmux new-session"; return 1; }
}

screen() { TM capture-pane -p -t tui; }

# wait_for TEXT [SECONDS]: poll the pane until TEXT shows (default 30 s:
# generous, so a loaded CI machine or a sanitizer build is not a failure).
wait_for() {
	local limit=$(( ${2:-30} * 10 )) i=0
	while [ $i -lt $limit ]; do
		if screen | grep -qF -- "$1"; then ok; return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for '$1'; the screen was:"
	screen >&2
	return 1
}

# wait_exit [SECONDS]: the TUI exited; its status in $tui_rc.
wait_exit() {
	local limit=$(( ${1:-30} * 10 )) i=0
	while [ $i -lt $limit ]; do
		if [ -s "$T/exit" ]; then tui_rc=$(cat "$T/exit"); ok; return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "the TUI did not exit; the screen was:"
	screen >&2
	return 1
}

keys() { TM send-keys -t tui "$@"; }
