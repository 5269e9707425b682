#!/usr/bin/env bash
# The PostgreSQL privilege model of docs/server.md "Roles" (issue 36 items
# 3 and 4): the role block is taken from that file and run on a throwaway
# cluster, then each right is tried as each role, through perfcorr and
# through psql. A reviewer cannot write the pair cache (a cached value
# changed to 500 ms would show to every reader) and cannot choose
# annotation or review ids (the largest bigint would pin a key's state;
# the sequence's next ids would break the writer's annotate). Skipped (77)
# without PostgreSQL.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
pg_cluster_start || { fail "the cluster did not start"; finish; }
trap 'pg_cluster_stop; rm -rf "$T"' EXIT
url() { echo "postgresql:///perfcorr?host=$PC_PG_DIR&user=$1"; }
W=$(url perfcorr_writer) R=$(url perfcorr_reviewer) O=$(url perfcorr_readonly)
as() { # ROLE SQL: psql as ROLE; prints rows, or the error on stderr
	"$PC_PG_BIN/psql" -X -A -t -q -v ON_ERROR_STOP=1 "$(url "$1")" -c "$2"
}
refused() { # ROLE SQL DESCRIPTION
	local e
	if e=$(as "$1" "$2" 2>&1); then
		fail "$3: allowed: $e"
	else
		expect_in "permission denied" "$e" "$3"
	fi
}

pc --db "$PC_PG_URL" init >/dev/null || fail "init"
# the block of docs/server.md "## Roles", minus the owner's own lines
# (the cluster's superuser stands in for perfcorr_owner here)
sed -n '/^## Roles/,/^## /p' "$TESTS/../docs/server.md" |
	sed -n '/^```sql/,/^```/p' | sed '1d;/^```/,$d' |
	grep -v 'perfcorr_owner' >"$T/roles.sql"
expect_in "perfcorr_reviewer" "$(cat "$T/roles.sql")" "the role block was found"
pg_psql -f "$T/roles.sql" >/dev/null || fail "the role block of docs/server.md does not run"

printf 'workload,op,metric,value,unit\nw1,gemm,time,1.0,ms\nw2,gemm,time,2.0,ms\nw3,conv,time,3.0,ms\n' >"$T/hw.csv"
printf 'workload,op,metric,value,unit\nw1,gemm,time,1.1,ms\nw2,gemm,time,2.2,ms\nw3,conv,time,2.9,ms\n' >"$T/sim.csv"
pc --db "$W" import -q --source hw --kind silicon --version 1 "$T/hw.csv" || fail "writer: import"
pc --db "$W" import -q --source sim --kind perfsim --version 2 "$T/sim.csv" || fail "writer: import sim"

# --- the pair cache: the writer fills it, nobody else writes it ----------
run pc --db "$R" index
expect_rc 0 "reviewer: perfcorr index pairs"
expect_in "not cached" "$err" "reviewer: index says it could not cache"
expect_eq "$(as perfcorr_writer "SELECT count(*) FROM pair_cache")" 0 "nothing cached by the reviewer"
run pc --db "$W" index
expect_rc 0 "writer: perfcorr index"
expect_eq "$(as perfcorr_writer "SELECT count(*) FROM pair_cache")" 1 "the writer's entry"
before=$(as perfcorr_writer "SELECT md5(string_agg(encode(data, 'hex'), '' ORDER BY id)) FROM pair_cache_parts")
for role in perfcorr_reviewer perfcorr_readonly; do
	refused $role "UPDATE pair_cache_parts SET data = data || '\\x00'::bytea" "$role: UPDATE pair_cache_parts"
	refused $role "INSERT INTO pair_cache (key, label, created_at) VALUES ('k', 'forged', 'now')" "$role: INSERT pair_cache"
	refused $role "DELETE FROM pair_cache" "$role: DELETE pair_cache"
	refused $role "INSERT INTO pair_cache_parts (cache_id, name, data) SELECT id, 'x', '\\x00'::bytea FROM pair_cache" "$role: INSERT pair_cache_parts"
done
expect_eq "$(as perfcorr_writer "SELECT md5(string_agg(encode(data, 'hex'), '' ORDER BY id)) FROM pair_cache_parts")" \
	"$before" "the cached parts are unchanged"
run pc --db "$R" compare --model sim --ref hw
expect_rc 0 "reviewer: compare reads"
run pc --db "$W" compare --model sim --ref hw
wout=$out
run pc --db "$O" compare --model sim --ref hw
expect_eq "$out" "$wout" "readonly: the same compare as the writer"

# --- annotation and review ids come from the sequences only ---------------
ann="INSERT INTO annotations (%s workload, op, status, category, author, created_at) VALUES (%s 'w1', 'gemm', 'open', 'unknown', 'eve', 'now')"
run pc --db "$R" annotate --workload w1 --op gemm --status open --category unknown --note first --author rev
expect_rc 0 "reviewer: perfcorr annotate"
next=$(as perfcorr_writer "SELECT max(id) + 1 FROM annotations")
# shellcheck disable=SC2059
refused perfcorr_reviewer "$(printf "$ann" "id," "9223372036854775807,")" "reviewer: an annotation with the largest id"
# shellcheck disable=SC2059
refused perfcorr_reviewer "$(printf "$ann" "id," "$next,")" "reviewer: an annotation with the next id"
# shellcheck disable=SC2059
refused perfcorr_reviewer "$(printf "$ann" "id," "$((next + 1)),")" "reviewer: an annotation with a later id"
# shellcheck disable=SC2059
refused perfcorr_reviewer "$(printf "$ann" "" "") ; UPDATE annotations SET id = 9223372036854775807" "reviewer: UPDATE annotations"
refused perfcorr_reviewer "INSERT INTO reviews (id, created_at, model_source, model_version, ref_source, ref_version, runs) VALUES (9223372036854775807, 'now', 'sim', '2', 'hw', '1', '')" "reviewer: a review with a chosen id"
# shellcheck disable=SC2059
as perfcorr_reviewer "$(printf "$ann" "" "")" || fail "reviewer: an annotation without an id"
# shellcheck disable=SC2059
refused perfcorr_readonly "$(printf "$ann" "" "")" "readonly: an annotation"
expect_eq "$(as perfcorr_writer "SELECT count(*) FROM annotations WHERE id >= 1000000")" 0 "no chosen id stored"
run pc --db "$W" annotate --workload w1 --op gemm --status explained --category unknown --note second --author wri
expect_rc 0 "writer: perfcorr annotate after the reviewer's attempts"
run pc --db "$R" annotate --workload w2 --op gemm --status open --category unknown --note third --author rev
expect_rc 0 "reviewer: annotate again"
expect_eq "$(as perfcorr_writer "SELECT status FROM annotations WHERE workload = 'w1' AND op = 'gemm' ORDER BY id DESC LIMIT 1")" \
	explained "the newest annotation is the writer's"
finish
