#!/usr/bin/env bash
# Is the pair comparable? in the report and the matrix (issue 37). lab's
# w2 ran tp 4, sim tp 8 throughout, rtl tp 2; only lab states
# ignore_eos (its w1 run). sim vs lab: w2 refused (its +200% never in a
# statistic: MAPE (10% + 5%) / 2 = 7.5%, 71.67% with w2), w1's two pairs
# unverified; rtl pairs with nothing. The report says the refusal, the
# unverified pairs and what --allow-mismatch admitted (md, html, json),
# its gate section says 'not comparable' as perfcorr gate does; the
# matrix leaves refused keys out of each cell, says 'not comparable' for
# a cell with none left and classifies no key whose runs do not pair.
# On the old code the report and matrix paired w2 (MAPE 71.67%) and rtl.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
printf '%s\nw1,gemm,time,100,us\nw1,attn,time,200,us\n' "$H" > "$T/l1.csv"
printf '%s\nw2,gemm,time,100,us\n' "$H" > "$T/l2.csv"
printf '%s\nw1,gemm,time,110,us\nw1,attn,time,190,us\nw2,gemm,time,300,us\n' "$H" > "$T/s.csv"
printf '%s\nw1,gemm,time,105,us\nw1,attn,time,195,us\nw2,gemm,time,101,us\n' "$H" > "$T/r.csv"
pc import -q -s fr_lab -k silicon -V 1 --meta fp.tp=8 --meta fp.ignore_eos=true "$T/l1.csv"
pc import -q -s fr_lab -k silicon -V 1 --meta fp.tp=4 "$T/l2.csv"
pc import -q -s fr_sim -k perfsim -V 1 --meta fp.tp=8 "$T/s.csv"
pc import -q -s fr_rtl -k rtl -V 1 --meta fp.tp=2 "$T/r.csv"
SEL="--source fr_sim --source fr_rtl --source fr_lab"

# report, md: the paragraph, the statistics without w2
run pc report --model fr_sim --ref fr_lab --no-trend --no-matrix
expect_rc 0 "report md"
fpl=$(printf '%s' "$out" | grep '^\*\*Workload fingerprints')
expect_in "1 pair refused as not comparable (1 run pair; first: tp differs" "$fpl" "md: the refusal"
expect_in "--allow-mismatch tp)" "$fpl" "md: the cure"
expect_in "2 pairs unverified" "$fpl" "md: unverified counted"
expect_in "2 pairs, MAPE 7.50%" "$out" "md: w2 left out"
run pc report --model fr_sim --ref fr_lab --no-trend --no-matrix --allow-mismatch tp
expect_in "3 pairs, MAPE 71.67%" "$out" "md --allow-mismatch tp: w2 in"
expect_in "Allowed mismatches (--allow-mismatch): tp (1 pair); 1 pair admitted" \
	"$(printf '%s' "$out" | grep '^\*\*Workload fingerprints')" "md: the allowed field and what it admitted"

# html
run pc report --model fr_sim --ref fr_lab --no-trend --no-matrix --format html
expect_in "1 pair refused as not comparable" "$(printf '%s' "$out" | grep 'id="fingerprint"')" "html: the refusal"
run pc report --model fr_sim --ref fr_lab --no-trend --no-matrix --format html --allow-mismatch tp
expect_in "tp (1 pair); 1 pair admitted" "$(printf '%s' "$out" | grep 'id="fingerprint"')" "html: the allowed field"

# json: compare's members, the per-point flag
run pc report --model fr_sim --ref fr_lab --format json --no-trend
expect_eq "$(printf '%s' "$out" | j "(d['fingerprint']['not_comparable']['pairs'], d['fingerprint']['not_comparable']['field'], d['fingerprint']['unverified'], sorted((p['workload'], p['unverified']) for p in d['points']))")" \
	"(1, 'tp', 2, [('w1', True), ('w1', True)])" "json: refused, unverified, the points flagged"
run pc report --model fr_sim --ref fr_lab --format json --no-trend --allow-mismatch tp
expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], d['fingerprint']['allow_mismatch'], d['fingerprint']['mismatch_admitted'])")" \
	"(3, ['tp'], {'pairs': 1, 'by_field': {'tp': 1}})" "json: allowed and admitted"
run pc report --model fr_sim --ref fr_lab --format csv --allow-mismatch tp
expect_eq "$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | tail -1)" "unverified" "csv: the flag column appended"

# the gate section judges no subset, as perfcorr gate
printf '{"name": "p", "model": "fr_sim", "ref": "fr_lab", "rules": [{"name": "all", "max_mape": 0.5}]}\n' > "$T/p.json"
run pc report --model fr_sim --ref fr_lab --no-trend --no-matrix --policy "$T/p.json"
expect_in "not comparable: 1 of the pairs were refused" "$out" "report's gate section: not comparable"
expect_not_in "FAIL" "$out" "no verdict"
printf '{"name": "p", "model": "fr_sim", "ref": "fr_lab", "allow_mismatch": ["tp"], "rules": [{"name": "all", "max_mape": 0.5}]}\n' > "$T/p.json"
run pc report --model fr_sim --ref fr_lab --no-trend --no-matrix --policy "$T/p.json"
expect_in "FAIL" "$out" "the policy's allow_mismatch: w2's +200% judged"
expect_in "tp (1 pair); 1 pair admitted" "$out" "and said"
run pc report --model fr_sim --ref fr_lab --allow-mismatch tool
expect_rc 2 "an unchecked field refused"
expect_in "not a checked field" "$err" "report says why"

# the matrix: cells without refused keys; rtl pairs with nothing
run pc matrix $SEL --format json
expect_rc 0 "matrix json"
expect_eq "$(printf '%s' "$out" | j "[(c['model'], c['ref'], c['n'], c['not_comparable'], c['unverified']) for c in d['metrics'][0]['cells']]")" \
	"[('fr_sim', 'fr_rtl', 0, 3, 0), ('fr_sim', 'fr_lab', 2, 1, 2), ('fr_rtl', 'fr_sim', 0, 3, 0), ('fr_rtl', 'fr_lab', 0, 3, 0), ('fr_lab', 'fr_sim', 2, 1, 2), ('fr_lab', 'fr_rtl', 0, 3, 0)]" \
	"matrix cells: refused keys out, unverified counted"
expect_eq "$(printf '%s' "$out" | j "(round(d['metrics'][0]['cells'][1]['mape'], 9), d['fingerprint']['not_comparable'], d['fingerprint']['unclassified_keys'], len(d['keys']))")" \
	"(0.075, 14, 3, 0)" "sim vs lab MAPE 7.5% (not 71.67%); no key classified"
run pc matrix $SEL
expect_in "not comparable" "$(printf '%s' "$out" | grep '^fr_rtl ')" "table: rtl's row says not comparable"
expect_in "not comparable: 14 key pairs of the cells refused" "$out" "table: the count"
expect_in "first: tp differs" "$out" "table: the reason"
expect_in "no key classified" "$out" "table: the odd one out says why it is empty"
run pc matrix $SEL --allow-mismatch tp --format json
expect_eq "$(printf '%s' "$out" | j "([c['n'] for c in d['metrics'][0]['cells']], d['fingerprint']['mismatch_admitted'], d['fingerprint']['unclassified_keys'])")" \
	"([3, 3, 3, 3, 3, 3], 14, 0)" "matrix --allow-mismatch tp: every key in every cell"
run pc matrix $SEL --format csv
expect_eq "$(printf '%s\n' "$out" | head -1 | cut -d, -f17-)" "not_comparable,unverified" "csv: columns appended"

# the report's matrix section
run pc report --model fr_sim --ref fr_lab --no-trend
expect_in "not comparable (3 refused)" "$out" "report matrix: the cell"
expect_in "Not comparable: 14 key pairs" "$out" "report matrix: the note"
finish
