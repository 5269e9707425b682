# A signed error has one format in the markdown and the HTML report
# (issue 35 QA 3): "+19.75%", "-38.58%", "0.00%". Before, the markdown
# printed "19.75%" where the HTML printed "+19.75%", and the tables of the
# previous version printed no sign in either. Every error cell of both
# formats (the discrepancy tables, closest to the limit, speed-of-light,
# regressions and improvements) is read per key and column: the two
# formats agree, and each equals python3's "%+.2f%%" of compare's error.
. "$(dirname "$0")/../cli/lib.sh"
ROOT=$(cd "$FIXTURES/.." && pwd)
(cd "$ROOT" && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>"$T/demo.out" 2>&1 </dev/null || { fail "demo: $(cat "$T/demo.out")"; finish; exit 1; }
P="--model archsim --ref h100-lab"
pc report $P --top 50 -o "$T/r.md" || fail "md"
pc report $P --top 50 -o "$T/r.html" || fail "html"
pc compare $P --points --format json > "$T/cmp.json" || fail "compare"
run python3 - "$T" <<'PY'
import html.parser, json, re, sys
t = sys.argv[1]
COLS = ("error", "error before", "error after")
errs = {(p["workload"], p["op"], p["metric"]): p["err"]
        for p in json.load(open(t + "/cmp.json"))["points"]}

def cells_md(path):
    out, head = {}, None
    for line in open(path, encoding="utf-8"):
        if not line.startswith("|"):
            head = None
            continue
        c = [x.strip() for x in line.strip().strip("|").split(" | ")]
        if head is None:
            head = [h.replace("\\|", "|") for h in c]
            continue
        if set(line) <= set("|-: \n"):
            continue
        if "workload" not in head:
            continue
        w = head.index("workload")
        key = (c[w], c[w + 1], c[w + 2])
        for col in COLS:
            if col in head:
                out.setdefault((key, col), set()).add(c[head.index(col)])
    return out

class H(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.out = {}; s.head = []; s.row = None; s.cell = None
    def handle_starttag(s, tag, a):
        if tag == "table": s.head = []
        if tag == "tr": s.row = []
        if tag in ("td", "th"): s.cell = ""
    def handle_endtag(s, tag):
        if tag in ("td", "th") and s.cell is not None and s.row is not None:
            s.row.append(s.cell.strip()); s.cell = None
        if tag == "tr" and s.row is not None:
            if not s.head: s.head = s.row
            elif "workload" in s.head and len(s.row) == len(s.head):
                w = s.head.index("workload")
                key = tuple(s.row[w:w + 3])
                for col in COLS:
                    if col in s.head:
                        s.out.setdefault((key, col), set()).add(s.row[s.head.index(col)])
            s.row = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d

md = cells_md(t + "/r.md")
h = H(); h.feed(open(t + "/r.html", encoding="utf-8").read())
bad, seen = [], 0
for k in sorted(set(md) & set(h.out)):
    if md[k] != h.out[k]:
        bad.append("%s: md %s, html %s" % (k, md[k], h.out[k]))
for k, vals in sorted(md.items()):
    (key, col) = k
    for v in vals:
        if not re.fullmatch(r"[+-]?\d+\.\d\d%|n/a", v):
            bad.append("%s: %r is no error" % (k, v))
        if col == "error" and key in errs and errs[key] is not None:
            e = errs[key] * 100
            want = "%+.2f%%" % e if round(e, 2) != 0 else "%.2f%%" % abs(e)
            seen += 1
            if v != want:
                bad.append("%s: %s, python3 %s" % (k, v, want))
common = len(set(md) & set(h.out))
if common < 20 or seen < 10:
    bad.append("too few cells compared: %d common, %d checked" % (common, seen))
print("\n".join(bad[:20]) if bad else "ok %d %d" % (common, seen), file=sys.stderr if not bad else sys.stdout)
sys.exit(1 if bad else 0)
PY
expect_rc 0 "md and html errors: $out"
expect_in "| +19.75% |" "$(grep '| rmsnorm | time |' "$T/r.md" | head -1)" "md: a positive error has its +"
finish
