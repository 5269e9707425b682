# The workload column leaves a part out of every row or of none (QA
# finding): at 80 columns, archsim vs h100-cloud's keys (the decode
# kernels and the serving sweep) are too wide for the column, and the
# parts the same wherever their KEY is (seq=2048, num_prompts=200,
# request_rate=inf) were left out only of the rows too wide without
# them, so 'decode/bs=32' sat above 'decode/bs=8/seq=2048' as if the two
# differed in seq.
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

tui_script 80 24 --model archsim --ref h100-cloud <<KEYS
:save-screen $T/list.screen
KEYS
expect_rc 0 "archsim vs h100-cloud at 80x24"
rows() { sed -n '4,22p' "$T/list.screen" | awk '{print $1}'; }
d=$(rows | grep -c '^decode/')
expect_eq "$([ "$d" -ge 5 ] && echo yes)" yes "decode rows on the first screen ($d)"
n=$(rows | grep '^decode/' | grep -c 'seq=')
expect_eq "$([ "$n" = 0 ] || [ "$n" = "$d" ] && echo same)" same \
	"seq= in every decode row or in none (shown in $n of $d)"
n=$(rows | grep '^max_concurrency=' | grep -c 'num_prompts=')
expect_eq "$n" 0 "the serving rows: num_prompts= (the same in every key) left out of all"
expect_eq "$(rows | grep -c '~')" 0 "no key cut"
finish
