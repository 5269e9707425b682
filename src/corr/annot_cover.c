/* What a new annotation covers (see annot_cover.h). */
#include "src/corr/annot_cover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static int part(const char *pat, const char *s, int glob)
{
	if (!pat)
		return 1;
	if (!s)
		return 0;
	return glob ? util_glob(pat, s) : !strcmp(pat, s);
}

static void add_candidate(struct annot_cover *c, size_t *cap, const char *w,
			  const char *o, const char *m, double err)
{
	if (c->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		c->w = xrealloc(c->w, *cap * sizeof(char *));
		c->o = xrealloc(c->o, *cap * sizeof(char *));
		c->m = xrealloc(c->m, *cap * sizeof(char *));
		c->err = xrealloc(c->err, *cap * sizeof(double));
	}
	c->w[c->n] = xstrdup(w ? w : "");
	c->o[c->n] = xstrdup(o ? o : "");
	c->m[c->n] = xstrdup(m ? m : "");
	c->err[c->n++] = err;
}

int annot_cover_load(struct annot_cover *c, struct db *db, const struct annot *a,
		     const char *model, const char *ref)
{
	size_t cap = 0;
	int rc = 0, all = c->all_names;

	memset(c, 0, sizeof(*c));
	c->all_names = all;
	if (model && ref) {
		struct corr_query q = CORR_QUERY_INIT;
		struct corr_set *set = NULL;

		q.model = model;
		q.ref = ref;
		if ((rc = corr_load(&set, db, &q)) < 0)
			return rc;
		for (size_t i = 0; i < set->n; i++)
			add_candidate(c, &cap, set->points[i].workload,
				      set->points[i].op, set->points[i].metric,
				      set->points[i].err);
		c->model_version = xstrdup(set->model.version);
		c->ref_version = xstrdup(set->ref.version);
		c->model_source = xstrdup(set->model.source);
		c->ref_source = xstrdup(set->ref.source);
		corr_set_free(set);
	} else {
		struct db_annot_keys k;
		char *src = NULL, *ver = NULL;
		int exact = !a->is_pattern && !c->all_names;

		if (model || ref)
			corr_parse_side(model ? model : ref, &src, &ver);
		/* exact parts: an index lookup, not a walk of every result */
		rc = db_annot_keys(db, src, exact ? a->workload : NULL,
				   exact ? a->op : NULL, exact ? a->metric : NULL,
				   &k);
		for (size_t i = 0; !rc && i < k.n; i++)
			add_candidate(c, &cap, k.workload[i], k.op[i],
				      k.metric[i], NAN);
		if (!rc)
			db_annot_keys_free(&k);
		if (model)
			c->model_source = src;
		else if (ref)
			c->ref_source = src;
		else
			free(src);
		free(ver);
		if (rc < 0)
			return rc;
	}
	c->match = xcalloc(c->n + 1, sizeof(size_t));
	for (size_t i = 0; i < c->n; i++)
		if (part(a->workload, c->w[i], a->is_pattern) &&
		    part(a->op, c->o[i], a->is_pattern) &&
		    part(a->metric, c->m[i], a->is_pattern))
			c->match[c->nmatch++] = i;
	if (!c->nmatch && !c->all_names && !(model && ref) &&
	    !a->is_pattern) {
		/* nothing: every name, for the closest ones */
		annot_cover_release(c);
		c->all_names = 1;
		return annot_cover_load(c, db, a, model, ref);
	}
	return 0;
}

size_t annot_edit_distance(const char *a, const char *b)
{
	return util_edit_distance(a, b);
}

/* Up to 3 distinct names of candidates' part closest to want. */
static void closest(struct strbuf *sb, char **names, size_t n,
		    const char *want)
{
	const char *best[3] = { NULL, NULL, NULL };
	size_t bd[3] = { (size_t)-1, (size_t)-1, (size_t)-1 };

	for (size_t i = 0; i < n; i++) {
		size_t d = annot_edit_distance(want, names[i]);
		int dup = 0;

		for (int k = 0; k < 3; k++)
			dup |= best[k] && !strcmp(best[k], names[i]);
		if (dup)
			continue;
		for (int k = 0; k < 3; k++) {
			if (d >= bd[k])
				continue;
			for (int j = 2; j > k; j--) {
				best[j] = best[j - 1];
				bd[j] = bd[j - 1];
			}
			best[k] = names[i];
			bd[k] = d;
			break;
		}
	}
	for (int k = 0; k < 3 && best[k]; k++)
		strbuf_addf(sb, "%s'%s'", k ? ", " : "", best[k]);
	if (!best[0])
		strbuf_addstr(sb, "none stored");
}

char *annot_cover_closest(const struct annot_cover *c, const struct annot *a)
{
	struct strbuf sb = STRBUF_INIT;
	const char *want[3] = { a->workload, a->op, a->metric };
	char **names[3] = { c->w, c->o, c->m };
	static const char *const label[3] = { "workload", "op", "metric" };
	int said = 0;

	for (int p = 0; p < 3; p++) {
		int found = 0;

		if (!want[p])
			continue;
		for (size_t i = 0; i < c->n && !found; i++)
			found = part(want[p], names[p][i], a->is_pattern);
		if (found)
			continue;
		strbuf_addf(&sb, "%sno stored pair has %s '%s' (closest: ",
			    said++ ? "; " : "", label[p], want[p]);
		closest(&sb, names[p], c->n, want[p]);
		strbuf_addch(&sb, ')');
	}
	if (!said)
		strbuf_addstr(&sb, "each part names stored pairs, but no "
			      "stored pair has them all together");
	return strbuf_detach(&sb);
}

void annot_cover_errs(const struct annot_cover *c, struct annot *a)
{
	a->errs = xcalloc(c->nmatch + 1, sizeof(*a->errs));
	a->nerrs = c->nmatch;
	for (size_t k = 0; k < c->nmatch; k++) {
		size_t i = c->match[k];

		a->errs[k] = (struct annot_err){ c->w[i], c->o[i], c->m[i],
			c->model_version, c->ref_version, c->err[i] };
	}
}

void annot_cover_errs_free(struct annot *a)
{
	free(a->errs);	/* the strings are the cover's */
	a->errs = NULL;
	a->nerrs = 0;
}

static int tier(const struct annot *a)
{
	if (a->is_pattern)
		return 2;
	return a->workload && a->op && a->metric ? 0 : 1;
}

/* Source parts: a NULL side of the query (the new annotation names no
 * source there) matches any row, as the row may apply to some pairing. */
static int src_ok(const char *row, const char *want, int glob)
{
	return !row || !want || part(row, want, glob);
}

/* The row annot_index_find would pick for the key (tier, then newest;
 * a "no annotation" row of a tier leaves it to the lower tiers). */
static const struct annot *current(const struct annot *rows, size_t n,
				   const char *w, const char *o, const char *m,
				   const char *ms, const char *rs)
{
	const struct annot *best[3] = { NULL, NULL, NULL };

	for (size_t i = 0; i < n; i++) {
		const struct annot *a = &rows[i];
		int t = tier(a);

		if (!part(a->workload, w, a->is_pattern) ||
		    !part(a->op, o, a->is_pattern) ||
		    !part(a->metric, m, a->is_pattern) ||
		    !src_ok(a->model_source, ms, a->is_pattern) ||
		    !src_ok(a->ref_source, rs, a->is_pattern))
			continue;
		if (!best[t] || a->id > best[t]->id)
			best[t] = a;
	}
	for (int t = 0; t < 3; t++)
		if (best[t] && !annot_is_undo_none(best[t]))
			return best[t];
	return NULL;
}

int annot_cover_shadow(struct annot_cover *c, struct db *db, int64_t id)
{
	struct annot *rows = NULL;
	size_t n = 0;
	int rc = db_annot_all(db, &rows, &n);

	if (rc < 0)
		return rc;
	c->ncurrent = c->nshadow = 0;
	for (size_t k = 0; k < c->nmatch; k++) {
		size_t i = c->match[k];
		const struct annot *cur = current(rows, n, c->w[i], c->o[i],
			c->m[i], c->model_source, c->ref_source);

		if (!cur || cur->id == id) {
			c->ncurrent += cur != NULL;
			continue;
		}
		if (!c->nshadow++) {
			c->shadow_first = k;
			c->shadow_by.id = cur->id;
			c->shadow_by.is_pattern = cur->is_pattern;
			c->shadow_by.status = xstrdup(cur->status);
			c->shadow_rule = tier(cur) == 0 ? "an exact key "
				"(workload, op and metric) takes precedence "
				"over a partial key or a pattern" :
				"an exact key takes precedence over a pattern";
		}
	}
	db_annot_free(rows, n);
	return 0;
}

void annot_cover_release(struct annot_cover *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->w[i]);
		free(c->o[i]);
		free(c->m[i]);
	}
	free(c->w);
	free(c->o);
	free(c->m);
	free(c->err);
	free(c->match);
	free(c->model_version);
	free(c->ref_version);
	free(c->model_source);
	free(c->ref_source);
	free(c->shadow_by.status);
	memset(c, 0, sizeof(*c));
}

