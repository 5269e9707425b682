#!/usr/bin/env python3
"""Regenerate the seed corpora under tests/fuzz/corpus/ (run by hand,
commit the output). Seeds come from fixtures/ and the shared samples,
cut to 2 KiB so the corpora stay small: usage: mkcorpus.py [SAMPLES_DIR]"""
import hashlib, os, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, '..', '..'))
out = os.path.join(here, 'corpus')
LIMIT = 2048

def put(target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)

def files(*dirs):
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for dp, _, fs in os.walk(d):
            for f in sorted(fs):
                p = os.path.join(dp, f)
                if os.path.getsize(p) and not f.endswith(('.py', '.md')):
                    yield p

def cut(data):
    if len(data) <= LIMIT:
        return data
    data = data[:LIMIT]
    nl = data.rfind(b'\n')
    return data[:nl + 1] if nl > 0 else data

srcs = [os.path.join(root, 'fixtures')] + sys.argv[1:]
for p in files(*srcs):
    data = cut(open(p, 'rb').read())
    put('import', data)
    if p.endswith('.csv'):
        put('csv', bytes([0]) + data)	# byte 0: dialect

    if '/map/' in p or '/kmap' in p or p.endswith('rules.json'):
        put('kmap', data)
    if '/policy/' in p:
        put('policy', data)
    if 'rules' in os.path.basename(p) and '/rtl/' in p:
        put('logrules', data)
# hand-written seeds for the small parsers
put('csv', b'\x00a,b,c\r\n"x ""q"" y",2,\n\n1,2,3')
put('csv', b'\x04 a , b ;c\n"unterminated')
put('csv', b'\x09\xef\xbb\xbfk\tv\n1,234.5\tN/A\n')
put('kmap', b'[{"match": "gemm|xmma", "op": "gemm"}, '
            b'{"match": "^flash", "op": "attention", "comment": "x"}]')
put('kmap', b'{"rules": [{"match": "(a|b)*c{2,3}[[:alpha:]]", "op": "x"}]}')
put('kmap', b'[{"match": "(", "op": "bad"}]')
put('manifest', b'{"source": "h100-lab", "kind": "silicon", "version": '
                b'"r1", "platform": "H100-SXM5-80GB", "clock_mhz": 1980, '
                b'"workload": "llama3-8b/decode/bs=32", "params": '
                b'{"seq": 2048, "tp": "2"}, "opts": {"topology": "t.csv"}, '
                b'"format": "perfcorr-csv", "map": "rules.json", '
                b'"comment": "nightly"}')
put('manifest', b'{"source": "x", "clock_mhz": -1}')
put('manifest', b'{"source": "x", "params": {"a=b": 1}, "bogus": 2}')
put('policy', b'{"model": "sim", "reference": "lab", "rules": [{"select": '
              b'{"metric": "time"}, "max_mape": 0.1, "severity": "warn"}]}')
put('wkey', b'llama3-8b/decode/bs=32/seq=2048/bf16')
put('wkey', b'meta-llama/Llama-3-8B/BF16/seq_len=2048/batch_size=32.0/prefill')
put('wkey', b'x/bs=1/bs=2')
put('wkey', b"x'); DROP TABLE results; --/bs=1")
# paircache: damage records (part, op, offset LE16, value LE32) applied to
# a valid index built in fuzz_paircache.c; part 0 is "meta" (max_id[1] at
# byte 40, n at 0)
import struct
def dmg(*recs):
    return b''.join(struct.pack('<BBHI', *r) for r in recs)
put('paircache', b'')
put('paircache', dmg((0, 2, 40, 0x7ffffff1)))		# meta max_id[1] huge
put('paircache', dmg((0, 2, 0, 0x40000001)))		# meta n huge
put('paircache', dmg((1, 0, 5, 0xff), (2, 3, 7, 0)))	# flip, truncate
put('paircache', dmg((3, 1, 8, 0xffffffff)))		# an offset or id
put('paircache', dmg((4, 5, 0, 0), (5, 4, 0, 0x4141)))	# drop, extend
