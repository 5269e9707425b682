#!/usr/bin/env bash
# make demo: import fixtures/demo/ into a fresh database and open the
# review TUI on it (or print the comparison summary when there is no TUI
# or no terminal).
set -euo pipefail
PC=${1:-build/perfcorr}
DB=${2:-build/demo.db}
D=fixtures/demo
rm -f "$DB" "$DB-wal" "$DB-shm"
export PERFCORR_DB="$DB"
echo "demo: importing $D into $DB" >&2
"$PC" import -q --source roofline --kind roofline --version h100-datasheet \
	--platform H100-SXM5-80GB "$D/roofline.csv"
"$PC" import -q --source archsim --kind perfsim --version 2.3.0 \
	--platform H100-SXM5-80GB "$D/archsim-2.3.0.csv"
"$PC" import -q --source archsim --kind perfsim --version 2.4.0 \
	--platform H100-SXM5-80GB "$D/archsim-2.4.0.csv"
"$PC" import -q --source t100-rtl --kind rtl --version rtl-0.9 \
	--clock-mhz 1755 "$D/t100-rtl.csv"
"$PC" import -q --source h100-lab --kind silicon --version 2026-11-24 \
	--platform H100-SXM5-80GB "$D/h100-lab.csv"
"$PC" sources
if "$PC" help 2>/dev/null | grep -q '^  tui ' && [ -t 0 ] && [ -t 1 ]; then
	exec "$PC" tui --model archsim --ref h100-lab
fi
if "$PC" help 2>/dev/null | grep -q '^  compare '; then
	echo
	"$PC" compare --model archsim --ref h100-lab --group-by op
fi
