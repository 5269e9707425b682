# The error plots never clip the worst point (issue 35 item 6: the
# error-vs-reference figure drew +41.6% on its +25% edge, its range the
# one holding 98% of the errors). 30 pairs within +-3% and one at +41.6%
# (by hand: model 141.6 us against 100 us): the signed-error plot's range
# reaches +50% (the next round step above 41.6% x 1.05), its mark sits
# inside, no mark is a clipped cross and the caption counts none beyond;
# the Bland-Altman panel likewise holds ln(1.416). Then a gross outlier
# (model 300 times the reference, +29900%): the linear range stays the
# 98% one (+-20%: the +-10% band x 1.5, rounded up) so the rest is not
# flattened, and the outer bands reach +29900% on a log scale (their
# end tick, "(log)" beside it), the point drawn there, not on an edge.
. "$(dirname "$0")/lib.sh"
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
with open(t + "/ref.csv", "w") as r, open(t + "/model.csv", "w") as m:
    r.write("workload,op,metric,value,unit\n")
    m.write("workload,op,metric,value,unit\n")
    for i in range(30):
        r.write("m/w%02d,gemm,time,100,us\n" % i)
        m.write("m/w%02d,gemm,time,%.1f,us\n" % (i, 97 + 0.2 * i))
    r.write("m/out,lm_head,time,100,us\n")
    m.write("m/out,lm_head,time,141.6,us\n")
PY
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv" &&
pc import -q --source sim --kind perfsim --version 1 "$T/model.csv" && ok || fail "import"
pc report --model sim --ref lab --no-matrix -o "$T/r.html" && ok || fail "html"
run python3 - "$T/r.html" <<'PY'
import math, re, sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
bad = []
def text(e):
    return "".join(e.itertext()).strip()
for kind, worst in (("err", 0.416), ("ba", math.log(1.416))):
    svg = [s for s in root.iter(S + "svg") if "fig-" + kind in s.get("class", "").split()][0]
    ticks = []
    for x in svg.iter(S + "text"):
        v = text(x).replace("\u2212", "-")
        if kind == "err" and re.fullmatch(r"[+-]?[0-9.]+%", v):
            ticks.append(float(v.rstrip("%")) / 100)
        if kind == "ba" and re.fullmatch(r"[0-9.]+\u00d7", v):
            ticks.append(math.log(float(v.rstrip("\u00d7"))))
    if max(ticks) < worst:
        bad.append("%s: range to %.3f below the worst %.3f" % (kind, max(ticks), worst))
    if any("cr" in (e.get("class") or "").split() for e in svg.iter()):
        bad.append("%s: a mark clipped onto the edge" % kind)
    if "beyond the range" in text(svg):
        bad.append("%s: the caption counts points beyond the range" % kind)
err = [s for s in root.iter(S + "svg") if "fig-err" in s.get("class", "").split()][0]
if "+50%" not in [text(x) for x in err.iter(S + "text")]:
    bad.append("err: no +50%% tick: %r" % [text(x) for x in err.iter(S + "text")][:12])
print("\n".join(bad), end="")
sys.exit(1 if bad else 0)
PY
expect_rc 0 "the worst point inside both error plots: $out"

export PERFCORR_DB="$T/gross.db"
sed 's/^m\/out,lm_head,time,141.6,us$/m\/out,lm_head,time,30000,us/' "$T/model.csv" >"$T/gross.csv"
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv" &&
pc import -q --source sim --kind perfsim --version 1 "$T/gross.csv" && ok || fail "import gross"
pc report --model sim --ref lab --no-matrix -o "$T/g.html" && ok || fail "html gross"
run python3 - "$T/g.html" <<'PY'
import re, sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
svg = [s for s in root.iter(S + "svg") if "fig-err" in s.get("class", "").split()][0]
texts = ["".join(x.itertext()) for x in svg.iter(S + "text")]
bad = []
for want in ("+20%", "-20%", "+29900%", "-29900%", "(log)"):
    if want not in texts:
        bad.append("no %s tick: %r" % (want, texts[:16]))
if any("cr" in (e.get("class") or "").split() for e in svg.iter()):
    bad.append("a mark clipped onto the edge")
# the outlier's mark sits at the top tick's height (+-1 px), inside the frame
top = [x for x in svg.iter(S + "text") if "".join(x.itertext()) == "+29900%"][0]
ytop = float(top.get("y")) - 9   # the top tick sits 9 px under its line
g = [e for e in svg.iter(S + "g") if e.find(S + "title") is not None and
     "m/out" in e.find(S + "title").text][0]
ys = [float(v) for c in g.iter() for k, v in c.attrib.items() if k in ("cy", "y")]
ys += [float(n) for c in g.iter() if c.get("points") for n in c.get("points").replace(",", " ").split()[1::2]]
if not ys or min(abs(y - ytop) for y in ys) > 5:
    bad.append("the outlier is not at its tick (%s): %r" % (ytop, ys))
print("\n".join(bad), end="")
sys.exit(1 if bad else 0)
PY
expect_rc 0 "a gross outlier on the log outer band: $out"
finish
