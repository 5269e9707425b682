#!/usr/bin/env bash
# Run one libFuzzer target for $PERFCORR_FUZZ_SECONDS (default 10) on a
# scratch corpus seeded from the committed one (never written to).
# Crashes are kept in $PERFCORR_FUZZ_ARTIFACTS (default: a temp dir).
set -u
bin=$1 seeds=$2
secs=${PERFCORR_FUZZ_SECONDS:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/perfcorr-fuzz.XXXXXX")
art=${PERFCORR_FUZZ_ARTIFACTS:-$work/artifacts}
mkdir -p "$work/corpus" "$art"
trap 'rm -rf "$work/corpus"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -print_final_stats=1 -artifact_prefix="$art/" \
	"$work/corpus" "$seeds" 2>"$work/log"
rc=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added|#[0-9]+ *DONE)' "$work/log" | tr '\n' ' '
echo
if [ $rc -ne 0 ]; then
	tail -60 "$work/log"
	echo "fuzz: $(basename "$bin") failed (exit $rc); reproducer in $art" >&2
fi
exit $rc
