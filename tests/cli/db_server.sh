# --db / PERFCORR_DB naming a PostgreSQL server (issue 22): until the
# PostgreSQL engine is finished, every command refuses the connection
# string with the cause, and nothing is created in its place (SQLite
# would otherwise take "postgresql://h/db" as a relative file path).
. "$(dirname "$0")/../cli/lib.sh"
cd "$T"

for url in "postgresql://ci@db.example:5432/perf" "postgres:///perf" \
	"postgresql:///perf?host=$T/sock"; do
	run pc --db "$url" sources
	expect_rc 1 "sources on $url"
	expect_in "names a PostgreSQL server" "$err" "$url: cause"
	expect_in "SQLite files only" "$err" "$url: what works"
	expect_eq "$out" "" "$url: no data on stdout"
done

PERFCORR_DB="postgres://ci@db.example/perf" run pc import --source s \
	--kind silicon "$FIXTURES/tui/silicon.csv"
expect_rc 1 "import through PERFCORR_DB"
expect_in "'postgres://ci@db.example/perf' names a PostgreSQL server" "$err" \
	"PERFCORR_DB: cause"
expect_eq "$(find "$T" -mindepth 1 -name 'postgres*' | wc -l)" "0" \
	"no file or directory made for the URL"

# a file whose name merely contains the word is a SQLite file as before
run pc --db "$T/postgresql.db" init
expect_rc 0 "a file named postgresql.db"
[ -s "$T/postgresql.db" ] && ok || fail "postgresql.db not created"
finish
