/* Accuracy against cost per tier (see tiers.h). */
#include "src/gate/tiers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/db.h"
#include "db/query.h"
#include "db/runinfo.h"
#include "src/corr/corr_subset.h"
#include "src/corr/correlate.h"
#include "src/gate/gate.h"
#include "src/gate/policy.h"

int tiers_rank(const char *kind)
{
	static const char *const ladder[] = { "roofline", "perfsim", "rtl",
					      "emulation", "silicon" };

	for (int i = 0; i < 5; i++)
		if (kind && !strcmp(kind, ladder[i]))
			return i;
	return 5;
}

const char *tiers_status_name(enum tiers_status s)
{
	return s == TIERS_MEETS ? "meets" : s == TIERS_FAILS ? "fails" :
	       s == TIERS_UNKNOWN ? "unknown" : s == TIERS_BOUND ? "bound" :
	       "-";
}

/* The runs' costs, read once each. */
struct runcost {
	double cost;		/* NaN: none recorded */
	const char *unit;	/* static */
	long nwl;		/* workloads of the run */
};

struct costs {
	struct db *db;
	struct hmap idx;	/* run id -> index */
	struct runcost *r;
	size_t n;
};

static const char *unit_static(const char *u)
{
	static const char *const units[] = { "s", "core-h", "emu-h", "gpu-h" };

	for (size_t i = 0; u && i < 4; i++)
		if (!strcmp(u, units[i]))
			return units[i];
	return NULL;
}

static int run_cost(struct costs *c, int64_t id, const struct runcost **out)
{
	struct runinfo *ri;
	struct runcost *r;
	char key[32];
	int64_t at;
	int rc;

	snprintf(key, sizeof(key), "%lld", (long long)id);
	if (hmap_get(&c->idx, key, &at)) {
		*out = &c->r[at];
		return 0;
	}
	if ((rc = db_runinfo_get(c->db, &id, 1, &ri)) < 0)
		return rc;
	c->r = xrealloc(c->r, (c->n + 1) * sizeof(*c->r));
	r = &c->r[c->n];
	r->unit = unit_static(ri->cost_unit);
	r->cost = r->unit ? ri->cost : NAN;
	db_runinfo_free(ri, 1);
	if ((rc = db_run_workloads(c->db, id, &r->nwl)) < 0)
		return rc;
	hmap_put(&c->idx, key, (int64_t)c->n++);
	*out = r;
	return 0;
}

/* A cost being summed: each (workload, run) once. */
struct acc {
	struct hmap seen, runs;
	double sum;
	long k;
	struct tiers_cost out;
};

static void acc_init(struct acc *a)
{
	memset(a, 0, sizeof(*a));
	hmap_init(&a->seen);
	hmap_init(&a->runs);
}

static int acc_add(struct acc *a, struct costs *c, int64_t wid, int64_t run)
{
	const struct runcost *r;
	char key[48];
	int64_t v;
	int rc;

	snprintf(key, sizeof(key), "%lld:%lld", (long long)wid,
		 (long long)run);
	if (hmap_get(&a->seen, key, &v))
		return 0;
	hmap_put(&a->seen, key, 1);
	if ((rc = run_cost(c, run, &r)) < 0)
		return rc;
	snprintf(key, sizeof(key), "%lld", (long long)run);
	if (!hmap_get(&a->runs, key, &v)) {
		hmap_put(&a->runs, key, 1);
		a->out.runs++;
		a->out.uncosted += isnan(r->cost);
	}
	if (isnan(r->cost))
		return 0;
	if (a->out.unit && strcmp(a->out.unit, r->unit))
		a->out.mixed = 1;
	a->out.unit = r->unit;
	a->sum += r->cost / (double)(r->nwl > 0 ? r->nwl : 1);
	a->k++;
	return 0;
}

static void acc_finish(struct acc *a, struct tiers_cost *out)
{
	*out = a->out;
	out->per_workload = a->k && !a->out.uncosted && !a->out.mixed ?
			    a->sum / (double)a->k : NAN;
	if (out->mixed)
		out->unit = NULL;
	hmap_release(&a->seen);
	hmap_release(&a->runs);
}

/* The kind of a source (NULL when unknown; caller frees). */
static int source_kind(struct db *db, const char *source, char **kind)
{
	struct db_cursor *c;
	int rc, ck = 1;

	*kind = NULL;
	if ((rc = db_list_open(&c, db, DB_LIST_SOURCES, NULL)) < 0)
		return rc;
	for (int i = 0; i < db_cursor_ncols(c); i++)
		if (!strcmp(db_cursor_name(c, i), "kind"))
			ck = i;
	while ((rc = db_cursor_next(c)) > 0)
		if (!*kind && !strcmp(db_cursor_text(c, 0), source))
			*kind = xstrdup(db_cursor_text(c, ck));
	db_cursor_close(c);
	return rc < 0 ? rc : 0;
}

/* Every source with runs ranked below rank, by rank then name. */
static int below(struct db *db, int rank, char ***out, size_t *n)
{
	struct db_cursor *c;
	int rc, ck = 1, cr = -1;

	if ((rc = db_list_open(&c, db, DB_LIST_SOURCES, NULL)) < 0)
		return rc;
	for (int i = 0; i < db_cursor_ncols(c); i++) {
		if (!strcmp(db_cursor_name(c, i), "kind"))
			ck = i;
		else if (!strcmp(db_cursor_name(c, i), "runs"))
			cr = i;
	}
	while ((rc = db_cursor_next(c)) > 0) {
		if ((cr >= 0 && db_cursor_int(c, cr) == 0) ||
		    tiers_rank(db_cursor_text(c, ck)) >= rank)
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = xstrdup(db_cursor_text(c, 0));
	}
	db_cursor_close(c);
	return rc < 0 ? rc : 0;
}

static int tier_cmp(const void *a, const void *b)
{
	const struct tiers_tier *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->source, y->source);
}

static int load_tier(struct tiers_tier *t, struct db *db, const char *spec,
		     const struct tiers_opts *o, const char *ref)
{
	struct corr_query q = CORR_QUERY_INIT;
	char *src = NULL, *ver = NULL, *kind = NULL;
	int rc;

	corr_parse_side(spec, &src, &ver);
	rc = source_kind(db, src, &kind);
	free(src);
	free(ver);
	if (rc < 0)
		return rc;
	/* a roofline is graded as a bound: the core flags the pairs whose
	 * reference beats it (the pairing's own roofline side); another
	 * tier is a prediction, compared with the reference alone */
	q.no_roofline = tiers_rank(kind) != 0;
	free(kind);
	q.model = spec;
	q.ref = ref;
	q.metric = o->metric;
	if (o->policy)
		q.max_ref_cv = o->policy->max_ref_cv;
	q.allow_mismatch = o->allow_mismatch ? o->allow_mismatch :
			   o->policy ? (const char *const *)
			   o->policy->allow_mismatch : NULL;
	rc = corr_load(&t->set, db, &q);
	/* nothing paired, or refused (not comparable, cycles without a
	 * clock): the tier is left out, saying why */
	if (rc == PC_ENOTFOUND || rc == PC_EINVALID) {
		t->why = xstrdup(pc_error_last());
		pc_error_clear();
		t->set = NULL;
		corr_parse_side(spec, &t->source, &t->version);
		rc = source_kind(db, t->source, &t->kind);
		t->rank = tiers_rank(t->kind);
		return rc;
	}
	if (rc < 0)
		return rc;
	t->source = xstrdup(t->set->model.source);
	t->version = xstrdup(t->set->model.version);
	t->kind = xstrdup(t->set->model.kind);
	t->rank = tiers_rank(t->kind);
	return 0;
}

struct clsel {
	const int *cls;
	const struct corr_point *base;
	int want;
};

static int keep_class(const struct corr_point *p, void *arg)
{
	const struct clsel *c = arg;

	return c->cls[p - c->base] == c->want;
}

static void add_why(struct strbuf *sb, const char *rule, const char *what,
		    const struct gate_check *c)
{
	if (sb->len)
		strbuf_addstr(sb, "; ");
	strbuf_addf(sb, "%s%s", rule, what);
	if (c)
		gate_check_text(c, sb);
}

/* The cell's status under the policy: the gate's rules on the class's
 * points, each check that applies to a tier (no release history). */
static int judge(struct tiers_cell *cell, const struct policy *p,
		 const struct corr_set *sub, long min_points)
{
	struct gate_result *g;
	struct strbuf why = STRBUF_INIT;
	int fails = 0, unknown = 0, applied = 0, rc;

	if ((rc = gate_evaluate(&g, p, sub, NULL, NULL, 0)) < 0)
		return rc;
	for (size_t i = 0; i < g->nrules; i++) {
		const struct gate_rule_result *rr = &g->rules[i];
		char rule[160];

		if (rr->nselected == 0)
			continue;
		applied = 1;
		snprintf(rule, sizeof(rule), "%s: ", rr->rule->name);
		for (int k = 0; k < rr->nchecks; k++) {
			const struct gate_check *c = &rr->checks[k];

			if (c->lim == PL_MAX_MAPE_INCREASE ||
			    c->lim == PL_MAX_ABS_ERR_INCREASE || c->na)
				continue;	/* a release's, not a tier's */
			if (c->lim == PL_MIN_PAIRS && c->failed) {
				unknown = 1;
				add_why(&why, rule, "too few points to decide: ",
					c);
			} else if (c->failed && isnan(c->value)) {
				unknown = 1;
				add_why(&why, rule, "", c);
			} else if (c->failed) {
				fails += rr->rule->severity == POLICY_FAIL;
				add_why(&why, rule, rr->rule->severity ==
					POLICY_FAIL ? "" : "warn: ", c);
			} else if (c->unknown) {
				unknown = 1;
				add_why(&why, rule, "", c);
			}
		}
	}
	gate_result_free(g);
	cell->status = !applied ? TIERS_NOLIMIT : fails ? TIERS_FAILS :
		       unknown ? TIERS_UNKNOWN : TIERS_MEETS;
	if (applied && cell->sum.n < min_points) {
		cell->status = TIERS_UNKNOWN;
		strbuf_reset(&why);
		strbuf_addf(&why, "too few points to decide: %ld < %ld",
			    cell->sum.n, min_points);
	}
	cell->why = why.len ? strbuf_detach(&why) : NULL;
	strbuf_release(&why);
	return 0;
}

static int cell_build(struct tiers_cell *cell, struct costs *costs,
		      const struct corr_set *s, struct clsel *sel,
		      const struct tiers_opts *o, long min_points,
		      struct acc *ref, const char *bound)
{
	struct corr_set sub;
	struct acc a;
	int rc;

	if ((rc = corr_subset(&sub, s, keep_class, sel)) < 0)
		return rc;
	cell->npoints = (long)sub.n;
	acc_init(&a);
	for (size_t i = 0; i < sub.n && !rc; i++) {
		rc = acc_add(&a, costs, sub.points[i].workload_id,
			     sub.points[i].model_run);
		if (!rc)
			rc = acc_add(ref, costs, sub.points[i].workload_id,
				     sub.points[i].ref_run);
	}
	acc_finish(&a, &cell->cost);
	if (!rc && sub.n)
		rc = corr_summary(&cell->sum, &sub, NULL, NULL, 0);
	if (!rc && sub.n && bound)
		tiers_grade_bound(cell, &sub, bound);
	else if (!rc && sub.n && o->policy)
		rc = judge(cell, o->policy, &sub, min_points);
	corr_subset_release(&sub);
	return rc;
}

/* The class's candidates in order (by measured cost when every one has
 * a cost in one unit, else by the ladder), the cheapest that meets. */
static void cheapest(struct tiers *t, struct tiers_class *c)
{
	size_t *ord = xmalloc((t->ntiers + 1) * sizeof(*ord)), n = 0;
	const char *unit = NULL;
	struct strbuf why = STRBUF_INIT;
	long undecided = -1;
	int comparable = 1, any_limit = 0;

	for (size_t i = 0; i < t->ntiers; i++) {
		const struct tiers_cell *x = &c->cells[i];

		if (!x->npoints || x->status == TIERS_BOUND)
			continue;	/* a bound predicts no value */
		ord[n++] = i;
		any_limit |= x->status != TIERS_NOLIMIT;
		if (isnan(x->cost.per_workload) ||
		    (unit && strcmp(unit, x->cost.unit)))
			comparable = 0;
		unit = x->cost.unit;
	}
	c->by_cost = comparable && n > 1;
	for (size_t i = 1; c->by_cost && i < n; i++)	/* insertion sort */
		for (size_t j = i; j > 0 && c->cells[ord[j]].cost.per_workload
		     < c->cells[ord[j - 1]].cost.per_workload; j--) {
			size_t tmp = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = tmp;
		}
	c->cheapest = -1;
	c->cheap = any_limit ? TIERS_FAILS : TIERS_NOLIMIT;
	for (size_t k = 0; k < n && any_limit; k++) {
		const struct tiers_cell *x = &c->cells[ord[k]];

		if (x->status == TIERS_UNKNOWN && undecided < 0)
			undecided = (long)ord[k];
		if (x->status != TIERS_MEETS)
			continue;
		c->cheapest = (long)ord[k];
		break;
	}
	if (undecided >= 0) {
		c->cheap = TIERS_UNKNOWN;
		strbuf_addf(&why, "%s (%s) is %sundecided (%s)",
			    t->tiers[undecided].source,
			    t->tiers[undecided].kind, c->cheapest >= 0 ?
			    "cheaper and " : "",
			    c->cells[undecided].why ?
			    c->cells[undecided].why : "unknown");
	} else if (c->cheapest >= 0) {
		c->cheap = TIERS_MEETS;
	} else if (any_limit) {
		strbuf_addf(&why, "no tier below the reference meets the "
			    "limits");
	} else {
		strbuf_addstr(&why, t->has_policy ? "no rule of the policy "
			      "selects this class" : "no limits (--policy)");
	}
	c->cheap_why = why.len ? strbuf_detach(&why) : NULL;
	strbuf_release(&why);
	free(ord);
}

/* The class of every point of every tier, and the class names. */
static int classes(struct tiers *t, int **cls, struct hmap *names)
{
	char key[512];
	int64_t at;

	for (size_t i = 0; i < t->ntiers; i++) {
		const struct corr_set *s = t->tiers[i].set;

		if (!s)
			continue;
		cls[i] = xmalloc((s->n ? s->n : 1) * sizeof(int));
		for (size_t j = 0; j < s->n; j++) {
			int rc = corr_group_key(s, &s->points[j], t->class_by,
						key, sizeof(key));

			if (rc < 0)
				return rc;
			if (!hmap_get(names, key, &at)) {
				at = (int64_t)t->nclasses;
				hmap_put(names, key, at);
				t->classes = xrealloc(t->classes,
					(t->nclasses + 1) * sizeof(*t->classes));
				memset(&t->classes[t->nclasses], 0,
				       sizeof(*t->classes));
				t->classes[t->nclasses++].name = xstrdup(key);
			}
			cls[i][j] = (int)at;
		}
	}
	return 0;
}

static int class_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tiers_class *)a)->name,
		      ((const struct tiers_class *)b)->name);
}

static int fill(struct tiers *t, struct db *db, const struct tiers_opts *o)
{
	int **cls = xcalloc(t->ntiers + 1, sizeof(*cls));
	struct hmap names;
	struct costs costs = { db, { 0 }, NULL, 0 };
	int rc;

	hmap_init(&names);
	hmap_init(&costs.idx);
	rc = classes(t, cls, &names);
	for (size_t k = 0; k < t->nclasses && !rc; k++) {
		struct tiers_class *c = &t->classes[k];
		struct acc ref;

		c->cells = xcalloc(t->ntiers, sizeof(*c->cells));
		acc_init(&ref);
		for (size_t i = 0; i < t->ntiers && !rc; i++) {
			struct clsel sel = { cls[i], NULL, (int)k };

			if (!t->tiers[i].set)
				continue;
			sel.base = t->tiers[i].set->points;
			rc = cell_build(&c->cells[i], &costs, t->tiers[i].set,
					&sel, o, t->min_points, &ref,
					t->tiers[i].rank == 0 ?
					t->tiers[i].source : NULL);
		}
		acc_finish(&ref, &c->ref_cost);
		if (!rc)
			cheapest(t, c);
	}
	for (size_t i = 0; i < t->ntiers && !rc; i++) {
		const struct corr_set *s = t->tiers[i].set;
		struct acc a;

		acc_init(&a);
		for (size_t j = 0; s && j < s->n && !rc; j++)
			rc = acc_add(&a, &costs, s->points[j].workload_id,
				     s->points[j].model_run);
		acc_finish(&a, &t->tiers[i].cost);
	}
	for (size_t i = 0; i < t->ntiers; i++)
		free(cls[i]);
	free(cls);
	hmap_release(&names);
	hmap_release(&costs.idx);
	free(costs.r);
	return rc;
}

/* Class names sort; cells follow their class (they are per class). */
static void sort_classes(struct tiers *t)
{
	qsort(t->classes, t->nclasses, sizeof(*t->classes), class_cmp);
}

int tiers_build(struct tiers *out, struct db *db, const struct tiers_opts *o)
{
	char **specs = NULL, *refsrc = NULL, *refver = NULL, *kind = NULL;
	size_t n = 0;
	int rc, rank;

	memset(out, 0, sizeof(*out));
	out->class_by = xstrdup(o->class_by ? o->class_by : "op_class");
	out->min_points = o->min_points > 0 ? o->min_points : TIERS_MIN_POINTS;
	out->has_policy = o->policy != NULL;
	corr_parse_side(o->ref, &refsrc, &refver);
	if ((rc = source_kind(db, refsrc, &kind)) < 0)
		goto done;
	if (!kind) {
		rc = pc_error_set(PC_ENOTFOUND, "no source named '%s' (perfcorr "
				  "sources lists them)", refsrc);
		goto done;
	}
	rank = tiers_rank(kind);
	for (size_t i = 0; o->sources && o->sources[i]; i++) {
		specs = xrealloc(specs, (n + 1) * sizeof(*specs));
		specs[n++] = xstrdup(o->sources[i]);
	}
	if (!o->sources && (rc = below(db, rank, &specs, &n)) < 0)
		goto done;
	if (!n) {
		rc = pc_error_set(PC_ENOTFOUND, "no source of a tier below "
				  "the reference '%s' (%s): the tiers are "
				  "roofline < perfsim < rtl < emulation < "
				  "silicon", refsrc, kind);
		goto done;
	}
	out->tiers = xcalloc(n, sizeof(*out->tiers));
	for (size_t i = 0; i < n && !rc; i++, out->ntiers++)
		rc = load_tier(&out->tiers[i], db, specs[i], o, o->ref);
	if (rc < 0)
		goto done;
	qsort(out->tiers, out->ntiers, sizeof(*out->tiers), tier_cmp);
	for (size_t i = 0; i < out->ntiers && !out->ref_source; i++)
		if (out->tiers[i].set) {
			out->ref_source = xstrdup(out->tiers[i].set->ref.source);
			out->ref_version = xstrdup(out->tiers[i].set->ref.version);
		}
	out->ref_kind = xstrdup(kind);
	if (!out->ref_source) {
		out->ref_source = xstrdup(refsrc);
		out->ref_version = xstrdup(refver ? refver : "-");
	}
	if ((rc = fill(out, db, o)) == 0)
		sort_classes(out);
done:
	for (size_t i = 0; i < n; i++)
		free(specs[i]);
	free(specs);
	free(refsrc);
	free(refver);
	free(kind);
	if (rc < 0)
		tiers_release(out);
	return rc;
}

void tiers_release(struct tiers *t)
{
	for (size_t k = 0; k < t->nclasses; k++) {
		for (size_t i = 0; t->classes[k].cells && i < t->ntiers; i++)
			free(t->classes[k].cells[i].why);
		free(t->classes[k].cells);
		free(t->classes[k].name);
		free(t->classes[k].cheap_why);
	}
	for (size_t i = 0; i < t->ntiers; i++) {
		corr_set_free(t->tiers[i].set);
		free(t->tiers[i].source);
		free(t->tiers[i].version);
		free(t->tiers[i].kind);
		free(t->tiers[i].why);
	}
	free(t->classes);
	free(t->tiers);
	free(t->ref_source);
	free(t->ref_version);
	free(t->ref_kind);
	free(t->class_by);
	memset(t, 0, sizeof(*t));
}
