#!/usr/bin/env bash
# make demo: import fixtures/demo/ (real tool formats, see
# fixtures/demo/gen_demo.py) into a database and open the review TUI on it,
# or print the comparison summary when there is no terminal. An existing
# demo database (with the review in it) is kept and reopened; --reset (make
# demo-reset) deletes it and imports afresh.
#   scripts/demo.sh [PERFCORR [DB [--reset]]]
set -euo pipefail
PC=${1:-build/perfcorr}
DB=${2:-build/demo.db}
RESET=${3:-}
D=fixtures/demo
P=H100-SXM5-80GB
if [ "$RESET" = --reset ]; then
	rm -f "$DB" "$DB-wal" "$DB-shm"
	echo "demo: deleted $DB" >&2
fi
case "$DB" in
postgres://*|postgresql://*) SERVER=1 ;;	# a server's database: straight in
*) SERVER= ;;
esac
if [ -z "$SERVER" ] && [ -e "$DB" ]; then
	echo "demo: keeping $DB and the review in it;" \
		"'make demo-reset' starts over" >&2
	# a database of an older perfcorr is upgraded in place (the read-only
	# commands below refuse an old schema)
	"$PC" --db "$DB" init >/dev/null
else
# imported into a temporary file, renamed when complete: an interrupted
# import leaves no half-built database to be kept next time
TMPDB="$DB.tmp"
[ -n "$SERVER" ] && TMPDB=$DB
[ -z "$SERVER" ] && rm -f "$TMPDB" "$TMPDB-wal" "$TMPDB-shm"
export PERFCORR_DB="$TMPDB"
echo "demo: importing $D into $DB" >&2
# roofline: computed by perfcorr from FLOPs and bytes per launch
# what each run cost (wall-clock) is recorded with it: `perfcorr tiers`
# weighs every tier's accuracy against it (fixtures/demo/README.md)
"$PC" roofline -q --hw fixtures/roofline/h100_sxm.json --ops "$D/roofline_ops.csv" \
	--source roofline --cost 2s
# performance simulator, two releases (in-house CSV)
for v in 2.3.0 2.4.0; do
	"$PC" import -q --source archsim --kind perfsim --version "$v" \
		--platform "$P" --cost 5.5h "$D/archsim-$v.csv"
done
# RTL simulation of the GEMM tiles, cycles at 1755 MHz
"$PC" import -q --source t100-rtl --kind rtl --version rtl-0.9 --clock-mhz 1755 \
	--cost 72h "$D/t100-rtl.csv"
# silicon: Nsight Systems kernel summaries, vLLM serving, nvidia-smi power
L=(--source h100-lab --kind silicon --version 2026-11-24 --platform "$P")
for f in "$D"/h100-lab/nsys_*.csv; do
	b=$(basename "$f" .csv)            # nsys_<phase>_bs<N>
	phase=${b#nsys_}; phase=${phase%_bs*}; bs=${b##*_bs}
	"$PC" import -q "${L[@]}" --map "$D/kernels.json" --cost 20min \
		--workload "llama3-8b/$phase/bs=$bs/seq=2048/bf16" "$f"
done
for f in "$D"/h100-lab/smi_decode_bs*.csv; do
	bs=$(basename "$f" .csv); bs=${bs##*_bs}
	"$PC" import -q "${L[@]}" --cost 5min \
		--workload "llama3-8b/decode/bs=$bs/seq=2048/bf16" "$f"
done
for f in "$D"/h100-lab/vllm_serve_*.json; do
	"$PC" import -q "${L[@]}" --cost 30min --workload llama3-8b/bf16 "$f"
done
# a second silicon source: the same SKU rented in a cloud (perfcorr CSV)
"$PC" import -q --source h100-cloud --kind silicon --version 2026-11-26 --platform "$P" \
	--cost 6h "$D/h100-cloud.csv"
# archsim's GEMM tile-efficiency table was fitted on the lab's decode GEMM
# measurements: those pairs say how well it was fitted, not how well it
# predicts (compare, report, the TUI's Summary split them; the gate warns
# on a rule that passes only thanks to them: fixtures/demo/README.md)
"$PC" mark -q --calibration --model archsim --workload 'llama3-8b/decode/*' \
	--op 'gemm_*' --pattern --note "GEMM efficiency table fitted on h100-lab's decode GEMMs"
if [ -z "$SERVER" ]; then
	mv "$TMPDB" "$DB"
	rm -f "$TMPDB-wal" "$TMPDB-shm"
fi
fi
export PERFCORR_DB="$DB"
"$PC" sources >&2
# the TUI opens on archsim vs h100-lab (the reference with most keys in
# common); p turns to archsim vs h100-cloud, whose serving sweep 6 judges
# against MLPerf's interactive limits (verdicts, tails: issue 38)
if "$PC" --help | grep -q '^  tui ' && [ -t 0 ] && [ -t 1 ]; then
	exec "$PC" tui --model archsim --slo mlperf:llama3.1-8b-interactive
fi
echo
"$PC" compare --model archsim --ref h100-lab --group-by op
