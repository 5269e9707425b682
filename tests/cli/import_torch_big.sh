#!/bin/bash
# A Kineto trace past the old 64 MiB whole-document cap (issue 36): a
# synthetic 70 MB torch.profiler trace (tests/bench/gen_trace.py: kernels,
# cpu_ops, runtime calls, flows, args) imports through the streaming
# reader with peak RSS well under the file's size (the cap refused it,
# and cJSON would have needed ~40 bytes per byte); every kernel's count
# and mean dur match the generator's; the same trace cut short is refused
# with the position, the database unchanged.
. "$(dirname "$0")/lib.sh"
TIME=/usr/bin/time
[ -x $TIME ] || { echo "skip: /usr/bin/time missing"; exit 77; }
[ "$(head -c 4 "$PERFCORR")" = $'\x7fELF' ] || { echo "skip: PERFCORR is a wrapper"; exit 77; }
ASAN=0
ldd "$PERFCORR" 2>/dev/null | grep -q libasan && ASAN=1
python3 "$TESTS/bench/gen_trace.py" "$T/big.json" 70 "$T/expect.json" ||
	{ fail "generator"; finish; }
size=$(stat -c %s "$T/big.json")
[ "$size" -gt $((64 << 20)) ] && ok || fail "the trace is $size bytes, not past 64 MiB"
$TIME -f %M -o "$T/time" "$PERFCORR" import -s big -k silicon -w step "$T/big.json" >/dev/null 2>"$T/err"
expect_eq "$?" 0 "a 70 MB trace imports ($(head -c 300 "$T/err"))"
rss=$(tail -1 "$T/time")
echo "70 MB trace: peak RSS $rss KiB"
# ASan's shadow memory and quarantine: no bound there
if [ $ASAN = 0 ]; then
	[ "$rss" -lt 40000 ] && ok || fail "peak RSS $rss KiB (the file is $((size >> 10)) KiB)"
fi
pc export results --source big >"$T/export.csv"
python3 - "$T/expect.json" "$T/export.csv" <<'PY' || fail "the imported values differ from the generator's"
import csv, json, sys
exp = json.load(open(sys.argv[1]))["gpu"]
rows = {r["op"]: r for r in csv.DictReader(open(sys.argv[2])) if r["metric"] == "time"}
bad = 0
for name, e in exp.items():
    r = rows.get(name)
    mean_s = e["sum_us"] / e["n"] * 1e-6
    if not r or int(r["n"]) != e["n"] or abs(float(r["value"]) - mean_s) > 1e-9 * mean_s:
        print("mismatch", name, e, r and (r["n"], r["value"]), file=sys.stderr)
        bad += 1
if len(rows) != len(exp):
    print("ops", sorted(rows), "expected", sorted(exp), file=sys.stderr)
    bad += 1
sys.exit(1 if bad else 0)
PY
ok
run pc export results --source big
expect_in "NVIDIA H100 80GB HBM3" "$out" "the platform from deviceProperties"
# cut mid-event: refused with the position, nothing stored
head -c $((size - 1000)) "$T/big.json" >"$T/cut.json"
before=$(db_digest)
run pc import -s cut -k silicon -w step -F torch-trace "$T/cut.json"
expect_rc 1 "a cut trace is refused"
expect_in "cut.json:" "$err" "the error names the file"
expect_in "invalid JSON (byte $((size - 1000))): " "$err" "the error names the byte where it ends"
expect_eq "$(db_digest)" "$before" "the cut trace changed nothing"
finish
