# perfcorr annotate / annotations: append-only history, validation,
# canonical workload keys, listings.
. "$TESTS/cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null

run pc annotate --workload llama3-8b/BF16/batch_size=32/decode --op e2e \
	--metric time --status investigating --category rtl-bug \
	--note "arbiter starves reads" --link https://bugs.example/7 --author dana
expect_rc 0 "annotate"
expect_eq "$out" "1" "prints the new id"
run pc annotate --workload llama3-8b/decode/bs=32/bf16 --op e2e --metric time \
	--status accepted --note "waived for 2.x" --expires 2027-03-31 \
	--author dana
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
run pc annotate --workload "x/bs=1/bs=2" --status open
expect_rc 2 "conflicting workload key"
run pc annotate --op e2e --status open --model nosuch
expect_rc 1 "unknown source"
expect_eq "$err" "perfcorr annotate: unknown source 'nosuch' (see 'perfcorr sources')" \
	"unknown source message"
expect_eq "$(db_digest)" "$digest" "failed annotate changes nothing"

pc annotate --pattern --op 'gemm*' --status explained --note "tiling" \
	--author eve >/dev/null

run pc annotations
expect_rc 0 "list"
expect_eq "$(echo "$out" | wc -l)" 4 "header + 3 rows"
expect_in "investigating  rtl-bug" "$out" "row 1"
expect_in "llama3-8b/decode/bs=32/bf16" "$out" "canonical workload key"
run pc annotations --current --format csv
expect_rc 0 "current csv"
expect_eq "$out" "id,created_at,author,status,category,workload,op,metric,model,ref,pattern,expires,note,link
$(echo "$out" | sed -n 2p)
$(echo "$out" | sed -n 3p)" "two current rows"
expect_in "2,20" "$out" "newest row of the key"
expect_in ",dana,accepted,unknown,llama3-8b/decode/bs=32/bf16,e2e,time,,,0,2027-03-31,waived for 2.x," \
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
