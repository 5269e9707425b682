# Multi-line annotation notes render natively in every output (HTML <br/>,
# Markdown <br> in the cell, gate text indented continuation lines, JUnit
# real newlines), never as a literal "\n"; an http(s) link is an <a href>
# in HTML and a link in the Markdown table, any other scheme stays text.
# The HTML noisy table has the reference stddev the Markdown has.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 2.0 "$G/model-2.0.csv" \
	2>/dev/null
# bs=32 e2e: 28 vs 20 ms, +40%; bs=8 gemm_qkv: 2.7 vs 3 ms, -10%
NOTE=$(printf 'line one <b>\nline two | pipe\r\nline three')
pc annotate --workload llama3-8b/decode/bs=32 --op e2e --metric time \
	--status explained --category modeling-error --note "$NOTE" \
	--link 'https://bugs.example/7?a=1&b=(2)' --author dana 2>/dev/null
pc annotate --workload llama3-8b/decode/bs=8 --op gemm_qkv --metric time \
	--status investigating --category rtl-bug --note "x" \
	--link 'javascript:alert(1)' --author bob 2>/dev/null

# HTML: parse it (it is well-formed XML) and look at the note cells
run pc report --model archsim --ref h100 -o "$T/r.html"
expect_rc 0 "html report"
expect_not_in '\n' "$(cat "$T/r.html")" "no literal \\n in the HTML"
run python3 - "$T/r.html" <<'PY'
import sys, xml.etree.ElementTree as ET
text = open(sys.argv[1], encoding="utf-8").read()
text = text.replace("<!DOCTYPE html>", "")
root = ET.fromstring(text)
ns = "{http://www.w3.org/1999/xhtml}"
def q(tag):
    return list(root.iter(ns + tag)) or list(root.iter(tag))
bad = []
cells = [td for td in q("td") if td.get("class") == "notec"]
one = [td for td in cells if (td.text or "").startswith("line one")]
if len(one) != 1:
    bad.append("one note cell for bs=32, got %d" % len(one))
else:
    td = one[0]
    brs = [c for c in td if c.tag.endswith("br")]
    if len(brs) != 2:
        bad.append("2 <br/> in the note, got %d" % len(brs))
    if td.text != "line one <b>" or brs[0].tail != "line two | pipe":
        bad.append("lines: %r %r" % (td.text, brs[0].tail))
    a = [c for c in td if c.tag.endswith("}a") or c.tag == "a"]
    if len(a) != 1 or a[0].get("href") != "https://bugs.example/7?a=1&b=(2)":
        bad.append("link: %r" % [x.attrib for x in a])
x = [td for td in cells if (td.text or "").startswith("x")]
if len(x) != 1 or any(c.tag in (ns + "a", "a") for c in x[0]):
    bad.append("javascript: link must not be an <a>")
for el in root.iter():
    if el.tag.endswith("}a") or el.tag == "a":
        if not el.get("href", "").startswith(("http://", "https://", "#")):
            bad.append("non-http href %r" % el.get("href"))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "HTML note cells: $out"

# the noisy table carries the reference stddev and n, as Markdown does
# (fixture: bs=64 e2e ref 30 ms, stddev 15 ms, n 10: CV 50% > 30%),
# the model first (issue 35: model before reference everywhere)
expect_in '<td>e2e</td><td>time</td><td class="n">' \
	"$(sed -n '/<section id="noisy">/,/<\/section>/p' "$T/r.html")" \
	"HTML noisy table: the key"
expect_in '</td><td class="n">30 ms</td><td class="n">15 ms</td><td class="n">10</td>' \
	"$(sed -n '/<section id="noisy">/,/<\/section>/p' "$T/r.html")" \
	"HTML noisy table: model, then ref, ref stddev, n"

# Markdown: one table row, lines joined by <br>, the link a Markdown link
run pc report --model archsim --ref h100 --format md
expect_rc 0 "md report"
expect_not_in '\n' "$out" "no literal \\n in the Markdown"
expect_in '| line one \<b\><br>line two \| pipe<br>line three [https://bugs.example/7?a=1\&b=(2)](https://bugs.example/7?a=1&b=%282%29) | dana |' \
	"$out" "md note cell with <br> and link"
expect_in '| x javascript:alert(1) | bob |' "$out" "other schemes stay text"
expect_eq "$(printf '%s\n' "$out" | grep -c 'line two')" 1 \
	"the note stays in one table row"

# gate text: continuation lines indented under the point
cat >"$T/p.json" <<'JSON'
{"name": "rel", "model": "archsim", "ref": "h100", "rules": [
  {"name": "e2e", "op": "e2e", "max_mape": 0.04}]}
JSON
run pc gate --policy "$T/p.json" --dry-run --junit "$T/j.xml"
expect_rc 1 "gate fails on the explained (not waived) point"
expect_not_in '\n' "$out" "no literal \\n in gate text"
expect_in "$(printf '%s\n%s\n%s' \
	'(err +40.0%) - explained/modeling-error by dana on ' \
	'        line two | pipe' \
	'        line three <https://bugs.example/7?a=1&b=(2)>')" \
	"$(printf '%s\n' "$out" | sed 's/on [0-9-]*: line one <b>$/on /')" \
	"gate text continuation lines"
run python3 - "$T/j.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
f = ET.parse(sys.argv[1]).getroot().find("testsuite/testcase/failure")
t = f.text
ok = "\\n" not in t and \
    "line one <b>\n        line two | pipe\n        line three" in t
print("ok" if ok else repr(t))
PY
expect_eq "$out" "ok" "JUnit failure text has real newlines"
finish
