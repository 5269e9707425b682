#!/usr/bin/env bash
# Native formats: import, export contract, round trip, provenance, dedup.
. "$(dirname "$0")/lib.sh"
N=$FIXTURES/native

run pc import --source lab --kind silicon --version v1 --platform H100 "$N/ok.csv"
expect_rc 0 "import ok.csv"
expect_in "9 results" "$err" "import summary"

run pc export results
expect_rc 0 "export"
hdr=$(printf '%s\n' "$out" | head -1)
expect_eq "$hdr" "run_id,source,kind,version,platform,workload,op,metric,value,unit,n,stddev,raw_value,raw_unit,file,mean,median,min,max,flags,clock_hz" "export header contract (issue 16 appended mean..clock_hz)"
row() { printf '%s\n' "$out" | grep -F ",$1,$2," | head -1; }
expect_eq "$(row gemm_qkv time)" "1,lab,silicon,v1,H100,llama3-8b/decode/bs=32/seq=2048/tp=1/bf16,gemm_qkv,time,5.54e-05,s,20,1.25e-06,55.4,us,ok.csv,,5.51e-05,5.3e-05,5.85e-05,," "us -> s with n, stddev, median, min, max"
expect_in ',"attn, paged",time,0.00012,s,' "$out" "quoted op with comma, 0.12 ms -> s decimally (the double nearest 0.00012)"
expect_in ',e2e,power,612.5,W,' "$out" "mW -> W"
expect_in ',e2e,energy,1500,J,' "$out" "kJ -> J"
expect_in ',e2e,utilization,0.875,1,' "$out" "% -> fraction"
expect_in ',gemm_qkv,bytes,2147483648,B,' "$out" "GiB -> B"
expect_in ',gemm_qkv,flops,1500000000000,FLOP,' "$out" "TFLOP -> FLOP"
expect_in ',gemm_qkv,cycles,97000,cycles,' "$out" "cycles stay cycles"

# round trip: the export imports back unchanged (values, units, keys)
printf '%s\n' "$out" > "$T/export1.csv"
run pc import --source lab2 --kind silicon --version v1 --platform H100 "$T/export1.csv"
expect_rc 0 "re-import export"
run pc export results --source lab2
a=$(cut -d, -f6-12 "$T/export1.csv" | tail -n +2 | sort)
b=$(printf '%s\n' "$out" | cut -d, -f6-12 | tail -n +2 | sort)
expect_eq "$b" "$a" "round trip workload..stddev identical"

# same bytes and command line again: recognised, nothing duplicated, exit 0
before=$(db_digest)
run pc import --source lab --version v1 --platform H100 "$N/ok.csv"
expect_rc 0 "re-import same bytes"
expect_in "already imported as run 1" "$err" "dedup message"
expect_eq "$(db_digest)" "$before" "dedup leaves db unchanged"
# --replace replaces the run
run pc import --source lab --version v1 --platform H100 --replace "$N/ok.csv"
expect_rc 0 "replace"
run pc runs --format csv --source lab
expect_eq "$(printf '%s\n' "$out" | tail -n +2 | wc -l)" "1" "one run after replace"

# kind must match an existing source; new source needs --kind
run pc import --source lab --kind perfsim "$N/ok.json"
expect_rc 1 "kind mismatch"
expect_in "kind 'silicon', not 'perfsim'" "$err" "kind mismatch message"
run pc import --source newsrc "$N/ok.json"
expect_rc 1 "new source without kind"
expect_in "--kind" "$err" "asks for kind"

# native JSON: run metadata, clock, params, per-result workload
run pc import --source sim --kind perfsim "$N/ok.json"
expect_rc 0 "import ok.json"
run pc runs --format json --source sim
expect_in '"version": "2.4.0"' "$out" "version from file"
expect_in '"clock_hz": 1755000000' "$out" "clock from file"
expect_in '"platform": "H100-SXM5-80GB"' "$out" "platform from file"
run pc export results --source sim
expect_in "llama3-8b/prefill/bs=8/seq=2048/bf16,gemm_qkv,time,0.00125,s,5,1e-05" "$out" "json result"
expect_in "llama3-8b/prefill/bs=16/seq=2048/bf16,e2e,ttft,0.18,s" "$out" "json per-result params"

# listings
run pc sources --format csv
expect_in "sim,perfsim,1,1,3" "$out" "sources csv"
run pc workloads --format json
expect_in '"workload": "llama3-8b/decode/bs=32/seq=2048/tp=1/bf16"' "$out" "workloads json"

# stdin
run bash -c "'$PERFCORR' import --source piped --kind rtl - < '$N/ok.csv'"
expect_rc 0 "stdin import"
expect_in "imported - as run" "$err" "stdin summary"

# --workload and --param merge; conflicts are errors
printf 'workload,op,metric,value,unit\n-,o,time,1,s\n' > "$T/w.csv"
sed -i 's/^-,/llama3-8b,/' "$T/w.csv"
run pc import --source m --kind perfsim --param bs=4 --param precision=FP8 "$T/w.csv"
expect_rc 0 "param merge"
run pc export results --source m
expect_in "llama3-8b/bs=4/fp8,o,time" "$out" "params merged canonically"
printf 'workload,op,metric,value,unit\nother-model,o,time,1,s\n' > "$T/w2.csv"
run pc import --source m --workload llama3-8b "$T/w2.csv"
expect_rc 1 "workload conflict"
expect_in "conflicting workload names" "$err" "conflict message"

finish
