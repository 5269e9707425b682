#!/usr/bin/env bash
# The one table of statistics (issue 19): every row of docs/statistics.md's
# list (which tests/unit/test_corrout.c checks is the table in
# src/corrout.c) is a key of compare's JSON summary, of its by_metric
# blocks, of the report's JSON summary, and a row of the report's Markdown
# "All statistics" (by key); the report's accuracy columns are labels of
# the table (the Markdown one has the noisy and SoL columns the HTML one
# has).
. "$TESTS/cli/lib.sh"
C=$FIXTURES/corr
DOC=$TESTS/../docs/statistics.md
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon -V w47 "$C/lab.csv"
pc import -q -s sim -k perfsim -V 2.0 "$C/sim-2.csv"
keys=$(sed -n '/<!-- statistics table -->/,/<!-- end statistics table -->/p' "$DOC" |
	grep '^| `' | sed 's/^| `\([^`]*\)`.*/\1/')
expect_eq "$(printf '%s\n' "$keys" | wc -l | tr -d ' ')" "51" "the docs list 51 statistics"

has() { # JSON-on-stdin path-expr description
	KEYS="$keys" python3 -c '
import json, os, sys
d = json.load(sys.stdin)
obj = eval(sys.argv[1])
miss = []
for k in os.environ["KEYS"].split():
    o = obj
    for part in k.split("."):
        if not isinstance(o, dict) or part not in o:
            miss.append(k)
            break
        o = o[part]
print("missing: " + " ".join(miss) if miss else "all")' "$1"
}

run pc compare --model sim --ref lab --format json
expect_rc 0 "compare json"
expect_eq "$(printf '%s' "$out" | has "d['summary']")" "all" "every statistic in compare's summary"
expect_eq "$(printf '%s' "$out" | has "d['by_metric'][0]")" "all" "every statistic in a by_metric block"
run pc compare --model sim --ref lab --format json --group-by op
expect_eq "$(printf '%s' "$out" | has "d['groups'][0]")" "all" "every statistic in a group"

run pc report --model sim --ref lab --format json
expect_rc 0 "report json"
expect_eq "$(printf '%s' "$out" | has "d['summary']")" "all" "every statistic in the report's summary"

run pc report --model sim --ref lab --format md
expect_rc 0 "report md"
md=$out
miss=""
for k in $keys; do
	printf '%s\n' "$md" | grep -qF "| \`$k\` |" || miss="$miss $k"
done
expect_eq "${miss:-none}" "none" "every statistic a row of the Markdown's All statistics"
# a value of the table's row is the JSON's: MAPE of all pairs
mape=$(pc report --model sim --ref lab --format json | python3 -c 'import json,sys; print("%.2f%%" % (json.load(sys.stdin)["summary"]["mape"] * 100))')
expect_in "| MAPE | \`mape\` | $mape |" "$md" "the MAPE row shows the summary's MAPE"
# the accuracy columns come from the table (labels), noisy and SoL included
expect_in "| op class | n | MAPE | bias | p95 \\|err\\| | Pearson | Spearman | slope | noisy | SoL |" "$md" "Markdown accuracy columns"
run pc report --model sim --ref lab --format html
expect_in '<th class="n">p95 |err|</th><th class="n">Pearson</th><th class="n">Spearman</th><th class="n">slope</th><th class="n">noisy</th><th class="n">SoL</th>' "$out" "HTML accuracy columns"
finish
