#!/usr/bin/env bash
# A damaged pair-cache entry never crashes or hangs a review: every part
# is validated before use (meta's max_id, which the views loop to, the
# keys, names, permutations), and a damaged entry is paired again and
# replaced, with a message.
. "$TESTS/cli/lib.sh"
. "$TESTS/service/lib_service.sh"
csv_rows "$T/r.csv" 200 op
sed 's/\.5,us/.7,us/' "$T/r.csv" >"$T/m.csv"
pc import -q --source lab --kind silicon "$T/r.csv" || fail "import lab"
pc import -q --source sim --kind perfsim "$T/m.csv" || fail "import sim"
pc annotate --status investigating --model sim --ref lab --workload "m/decode/bs=1" \
	--op op0 --metric time >/dev/null || fail "annotate"
pc index -q || fail "index"
expect_eq "$(q 'SELECT count(*) FROM pair_cache')" 1 "one cache entry"

# patch LEN bytes of part NAME at OFFSET with the little-endian VALUE
patch() { # NAME OFFSET VALUE LEN
	python3 - "$PERFCORR_DB" "$@" <<'PY'
import sqlite3, sys, struct
db, name, off, val, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
c = sqlite3.connect(db)
(data,) = c.execute('SELECT data FROM pair_cache_parts WHERE name = ?', (name,)).fetchone()
data = bytearray(data)
data[off:off + n] = val.to_bytes(n, 'little', signed=True)
c.execute('UPDATE pair_cache_parts SET data = ? WHERE name = ?', (bytes(data), name))
c.commit()
PY
}
meta_max_op() { python3 - "$PERFCORR_DB" <<'PY'
import sqlite3, sys, struct
c = sqlite3.connect(sys.argv[1])
(data,) = c.execute("SELECT data FROM pair_cache_parts WHERE name = 'meta'").fetchone()
print(struct.unpack_from('<q', data, 40)[0])
PY
}
good=$(meta_max_op)
# 200 rows, 16 per op: ops op0..op12, so the largest op id is small
[ "$good" -ge 0 ] && [ "$good" -lt 100 ] && ok || fail "meta max_id[1] = $good"

# meta's max_id[1] (byte 40: n, three counts, then max_id[0..2]) huge:
# the TUI's discrepancy view loops to it, annotations size a table by it
patch meta 40 2147483000 8
run timeout 60 "$PERFCORR" index
expect_rc 0 "index on a damaged entry"
expect_in "pair cache: keys do not match the meta or names parts" "$err" "names the damage"
expect_in "paired again and replaced" "$err" "says it was rebuilt"
expect_eq "$(meta_max_op)" "$good" "the entry was replaced by a good one"

# a damaged permutation (perm.key: two entries the same)
patch perm.key 0 1 4
patch perm.key 4 1 4
run timeout 60 "$PERFCORR" compare --model sim --ref lab
expect_rc 0 "compare with a damaged permutation"
export USER=tester TERM=dumb LC_ALL=C
printf '1\n:save-screen %s/d.screen\nq\nq\n' "$T" >"$T/keys"
patch meta 40 2147483000 8
run env PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" COLUMNS=100 LINES=30 timeout 60 "$PERFCORR" tui --model sim --ref lab
expect_rc 0 "the TUI opens a damaged entry (no crash, no endless loop)"
expect_in "op0" "$(cat "$T/d.screen" 2>/dev/null)" "and shows the points"
expect_eq "$(meta_max_op)" "$good" "the TUI replaced the damaged entry"
finish
