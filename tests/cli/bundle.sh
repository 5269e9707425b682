#!/bin/bash
# perfcorr bundle (issue 38 item 4): a pinned bundle re-derives its table
# byte for byte elsewhere. The demo (the roofline from its spec and ops,
# nsys captures through kernels.json, vLLM and nvidia-smi with --workload,
# costs, the calibration mark) and fixtures/calib (a run imported
# --calibration, a mark on a run, --meta, a core-hour cost): each bundle is
# moved to another directory, verified with sha256sum -c and its
# commands.sh run on a fresh database; the table is compare's csv and
# equals the bundle's. Missing inputs are refused and nothing is left;
# --no-inputs writes the bundle without them. On PostgreSQL the demo's
# bundle is read from the server and re-derived on SQLite: the same bytes.
. "$(dirname "$0")/lib.sh"
D=$FIXTURES/demo

(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
run pc bundle "$T/b" --model archsim --ref h100-lab --group-by op_class \
	--inputs "$D" --inputs "$FIXTURES/roofline" --policy "$D/calibration_policy.json"
expect_rc 0 "bundle the demo's table"
expect_in "13 runs, 15 input files" "$err" "says what it bundled"
expect_in "(verified: run here on a fresh database)" "$err" "commands.sh was run before writing"
expect_eq "$(cat "$T/b/table.csv")" \
	"$(pc compare --model archsim@2.4.0 --ref h100-lab@2026-11-24 --group-by op_class --format csv)" \
	"table.csv is compare's csv of the pair at its versions"
expect_in "calibration," "$(cat "$T/b/table.csv")" "with the calibration rows (the mark)"
expect_in "model: archsim@2.4.0 (perfsim)" "$(cat "$T/b/sources.txt")" "source versions"
mkdir "$T/elsewhere"
mv "$T/b" "$T/elsewhere/b"
run bash -c "cd '$T/elsewhere/b' && sha256sum -c runs.sha256"
expect_rc 0 "every input and the policy verify against runs.sha256"
expect_eq "$(grep -c . "$T/elsewhere/b/runs.sha256")" 16 "15 inputs and the policy"
run env PERFCORR="$PERFCORR" sh "$T/elsewhere/b/commands.sh"
expect_rc 0 "commands.sh on a fresh database"
expect_in "table.csv re-derived byte for byte" "$out" "it says so"
run cmp "$T/elsewhere/b/table.csv" "$T/elsewhere/b/rederived/table.csv"
expect_rc 0 "the re-derived table is the same bytes"
expect_in "passes only on calibration points" "$(cat "$T/elsewhere/b/rederived/gate.txt")" \
	"the policy's gate re-derived too"
run env PERFCORR="$PERFCORR" sh "$T/elsewhere/b/commands.sh"
expect_rc 1 "a second run refuses the database it made"

# a run imported before perfcorr recorded its command line (its --map
# gone from the metadata): commands.sh would re-import the nsys captures
# without kernels.json and a different table; the bundle runs it first and
# refuses, nothing written, no temporary left (rule 1: never a bundle that
# says it re-derives a table it does not)
pcsql "UPDATE runs SET metadata = replace(metadata, '\"import.map', '\"old.map')" >/dev/null
mkdir -p "$T/tmp"
run env TMPDIR="$T/tmp" "$PERFCORR" bundle "$T/old" --model archsim --ref h100-lab \
	--group-by op_class --inputs "$D" --inputs "$FIXTURES/roofline"
expect_rc 1 "a bundle that does not re-derive its table is refused"
expect_in "commands.sh does not re-derive table.csv (exit 1: " "$err" "says what"
expect_in "--no-verify to write the bundle anyway; nothing written" "$err" "and the cure"
[ ! -e "$T/old" ] && [ ! -e "$T/old.partial" ] && ok || fail "nothing written"
expect_eq "$(ls -A "$T/tmp")" "" "the verification leaves no temporary directory"
run pc bundle "$T/old" --model archsim --ref h100-lab --group-by op_class \
	--inputs "$D" --inputs "$FIXTURES/roofline" --no-verify
expect_rc 0 "--no-verify writes it"
expect_in "(not verified: --no-verify)" "$err" "and says it is not verified"

# fixtures/calib: a run-level mark (import --calibration) maps to the new
# run id; --meta and a core-hour cost are repeated
C=$FIXTURES/calib
export PERFCORR_DB="$T/calib.db"
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon "$C/lab.csv"
pc import -q -s other -k perfsim "$C/sim.csv"
pc import -q -s lab -k silicon --calibration --meta fp.tp=8 "$C/lab_train.csv"
pc import -q -s sim -k perfsim --cost 3 --cost-unit core-h --meta fp.tp=8 "$C/sim.csv"
pc mark -q --calibration --model sim --op gemm_a
run pc bundle "$T/c" --model sim --ref lab --inputs "$C"
expect_rc 0 "bundle the calibration fixture"
expect_in "--calibration --run 2" "$(cat "$T/c/commands.sh")" \
	"the run mark names the run's id in the new database (3 here, 2 there)"
expect_in "--meta 'fp.tp=8'" "$(cat "$T/c/commands.sh")" "--meta repeated"
expect_in "--cost 3 --cost-unit 'core-h'" "$(cat "$T/c/commands.sh")" "the cost repeated"
run env PERFCORR="$PERFCORR" OUT="$T/c2" sh "$T/c/commands.sh"
expect_rc 0 "re-derived"
run cmp "$T/c/table.csv" "$T/c2/table.csv"
expect_rc 0 "byte for byte"
expect_eq "$(grep -c '^calibration,' "$T/c2/table.csv")" 1 "the marks took effect there"

# missing inputs: refused, naming them; nothing left behind
run pc bundle "$T/m" --model sim --ref lab --inputs "$FIXTURES/tiers"
expect_rc 1 "inputs not found"
expect_in "input files not found under --inputs (by sha256):" "$err" "says what"
expect_in "file 'lab.csv'" "$err" "names a missing file"
[ ! -e "$T/m" ] && [ ! -e "$T/m.partial" ] && ok || fail "a failed bundle leaves nothing"
run pc bundle "$T/n" --model sim --ref lab --no-inputs
expect_rc 0 "--no-inputs"
expect_in "Not bundled (\`--no-inputs\`)" "$(cat "$T/n/README.md")" "the README lists what to add"
expect_eq "$(grep -c '  inputs/' "$T/n/runs.sha256")" 3 "runs.sha256 still says what belongs there"
run pc bundle "$T/n" --model sim --ref lab --no-inputs
expect_rc 2 "an existing directory is refused"
run pc bundle "$T/x" --model sim --ref lab
expect_rc 2 "no --inputs"
run pc bundle --help
expect_rc 0 "help"
finish
