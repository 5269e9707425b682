# perfcorr db copy (issue 22): a whole study (results, provenance,
# annotations with their accepted errors, gate evaluations, reviews)
# copied SQLite -> X -> SQLite comes back identical table by table, where
# X is the run's engine (PostgreSQL under ctest -L pg, else SQLite); a
# target that holds a study is refused and unchanged; a bad URI, a
# missing source and a source that breaks its schema are refused, naming
# the side, and leave no target behind.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"
MID=$PERFCORR_DB			# the run's engine
A="$T/a.db"				# SQLite: the study
C="$T/c.db"				# SQLite: the round trip's end
pa() { PERFCORR_DB="$A" pc "$@"; }

pa import -q --source h100 --kind silicon --version 2024 --clock-mhz 1755 \
	"$G/ref.csv" || fail "import ref"
pa import -q --source archsim --kind perfsim --version 2.0 "$G/model-2.0.csv" ||
	fail "import model"
# text COPY must escape: a tab, a newline, a backslash and \N in a note
NOTE=$(printf 'warm\tup\nnot modelled \\ see \\N')
pa annotate --workload llama3-8b/decode/bs=32 --op e2e --metric time \
	--status accepted --category abstraction-error --note "$NOTE" \
	--author alice --model archsim --ref h100 >/dev/null || fail "annotate"
cat >"$T/p.json" <<'JSON'
{"name": "w", "model": "archsim", "ref": "h100", "rules": [
  {"name": "e2e", "metric": "time", "op": "e2e", "max_mape": 0.10}]}
JSON
pa gate --policy "$T/p.json" >/dev/null || fail "gate"
pa report --model archsim --ref h100 --record --format md -o "$T/r.md" \
	2>/dev/null || fail "report --record"
for t in annotations annotation_errors gate_evals gate_rule_evals reviews \
	review_items results; do
	[ "$(sqlite3 "$A" "SELECT count(*) > 0 FROM $t")" = 1 ] ||
		fail "the study has no $t: the test proves nothing for it"
done

# SQLite -> the run's engine (a new database there)
if ! pc_db_is_server; then MID="$T/mid.db"; fi
run pc db copy --from "$A" --to "$MID"
expect_rc 0 "copy into $MID"
expect_in "copied '$A' into " "$err" "says what it copied"
sha=$(pa export results | sha256sum | cut -d' ' -f1)
expect_in "  from $sha
  to   $sha" "$out" "prints the sha256 of export results on both sides"
n=$(sqlite3 "$A" "SELECT count(*) FROM results")
expect_in "$(printf '%-20s %12s %12s' results "$n" "$n")" "$out" \
	"counts results on both sides"
# every table with user data is copied: the listing names every table
# of the schema but the pair cache (a table added by a migration and not
# copied fails here)
want=$(sqlite3 "$A" "SELECT name FROM sqlite_schema WHERE type = 'table'
	AND name NOT IN ('pair_cache', 'pair_cache_parts') ORDER BY name")
got=$(echo "$out" | awk 'NR > 1 && $2 ~ /^[0-9]+$/ { print $1 }' | sort)
expect_eq "$got" "$want" "the tables copied"

# ... -> SQLite again: identical, table by table (ids kept)
run pc db copy --from "$MID" --to "$C"
expect_rc 0 "copy back into $C"
for t in $want; do
	expect_eq "$(sqlite3 "$C" ".dump $t" | grep '^INSERT' | sha256sum)" \
		"$(sqlite3 "$A" ".dump $t" | grep '^INSERT' | sha256sum)" \
		"table $t after the round trip"
done
expect_eq "$(PERFCORR_DB="$C" pc export results | sha256sum)" \
	"$(pa export results | sha256sum)" "export results after the round trip"
expect_eq "$(PERFCORR_DB="$C" pc annotations --format json)" \
	"$(pa annotations --format json)" "annotations after the round trip"
expect_eq "$(sqlite3 "$C" "SELECT note FROM annotations")" "$NOTE" \
	"a note with tab, newline and backslashes"
# new rows get new ids after the copied ones (PostgreSQL's sequences)
PERFCORR_DB="$MID" pc annotate --workload llama3-8b/decode/bs=32 --op e2e \
	--metric time --status fixed --author bob >/dev/null ||
	fail "annotate after the copy"
expect_eq "$(PERFCORR_DB="$MID" pc annotations --format json |
	python3 -c 'import json,sys; print(sorted(a["id"] for a in json.load(sys.stdin)))')" \
	"[1, 2]" "the next annotation id follows the copied ones"

# a target that holds a study: refused, unchanged
before=$(PERFCORR_DB="$C" db_digest)
run pc db copy --from "$A" --to "$C"
expect_rc 1 "a target with a study"
expect_in "--to '$C' holds a study already (table sources: 2 rows)" "$err" \
	"names the target and what it holds"
expect_in "give --replace" "$err" "says the cure"
expect_eq "$(PERFCORR_DB="$C" db_digest)" "$before" "target unchanged"
# --replace: emptied and copied in one transaction
run pc db copy --from "$MID" --to "$C" --replace
expect_rc 0 "--replace"
expect_eq "$(sqlite3 "$C" "SELECT count(*) FROM annotations")" 2 \
	"--replace: the target is the source"

# bad sides: named, nothing left behind
run pc db copy --from "$A" --to "postgresql:///nosuch?host=$T/nosock&user=x"
expect_rc 1 "unreachable server"
expect_in "perfcorr db copy: --to: cannot connect to 'postgresql:///nosuch" \
	"$err" "names --to and the address"
run pc db copy --from "$T/missing.db" --to "$T/new.db"
expect_rc 1 "missing source"
expect_in "--from: database '$T/missing.db' does not exist" "$err" \
	"names --from"
[ -e "$T/new.db" ] && fail "a failed copy left $T/new.db"
# a source that breaks its schema (text in an integer column): refused,
# never truncated, and the new target is removed
cp "$A" "$T/bad.db"
sqlite3 "$T/bad.db" "UPDATE results SET n = 'many' WHERE rowid IN
	(SELECT rowid FROM results LIMIT 1)" 2>/dev/null ||
	sqlite3 "$T/bad.db" "UPDATE results SET n = 'many' WHERE run_id = 1
	AND workload_id = (SELECT min(workload_id) FROM results)"
run pc db copy --from "$T/bad.db" --to "$T/new.db"
expect_rc 1 "a source breaking its schema"
expect_in "table results, column 6: 'many' is not an integer" "$err" \
	"names the table and value"
[ -e "$T/new.db" ] && fail "a failed copy left $T/new.db"
# a failed copy with --replace leaves the target as it was: its deletes
# roll back with the rows
before=$(PERFCORR_DB="$MID" db_digest)
run pc db copy --from "$T/bad.db" --to "$MID" --replace
expect_rc 1 "--replace from a bad source"
expect_eq "$(PERFCORR_DB="$MID" db_digest)" "$before" "--replace: rolled back"
if pc_db_is_server; then
	# PostgreSQL refuses a byte that is not UTF-8 (SQLite stores it): the
	# COPY fails, named with its table, and nothing is left
	cp "$A" "$T/utf.db"
	sqlite3 "$T/utf.db" "UPDATE ops SET name = name || CAST(X'FF' AS TEXT)
		WHERE id = 1"
	run pc db copy --from "$T/utf.db" --to "$MID" --replace
	expect_rc 1 "invalid UTF-8 into PostgreSQL"
	expect_in "table ops: writing the target: " "$err" "names the table"
	expect_in "invalid byte sequence" "$err" "PostgreSQL's reason"
	expect_eq "$(PERFCORR_DB="$MID" db_digest)" "$before" \
		"a failed COPY: rolled back"
fi
# usage
run pc db copy --from "$A"
expect_rc 2 "no --to"
run pc db copy --from "$A" --to "$A"
expect_rc 2 "the same database"
run pc db frob --from "$A" --to "$C"
expect_rc 2 "unknown subcommand"
run pc db --help
expect_rc 0 "--help"
expect_in "copy --from DB --to DB [--replace]" "$out" "--help usage"
finish
