#!/bin/bash
# Source kind emulation (hardware emulators, FPGA prototypes): between rtl
# and silicon in every ordering; cycles with a clock like rtl; the
# migration from older databases keeps every source and run.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
C=$FIXTURES/corr
E=$FIXTURES/emulation

# --- a schema-1 database with a source and a run migrates to 4
pcsql <"$TESTS/../db/schema.sql"
pcsql "INSERT INTO sources VALUES (7, 'old', 'rtl', 'x');
INSERT INTO runs (id, source_id, version, format, file_name, sha256,
imported_at) VALUES (3, 7, 'v1', 'perfcorr-csv', 'old.csv', 'ab', 'x');
PRAGMA user_version = 1;"
run pc sources
expect_rc 1 "read-only commands do not migrate"
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
expect_in "schema 1 needs migrating to $V" "$err" "says so"
run pc init
expect_rc 0 "schema 1 migrates"
run pc sources
expect_in "old" "$out" "old source kept"
expect_eq "$(pcsql 'PRAGMA user_version')" "$V" "migrated to the current schema ($V)"
expect_eq "$(pcsql 'SELECT source_id FROM runs WHERE id = 3')" 7 \
	"run still points at its source"
expect_eq "$(pcsql 'PRAGMA foreign_key_check')" "" \
	"no dangling foreign key"
expect_in "'emulation'" "$(pcsql \
	"SELECT sql FROM sqlite_schema WHERE name = 'sources'")" "CHECK allows emulation"
# a fresh database gets the same table text as a migrated one
rm -f "$PERFCORR_DB"
pc init >/dev/null 2>&1
fresh=$(pcsql "SELECT sql FROM sqlite_schema WHERE name = 'sources'")
expect_in "'rtl', 'emulation', 'silicon'" "$fresh" "fresh schema has emulation"

# --- emulation pairs like rtl: cycles need the run's clock
pc import -q -s lab -k silicon "$C/lab.csv"
pc import -q -s sim -k perfsim "$C/sim-1.csv"
pc import -q -s rtl -k rtl --clock-mhz 1500 "$C/rtl.csv"
run pc import -s emu -k emulation "$E/emu.csv"
expect_rc 0 "emulation source without a clock imports"
run pc compare --model emu --ref lab
expect_rc 1 "no clock: refused"
expect_in "of source 'emu' has no clock" "$err" "the clock is named"
pc import -q -s emu2 -k emulation --clock-mhz 1500 "$E/emu.csv"
run pc compare --model emu2 --ref lab --format csv --points
expect_rc 0 "emulation with a clock pairs"
# 165000 cycles / 1.5 GHz = 110 us vs 100 us: +10 %; 600000 / 1.5e9 =
# 400 us vs 400 us: 0; 330000 / 1.5e9 = 220 us vs 200 us: +10 %
run pc compare --model emu2 --ref lab --format json --points
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys
d = json.load(sys.stdin)
print(sorted(round(p["err"], 9) + 0.0 for p in d["points"]))')" \
	"[0.0, 0.1, 0.1]" "cycles -> time at the emulator clock"
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys
print(json.load(sys.stdin)["model"]["kind"])')" emulation "model kind"

# --- the regex log importer feeds it too
cat >"$T/rules.json" <<'J'
{ "rules": [ { "match": "^\\[(?<op>\\w+)\\] finished in (?<value>[0-9,]+) (?<unit>cycles)$", "metric": "cycles" } ] }
J
run pc import -s pz -k emulation --clock-mhz 1500 -w m/decode/bs=1/fp16 \
	--rules "$T/rules.json" "$E/palladium_run.log"
expect_rc 0 "regex log into an emulation source"
expect_val pz m/decode/bs=1/fp16 gemm cycles 165000 cycles

# --- pairing defaults: emulation between rtl and silicon
pc import -q -s emu3 -k emulation --clock-mhz 1500 "$C/rtl.csv"
rm -f "$PERFCORR_DB"
pc import -q -s lab -k silicon "$C/lab.csv"
pc import -q -s sim -k perfsim "$C/sim-1.csv"
pc import -q -s rtl -k rtl --clock-mhz 1500 "$C/rtl.csv"
pc import -q -s emu -k emulation --clock-mhz 1500 "$E/emu.csv"
run pc index
expect_rc 0 "index every default pair"
order=$(printf '%s\n' "$err$out" | sed -n 's/@unversioned vs \([a-z]*\)@unversioned.*/ \1/p' |
	sed 's/^\([a-z]*\) /\1>/' | tr '\n' ' ')
expect_eq "$order" "sim>lab rtl>lab emu>lab sim>emu rtl>emu sim>rtl " \
	"pairs: silicon first, then emulation, then rtl"
run pc sources
expect_in "emulation" "$out" "sources lists the kind"

# --- an unknown kind names the five
run pc import -s bad -k fpga "$E/emu.csv"
expect_rc 1 "unknown kind refused"
expect_in "roofline, perfsim, rtl, emulation or silicon" "$err" "kinds listed in order"
finish
