/* Per-group statistics (see corrgroup.h). */
#include "src/corr/corrgroup.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

static char **sort_keys;

/* A whole field (up to the \x1f) that reads as a number: its value. */
static int field_num(const char *s, double *v)
{
	char *end;

	if (!*s || *s == '\x1f' || isspace((unsigned char)*s))
		return 0;
	*v = strtod(s, &end);
	return end != s && (*end == '\x1f' || !*end) && isfinite(*v);
}

/* Composite keys field by field: two numbers numerically (bs 1, 8, 32,
 * not 1, 32, 8), a number before text, text bytewise, an empty value
 * (the parameter is absent) last. */
static int key_cmp(const void *a, const void *b)
{
	const char *x = sort_keys[*(const size_t *)a];
	const char *y = sort_keys[*(const size_t *)b];

	while (*x && *y) {
		size_t nx = strcspn(x, "\x1f"), ny = strcspn(y, "\x1f");
		double u = 0, v = 0;
		int hx = field_num(x, &u), hy = field_num(y, &v), c;

		if (!nx != !ny)
			return nx ? -1 : 1;
		if (hx && hy && u != v)
			return u < v ? -1 : 1;
		if (hx != hy)
			return hx ? -1 : 1;
		c = memcmp(x, y, nx < ny ? nx : ny);
		if (c || nx != ny)
			return c ? c : nx < ny ? -1 : 1;
		x += nx + (x[nx] != 0);
		y += ny + (y[ny] != 0);
	}
	return strcmp(x, y);
}

/* The id a single key's value follows (so it is found once per id), or
 * -1: op and op_class by op, metric by metric, workload and param.X by
 * workload. */
enum key_by { BY_OTHER, BY_OP, BY_METRIC, BY_WORKLOAD };

static enum key_by key_by(const char *by)
{
	if (!strcmp(by, "op") || !strcmp(by, "op_class"))
		return BY_OP;
	if (!strcmp(by, "metric"))
		return BY_METRIC;
	if (!strcmp(by, "workload") || !strncmp(by, "param.", 6))
		return BY_WORKLOAD;
	return BY_OTHER;
}

static int64_t key_id(const struct corr_set *s, size_t i, enum key_by by)
{
	int64_t w, o, m;

	if (s->points) {
		const struct corr_point *p = &s->points[i];

		return by == BY_OP ? p->op_id : by == BY_METRIC ?
		       p->metric_id : by == BY_WORKLOAD ? p->workload_id : -1;
	}
	corr_point_ids(s, i, &w, &o, &m);
	return by == BY_OP ? o : by == BY_METRIC ? m :
	       by == BY_WORKLOAD ? w : -1;
}

/* Composite key of each point; gi[i] = its group in first-seen order. */
static int assign(const struct corr_set *s, const char *const *by,
		  size_t nby, size_t *gi, char ***keys, size_t *ng)
{
	struct strbuf sb = STRBUF_INIT;
	struct hmap map;
	char val[512];
	int64_t max = -1, *memo = NULL;
	enum key_by kb = nby == 1 ? key_by(by[0]) : BY_OTHER;
	int rc = 0;

	/* one key whose value follows an id: memoise the group per id */
	for (size_t i = 0; kb != BY_OTHER && i < s->n; i++) {
		int64_t id = key_id(s, i, kb);

		if (id < 0 || id > (int64_t)(4 * s->n + 1024)) {
			max = -1;
			break;
		}
		max = id > max ? id : max;
	}
	if (max >= 0) {
		memo = xmalloc((size_t)(max + 1) * sizeof(*memo));
		for (int64_t id = 0; id <= max; id++)
			memo[id] = -1;
	}
	hmap_init(&map);
	*keys = NULL;
	*ng = 0;
	for (size_t i = 0; i < s->n && !rc; i++) {
		int64_t g, id = memo ? key_id(s, i, kb) : -1;

		if (memo && memo[id] >= 0) {
			gi[i] = (size_t)memo[id];
			continue;
		}

		strbuf_reset(&sb);
		for (size_t k = 0; k < nby && !rc; k++) {
			rc = corr_group_key_at(s, i, by[k], val,
					       sizeof(val));
			if (rc)		/* val is unset (found by valgrind) */
				break;
			strbuf_addstr(&sb, val);
			strbuf_addch(&sb, '\x1f');
		}
		if (rc)
			break;
		if (!hmap_get(&map, strbuf_str(&sb), &g)) {
			g = (int64_t)(*ng)++;
			*keys = xrealloc(*keys, *ng * sizeof(**keys));
			(*keys)[g] = xstrdup(strbuf_str(&sb));
			hmap_put(&map, strbuf_str(&sb), g);
		}
		gi[i] = (size_t)g;
		if (memo)
			memo[id] = g;
	}
	free(memo);
	hmap_release(&map);
	strbuf_release(&sb);
	return rc;
}

static void split_values(struct corrgroup *g, size_t slot, const char *key)
{
	for (size_t k = 0; k < g->nby; k++) {
		const char *end = strchr(key, '\x1f');

		g->values[slot * g->nby + k] = xstrndup(key,
							(size_t)(end - key));
		key = end + 1;
	}
}

int corrgroup_build(struct corrgroup *out, const struct corr_set *s,
		    const char *const *by, size_t nby, int skip_waived)
{
	struct corrgroup g = { 0, nby, NULL, NULL, NULL };
	size_t *gi = xmalloc((s->n + 1) * sizeof(*gi)), ng = 0;
	size_t *order = NULL, *rank = NULL, *start = NULL, *sorted = NULL;
	char **keys = NULL;
	int rc = 0;

	for (size_t k = 0; k < nby && !rc; k++)
		rc = corr_check_key(s, by[k]);
	if (!rc && nby)
		rc = assign(s, by, nby, gi, &keys, &ng);

	if (rc || nby == 0)
		goto done;
	/* groups sorted by key; rank[group] = position */
	order = xmalloc((ng + 1) * sizeof(*order));
	rank = xmalloc((ng + 1) * sizeof(*rank));
	start = xcalloc(ng + 2, sizeof(*start));
	for (size_t i = 0; i < ng; i++)
		order[i] = i;
	sort_keys = keys;
	qsort(order, ng, sizeof(*order), key_cmp);
	for (size_t i = 0; i < ng; i++)
		rank[order[i]] = i;
	/* counting sort of the points by group rank, stable */
	for (size_t i = 0; i < s->n; i++)
		start[rank[gi[i]] + 1]++;
	for (size_t i = 0; i < ng; i++)
		start[i + 1] += start[i];
	/* indices, not copies of the points (160 bytes each) */
	sorted = xmalloc((s->n + 1) * sizeof(*sorted));
	for (size_t i = 0; i < s->n; i++)
		sorted[start[rank[gi[i]]]++] = i;
	g.n = ng;
	g.values = xcalloc(ng * nby + 1, sizeof(*g.values));
	g.size = xcalloc(ng + 1, sizeof(*g.size));
	g.stats = xcalloc(ng + 1, sizeof(*g.stats));
	for (size_t r = 0, off = 0; r < ng && !rc; r++) {
		g.size[r] = start[r] - off;
		split_values(&g, r, keys[order[r]]);
		rc = corr_summary_idx(&g.stats[r], s, sorted + off, g.size[r],
				      skip_waived);
		off = start[r];
	}
done:
	for (size_t i = 0; i < ng; i++)
		free(keys[i]);
	free(keys);
	free(gi);
	free(order);
	free(rank);
	free(start);
	free(sorted);
	if (rc)
		corrgroup_release(&g);
	else
		*out = g;
	return rc;
}

void corrgroup_release(struct corrgroup *g)
{
	for (size_t i = 0; g->values && i < g->n * g->nby; i++)
		free(g->values[i]);
	free(g->values);
	free(g->size);
	free(g->stats);
	memset(g, 0, sizeof(*g));
}
