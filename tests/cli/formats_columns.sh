# perfcorr formats: one importer a line in three aligned columns (QA
# finding: the name column was 20 wide, and 'inference-perf-requests'
# pushed its kind and description out of line).
. "$(dirname "$0")/lib.sh"
run pc formats
expect_rc 0 "formats"
expect_in "inference-perf-requests" "$out" "the longest name is listed"
bad=$(printf '%s\n' "$out" | python3 -c '
import sys
lines = [l.rstrip("\n") for l in sys.stdin if l.strip()]
w = max(len(l.split()[0]) for l in lines)
for l in lines:
    name, rest = l[:w], l[w:]
    # the name, padded; one blank; the kind in 9 columns; one blank
    if name.strip() != l.split()[0] or rest[:1] != " " or rest[1:2] == " " \
       or rest[10:11] != " " or rest[11:12] == " ":
        print(l)
')
expect_eq "$bad" "" "every line's kind and description start in the same column"
finish
