#!/bin/bash
# What a run cost (issue 38 item 5, schema 9): import --cost/--cost-unit
# (a time suffix, the four units, refusals that write nothing), the tool's
# own figure (gem5 hostSeconds summed over the blocks, Verilator's
# walltime, GPGPU-Sim's last gpgpu_simulation_time) read from the
# samples, --cost over the file's, roofline --cost, runs and db copy
# keep it; a schema-8 database migrates (both engines).
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/tiers

cost() { # source -> "cost unit" of its newest run (%.15g; NULL)
	pcsql "SELECT r.cost, r.cost_unit FROM runs r JOIN sources s
		ON s.id = r.source_id WHERE s.name = '$1' ORDER BY r.id DESC LIMIT 1" |
	python3 -c '
import sys
c, u = sys.stdin.read().strip().split("|")
print(("%.15g" % float(c)) if c else "NULL", u or "NULL")'
}

pc import -q -s a -k perfsim --cost 3.5h "$S/sim.csv"
expect_eq "$(cost a)" "12600 s" "3.5h wall-clock: 12600 s"
pc import -q -s b -k perfsim --cost 90min --cost-unit core-h "$S/sim.csv"
expect_eq "$(cost b)" "1.5 core-h" "90min of a core: 1.5 core-h"
pc import -q -s c -k emulation --cost 6 --cost-unit emu-h "$S/emu.csv"
expect_eq "$(cost c)" "6 emu-h" "a bare number of emulator hours"
pc import -q -s d -k silicon --cost 250ms --cost-unit gpu-h "$S/silicon_a.csv"
expect_eq "$(cost d)" "$(python3 -c 'print("%.15g" % (0.25 / 3600))') gpu-h" \
	"250 ms of a GPU in hours"
pc import -q -s e -k perfsim "$S/sim.csv"
expect_eq "$(cost e)" "NULL NULL" "no cost: NULL"

before=$(db_digest)
run pc import -s f -k perfsim --cost 3kg "$S/sim.csv"
expect_rc 2 "a unit that is not time"
expect_in "--cost '3kg': 'kg' is not a unit of time" "$err" "names it"
run pc import -s f -k perfsim --cost -1 "$S/sim.csv"
expect_rc 2 "a negative cost"
run pc import -s f -k perfsim --cost 1 --cost-unit dollars "$S/sim.csv"
expect_rc 2 "an unknown cost unit"
expect_in "--cost-unit 'dollars': not a unit of cost (s: wall-clock seconds; core-h, emu-h, gpu-h" \
	"$err" "lists the units"
run pc import -s f -k perfsim --cost-unit core-h "$S/sim.csv"
expect_rc 2 "--cost-unit alone"
expect_eq "$(db_digest)" "$before" "refusals write nothing"

# the tools' own figures
pc import -q -s g5 -k perfsim -w t100/gemm "$SAMPLES/gem5_stats.txt"
want=$(python3 -c '
import re, sys
print(sum(float(m) for m in re.findall(r"^hostSeconds\s+(\S+)", open(sys.argv[1]).read(), re.M)))' \
	"$SAMPLES/gem5_stats.txt")
expect_eq "$(cost g5)" "$want s" "gem5: hostSeconds summed over the dump blocks"
pc import -q -s vl -k rtl -w t100/gemm "$SAMPLES/verilator_run.log"
expect_eq "$(cost vl)" "$(sed -n 's/.*walltime \([0-9.]*\) s.*/\1/p' "$SAMPLES/verilator_run.log") s" \
	"Verilator: the report's walltime"
pc import -q -s gs -k perfsim -w x "$SAMPLES/gpgpusim_run.log"
expect_eq "$(cost gs)" "$(sed -n 's/^gpgpu_simulation_time.*(\([0-9]*\) sec)$/\1/p' \
	"$SAMPLES/gpgpusim_run.log" | tail -1) s" "GPGPU-Sim: the last (cumulative) simulation time"
expect_in '"cost_source":"' "$(pcsql "SELECT metadata FROM runs ORDER BY id DESC LIMIT 1")" \
	"where the figure came from is kept"
pc import -q -s gs2 -k perfsim -w x --cost 2 --cost-unit core-h "$SAMPLES/gpgpusim_run.log"
expect_eq "$(cost gs2)" "2 core-h" "--cost wins over the file's"
expect_in '"cost_s":"10067"' "$(pcsql "SELECT metadata FROM runs ORDER BY id DESC LIMIT 1")" \
	"the file's figure stays in the metadata"
printf -- '- Verilator: $finish at 3us; walltime soon s; speed 1 us/s\n' >"$T/bad_wall.log"
run pc import -s vb -k rtl -w x "$T/bad_wall.log"
expect_rc 1 "a walltime that is not a number"
expect_in "bad_wall.log:1: 'walltime soon s' is not a number of seconds" "$err" "names the line"
sed 's/(10067 sec)/(soon)/' "$SAMPLES/gpgpusim_run.log" >"$T/bad_sim.log"
run pc import -s gb -k perfsim -w x "$T/bad_sim.log"
expect_rc 1 "a simulation time without seconds"
expect_in "bad_sim.log:59: gpgpu_simulation_time:" "$err" "names the line"

# roofline --cost
run pc roofline -q --hw "$FIXTURES/roofline/h100_sxm.json" --ops "$FIXTURES/demo/roofline_ops.csv" \
	--source rl --cost 2s
expect_rc 0 "roofline with a cost"
expect_eq "$(cost rl)" "2 s" "roofline --cost"
run pc roofline -q --hw "$FIXTURES/roofline/h100_sxm.json" --ops "$FIXTURES/demo/roofline_ops.csv" \
	--source rl2 --cost 2parsecs
expect_rc 2 "roofline refuses a bad cost"

# the listing and json
run pc runs --format csv --source b
expect_in ",1.5,core-h" "$out" "runs csv: cost, cost_unit"
run pc runs --format json --source a
expect_in '"cost":12600,"cost_unit":"s"' "$(printf '%s' "$out" | tr -d ' ')" "runs json"

# db copy keeps the cost
if ! pc_db_is_server; then
	run pc db copy --from "$PERFCORR_DB" --to "$T/copy.db"
	expect_rc 0 "db copy"
	expect_eq "$(sqlite3 "$T/copy.db" "SELECT printf('%g', cost) || ' ' || cost_unit FROM runs r
		JOIN sources s ON s.id = r.source_id WHERE s.name = 'b'")" "1.5 core-h" "the copy has the cost"
fi

# a schema-8 database (runs without cost columns) migrates to 9
if pc_db_is_server; then
	pcsql "ALTER TABLE runs DROP COLUMN cost, DROP COLUMN cost_unit" \
		"DROP TABLE calibration" \
		"UPDATE schema_version SET version = 8" >/dev/null
else
	pcsql "ALTER TABLE runs DROP COLUMN cost; ALTER TABLE runs DROP COLUMN cost_unit;
		DROP TABLE calibration; PRAGMA user_version = 8"
fi
n8=$(pcsql "SELECT count(*) FROM runs")
run pc runs --format csv
expect_rc 1 "a read-only command on schema 8"
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
expect_in "schema 8 needs migrating to $V" "$err" "says so"
run pc init
expect_rc 0 "a writable open migrates"
expect_eq "$(pcsql "SELECT count(*) FROM runs WHERE cost IS NULL AND cost_unit IS NULL")" "$n8" \
	"every run kept, the cost unknown"
pc import -q -s h -k perfsim --cost 1h "$S/sim.csv"
expect_eq "$(cost h)" "3600 s" "after the migration an import records its cost"
finish
