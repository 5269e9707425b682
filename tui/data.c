/* The TUI's data: pairs, the loaded corr_set, annotation state. */
#include "tui/data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/db.h"
#include "db/pairs.h"
#include "src/corr/correlate.h"
#include "src/corr/annot.h"
#include "src/pairidx/candidates.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "src/gate/policy.h"
#include "base/util.h"

const char *data_category_name(unsigned code)
{
	return code ? db_annot_categories[code - 1] : "";
}

unsigned data_status_code(const char *name)
{
	return annot_code(db_annot_statuses, name);
}

unsigned data_category_code(const char *name)
{
	return annot_code(db_annot_categories, name);
}

int data_open(struct tui_data *d, struct db *db, const char *model,
	      const char *ref, const char *policy_path)
{
	void (*note)(void *, const char *) = d->note;	/* set by the caller */
	void *note_arg = d->note_arg;
	const char *roofline = d->roofline;
	const char *const *allow = d->allow_mismatch;
	const char *slo = d->slo;
	int rc;

	memset(d, 0, sizeof(*d));
	d->note = note;
	d->note_arg = note_arg;
	d->roofline = roofline;
	d->allow_mismatch = allow;
	d->slo = slo;
	d->db = db;
	d->warn = 0.05;
	d->fail = 0.15;
	d->src.max_id[0] = d->src.max_id[1] = d->src.max_id[2] = -1;
	if (policy_path && (rc = policy_load(&d->policy, policy_path)) < 0)
		return rc;
	/* the policy's fields whose mismatch is meant, as the gate */
	if (d->policy && !d->allow_mismatch)
		d->allow_mismatch = (const char *const *)
				    d->policy->allow_mismatch;
	if (d->policy && !model && !ref) {
		model = d->policy->model;
		ref = d->policy->ref;
	}
	if ((rc = candidates_list(db, model, ref, &d->pairs, &d->npairs)) < 0)
		return rc;
	if (!d->npairs)
		return pc_error_set(PC_ENOTFOUND, "no model/reference pair: "
				    "import a model (roofline, perfsim, rtl or "
				    "emulation) and a reference (rtl, emulation "
				    "or silicon) first");
	for (d->pair = 0; d->pair < d->npairs; d->pair++)
		if ((rc = data_load(d)) == 0)
			return 0;
	d->pair = 0;
	return rc;
}

static void free_units(struct tui_data *d)
{
	for (size_t i = 0; i < d->nunits; i++)
		free(d->units[i]);
	free(d->units);
	free(d->higher);
	d->units = NULL;
	d->higher = NULL;
	d->nunits = 0;
}

/* Each metric id's unit, by name from the metrics table (an index's
 * metric ids name the metric it paired). A failed read leaves the
 * values without units rather than failing the load. */
static void load_units(struct tui_data *d)
{
	struct db_name *names = NULL;
	size_t n = 0;

	free_units(d);
	if (!d->ix || d->ix->max_id[2] < 0 ||
	    db_pairs_names(d->db, DB_DICT_METRICS, &names, &n) < 0)
		return;
	d->nunits = (size_t)d->ix->max_id[2] + 1;
	d->units = xcalloc(d->nunits, sizeof(*d->units));
	d->higher = xcalloc(d->nunits, 1);
	for (size_t id = 0; id < d->nunits; id++) {
		const char *m = pidx_metric(d->ix, (int64_t)id);

		for (size_t k = 0; *m && k < n; k++)
			if (names[k].name && !strcmp(names[k].name, m)) {
				d->units[id] = xstrdup(names[k].extra ?
						       names[k].extra : "");
				d->higher[id] = names[k].higher != 0;
				break;
			}
	}
	db_names_free(names, n);
}

int data_metric_higher(const struct tui_data *d, int64_t metric_id)
{
	return metric_id >= 0 && (size_t)metric_id < d->nunits &&
	       d->higher[metric_id];
}

const char *data_metric_unit(const struct tui_data *d, int64_t metric_id)
{
	if (metric_id < 0 || (size_t)metric_id >= d->nunits ||
	    !d->units[metric_id])
		return "";
	return d->units[metric_id];
}

static void free_set(struct tui_data *d)
{
	free(d->since);
	d->since = NULL;
	d->have_review = 0;
	d->nnew = d->nchanged = 0;
	free_units(d);
	pidx_free(d->ix);
	d->ix = NULL;
	memset(&d->src, 0, sizeof(d->src));
	d->src.max_id[0] = d->src.max_id[1] = d->src.max_id[2] = -1;
}

static const char *src_name(void *arg, enum pidx_name_part part,
			    int64_t id)
{
	const struct pidx *x = arg;

	switch (part) {
	case PIDX_NAME_WORKLOAD: return pidx_workload(x, id);
	case PIDX_NAME_OP: return pidx_op(x, id);
	case PIDX_NAME_METRIC: return pidx_metric(x, id);
	default: return pidx_op_class(x, id);
	}
}

static int src_order(void *arg, int col, const uint32_t **perm,
		     const unsigned char **starts)
{
	return pidx_order(arg, col, perm, starts);
}

static int src_names_lower(void *arg, enum pidx_name_part part,
			   const char **chars, const uint32_t **off,
			   uint64_t *count)
{
	return pidx_names_lower(arg, part, chars, off, count);
}

static void index_set(struct tui_data *d)
{
	struct pidx *x = d->ix;

	d->src = (struct rows_src){ .keys = x->keys, .vals = x->vals,
		.n = x->n, .status = x->status, .category = x->category,
		.name = src_name, .order = src_order,
		.names_lower = src_names_lower, .arg = x };
	memcpy(d->src.max_id, x->max_id, sizeof(d->src.max_id));
}

int data_load(struct tui_data *d)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct pidx *ix;
	long version = 0;
	int rc;

	if (d->pair >= d->npairs)
		return pc_error_set(PC_ENOTFOUND, "no source pair");
	q.model = d->pairs[d->pair].model;
	q.ref = d->pairs[d->pair].ref;
	q.roofline = d->roofline;
	q.allow_mismatch = d->allow_mismatch;
	if (d->note && !pidx_cached(d->db, &q)) {
		char msg[512];

		snprintf(msg, sizeof(msg), "pairing %s vs %s for the first "
			 "time (seconds a million pairs; cached after, or "
			 "run perfcorr index ahead)", q.model, q.ref);
		d->note(d->note_arg, msg);
	}
	/* a busy database (an import) leaves the pairing uncached: the
	 * review opens now rather than after the import */
	if ((rc = pidx_open(&ix, d->db, &q, PIDX_NO_WAIT)) < 0)
		return rc;
	if (ix->repaired && d->note) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s: paired again and replaced",
			 ix->repaired);
		d->note(d->note_arg, msg);
	}
	/* after our own cache write: that commit is not another's change */
	db_data_version(d->db, &version);
	free_set(d);
	d->ix = ix;
	d->sum = ix->sum;
	d->sum.min_pairs = policy_min_pairs(d->policy);
	d->data_version = version;
	index_set(d);
	load_units(d);
	d->src.bound = data_bound(d);
	d->src.higher = d->higher;
	d->src.nhigher = d->nunits;
	if (data_review_load(d) < 0 && d->note) {
		char msg[512];

		snprintf(msg, sizeof(msg), "the last review could not be read "
			 "(new since it not marked): %s", pc_error_last());
		d->note(d->note_arg, msg);
	}
	d->gen++;
	return 0;
}

const struct corr_point *data_point(const struct tui_data *d, size_t i,
				    struct corr_point *tmp)
{
	pidx_point(d->ix, i, tmp, 0);
	return tmp;
}

int data_point_full(const struct tui_data *d, size_t i,
		    struct corr_point *out)
{
	return pidx_point(d->ix, i, out, 1);
}

size_t data_npoints(const struct tui_data *d)
{
	return d->ix ? d->ix->n : 0;
}

int data_cycle_pair(struct tui_data *d)
{
	size_t keep = d->pair;

	for (size_t k = 1; k < d->npairs; k++) {
		d->pair = (keep + k) % d->npairs;
		if (data_load(d) == 0)
			return 0;
	}
	d->pair = keep;
	return pc_error_set(PC_ENOTFOUND, "no other source pair matches "
			    "anything (%zu candidate%s)", d->npairs,
			    d->npairs == 1 ? "" : "s");
}

int data_changed(struct tui_data *d)
{
	long v;

	if (db_data_version(d->db, &v) < 0 || v == d->data_version)
		return 0;
	d->data_version = v;
	return 1;
}

/* What the points had before a save: the undo's rows. */
struct data_undo {
	char *model, *ref;		/* the pair's sources */
	struct mkey_ids { int64_t w, o, m; } *keys;
	struct annot *prev;		/* status NULL: none before */
	size_t n;
};

void data_undo_free(struct tui_data *d)
{
	struct data_undo *u = d->undo;

	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++) {
		free(u->prev[i].status);
		free(u->prev[i].category);
		free(u->prev[i].note);
		free(u->prev[i].link);
		free(u->prev[i].expires);
	}
	free(u->prev);
	free(u->keys);
	free(u->model);
	free(u->ref);
	free(u);
	d->undo = NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct data_undo *undo_capture(const struct tui_data *d,
				      const uint32_t *points, size_t n)
{
	struct data_undo *u = xcalloc(1, sizeof(*u));

	u->model = xstrdup(d->ix->model.source);
	u->ref = xstrdup(d->ix->ref.source);
	u->keys = xcalloc(n, sizeof(*u->keys));
	u->prev = xcalloc(n, sizeof(*u->prev));
	u->n = n;
	for (size_t i = 0; i < n; i++) {
		struct corr_point tmp;
		const struct corr_point *p = data_point(d, points[i], &tmp);

		u->keys[i] = (struct mkey_ids){ p->workload_id, p->op_id,
						p->metric_id };
		if (!p->ann || !p->ann->status)
			continue;
		u->prev[i].status = xstrdup(p->ann->status);
		u->prev[i].category = dup_or_null(p->ann->category);
		u->prev[i].note = dup_or_null(p->ann->note);
		u->prev[i].link = dup_or_null(p->ann->link);
		u->prev[i].expires = dup_or_null(p->ann->expires);
	}
	return u;
}

static int annotate_rows(struct tui_data *d, const uint32_t *points,
			 size_t n, const struct annot *tmpl);

int data_annotate(struct tui_data *d, const uint32_t *points, size_t n,
		  const struct annot *tmpl)
{
	struct data_undo *u;
	int rc;

	if (!d->ix || !n)
		return pc_error_set(PC_EINVALID, "nothing to annotate");
	u = undo_capture(d, points, n);
	if ((rc = annotate_rows(d, points, n, tmpl)) < 0) {
		struct data_undo *keep = d->undo;

		d->undo = u;
		data_undo_free(d);
		d->undo = keep;
		return rc;
	}
	data_undo_free(d);
	d->undo = u;
	return 0;
}

int data_undo(struct tui_data *d, size_t *n_out)
{
	struct data_undo *u = d->undo;
	size_t done = 0;
	int rc = 0;

	*n_out = 0;
	if (!u || !d->ix)
		return pc_error_set(PC_ENOTFOUND, "nothing to undo in this "
				    "session");
	if (strcmp(u->model, d->ix->model.source) ||
	    strcmp(u->ref, d->ix->ref.source))
		return pc_error_set(PC_EINVALID, "the last annotation was of "
				    "%s vs %s: switch back to that pair (p) to "
				    "undo it", u->model, u->ref);
	for (size_t i = 0; i < u->n && rc == 0; i++) {
		long k = pidx_find(d->ix, u->keys[i].w, u->keys[i].o,
				   u->keys[i].m);
		struct annot a = u->prev[i];
		uint32_t pt;

		if (k < 0)
			continue;	/* no longer paired */
		pt = (uint32_t)k;
		if (!a.status) {
			a.status = "open";
			a.category = "unknown";
			a.note = ANNOT_UNDO_NONE_NOTE;
		}
		rc = annotate_rows(d, &pt, 1, &a);
		done += rc == 0;
	}
	if (rc < 0)
		return rc;
	data_undo_free(d);
	*n_out = done;
	return 0;
}

static int annotate_rows(struct tui_data *d, const uint32_t *points,
			 size_t n, const struct annot *tmpl)
{
	struct annot *a;
	struct annot_err *e;
	int rc, accepted = tmpl->status && !strcmp(tmpl->status, "accepted");

	if (!d->ix || !n)
		return pc_error_set(PC_EINVALID, "nothing to annotate");
	a = xcalloc(n, sizeof(*a));
	e = xcalloc(n, sizeof(*e));
	for (size_t i = 0; i < n; i++) {
		const struct pidx_key *k = &d->ix->keys[points[i]];

		a[i] = *tmpl;
		a[i].workload = (char *)pidx_workload(d->ix, k->w);
		a[i].op = (char *)pidx_op(d->ix, k->o);
		a[i].metric = (char *)pidx_metric(d->ix, k->m);
		a[i].model_source = d->ix->model.source;
		a[i].ref_source = d->ix->ref.source;
		a[i].is_pattern = 0;
		/* a waiver records the error it accepts (docs/gate.md) */
		if (accepted) {
			e[i] = (struct annot_err){ a[i].workload, a[i].op,
				a[i].metric, d->ix->model.version,
				d->ix->ref.version, k->err };
			a[i].errs = &e[i];
			a[i].nerrs = 1;
		}
	}
	rc = db_annot_add(d->db, a, n, NULL);
	free(a);
	free(e);
	if (rc < 0)
		return rc;
	d->ann_gen++;
	/* the new rows are the newest exact ones: they win; re-read them so
	 * the detail's history and the waived flag see them too */
	return pidx_annotations(d->ix, d->db);
}

int data_severity(const struct tui_data *d, double err)
{
	double a = fabs(err);

	if (isnan(err) || a >= d->fail)
		return 2;
	return a >= d->warn ? 1 : 0;
}

static int rule_selects(const struct policy_rule *r,
			const struct corr_point *p)
{
	if (r->nparams)
		return 0;	/* parameters are the gate's business */
	return (!r->metric || !strcmp(r->metric, p->metric)) &&
	       (!r->op_glob || util_glob(r->op_glob, p->op)) &&
	       (!r->op_class_glob || util_glob(r->op_class_glob,
					      p->op_class ? p->op_class : "")) &&
	       (!r->workload_glob || util_glob(r->workload_glob, p->workload));
}

int data_point_severity(const struct tui_data *d, const struct corr_point *p)
{
	double warn = INFINITY, fail = INFINITY, a = fabs(p->err);

	for (size_t i = 0; d->policy && i < d->policy->nrules; i++) {
		const struct policy_rule *r = &d->policy->rules[i];
		/* a per-point limit, else the rule's MAPE limit as a guide */
		int l = r->has & (1u << PL_MAX_ABS_ERR) ? PL_MAX_ABS_ERR :
			r->has & (1u << PL_MAX_MAPE) ? PL_MAX_MAPE : -1;
		double lim;

		if (l < 0 || !rule_selects(r, p))
			continue;
		lim = r->lim[l];
		if (r->severity == POLICY_WARN)
			warn = fmin(warn, lim);
		else
			fail = fmin(fail, lim);
	}
	if (isinf(warn) && isinf(fail))
		return data_severity(d, p->err);
	if (isinf(fail))
		fail = fmax(d->fail, warn);
	if (isinf(warn))
		warn = fmin(d->warn, fail);
	if (isnan(p->err) || a > fail)
		return 2;
	return a > warn ? 1 : 0;
}

const char *data_pair_label(const struct tui_data *d, char *buf, size_t len,
			    int brief)
{
	const struct pidx *x = d->ix;
	int bound = data_bound(d);

	if (!x) {
		snprintf(buf, len, "(no pair)");
		return buf;
	}
	snprintf(buf, len, "%s@%s%s%s%s vs %s@%s%s%s%s", x->model.source,
		 x->model.version ? x->model.version : "?",
		 brief && !bound ? "" : " (", bound ? "bound" :
		 brief ? "" : x->model.kind ? x->model.kind : "?",
		 brief && !bound ? "" : ")", x->ref.source,
		 x->ref.version ? x->ref.version : "?", brief ? "" : " (",
		 brief ? "" : x->ref.kind ? x->ref.kind : "?",
		 brief ? "" : ")");
	return buf;
}

void data_release(struct tui_data *d)
{
	data_undo_free(d);
	free_set(d);
	candidates_free(d->pairs, d->npairs);
	d->pairs = NULL;
	d->npairs = 0;
	policy_free(d->policy);
	d->policy = NULL;
}
