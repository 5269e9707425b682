#!/usr/bin/env bash
# Big PyTorch profiler traces (issue 36): peak RSS and CPU of `perfcorr
# import` of a synthetic Kineto trace (tests/bench/gen_trace.py: kernels,
# cpu_ops, runtime calls, flows, args) against python3's json.load of the
# same file, both under /usr/bin/time -v in the same run, interleaved.
# Not part of ctest (tests/cli/import_torch_big.sh is the 70 MB check).
#   tests/bench/big_trace.sh [PERFCORR] [SIZE_MB...]   (default 100 1024)
# Env: BENCH_TMP (default $TMPDIR or /tmp) holds the trace and the DB;
# BENCH_REPS (default 1) repetitions, medians reported; OLD_PERFCORR, a
# binary of the old code, is run once per size for its answer.
# Prints one markdown table row per size (docs/benchmarks.md, section
# "Big traces" of tests/bench/notes.md).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PERFCORR=${1:-$HERE/../../build/perfcorr}
shift || true
SIZES=${*:-100 1024}
REPS=${BENCH_REPS:-1}
W=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/perfcorr-bigtrace.XXXXXX")
trap 'rm -rf "$W"' EXIT
# measure NAME CMD...: "cpu_s rss_kib wall_s" of one run into $W/NAME.N
measure() {
	local name=$1
	shift
	/usr/bin/time -v -o "$W/tv" "$@" >/dev/null 2>"$W/err" ||
		{ echo "bench: $name failed: $(head -c 300 "$W/err")" >&2; return 1; }
	awk -F': ' '/User time/ {u=$2} /System time/ {s=$2}
		/Maximum resident/ {m=$2} /Elapsed \(wall/ {w=$2}
		END {n=split(w, a, ":"); t=0; for (i=1; i<=n; i++) t=t*60+a[i];
		     printf "%.2f %d %.2f\n", u+s, m, t}' "$W/tv" >>"$W/$name"
}
median() { # FILE COLUMN
	sort -n -k"$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print v[int((NR+1)/2)]}'
}
echo "| size | events | perfcorr CPU s | perfcorr peak RSS | python json.load CPU s | python peak RSS | CPU ratio | load avg |"
echo "|---|---|---|---|---|---|---|---|"
for mb in $SIZES; do
	rm -f "$W"/*.json "$W"/pc "$W"/py
	python3 "$HERE/gen_trace.py" "$W/t.json" "$mb" "$W/exp.json"
	bytes=$(stat -c %s "$W/t.json")
	load0=$(cut -d' ' -f1 /proc/loadavg)
	for _ in $(seq "$REPS"); do
		rm -f "$W/db" "$W/db-wal" "$W/db-shm"
		measure pc env PERFCORR_DB="$W/db" "$PERFCORR" import -q -s big \
			-k silicon -w step "$W/t.json"
		measure py python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$W/t.json"
	done
	load1=$(cut -d' ' -f1 /proc/loadavg)
	events=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(sum(v["n"] for v in e["gpu"].values()) + e["cpu_x"])' "$W/exp.json")
	pcc=$(median "$W/pc" 1) pcr=$(median "$W/pc" 2)
	pyc=$(median "$W/py" 1) pyr=$(median "$W/py" 2)
	printf '| %d MB (%d bytes) | %s X events | %s | %d MB | %s | %d MB | %.2fx | %s -> %s |\n' \
		"$mb" "$bytes" "$events" "$pcc" $((pcr / 1024)) "$pyc" \
		$((pyr / 1024)) "$(echo "$pcc / $pyc" | bc -l)" "$load0" "$load1"
	if [ -n "${OLD_PERFCORR:-}" ]; then
		rm -f "$W/db"
		PERFCORR_DB="$W/db" "$OLD_PERFCORR" import -q -s big -k silicon \
			-w step "$W/t.json" 2>&1 | head -c 200 | sed 's/^/old: /' >&2 || true
	fi
done
