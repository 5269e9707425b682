# perfcorr report on the demo database (scripts/demo.sh: real tool
# formats): each format agrees with `compare`, the html is well-formed
# with one scatter per metric that has 5 pairs or more (a table of the
# pairs for the others), the histogram and the trend.
. "$(dirname "$0")/../cli/lib.sh"
ROOT=$(cd "$FIXTURES/.." && pwd)
(cd "$ROOT" && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>"$T/demo.out" 2>&1 </dev/null && ok || fail "demo: $(cat "$T/demo.out")"
CHECK="python3 $TESTS/cli/report_check.py"

for side in "archsim h100-lab" "roofline h100-lab"; do
	set -- $side
	M=$1 R=$2
	pc compare --model "$M" --ref "$R" --format json --points \
		--group-by metric --group-by op_class >"$T/cmp.json"
	for m in $($CHECK metrics "$T"); do
		pc compare --model "$M" --ref "$R" --metric "$m" --format json \
			>"$T/cmp-$m.json"
	done
	nm=$($CHECK metrics "$T" | wc -l)
	pc report --model "$M" --ref "$R" -o "$T/rep.json" && ok || fail "json"
	run $CHECK json "$T"
	expect_rc 0 "$M json equals compare: $out"
	pc report --model "$M" --ref "$R" -o "$T/rep.csv" && ok || fail "csv"
	run $CHECK csv "$T"
	expect_rc 0 "$M csv equals compare: $out"
	pc report --model "$M" --ref "$R" -o "$T/rep.md" --top 10 && ok ||
		fail "md"
	run $CHECK md "$T" 10
	expect_rc 0 "$M md equals compare: $out"
	pc report --model "$M" --ref "$R" -o "$T/rep.html" && ok || fail "html"
	run xmllint --noout "$T/rep.html"
	expect_rc 0 "$M html is well-formed XML: $err"
	# a scatter per metric with 5 pairs or more, a table of the pairs
	# for each other metric (a 2-point scatter says nothing)
	nf=$($CHECK figured "$T" | grep -c . || true)
	expect_eq "$(grep -c 'class="fig fig-scatter"' "$T/rep.html")" "$nf" \
		"$M: one scatter per metric with 5 pairs or more"
	expect_eq "$(grep -c '<figure class="few">' "$T/rep.html")" \
		"$((nm - nf))" "$M: a table for each metric with fewer"
	expect_eq "$(grep -c 'class="fig fig-hist"' "$T/rep.html")" 1 \
		"$M: histogram"
	expect_eq "$(grep -c 'class="fig fig-trend"' "$T/rep.html")" 1 \
		"$M: trend"
done
# the roofline is a lower bound: measured below it is flagged
run pc report --model roofline --ref h100-lab
expect_in "## Speed-of-light violations (3)" "$out" "demo sol violations"
run pc report --model archsim --ref h100-lab
expect_in "| 2.3.0 |" "$out" "demo trend has 2.3.0"
expect_in "| 2.4.0 |" "$out" "demo trend has 2.4.0"

finish
