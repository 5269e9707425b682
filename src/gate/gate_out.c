/* Gate outputs: text, JSON, JUnit XML (see gate_out.h). */
#include "src/gate/gate_out.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "src/corr/corrout.h"
#include "base/error.h"
#include "src/gate/gate.h"
#include "src/gate/gate_out_int.h"
#include "src/gate/gate_out_sens.h"
#include "src/gate/gate_out_slo.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/util.h"

static void add_safe(struct strbuf *sb, const char *s)
{
	char *p = util_safe_dup(s ? s : "");

	strbuf_addstr(sb, p);
	free(p);
}

static void add_side(struct strbuf *sb, const struct corr_side *s)
{
	add_safe(sb, s->source);
	strbuf_addch(sb, '@');
	add_safe(sb, s->version);
}

static void add_annot(struct strbuf *sb, const struct annot *a,
		      const char *today)
{
	if (!a) {
		strbuf_addstr(sb, ANNOT_STATE_NONE);
		return;
	}
	add_safe(sb, a->status);
	strbuf_addch(sb, '/');
	add_safe(sb, a->category);
	strbuf_addstr(sb, " by ");
	add_safe(sb, a->author);
	strbuf_addstr(sb, " on ");
	strbuf_add(sb, a->created_at ? a->created_at : "", a->created_at &&
		   strlen(a->created_at) >= 10 ? 10 : 0);
	if (a->expires) {
		strbuf_addstr(sb, " until ");
		add_safe(sb, a->expires);
		if (strcmp(today, a->expires) > 0)
			strbuf_addstr(sb, " (expired)");
	}
	if (a->note && *a->note) {
		strbuf_addstr(sb, ": ");
		strbuf_add_lines(sb, a->note, add_safe, "\n        ");
	}
	if (a->link) {
		strbuf_addstr(sb, " <");
		add_safe(sb, a->link);
		strbuf_addch(sb, '>');
	}
}

/* A value in its SI unit with a prefix: "102.2 µs", "3.5 W", "12"
 * (units_fmt, the CLI's one formatter), made terminal-safe. */
static void add_value(struct strbuf *sb, double v, const char *unit)
{
	char buf[96];

	if (!isfinite(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	units_fmt(buf, sizeof(buf), v, unit, 0);
	add_safe(sb, buf);
}

/* "  workload op metric: 28 ms vs 20 ms (err +40.0%) - annotation",
 * and why an accepted annotation did or did not waive it. */
static void add_point(struct strbuf *sb, const struct gate_result *g,
		      size_t i)
{
	const struct corr_point *p = &g->set->points[i];
	const struct waiver_verdict *w = g->wv ? &g->wv[i] : NULL;
	const char *unit = corr_metric_unit(g->set, p->metric);

	strbuf_addstr(sb, "    ");
	add_safe(sb, p->workload);
	strbuf_addch(sb, ' ');
	add_safe(sb, p->op);
	strbuf_addch(sb, ' ');
	add_safe(sb, p->metric);
	strbuf_addstr(sb, ": ");
	add_value(sb, p->model, unit);
	strbuf_addstr(sb, " vs ");
	add_value(sb, p->ref, unit);
	strbuf_addf(sb, " (err %+.1f%%) - ", p->err * 100);
	add_annot(sb, p->ann, g->today);
	if (w && w->state == WAIVER_OK && w->acc)
		strbuf_addf(sb, "; accepted %+.1f%% at %s, now %+.1f%%",
			    w->acc->err * 100, w->acc->model_version,
			    p->err * 100);
	else if (w && w->why[0])
		strbuf_addf(sb, "; NOT WAIVED: %s", w->why);
	strbuf_addch(sb, '\n');
}

static const char *color_of(enum gate_status s)
{
	return s == GATE_FAIL ? "\x1b[1;31m" : s == GATE_WARN ? "\x1b[1;33m" :
	       "\x1b[1;32m";
}

static void add_label(struct strbuf *sb, enum gate_status s, int color)
{
	if (color)
		strbuf_addf(sb, "%s%s\x1b[0m", color_of(s),
			    gate_status_label(s));
	else
		strbuf_addstr(sb, gate_status_label(s));
}

/* The checks of a passing rule, or the message of one that did not. */
void gate_out_rule_line(struct strbuf *sb, const struct gate_rule_result *r,
			int width, int color)
{
	add_label(sb, r->status, color);
	strbuf_addstr(sb, "  ");
	add_safe(sb, r->rule->name);
	for (int i = (int)strlen(r->rule->name); i < width; i++)
		strbuf_addch(sb, ' ');
	strbuf_addf(sb, "  n=%ld", gate_rule_n(r));
	if (r->nwaived || r->nnoisy)
		strbuf_addf(sb, " (%ld waived, %ld noisy)", r->nwaived,
			    r->nnoisy);
	strbuf_addstr(sb, "  ");
	if (r->message) {
		add_safe(sb, r->message);
	} else {
		for (int i = 0; i < r->nchecks; i++) {
			if (i)
				strbuf_addstr(sb, "; ");
			gate_check_text_of(r, &r->checks[i], sb);
		}
	}
	strbuf_addch(sb, '\n');
	if (r->have_paired && (r->only_new || r->only_old)) {
		strbuf_addstr(sb, "      coverage vs ");
		add_safe(sb, r->prior.base_version);
		strbuf_addf(sb, ": %ld in common, %ld only in this release, "
			    "%ld only in the baseline (not in the increase)\n",
			    r->common, r->only_new, r->only_old);
	}
}

/* The offending points of a rule that did not pass. */
void gate_out_offenders(struct strbuf *sb, const struct gate_result *g,
			const struct gate_rule_result *r)
{
	if (!r->noffenders)
		return;
	strbuf_addstr(sb, "  worst points of '");
	add_safe(sb, r->rule->name);
	strbuf_addstr(sb, "':\n");
	for (size_t i = 0; i < r->noffenders; i++)
		add_point(sb, g, r->offenders[i]);
}

/* Accepted annotations that waive nothing here, once per point. */
static void add_unwaived(struct strbuf *sb, const struct gate_result *g)
{
	unsigned char *seen = xcalloc(g->set->n + 1, 1);
	int nu = 0;

	for (size_t i = 0; i < g->nrules; i++) {
		const struct gate_rule_result *r = &g->rules[i];

		for (size_t j = 0; j < r->nunwaived; j++) {
			if (seen[r->unwaived[j]]++)
				continue;
			if (!nu++)
				strbuf_addstr(sb, "accepted but not waived "
					      "(counted):\n");
			add_point(sb, g, r->unwaived[j]);
		}
	}
	free(seen);
}

void gate_out_text(FILE *fp, const struct gate_result *g)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char *seen = xcalloc(g->set->n + 1, 1);
	int width = 0, nw = 0;
	int color = isatty(fileno(fp)) && !util_no_color();

	strbuf_addstr(&sb, "gate '");
	add_safe(&sb, g->policy->name);
	strbuf_addstr(&sb, "': model ");
	add_side(&sb, &g->set->model);
	strbuf_addstr(&sb, " vs reference ");
	add_side(&sb, &g->set->ref);
	strbuf_addf(&sb, ", %zu pairs\n", g->set->n);
	gate_out_baseline(&sb, g);
	for (size_t i = 0; i < g->nrules; i++)
		if ((int)strlen(g->rules[i].rule->name) > width)
			width = (int)strlen(g->rules[i].rule->name);
	for (size_t i = 0; i < g->nrules; i++)
		gate_out_rule_line(&sb, &g->rules[i], width, color);
	for (size_t i = 0; i < g->nrules; i++)
		if (g->rules[i].status != GATE_PASS)
			gate_out_offenders(&sb, g, &g->rules[i]);
	for (size_t i = 0; i < g->nrules; i++)
		gate_out_sweeps(&sb, &g->rules[i]);
	for (size_t i = 0; i < g->nrules; i++)
		gate_out_verdicts(&sb, g, &g->rules[i]);
	for (size_t i = 0; i < g->nrules; i++)
		gate_out_movers(&sb, g, &g->rules[i]);
	for (size_t i = 0; i < g->nrules; i++) {
		const struct gate_rule_result *r = &g->rules[i];

		for (size_t j = 0; j < r->nwaived_pts; j++) {
			if (seen[r->waived[j]]++)
				continue;
			if (!nw++)
				strbuf_addstr(&sb, "waived (accepted, not "
					      "counted):\n");
			add_point(&sb, g, r->waived[j]);
		}
	}
	add_unwaived(&sb, g);
	strbuf_addstr(&sb, "verdict: ");
	add_label(&sb, g->verdict, color);
	if (g->nunknown)
		strbuf_addf(&sb, " (%ld fail, %ld unknown, %ld warn, %ld pass)"
			    "\n", g->nfail, g->nunknown, g->nwarn, g->npass);
	else
		strbuf_addf(&sb, " (%ld fail, %ld warn, %ld pass)\n",
			    g->nfail, g->nwarn, g->npass);
	if (g->ntests)
		strbuf_addf(&sb, "error control: %s over the %zu rule%s with a "
			    "p-value%s\n", policy_error_control_name(
			    g->policy->error_control), g->ntests, g->ntests ==
			    1 ? "" : "s", g->ntests == 1 ? " (nothing to adjust)"
			    : "");
	fputs(sb.buf, fp);
	strbuf_release(&sb);
	free(seen);
}

static size_t xml_char(const unsigned char *s);

/* Strings from files may hold invalid UTF-8: JSON gets U+FFFD instead. */
static void add_str(cJSON *o, const char *k, const char *v)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *s = (const unsigned char *)v;

	if (!v) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	while (*s) {
		size_t n = *s < 0x80 ? 1 : xml_char(s);

		if (n)
			strbuf_add(&sb, (const char *)s, n);
		else
			strbuf_addstr(&sb, "\xef\xbf\xbd");
		s += n ? n : 1;
	}
	cJSON_AddStringToObject(o, k, strbuf_str(&sb));
	strbuf_release(&sb);
}

static cJSON *json_side(const struct corr_side *s)
{
	cJSON *o = cJSON_CreateObject(), *runs = cJSON_CreateArray();

	add_str(o, "source", s->source);
	add_str(o, "kind", s->kind);
	add_str(o, "version", s->version);
	for (size_t i = 0; i < s->nruns; i++)
		cJSON_AddItemToArray(runs, cJSON_CreateNumber((double)
							      s->runs[i]));
	cJSON_AddItemToObject(o, "runs", runs);
	return o;
}

static cJSON *json_point(const struct gate_result *g, size_t i)
{
	const struct corr_point *p = &g->set->points[i];
	const struct waiver_verdict *w = g->wv ? &g->wv[i] : NULL;
	cJSON *o = cJSON_CreateObject(), *a;

	add_str(o, "workload", p->workload);
	add_str(o, "op", p->op);
	add_str(o, "metric", p->metric);
	cJSON_AddNumberToObject(o, "model", p->model);
	cJSON_AddNumberToObject(o, "ref", p->ref);
	cJSON_AddNumberToObject(o, "err", p->err);
	if (!p->ann) {
		cJSON_AddNullToObject(o, "annotation");
		return o;
	}
	a = cJSON_AddObjectToObject(o, "annotation");
	add_str(a, "status", p->ann->status);
	add_str(a, "category", p->ann->category);
	add_str(a, "note", p->ann->note);
	add_str(a, "author", p->ann->author);
	add_str(a, "created_at", p->ann->created_at);
	add_str(a, "expires", p->ann->expires);
	add_str(a, "link", p->ann->link);
	add_str(a, "model_versions", p->ann->model_versions);
	if (!w || w->state == WAIVER_NONE)
		return o;
	a = cJSON_AddObjectToObject(o, "waiver");
	cJSON_AddStringToObject(a, "state", waiver_state_name(w->state));
	add_str(a, "why", w->why[0] ? w->why : NULL);
	if (w->acc) {
		cJSON_AddNumberToObject(a, "accepted_err", w->acc->err);
		add_str(a, "accepted_model_version", w->acc->model_version);
		add_str(a, "accepted_ref_version", w->acc->ref_version);
		cJSON_AddNumberToObject(a, "tolerance", w->tol);
	}
	return o;
}

static void json_paired(cJSON *o, const struct gate_rule_result *r)
{
	const struct stats_change *p = &r->paired;
	cJSON *x, *ci;
	double praw = NAN, padj = NAN;

	if (!r->have_paired) {
		cJSON_AddNullToObject(o, "paired");
		cJSON_AddNullToObject(o, "coverage");
		return;
	}
	for (int i = 0; i < r->nchecks; i++)
		if (r->checks[i].lim == PL_MAX_MAPE_INCREASE) {
			praw = r->checks[i].p_raw;
			padj = r->checks[i].p_adj;
		}
	x = cJSON_AddObjectToObject(o, "paired");
	cJSON_AddNumberToObject(x, "n", (double)p->n);
	cJSON_AddNumberToObject(x, "mape_before", p->mean_before);
	cJSON_AddNumberToObject(x, "mape_after", p->mean_after);
	cJSON_AddNumberToObject(x, "delta", p->delta);
	ci = cJSON_AddArrayToObject(x, "ci");
	cJSON_AddItemToArray(ci, cJSON_CreateNumber(p->ci_lo));
	cJSON_AddItemToArray(ci, cJSON_CreateNumber(p->ci_hi));
	cJSON_AddNumberToObject(x, "ci_level", p->level);
	cJSON_AddStringToObject(x, "test", "cluster-robust-t");
	cJSON_AddStringToObject(x, "design", p->design);
	cJSON_AddNumberToObject(x, "workloads", (double)p->n_workloads);
	cJSON_AddNumberToObject(x, "ops", (double)p->n_ops);
	cJSON_AddNumberToObject(x, "df", p->df);
	/* p of "the increase is at most the limit", raw and after the
	 * policy's error control (equal when it adjusted nothing) */
	cJSON_AddNumberToObject(x, "p_value", praw);
	cJSON_AddNumberToObject(x, "p_adjusted", padj);
	if (isnan(r->rule->significance))
		cJSON_AddNullToObject(x, "significance");
	else
		cJSON_AddNumberToObject(x, "significance",
					r->rule->significance);
	/* why the interval and p are null (issue 34: too few workloads),
	 * or the change is exact; null otherwise */
	add_str(x, "why", p->why);
	x = cJSON_AddObjectToObject(o, "coverage");
	add_str(x, "baseline", r->prior.base_version);
	cJSON_AddNumberToObject(x, "common", (double)r->common);
	cJSON_AddNumberToObject(x, "only_new", (double)r->only_new);
	cJSON_AddNumberToObject(x, "only_old", (double)r->only_old);
}

static cJSON *json_check(const struct gate_check *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "limit", policy_limit_name(c->lim));
	cJSON_AddNumberToObject(o, "value", c->value);
	if (c->lim == PL_SLOPE_RANGE) {
		cJSON *r = cJSON_AddArrayToObject(o, "threshold");

		cJSON_AddItemToArray(r, cJSON_CreateNumber(c->limit));
		cJSON_AddItemToArray(r, cJSON_CreateNumber(c->limit_hi));
	} else {
		cJSON_AddNumberToObject(o, "threshold", c->limit);
	}
	cJSON_AddBoolToObject(o, "failed", c->failed);
	cJSON_AddBoolToObject(o, "applicable", !c->na);
	add_str(o, "why", c->why);
	if (c->lim == PL_MAX_MAPE_INCREASE) {
		cJSON_AddBoolToObject(o, "significant", c->significant);
		cJSON_AddBoolToObject(o, "unknown", c->unknown);
		cJSON_AddNumberToObject(o, "p_value", c->p_raw);
		cJSON_AddNumberToObject(o, "p_adjusted", c->p_adj);
		if (c->unknown && c->more_workloads > 0)
			cJSON_AddNumberToObject(o, "more_workloads",
						(double)c->more_workloads);
		else
			cJSON_AddNullToObject(o, "more_workloads");
	}
	if (c->lim == PL_MAX_VERDICT_FLIPS ||	/* near-limit keys decide */
	    c->lim == PL_MAX_ABS_ERR_INCREASE)	/* nothing evaluated */
		cJSON_AddBoolToObject(o, "unknown", c->unknown);
	return o;
}

static cJSON *json_rule(const struct gate_result *g,
			const struct gate_rule_result *r)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	add_str(o, "name", r->rule->name);
	cJSON_AddStringToObject(o, "severity", r->rule->severity ==
				POLICY_WARN ? "warn" : "fail");
	cJSON_AddStringToObject(o, "status", gate_status_name(r->status));
	cJSON_AddBoolToObject(o, "failed", r->failed);
	cJSON_AddNumberToObject(o, "consecutive", r->rule->consecutive);
	cJSON_AddNumberToObject(o, "streak", r->streak);
	add_str(o, "message", r->message);
	cJSON_AddNumberToObject(o, "pairs", (double)gate_rule_n(r));
	cJSON_AddNumberToObject(o, "selected", (double)r->nselected);
	cJSON_AddNumberToObject(o, "waived", (double)r->nwaived);
	cJSON_AddNumberToObject(o, "noisy", (double)r->nnoisy);
	cJSON_AddNumberToObject(o, "invalid", (double)r->ninvalid);
	cJSON_AddNumberToObject(o, "mape", r->sum.mape);
	if (r->prior.have_base) {
		cJSON *b = cJSON_AddObjectToObject(o, "baseline");

		add_str(b, "version", r->prior.base_version);
		cJSON_AddStringToObject(b, "from", gate_out_base_from(r));
		/* null for the previous version: no evaluation recorded
		 * its MAPE (paired.mape_before has it on the common points) */
		cJSON_AddNumberToObject(b, "mape", r->prior.base_mape);
	} else {
		cJSON_AddNullToObject(o, "baseline");
	}
	json_paired(o, r);
	arr = cJSON_AddArrayToObject(o, "checks");
	for (int i = 0; i < r->nchecks; i++)
		cJSON_AddItemToArray(arr, json_check(&r->checks[i]));
	arr = cJSON_AddArrayToObject(o, "offending");
	for (size_t i = 0; i < r->noffenders; i++)
		cJSON_AddItemToArray(arr, json_point(g, r->offenders[i]));
	arr = cJSON_AddArrayToObject(o, "waived_points");
	for (size_t i = 0; i < r->nwaived_pts; i++)
		cJSON_AddItemToArray(arr, json_point(g, r->waived[i]));
	arr = cJSON_AddArrayToObject(o, "unwaived_points");
	for (size_t i = 0; i < r->nunwaived; i++)
		cJSON_AddItemToArray(arr, json_point(g, r->unwaived[i]));
	if (r->ncalib) {
		/* calibration marks: how many of its pairs the model was
		 * calibrated on; whether it passes only on them */
		cJSON *c = cJSON_AddObjectToObject(o, "calibration");

		cJSON_AddNumberToObject(c, "calibration_points",
					(double)r->ncalib);
		cJSON_AddNumberToObject(c, "held_out_points", (double)r->nheld);
		cJSON_AddBoolToObject(c, "passes_only_on_calibration",
				      r->calib_only);
		add_str(c, "why", r->calib_why);
	}
	gate_out_sweeps_json(o, r, add_str);
	gate_out_verdicts_json(o, r, add_str);
	gate_out_movers_json(o, g, r, add_str);
	{
		/* every statistic of the rule's points, with the keys and
		 * the very bytes of compare's summary: corrout's one writer
		 * (issue 19), as raw JSON (cJSON would print its numbers
		 * with 15 digits) */
		char *text = corrout_stats_json_str(&r->sum);

		cJSON_AddRawToObject(o, "statistics", text);
		free(text);
	}
	return o;
}

char *gate_out_json(const struct gate_result *g)
{
	cJSON *o = cJSON_CreateObject(), *p, *c, *arr;
	struct strbuf sb = STRBUF_INIT;
	char *s;

	p = cJSON_AddObjectToObject(o, "policy");
	add_str(p, "name", g->policy->name);
	add_str(p, "file", g->policy->file);
	cJSON_AddStringToObject(p, "sha256", g->policy->hash);
	cJSON_AddItemToObject(o, "model", json_side(&g->set->model));
	cJSON_AddItemToObject(o, "ref", json_side(&g->set->ref));
	cJSON_AddStringToObject(o, "date", g->today);
	cJSON_AddStringToObject(o, "verdict", gate_status_name(g->verdict));
	c = cJSON_AddObjectToObject(o, "counts");
	cJSON_AddNumberToObject(c, "pass", (double)g->npass);
	cJSON_AddNumberToObject(c, "warn", (double)g->nwarn);
	cJSON_AddNumberToObject(c, "fail", (double)g->nfail);
	cJSON_AddNumberToObject(c, "unknown", (double)g->nunknown);
	cJSON_AddStringToObject(o, "error_control",
				policy_error_control_name(g->policy->error_control));
	cJSON_AddNumberToObject(o, "tests", (double)g->ntests);
	cJSON_AddStringToObject(o, "unknown_as",
				policy_unknown_name(g->policy->unknown_as));
	cJSON_AddNumberToObject(o, "pairs", (double)g->set->n);
	arr = cJSON_AddArrayToObject(o, "rules");
	for (size_t i = 0; i < g->nrules; i++)
		cJSON_AddItemToArray(arr, json_rule(g, &g->rules[i]));
	s = cJSON_Print(o);
	cJSON_Delete(o);
	/* cJSON passes C1 and bidi controls raw */
	strbuf_add_json_text(&sb, s);
	cJSON_free(s);
	return strbuf_detach(&sb);
}

/* Length of a valid UTF-8 sequence XML 1.0 allows at s, or 0. */
static size_t xml_char(const unsigned char *s)
{
	unsigned cp;
	size_t n;

	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' ||
		       s[0] == '\r';
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 ||
						  cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void gate_xml_escape(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		size_t n = xml_char(s);

		if (!n) {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			s++;
			continue;
		}
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&apos;"); break;
		default: strbuf_add(sb, (const char *)s, n);
		}
		s += n;
	}
}
