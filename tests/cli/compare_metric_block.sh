#!/usr/bin/env bash
# A --metric selection's by_metric block is the summary over all its
# pairs (src/correlate.c corr_by_metric_all: copied, not computed a
# second time; issue 21), and it equals that metric's block of the
# unfiltered compare (computed on its own: src/corr_summary.c by_metric). Study: 6
# workloads; time of gemm (model 1.1 x the reference) and attn
# (reference 50w+7, model 45w+7), energy of gemm (model 1.2 x).
# By hand, time (12 pairs): errors +0.1 six times and -5w/(50w+7) for
# w = 1..6: -5/57, -10/107, -15/157, -20/207, -25/257, -30/307 (sum
# -0.5683331); MAPE = (0.6 + 0.5683331) / 12 = 0.0973611, bias = (0.6 -
# 0.5683331) / 12 = 0.0026389; max |error| 0.1.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
{ echo "$H"
  for w in 1 2 3 4 5 6; do
    echo "w$w,gemm,time,$((100 * w)),us"
    echo "w$w,attn,time,$((50 * w + 7)),us"
    echo "w$w,gemm,energy,$((10 * w)),J"
  done
} > "$T/lab.csv"
{ echo "$H"
  for w in 1 2 3 4 5 6; do
    echo "w$w,gemm,time,$((110 * w)),us"
    echo "w$w,attn,time,$((45 * w + 7)),us"
    echo "w$w,gemm,energy,$((12 * w)),J"
  done
} > "$T/sim.csv"
pc import -q -s lab -k silicon "$T/lab.csv"
pc import -q -s sim -k perfsim "$T/sim.csv"
run pc compare -m sim -r lab -f json
expect_rc 0 "unfiltered compare"
all=$out
for ci in "" "--no-ci"; do
	run pc compare -m sim -r lab -f json --metric time $ci
	expect_rc 0 "--metric time $ci"
	sel=$out
	expect_eq "$(printf '%s' "$sel" | j "[b['metric'] for b in d['by_metric']]")" "['time']" "one block, time ($ci)"
	expect_eq "$(printf '%s' "$sel" | j "d['summary']['n']")" "12" "12 time pairs ($ci)"
	expect_eq "$(printf '%s' "$sel" | j "'%.7f %.7f %.7f' % (d['summary']['mape'], d['summary']['bias'], d['summary']['max_abs_err'])")" \
		"0.0973611 0.0026389 0.1000000" "MAPE, bias, max |error| by hand ($ci)"
	# the block: every statistic of the summary (intervals included)
	expect_eq "$(printf '%s' "$sel" | j "sorted(k for k, v in d['summary'].items() if d['by_metric'][0].get(k) != v)")" "[]" "block = summary ($ci)"
	# and the unfiltered compare's time block, computed on its own
	# (json.dumps: NaN compares equal as text)
	if [ -z "$ci" ]; then
		t=$(printf '%s' "$all" | j "json.dumps([b for b in d['by_metric'] if b['metric'] == 'time'][0], sort_keys=True)")
		expect_eq "$(printf '%s' "$sel" | j "json.dumps(d['by_metric'][0], sort_keys=True)")" "$t" "block = the unfiltered compare's time block"
	fi
done
# two metrics: two blocks computed as before, each its own summary
expect_eq "$(printf '%s' "$all" | j "[(b['metric'], b['n']) for b in d['by_metric']]")" "[('energy', 6), ('time', 12)]" "unfiltered: two blocks"
expect_eq "$(printf '%s' "$all" | j "'%.7f' % [b for b in d['by_metric'] if b['metric'] == 'energy'][0]['mape']")" "0.2000000" "energy block MAPE 0.2 (model 1.2 x)"
finish
