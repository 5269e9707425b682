/*
 * The pair index's parts and names (see pairidx_int.h): a part from this
 * open's memory or the pair cache, checked arrays and permutations, and
 * the names by id every reader of the index looks up.
 */
#include "src/pairidx/pairidx_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/paircache.h"
#include "base/error.h"
#include "base/util.h"

/* A part from this open's memory or the cache; caller frees. */
int pidx_get_part(struct pidx *x, const char *name, void **data,
		    size_t *len)
{
	const struct pidx_part *p = pidx_parts_get(&x->st->mem, name);

	if (p) {
		*data = xmalloc(p->len ? p->len : 1);
		memcpy(*data, p->data, p->len);
		*len = p->len;
		return 0;
	}
	if (!x->st->cache_id)
		return pc_error_set(PC_ENOTFOUND, "pair index part '%s' is "
				    "missing", name);
	return db_pcache_read(x->st->db, x->st->cache_id, x->st->key, name,
			      data, len);
}

static int same_runs(const struct corr_side *a, const struct corr_side *b)
{
	return a->nruns == b->nruns &&
	       !memcmp(a->runs, b->runs, a->nruns * sizeof(*a->runs));
}

static char *pinned(const struct corr_side *s)
{
	return s->version ? xasprintf("%s@%s", s->source, s->version) :
	       xstrdup(s->source);
}

/* The open's pairing again, slim (what groups read), kept for the next
 * key; the sides pinned to the versions the index was opened at, and
 * the same runs, or the groups would describe another pairing. */
static int group_set(struct pidx *x)
{
	struct pidx_store *st = x->st;
	struct corr_query q = st->q;
	struct corr_set *s = NULL;
	char *model, *ref;
	int rc;

	if (st->set)
		return 0;
	if (!st->db || !st->q.model || !st->q.ref)
		return pc_error_set(PC_ENOTFOUND, "pair index: no query to "
				    "group");
	q.model = model = pinned(&x->model);
	q.ref = ref = pinned(&x->ref);
	q.slim = 1;
	rc = corr_load(&s, st->db, &q);
	free(model);
	free(ref);
	if (rc < 0)
		return rc;
	if (s->n != x->n || !same_runs(&s->model, &x->model) ||
	    !same_runs(&s->ref, &x->ref)) {
		corr_set_free(s);
		return pc_error_set(PC_EINVALID, "%s vs %s changed since it "
				    "was opened (runs imported or deleted): "
				    "its groups would not match the rows; "
				    "reopen it", x->model.source,
				    x->ref.source);
	}
	st->set = s;
	return 0;
}

int pidx_group_part(struct pidx *x, const char *key, void **data,
		    size_t *len)
{
	struct pidx_store *st = x->st;
	char name[300];
	int rc;

	if ((rc = group_set(x)) < 0 ||
	    (rc = pidx_build_group(st->set, key, data, len)) < 0)
		return rc;
	snprintf(name, sizeof(name), "group.%s", key);
	if (st->cache_id && !(st->flags & PIDX_NO_WRITE)) {
		struct pcache_part p = { name, *data, *len };

		/* the next open reads it; a busy or read-only database just
		 * groups again next time */
		if (db_pcache_add(st->db, st->cache_id, st->key, &p, 1, 1) < 0)
			pc_error_clear();
	}
	return 0;
}

/* Move a built part out of memory (the big arrays are taken, not
 * copied). */
static void *take_part(struct pidx *x, const char *name, size_t *len)
{
	struct pidx_parts *m = &x->st->mem;

	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name)) {
			void *d = m->v[i].data;

			*len = m->v[i].len;
			free(m->v[i].name);
			m->v[i] = m->v[--m->n];
			return d;
		}
	return NULL;
}

int pidx_load_part(struct pidx *x, const char *name, void **data,
		     size_t *len)
{
	if ((*data = take_part(x, name, len)))
		return 0;
	return pidx_get_part(x, name, data, len);
}

int pidx_read_array(struct pidx *x, const char *name, void **out,
		      size_t size)
{
	size_t len;
	int rc = pidx_load_part(x, name, out, &len);

	if (rc == 0 && (x->n > len / size || len != x->n * size)) {
		free(*out);
		*out = NULL;
		return pc_error_set(PC_EINVALID, "pair cache: part '%s' has "
				    "%zu bytes, expected %zu" PIDX_DAMAGED, name, len,
				    x->n * size);
	}
	return rc;
}

int pidx_read_perm(struct pidx *x, const char *name, uint32_t **out)
{
	int rc = pidx_read_array(x, name, (void **)out, sizeof(**out));
	unsigned char *seen;

	if (rc < 0)
		return rc;
	/* a permutation of the points: every entry in range, none twice */
	seen = xcalloc(x->n / 8 + 1, 1);
	for (size_t i = 0; rc == 0 && i < x->n; i++) {
		uint32_t k = (*out)[i];

		if (k >= x->n || (seen[k / 8] & (1u << (k % 8)))) {
			free(*out);
			*out = NULL;
			rc = pc_error_set(PC_EINVALID, "pair cache: part '%s' "
					  "is damaged" PIDX_DAMAGED, name);
		} else {
			seen[k / 8] |= (unsigned char)(1u << (k % 8));
		}
	}
	free(seen);
	return rc;
}

int pidx_load_names(struct pidx *x)
{
	struct pidx_store *st = x->st;
	char pname[16];
	size_t len;
	int rc;

	for (int d = 0; d < PIDX_NAME_PARTS; d++) {
		uint64_t count;
		size_t chars;

		snprintf(pname, sizeof(pname), "names.%d", d);
		if ((rc = pidx_load_part(x, pname, (void **)&st->names[d],
					 &len)) < 0)
			return rc;
		if (len < sizeof(count) + sizeof(uint32_t))
			goto bad;
		memcpy(&count, st->names[d], sizeof(count));
		if (count > (len - sizeof(count)) / sizeof(uint32_t) - 1)
			goto bad;
		st->name_off[d] = (const uint32_t *)(st->names[d] +
						     sizeof(count));
		st->name_chars[d] = (const char *)(st->name_off[d] + count + 1);
		/* offsets rise, stay inside, and every name ends in NUL: a
		 * damaged cache is an error, never a read out of bounds.
		 * Each offset is bounded before its name is read (found by
		 * fuzz_paircache: a middle offset past the end). */
		chars = (size_t)(st->names[d] + len - st->name_chars[d]);
		if (st->name_off[d][0] != 0)
			goto bad;
		for (uint64_t i = 0; i < count; i++)
			if (st->name_off[d][i + 1] <= st->name_off[d][i] ||
			    st->name_off[d][i + 1] > chars ||
			    st->name_chars[d][st->name_off[d][i + 1] - 1])
				goto bad;
		st->name_count[d] = count;
	}
	return 0;
bad:
	return pc_error_set(PC_EINVALID, "pair cache: bad part '%s'" PIDX_DAMAGED,
			    pname);
}

int pidx_check_keys(struct pidx *x)
{
	int64_t max[PIDX_KEY_PARTS] = { -1, -1, -1 };
	int32_t neg = 0;
	double prev = INFINITY;
	int unordered = 0;

	if (!x->st->fl)
		x->st->fl = xmalloc(x->n ? x->n : 1);
	for (size_t i = 0; i < x->n; i++) {
		struct pidx_key *k = &x->keys[i];
		unsigned f = k->flags;
		/* |err| descending, NaN last (as -1): what lets a count of
		 * |err| > limit stop at the first point below it */
		double a = isnan(k->err) ? -1.0 : fabs(k->err);

		/* branch-free: one pass of the open over the 24 MB of keys */
		neg |= k->w | k->o | k->m;
		unordered |= a > prev;
		prev = a;
		max[0] = k->w > max[0] ? k->w : max[0];
		max[1] = k->o > max[1] ? k->o : max[1];
		max[2] = k->m > max[2] ? k->m : max[2];
		/* pidx_basic's flags, a byte a point, while the keys pass
		 * anyway (they do not follow annotations) */
		x->st->fl[i] = (unsigned char)(((f & CORR_INVALID) ? 1 : 0) |
			((f & CORR_NOISY_REF) ? 2 : 0) |
			((f & CORR_SOL_VIOLATION) ? 4 : 0));
		/* the waived bit is the annotations' (pidx_annotations), the
		 * bits above the core's the viewer's (ROWS_FLAG_NEW): both
		 * clear in a fresh index */
		k->flags = f & PIDX_KEY_FLAGS;
	}
	if (neg < 0 || unordered)
		goto bad;
	for (int p = 0; p < PIDX_KEY_PARTS; p++)
		if (x->max_id[p] != max[p])
			goto bad;
	for (int d = 0; d < PIDX_NAME_PARTS; d++)
		if ((int64_t)x->st->name_count[d] <=
		    max[d == PIDX_NAME_OP_CLASS ? PIDX_NAME_OP : d])
			goto bad;
	return 0;
bad:
	return pc_error_set(PC_EINVALID, "pair cache: keys do not match the "
			    "meta or names parts, or are out of order"
			    PIDX_DAMAGED);
}

static const char *name_of(const struct pidx *x, enum pidx_name_part d,
			   int64_t id)
{
	const struct pidx_store *st = x->st;

	if (id < 0 || (uint64_t)id >= st->name_count[d])
		return "";
	return st->name_chars[d] + st->name_off[d][id];
}

int pidx_names_lower(struct pidx *x, enum pidx_name_part part,
		     const char **chars, const uint32_t **off,
		     uint64_t *count)
{
	struct pidx_store *st = x->st;
	size_t len;

	if ((unsigned)part >= PIDX_NAME_PARTS)
		return PC_ENOTFOUND;
	len = st->name_count[part] ? st->name_off[part][st->name_count[part]] :
	      0;
	if (!st->lower[part]) {
		st->lower[part] = xmalloc(len + 1);
		for (size_t i = 0; i < len; i++) {
			char c = st->name_chars[part][i];

			st->lower[part][i] = c >= 'A' && c <= 'Z' ?
					     (char)(c - 'A' + 'a') : c;
		}
		st->lower[part][len] = '\0';
	}
	*chars = st->lower[part];
	*off = st->name_off[part];
	*count = st->name_count[part];
	return 0;
}

const char *pidx_workload(const struct pidx *x, int64_t id)
{
	return name_of(x, PIDX_NAME_WORKLOAD, id);
}

const char *pidx_op(const struct pidx *x, int64_t id)
{
	return name_of(x, PIDX_NAME_OP, id);
}

const char *pidx_metric(const struct pidx *x, int64_t id)
{
	return name_of(x, PIDX_NAME_METRIC, id);
}

const char *pidx_op_class(const struct pidx *x, int64_t id)
{
	return name_of(x, PIDX_NAME_OP_CLASS, id);
}
