/* The matrix's fingerprint check per source pair (see matrix.h). */
#include "src/matrix/matrix.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_fp.h"
#include "src/corr/correlate.h"

struct matrix_fp {
	struct corr_fp *fp;
	struct hmap verdict;	/* "a:b" -> verdict | field << 2 | allowed
				   (bit 1 << 40) */
	int64_t last_a, last_b, last_v;
};

int matrix_fp_load(struct matrix *m, struct db *db)
{
	struct matrix_fp *f = xcalloc(1, sizeof(*f));
	int rc;

	hmap_init(&f->verdict);
	f->last_a = f->last_b = -1;
	m->fp = f;
	if ((rc = corr_fp_new(&f->fp, m->opts.allow_mismatch)) < 0)
		return rc;
	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t r = 0; r < m->sets[i]->model.nruns; r++)
			if ((rc = corr_fp_add(f->fp, db,
					      m->sets[i]->model.runs[r])) < 0)
				return rc;
	return 0;
}

static int64_t judge(struct matrix_fp *f, int64_t a, int64_t b)
{
	char key[48];
	size_t field = 0;
	uint32_t allowed = 0;
	int64_t v;

	if (a == f->last_a && b == f->last_b)
		return f->last_v;
	snprintf(key, sizeof(key), "%lld:%lld", (long long)a, (long long)b);
	if (!hmap_get(&f->verdict, key, &v)) {
		v = corr_fp_judge(f->fp, a, b, &field, &allowed);
		v |= (int64_t)field << 2 | (allowed ? INT64_C(1) << 40 : 0);
		hmap_put(&f->verdict, key, v);
	}
	f->last_a = a;
	f->last_b = b;
	f->last_v = v;
	return v;
}

/* Why the runs of a (source i) and b (source j) do not pair: field
 * differs, both values, the tolerance, the cure. */
static void refusal(struct strbuf *sb, const struct matrix *m, size_t i,
		    size_t j, size_t field, const struct matrix_val *a,
		    const struct matrix_val *b)
{
	const struct fp_field *fl = &fp_fields[field];

	strbuf_addf(sb, "%s differs: '%s' run %lld says %s, '%s' run %lld "
		    "says %s", fl->name, m->src[i].label, (long long)a->run,
		    corr_fp_values(m->fp->fp, a->run)[field], m->src[j].label,
		    (long long)b->run,
		    corr_fp_values(m->fp->fp, b->run)[field]);
	if (fl->tol > 0)
		strbuf_addf(sb, " (tolerance %g%%)", fl->tol * 100);
	strbuf_addf(sb, "; if the difference is meant: --allow-mismatch %s",
		    fl->name);
}

static void first_reason(struct matrix *m, size_t i, size_t j, size_t field,
			 const struct matrix_val *a, const struct matrix_val *b)
{
	struct strbuf sb = STRBUF_INIT;

	refusal(&sb, m, i, j, field, a, b);
	m->not_comparable_why = strbuf_detach(&sb);
}

int matrix_fp_refused(struct matrix *m, struct matrix_cell *c, size_t i,
		      size_t j, const struct matrix_val *a,
		      const struct matrix_val *b)
{
	int64_t v;

	if (!m->fp || !m->fp->fp || !corr_fp_any(m->fp->fp) ||
	    m->src[i].roofline || m->src[j].roofline)
		return 0;
	v = judge(m->fp, a->run, b->run);
	switch (v & 3) {
	case CORR_FP_REFUSED:
		c->refused++;
		m->not_comparable++;
		if (!m->not_comparable_why)
			first_reason(m, i, j, (size_t)((v >> 2) & 0xff), a, b);
		return 1;
	case CORR_FP_UNVERIFIED:
		c->unverified++;
		m->unverified++;
		break;
	}
	m->admitted += (v >> 40) & 1;
	return 0;
}

static int bits(uint64_t x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* The lowest bit set of x (x != 0). */
static int low(uint64_t x)
{
	int i = 0;

	while (!(x >> i & 1))
		i++;
	return i;
}

/* Bron-Kerbosch with a pivot over bit sets: every maximal set of
 * mutually adjacent nodes once; the largest counted in *nbest, the
 * first of them in *best. */
static void largest(const uint64_t *adj, uint64_t r, uint64_t p, uint64_t x,
		    uint64_t *best, size_t *nbest)
{
	uint64_t px = p | x, piv = 0, cand;
	int most = -1;

	if (!p && !x) {
		int n = bits(r), b = bits(*best);

		if (!*nbest || n > b) {
			*best = r;
			*nbest = 1;
		} else if (n == b) {
			(*nbest)++;
		}
		return;
	}
	for (uint64_t q = px; q; q &= q - 1) {
		int u = low(q), c = bits(p & adj[u]);

		if (c > most) {
			most = c;
			piv = adj[u];
		}
	}
	for (cand = p & ~piv; cand; cand &= cand - 1) {
		uint64_t v = cand & (~cand + 1);
		int i = low(v);

		largest(adj, r | v, p & adj[i], x & adj[i], best, nbest);
		p &= ~v;
		x |= v;
	}
}

size_t matrix_vote_set(const uint64_t *adj, size_t n, uint64_t *out)
{
	uint64_t *a = xcalloc(n + 1, sizeof(*a)), all;
	size_t nbest = 0;

	all = n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
	for (size_t i = 0; i < n; i++)
		a[i] = adj[i] & all & ~(UINT64_C(1) << i);
	*out = 0;
	largest(a, 0, all, 0, out, &nbest);
	free(a);
	return nbest;
}

/* The labels of the voters in set (a bit per index into vot). */
static void add_set(struct strbuf *sb, const struct matrix *m,
		    const size_t *vot, size_t nv, uint64_t set)
{
	for (size_t a = 0, f = 1; a < nv; a++)
		if (set >> a & 1) {
			strbuf_addf(sb, "%s%s", f ? "" : "+",
				    m->src[vot[a]].label);
			f = 0;
		}
}

/* Voter a's first refusal against a voter in set, said into sb. */
static void refused_by(struct strbuf *sb, struct matrix *m,
		       const struct matrix_key *k, const size_t *vot,
		       size_t nv, size_t a, uint64_t set)
{
	for (size_t b = 0; b < nv; b++) {
		const struct matrix_val *x = &k->vals[vot[a]];
		const struct matrix_val *y = &k->vals[vot[b]];
		int64_t v;

		if (b == a || !(set >> b & 1))
			continue;
		v = judge(m->fp, x->run, y->run);
		if ((v & 3) == CORR_FP_REFUSED) {
			refusal(sb, m, vot[a], vot[b], (size_t)((v >> 2) & 0xff),
				x, y);
			return;
		}
	}
}

int matrix_fp_key(struct matrix *m, struct matrix_key *k)
{
	size_t *vot = xmalloc((m->nsrc + 1) * sizeof(*vot)), nv = 0, nbest;
	uint64_t *adj, best = 0;
	struct strbuf sb = STRBUF_INIT;
	int refused = 0, size;

	for (size_t i = 0; i < m->nsrc; i++)
		if (!m->src[i].roofline && k->vals[i].state == MV_OK)
			vot[nv++] = i;
	/* fewer than 3 voters: never classified, nothing to judge */
	if (!m->fp || !m->fp->fp || !corr_fp_any(m->fp->fp) || nv < 3) {
		free(vot);
		return 0;
	}
	if (nv > 64) {	/* beyond the bit sets: any refusal keeps it out */
		for (size_t a = 0; a < nv && !refused; a++)
			for (size_t b = a + 1; b < nv && !refused; b++)
				refused = (judge(m->fp, k->vals[vot[a]].run,
						 k->vals[vot[b]].run) & 3) ==
					  CORR_FP_REFUSED;
		free(vot);
		if (!refused)
			return 0;
		k->vote_why = xasprintf("%zu voters, not all of whose runs "
					"pair: more than 64 are not judged one "
					"by one", nv);
		k->fp_unclassified = 1;
		m->unclassified++;
		return 1;
	}
	adj = xcalloc(nv + 1, sizeof(*adj));
	for (size_t a = 0; a < nv; a++)
		for (size_t b = a + 1; b < nv; b++) {
			if ((judge(m->fp, k->vals[vot[a]].run,
				   k->vals[vot[b]].run) & 3) == CORR_FP_REFUSED) {
				refused = 1;
				continue;
			}
			adj[a] |= UINT64_C(1) << b;
			adj[b] |= UINT64_C(1) << a;
		}
	if (!refused) {
		free(adj);
		free(vot);
		return 0;
	}
	/* the voters whose runs pair with each other vote: the largest such
	 * set, when it is one set of three or more */
	nbest = matrix_vote_set(adj, nv, &best);
	size = bits(best);
	if (size >= 3 && nbest == 1) {
		k->unvoted = xcalloc(m->nsrc + 1, 1);
		for (size_t a = 0; a < nv; a++) {
			if (best >> a & 1)
				continue;
			k->unvoted[vot[a]] = 1;
			strbuf_addf(&sb, "%s%s: ", sb.len ? "; " : "",
				    m->src[vot[a]].label);
			refused_by(&sb, m, k, vot, nv, a, best);
		}
		m->vote_left++;
	} else {
		if (size < 3) {
			strbuf_addf(&sb, "no 3 voters whose runs pair (at "
				    "most %d): ", size);
			for (size_t a = 0; a < nv; a++)
				if (!(best >> a & 1)) {
					refused_by(&sb, m, k, vot, nv, a, best);
					break;
				}
		} else {
			strbuf_addf(&sb, "%zu sets of %d voters whose runs "
				    "pair, not with each other (", nbest, size);
			add_set(&sb, m, vot, nv, best);
			strbuf_addstr(&sb, " | ...): which to leave out of the "
				      "vote is not known; ");
			for (size_t a = 0; a < nv; a++)
				if (!(best >> a & 1)) {
					refused_by(&sb, m, k, vot, nv, a, best);
					break;
				}
		}
		k->fp_unclassified = 1;
		m->unclassified++;
	}
	k->vote_why = strbuf_detach(&sb);
	free(adj);
	free(vot);
	return k->fp_unclassified;
}

void matrix_fp_free(struct matrix_fp *f)
{
	if (!f)
		return;
	corr_fp_free(f->fp);
	hmap_release(&f->verdict);
	free(f);
}
