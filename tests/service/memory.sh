#!/usr/bin/env bash
# Bounded memory on pathological files: peak RSS does not grow with the
# file size (a 1 GB file then imports in bounded memory: measured here on
# 8 MB vs 32 MB), and a single 100 MB line is a clear error, not an OOM
# kill, for every importer.
. "$(dirname "$0")/../cli/lib.sh"
TIME=/usr/bin/time
[ -x $TIME ] || { echo "skip: /usr/bin/time missing"; exit 77; }
# peak RSS is only meaningful for the binary itself (not valgrind & co)
[ "$(head -c 4 "$PERFCORR")" = $'\x7fELF' ] || { echo "skip: PERFCORR is a wrapper"; exit 77; }
if ldd "$PERFCORR" 2>/dev/null | grep -q libasan; then
	ASAN=1	# freed memory sits in ASan's quarantine: keep it small
	export ASAN_OPTIONS=quarantine_size_mb=4:detect_leaks=0
	SLACK=48000
else
	ASAN=0
	SLACK=16000
fi
# gen FILE MB: perfcorr-csv whose rows carry 1 KiB in the ignored 'file'
# column, so size grows fast while the stored results stay few
gen() {
	python3 - "$1" "$2" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
pad = 'x' * 1000
n = mb * 1024 * 1024 // 1040
with open(path, 'w') as f:
    f.write('workload,op,metric,value,unit,file\n')
    for i in range(n):
        f.write('m/bs=%d,op%d,time,%d,us,%s\n' % (i // 100, i % 100, i + 1, pad))
PY
}
peak() { # KiB of the last command's max RSS from $T/time
	tail -1 "$T/time"
}
gen "$T/small.csv" 8
gen "$T/large.csv" 32
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source s --kind silicon "$T/small.csv" || fail "small import"
small=$(peak)
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source l --kind silicon "$T/large.csv" || fail "large import"
large=$(peak)
echo "peak RSS: 8 MB file ${small} KiB, 32 MB file ${large} KiB"
[ "$large" -lt $((small + SLACK)) ] && ok || fail "RSS grows with file size: ${small} -> ${large} KiB"
[ $ASAN = 1 ] || { [ "$large" -lt 100000 ] && ok || fail "RSS ${large} KiB for a 32 MB file"; }
expect_eq "$(pcsql "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'large.csv'")" $((32 * 1024 * 1024 / 1040)) "every row of the large file"

# one 100 MB line, offered to every importer
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("workload,op,metric,value,unit\n")
    f.write("w/bs=1,op,time,1,us," + "a" * (100 << 20) + "\n")
' "$T/line.csv"
before=$(db_digest)
LIMIT=180000
[ $ASAN = 1 ] && LIMIT=400000
for fmt in $("$PERFCORR" formats | awk '{print $1}'); do
	extra=()
	[ "$fmt" = regex-log ] && extra=(--rules "$FIXTURES/rtl/tb_rules.json")
	$TIME -f %M -o "$T/time" "$PERFCORR" import --source x --kind silicon --format "$fmt" "${extra[@]}" "$T/line.csv" >/dev/null 2>"$T/err"
	rc=$?
	rss=$(peak)
	case $rc in
	0|1) ok ;;
	*) fail "$fmt: exit $rc on a 100 MB line (killed?): $(head -c 300 "$T/err")" ;;
	esac
	# the whole line in memory would be >= 100 MB (>= 200 MB for a copy)
	[ "$rss" -lt $LIMIT ] && ok || fail "$fmt: peak RSS ${rss} KiB on a 100 MB line"
	echo "$fmt: exit $rc, peak ${rss} KiB: $(head -c 160 "$T/err" | tr -d '\n')"
done
run pc import --source x --kind silicon "$T/line.csv"
expect_rc 1 "native csv: long line"
expect_in "record longer than" "$err" "says the record is too long"
expect_eq "$(db_digest)" "$before" "failed imports changed nothing"
finish
