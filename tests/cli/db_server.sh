# --db / PERFCORR_DB naming a PostgreSQL server (issue 22): a server that
# cannot be reached is refused with libpq's cause and the address, and
# nothing is created in its place (SQLite would otherwise take
# "postgresql://h/db" as a relative file path).
. "$(dirname "$0")/../cli/lib.sh"
cd "$T"

for url in "postgresql://ci@db.invalid:5432/perf" \
	"postgresql:///perf?host=$T/sock"; do
	run pc --db "$url" sources
	expect_rc 1 "sources on $url"
	expect_in "cannot connect to '$url'" "$err" "$url: the address"
	expect_eq "$out" "" "$url: no data on stdout"
done
run pc --db "postgresql:///perf?host=$T/sock" sources
expect_in "$T/sock/.s.PGSQL.5432" "$err" "libpq's cause names the socket"

PERFCORR_DB="postgres://ci@db.invalid/perf" run pc import --source s \
	--kind silicon "$FIXTURES/tui/silicon.csv"
expect_rc 1 "import through PERFCORR_DB"
expect_in "cannot connect to 'postgres://ci@db.invalid/perf'" "$err" \
	"PERFCORR_DB: the address"
expect_eq "$(find "$T" -mindepth 1 -name 'postgres*' | wc -l)" "0" \
	"no file or directory made for the URL"

# a password in the URI never reaches a message
run pc --db "postgresql://ci:s3cret@db.invalid/perf" sources
expect_in "cannot connect to 'postgresql://ci:***@db.invalid/perf'" "$err" \
	"password hidden"
expect_not_in "s3cret" "$err" "password not shown"

# a file whose name merely contains the word is a SQLite file as before
run pc --db "$T/postgresql.db" init
expect_rc 0 "a file named postgresql.db"
[ -s "$T/postgresql.db" ] && ok || fail "postgresql.db not created"
finish
