/* Per-group statistics (see corrgroup.h). */
#include "src/corrgroup.h"

#include <stdlib.h>
#include <string.h>

#include "src/error.h"
#include "src/hmap.h"
#include "src/strbuf.h"
#include "src/util.h"

static char **sort_keys;

static int key_cmp(const void *a, const void *b)
{
	return strcmp(sort_keys[*(const size_t *)a],
		      sort_keys[*(const size_t *)b]);
}

/* Composite key of each point; gi[i] = its group in first-seen order. */
static int assign(const struct corr_set *s, const char *const *by,
		  size_t nby, size_t *gi, char ***keys, size_t *ng)
{
	struct strbuf sb = STRBUF_INIT;
	struct hmap map;
	char val[512];
	int rc = 0;

	hmap_init(&map);
	*keys = NULL;
	*ng = 0;
	for (size_t i = 0; i < s->n && !rc; i++) {
		int64_t g;

		strbuf_reset(&sb);
		for (size_t k = 0; k < nby && !rc; k++) {
			rc = corr_group_key(s, &s->points[i], by[k], val,
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
	}
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
	size_t *order = NULL, *rank = NULL, *start = NULL;
	struct corr_point *sorted = NULL;
	char **keys = NULL;
	int rc = nby ? assign(s, by, nby, gi, &keys, &ng) : 0;

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
	sorted = xmalloc((s->n + 1) * sizeof(*sorted));
	for (size_t i = 0; i < s->n; i++)
		sorted[start[rank[gi[i]]]++] = s->points[i];
	g.n = ng;
	g.values = xcalloc(ng * nby + 1, sizeof(*g.values));
	g.size = xcalloc(ng + 1, sizeof(*g.size));
	g.stats = xcalloc(ng + 1, sizeof(*g.stats));
	for (size_t r = 0, off = 0; r < ng && !rc; r++) {
		struct corr_set view = *s;

		g.size[r] = start[r] - off;
		view.points = sorted + off;
		view.n = g.size[r];
		split_values(&g, r, keys[order[r]]);
		rc = corr_summary(&g.stats[r], &view, NULL, NULL, skip_waived);
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
