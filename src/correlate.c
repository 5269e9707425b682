/*
 * The correlation core (see correlate.h and docs/statistics.md): both
 * sides come from db/pairs.c already reduced to one result per
 * (workload, op, metric) in key order; a merge join on (workload, op)
 * pairs their metrics, converting cycles to time through the clocks.
 * Point strings point into the set's dictionaries (interned once).
 */
#include "src/correlate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "db/wkey.h"
#include "src/annot.h"
#include "src/base/error.h"
#include "src/base/hmap.h"
#include "src/radix.h"
#include "src/stats_ci.h"
#include "src/base/strbuf.h"
#include "src/base/util.h"

struct corr_store {
	struct db_name *dict[3];	/* enum db_dict */
	size_t ndict[3];
	struct db_param *params;
	size_t nparams;
	struct annot_index *annots;
};

/* Pairing state for one corr_load. */
struct pairing {
	const struct corr_query *q;
	struct corr_set *set;
	struct corr_store *st;
	const struct db_side *ms, *rs;
	int64_t time_id, cycles_id, metric_id;	/* metric_id -1 = any */
	signed char *wl_ok, *op_ok;		/* per dict index: -1 unknown */
	unsigned char *wl_sel;			/* passed the globs */
	/* --where terms: canonical name, canonical value (NULL: "NAME="
	 * selects workloads without it), seen on a selected workload */
	size_t nwhere;
	char **wname, **wval;
	unsigned char *wseen;
	size_t cap;
	char today[16];
	int roofline;
};

static const struct db_name *dict_find(const struct corr_store *st,
				       enum db_dict d, int64_t id, size_t *idx)
{
	size_t lo = 0, hi = st->ndict[d];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->dict[d][mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->ndict[d] && st->dict[d][lo].id == id) {
		if (idx)
			*idx = lo;
		return &st->dict[d][lo];
	}
	return NULL;
}

static int64_t metric_id_of(const struct corr_store *st, const char *name)
{
	for (size_t i = 0; i < st->ndict[DB_DICT_METRICS]; i++)
		if (!strcmp(st->dict[DB_DICT_METRICS][i].name, name))
			return st->dict[DB_DICT_METRICS][i].id;
	return -1;
}

/* The value of parameter name of workload wid, or NULL. */
static const char *param_of(const struct corr_store *st, int64_t wid,
			    const char *name)
{
	size_t lo = 0, hi = st->nparams;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->params[mid].workload_id < wid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < st->nparams && st->params[lo].workload_id == wid; lo++)
		if (!strcmp(st->params[lo].name, name))
			return st->params[lo].value;
	return NULL;
}

/* Every --where term holds for workload wid (aliases folded, values
 * normalised as at import; an empty value asks for the parameter's
 * absence). seen (may be NULL) marks the terms whose parameter wid has. */
static int where_ok(const struct pairing *pr, int64_t wid,
		    unsigned char *seen)
{
	int ok = 1;

	for (size_t i = 0; i < pr->nwhere; i++) {
		const char *v = param_of(pr->st, wid, pr->wname[i]);

		if (v && seen)
			seen[i] = 1;
		if (pr->wval[i] ? !v || strcmp(v, pr->wval[i]) : v != NULL)
			ok = 0;
	}
	return ok;
}

long corr_where_bad(const char *const *where)
{
	for (const char *const *w = where; w && *w; w++) {
		const char *eq = strchr(*w, '=');
		const char *name = strncmp(*w, "param.", 6) ? *w : *w + 6;

		if (!eq || eq == name || eq < name)
			return (long)(w - where);
	}
	return -1;
}

static int check_where(struct pairing *pr)
{
	const char *const *where = pr->q->where;
	long bad = corr_where_bad(where);

	if (bad >= 0)
		return pc_error_set(PC_EINVALID, "bad parameter filter '%s' "
				    "(expected param.NAME=VALUE, or "
				    "param.NAME= for workloads without it)",
				    where[bad]);
	for (const char *const *w = where; w && *w; w++) {
		const char *eq = strchr(*w, '=');
		const char *name = strncmp(*w, "param.", 6) ? *w : *w + 6;
		char *raw;

		raw = xstrndup(name, (size_t)(eq - name));
		pr->wname = xrealloc(pr->wname, (pr->nwhere + 1) *
				     sizeof(*pr->wname));
		pr->wval = xrealloc(pr->wval, (pr->nwhere + 1) *
				    sizeof(*pr->wval));
		pr->wname[pr->nwhere] = xstrdup(wkey_canon_name(raw));
		pr->wval[pr->nwhere++] = eq[1] ? wkey_canon_value(raw, eq + 1) :
					 NULL;
		free(raw);
	}
	pr->wseen = xcalloc(pr->nwhere + 1, 1);
	return 0;
}

/* The --workload globs: one given matches (or none given), no "!GLOB"
 * matches. */
static int workload_globs_ok(const struct corr_query *q, const char *name)
{
	int any = 0, hit = 0;

	if (q->workload_glob && !util_glob(q->workload_glob, name))
		return 0;
	for (const char *const *g = q->workload_globs; g && *g; g++) {
		if (**g == '!') {
			if (util_glob(*g + 1, name))
				return 0;
			continue;
		}
		any = 1;
		hit |= util_glob(*g, name) != 0;
	}
	return !any || hit;
}

/* Workload and op filters, cached per dictionary entry. */
static int key_ok(struct pairing *pr, int64_t wid, int64_t oid)
{
	const struct corr_query *q = pr->q;
	const struct db_name *w, *o;
	size_t wi = 0, oi = 0;

	w = dict_find(pr->st, DB_DICT_WORKLOADS, wid, &wi);
	o = dict_find(pr->st, DB_DICT_OPS, oid, &oi);
	if (!w || !o)
		return 0;
	if (pr->wl_ok[wi] < 0) {
		pr->wl_sel[wi] = (unsigned char)workload_globs_ok(q, w->name);
		pr->wl_ok[wi] = pr->wl_sel[wi] && where_ok(pr, wid, pr->wseen);
	}
	if (pr->op_ok[oi] < 0)
		pr->op_ok[oi] = !q->op_glob || util_glob(q->op_glob, o->name);
	return pr->wl_ok[wi] && pr->op_ok[oi];
}

static int no_clock(const struct db_side *s, int64_t run)
{
	size_t i;

	for (i = 0; i < s->nruns && s->runs[i] != run; i++)
		;
	return pc_error_set(PC_EINVALID, "run %lld ('%s') of source '%s' has "
			    "no clock: its cycles cannot pair with time "
			    "(re-import it with --clock-mhz)", (long long)run,
			    i < s->nruns ? s->files[i] : "?", s->source);
}

static double clock_of(const struct db_side *s, int64_t run)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i] == run)
			return s->clock_hz[i];
	return NAN;
}

/* A roofline bounds times (lower) and rates (higher), not counts. */
static int sol_metric(const char *unit)
{
	size_t n = strlen(unit);

	return !strcmp(unit, "s") || !strcmp(unit, "cycles") ||
	       (n > 2 && !strcmp(unit + n - 2, "/s"));
}

static unsigned point_flags(const struct pairing *pr, struct corr_point *p,
			    const struct db_result *m, const struct db_result *r,
			    int higher, const char *unit)
{
	unsigned f = 0;

	if ((m->flags | r->flags) & 3)
		f |= CORR_INVALID;
	/* a zero reference with a spread is noise around zero */
	if (p->ref_sd > 0 && (p->ref == 0 ||
	    p->ref_sd / fabs(p->ref) > pr->q->max_ref_cv))
		f |= CORR_NOISY_REF;
	if (p->ref_sd >= 0 ? fabs(p->model - p->ref) <= p->ref_sd :
	    p->ref_min <= p->model && p->model <= p->ref_max)
		f |= CORR_WITHIN_NOISE;
	if (pr->roofline && sol_metric(unit) &&
	    (higher ? p->model < p->ref : p->model > p->ref))
		f |= CORR_SOL_VIOLATION;
	if (p->ann && annot_waived(p->ann, pr->today))
		f |= CORR_WAIVED;
	return f;
}

/* Add the pair (m, r); scale converts the model's value to r's metric. */
static void add_point(struct pairing *pr, const struct db_result *m,
		      const struct db_result *r, double scale)
{
	struct corr_set *s = pr->set;
	const struct db_name *w, *o, *mt;
	struct corr_point *p;

	if (s->n == pr->cap) {
		pr->cap = pr->cap ? pr->cap * 2 : 256;
		s->points = xrealloc(s->points, pr->cap * sizeof(*s->points));
	}
	p = &s->points[s->n++];
	w = dict_find(pr->st, DB_DICT_WORKLOADS, r->workload_id, NULL);
	o = dict_find(pr->st, DB_DICT_OPS, r->op_id, NULL);
	mt = dict_find(pr->st, DB_DICT_METRICS, r->metric_id, NULL);
	p->workload = w->name;
	p->op = o->name;
	p->op_class = o->extra;
	p->metric = mt->name;
	p->workload_id = r->workload_id;
	p->op_id = r->op_id;
	p->metric_id = r->metric_id;
	p->model = m->value * scale;
	p->ref = r->value;
	p->err = stats_err(p->model, p->ref);
	p->model_sd = m->stddev * scale;
	p->ref_sd = r->stddev;
	p->ref_n = r->n;
	p->ref_min = r->min;
	p->ref_max = r->max;
	p->model_run = m->run_id;
	p->ref_run = r->run_id;
	/* the sides move into the set only after pairing: use pr's */
	p->ann = annot_index_find(pr->st->annots, p->workload, p->op,
				  p->metric, pr->ms->source, pr->rs->source);
	p->flags = point_flags(pr, p, m, r, mt->higher, mt->extra);
	/* the latest run won over older ones: say so (docs/statistics.md) */
	if (!pr->q->pool && (m->nruns > 1 || r->nruns > 1))
		s->superseded++;
}

static const struct db_result *find_metric(const struct db_result *v,
					   size_t n, int64_t metric)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].metric_id == metric)
			return &v[i];
	return NULL;
}

/* Pair the metrics of one (workload, op) group. */
static int pair_group(struct pairing *pr, const struct db_result *m,
		      size_t nm, const struct db_result *r, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct db_result *x = find_metric(m, nm, r[i].metric_id);
		int64_t mid = r[i].metric_id;
		double scale = 1, hz;

		if (pr->metric_id >= 0 && mid != pr->metric_id)
			continue;
		if (!x && mid == pr->time_id &&
		    (x = find_metric(m, nm, pr->cycles_id))) {
			hz = clock_of(pr->ms, x->run_id);
			if (!(hz > 0))
				return no_clock(pr->ms, x->run_id);
			scale = 1 / hz;
		} else if (!x && mid == pr->cycles_id &&
			   (x = find_metric(m, nm, pr->time_id))) {
			hz = clock_of(pr->rs, r[i].run_id);
			if (!(hz > 0))
				return no_clock(pr->rs, r[i].run_id);
			scale = hz;
		}
		if (x)
			add_point(pr, x, &r[i], scale);
	}
	return 0;
}

static size_t group_end(const struct db_result *v, size_t i, size_t n)
{
	size_t j = i + 1;

	while (j < n && v[j].workload_id == v[i].workload_id &&
	       v[j].op_id == v[i].op_id)
		j++;
	return j;
}

static int wo_cmp(const struct db_result *a, const struct db_result *b)
{
	if (a->workload_id != b->workload_id)
		return a->workload_id < b->workload_id ? -1 : 1;
	if (a->op_id != b->op_id)
		return a->op_id < b->op_id ? -1 : 1;
	return 0;
}

static int merge_join(struct pairing *pr, const struct db_result *m,
		      size_t nm, const struct db_result *r, size_t nr)
{
	size_t i = 0, j = 0;
	int rc = 0;

	while (i < nm && j < nr && !rc) {
		int c = wo_cmp(&m[i], &r[j]);
		size_t ie, je;

		if (c < 0) {
			i = group_end(m, i, nm);
		} else if (c > 0) {
			j = group_end(r, j, nr);
		} else {
			ie = group_end(m, i, nm);
			je = group_end(r, j, nr);
			if (key_ok(pr, m[i].workload_id, m[i].op_id))
				rc = pair_group(pr, m + i, ie - i, r + j,
						je - j);
			i = ie;
			j = je;
		}
	}
	return rc;
}

static int load_store(struct corr_store *st, struct db *db)
{
	int rc = 0;

	for (int d = 0; d < 3 && !rc; d++)
		rc = db_pairs_names(db, (enum db_dict)d, &st->dict[d],
				    &st->ndict[d]);
	if (!rc)
		rc = db_pairs_params(db, &st->params, &st->nparams);
	if (!rc)
		rc = annot_index_load(&st->annots, db);
	return rc;
}

static void store_free(struct corr_store *st)
{
	if (!st)
		return;
	for (int d = 0; d < 3; d++)
		db_names_free(st->dict[d], st->ndict[d]);
	db_params_free(st->params, st->nparams);
	annot_index_free(st->annots);
	free(st);
}

static void side_take(struct corr_side *out, struct db_side *in)
{
	out->source = in->source;
	out->kind = in->kind;
	out->version = in->version;
	out->runs = xmalloc((in->nruns ? in->nruns : 1) * sizeof(int64_t));
	memcpy(out->runs, in->runs, in->nruns * sizeof(int64_t));
	out->nruns = in->nruns;
	in->source = in->kind = in->version = NULL;
}

/* Largest |err| first, NaN last, ties in key order: a stable radix sort
 * of (key, index), then one permutation of the points. */
static void sort_points(struct corr_set *s)
{
	struct radix_kv *kv = xmalloc((2 * s->n + 1) * sizeof(*kv));
	struct corr_point *sorted;

	for (size_t i = 0; i < s->n; i++) {
		double e = fabs(s->points[i].err);

		kv[i].k = isnan(e) ? UINT64_MAX : ~radix_key(e);
		kv[i].v = i;
	}
	radix_sort_kv(kv, kv + s->n, s->n);
	sorted = xmalloc((s->n + 1) * sizeof(*sorted));
	for (size_t i = 0; i < s->n; i++)
		sorted[i] = s->points[kv[i].v];
	free(s->points);
	s->points = sorted;
	free(kv);
}

/* "12 results: 3 workloads, 4 ops, metrics 'time', 'cycles'" */
static void describe(struct strbuf *sb, const struct corr_store *st,
		     const struct db_result *v, size_t n)
{
	size_t nw = 0, no = 0, nmet = 0;
	char *ops = xcalloc(st->ndict[DB_DICT_OPS] + 1, 1);
	char *mets = xcalloc(st->ndict[DB_DICT_METRICS] + 1, 1);

	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (i == 0 || v[i].workload_id != v[i - 1].workload_id)
			nw++;
		if (dict_find(st, DB_DICT_OPS, v[i].op_id, &k) && !ops[k]++)
			no++;
		if (dict_find(st, DB_DICT_METRICS, v[i].metric_id, &k) &&
		    !mets[k]++)
			nmet++;
	}
	strbuf_addf(sb, "%zu results: %zu workloads, %zu ops, metrics ", n,
		    nw, no);
	for (size_t k = 0, i = 0; k < st->ndict[DB_DICT_METRICS]; k++)
		if (mets[k])
			strbuf_addf(sb, "%s'%s'", i++ ? ", " : "",
				    st->dict[DB_DICT_METRICS][k].name);
	if (nmet == 0)
		strbuf_addstr(sb, "none");
	free(ops);
	free(mets);
}

/* The model side's metric passes --metric (time and cycles convert). */
static int metric_pass(const struct pairing *pr, int64_t mid, int model)
{
	if (pr->metric_id < 0 || mid == pr->metric_id)
		return 1;
	return model && ((pr->metric_id == pr->time_id &&
			  mid == pr->cycles_id) ||
			 (pr->metric_id == pr->cycles_id &&
			  mid == pr->time_id));
}

/* Results of one side left after each filter in turn: [0] all, then
 * --metric, --op, --workload, --where. sel (per workload dictionary
 * index, may be NULL) marks the workloads past the globs. */
static void stage_counts(const struct pairing *pr, const struct db_result *v,
			 size_t n, int model, size_t c[5], unsigned char *sel)
{
	const struct corr_query *q = pr->q;

	memset(c, 0, 5 * sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		const struct db_name *w, *o;
		size_t wi = 0;

		c[0]++;
		if (!metric_pass(pr, v[i].metric_id, model))
			continue;
		c[1]++;
		o = dict_find(pr->st, DB_DICT_OPS, v[i].op_id, NULL);
		if (!o || (q->op_glob && !util_glob(q->op_glob, o->name)))
			continue;
		c[2]++;
		w = dict_find(pr->st, DB_DICT_WORKLOADS, v[i].workload_id, &wi);
		if (!w || !workload_globs_ok(q, w->name))
			continue;
		c[3]++;
		if (sel)
			sel[wi] = 1;
		if (!where_ok(pr, v[i].workload_id, NULL))
			continue;
		c[4]++;
	}
}

static void describe_stages(struct strbuf *sb, const struct pairing *pr,
			    const size_t c[5])
{
	const struct corr_query *q = pr->q;
	const char *name[5] = { NULL, "metric", "op", "workload",
				"parameter" };
	int given[5] = { 0, q->metric != NULL, q->op_glob != NULL,
			 q->workload_glob || (q->workload_globs &&
					      *q->workload_globs),
			 pr->nwhere > 0 };
	int first = 1;

	for (int k = 1; k < 5; k++) {
		if (!given[k])
			continue;
		strbuf_addf(sb, "%s%s %zu", first ? " (left after each filter: " :
			    ", ", name[k], c[k]);
		first = 0;
	}
	if (!first)
		strbuf_addch(sb, ')');
}

/* "'1', '8'": the values parameter name takes on the workloads sel marks. */
static void param_values(struct strbuf *sb, const struct corr_store *st,
			 const unsigned char *sel, const char *name)
{
	struct hmap seen;
	size_t k, shown = 0;
	int64_t dummy;

	hmap_init(&seen);
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];

		if (strcmp(p->name, name) ||
		    !dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
		    !sel[k] || hmap_get(&seen, p->value, &dummy))
			continue;
		hmap_put(&seen, p->value, 1);
		if (shown++ == 12) {
			strbuf_addstr(sb, ", ...");
			break;
		}
		strbuf_addf(sb, "%s'%s'", shown > 1 ? ", " : "", p->value);
	}
	if (!shown)
		strbuf_addstr(sb, "none: no workload there has it");
	hmap_release(&seen);
}

/* "'bs', 'seq'": parameter names of the workloads sel marks, sorted. */
static void param_names_of(struct strbuf *sb, const struct corr_store *st,
			   const unsigned char *sel)
{
	char **v = NULL;
	size_t len = 0, k;
	struct hmap seen;
	int64_t dummy;

	hmap_init(&seen);
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];

		if (!dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
		    !sel[k] || hmap_get(&seen, p->name, &dummy))
			continue;
		hmap_put(&seen, p->name, 1);
		v = xrealloc(v, (len + 1) * sizeof(*v));
		v[len++] = p->name;
	}
	for (size_t i = 1; i < len; i++)	/* few: insertion sort */
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (size_t i = 0; i < len; i++)
		strbuf_addf(sb, "%s'%s'", i ? ", " : "", v[i]);
	if (!len)
		strbuf_addstr(sb, "none");
	free(v);
	hmap_release(&seen);
}

/* A --where parameter that no selected workload has: an error naming
 * the parameters they do have (a misspelt name is not "nothing"). */
static int where_unknown(const struct pairing *pr)
{
	size_t nw = pr->st->ndict[DB_DICT_WORKLOADS], any = 0;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	for (size_t k = 0; k < nw; k++)
		any += pr->wl_sel[k];
	for (size_t i = 0; any && i < pr->nwhere; i++) {
		if (pr->wseen[i])
			continue;
		param_names_of(&sb, pr->st, pr->wl_sel);
		rc = pc_error_set(PC_EINVALID, "parameter filter: no selected "
				  "workload has a parameter '%s' (their "
				  "parameters: %s)",
				  pr->wname[i], strbuf_str(&sb));
		strbuf_release(&sb);
		return rc;
	}
	return 0;
}

static int nothing_matched(const struct pairing *pr,
			   const struct db_result *m, size_t nm,
			   const struct db_result *r, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	const struct corr_query *q = pr->q;
	size_t cm[5], cr[5], nw = pr->st->ndict[DB_DICT_WORKLOADS];
	unsigned char *sel = xcalloc(nw + 1, 1);
	int rc;

	stage_counts(pr, m, nm, 1, cm, sel);
	stage_counts(pr, r, nr, 0, cr, sel);
	strbuf_addf(&sb, "nothing matched: model '%s@%s' has ",
		    pr->ms->source, pr->ms->version);
	describe(&sb, pr->st, m, nm);
	describe_stages(&sb, pr, cm);
	strbuf_addf(&sb, "; reference '%s@%s' has ", pr->rs->source,
		    pr->rs->version);
	describe(&sb, pr->st, r, nr);
	describe_stages(&sb, pr, cr);
	for (size_t i = 0; i < pr->nwhere && cm[3] + cr[3] > 0; i++) {
		strbuf_addf(&sb, "; parameter '%s' takes ", pr->wname[i]);
		param_values(&sb, pr->st, sel, pr->wname[i]);
	}
	if (cm[4] && cr[4])
		strbuf_addstr(&sb, "; the two sides share no (workload, op)");
	rc = pc_error_set(PC_ENOTFOUND, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	free(sel);
	if (q->metric || q->op_glob || q->workload_glob ||
	    (q->workload_globs && *q->workload_globs) || pr->nwhere)
		pc_error_cause(PC_CAUSE_FILTERS);
	return rc;
}

static void count_flags(struct corr_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		unsigned f = s->points[i].flags;

		if (f & CORR_INVALID)
			s->invalid++;
		else if (f & CORR_NOISY_REF)
			s->excluded_noisy++;
		if (f & CORR_SOL_VIOLATION)
			s->sol_violations++;
	}
}

/* Load both sides' results and merge-join them into pr->set. */
static int pair_part(struct pairing *pr, struct db *db,
		     struct db_result **m, size_t *nm, struct db_result **r,
		     size_t *nr)
{
	int rc;

	if ((rc = db_pairs_results(db, pr->ms, pr->q->pool, pr->q->only, m,
				   nm)) < 0 ||
	    (rc = db_pairs_results(db, pr->rs, pr->q->pool, pr->q->only, r,
				   nr)) < 0)
		return rc;
	return merge_join(pr, *m, *nm, *r, *nr);
}

/* The platforms both sides hold, when each holds several (and none was
 * chosen): the pairing then goes platform by platform. */
static size_t common_platforms(const struct db_side *ms,
			       const struct db_side *rs, const char ***out)
{
	const char **a, **b;
	size_t na = db_side_platforms(ms, &a), nb = db_side_platforms(rs, &b);
	size_t n = 0;

	*out = NULL;
	if (na >= 2 && nb >= 2) {
		*out = xmalloc((na + 1) * sizeof(**out));
		for (size_t i = 0; i < na; i++)
			for (size_t j = 0; a[i] && j < nb; j++)
				if (b[j] && !strcmp(a[i], b[j]))
					(*out)[n++] = a[i];
	}
	free(a);
	free(b);
	return n;
}

/* Pair platform by platform: each side restricted to one platform. */
static int pair_platforms(struct pairing *pr, struct db *db,
			  const char *const *plat, size_t np)
{
	int rc = 0;

	for (size_t i = 0; i < np && !rc; i++) {
		struct db_side ms, rs;
		struct db_result *m = NULL, *r = NULL;
		size_t nm = 0, nr = 0;
		const struct db_side *oms = pr->ms, *ors = pr->rs;

		memset(&ms, 0, sizeof(ms));
		memset(&rs, 0, sizeof(rs));
		if (!(rc = db_pairs_side(db, oms->source, oms->version, &ms)) &&
		    !(rc = db_side_restrict(&ms, plat[i])) &&
		    !(rc = db_pairs_side(db, ors->source, ors->version, &rs)) &&
		    !(rc = db_side_restrict(&rs, plat[i]))) {
			pr->ms = &ms;
			pr->rs = &rs;
			rc = pair_part(pr, db, &m, &nm, &r, &nr);
			pr->ms = oms;
			pr->rs = ors;
		}
		free(m);
		free(r);
		db_side_release(&ms);
		db_side_release(&rs);
	}
	if (!rc && pr->set->n == 0) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < np; i++)
			strbuf_addf(&sb, "%s'%s'", i ? ", " : "", plat[i]);
		rc = pc_error_set(PC_ENOTFOUND, "nothing matched: '%s@%s' and "
				  "'%s@%s' were paired platform by platform "
				  "(%s) and no platform pairs anything",
				  pr->ms->source, pr->ms->version,
				  pr->rs->source, pr->rs->version,
				  np ? strbuf_str(&sb) : "none in common");
		strbuf_release(&sb);
	}
	return rc;
}

static int pair_all(struct pairing *pr, struct db *db)
{
	struct db_result *m = NULL, *r = NULL;
	size_t nm = 0, nr = 0, np = 0;
	const char **plat = NULL;
	int rc = 0, by_platform;

	pr->wl_ok = xmalloc(pr->st->ndict[DB_DICT_WORKLOADS] + 1);
	pr->wl_sel = xcalloc(pr->st->ndict[DB_DICT_WORKLOADS] + 1, 1);
	pr->op_ok = xmalloc(pr->st->ndict[DB_DICT_OPS] + 1);
	memset(pr->wl_ok, -1, pr->st->ndict[DB_DICT_WORKLOADS] + 1);
	memset(pr->op_ok, -1, pr->st->ndict[DB_DICT_OPS] + 1);
	/* both sides on several platforms, none chosen: pair on platform */
	if (!pr->q->model_platform && !pr->q->ref_platform)
		np = common_platforms(pr->ms, pr->rs, &plat);
	by_platform = plat != NULL;
	if (by_platform) {
		rc = pair_platforms(pr, db, plat, np);
	} else {
		rc = pair_part(pr, db, &m, &nm, &r, &nr);
	}
	if (!rc)
		rc = where_unknown(pr);
	if (!rc && pr->set->n == 0 && !by_platform)
		rc = nothing_matched(pr, m, nm, r, nr);
	free(plat);
	free(pr->wl_ok);
	free(pr->wl_sel);
	free(pr->op_ok);
	free(m);
	free(r);
	return rc;
}

static int prepare(struct pairing *pr, struct db *db)
{
	const struct corr_query *q = pr->q;
	int rc;

	if ((rc = load_store(pr->st, db)) < 0)
		return rc;
	pr->time_id = metric_id_of(pr->st, "time");
	pr->cycles_id = metric_id_of(pr->st, "cycles");
	pr->metric_id = -1;
	if (q->metric && (pr->metric_id = metric_id_of(pr->st, q->metric)) < 0)
		return pc_error_set(PC_ENOTFOUND, "no metric named '%s'",
				    q->metric);
	annot_today(pr->today, sizeof(pr->today));
	return check_where(pr);
}

int corr_load(struct corr_set **out, struct db *db, const struct corr_query *q)
{
	struct db_side ms, rs;
	struct pairing pr;
	struct corr_set *s = xcalloc(1, sizeof(*s));
	char *src = NULL, *ver = NULL;
	int rc;

	memset(&ms, 0, sizeof(ms));
	memset(&rs, 0, sizeof(rs));
	memset(&pr, 0, sizeof(pr));
	if (!q->model || !q->ref) {
		free(s);
		return pc_error_set(PC_EUSAGE, "both a model and a reference "
				    "side are needed");
	}
	corr_parse_side(q->model, &src, &ver);
	rc = db_pairs_side(db, src, ver, &ms);
	free(src);
	free(ver);
	if (!rc) {
		corr_parse_side(q->ref, &src, &ver);
		rc = db_pairs_side(db, src, ver, &rs);
		free(src);
		free(ver);
	}
	s->store = xcalloc(1, sizeof(*s->store));
	pr = (struct pairing){ .q = q, .set = s, .st = s->store, .ms = &ms,
			       .rs = &rs };
	pr.roofline = ms.kind && !strcmp(ms.kind, "roofline");
	/* a chosen platform keeps only that platform's runs of a side */
	if (!rc && q->model_platform)
		rc = db_side_restrict(&ms, q->model_platform);
	if (!rc && q->ref_platform)
		rc = db_side_restrict(&rs, q->ref_platform);
	if (!rc && !(rc = prepare(&pr, db)))
		rc = pair_all(&pr, db);
	if (!rc) {
		side_take(&s->model, &ms);
		side_take(&s->ref, &rs);
		sort_points(s);
		count_flags(s);
		*out = s;
	} else {
		corr_set_free(s);
	}
	db_side_release(&ms);
	db_side_release(&rs);
	for (size_t i = 0; i < pr.nwhere; i++) {
		free(pr.wname[i]);
		free(pr.wval[i]);
	}
	free(pr.wname);
	free(pr.wval);
	free(pr.wseen);
	return rc;
}

void corr_side_release(struct corr_side *side)
{
	free(side->source);
	free(side->kind);
	free(side->version);
	free(side->runs);
	memset(side, 0, sizeof(*side));
}

void corr_set_free(struct corr_set *s)
{
	if (!s)
		return;
	corr_side_release(&s->model);
	corr_side_release(&s->ref);
	free(s->points);
	store_free(s->store);
	free(s);
}

/* The metric of p (NULL when the dictionary lacks it). */
static const struct db_name *metric_of(const struct corr_set *s,
				       const struct corr_point *p)
{
	return dict_find(s->store, DB_DICT_METRICS, p->metric_id, NULL);
}

/* Efficiency of a roofline model over one metric: the fraction of speed
 * of light the reference reaches, geomean(roofline / measured) for a
 * time, geomean(measured / roofline) for a rate. */
static void efficiency(struct stats_summary *out, const struct corr_set *s,
		       const struct db_name *mt)
{
	out->efficiency = NAN;
	if (!s->model.kind || strcmp(s->model.kind, "roofline"))
		return;		/* the reason stats_compute set */
	if (!mt) {
		out->why[SF_EFFICIENCY] = STATS_WHY_METRICS;
		return;
	}
	if (!sol_metric(mt->extra)) {
		out->why[SF_EFFICIENCY] = STATS_WHY_NOTSOL;
		return;
	}
	out->why[SF_EFFICIENCY] = out->why[SF_GEOMEAN];
	if (!out->why[SF_GEOMEAN])
		out->efficiency = mt->higher ? 1.0 / out->geomean_ratio :
				  out->geomean_ratio;
}

/*
 * The one function that summarises a set of points: the points
 * idx[0..n) of s (idx NULL: the first n) that keep selects. Invalid
 * points are out; noisy ones out and counted; a zero reference out and
 * counted (its relative error does not exist); waived ones out when
 * skip_waived. Optimistic / pessimistic count the pairs whose model
 * predicts better / worse than the reference, by each metric's better
 * direction. Over several metrics only the dimensionless statistics are
 * kept (stats_null_mixed). docs/statistics.md.
 */
static int summary_of(struct stats_summary *out, const struct corr_set *s,
		      const size_t *idx, size_t n,
		      int (*keep)(const struct corr_point *p, void *arg),
		      void *arg, int skip_waived)
{
	double *m = xmalloc((n + 1) * sizeof(*m));
	double *r = xmalloc((n + 1) * sizeof(*r));
	double *sd = xmalloc((n + 1) * sizeof(*sd));
	int64_t *wk = s->ci ? xmalloc((n + 1) * sizeof(*wk)) : NULL;
	long noisy = 0, sol = 0, zero = 0, opt = 0, pes = 0;
	/* |error| of the noisy references the exclusion left out */
	double noisy_abs = 0;
	long noisy_n = 0, noisy_neg = 0;
	const struct db_name *mt = NULL;
	int mixed = 0;
	size_t k = 0;
	int rc;

	for (size_t j = 0; j < n; j++) {
		const struct corr_point *p = &s->points[idx ? idx[j] : j];
		const struct db_name *pm;

		if ((keep && !keep(p, arg)) || (p->flags & CORR_INVALID))
			continue;
		sol += (p->flags & CORR_SOL_VIOLATION) != 0;
		if (p->flags & CORR_NOISY_REF) {
			noisy++;
			if (p->ref != 0 && !(skip_waived &&
					     (p->flags & CORR_WAIVED))) {
				noisy_abs += fabs(stats_err(p->model, p->ref));
				noisy_n++;
				noisy_neg += p->ref < 0;
			}
			continue;
		}
		if (skip_waived && (p->flags & CORR_WAIVED))
			continue;
		if (p->ref == 0) {
			zero++;
			continue;
		}
		pm = metric_of(s, p);
		if (k == 0)
			mt = pm;
		else if (pm != mt)
			mixed = 1;
		if (p->model != p->ref && pm) {
			if ((p->model > p->ref) == (pm->higher != 0))
				opt++;
			else
				pes++;
		}
		m[k] = p->model;
		r[k] = p->ref;
		if (wk)
			wk[k] = p->workload_id;
		sd[k++] = p->ref_sd;
	}
	rc = stats_compute(out, m, r, sd, k);
	if (!rc && wk)
		stats_ci_compute(out, m, r, wk, k, s->ci);
	if (!rc) {
		out->excluded_noisy = noisy;
		out->sol_violations = sol;
		out->excluded_zero_ref = zero;
		out->optimistic = opt;
		out->pessimistic = pes;
		if (noisy_n && noisy_neg) {
			out->mape_with_noisy = NAN;
			out->why[SF_MAPE_NOISY] = STATS_WHY_NONPOS;
		} else if (noisy_n && isfinite(out->mape)) {
			out->mape_with_noisy = (out->mape * (double)k +
						noisy_abs) /
					       (double)(k + (size_t)noisy_n);
		} else if (noisy_n && k == 0) {
			out->mape_with_noisy = noisy_abs / (double)noisy_n;
			out->why[SF_MAPE_NOISY] = NULL;
		}
		if (k > 0)
			efficiency(out, s, mixed ? NULL : mt);
		if (mixed)
			stats_null_mixed(out);
	}
	free(m);
	free(r);
	free(sd);
	free(wk);
	return rc;
}

int corr_summary(struct stats_summary *out, const struct corr_set *s,
		 int (*keep)(const struct corr_point *p, void *arg), void *arg,
		 int skip_waived)
{
	return summary_of(out, s, NULL, s->n, keep, arg, skip_waived);
}

int corr_summary_idx(struct stats_summary *out, const struct corr_set *s,
		     const size_t *idx, size_t n, int skip_waived)
{
	return summary_of(out, s, idx, n, NULL, NULL, skip_waived);
}

struct metric_keep {
	int (*keep)(const struct corr_point *p, void *arg);
	void *arg;
	int64_t metric_id;
};

static int keep_metric(const struct corr_point *p, void *arg)
{
	const struct metric_keep *mk = arg;

	return p->metric_id == mk->metric_id &&
	       (!mk->keep || mk->keep(p, mk->arg));
}

int corr_by_metric(struct corr_metric_sum **out, size_t *nout,
		   const struct corr_set *s,
		   int (*keep)(const struct corr_point *p, void *arg),
		   void *arg, int skip_waived)
{
	const struct corr_store *st = s->store;
	size_t nm = st->ndict[DB_DICT_METRICS], len = 0;
	char *used = xcalloc(nm + 1, 1);
	struct corr_metric_sum *v = NULL;
	int rc = 0;

	for (size_t i = 0; i < s->n; i++) {
		size_t k;

		if ((!keep || keep(&s->points[i], arg)) &&
		    dict_find(st, DB_DICT_METRICS, s->points[i].metric_id, &k))
			used[k] = 1;
	}
	/* the dictionary is in id order; the blocks go by name */
	for (size_t k = 0; k < nm; k++)
		len += used[k];
	v = xcalloc(len + 1, sizeof(*v));
	len = 0;
	for (size_t k = 0; k < nm && !rc; k++) {
		struct metric_keep mk = { keep, arg,
					  st->dict[DB_DICT_METRICS][k].id };
		size_t at = len;

		if (!used[k])
			continue;
		while (at > 0 && strcmp(v[at - 1].metric,
					st->dict[DB_DICT_METRICS][k].name) > 0) {
			v[at] = v[at - 1];
			at--;
		}
		v[at].metric = st->dict[DB_DICT_METRICS][k].name;
		len++;
		rc = summary_of(&v[at].sum, s, NULL, s->n, keep_metric, &mk,
				skip_waived);
	}
	free(used);
	if (rc < 0) {
		free(v);
		return rc;
	}
	*out = v;
	*nout = len;
	return 0;
}

int corr_group_key(const struct corr_set *s, const struct corr_point *p,
		   const char *by, char *key, size_t len)
{
	const char *v;

	if (!strcmp(by, "op"))
		v = p->op;
	else if (!strcmp(by, "op_class"))
		v = p->op_class;
	else if (!strcmp(by, "metric"))
		v = p->metric;
	else if (!strcmp(by, "workload"))
		v = p->workload;
	else if (!strncmp(by, "param.", 6) && by[6])
		v = param_of(s->store, p->workload_id,
			     wkey_canon_name(by + 6));
	else
		return pc_error_set(PC_EINVALID, "unknown group key '%s' (op, "
				    "op_class, metric, workload or "
				    "param.NAME)", by);
	snprintf(key, len, "%s", v ? v : "");
	return 0;
}

const char *corr_metric_unit(const struct corr_set *s, const char *metric)
{
	const struct db_name *n = NULL;
	int64_t id;

	if (s && s->store && metric &&
	    (id = metric_id_of(s->store, metric)) >= 0)
		n = dict_find(s->store, DB_DICT_METRICS, id, NULL);
	return n && n->extra ? n->extra : "";
}

int corr_check_key(const struct corr_set *s, const char *by)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name;
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (strncmp(by, "param.", 6) || !by[6])
		return 0;
	name = wkey_canon_name(by + 6);
	corr_param_names(s, &names, &n);
	for (i = 0; i < n && strcmp(names[i], name); i++)
		;
	if (i == n && s->n > 0) {
		for (i = 0; i < n; i++)
			strbuf_addf(&sb, "%s'%s'", i ? ", " : "", names[i]);
		rc = pc_error_set(PC_EINVALID, "'%s': no selected workload has "
				  "a parameter '%s' (their parameters: %s)",
				  by, name, n ? strbuf_str(&sb) : "none");
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&sb);
	return rc;
}

void corr_parse_side(const char *spec, char **source, char **version)
{
	const char *at = strchr(spec, '@');

	*source = at ? xstrndup(spec, (size_t)(at - spec)) : xstrdup(spec);
	*version = at && at[1] ? xstrdup(at + 1) : NULL;
}

int corr_versions(struct db *db, const char *source, char ***out, size_t *n)
{
	return db_pairs_versions(db, source, out, n);
}

static int name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void corr_param_names(const struct corr_set *s, char ***out, size_t *n)
{
	const struct corr_store *st = s->store;
	char *used = xcalloc(st->ndict[DB_DICT_WORKLOADS] + 1, 1);
	struct hmap seen;
	char **v = NULL;
	size_t len = 0, k;

	hmap_init(&seen);
	for (size_t i = 0; i < s->n; i++)
		if (dict_find(st, DB_DICT_WORKLOADS, s->points[i].workload_id,
			      &k))
			used[k] = 1;
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];
		int64_t dummy;

		if (!dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
		    !used[k] || hmap_get(&seen, p->name, &dummy))
			continue;
		hmap_put(&seen, p->name, 1);
		v = xrealloc(v, (len + 1) * sizeof(*v));
		v[len++] = xstrdup(p->name);
	}
	qsort(v, len, sizeof(*v), name_cmp);
	hmap_release(&seen);
	free(used);
	*out = v;
	*n = len;
}
