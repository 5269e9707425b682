#!/usr/bin/env bash
# valgrind memcheck on a bounded subset, inside ctest: imports (good and
# bad, several importers), listings, compare, report, annotate, watch,
# and 40 inputs of each fuzz corpus. Skipped (77) without valgrind or in an ASan build
# (the two do not mix). scripts/valgrind.sh runs the whole CLI suite.
. "$(dirname "$0")/../cli/lib.sh"
command -v valgrind >/dev/null || { echo "skip: valgrind not installed"; exit 77; }
if ldd "$PERFCORR" 2>/dev/null | grep -q libasan; then
	echo "skip: ASan build"; exit 77
fi
BIN=$(dirname "$PERFCORR")
VG=(valgrind -q --error-exitcode=99 --leak-check=full
	--errors-for-leak-kinds=definite --show-leak-kinds=definite)
vg() { # description CMD...: ok unless valgrind reports an error
	local t0=$(date +%s%N)
	local d=$1; shift
	"${VG[@]}" "$@" >"$T/vg.out" 2>"$T/vg.err"
	local r=$?
	if [ $r -eq 99 ] || grep -q '^==[0-9]*== ' "$T/vg.err"; then
		fail "$d: valgrind: $(grep '^==' "$T/vg.err" | head -20)"
	else ok; fi
	[ -n "${VG_TIMES:-}" ] && echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms $d" >&2
	return $r
}
vg "import ok.csv" "$PERFCORR" import -q --source lab --kind silicon "$FIXTURES/native/ok.csv"
vg "import ok.json" "$PERFCORR" import -q --source sim --kind perfsim "$FIXTURES/native/ok.json"
vg "import bad_quote.csv" "$PERFCORR" import -q --source lab "$FIXTURES/native/bad_quote.csv"
n=0
for f in "$FIXTURES"/hw/nsys/* "$FIXTURES"/rtl/cocotb_pe_v1.xml "$FIXTURES"/models/genz_decode_13b.csv; do
	[ -f "$f" ] || continue
	vg "import $(basename "$f")" "$PERFCORR" import -q --source "s$n" --kind silicon "$f"
	n=$((n + 1))
	[ $n -lt 3 ] || break
done
vg "runs" "$PERFCORR" runs
vg "workloads" "$PERFCORR" workloads
vg "export" "$PERFCORR" export results --format json
vg "compare" "$PERFCORR" compare --model sim --ref lab --points -g op
vg "report" "$PERFCORR" report --model sim --ref lab --format html
# a bad group key used to read an unset buffer (src/corrgroup.c)
"$PERFCORR" import -q --source lab2 --kind silicon "$FIXTURES/corr/lab.csv"
"$PERFCORR" import -q --source roof --kind roofline "$FIXTURES/corr/roof.csv"
vg "compare bad group key" "$PERFCORR" compare --model roof --ref lab2 -g bogus
vg "annotate" "$PERFCORR" annotate --status open --op gemm_qkv --all --note x
vg "annotations" "$PERFCORR" annotations
mkdir -p "$T/drop"
cp "$FIXTURES/native/ok.csv" "$T/drop/a.csv"
echo '{"source": "w", "kind": "silicon"}' >"$T/drop/a.csv.perfcorr.json"
cp "$FIXTURES/native/bad_unit.csv" "$T/drop/b.csv"
echo '{"source": "w"}' >"$T/drop/b.csv.perfcorr.json"
vg "watch --once" "$PERFCORR" watch --once --interval 0.2 "$T/drop"
[ -f "$T/drop/imported/a.csv" ] && [ -f "$T/drop/failed/b.csv.error" ] && ok || fail "watch under valgrind"
for t in "$BIN"/tests/fuzz/fuzz_*; do	# 40 inputs of each corpus
	c=$TESTS/fuzz/corpus/$(basename "$t" | sed 's/^fuzz_//')
	[ -d "$c" ] || continue
	mapfile -t in < <(ls "$c" | head -40 | sed "s|^|$c/|")
	vg "replay $(basename "$t")" "$t" "${in[@]}"
done
vg "unit test_service" "$BIN/tests/test_service"
finish
