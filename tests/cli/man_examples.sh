# Every command's manual page has EXAMPLES, and the examples of the
# pages that name the demo's sources run on the demo (QA finding: 18 of
# the 23 commands had none: init, formats, sources, runs, workloads,
# export, roofline, matrix, trend, diff, explain, sensitivity, annotate,
# annotations, report, tui, index, db). The hand-written parts are
# docs/man/perfcorr-CMD.1.in (src/cmd/manpage.c adds the options).
. "$(dirname "$0")/lib.sh"
MANDIR=$TESTS/../docs/man
cmds=$("$PERFCORR" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}')
expect_eq "$([ "$(wc -w <<<"$cmds")" -ge 20 ] && echo yes)" yes "the command list read"
for c in $cmds; do
	if grep -q '^\.SH EXAMPLES' "$MANDIR/perfcorr-$c.1.in" 2>/dev/null; then
		ok
	else
		fail "perfcorr-$c(1) has no EXAMPLES (docs/man/perfcorr-$c.1.in)"
	fi
done

# examples: the lines between .SH EXAMPLES/.nf and .fi, continuations
# (a trailing \e) joined, roff escapes undone
examples() {
	awk '/^\.SH EXAMPLES/ {e = 1; next} e && /^\.nf/ {n = 1; next}
	     n && /^\.fi/ {exit} n {print}' "$MANDIR/perfcorr-$1.1.in" |
		sed 's/\\-/-/g' | sed -e ':a' -e '/\\e$/{N; s/\\e\n */ /; ba' -e '}'
}
if pc_db_is_server; then
	finish	# the examples name a SQLite file (db copy --from perfcorr.db)
	exit
fi
mkdir -p "$T/run" "$T/bin"
ln -s "$FIXTURES" "$T/run/fixtures"
# a script an example runs (bundle's commands.sh) finds perfcorr on PATH
ln -s "$PERFCORR" "$T/bin/perfcorr"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$T/run/perfcorr.db") \
	>/dev/null 2>&1 </dev/null || fail "demo.sh"
printf 'q\n' > "$T/q.keys"
for c in init formats sources runs workloads export roofline matrix trend \
	diff explain sensitivity annotate annotations report tui index db bundle; do
	n=0
	while IFS= read -r line; do
		case $line in *postgresql://*) continue ;; esac
		n=$((n + 1))
		(cd "$T/run" && unset PERFCORR_DB && PATH=$T/bin:$PATH &&
			PERFCORR_HEADLESS=1 PERFCORR_SCRIPT=$T/q.keys COLUMNS=80 LINES=24 \
			timeout 60 bash -c "perfcorr() { \"$PERFCORR\" \"\$@\"; }; $line" \
			>"$T/ex.out" 2>"$T/ex.err" </dev/null)
		rc=$?
		if [ "$rc" = 0 ]; then ok; else
			fail "perfcorr-$c(1) example exits $rc on the demo: $line: $(head -2 "$T/ex.err")"
		fi
	done < <(examples "$c")
	expect_eq "$([ "$n" -ge 1 ] && echo yes)" yes "perfcorr-$c(1): $n examples run"
done
finish
