/* The report's "Accuracy against cost per tier" (see report_tiers.h). */
#include "src/report/report_tiers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/runinfo.h"
#include "src/corr/correlate.h"
#include "src/gate/policy.h"
#include "src/gate/tiers.h"
#include "src/import/import.h"
#include "src/report/report_model.h"
#include "src/report/svg.h"

/* Some run behind the table has a recorded cost. */
static int costed(const struct tiers *t)
{
	for (size_t i = 0; i < t->ntiers; i++)
		if (t->tiers[i].cost.runs > t->tiers[i].cost.uncosted)
			return 1;
	for (size_t k = 0; k < t->nclasses; k++)
		if (t->classes[k].ref_cost.runs > t->classes[k].ref_cost.uncosted)
			return 1;
	return 0;
}

int report_tiers_build(struct report *r, struct db *db)
{
	struct tiers_opts o;
	struct tiers *t;
	char *ref;
	int rc, any;

	/* no run has a cost: no section, and no second pairing of every
	 * source below the reference */
	if ((rc = db_runs_have_cost(db, &any)) < 0 || !any)
		return rc;
	memset(&o, 0, sizeof(o));
	ref = xasprintf("%s@%s", r->set->ref.source, r->set->ref.version);
	o.ref = ref;
	o.policy = r->policy;
	o.allow_mismatch = r->allow;
	t = xcalloc(1, sizeof(*t));
	rc = tiers_build(t, db, &o);
	free(ref);
	if (rc == PC_ENOTFOUND || (!rc && !costed(t))) {
		pc_error_clear();
		if (!rc)
			tiers_release(t);
		free(t);
		return 0;
	}
	if (rc < 0) {
		free(t);
		return rc;
	}
	r->tiers = t;
	return 0;
}

void report_tiers_free(struct report *r)
{
	if (!r->tiers)
		return;
	tiers_release(r->tiers);
	free(r->tiers);
	r->tiers = NULL;
}

static void pct(char *b, size_t len, double x, int sign)
{
	if (!isfinite(x))
		snprintf(b, len, "n/a");
	else
		snprintf(b, len, sign ? "%+.2f%%" : "%.2f%%", 100 * x);
}

static void cost(char *b, size_t len, const struct tiers_cost *c)
{
	if (!isnan(c->per_workload))
		import_cost_fmt(b, len, c->per_workload, c->unit);
	else if (c->mixed)
		snprintf(b, len, "n/a (units differ)");
	else
		snprintf(b, len, "n/a (%ld of %ld runs without)", c->uncosted,
			 c->runs);
}

/* A row's MAPE and bias columns (a bound's SoL and pairs over it) and
 * its cost, the same in markdown and HTML. */
static void cell_text(const struct tiers_cell *x, char m[32], char b[32],
		      char c[64])
{
	if (x->status == TIERS_BOUND) {
		tiers_bound_text(x, m, 32, b, 32);
	} else {
		pct(m, 32, x->sum.mape, 0);
		pct(b, 32, x->sum.bias, 1);
	}
	cost(c, 64, &x->cost);
}

static void headline(struct strbuf *sb, const struct tiers *t,
		     const struct report *r)
{
	strbuf_addf(sb, "Every source below the reference %s@%s (%s) on the "
		    "ladder roofline < perfsim < rtl < emulation < silicon, at "
		    "its latest version, per %s: its error (a roofline, a "
		    "bound: the fraction of speed of light the reference "
		    "reaches and the pairs over it), its cost per workload "
		    "(the runs' recorded cost over their workloads) and ",
		    t->ref_source, t->ref_version, t->ref_kind,
		    t->class_by);
	if (r->policy)
		strbuf_addf(sb, "whether it meets the limits of the policy "
			    "'%s' (its rules on the class's points; unknown "
			    "below %ld points); as perfcorr tiers.", r->policy->name,
			    t->min_points);
	else
		strbuf_addstr(sb, "no limits (report --policy FILE decides the "
			      "cheapest tier per class); as perfcorr tiers.");
}

/* "perfsim archsim@2.4.0 (28 s per workload)", "unknown: ...", ... */
static void cheapest(struct strbuf *sb, const struct tiers *t,
		     const struct tiers_class *c)
{
	char b[64];

	if (c->cheap == TIERS_NOLIMIT) {
		strbuf_addf(sb, "- (%s)", c->cheap_why ? c->cheap_why : "");
		return;
	}
	if (c->cheap == TIERS_UNKNOWN)
		strbuf_addf(sb, "unknown: %s; ", c->cheap_why);
	if (c->cheapest < 0 && c->cheap == TIERS_UNKNOWN) {
		strbuf_addstr(sb, "no other tier below the reference meets");
		return;
	}
	if (c->cheapest < 0) {
		strbuf_addf(sb, "none below the reference meets: %s (%s) "
			    "itself", t->ref_source, t->ref_kind);
		return;
	}
	cost(b, sizeof(b), &c->cells[c->cheapest].cost);
	strbuf_addf(sb, "%s%s %s@%s (%s per workload; %s)", c->cheap ==
		    TIERS_UNKNOWN ? "the first that meets: " : "",
		    t->tiers[c->cheapest].kind, t->tiers[c->cheapest].source,
		    t->tiers[c->cheapest].version, b, c->by_cost ?
		    "by measured cost" : "by the tier order");
}

void report_tiers_md(struct strbuf *sb, const struct report *r)
{
	const struct tiers *t = r->tiers;
	struct strbuf line = STRBUF_INIT;

	if (!t)
		return;
	strbuf_addstr(sb, "## Accuracy against cost per tier\n\n");
	headline(sb, t, r);
	strbuf_addstr(sb, "\n\n| class | tier | source | n | MAPE | bias | "
		      "cost per workload | limits |\n"
		      "|---|---|---|--:|--:|--:|--:|---|\n");
	for (size_t k = 0; k < t->nclasses; k++)
		for (size_t i = 0; i < t->ntiers; i++) {
			const struct tiers_cell *x = &t->classes[k].cells[i];
			char m[32], b[32], c[64];

			if (!x->npoints)
				continue;
			cell_text(x, m, b, c);
			strbuf_addstr(sb, "| ");
			report_md_escape(sb, t->classes[k].name);
			strbuf_addf(sb, " | %s | ", t->tiers[i].kind);
			report_md_escape(sb, t->tiers[i].source);
			strbuf_addf(sb, " | %ld | %s | %s | %s | %s", x->sum.n,
				    m, b, c, tiers_status_name(x->status));
			if (x->why) {
				strbuf_addstr(sb, ": ");
				report_md_escape(sb, x->why);
			}
			strbuf_addstr(sb, " |\n");
		}
	strbuf_addstr(sb, "\nThe cheapest tier that meets the limits, per "
		      "class:\n\n");
	for (size_t k = 0; k < t->nclasses; k++) {
		strbuf_reset(&line);
		cheapest(&line, t, &t->classes[k]);
		strbuf_addstr(sb, "- **");
		report_md_escape(sb, t->classes[k].name);
		strbuf_addstr(sb, "**: ");
		report_md_escape(sb, line.buf);
		strbuf_addch(sb, '\n');
	}
	strbuf_addch(sb, '\n');
	strbuf_release(&line);
}

/* The figure: the unit most tiers' costs are in; the others are left
 * out and counted. */
static void figure(struct strbuf *sb, const struct tiers *t,
		   const struct report *r)
{
	static const char *const shapes[] = { "roofline", "perfsim", "rtl",
					      "emulation", "silicon" };
	struct svg_tier_pt *p = xcalloc(t->nclasses * (t->ntiers + 1) + 1,
					sizeof(*p));
	const char **cls = xcalloc(t->nclasses + 1, sizeof(*cls));
	char **tips = xcalloc(t->nclasses * (t->ntiers + 1) + 1,
			      sizeof(*tips));
	const char *unit = NULL;
	struct svg_tiers f = { 0 };
	size_t n = 0, out = 0;

	for (size_t k = 0; k < t->nclasses && !unit; k++)
		for (size_t i = 0; i < t->ntiers && !unit; i++)
			unit = t->classes[k].cells[i].cost.unit;
	for (size_t k = 0; k < t->nclasses; k++) {
		cls[k] = t->classes[k].name;
		for (size_t i = 0; i <= t->ntiers; i++) {
			const struct tiers_cost *c = i < t->ntiers ?
				&t->classes[k].cells[i].cost :
				&t->classes[k].ref_cost;
			int ref = i == t->ntiers;

			if (!ref && (!t->classes[k].cells[i].npoints ||
				     t->classes[k].cells[i].status == TIERS_BOUND))
				continue;	/* a bound has no error */
			if (!c->unit || !unit || strcmp(c->unit, unit) ||
			    isnan(c->per_workload)) {
				out++;
				continue;
			}
			p[n].cost = c->per_workload;
			p[n].mape = ref ? 0 : t->classes[k].cells[i].sum.mape;
			p[n].cls = (unsigned)k;
			p[n].shape = (unsigned)(ref ? 4 : tiers_rank(
						t->tiers[i].kind) % 5);
			tips[n] = xasprintf("%s: %s %s, MAPE %.2f%%, %.4g %s per "
					    "workload", t->classes[k].name,
					    ref ? t->ref_kind : t->tiers[i].kind,
					    ref ? t->ref_source :
					    t->tiers[i].source, 100 * p[n].mape,
					    c->per_workload, c->unit);
			p[n].tip = tips[n];
			n++;
		}
	}
	f.title = "Accuracy against cost per tier";
	f.unit = unit ? unit : "s";
	f.classes = cls;
	f.nclasses = t->nclasses;
	f.shapes = shapes;
	f.nshapes = 5;
	f.pts = p;
	f.n = n;
	f.left_out = out;
	for (size_t i = 0; r->policy && i < r->policy->nrules; i++)
		if ((r->policy->rules[i].has & (1u << PL_MAX_MAPE)) &&
		    (f.limit == 0 || r->policy->rules[i].lim[PL_MAX_MAPE] <
		     f.limit))
			f.limit = r->policy->rules[i].lim[PL_MAX_MAPE];
	strbuf_addstr(sb, "<figure>\n");
	svg_tiers(sb, &f);
	strbuf_addstr(sb, "<figcaption>Each line one class through its tiers, "
		      "cheapest first; the dashed line the policy's smallest "
		      "max_mape. A roofline is a bound, not a prediction: it "
		      "is in the table (the fraction of speed of light, the "
		      "pairs over it), not on the error axis.</figcaption>\n"
		      "</figure>\n");
	for (size_t i = 0; i < n; i++)
		free(tips[i]);
	free(tips);
	free(cls);
	free(p);
}

void report_tiers_html(struct strbuf *sb, const struct report *r)
{
	const struct tiers *t = r->tiers;
	struct strbuf h = STRBUF_INIT;

	if (!t)
		return;
	headline(&h, t, r);
	strbuf_addstr(sb, "<section id=\"tiers\">\n<h2>Accuracy against cost "
		      "per tier</h2>\n<p>");
	html_escape(sb, h.buf);
	strbuf_addstr(sb, "</p>\n");
	figure(sb, t, r);
	strbuf_addstr(sb, "<table class=\"pts\">\n<thead><tr><th>class</th>"
		      "<th>tier</th><th>source</th><th class=\"n\">n</th>"
		      "<th class=\"n\">MAPE</th><th class=\"n\">bias</th>"
		      "<th class=\"n\">cost per workload</th><th>limits</th>"
		      "</tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < t->nclasses; k++)
		for (size_t i = 0; i < t->ntiers; i++) {
			const struct tiers_cell *x = &t->classes[k].cells[i];
			char m[32], b[32], c[64];

			if (!x->npoints)
				continue;
			cell_text(x, m, b, c);
			strbuf_addstr(sb, "<tr><td>");
			html_escape(sb, t->classes[k].name);
			strbuf_addf(sb, "</td><td>%s</td><td>", t->tiers[i].kind);
			html_escape(sb, t->tiers[i].source);
			strbuf_addf(sb, "</td><td class=\"n\">%ld</td><td class="
				    "\"n\">%s</td><td class=\"n\">%s</td><td "
				    "class=\"n\">", x->sum.n, m, b);
			html_escape(sb, c);
			strbuf_addf(sb, "</td><td>%s", tiers_status_name(
				    x->status));
			if (x->why) {
				strbuf_addstr(sb, ": ");
				html_escape(sb, x->why);
			}
			strbuf_addstr(sb, "</td></tr>\n");
		}
	strbuf_addstr(sb, "</tbody>\n</table>\n<p>The cheapest tier that meets "
		      "the limits, per class:</p>\n<ul>\n");
	for (size_t k = 0; k < t->nclasses; k++) {
		strbuf_reset(&h);
		cheapest(&h, t, &t->classes[k]);
		strbuf_addstr(sb, "<li><b>");
		html_escape(sb, t->classes[k].name);
		strbuf_addstr(sb, "</b>: ");
		html_escape(sb, h.buf);
		strbuf_addstr(sb, "</li>\n");
	}
	strbuf_addstr(sb, "</ul>\n</section>\n");
	strbuf_release(&h);
}

void report_tiers_json(struct strbuf *sb, const struct report *r)
{
	if (!r->tiers)
		return;
	strbuf_addstr(sb, ",\n\"tiers\":");
	tiers_json(sb, r->tiers, r->policy ? r->policy->name : NULL);
}
