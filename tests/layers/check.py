#!/usr/bin/env python3
"""The layer check (issue 33): every #include "..." of every .c/.h file
under the source folders of tests/layers/layers.txt is resolved to a file
(against the repository root, then the including file's folder and
each folder above it, as the tests' include path does) and
checked against the floors of that table:

 1. a file may include a header of its own folder or of a folder on a
    lower floor, nothing on its own floor in another folder, nothing above;
 2. no include circle between modules. A module is a .c file and its .h
    (src/stats/stats.c and src/stats/stats.h); a private header NAME_int.h
    belongs to module NAME (src/pairidx/pairidx_int.h to pairidx). Module A
    depends on B when a file of A includes a file of B; a circle is two or
    more modules that reach each other through these dependencies;
 3. every quoted include resolves to a file, but for the generated headers
    named in GENERATED (they live in the build tree).

usage: check.py [ROOT [TABLE]]   (default: the repository this file is in)
Exits 1 naming every violation (file:line, the include, the rule); 0 and a
one-line summary when the tree is clean. Python 3 standard library only.
"""
import os
import re
import sys

GENERATED = {"perfcorr_build.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def load_table(path):
    floors = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) < 2 or not line[1].isdigit():
                sys.exit(f"{path}:{n}: expected 'folder floor'")
            floors[line[0].rstrip("/")] = int(line[1])
    return floors


def folder_of(rel, floors):
    """The longest table folder that holds rel, or None."""
    d = os.path.dirname(rel)
    best = None
    for f in floors:
        if d == f or d.startswith(f + "/"):
            if best is None or len(f) > len(best):
                best = f
    return best


def module_of(rel):
    m = os.path.splitext(rel)[0]
    return m[:-4] if m.endswith("_int") else m


def sccs(nodes, edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(here))
    table = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "layers.txt")
    floors = load_table(table)
    tops = sorted({f.split("/")[0] for f in floors})
    files = []
    for top in tops:
        for dp, dns, fns in os.walk(os.path.join(root, top)):
            dns[:] = sorted(d for d in dns if not d.startswith("."))
            for fn in sorted(fns):
                if fn.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(dp, fn), root))
    errors = []
    edges, why, nodes = {}, {}, set()
    nincl = 0
    for rel in files:
        src = folder_of(rel, floors)
        if src is None:
            errors.append(f"{rel}: its folder is not in {table}: add it "
                          "with its floor")
            continue
        nodes.add(module_of(rel))
        with open(os.path.join(root, rel), encoding="utf-8",
                  errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                nincl += 1
                inc = m.group(1)
                cand = [os.path.normpath(inc)]
                d = os.path.dirname(rel)
                while d:	# the file's folder, then each one above it
                    cand.append(os.path.normpath(os.path.join(d, inc)))
                    d = os.path.dirname(d)
                tgt = next((c for c in cand
                            if os.path.isfile(os.path.join(root, c))), None)
                if tgt is None:
                    if os.path.basename(inc) not in GENERATED:
                        errors.append(f'{rel}:{n}: #include "{inc}" names '
                                      "no file (from the root or this folder)")
                    continue
                dst = folder_of(tgt, floors)
                if dst is None:
                    errors.append(f'{rel}:{n}: #include "{inc}": {tgt} is in '
                                  f"no folder of {table}")
                    continue
                if dst != src and floors[dst] >= floors[src]:
                    rel_word = "above" if floors[dst] > floors[src] else \
                        "on the same floor as"
                    errors.append(
                        f'{rel}:{n}: #include "{inc}": {src}/ (floor '
                        f"{floors[src]}) includes {dst}/ (floor {floors[dst]}), "
                        f"{rel_word} it: move the shared piece down or the "
                        "caller up")
                a, b = module_of(rel), module_of(tgt)
                if a != b:
                    edges.setdefault(a, set()).add(b)
                    why.setdefault((a, b), f"{rel}:{n} includes {tgt}")
    for comp in sccs(nodes, edges):
        if len(comp) < 2:
            continue
        inside = set(comp)
        lines = [why[(a, b)] for a in comp for b in sorted(edges.get(a, ()))
                 if b in inside]
        errors.append("include circle between modules " + " <-> ".join(comp)
                      + ":\n    " + "\n    ".join(lines))
    for e in errors:
        print("layers: " + e)
    if errors:
        print(f"layers: FAIL: {len(errors)} problem(s) in {len(files)} files")
        return 1
    print(f"layers: ok: {len(files)} files, {nincl} includes, "
          f"{len(nodes)} modules, no upward include, no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
