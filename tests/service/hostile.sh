#!/usr/bin/env bash
# Untrusted names: control characters and terminal escape sequences from
# an imported file never reach the terminal raw (tables, text reports,
# messages); HTML escapes everything; a workload named like an SQL
# injection imports, displays, filters and reports as plain text.
. "$(dirname "$0")/../cli/lib.sh"
ESC=$'\e'
EVIL_W="evil${ESC}[31mRED${ESC}]0;pwned"$'\a'"${ESC}[2J/decode/bs=1"
EVIL_OP="op${ESC}[1A"$'\r'"gone"$'\xc2\x9b'"31m<script>alert(1)</script>"
SQL_W="x'); DROP TABLE results; --/bs=2"
SQL_OP="'; DELETE FROM runs; --"
python3 - "$T" "$EVIL_W" "$EVIL_OP" "$SQL_W" "$SQL_OP" <<'PY'
import csv, sys
t, ew, eo, sw, so = sys.argv[1:]
for name, scale in (('model', 1.1), ('ref', 1.0)):
    with open('%s/%s.csv' % (t, name), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['workload', 'op', 'metric', 'value', 'unit'])
        for wl in (ew, sw):
            for op, v in ((eo, 10), (so, 20), ('gemm', 30)):
                w.writerow([wl, op, 'time', v * scale, 'us'])
PY
pc import -q --source sim --kind perfsim "$T/model.csv" || fail "import model"
pc import -q --source lab --kind silicon "$T/ref.csv" || fail "import ref"
expect_eq "$(q() { pcsql "$1"; }; q "SELECT count(*) FROM results")" 12 "all rows stored"

# no raw ESC, BEL, CR or C1 CSI in what a terminal shows
raw_free() { # text description
	if printf '%s' "$1" | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]\|\xc2\x9b'; then
		fail "$2: raw control bytes: $(printf '%s' "$1" | od -c | head -5)"
	else ok; fi
}
check_out() { # description CMD...
	local d=$1; shift
	run "$@"
	[ "$rc" -eq 0 ] && ok || fail "$d: exit $rc: $err"
	raw_free "$out" "$d stdout"
	raw_free "$err" "$d stderr"
}
check_out "workloads" pc workloads
expect_in 'evil\x1b[31mRED' "$out" "escape shown visibly"
expect_in "x'); DROP TABLE results; --" "$out" "injection shown as text"
check_out "runs" pc runs
check_out "compare table" pc compare --model sim --ref lab --points
expect_in '\x1b[1A\rgone' "$out" "op escaped visibly"
check_out "compare grouped" pc compare --model sim --ref lab -g op -g workload
check_out "compare filtered" pc compare --model sim --ref lab --points --workload "x'); DROP TABLE results; --*"
expect_in "x'); DROP TABLE results; --" "$out" "filter by the injection name"
expect_not_in "evil" "$out" "the filter really filtered"
check_out "compare op filter" pc compare --model sim --ref lab --points --op "'; DELETE FROM runs; --"
expect_in "DELETE FROM runs" "$out" "op filter by injection text"
run pc runs --source "x'); DROP TABLE runs; --"
expect_rc 1 "filter on an unknown source named like an injection"
expect_in "no source named 'x'); DROP TABLE runs; --'" "$err" "named as text"
check_out "trend" pc trend --model sim --ref lab
check_out "annotate" pc annotate --status investigating --workload "x'); DROP TABLE results; --/bs=2" --op "$SQL_OP" --metric time --note "$EVIL_OP"
check_out "annotations" pc annotations
expect_in "DELETE FROM runs" "$out" "annotation key shown"
check_out "report md" pc report --model sim --ref lab --format md
expect_in "DROP TABLE results" "$out" "report names the workload"
run pc report --model sim --ref lab --format html
expect_rc 0 "report html"
raw_free "$out" "report html"
expect_not_in "<script>alert" "$out" "html escapes names"
expect_in "&lt;script&gt;" "$out" "html shows them escaped"
run pc report --model sim --ref lab --format json
expect_rc 0 "report json"
python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$out" && ok || fail "report json invalid"
pc export results --format json >"$T/export.json"
python3 - "$T/export.json" "$SQL_OP" "$EVIL_OP" <<'PY' && ok || fail "export json does not round-trip the names"
import json, sys
rows = json.load(open(sys.argv[1]))
rows = rows if isinstance(rows, list) else rows.get('results', rows)
ops = {r['op'] for r in rows}
wls = {r['workload'] for r in rows}
assert sys.argv[2] in ops and sys.argv[3] in ops, ops
assert any(w.startswith("x'); DROP TABLE results; --") for w in wls), wls
PY
# an error message naming an untrusted file name
bad="$T/bad${ESC}]2;x"$'\a'".csv"
printf 'workload,op,metric,value,unit\nw,o,time,abc,us\n' >"$bad"
run pc import --source lab "$bad"
expect_rc 1 "bad file"
raw_free "$err" "import error message"
# a real terminal (tmux): the CLI tables and the TUI must not let the
# names retitle the window (OSC 0) or otherwise drive it
if command -v tmux >/dev/null; then
	SOCK="pcsvc$$"
	TM() { tmux -L "$SOCK" "$@"; }
	trap 'TM kill-server 2>/dev/null; rm -rf "$T"' EXIT
	{
		printf '%q ' "$PERFCORR" workloads; echo
		printf '%q ' "$PERFCORR" compare --model sim --ref lab --points; echo
		echo "touch $T/cli.done"
		printf '%q ' env TERM=screen "$PERFCORR" tui; echo
		echo "touch $T/tui.done; sleep 60"
	} >"$T/tcmd"
	TM new-session -d -x 200 -y 50 -s h "env PERFCORR_DB=$PERFCORR_DB USER=tester bash $T/tcmd"
	pane() { TM capture-pane -p -t h; }
	# (a raw "\e]0;pwned\a" would make #{pane_title} "pwned")
	title0=$(TM display -p -t h '#{pane_title}')
	n=0
	until [ -e "$T/cli.done" ] || [ $n -gt 300 ]; do sleep 0.1; n=$((n + 1)); done
	[ -e "$T/cli.done" ] && ok || { fail "CLI in tmux did not finish"; pane | tail -20 >&2; }
	expect_not_in "pwned" "$(TM display -p -t h '#{pane_title}')" "CLI output retitled the terminal"
	sleep 1.5
	expect_not_in "pwned" "$(TM display -p -t h '#{pane_title}')" "the TUI retitled the terminal"
	n=0
	until [ -e "$T/tui.done" ] || [ $n -gt 50 ]; do
		TM send-keys -t h q; sleep 0.3; n=$((n + 1))
	done
	[ -e "$T/tui.done" ] && ok || fail "TUI in tmux did not quit"
	expect_not_in "pwned" "$(TM display -p -t h '#{pane_title}')" "title after the TUI"
	echo "terminal title: before '$title0', after '$(TM display -p -t h '#{pane_title}')'"
	TM kill-server 2>/dev/null
fi

# the database is intact: every table still there, nothing deleted
expect_eq "$(pcsql "SELECT count(*) FROM results")" 12 "results intact"
expect_eq "$(pcsql "SELECT count(*) FROM runs")" 2 "runs intact"
expect_eq "$(pcsql "PRAGMA integrity_check")" ok "integrity"
finish
