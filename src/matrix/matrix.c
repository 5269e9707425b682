/*
 * The disagreement matrix (see matrix.h): every selected source read
 * through the correlation core (corr_load of the source against itself:
 * the same filters, pooling, noise and invalid flags as compare), one
 * value per key, then the cells and the classification.
 */
#include "src/matrix/matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "db/query.h"
#include "src/corr/annot.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"
#include "src/corr/correlate.h"
#include "src/stats/stats_lin.h"

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

struct spec {
	char *spec;
	int implicit;
};

static int every_source(struct db *db, struct spec **out, size_t *n)
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

/* Private load state. */
struct loader {
	struct matrix *m;
	const struct matrix_opts *o;
	struct db *db;
	struct db_side *sides;		/* clocks of each source's runs */
	struct hmap keys;		/* "w\x1fo\x1fmetric" -> key index */
	struct hmap has_time;		/* "w\x1fo" and "i\x1fw\x1fo" */
	size_t cap;
	struct db_name *metrics;	/* for units and directions */
	size_t nmetrics;
};

static int load_source(struct loader *ld, const struct spec *sp)
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
static void order_sources(struct matrix *m)
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

static void note_time(struct loader *ld)
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
static int add_value(struct loader *ld, size_t i, const struct corr_point *p,
		     struct strbuf *sb)
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

static const struct db_name *metric_info(const struct loader *ld,
					 const char *name)
{
	for (size_t i = 0; i < ld->nmetrics; i++)
		if (!strcmp(ld->metrics[i].name, name))
			return &ld->metrics[i];
	return NULL;
}

/* A roofline bounds times (from below) and rates (from above). */
static int sol_violation(const struct db_name *mt, double roof, double v)
{
	return mt && matrix_sol_bounds(mt->extra) &&
	       corr_roof_beats(v, roof, mt->higher);
}

static int all_ok(const struct matrix_key *k, size_t nsrc)
{
	for (size_t i = 0; i < nsrc; i++)
		if (k->vals[i].state != MV_OK)
			return 0;
	return 1;
}

static int cell_compute(struct matrix_cell *c, struct matrix *m,
			 const struct matrix_key *k, size_t nk,
			 const struct db_name *mt, size_t i, size_t j,
			 double *a, double *b, double *sd)
{
	long noisy = 0;
	size_t n = 0;
	int rc;

	c->keys = 0;
	for (size_t x = 0; x < nk; x++) {
		const struct matrix_val *vi = &k[x].vals[i], *vj = &k[x].vals[j];

		if (m->opts.pairwise_keys ? vi->state != MV_OK ||
		    vj->state != MV_OK : !all_ok(&k[x], m->nsrc))
			continue;
		if (matrix_fp_refused(m, c, i, j, vi, vj))
			continue;	/* not comparable (issue 37) */
		c->keys++;
		if (vj->noisy) {
			noisy++;
			continue;
		}
		a[n] = vi->v;
		b[n] = vj->v;
		sd[n++] = vj->sd;
	}
	if ((rc = stats_compute(&c->s, a, b, sd, n)) < 0)
		return rc;
	c->s.excluded_noisy = noisy;
	/* a roofline row or column: the fraction of speed of light on the
	 * keys both hold, its violations the cell's */
	matrix_sol_cell(&c->sol, m, k, nk, mt ? mt->extra : NULL,
			mt ? mt->higher : 0, i, j);
	c->s.sol_violations = c->sol.violations;
	c->ccc = stats_lin_ccc(a, b, n);
	c->ccc_log = stats_lin_ccc_log(a, b, n);
	c->ccc_why = isnan(c->ccc) ? stats_lin_why(a, b, n, 0) : NULL;
	c->ccc_log_why = isnan(c->ccc_log) ? stats_lin_why(a, b, n, 1) : NULL;
	return 0;
}

static void add_skipped(struct matrix *m, const char *metric,
			const struct matrix_key *k, size_t nk)
{
	size_t held = 0;

	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t x = 0; x < nk; x++)
			if (k[x].vals[i].state == MV_OK) {
				held++;
				break;
			}
	if (held < 2)
		return;		/* one source's own metric: nothing to compare */
	m->skipped = xrealloc(m->skipped, (m->nskipped + 1) * sizeof(char *));
	m->skipped[m->nskipped++] = xasprintf("metric %s: no key held by "
		"all %zu sources (%zu hold the metric): --pairwise-keys "
		"compares each pair on its own keys", metric, m->nsrc, held);
}

static int build_cells(struct loader *ld)
{
	struct matrix *m = ld->m;
	size_t ns = m->nsrc;
	double *a = xmalloc((m->nkeys + 1) * sizeof(double));
	double *b = xmalloc((m->nkeys + 1) * sizeof(double));
	double *sd = xmalloc((m->nkeys + 1) * sizeof(double));
	int rc = 0;

	for (size_t x = 0; x < m->nkeys && !rc;) {
		size_t y = x, common = 0;
		struct matrix_metric *mm;
		const struct db_name *mt = metric_info(ld, m->keys[x].metric);
		long any = 0;

		while (y < m->nkeys && !strcmp(m->keys[y].metric,
					       m->keys[x].metric))
			y++;
		for (size_t z = x; z < y; z++)
			common += all_ok(&m->keys[z], ns);
		m->metrics = xrealloc(m->metrics, (m->nmetrics + 1) *
				      sizeof(*m->metrics));
		mm = &m->metrics[m->nmetrics];
		mm->metric = xstrdup(m->keys[x].metric);
		mm->ncommon = common;
		mm->cells = xcalloc(ns * ns, sizeof(*mm->cells));
		for (size_t i = 0; i < ns; i++)
			for (size_t j = 0; j < ns; j++) {
				if (i == j || rc)
					continue;
				rc = cell_compute(&mm->cells[i * ns + j], m,
						  &m->keys[x], y - x, mt, i, j,
						  a, b, sd);
				any += mm->cells[i * ns + j].keys +
				       mm->cells[i * ns + j].refused;
			}
		if (any && !rc)
			m->nmetrics++;
		else {
			add_skipped(m, mm->metric, &m->keys[x], y - x);
			free(mm->metric);
			free(mm->cells);
		}
		x = y;
	}
	free(a);
	free(b);
	free(sd);
	return rc;
}

/* The roofline's violations beside a key: "archsim, h100-lab". */
static void key_sol(struct loader *ld, struct matrix_key *k)
{
	const struct matrix *m = ld->m;
	const struct db_name *mt = metric_info(ld, k->metric);
	struct strbuf sb = STRBUF_INIT;

	k->sol_by = xcalloc(m->nsrc, 1);
	for (size_t r = 0; r < m->nsrc; r++) {
		if (!m->src[r].roofline || k->vals[r].state != MV_OK)
			continue;
		for (size_t i = 0; i < m->nsrc; i++)
			if (!m->src[i].roofline && k->vals[i].state == MV_OK &&
			    sol_violation(mt, k->vals[r].v, k->vals[i].v) &&
			    !k->sol_by[i]++)
				strbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
					    m->src[i].label);
	}
	k->sol = sb.len ? strbuf_detach(&sb) : NULL;
	strbuf_release(&sb);
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
 * out (named in left_out); a named one stays and add_value refuses. */
static void drop_clockless(struct loader *ld, struct strbuf *sb)
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
			note_time(ld);
			again = 1;
			break;
		}
	}
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
		note_time(ld);
		drop_clockless(ld, &sb);
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
			rc = add_value(ld, i, &m->sets[i]->points[p], &sb);
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
		key_sol(ld, k);
		key_annotation(m, k);
	}
	return build_cells(ld);
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
		rc = every_source(db, &specs, &nspec);
	}
	for (size_t i = 0; i < nspec && !rc; i++)
		rc = load_source(&ld, &specs[i]);
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
		order_sources(m);
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
