#!/usr/bin/env bash
# perfcorr db copy killed midway (issue 36 item 7): a new SQLite target is
# written under a temporary name (TO.copying-PID) and renamed once the
# copy is committed, so a kill -9 leaves no TO: the old code left an
# empty or partial TO, and a re-run then "worked" without --replace.
. "$(dirname "$0")/lib.sh"
A=$T/a.db B=$T/b.db
python3 - "$T/big.csv" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('workload,op,metric,value,unit\n')
    for i in range(200000):
        f.write('w%d,op%d,time,%d.5,us\n' % (i % 500, i // 500, i + 1))
PY
PERFCORR_DB=$A pc import -q --source hw --kind silicon "$T/big.csv" || fail "import"
"$PERFCORR" db copy --from "$A" --to "$B" >/dev/null 2>"$T/e1" &
P=$!
n=0
until ls "$B"* >/dev/null 2>&1 || [ $n -gt 3000 ]; do sleep 0.01; n=$((n + 1)); done
kill -9 $P 2>/dev/null
wait $P 2>/dev/null
[ ! -e "$B" ] && ok || fail "a killed copy left '$B' ($(ls -l "$T" | grep b.db))"
run pc db copy --from "$A" --to "$B"
expect_rc 0 "a re-run copies"
expect_eq "$(sqlite3 "$B" "SELECT count(*) FROM results")" 200000 "every result"
[ -z "$(ls "$T" | grep 'b\.db\.copying-' | grep -v "copying-$P")" ] && ok ||
	fail "the re-run left its temporary: $(ls "$T")"
# a finished copy leaves no temporary, and a second copy is refused
run pc db copy --from "$A" --to "$B"
expect_rc 1 "the target holds a study"
finish
