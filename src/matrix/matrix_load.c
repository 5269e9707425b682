/*
 * The matrix's sources and values (see matrix.h): which sources, in tier
 * order and labelled, each read through the correlation core (corr_load
 * of the source against itself: the same filters, pooling, noise and
 * invalid flags as compare), one value per key, cycles turned into time
 * through the run's clock where another source holds time, and the
 * sources chosen by default whose cycles cannot be left out.
 */
#include "src/matrix/matrix_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "db/query.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"

/* Kinds in tier order: the matrix lists sources roofline first. */
static int tier(const char *kind)
{
	static const char *const order[] = { "roofline", "perfsim", "rtl",
		"emulation", "silicon" };

	for (int i = 0; i < 5; i++)
		if (!strcmp(order[i], kind))
			return i;
	return 5;
}

int matrix_every_source(struct db *db, struct spec **out, size_t *n)
{
	struct db_cursor *c;
	int rc, cname = 0, cruns = -1;

	if ((rc = db_list_open(&c, db, DB_LIST_SOURCES, NULL)) < 0)
		return rc;
	for (int i = 0; i < db_cursor_ncols(c); i++) {
		if (!strcmp(db_cursor_name(c, i), "source"))
			cname = i;
		else if (!strcmp(db_cursor_name(c, i), "runs"))
			cruns = i;
	}
	while ((rc = db_cursor_next(c)) > 0) {
		if (cruns >= 0 && db_cursor_int(c, cruns) == 0)
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[*n].spec = xstrdup(db_cursor_text(c, cname));
		(*out)[(*n)++].implicit = 1;
	}
	db_cursor_close(c);
	return rc < 0 ? rc : 0;
}

int matrix_load_source(struct loader *ld, const struct spec *sp)
{
	struct matrix *m = ld->m;
	const struct matrix_opts *o = ld->o;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct matrix_source *ms;
	int rc;

	q.model = q.ref = sp->spec;
	q.no_roofline = 1;	/* the matrix bounds with its own row */
	/* time and cycles convert into each other: filter after that */
	q.metric = o->metric && strcmp(o->metric, "time") &&
		   strcmp(o->metric, "cycles") ? o->metric : NULL;
	q.op_glob = o->op_glob;
	q.workload_glob = o->workload_glob;
	q.workload_globs = o->workload_globs;
	q.where = o->where;
	q.pool = o->pool;
	q.max_ref_cv = o->max_ref_cv;
	if ((rc = corr_load(&s, ld->db, &q)) < 0) {
		if (rc == PC_ENOTFOUND && sp->implicit) {
			m->left_out = xrealloc(m->left_out, (m->nleft + 1) *
					       sizeof(char *));
			m->left_out[m->nleft++] = xasprintf("%s: nothing "
				"matched the filters", sp->spec);
			pc_error_clear();
			return 0;
		}
		return rc;
	}
	for (size_t i = 0; i < m->nsrc; i++)
		if (!strcmp(m->src[i].source, s->model.source) &&
		    !strcmp(m->src[i].version, s->model.version)) {
			corr_set_free(s);
			return pc_error_set(PC_EUSAGE, "source '%s@%s' is "
					    "selected twice", m->src[i].source,
					    m->src[i].version);
		}
	m->src = xrealloc(m->src, (m->nsrc + 1) * sizeof(*m->src));
	m->sets = xrealloc(m->sets, (m->nsrc + 1) * sizeof(*m->sets));
	ms = &m->src[m->nsrc];
	memset(ms, 0, sizeof(*ms));
	ms->source = xstrdup(s->model.source);
	ms->version = xstrdup(s->model.version);
	ms->kind = xstrdup(s->model.kind);
	ms->roofline = !strcmp(ms->kind, "roofline");
	ms->implicit = sp->implicit;
	m->sets[m->nsrc++] = s;
	return 0;
}

static const struct matrix_source *cmp_src;

static int src_order(const void *x, const void *y)
{
	const struct matrix_source *a = &cmp_src[*(const size_t *)x];
	const struct matrix_source *b = &cmp_src[*(const size_t *)y];
	int c = tier(a->kind) - tier(b->kind);

	if (c)
		return c;
	if ((c = strcmp(a->source, b->source)))
		return c;
	return strcmp(a->version, b->version);
}

/* Sources in tier order, labelled. */
void matrix_order_sources(struct matrix *m)
{
	size_t *ix = xmalloc((m->nsrc + 1) * sizeof(*ix));
	struct matrix_source *src = xmalloc((m->nsrc + 1) * sizeof(*src));
	struct corr_set **sets = xmalloc((m->nsrc + 1) * sizeof(*sets));

	for (size_t i = 0; i < m->nsrc; i++)
		ix[i] = i;
	cmp_src = m->src;
	qsort(ix, m->nsrc, sizeof(*ix), src_order);
	for (size_t i = 0; i < m->nsrc; i++) {
		src[i] = m->src[ix[i]];
		sets[i] = m->sets[ix[i]];
	}
	for (size_t i = 0; i < m->nsrc; i++) {
		int twice = 0;

		for (size_t j = 0; j < m->nsrc; j++)
			twice |= j != i && !strcmp(src[i].source,
						   src[j].source);
		src[i].label = twice ? xasprintf("%s@%s", src[i].source,
						 src[i].version) :
				       xstrdup(src[i].source);
	}
	free(m->src);
	free(m->sets);
	m->src = src;
	m->sets = sets;
	free(ix);
}

static void wo_key(struct strbuf *sb, long src, int64_t w, int64_t o)
{
	strbuf_reset(sb);
	if (src >= 0)
		strbuf_addf(sb, "%ld\x1f", src);
	strbuf_addf(sb, "%lld\x1f%lld", (long long)w, (long long)o);
}

void matrix_note_time(struct loader *ld)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ld->m->nsrc; i++) {
		const struct corr_set *s = ld->m->sets[i];

		for (size_t p = 0; p < s->n; p++) {
			if (strcmp(s->points[p].metric, "time"))
				continue;
			wo_key(&sb, -1, s->points[p].workload_id,
			       s->points[p].op_id);
			hmap_put(&ld->has_time, strbuf_str(&sb), 1);
			wo_key(&sb, (long)i, s->points[p].workload_id,
			       s->points[p].op_id);
			hmap_put(&ld->has_time, strbuf_str(&sb), 1);
		}
	}
	strbuf_release(&sb);
}

static double clock_of(const struct db_side *s, int64_t run,
		       const char **file)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i] == run) {
			*file = s->files[i];
			return s->clock_hz[i];
		}
	*file = "?";
	return NAN;
}

/* Source i's point p as a value of its key (cycles become time when
 * another source holds time there and i does not). */
int matrix_add_value(struct loader *ld, size_t i,
		     const struct corr_point *p, struct strbuf *sb)
{
	struct matrix *m = ld->m;
	const char *metric = p->metric, *file;
	double scale = 1;
	int64_t dummy, at;
	struct matrix_key *k;
	struct matrix_val *v;

	if (!strcmp(metric, "cycles")) {
		wo_key(sb, -1, p->workload_id, p->op_id);
		if (hmap_get(&ld->has_time, strbuf_str(sb), &dummy)) {
			wo_key(sb, (long)i, p->workload_id, p->op_id);
			if (!hmap_get(&ld->has_time, strbuf_str(sb), &dummy)) {
				double hz = clock_of(&ld->sides[i],
						     p->model_run, &file);

				if (!(hz > 0))
					return pc_error_set(PC_EINVALID, "run "
						"%lld ('%s') of source '%s' has "
						"no clock: its cycles cannot "
						"pair with time (re-import it "
						"with --clock-mhz, or leave the "
						"source out with --source)",
						(long long)p->model_run, file,
						m->src[i].source);
				scale = 1 / hz;
				metric = "time";
			}
		}
	}
	if (ld->o->metric && strcmp(metric, ld->o->metric))
		return 0;
	strbuf_reset(sb);
	strbuf_addf(sb, "%lld\x1f%lld\x1f%s", (long long)p->workload_id,
		    (long long)p->op_id, metric);
	if (!hmap_get(&ld->keys, strbuf_str(sb), &at)) {
		if (m->nkeys == ld->cap) {
			ld->cap = ld->cap ? 2 * ld->cap : 64;
			m->keys = xrealloc(m->keys, ld->cap * sizeof(*m->keys));
		}
		at = (int64_t)m->nkeys++;
		k = &m->keys[at];
		memset(k, 0, sizeof(*k));
		k->workload = p->workload;
		k->op = p->op;
		k->metric = !strcmp(metric, "time") ? "time" : p->metric;
		k->workload_id = p->workload_id;
		k->op_id = p->op_id;
		k->vals = xcalloc(m->nsrc, sizeof(*k->vals));
		k->odd = k->tol_src = -1;
		k->spread = NAN;
		hmap_put(&ld->keys, strbuf_str(sb), at);
	}
	if (scale == 1)
		m->keys[at].metric_id = p->metric_id;
	v = &m->keys[at].vals[i];
	v->v = p->ref * scale;
	v->sd = p->ref_sd * scale;
	v->run = p->ref_run;
	v->state = p->flags & CORR_INVALID ? MV_INVALID : MV_OK;
	v->noisy = (p->flags & CORR_NOISY_REF) != 0;
	v->converted = scale != 1;
	if (v->state == MV_OK)
		m->src[i].nkeys++;
	return 0;
}

/* 1 when source i holds cycles that must become time and the run has no
 * clock; sb receives why. */
static int clock_trouble(struct loader *ld, size_t i, struct strbuf *sb)
{
	const struct corr_set *s = ld->m->sets[i];
	int64_t dummy;
	const char *file;

	for (size_t p = 0; p < s->n; p++) {
		const struct corr_point *pt = &s->points[p];

		if (strcmp(pt->metric, "cycles"))
			continue;
		wo_key(sb, -1, pt->workload_id, pt->op_id);
		if (!hmap_get(&ld->has_time, strbuf_str(sb), &dummy))
			continue;
		wo_key(sb, (long)i, pt->workload_id, pt->op_id);
		if (hmap_get(&ld->has_time, strbuf_str(sb), &dummy) ||
		    clock_of(&ld->sides[i], pt->model_run, &file) > 0)
			continue;
		strbuf_reset(sb);
		strbuf_addf(sb, "%s: run %lld ('%s') has no clock: its cycles "
			    "cannot pair with time (re-import it with "
			    "--clock-mhz)", ld->m->src[i].source,
			    (long long)pt->model_run, file);
		return 1;
	}
	return 0;
}

/* Sources chosen by default whose cycles cannot become time are left
 * out (named in left_out); a named one stays and matrix_add_value
 * refuses. */
void matrix_drop_clockless(struct loader *ld, struct strbuf *sb)
{
	struct matrix *m = ld->m;
	int again = 1;

	while (again) {
		again = 0;
		for (size_t i = 0; i < m->nsrc; i++) {
			if (!m->src[i].implicit || !clock_trouble(ld, i, sb))
				continue;
			m->left_out = xrealloc(m->left_out, (m->nleft + 1) *
					       sizeof(char *));
			m->left_out[m->nleft++] = strbuf_detach(sb);
			free(m->src[i].label);
			free(m->src[i].source);
			free(m->src[i].version);
			free(m->src[i].kind);
			corr_set_free(m->sets[i]);
			db_side_release(&ld->sides[i]);
			m->nsrc--;
			memmove(&m->src[i], &m->src[i + 1],
				(m->nsrc - i) * sizeof(*m->src));
			memmove(&m->sets[i], &m->sets[i + 1],
				(m->nsrc - i) * sizeof(*m->sets));
			memmove(&ld->sides[i], &ld->sides[i + 1],
				(m->nsrc - i) * sizeof(*ld->sides));
			hmap_release(&ld->has_time);
			hmap_init(&ld->has_time);
			matrix_note_time(ld);
			again = 1;
			break;
		}
	}
}
