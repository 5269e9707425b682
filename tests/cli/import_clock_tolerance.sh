#!/usr/bin/env bash
# Clock agreement (issue 16 defect 5): gem5 writes its clock as a whole
# number of picosecond ticks, 1.5 GHz as 667 ps = 1e12 / 667 =
# 1499250374.8125937 Hz; the period is known to half a tick, so the clock
# lies within 1e12 / 666.5 - 1e12 / 667 = 1124719.6 Hz of it. --clock-mhz
# 1500 (749625 Hz away) agrees: the file's exact clock is kept with a
# one-line note. A GPGPU-Sim log at 1755 MHz (written "1755.0", known to
# 0.05 MHz) with --clock-mhz 1500 is a conflict naming the file line.
. "$(dirname "$0")/lib.sh"
run pc import -s g5 -k perfsim -w t100/gemm --clock-mhz 1500 "$SAMPLES/gem5_stats.txt"
expect_rc 0 "1500 MHz agrees with a 667 ps period"
expect_in "note: $SAMPLES/gem5_stats.txt: keeping the file's clock 1499.250375 MHz, from $SAMPLES/gem5_stats.txt:11 (period 667 ticks): --clock-mhz 1500 agrees within the file's resolution (1.125 MHz)" "$err" "one-line note"
expect_eq "$(printf '%s\n' "$err" | grep -c note)" 1 "one note"
expect_eq "$(pcsql "SELECT printf('%.4f', clock_hz) FROM runs")" 1499250374.8126 "the file's exact clock kept"
before=$(db_digest)
run pc import -s gs -k perfsim -w t --clock-mhz 1500 "$SAMPLES/gpgpusim_run.log"
expect_rc 1 "a genuine conflict stays an error"
expect_in "the file's clock (1755 MHz, from $SAMPLES/gpgpusim_run.log:1 (-gpgpu_clock_domains)) conflicts with --clock-mhz 1500: drop --clock-mhz" "$err" "names the line and the cure"
# outside gem5's resolution: 1502 MHz is 2.75 MHz away
run pc import -s g6 -k perfsim -w t --clock-mhz 1502 "$SAMPLES/gem5_stats.txt"
expect_rc 1 "beyond half a tick"
expect_in "gem5_stats.txt:11 (period 667 ticks)) conflicts with --clock-mhz 1502" "$err" "gem5 conflict names the period line"
expect_eq "$(db_digest)" "$before" "database unchanged"
# the same clock exactly: no note
run pc import -s gs2 -k perfsim -w t --clock-mhz 1755 "$SAMPLES/gpgpusim_run.log"
expect_rc 0 "equal clocks"
expect_not_in "note:" "$err" "no note when equal"
finish
