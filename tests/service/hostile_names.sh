#!/usr/bin/env bash
# Every command that prints a name taken from files or manifests (sources,
# versions, workloads, ops, metrics, pair-cache labels, watch log lines,
# .error files) escapes it through the one escaping function: no raw ESC,
# BEL, other C0 controls, C1 controls (UTF-8 encoded or raw bytes), bytes
# that are not UTF-8, or bidi overrides/isolates reach a terminal or file.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
ESC=$'\e'
# ESC sequences, BEL, a raw C1 CSI byte, an encoded C1 CSI, RLO (U+202E),
# an isolate (U+2066)
EVIL=$'\e[31m'"red"$'\a'$'\x9b'"2J"$'\xc2\x9b'"0m"$'\xe2\x80\xae'"txt.exe"$'\xe2\x81\xa6'
SRC="sim${EVIL}"
VER="v1${EVIL}"
REF="lab${EVIL}"

python3 - "$T" "$EVIL" <<'PY'
import sys
t, evil = sys.argv[1], sys.argv[2].encode('utf-8', 'surrogateescape')
for name, scale in (('m1', 1.1), ('m2', 1.3), ('r', 1.0)):
    with open('%s/%s.csv' % (t, name), 'wb') as f:
        f.write(b'workload,op,metric,value,unit\n')
        for i in range(3):
            f.write(b'w' + evil + b'/bs=%d,op%d' % (i, i) + evil +
                    b',time,%g,us\n' % ((i + 1) * 10 * scale))
PY

# clean: no invalid UTF-8, no C0 (but \n, \t), C1 or bidi controls
clean() { # FILE DESCRIPTION
	if python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
try:
    s = b.decode('utf-8')
except UnicodeDecodeError as e:
    print('invalid UTF-8 at %d: %r' % (e.start, b[max(0, e.start - 20):e.start + 5]))
    sys.exit(1)
for i, c in enumerate(s):
    o = ord(c)
    if (o < 0x20 and c not in '\n\t') or 0x7f <= o < 0xa0 or \
       0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069:
        print('raw U+%04X at %d: %r' % (o, i, s[max(0, i - 20):i + 5]))
        sys.exit(1)
PY
	then ok; else fail "$2: raw control in output"; fi
}
# check DESCRIPTION CMD...: run, both streams must be clean
check() {
	local d=$1; shift
	"$@" >"$T/o" 2>"$T/e"; rc=$?
	clean "$T/o" "$d (stdout)"
	clean "$T/e" "$d (stderr)"
}

check "import m1" pc import --source "$SRC" --kind perfsim --version "$VER" "$T/m1.csv"
[ "$rc" -eq 0 ] || fail "import m1: $(cat "$T/e")"
check "import m2" pc import --source "$SRC" --version "v2${EVIL}" "$T/m2.csv"
check "import --index" pc import --index --source "$REF" --kind silicon --version "r${EVIL}" "$T/r.csv"
[ "$rc" -eq 0 ] || fail "import --index: $(cat "$T/e")"
grep -q 'indexed sim\\x1b\[31mred\\x07\\x9b2J\\x9b0m\\u202etxt.exe\\u2066' "$T/e" \
	&& ok || fail "import --index names the source escaped: $(cat "$T/e")"
check "index" pc index
check "index --list" pc index --list
grep -q 'sim\\x1b\[31m' "$T/o" && ok || fail "index --list shows the label escaped: $(cat "$T/o")"
check "sources" pc sources
check "runs" pc runs
check "workloads" pc workloads
check "compare" pc compare --model "$SRC" --ref "$REF" --points
check "trend" pc trend --model "$SRC" --ref "$REF"
check "diff" pc diff --model "$SRC@$VER..v2${EVIL}" --ref "$REF"
[ "$rc" -eq 0 ] || fail "diff ran: $(cat "$T/e")"
grep -q '^model: *sim\\x1b' "$T/o" && ok || fail "diff header escaped: $(head -3 "$T/o")"
check "report md" pc report --model "$SRC" --ref "$REF" --format md
check "export csv" pc export --format csv
check "annotate" pc annotate --status investigating --model "$SRC" --ref "$REF" \
	--workload "w${EVIL}/bs=0" --op "op0${EVIL}" --metric time --note "n${EVIL}"
check "annotations" pc annotations
check "gate" pc gate --model "$SRC" --ref "$REF"

# the watcher: log lines (also --index) and the .error file
D=$T/drop; mkdir "$D"
cp "$T/m1.csv" "$D/ok${EVIL}.csv"
printf '{"source": "w%s", "kind": "perfsim", "version": "x%s"}\n' "$EVIL" "$EVIL" >"$D/ok${EVIL}.csv.perfcorr.json"
printf 'workload,op,metric,value,unit\nw/bs=1,op%s,time,12,furlongs%s\n' "$EVIL" "$EVIL" >"$D/bad${EVIL}.csv"
printf '{"source": "x%s"}\n' "$EVIL" >"$D/bad${EVIL}.csv.perfcorr.json"
check "watch --index" pc watch --once --interval 0.2 --index "$D"
grep -q 'imported ok\\x1b' "$T/o" && ok || fail "watch log names escaped: $(cat "$T/o")"
grep -q 'indexed w\\x1b' "$T/o" && ok || fail "watch --index log escaped: $(cat "$T/o")"
n=0
for f in "$D"/failed/*.error; do
	[ -f "$f" ] || continue
	n=$((n + 1)); clean "$f" ".error file"
done
expect_eq "$n" 1 "one .error file"
finish
