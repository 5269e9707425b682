# Headless: open the detail, annotate (saved in its own transaction),
# cancel with Esc (nothing written), validation, bulk annotation.
. "$(dirname "$0")/../tui/libtui.sh"
build_db
count() { pcsql "SELECT count(*) FROM annotations"; }

# the worst GEMM discrepancy: filter, open its detail
tui_script 100 40 <<KEYS
fop~gemm<Enter>
<Enter>
:save-screen $T/detail.screen
q
:save-screen $T/back.screen
KEYS
expect_rc 0 "detail"
expect_screen "$T/detail.screen" detail_100x40.screen
expect_in "filter 'op~gemm'" "$(screen_line "$T/back.screen" 2)" \
	"q returns to the filtered list"

# annotate the row under the cursor; the form starts on its first field
# (status); 'm' is ambiguous among categories (modeling-error,
# measurement-issue): Right moves from unknown to modeling-error
tui_script 100 30 <<KEYS
j
a
<Tab><Tab>model ignores the causal mask
<Enter>second line
<Tab>https://jira/PERF-1
<S-Tab><S-Tab><Right>
<S-Tab>e
:save-screen $T/form.screen
<C-d>
:save-screen $T/after.screen
KEYS
expect_rc 0 "annotate"
expect_screen "$T/form.screen" form_100x30.screen
expect_eq "$(sqlite3 -separator '|' "$PERFCORR_DB" "SELECT workload, op, \
metric, model_source, ref_source, status, category, note, link, expires, \
author FROM annotations")" "llama3-8b/prefill/bs=1/seq=2048/bf16|flash_attn|\
time|archsim|h100-lab|explained|modeling-error|model ignores the causal mask
second line|https://jira/PERF-1||tester" "annotation row"
expect_in "annotated 1 row: explained (modeling-error)" \
	"$(tail -1 "$T/after.screen")" "status line"
expect_in "explained" "$(screen_line "$T/after.screen" 5)" "status column"

# the history shows in the detail and in `perfcorr annotations`
tui_script 100 40 <<KEYS
j<Enter>
:save-screen $T/history.screen
KEYS
expect_in "tester  explained  modeling-error  archsim vs h100-lab" \
	"$(cat "$T/history.screen")" "history row"
expect_in "      second line" "$(cat "$T/history.screen")" "note lines"
expect_in "link: https://jira/PERF-1" "$(cat "$T/history.screen")" "link"
run pc annotations --format csv
expect_in "flash_attn" "$out" "perfcorr annotations sees it"

# Esc cancels: nothing written
before=$(db_digest)
tui_script 100 30 <<KEYS
a
not this
<Esc>
:save-screen $T/cancel.screen
KEYS
expect_rc 0 "cancel"
expect_eq "$(db_digest)" "$before" "Esc writes nothing"
expect_in "annotation cancelled: nothing written" \
	"$(tail -1 "$T/cancel.screen")" "cancel message"

# an expiry needs 'accepted' and a real date; the form says so and stays
tui_script 100 30 <<KEYS
a
<Tab><Tab><Tab><Tab>2027-13-01<C-d>
:save-screen $T/bad_date.screen
<C-u>2027-01-31<C-d>
:save-screen $T/bad_status.screen
<Esc>
KEYS
expect_in "expiry '2027-13-01' is not a date" "$(cat "$T/bad_date.screen")" \
	"bad date"
expect_in "an expiry is only for 'accepted'" "$(cat "$T/bad_status.screen")" \
	"expiry needs accepted"
expect_eq "$(db_digest)" "$before" "invalid forms write nothing"

# bulk: mark two rows, one explanation for both, accepted with expiry
tui_script 100 30 <<KEYS
jj<Space><Space>
:save-screen $T/marked.screen
a
<Tab><Tab><Tab><Tab>2027-01-31<S-Tab><S-Tab><S-Tab><S-Tab>a
<Tab><Left>
<Tab>lab reran with a new driver
<C-d>
:save-screen $T/bulk.screen
KEYS
expect_rc 0 "bulk"
expect_in "2 marked" "$(screen_line "$T/marked.screen" 1)" "two marked"
expect_eq "$(count)" 3 "two more rows"
expect_eq "$(pcsql "SELECT group_concat(op || ':' || \
status || ':' || category || ':' || expires, ' ') FROM annotations \
WHERE id > 1")" "allreduce:accepted:reference-changed:2027-01-31 \
e2e:accepted:reference-changed:2027-01-31" "bulk rows"
expect_not_in "marked" "$(screen_line "$T/bulk.screen" 1)" "marks cleared"
expect_in "annotated 2 rows" "$(tail -1 "$T/bulk.screen")" "bulk message"
expect_eq "$(pcsql "SELECT count(*) FROM annotation_errors \
e JOIN annotations a ON a.id = e.annotation_id WHERE a.op = e.op AND \
e.model_version = '2.4.0'")" 2 "accepted rows record their errors"

# a note typed while focus is on a chooser changes nothing: the form
# starts on status; 'o' would pick open, 'n' shows it was a word: the
# status goes back to explained and the rest of the word is ignored
before=$(db_digest)
tui_script 100 30 <<KEYS
a
only the gap
:save-screen $T/typed.screen
<Tab>measured
:save-screen $T/typed2.screen
<Esc>
KEYS
expect_in "< explained >" "$(cat "$T/typed.screen")" \
	"status back to its value (the row's prefill)"
expect_in "status is a choice, not text: typing ignored; Tab moves on" \
	"$(cat "$T/typed.screen")" "the form says why"
expect_in "'m' is ambiguous for category: Left/Right choose; Tab moves on" \
	"$(cat "$T/typed2.screen")" "ambiguous letter said"
expect_in "< unknown >" "$(cat "$T/typed2.screen")" \
	"'m' is ambiguous among categories: unchanged"
expect_eq "$(db_digest)" "$before" "nothing written"

# accepted with an empty note is refused in the form
tui_script 100 30 <<KEYS
a
a<C-d>
:save-screen $T/nonote.screen
<Tab><Tab>known gap<C-d>
:save-screen $T/withnote.screen
KEYS
expect_in "an accepted annotation needs a note" "$(cat "$T/nonote.screen")" \
	"empty note refused"
expect_in "annotated 1 row: accepted" "$(tail -1 "$T/withnote.screen")" \
	"saved once it has a note"
finish
