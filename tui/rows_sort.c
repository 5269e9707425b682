/*
 * The visible rows: cached sorted orders (LSD radix sort on 64-bit keys,
 * stable, so ties keep the core's |err| order), filtering and search.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/corr/correlate.h"
#include "base/util.h"
#include "tui/rows.h"

void rows_init(struct rows *r, const struct rows_src *src)
{
	memset(r, 0, sizeof(*r));
	r->src = src;
	r->col = -1;
}

void rows_forget(struct rows *r, int col)
{
	if (!r->borrowed[col])
		free(r->perm[col][0]);
	free(r->perm[col][1]);
	r->perm[col][0] = r->perm[col][1] = NULL;
	r->borrowed[col] = 0;
}

void rows_invalidate(struct rows *r)
{
	for (int c = 0; c < RC_COUNT; c++)
		rows_forget(r, c);
}

void rows_release(struct rows *r)
{
	rows_invalidate(r);
	free(r->idx);
	r->idx = NULL;
	r->n = 0;
}

static uint64_t double_key(double v)
{
	uint64_t b;

	if (isnan(v))
		return UINT64_MAX;
	if (v == 0)
		v = 0;	/* -0 sorts as 0 */
	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

struct kv {
	uint64_t key;
	uint32_t idx;
};

/* Stable LSD radix sort of (key, index) pairs, 16 bits a pass; passes
 * whose digit is the same everywhere are skipped. Sorting the pairs
 * (not indices into the keys) keeps memory access sequential. */
static void radix_sort(uint32_t *perm, uint32_t *rev, const uint64_t *keys,
		       size_t n)
{
	struct kv *a = xmalloc((n ? n : 1) * sizeof(*a));
	struct kv *b = xmalloc((n ? n : 1) * sizeof(*b));
	size_t *count = xmalloc(65536 * sizeof(*count));

	for (size_t i = 0; i < n; i++) {
		a[i].key = keys[perm[i]];
		a[i].idx = perm[i];
	}
	for (int shift = 0; shift < 64; shift += 16) {
		size_t sum = 0;
		int skip = 0;
		struct kv *t;

		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];

			if (c == n)
				skip = 1;
			count[d] = sum;
			sum += c;
		}
		if (skip)
			continue;
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].key >> shift) & 0xffff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		perm[i] = a[i].idx;
	/* the descending order: runs of equal keys keep the core's order */
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && a[j].key == a[i].key)
			j++;
		for (size_t k = i; k < j; k++)
			rev[n - j + (k - i)] = a[k].idx;
		i = j;
	}
	free(count);
	free(a);
	free(b);
}

struct name_ref {
	const char *s;
	int64_t id;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct name_ref *)a)->s,
		      ((const struct name_ref *)b)->s);
}

static int32_t col_id(const struct pidx_key *k, int col)
{
	return col == RC_WORKLOAD ? k->w : col == RC_OP ? k->o : k->m;
}

/* A text column is also the name part (and max_id slot) of its ids. */
_Static_assert(RC_WORKLOAD == (int)PIDX_NAME_WORKLOAD &&
	       RC_OP == (int)PIDX_NAME_OP && RC_METRIC == (int)PIDX_NAME_METRIC,
	       "text columns are numbered like the name parts");

/* Keys for a text column: the rank of the string among the distinct
 * values, found once per id. */
static void text_keys(const struct rows_src *s, int col, uint64_t *keys)
{
	int64_t max = s->max_id[col];
	size_t nd = 0;
	int64_t *rank;
	struct name_ref *names;

	rank = xmalloc((size_t)(max + 2) * sizeof(*rank));
	for (int64_t i = 0; i <= max; i++)
		rank[i] = -1;
	names = xmalloc((size_t)(max + 2) * sizeof(*names));
	for (size_t i = 0; i < s->n; i++) {
		int64_t id = col_id(&s->keys[i], col);

		if (id >= 0 && id <= max && rank[id] < 0) {
			rank[id] = 0;
			names[nd].s = s->name(s->arg, (enum pidx_name_part)col,
					      id);
			names[nd++].id = id;
		}
	}
	qsort(names, nd, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nd; i++)
		rank[names[i].id] = i && !strcmp(names[i].s, names[i - 1].s) ?
				    rank[names[i - 1].id] : (int64_t)i;
	for (size_t i = 0; i < s->n; i++) {
		int64_t id = col_id(&s->keys[i], col);

		keys[i] = id >= 0 && id <= max ? (uint64_t)rank[id] : 0;
	}
	free(names);
	free(rank);
}

static unsigned small_key(const struct rows_src *s, int col, size_t i)
{
	return col == RC_FLAGS ? s->keys[i].flags & 0xff :
	       s->status ? s->status[i] : 0;
}

/* The descending order from an ascending one: runs of equal values in
 * reverse, each run keeping the core's order. */
static void reverse_runs(uint32_t *rev, const uint32_t *asc,
			 const unsigned char *starts, size_t n)
{
	size_t end = n, out = 0;

	for (size_t i = n; i-- > 0;) {
		if (!(starts[i / 8] & (1u << (i % 8))))
			continue;
		memcpy(rev + out, asc + i, (end - i) * sizeof(*rev));
		out += end - i;
		end = i;
	}
}

/* Flags and status: keys below 256, so a stable counting sort (two
 * passes) gives the ascending order and where each value starts. */
static void small_perms(const struct rows_src *s, int col, uint32_t *asc,
			uint32_t *desc)
{
	size_t count[257] = { 0 };
	unsigned char *starts = xcalloc(s->n / 8 + 1, 1);

	for (size_t i = 0; i < s->n; i++)
		count[small_key(s, col, i) + 1]++;
	for (int d = 0; d < 256; d++) {
		if (count[d + 1])
			starts[(count[d]) / 8] |= (unsigned char)(1u <<
				(count[d] % 8));
		count[d + 1] += count[d];
	}
	for (size_t i = 0; i < s->n; i++)
		asc[count[small_key(s, col, i)]++] = (uint32_t)i;
	reverse_runs(desc, asc, starts, s->n);
	free(starts);
}

/* The err column's key: |err|, or for a bound the fraction of speed of
 * light (matrix_sol_fraction: a NaN, a value not positive, sorts
 * lowest). */
static uint64_t err_key(const struct rows_src *s, size_t i)
{
	const struct pidx_val *v = &s->vals[i];
	int64_t m = s->keys[i].m;
	int higher = s->higher && m >= 0 && (size_t)m < s->nhigher &&
		     s->higher[m];
	double f;

	if (!s->bound)
		return double_key(fabs(s->keys[i].err));
	if (!(v->model > 0) || !(v->ref > 0))
		return 0;
	f = higher ? v->ref / v->model : v->model / v->ref;
	return isfinite(f) ? double_key(f) : 0;
}

/* Both orders of a column at once: descending costs one more pass. */
static void build_perms(const struct rows_src *s, int col, uint32_t **asc,
			uint32_t **desc)
{
	uint32_t *perm = xmalloc((s->n ? s->n : 1) * sizeof(*perm));
	uint32_t *rev = xmalloc((s->n ? s->n : 1) * sizeof(*rev));
	uint64_t *keys;

	*asc = perm;
	*desc = rev;
	if (col >= RC_FLAGS) {
		small_perms(s, col, perm, rev);
		return;
	}
	keys = xmalloc((s->n ? s->n : 1) * sizeof(*keys));
	for (size_t i = 0; i < s->n; i++)
		perm[i] = (uint32_t)i;
	if (col <= RC_METRIC) {
		text_keys(s, col, keys);
	} else {
		for (size_t i = 0; i < s->n; i++)
			keys[i] = col == RC_MODEL ? double_key(s->vals[i].model) :
				  col == RC_REF ? double_key(s->vals[i].ref) :
				  col == RC_ERR ? err_key(s, i) :
				  col == RC_FLAGS ? s->keys[i].flags :
				  s->status ? s->status[i] : 0;
	}
	radix_sort(perm, rev, keys, s->n);
	free(keys);
}

void rows_sort(struct rows *r, int col, int desc)
{
	const struct rows_src *s = r->src;
	const unsigned char *starts;
	const uint32_t *given;
	int c;

	r->col = c = col >= 0 && col < RC_COUNT ? col : -1;
	r->desc = desc = desc != 0;
	if (c < 0 || r->perm[c][desc])
		return;
	if (s->order && !(s->bound && c == RC_ERR) &&
	    s->order(s->arg, c, &given, &starts) == 0) {
		/* the index's order, borrowed; descending built on demand */
		if (!r->perm[c][0]) {
			r->perm[c][0] = (uint32_t *)given;
			r->borrowed[c] = 1;
		}
		if (desc) {
			r->perm[c][1] = xmalloc((s->n ? s->n : 1) *
						sizeof(uint32_t));
			reverse_runs(r->perm[c][1], given, starts, s->n);
		}
		return;
	}
	rows_forget(r, c);
	build_perms(s, c, &r->perm[c][0], &r->perm[c][1]);
}

void rows_apply(struct rows *r, struct filter *f)
{
	const struct rows_src *s = r->src;
	const uint32_t *perm = r->col >= 0 ? r->perm[r->col][r->desc] : NULL;

	if (!r->idx)
		r->idx = xmalloc_big((s->n ? s->n : 1) * sizeof(*r->idx));
	r->n = rows_filter_select(f, s, perm, r->idx);
}

static int memo_has(unsigned char *memo, const struct rows_src *s,
		    enum pidx_name_part part, int32_t id, const char *needle)
{
	if (!memo || id < 0 || id > s->max_id[part])
		return rows_contains(s->name(s->arg, part, id), needle);
	if (memo[id] == MEMO_UNKNOWN)
		memo[id] = rows_contains(s->name(s->arg, part, id), needle) ?
			   MEMO_YES : MEMO_NO;
	return memo[id] == MEMO_YES;
}

long rows_search(const struct rows *r, const char *needle, size_t from,
		 int dir)
{
	const struct rows_src *s = r->src;
	unsigned char *memo[PIDX_KEY_PARTS];
	long found = -1;

	if (!r->n || !needle || !*needle)
		return -1;
	for (int k = 0; k < PIDX_KEY_PARTS; k++)
		memo[k] = s->max_id[k] >= 0 && s->max_id[k] < (16L << 20) ?
			  xcalloc((size_t)s->max_id[k] + 1, 1) : NULL;
	for (size_t step = 1; step <= r->n; step++) {
		size_t pos = dir < 0 ? (from + r->n - step % r->n) % r->n :
			     (from + step) % r->n;
		const struct pidx_key *k = &s->keys[r->idx[pos]];

		if (memo_has(memo[PIDX_NAME_WORKLOAD], s, PIDX_NAME_WORKLOAD,
			     k->w, needle) ||
		    memo_has(memo[PIDX_NAME_OP], s, PIDX_NAME_OP, k->o,
			     needle) ||
		    memo_has(memo[PIDX_NAME_METRIC], s, PIDX_NAME_METRIC, k->m,
			     needle)) {
			found = (long)pos;
			break;
		}
	}
	for (int k = 0; k < PIDX_KEY_PARTS; k++)
		free(memo[k]);
	return found;
}

long rows_find(const struct rows *r, int64_t workload_id, int64_t op_id,
	       int64_t metric_id)
{
	for (size_t k = 0; k < r->n; k++) {
		const struct pidx_key *p = &r->src->keys[r->idx[k]];

		if (p->w == workload_id && p->o == op_id && p->m == metric_id)
			return (long)k;
	}
	return -1;
}

size_t rows_search_count(const struct rows *r, const char *needle,
			 size_t at, size_t *upto)
{
	const struct rows_src *s = r->src;
	unsigned char *memo[PIDX_KEY_PARTS];
	size_t total = 0;

	*upto = 0;
	if (!r->n || !needle || !*needle)
		return 0;
	for (int k = 0; k < PIDX_KEY_PARTS; k++)
		memo[k] = s->max_id[k] >= 0 && s->max_id[k] < (16L << 20) ?
			  xcalloc((size_t)s->max_id[k] + 1, 1) : NULL;
	for (size_t pos = 0; pos < r->n; pos++) {
		const struct pidx_key *k = &s->keys[r->idx[pos]];

		if (memo_has(memo[PIDX_NAME_WORKLOAD], s, PIDX_NAME_WORKLOAD,
			     k->w, needle) ||
		    memo_has(memo[PIDX_NAME_OP], s, PIDX_NAME_OP, k->o,
			     needle) ||
		    memo_has(memo[PIDX_NAME_METRIC], s, PIDX_NAME_METRIC, k->m,
			     needle)) {
			total++;
			*upto += pos <= at;
		}
	}
	for (int k = 0; k < PIDX_KEY_PARTS; k++)
		free(memo[k]);
	return total;
}
