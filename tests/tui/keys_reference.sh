# Issue 35 item 10: `perfcorr tui --help` and the man page list every view
# and every key, generated from the view table (tui/views.h) and the key
# table (tui/keys.c), as the ? view shows them; the man page has a KEYS
# section. Checked against the tables' source text, read here with sed.
. "$(dirname "$0")/../tui/libtui.sh"
SRC="$TESTS/.."
run pc tui --help
expect_rc 0 "tui --help"
help=$out
keys=$(printf '%s\n' "$help" | sed -n '/^KEYS$/,$p')
[ -n "$keys" ] && ok || fail "--help has a KEYS section"
mkdir -p "$T/man"
"$PERFCORR" __man "$T/man" "$SRC/docs/man" 2026-01-01 2>/dev/null ||
	fail "perfcorr __man"
page=$(cat "$T/man/man1/perfcorr-tui.1")
expect_in ".SH KEYS" "$page" "the man page's KEYS section"
man=$(printf '%s\n' "$page" | sed -n '/^\.SH KEYS$/,/^\.SH /p' | sed 's/\\-/-/g; s/\\&//g')
# every action name of tui/actions.h
acts=$(grep -v '^ \*' "$SRC/tui/actions.h" |
	sed -n 's/.*ACT([A-Z_]*, "\([a-z-]*\)".*/\1/p')
[ "$(printf '%s\n' "$acts" | wc -l)" -ge 30 ] && ok || fail "actions read"
for a in $acts; do
	expect_in " $a " "$keys" "--help lists $a"
	expect_in " $a " "$man" "the man page lists $a"
done
# every view, by its title (one file per view, its ops table)
for f in "$SRC"/tui/view_*.c; do
	t=$(sed -n 's/^\t\.title = "\(.*\)",$/\1/p' "$f")
	[ -n "$t" ] || continue
	expect_in " $t " "$keys" "--help lists the view $t"
	expect_in " $t " "$man" "the man page lists the view $t"
done
# the bindings: the keys of a few actions, as keys.c binds them
expect_in "  E              export" "$keys" "E exports"
expect_in "  U              undo-annotation" "$keys" "U undoes"
expect_in "  h, Left        column-left" "$keys" "h and Left"
expect_in "  6              Verdicts" "$keys" "6: the verdicts view"
expect_in "  Enter          Regressions" "$keys" "Regressions opens with Enter"
# the same rows as the ? view (one generator)
build_db
tui_script 120 200 <<KEYS
?
:save-screen $T/help.screen
KEYS
for row in "  E              export" "  6              Verdicts" \
	"  h, Left        column-left"; do
	expect_in "$row" "$(cat "$T/help.screen")" "? shows '$row'"
done
finish
