# Independent reference for tests/unit/test_stats_paired.c (pure python3,
# no numpy): brute-force Wilcoxon, textbook normal approximation, the
# documented bootstrap re-implemented. Run: python3 tests/ref/stats_paired_ref.py
import math, itertools
M=(1<<64)-1
def sm(st):
    st=(st+0x9e3779b97f4a7c15)&M
    z=st
    z=((z^(z>>30))*0xbf58476d1ce4e5b9)&M
    z=((z^(z>>27))*0x94d049bb133111eb)&M
    return st, z^(z>>31)
def boot(d, B=2000, seed=20261201, level=0.95):
    st=seed; n=len(d); means=[]
    for b in range(B):
        s=0.0
        for i in range(n):
            st,x=sm(st); u=(x>>11)*2.0**-53; k=int(u*n); s+=d[min(k,n-1)]
        means.append(s/n)
    means.sort()
    def q(p):
        h=(B-1)*p; lo=math.floor(h)
        return means[lo]+(h-lo)*(means[lo+1]-means[lo]) if lo+1<B else means[-1]
    a=(1-level)/2
    return q(a), q(1-a)
EPS=1e-12   # |d| this close to 0 is 0; this close to a group's smallest, a tie
def ranks(d):
    nz=[x for x in d if abs(x)>EPS]
    a=sorted(abs(x) for x in nz)
    grp=[]; i=0
    while i<len(a):
        j=i
        while j<len(a) and a[j]-a[i]<=EPS: j+=1
        grp.append((a[i],a[j-1],(i+1+j)/2)); i=j
    def rk(v):
        return [g[2] for g in grp if g[0]<=v<=g[1]][0]
    return [(rk(abs(x)), x>0) for x in nz]
def wil_exact(d):  # brute force over all sign assignments
    r=ranks(d); w=sum(k for k,p in r if p); m=len(r)
    up=lo=0
    for signs in itertools.product([0,1],repeat=m):
        s=sum(k for (k,_),g in zip(r,signs) if g)
        up+= s>=w-1e-9; lo+= s<=w+1e-9
    return w, up/2**m, lo/2**m
def wil_norm(d):
    r=ranks(d); w=sum(k for k,p in r if p); n=len(r)
    from collections import Counter
    t=Counter(k for k,_ in r)
    var=n*(n+1)*(2*n+1)/24-sum(c**3-c for c in t.values())/48
    mean=n*(n+1)/4; sd=math.sqrt(var)
    zi=(w-mean-0.5)/sd; zd=(w-mean+0.5)/sd
    return w, zi, 0.5*math.erfc(zi/math.sqrt(2)), 0.5*math.erfc(-zd/math.sqrt(2))
before=[0.10,0.05,0.20,0.08,0.12,0.30,0.07,0.15]
after =[0.13,0.05,0.26,0.07,0.15,0.33,0.09,0.14]
d=[a-b for a,b in zip(after,before)]
print("d",d)
print("delta", sum(d)/len(d))
print("exact", wil_exact(d))
print("boot", boot(d))
# ties: 
dt=[1,1,-1,2,2,2,3,-3,0,4]
print("ties exact", wil_exact(dt))
# normal: 60 diffs deterministic
dn=[((i*37)%23-9)/100.0 for i in range(60)]
print("n60 nz", len([x for x in dn if x]), "norm", wil_norm(dn), "delta", sum(dn)/60)
print("boot60", boot(dn, B=500, seed=7, level=0.9))
