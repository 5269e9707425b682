/*
 * "Nothing matched" (see corr_pair_int.h): when no pair came out, both
 * sides are read whole and the error says what each side holds, what
 * each filter (--metric, --op, --workload, --where) left of it, the
 * values a --where parameter takes; and a --where parameter no selected
 * workload has is named with the parameters they do have.
 */
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "base/error.h"
#include "base/hmap.h"
#include "src/corr/correlate_int.h"
#include "src/corr/corr_pair_int.h"
#include "base/strbuf.h"
#include "base/util.h"

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
		if (corr_dict_find(st, DB_DICT_OPS, v[i].op_id, &k) && !ops[k]++)
			no++;
		if (corr_dict_find(st, DB_DICT_METRICS, v[i].metric_id, &k) &&
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
		o = corr_dict_find(pr->st, DB_DICT_OPS, v[i].op_id, NULL);
		if (!o || (q->op_glob && !util_glob(q->op_glob, o->name)))
			continue;
		c[2]++;
		w = corr_dict_find(pr->st, DB_DICT_WORKLOADS, v[i].workload_id, &wi);
		if (!w || !corr_pair_workload_globs_ok(q, w->name))
			continue;
		c[3]++;
		if (sel)
			sel[wi] = 1;
		if (!corr_pair_where_ok(pr, v[i].workload_id, NULL))
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
		    !corr_dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
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

		if (!corr_dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
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
int corr_pair_where_unknown(const struct pairing *pr)
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

/* "no metric named 'tpt' (did you mean 'tpot'?)": the candidates are
 * the metrics either side has results of. */
static void metric_hint(struct strbuf *sb, const struct pairing *pr,
			const struct db_result *m, size_t nm,
			const struct db_result *r, size_t nr)
{
	size_t nd = pr->st->ndict[DB_DICT_METRICS], n = 0;
	char *has = xcalloc(nd + 1, 1);
	const char **names = xcalloc(nd + 1, sizeof(*names));
	const char *best;

	for (size_t i = 0, k; i < nm + nr; i++)
		if (corr_dict_find(pr->st, DB_DICT_METRICS, i < nm ?
				   m[i].metric_id : r[i - nm].metric_id, &k) &&
		    !has[k]++)
			names[n++] = pr->st->dict[DB_DICT_METRICS][k].name;
	strbuf_addf(sb, "no metric named '%s'", pr->q->metric);
	if ((best = util_did_you_mean(pr->q->metric, names, n)))
		strbuf_addf(sb, " (did you mean '%s'?)", best);
	free(has);
	free(names);
}

int corr_pair_nothing_matched(const struct pairing *pr,
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
	if (pr->metric_unknown)
		metric_hint(&sb, pr, m, nm, r, nr);
	else
		strbuf_addstr(&sb, "nothing matched");
	strbuf_addf(&sb, ": model '%s@%s' has ",
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
