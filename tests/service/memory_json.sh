#!/usr/bin/env bash
# JSON in bounded memory: a stream of JSON documents (vLLM's
# --append-result, SGLang's JSON lines) is read one document at a time,
# so peak RSS does not grow with the number of documents (6 MB vs 48 MB
# here; the whole file used to be read into memory, up to 256 MiB); one
# document is capped at 64 MiB (JSONUTIL_DOC_MAX: cJSON takes ~40 bytes
# per byte), and the error names the cap, the file and the line. What
# the importer does not read (vLLM's per-request arrays) is skipped
# unbuilt and does not count (issue 36).
. "$(dirname "$0")/../cli/lib.sh"
TIME=/usr/bin/time
[ -x $TIME ] || { echo "skip: /usr/bin/time missing"; exit 77; }
[ "$(head -c 4 "$PERFCORR")" = $'\x7fELF' ] || { echo "skip: PERFCORR is a wrapper"; exit 77; }
if ldd "$PERFCORR" 2>/dev/null | grep -q libasan; then
	ASAN=1
	export ASAN_OPTIONS=quarantine_size_mb=4:detect_leaks=0
	SLACK=48000
else
	ASAN=0
	SLACK=16000
fi
# gen FILE MB: vLLM result documents, one per line, each ~8 KB (the
# generated texts vLLM keeps with --save-detailed), each its own rate
gen() {
	python3 - "$1" "$2" <<'PY'
import json, sys
path, mb = sys.argv[1], int(sys.argv[2])
pad = ['x' * 1000] * 8
n = mb * 1024 * 1024 // 8300
with open(path, 'w') as f:
    for i in range(n):
        d = {"backend": "vllm", "model_id": "m", "num_prompts": 100,
             "request_rate": i + 1, "duration": 10.0, "completed": 100,
             "request_throughput": 10.0 + i, "mean_ttft_ms": 40.0,
             "median_ttft_ms": 38.0, "generated_texts": pad}
        f.write(json.dumps(d) + "\n")
print(n)
PY
}
peak() { tail -1 "$T/time"; }
ns=$(gen "$T/small.jsonl" 6)
nl=$(gen "$T/large.jsonl" 48)
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source s --kind silicon "$T/small.jsonl" || fail "small import"
small=$(peak)
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source l --kind silicon "$T/large.jsonl" || fail "large import"
large=$(peak)
echo "peak RSS: 6 MB of JSON lines ${small} KiB, 48 MB ${large} KiB"
[ "$large" -lt $((small + SLACK)) ] && ok || fail "RSS grows with the stream: ${small} -> ${large} KiB"
# every document was read: one request_throughput per document
q() { sqlite3 "$PERFCORR_DB" "$1"; }
expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id JOIN metrics m ON m.id = r.metric_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'l' AND m.name = 'request_throughput'")" \
	"$nl" "every document of the large stream"
expect_eq "$(q "SELECT max(r.value) FROM results r JOIN runs u ON u.id = r.run_id JOIN metrics m ON m.id = r.metric_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'l' AND m.name = 'request_throughput'")" \
	"$((10 + nl - 1)).0" "the last document's value (10 + n - 1 req/s)"

# A document with 64 MiB of per-request arrays (--save-detailed's
# generated_texts): the arrays are skipped unbuilt, so it imports (it was
# refused over the 64 MiB cap before the streaming reader, issue 36).
python3 - "$T/detailed.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], 'w') as f:
    d = {"backend": "vllm", "model_id": "m", "num_prompts": 1, "request_rate": 1,
         "duration": 1.0, "completed": 1, "request_throughput": 1.0}
    f.write(json.dumps(d) + "\n")
    d["request_rate"] = 2
    d["generated_texts"] = ["y" * (1 << 20)] * 65
    d["ttfts"] = [0.5] * 100000
    f.write(json.dumps(d) + "\n")
PY
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source d --kind silicon --format vllm "$T/detailed.jsonl" 2>"$T/err"
expect_eq "$?" 0 "per-request arrays past 64 MiB import"
echo "65 MiB of per-request arrays: peak $(peak) KiB"
[ $ASAN = 1 ] || { [ "$(peak)" -lt 40000 ] && ok || fail "skipping the arrays took $(peak) KiB"; }
expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id JOIN metrics m ON m.id = r.metric_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'd' AND m.name = 'request_throughput'")" \
	2 "both documents of the detailed stream"

# One document over the cap (the second line: 64 MiB + a little that the
# importer keeps, an object), named.
before=$(db_digest)
python3 - "$T/huge.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], 'w') as f:
    d = {"backend": "vllm", "model_id": "m", "num_prompts": 1, "request_rate": 1,
         "duration": 1.0, "completed": 1, "request_throughput": 1.0}
    f.write(json.dumps(d) + "\n")
    d["request_rate"] = 2
    d["server_args"] = {"pad": ["y" * (1 << 20)] * 65}
    f.write(json.dumps(d) + "\n")
PY
$TIME -f %M -o "$T/time" "$PERFCORR" import --source h --kind silicon --format vllm "$T/huge.jsonl" >/dev/null 2>"$T/err"
expect_eq "$?" 1 "a 64 MiB document is refused"
expect_in "huge.jsonl:2: JSON document larger than 64 MiB" "$(cat "$T/err")" "the error names the file, the line and the cap"
echo "over the cap: peak $(peak) KiB"
[ $ASAN = 1 ] || { [ "$(peak)" -lt 200000 ] && ok || fail "refusing took $(peak) KiB"; }
expect_eq "$(db_digest)" "$before" "the refused file changed nothing"
# the whole-document formats name the same cap
python3 -c 'import sys; open(sys.argv[1], "w").write("{\"format\": \"perfcorr-json\", \"results\": [], \"pad\": \"" + "z" * (64 << 20) + "\"}")' "$T/huge.json"
run pc import --source h --kind silicon --format perfcorr-json "$T/huge.json"
expect_rc 1 "perfcorr-json over the cap"
expect_in "JSON document larger than 64 MiB" "$err" "perfcorr-json names the cap"
finish
