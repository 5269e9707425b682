#!/usr/bin/env bash
# The export loses nothing (issue 16): `export results` appends mean,
# median, min, max, flags (words) and clock_hz after the old columns, and
# an export of each run, imported back (perfcorr-csv and perfcorr-json),
# restores every stored field. Run over the whole demo study plus runs
# with flags (a skipped and a failed cocotb test, a GPGPU-Sim run that
# hit its cycle cap, an INVALID MLPerf run).
. "$(dirname "$0")/lib.sh"
cd "$FIXTURES/.."
DB1=$T/demo.db
run bash scripts/demo.sh "$PERFCORR" "$DB1" </dev/null
expect_rc 0 "demo imports"
export PERFCORR_DB=$DB1
pc import -q -s pe -k rtl -w pe "$FIXTURES/rtl/cocotb_pe_v1.xml"
pc import -q -s cut -k perfsim -w toy --clock-mhz 700 "$FIXTURES/sim/gpgpusim_maxcycles.log" 2>/dev/null
pc import -q -s mlp -k silicon -w llama2-70b "$FIXTURES/hw/mlperf/summary_offline_invalid_crlf.txt" 2>/dev/null

# the contract: old columns first, in their order, new ones appended
run pc export results
hdr=$(printf '%s\n' "$out" | head -1)
expect_eq "$hdr" "run_id,source,kind,version,platform,workload,op,metric,value,unit,n,stddev,raw_value,raw_unit,file,mean,median,min,max,flags,clock_hz" "header: old columns unchanged, new appended"
# flags as words, never a plain valid value
expect_in ',pe,test_saturate,time,' "$out" "skipped test exported"
row=$(printf '%s\n' "$out" | grep ',pe,test_saturate,time,')
expect_eq "$(printf '%s' "$row" | awk -F, '{print $20}')" skipped "skipped test: flags word"
row=$(printf '%s\n' "$out" | grep ',pe,test_overflow,time,')
expect_eq "$(printf '%s' "$row" | awk -F, '{print $20}')" invalid "failed test: invalid"
expect_in ",invalid capped," "$out" "cycle cap: invalid capped"
# the run's clock: the demo RTL run at 1755 MHz
row=$(printf '%s\n' "$out" | grep ',t100-rtl,' | head -1)
expect_eq "$(printf '%s' "$row" | awk -F, '{print $21}')" 1755000000 "clock_hz of the run"
# a demo kernel: mean, median, min, max in SI
row=$(printf '%s\n' "$out" | grep ',h100-lab,.*,llama3-8b/decode/bs=1/seq=2048/bf16,gemm_qkv,time,' | head -1)
expect_eq "$(printf '%s' "$row" | awk -F, '{print $16, $17, $18, $19}')" \
	"2.38945e-05 2.38448e-05 2.31e-05 2.5086e-05" "nsys Avg Med Min Max in s, shortest round trip"

# round trip: each run exported alone and imported into a fresh database
F() { echo "CASE WHEN $1 IS NULL THEN 'NULL' ELSE printf('%!.17e', $1) END"; }
Q="SELECT s.name, s.kind, u.version, coalesce(u.platform, 'NULL'),
 $(F u.clock_hz), w.key, o.name, m.name, m.unit, m.dimension, $(F r.value),
 coalesce(r.n, 'NULL'), $(F r.mean), $(F r.median), $(F r.min), $(F r.max),
 $(F r.stddev), $(F r.raw_value), coalesce(r.raw_unit, 'NULL'), r.flags
 FROM results r JOIN runs u ON u.id = r.run_id JOIN sources s ON
 s.id = u.source_id JOIN workloads w ON w.id = r.workload_id JOIN ops o ON
 o.id = r.op_id JOIN metrics m ON m.id = r.metric_id ORDER BY 1, 3, 6, 7, 8"
want=$(sqlite3 "$DB1" "$Q")
nruns=$(sqlite3 "$DB1" "SELECT count(*) FROM runs")
for fmt in csv json; do
	DB2=$T/back_$fmt.db
	fails=0
	while IFS='|' read -r id src kind; do
		PERFCORR_DB=$DB1 pc export results --run "$id" --format $fmt >"$T/run$id.$fmt"
		PERFCORR_DB=$DB2 pc import -q -s "$src" -k "$kind" "$T/run$id.$fmt" || fails=$((fails + 1))
	done < <(sqlite3 "$DB1" "SELECT u.id, s.name, s.kind FROM runs u JOIN sources s ON s.id = u.source_id ORDER BY u.id")
	expect_eq "$fails" 0 "$fmt: every run imports back"
	expect_eq "$(sqlite3 "$DB2" "SELECT count(*) FROM runs")" "$nruns" "$fmt: as many runs"
	got=$(sqlite3 "$DB2" "$Q")
	expect_eq "$(printf '%s\n' "$got" | wc -l)" "$(printf '%s\n' "$want" | wc -l)" "$fmt: as many results"
	if [ "$got" = "$want" ]; then ok; else
		fail "$fmt: fields differ: $(diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -6)"; fi
done
expect_eq "$(sqlite3 "$DB1" "SELECT count(*) FROM results WHERE flags != 0")" "$(sqlite3 "$T/back_csv.db" "SELECT count(*) FROM results WHERE flags != 0")" "flags restored"
expect_eq "$(sqlite3 "$T/back_json.db" "SELECT count(*) FROM results WHERE flags = 9")" "$(sqlite3 "$DB1" "SELECT count(*) FROM results WHERE flags = 9")" "json: invalid+capped restored"

# an export of several runs with different clocks is one file, not one run
export PERFCORR_DB=$T/multi.db
pc export results --source archsim >/dev/null 2>&1
PERFCORR_DB=$DB1 pc export results >"$T/all.csv"
run pc import -s all -k perfsim "$T/all.csv"
expect_rc 1 "several runs in one file refused"
expect_in "column 'version'" "$err" "names the run fact"
expect_in "export results --run ID" "$err" "says the cure"
# a raw value that disagrees with the value is refused
printf 'workload,op,metric,value,unit,raw_value,raw_unit\nw,o,time,0.001,s,2,ms\n' >"$T/raw.csv"
run pc import -s raw -k perfsim "$T/raw.csv"
expect_rc 1 "raw value disagreeing"
expect_in "raw.csv:2: raw value 2 ms is not value 0.001 s" "$err" "names both"
printf 'workload,op,metric,value,unit,flags\nw,o,time,1,s,invalid bogus\n' >"$T/fl.csv"
run pc import -s fl -k perfsim "$T/fl.csv"
expect_rc 1 "unknown flag word"
expect_in "fl.csv:2: column 'flags': unknown flag 'bogus' (expected invalid, skipped, derived, capped)" "$err" "names the word"
finish
