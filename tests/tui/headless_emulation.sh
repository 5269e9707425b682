#!/bin/bash
# The detail view's pairwise errors order the kinds roofline, perfsim,
# rtl, emulation, silicon: an emulation source is the reference of rtl and
# the model of silicon.
. "$(dirname "$0")/../tui/libtui.sh"
build_db
# the emulator runs the RTL's design 5 % slower (time = rtl * 1.05)
awk -F, -v OFS=, 'NR > 1 { $4 = $4 * 1.05 } { print }' "$FIXTURES/tui/rtl.csv" \
	>"$T/emu.csv"
pc import -q --source t100-emu --kind emulation --version e1 "$T/emu.csv"
tui_script 120 40 --model archsim@2.4.0 --ref h100-lab <<KEYS
<Enter>
:save-screen $T/detail.screen
KEYS
expect_rc 0 "detail view"
pairs=$(sed -n '/Pairwise errors/,/^ *$/p' "$T/detail.screen" |
	awk 'NR > 2 && NF >= 2 { print $1 ">" $2 }' | tr '\n' ' ')
expect_in "t100-rtl>t100-emu" "$pairs" "rtl is a model of emulation"
expect_in "t100-emu>h100-lab" "$pairs" "emulation is a model of silicon"
# gemm_qkv decode: rtl 190 us, emulation 190 * 1.05 = 199.5 us, silicon
# 210 us: rtl vs emu 190 / 199.5 - 1 = -4.8 %, emu vs lab 199.5 / 210 - 1
# = -5.0 %
expect_in "-4.8%" "$(grep '^  t100-rtl  *t100-emu' "$T/detail.screen")" "rtl vs emu error"
expect_in "-5.0%" "$(grep '^  t100-emu  *h100-lab' "$T/detail.screen")" "emu vs lab error"
expect_not_in "t100-emu>t100-rtl" "$pairs" "never the other way"
expect_not_in "h100-lab>t100-emu" "$pairs" "silicon is never a model"
finish
