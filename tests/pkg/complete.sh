#!/usr/bin/env bash
# Shell completion: dist/completion/perfcorr.bash driven the way bash
# drives it (COMP_LINE/COMP_POINT/COMP_WORDS, then COMPREPLY), with the
# expected values taken independently (sqlite3 on the database, `perfcorr
# formats`, the --help listing). zsh's and fish's wrappers too where
# those shells are installed.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../pkg/lib_pkg.sh"

mkdir -p "$T/bin"
ln -s "$PERFCORR" "$T/bin/perfcorr"
export PATH="$T/bin:$PATH"
. "$SRC/dist/completion/perfcorr.bash"
expect_eq "$(complete -p perfcorr)" "complete -F _perfcorr perfcorr" "complete -p"

# comp LINE: what the word at the end of LINE can become on Tab, one per
# line, sorted. Readline replaces only the text after the last
# COMP_WORDBREAKS character (bash's default has @ = :), so that part of
# the word is put back in front of each reply.
comp() {
	local IFS=$' \t\n' word keep
	COMP_LINE=$1
	COMP_POINT=${#1}
	read -r -a COMP_WORDS <<<"$(sed 's/\([@=:]\)/ \1 /g' <<<"$1")"
	[[ $1 =~ [[:space:]@=:]$ ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_perfcorr perfcorr "${COMP_WORDS[COMP_CWORD]}" 2>/dev/null
	word=${1##*[[:space:]]}
	keep=${word%"${word##*[@=:]}"}
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sed "s|^|$keep|" | LC_ALL=C sort
}
lines() { printf '%s\n' "$@" | LC_ALL=C sort; }

expect_eq "$(comp 'perfcorr com')" "compare" "perfcorr com<Tab>"
expect_eq "$(comp 'perfcorr ')" "$( (commands; echo help) | LC_ALL=C sort)" "perfcorr <Tab>: every command"
expect_eq "$(comp 'perfcorr help ann')" "$(lines annotate annotations)" "help ann<Tab>"
expect_eq "$(comp 'perfcorr help p')" "$(lines policy)" "help p<Tab>: the section-5 page"
expect_eq "$(comp 'perfcorr --v')" "--version" "global option"
expect_eq "$(comp 'perfcorr compare --gr')" "--group-by" "compare --gr<Tab>"
# every long option of --help, and --help itself
want=$("$PERFCORR" gate --help | grep -oE '^ +(-., )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | LC_ALL=C sort)
expect_eq "$(comp 'perfcorr gate --')" "$want" "gate --<Tab>: the options of --help"
expect_eq "$(comp 'perfcorr compare --model x --mo')" "--model-platform" "an option given once is not offered again (--model-platform is another)"

# Values perfcorr knows without a database.
expect_eq "$(comp 'perfcorr import --format ')" \
	"$( ("$PERFCORR" formats | awk '{print $1}'; echo auto) | LC_ALL=C sort)" \
	"import --format: the importer registry"
expect_eq "$(comp 'perfcorr import --format vllm')" "$(lines vllm vllm-stdout)" "import --format vllm<Tab>"
expect_eq "$(comp 'perfcorr annotate --status ')" \
	"$(lines open investigating explained accepted fixed wontfix)" "annotate --status"
expect_eq "$(comp 'perfcorr annotate --category m')" \
	"$(lines modeling-error measurement-issue)" "annotate --category m"
expect_eq "$(comp 'perfcorr compare --format ')" "$(lines table csv json)" "compare --format"
expect_eq "$(comp 'perfcorr gate -f ')" "$(lines text json)" "gate -f"
expect_eq "$(comp 'perfcorr report --format=')" "$(lines --format=md --format=html --format=csv --format=json)" "report --format="
# the kinds the database accepts (its CHECK constraint)
pc --db "$T/kinds.db" init >/dev/null 2>&1
kinds=$(sqlite3 "$T/kinds.db" "SELECT sql FROM sqlite_master WHERE name = 'sources'" |
	grep -o "kind IN ([^)]*)" | grep -o "'[a-z]*'" | tr -d "'")
[ "$(wc -w <<<"$kinds")" -ge 4 ] && ok || fail "kinds not found in the schema: $kinds"
expect_eq "$(comp 'perfcorr import --kind ')" "$(lines $kinds)" "import --kind"
expect_eq "$(comp 'perfcorr export ')" "results" "export <Tab>"
expect_eq "$(comp 'perfcorr export results ')" "" "export takes one word"

# Paths: files for FILE, directories for DIR.
mkdir -p "$T/w/subdir" && touch "$T/w/policy.json" "$T/w/pol.txt"
cd "$T/w"
expect_eq "$(comp 'perfcorr gate --policy po')" "$(lines policy.json pol.txt)" "gate --policy: files"
expect_eq "$(comp 'perfcorr watch ')" "subdir" "watch DIR: directories only"
expect_eq "$(comp 'perfcorr import --source x ')" "$(lines policy.json pol.txt subdir)" "import FILE...: files"
expect_eq "$(comp 'perfcorr --db p')" "$(lines policy.json pol.txt)" "--db: files"

# No database: nothing from it, and nothing created.
export PERFCORR_DB=$T/none.db
expect_eq "$(comp 'perfcorr compare --model ')" "" "no database: no sources"
[ ! -e "$T/none.db" ] && ok || fail "completion created the database"

# A database: sources, SRC@VERSION, metrics, workloads, parameters.
export PERFCORR_DB=$T/c.db
D=$FIXTURES/demo
for v in 2.3.0 2.4.0; do
	pc import -q --source archsim --kind perfsim --version $v "$D/archsim-$v.csv" || fail "import $v"
done
pc import -q --source t100-rtl --kind rtl --version rtl-0.9 --clock-mhz 1755 "$D/t100-rtl.csv" || fail "import rtl"
q() { pcsql "$1" | LC_ALL=C sort; }
# (the expectations below are not empty)
expect_eq "$(q 'SELECT count(*) FROM sources') $(q "SELECT count(*) > 2 FROM workloads WHERE key LIKE 'llama3-8b/decode/bs=%'")" \
	"2 1" "the test database has two sources and several decode workloads"
expect_eq "$(comp 'perfcorr compare --model ')" "$(q 'SELECT name FROM sources')" \
	"compare --model <Tab>: the database's sources"
expect_eq "$(comp 'perfcorr compare --model archsim@')" \
	"$(q "SELECT DISTINCT 'archsim@' || version FROM runs JOIN sources s ON s.id = source_id WHERE s.name = 'archsim'")" \
	"compare --model archsim@<Tab>: its versions"
expect_eq "$(comp 'perfcorr diff --model archsim@2.3.0..2.4')" "archsim@2.3.0..2.4.0" "diff version range"
# one source left: its versions too, so the shell stops after the name
expect_eq "$(comp 'perfcorr trend -r t1')" "$(lines t100-rtl t100-rtl@rtl-0.9)" "trend -r"
expect_eq "$(comp 'perfcorr trend -m ar')" "archsim" "trend --model takes no @V"
expect_eq "$(comp 'perfcorr compare --metric ')" "$(q 'SELECT name FROM metrics')" "compare --metric"
expect_eq "$(comp 'perfcorr annotate --op ')" "$(q 'SELECT name FROM ops')" "annotate --op"
# A workload key holds '=' (a word break): the keys come back whole.
expect_eq "$(comp 'perfcorr compare --workload llama3-8b/decode/bs=')" \
	"$(q "SELECT key FROM workloads WHERE key LIKE 'llama3-8b/decode/bs=%'")" \
	"compare --workload with '=' in the key"
expect_eq "$(comp 'perfcorr compare --where param.b')" "param.bs=" "--where: parameter names"
expect_eq "$(comp 'perfcorr compare --where param.bs=')" \
	"$(q "SELECT DISTINCT 'param.bs=' || value FROM workload_params WHERE name = 'bs'")" \
	"--where param.bs=: its values"
# --db on the command line wins over $PERFCORR_DB.
expect_eq "$(comp "perfcorr --db $T/none.db compare --model ")" "" "--db is honoured"

# zsh: the same engine through _perfcorr's compadd.
if command -v zsh >/dev/null; then
	got=$(zsh -f -c '
		compadd() { shift $(( ${@[(i)--]} )); print -l -- "$@"; }
		_files() { print -- _files; }
		source "$1"
		words=(perfcorr com); CURRENT=2; _perfcorr
		words=(perfcorr compare --model ""); CURRENT=4; _perfcorr
		words=(perfcorr gate --policy ""); CURRENT=4; _perfcorr' zsh "$SRC/dist/completion/_perfcorr")
	expect_eq "$got" "$(echo compare; q 'SELECT name FROM sources'; echo _files)" "zsh completion"
else
	echo "zsh not installed: zsh completion not exercised" >&2
fi

# fish: its own `complete -C` runs the script on a command line.
if command -v fish >/dev/null; then
	fcomp() {
		fish --no-config -c 'source $argv[1]; complete -C$argv[2]' \
			"$SRC/dist/completion/perfcorr.fish" "$1" | sed 's/\t.*//' | LC_ALL=C sort
	}
	expect_eq "$(fcomp 'perfcorr com')" "compare" "fish: perfcorr com<Tab>"
	expect_eq "$(fcomp 'perfcorr compare --model ')" "$(q 'SELECT name FROM sources')" "fish: compare --model <Tab>"
	expect_eq "$(fcomp 'perfcorr compare --model archsim@')" \
		"$(q "SELECT DISTINCT 'archsim@' || version FROM runs JOIN sources s ON s.id = source_id WHERE s.name = 'archsim'")" \
		"fish: versions"
	expect_eq "$(fcomp 'perfcorr gate --policy po')" "$(lines policy.json pol.txt)" "fish: files"
else
	echo "fish not installed: fish completion not exercised" >&2
fi
finish
