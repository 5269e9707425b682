#!/usr/bin/env bash
# Bad input: clear error naming file, line and field; exit 1; the
# database exactly as it was (one transaction per file).
. "$(dirname "$0")/lib.sh"
N=$FIXTURES/native

pc import -q --source lab --kind silicon "$N/ok.csv" || fail "seed import"
before=$(db_digest)

bad() { # file expected-exit expected-message
	run pc import --source lab "$N/$1"
	expect_rc "$2" "$1 exit"
	expect_in "$3" "$err" "$1 message"
	expect_eq "$(db_digest)" "$before" "$1 leaves the database unchanged"
}
bad bad_number.csv 1 "bad_number.csv:3: column 'value': 'abc' is not a number"
bad bad_inf.csv 1 "bad_inf.csv:3: column 'value': 'inf' is not a number"
bad bad_negative.csv 1 "bad_negative.csv:2: negative time"
bad bad_unit.csv 1 "bad_unit.csv:2: unknown unit 'furlongs'"
bad bad_header_only.csv 1 "bad_header_only.csv: no results in the file"
bad bad_empty.csv 1 "bad_empty.csv: empty file"
bad bad_missing_col.csv 1 "bad_missing_col.csv:1: missing column 'value'"
bad bad_duplicate.csv 1 "bad_duplicate.csv:3: duplicate result for workload 'w', op 'o', metric 'time'"
bad bad_quote.csv 1 "bad_quote.csv:3: unterminated quoted field"
bad bad_ragged.csv 1 "bad_ragged.csv:3: expected 5 fields, found 4"
bad bad_time_in_cycles.csv 1 "unit 'cycles' is cycles, but metric 'time' is time (use metric 'cycles')"
bad bad_unknown_col.csv 1 "bad_unknown_col.csv:1: unknown column 'stdev'"
bad bad_type.json 1 "bad_type.json: results[0]: 'value' is not a number"
bad bad_truncated.json 1 "bad_truncated.json:2:"
run pc import --source lab "$N/does-not-exist.csv"
expect_rc 1 "missing file"
expect_in "cannot open" "$err" "missing file message"
expect_eq "$(db_digest)" "$before" "missing file leaves db unchanged"

# usage errors exit 2
run pc import "$N/ok.csv"
expect_rc 2 "no --source"
run pc import --source lab --format nosuch "$N/ok.csv"
expect_rc 2 "unknown format"
run pc import --source lab --bogus "$N/ok.csv"
expect_rc 2 "unknown option"
run pc frobnicate
expect_rc 2 "unknown command"

# every command answers --help with exit 0
for c in $("$PERFCORR" --help | awk '/^commands:/{f=1;next} f&&!NF{exit} f{print $1}'); do
	run pc "$c" --help
	expect_rc 0 "$c --help"
	expect_in "usage: perfcorr" "$out" "$c --help text"
done

# a file that is not a database; a database from a newer perfcorr
echo "not a database" > "$T/junk.db"
run pc --db "$T/junk.db" sources
expect_rc 1 "junk database"
expect_in "not a perfcorr database" "$err" "junk message"
cp "$PERFCORR_DB" "$T/newer.db"
sqlite3 "$T/newer.db" "PRAGMA user_version = 99"
sum=$(sha256sum < "$T/newer.db")
run pc --db "$T/newer.db" import --source lab "$N/ok.json"
expect_rc 1 "newer schema"
expect_in "written by a newer perfcorr" "$err" "newer schema message"
expect_eq "$(sha256sum < "$T/newer.db")" "$sum" "newer database untouched"

# read-only database file: clear error, nothing changed
cp "$PERFCORR_DB" "$T/ro.db"
chmod 0444 "$T/ro.db"
if [ "$(id -u)" -ne 0 ]; then
	run pc --db "$T/ro.db" import --source lab "$N/ok.json"
	expect_rc 1 "read-only db"
	expect_in "read-only" "$err" "read-only message"
fi
# missing database for a read command
run pc --db "$T/nope/x.db" sources
expect_rc 1 "missing db"
expect_in "does not exist" "$err" "missing db message"

finish
