# Headless: the Disagreements view (5) says who was left out of a key's
# vote and which keys are not classified (issue 37, per field; the
# fixture of cli/matrix_vote.sh: vrtl states precision fp8, vlab2 tp 2,
# the others tp 1 bf16). On the old code no key was listed and nothing
# said why: 'no key is held by 3 non-roofline sources'.
. "$TESTS/tui/libtui.sh"
H='workload,op,metric,value,unit'
printf '%s\nw1,gemm,time,100,us\nw1,attn,time,200,us\nw2,gemm,time,100,us\n' "$H" >"$T/vsim.csv"
printf '%s\nw1,gemm,time,101,us\nw1,attn,time,200,us\n' "$H" >"$T/vemu.csv"
printf '%s\nw1,gemm,time,130,us\nw1,attn,time,200,us\n' "$H" >"$T/vrtl.csv"
printf '%s\nw1,gemm,time,102,us\nw1,attn,time,260,us\nw2,gemm,time,101,us\n' "$H" >"$T/vlab.csv"
printf '%s\nw1,gemm,time,150,us\nw1,attn,time,200,us\nw2,gemm,time,150,us\n' "$H" >"$T/vlab2.csv"
imp() { pc import -q -s "$1" -k "$2" -V 1 --meta fp.tp="$3" --meta fp.precision="$4" "$T/$1.csv"; }
imp vsim perfsim 1 bf16 && imp vemu emulation 1 bf16 && imp vrtl rtl 1 fp8 &&
	imp vlab silicon 1 bf16 && imp vlab2 silicon 2 bf16 && ok || fail "import"

tui_script 120 40 --model vsim --ref vlab <<KEYS
5
:save-screen $T/view.screen
KEYS
expect_rc 0 "disagreements view"
S=$(tr -s ' ' <"$T/view.screen")
expect_in "odd:vlab 1, agree 1; not classified 1: their voters' runs do not pair" "$S" \
	"the counts say the key not classified"
expect_in "odd:vlab: specification-error by the rule" "$S" "the cursor's key"
expect_in "left out of the vote: vrtl: precision differs: 'vrtl' run 3 says fp8" "$S" \
	"who was left out of its vote, and why"
finish
