#!/usr/bin/env bash
# The man pages and --help come from the same tables: every option of
# every command (as --help prints it: short name, long name, value name,
# help text) is in that command's page, the synopsis is the usage, there
# is one page per command and no other, perfcorr(1) lists every command.
# The check is shown to catch a page with one option missing.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../pkg/lib_pkg.sh"

if ! command -v man >/dev/null; then
	echo "man not installed (scripts/bootstrap.sh installs man-db); skipped" >&2
	exit 77
fi
MAN=$BUILD/man
norm() { tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }
render() { MANWIDTH=1000 man -l "$1" 2>/dev/null | sed 's/^ *//' | norm; }

# check_page CMD TEXT: prints one line per option of `CMD --help` missing
# from TEXT (a rendered page).
check_page() {
	local cmd=$1 text=$2 line left help
	"$PERFCORR" "$cmd" --help | sed -n '/^options:/,$p' | sed 1d |
	while IFS= read -r line; do
		# "  -m, --model SRC[@V]          model side ..."
		left=$(grep -oE '^ +(-., )?--[a-z0-9-]+( [^ ]+)?' <<<"$line" | sed 's/^ *//')
		help=$(norm <<<"${line#*"$left"}")
		help=${help% (repeatable)}
		case $text in
		*"$left "*) ;;
		*) echo "$cmd: '$left' not in its page"; continue ;;
		esac
		case $left in "-h, --help") continue ;; esac
		case $text in
		*"$help"*) ;;
		*) echo "$cmd: help of '$left' not in its page: $help" ;;
		esac
	done
}

cmds=$(commands)
[ "$(wc -w <<<"$cmds")" -ge 19 ] && ok || fail "too few commands parsed: $cmds"
for c in $cmds; do
	page=$MAN/man1/perfcorr-$c.1
	if [ ! -f "$page" ]; then fail "no page for '$c'"; continue; fi
	text=$(render "$page")
	expect_not_in "Not documented" "$text" "$c has an option table (parses with cli_parse)"
	missing=$(check_page "$c" "$text")
	[ -z "$missing" ] && ok || fail "$missing"
	# SYNOPSIS = the usage line of --help
	usage=$("$PERFCORR" "$c" --help | sed -n '1s/^usage: //p' | norm)
	expect_in "$usage" "$text" "$c: synopsis is the usage"
	expect_in "PERFCORR-$(tr a-z A-Z <<<"$c")(1)" "$text" "$c: page title"
done
# A template for no command (a renamed command) is stale.
for tpl in "$SRC"/docs/man/perfcorr-*.1.in; do
	c=${tpl##*/perfcorr-}; c=${c%.1.in}
	grep -qx "$c" <<<"$cmds" && ok || fail "$tpl: no command '$c'"
done
# No page without a command (a renamed command leaves none behind).
for page in "$MAN"/man1/perfcorr-*.1; do
	c=${page##*/perfcorr-}; c=${c%.1}
	grep -qx "$c" <<<"$cmds" && ok || fail "page $page for no command"
done
# perfcorr(1) lists every command and the global options.
top=$(render "$MAN/man1/perfcorr.1")
for c in $cmds; do expect_in "perfcorr-$c(1)" "$top" "perfcorr(1) lists $c"; done
for o in "--db PATH" "--version" "-h, --help"; do expect_in "$o" "$top" "perfcorr(1): $o"; done
for s in policy manifest; do
	[ -f "$MAN/man5/perfcorr-$s.5" ] && ok || fail "no perfcorr-$s(5)"
done

# The check fails on a page that lost an option (here compare's --pool).
sed '/^\\fB\\-\\-pool\\fR$/,+1d' "$MAN/man1/perfcorr-compare.1" >"$T/cut.1"
missing=$(check_page compare "$(render "$T/cut.1")")
expect_in "'--pool' not in its page" "$missing" "the agreement check catches a missing option"

# `perfcorr help CMD` opens the build tree's page, or prints --help.
run env MANWIDTH=80 "$PERFCORR" help trend
expect_rc 0 "help trend"
expect_in "PERFCORR-TREND(1)" "$out" "help opens the page from the build tree"
mkdir -p "$T/noman"
run env PATH="$T/noman" "$PERFCORR" help trend
expect_eq "$out" "$("$PERFCORR" trend --help)" "help without man is --help"
finish
