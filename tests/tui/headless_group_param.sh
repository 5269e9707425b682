# Headless: the summary grouped by a workload parameter sorts numeric
# values numerically (bs 1, 8, 16, 32, not 1, 16, 32, 8) and labels the
# workloads without the parameter "(no bs)", listed last. compare
# --group-by uses the same order.
. "$(dirname "$0")/../tui/libtui.sh"
printf 'workload,op,metric,value,unit\nm/decode/bs=1,e2e,time,10,ms\nm/decode/bs=32,e2e,time,20,ms\nm/decode/bs=8,e2e,time,30,ms\nm/prefill/seq=128,e2e,time,40,ms\nm/decode/bs=16,e2e,time,50,ms\n' \
	>"$T/ref.csv"
# errors: bs=1 +10%, bs=32 +20%, bs=8 +30%, no bs +50%, bs=16 0%
printf 'workload,op,metric,value,unit\nm/decode/bs=1,e2e,time,11,ms\nm/decode/bs=32,e2e,time,24,ms\nm/decode/bs=8,e2e,time,39,ms\nm/prefill/seq=128,e2e,time,60,ms\nm/decode/bs=16,e2e,time,50,ms\n' \
	>"$T/mod.csv"
pc init >/dev/null
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1 "$T/mod.csv"

# b cycles op_class, op, metric, workload, param.bs ...: save each
{
	echo 2
	for i in 1 2 3 4 5 6; do
		echo b
		echo ":save-screen $T/b$i.screen"
	done
	echo Q
} >"$T/keys.in"
tui_script 100 30 <"$T/keys.in"
expect_rc 0 "summary by parameter"
scr=$(grep -l 'by param.bs' "$T"/b*.screen | head -1)
if [ -z "$scr" ]; then fail "no screen grouped by param.bs"; finish; exit; fi
# the group rows in order, with their MAPE
rows=$(sed -n '/^ *param.bs  *n /,/^ *$/p' "$scr" | awk 'NR > 2 && NF > 2 \
	{ if ($1 == "(no") print $1 " " $2 " " $4; else print $1 " " $3 }' |
	head -5 | tr '\n' ';')
expect_eq "$rows" "1 10.0%;8 30.0%;16 0.0%;32 20.0%;(no bs) 50.0%;" \
	"numeric order, empty group labelled and last"

run pc compare --model sim --ref lab --group-by param.bs
expect_eq "$(printf '%s\n' "$out" | sed -n '/^param.bs/,/^ *-a/p' |
	awk 'NR > 1 && $2 == "1" { print $1 }' | tr '\n' ' ')" "1 8 16 32 " \
	"compare --group-by param.bs: numeric order"
finish
