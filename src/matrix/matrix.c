/*
 * The disagreement matrix (see matrix.h): every selected source read
 * through the correlation core (corr_load of the source against itself:
 * the same filters, pooling, noise and invalid flags as compare), one
 * value per key, then the cells and the classification. matrix_build
 * orders the steps; the sources and values are matrix_load.c's, the
 * cells matrix_cells.c's (matrix_int.h).
 */
#include "src/matrix/matrix_int.h"

#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "src/corr/annot.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"

static int key_cmp(const void *x, const void *y)
{
	const struct matrix_key *a = x, *b = y;
	int c = strcmp(a->metric, b->metric);

	if (c)
		return c;
	if ((c = strcmp(a->workload, b->workload)))
		return c;
	return strcmp(a->op, b->op);
}

/* The newest annotation among those naming the key for the odd source
 * (or any), or any ordered pair of the key's sources. */
static void key_annotation(struct matrix *m, struct matrix_key *k)
{
	const struct annot *best;

	best = annot_index_find(m->annots, k->workload, k->op, k->metric,
				k->odd >= 0 ? m->src[k->odd].source : NULL,
				NULL);
	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t j = 0; j < m->nsrc; j++) {
			const struct annot *a;

			if (i == j || k->vals[i].state != MV_OK ||
			    k->vals[j].state != MV_OK)
				continue;
			a = annot_index_find(m->annots, k->workload, k->op,
					     k->metric, m->src[i].source,
					     m->src[j].source);
			if (a && (!best || a->id > best->id))
				best = a;
		}
	k->ann = best;
}

static int build(struct loader *ld)
{
	struct matrix *m = ld->m;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	ld->sides = xcalloc(m->nsrc + 1, sizeof(*ld->sides));
	for (size_t i = 0; i < m->nsrc && !rc; i++)
		rc = db_pairs_side(ld->db, m->src[i].source, m->src[i].version,
				   &ld->sides[i]);
	if (!rc)
		rc = db_pairs_names(ld->db, DB_DICT_METRICS, &ld->metrics,
				    &ld->nmetrics);
	if (!rc) {
		matrix_note_time(ld);
		matrix_drop_clockless(ld, &sb);
		if (m->nsrc < 2)
			rc = pc_error_set(PC_ENOTFOUND, "a matrix needs two "
					  "sources that hold results; left "
					  "out: %s", m->nleft ?
					  m->left_out[m->nleft - 1] : "-");
	}
	if (!rc)
		rc = matrix_fp_load(m, ld->db);
	for (size_t i = 0; i < m->nsrc && !rc; i++)
		for (size_t p = 0; p < m->sets[i]->n && !rc; p++)
			rc = matrix_add_value(ld, i, &m->sets[i]->points[p], &sb);
	strbuf_release(&sb);
	if (rc)
		return rc;
	if (m->nkeys)
		qsort(m->keys, m->nkeys, sizeof(*m->keys), key_cmp);
	if ((rc = annot_index_load(&m->annots, ld->db)) < 0)
		return rc;
	for (size_t x = 0; x < m->nkeys; x++) {
		struct matrix_key *k = &m->keys[x];

		if (matrix_fp_key(m, k))
			continue;	/* not comparable: never classified */
		matrix_classify(k, m->src, m->nsrc, m->opts.tolerance);
		if (k->pattern == MP_NONE)
			continue;
		m->counts[k->pattern]++;
		matrix_key_sol(ld, k);
		key_annotation(m, k);
	}
	return matrix_build_cells(ld);
}

int matrix_build(struct matrix **out, struct db *db,
		 const struct matrix_opts *o)
{
	struct matrix *m = xcalloc(1, sizeof(*m));
	struct loader ld;
	struct spec *specs = NULL;
	size_t nspec = 0;
	int rc = 0;

	memset(&ld, 0, sizeof(ld));
	ld.m = m;
	ld.o = o;
	ld.db = db;
	m->opts = *o;
	hmap_init(&ld.keys);
	hmap_init(&ld.has_time);
	if (!(o->tolerance >= 0))
		rc = pc_error_set(PC_EUSAGE, "the tolerance must be >= 0");
	if (!rc && o->sources && o->sources[0]) {
		for (const char *const *s = o->sources; *s; s++) {
			specs = xrealloc(specs, (nspec + 1) * sizeof(*specs));
			specs[nspec].spec = xstrdup(*s);
			specs[nspec++].implicit = 0;
		}
	} else if (!rc) {
		rc = matrix_every_source(db, &specs, &nspec);
	}
	for (size_t i = 0; i < nspec && !rc; i++)
		rc = matrix_load_source(&ld, &specs[i]);
	if (!rc && m->nsrc < 2)
		rc = pc_error_set(PC_ENOTFOUND, "a matrix needs two sources "
				  "that hold results; %zu %s%s", m->nsrc,
				  m->nsrc == 1 ? "does" : "do",
				  o->metric || o->op_glob || o->workload_glob ||
				  (o->workload_globs && *o->workload_globs) ||
				  (o->where && *o->where) ? " (after the "
				  "--metric/--op/--workload/--where filters)" :
				  "");
	if (!rc) {
		matrix_order_sources(m);
		rc = build(&ld);
	}
	for (size_t i = 0; i < nspec; i++)
		free(specs[i].spec);
	free(specs);
	if (ld.sides)
		for (size_t i = 0; i < m->nsrc; i++)
			db_side_release(&ld.sides[i]);
	free(ld.sides);
	db_names_free(ld.metrics, ld.nmetrics);
	hmap_release(&ld.keys);
	hmap_release(&ld.has_time);
	if (rc) {
		matrix_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

void matrix_free(struct matrix *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nkeys; i++)
		matrix_key_release(&m->keys[i]);
	free(m->keys);
	for (size_t i = 0; i < m->nmetrics; i++) {
		free(m->metrics[i].metric);
		free(m->metrics[i].cells);
		free(m->metrics[i].absent);
	}
	free(m->metrics);
	for (size_t i = 0; i < m->nsrc; i++) {
		free(m->src[i].label);
		free(m->src[i].source);
		free(m->src[i].version);
		free(m->src[i].kind);
		corr_set_free(m->sets[i]);
	}
	free(m->src);
	free(m->sets);
	for (size_t i = 0; i < m->nleft; i++)
		free(m->left_out[i]);
	free(m->left_out);
	for (size_t i = 0; i < m->nskipped; i++)
		free(m->skipped[i]);
	free(m->skipped);
	annot_index_free(m->annots);
	matrix_fp_free(m->fp);
	free(m->not_comparable_why);
	free(m);
}

const struct matrix_cell *matrix_cell(const struct matrix *m, size_t mi,
				      size_t i, size_t j)
{
	return &m->metrics[mi].cells[i * m->nsrc + j];
}
