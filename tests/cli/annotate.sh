# perfcorr annotate / annotations: append-only history, validation,
# canonical workload keys, listings.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 2.0 "$G/model-2.0.csv" \
	2>/dev/null

run pc annotate --workload llama3-8b/batch_size=32/decode --op e2e \
	--metric time --status investigating --category rtl-bug \
	--note "arbiter starves reads" --link https://bugs.example/7 --author dana \
	--model archsim --ref h100
expect_rc 0 "annotate"
expect_eq "$out" "1" "prints the new id"
expect_eq "$err" "perfcorr annotate: annotation 1 covers 1 stored pair" \
	"says what it covers"
run pc annotate --workload llama3-8b/decode/bs=32 --op e2e --metric time \
	--status accepted --note "waived for 2.x" --expires 2027-03-31 \
	--author dana --model archsim --ref h100
expect_rc 0 "second row"
expect_eq "$out" "2" "second id"

# usage errors leave the database unchanged
digest=$(db_digest)
run pc annotate --op e2e
expect_rc 2 "no status"
expect_eq "$err" "perfcorr annotate: --status is required
try 'perfcorr annotate --help'" "no status message"
run pc annotate --op e2e --status done
expect_rc 2 "bad status"
expect_in "perfcorr annotate: unknown status 'done' (open, investigating, explained, accepted, fixed, wontfix)" \
	"$err" "bad status message"
run pc annotate --op e2e --status open --category typo
expect_rc 2 "bad category"
expect_in "unknown category 'typo'" "$err" "bad category message"
run pc annotate --status open
expect_rc 2 "no key"
expect_in "name what it explains: --workload, --op and/or --metric" "$err" \
	"no key message"
for d in 2027-02-30 2027-13-01 27-01-01 2027-1-1 2027-01-01x tomorrow; do
	run pc annotate --op e2e --status accepted --expires "$d"
	expect_rc 2 "bad date $d"
	expect_in "--expires '$d' is not a date (YYYY-MM-DD)" "$err" "date message $d"
done
run pc annotate --op e2e --status accepted --model archsim --ref h100
expect_rc 2 "accepted without a note"
expect_in "an accepted annotation needs --note" "$err" "note required"
run pc annotate --op e2e --metric time --workload llama3-8b/decode/bs=1 \
	--status accepted --note "fine"
expect_rc 2 "accepted without the pair"
expect_in "name the release with --model SRC[@V] and the reference" "$err" \
	"pair required"
# a key that matches nothing is refused, with the closest names
run pc annotate --op flash_atn --status open
expect_rc 1 "op matching nothing"
expect_eq "$err" "perfcorr annotate: the key matches no stored pair: no stored pair has op 'flash_atn' (closest: 'gemm_qkv', 'e2e'); nothing written" \
	"closest op names"
run pc annotate --workload llama3-8b/decode/bs=3 --op e2e --metric time --status open
expect_rc 1 "workload matching nothing"
expect_in "no stored pair has workload 'llama3-8b/decode/bs=3' (closest: 'llama3-8b/decode/bs=1', 'llama3-8b/decode/bs=8', 'llama3-8b/decode/bs=32')" \
	"$err" "closest workloads"
run pc annotate --workload llama3-8b/prefill/bs=1 --op gemm_qkv --metric time \
	--status open --model archsim@1.0
expect_rc 1 "unknown model version"
expect_in "source 'archsim' has no version '1.0'" "$err" "version message"
# more than one pair needs --pattern or --all
run pc annotate --op e2e --status open
expect_rc 2 "several pairs without --all"
expect_in "the key covers 5 stored pairs (e.g. " "$err" "count"
expect_in "or say --pattern or --all" "$err" "cure"
run pc annotate --workload "x/bs=1/bs=2" --status open
expect_rc 2 "conflicting workload key"
run pc annotate --op e2e --status open --model nosuch
expect_rc 1 "unknown source"
expect_eq "$err" "perfcorr annotate: unknown source 'nosuch' (see 'perfcorr sources')" \
	"unknown source message"
expect_eq "$(db_digest)" "$digest" "failed annotate changes nothing"

run pc annotate --pattern --op 'gemm*' --status explained --note "tiling" \
	--author eve
expect_rc 0 "pattern"
expect_eq "$err" "perfcorr annotate: annotation 3 covers 4 stored pairs" \
	"pattern covers every gemm pair"
# a newer, broader annotation loses to an older exact key: said, with why
run pc annotate --all --op e2e --metric time --status wontfix --note "later"
expect_rc 0 "--all"
expect_eq "$err" "perfcorr annotate: annotation 4 covers 4 stored pairs; 1 more stays with an existing annotation (e.g. llama3-8b/decode/bs=32 e2e time keeps #2, accepted: an exact key (workload, op and metric) takes precedence over a partial key or a pattern)" \
	"shadowed pair reported"

run pc annotations
expect_rc 0 "list"
expect_eq "$(echo "$out" | wc -l)" 5 "header + 4 rows"
expect_in "investigating  rtl-bug" "$out" "row 1"
expect_in "llama3-8b/decode/bs=32 " "$out" "canonical workload key"
run pc annotations --current --format csv
expect_rc 0 "current csv"
expect_eq "$out" "id,created_at,author,status,category,workload,op,metric,model,ref,pattern,expires,note,link
$(echo "$out" | sed -n 2p)
$(echo "$out" | sed -n 3p)
$(echo "$out" | sed -n 4p)" "three current rows"
expect_in "2,20" "$out" "newest row of the key"
expect_in ",dana,accepted,unknown,llama3-8b/decode/bs=32,e2e,time,archsim,h100,0,2027-03-31,waived for 2.x," \
	"$out" "csv row"
expect_not_in "investigating" "$out" "superseded row left out"
run pc annotations --status explained --format json
expect_rc 0 "json"
echo "$out" >"$T/a.json"
expect_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d), d[0]["op"], d[0]["pattern"], d[0]["author"], d[0]["workload"])' "$T/a.json")" \
	"1 gemm* True eve None" "json row"
run pc annotations --format yaml
expect_rc 2 "bad format"

finish
