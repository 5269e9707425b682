#!/bin/bash
# Capture every view of the review TUI at 80x24 on the demo, in tmux,
# as the screens docs/tui.md shows ("Every view at 80x24"):
#   bash scripts/tui_captures.sh build/perfcorr > /tmp/captures.md
# Builds the demo database in a temporary directory (scripts/demo.sh),
# records one annotation so the status column shows a state, then drives
# the real program (ASCII, NO_COLOR) and prints each screen in a fence.
set -eu
PC=$(realpath "${1:-build/perfcorr}")
T=$(mktemp -d)
SOCK="pccap$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
cd "$(dirname "$0")/.."
bash scripts/demo.sh "$PC" "$T/demo.db" </dev/null >/dev/null 2>&1
"$PC" --db "$T/demo.db" annotate --workload llama3-8b/decode/bs=8/seq=2048/bf16 \
	--op flash_attn --metric time --model archsim --ref h100-lab \
	--status explained --category modeling-error \
	--note "the combine step is free in the model" >/dev/null
start() {	# start MODEL REF: a fresh session on that pair
	tmux -L "$SOCK" kill-session -t cap 2>/dev/null || true
	tmux -L "$SOCK" new-session -d -x 80 -y 24 -s cap \
		"env PERFCORR_DB=$T/demo.db LC_ALL=C NO_COLOR=1 TERM=screen \
		USER=reviewer $PC tui --model $1 --ref $2; sleep 30"
	sleep 1.5
}
keys() { tmux -L "$SOCK" send-keys -t cap "$@"; sleep 0.6; }
shot() {	# shot TITLE: the pane, trailing blanks trimmed
	printf '%s\n\n```\n' "$1"
	tmux -L "$SOCK" capture-pane -p -t cap | sed 's/ *$//'
	printf '```\n\n'
}
start archsim h100-lab
shot "Discrepancies (1), archsim vs h100-lab:"
keys Enter
shot "Detail (Enter), its first screen:"
keys q
keys a
keys Tab Tab
keys -l "the split-kv combine takes a third of the kernel at bs=32 on H100, the model counts it as free"
shot "The annotation form (a), a long note wrapping:"
keys Escape
keys 2
shot "Summary (2):"
keys 3
shot "Trend (3):"
keys j Enter
shot "Regressions (Enter on 2.4.0 in the Trend):"
keys q 4
shot "Runs (4); h/l scroll the columns after run id and source:"
keys 5
shot "Disagreements (5); the roofline's column is the fraction of speed of light:"
keys l l l
shot "Disagreements after l l l: h100-lab, the annotation:"
keys h h h 6
shot "Verdicts (6):"
keys 7
shot "Sensitivity (7):"
keys 8
shot "Tiers (8):"
keys '?'
shot "Help (?), its first screen:"
start roofline h100-lab
shot "A roofline pairing is a bound (p reaches it; here --model roofline):"
