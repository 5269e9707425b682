/* The tiers table as JSON (tiers.h): perfcorr tiers --format json and the
 * report's "tiers" member write the same object. */
#include "src/gate/tiers.h"

#include <math.h>
#include <stdio.h>

#include "base/strbuf.h"
#include "src/corr/correlate.h"

static void num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_add_double(sb, v);
	else
		strbuf_addstr(sb, "null");
}

static void str(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (v)
		strbuf_add_json_str(sb, v);
	else
		strbuf_addstr(sb, "null");
}

static void cost(struct strbuf *sb, const struct tiers_cost *c)
{
	strbuf_addstr(sb, "{\"per_workload\":");
	num(sb, c->per_workload);
	str(sb, "unit", c->unit);
	strbuf_addf(sb, ",\"runs\":%ld,\"runs_without_cost\":%ld,"
		    "\"mixed_units\":%s}", c->runs, c->uncosted, c->mixed ?
		    "true" : "false");
}

static void rows(struct strbuf *sb, const struct tiers *t,
		 const struct tiers_class *c)
{
	int first = 1;

	for (size_t i = 0; i < t->ntiers; i++) {
		const struct tiers_cell *x = &c->cells[i];
		int bound = x->status == TIERS_BOUND;

		if (!x->npoints)
			continue;
		strbuf_addstr(sb, first ? "{\"source\":" : ",{\"source\":");
		first = 0;
		strbuf_add_json_str(sb, t->tiers[i].source);
		str(sb, "kind", t->tiers[i].kind);
		/* a bound predicts nothing: no error, the fraction of
		 * speed of light and the pairs over it */
		strbuf_addf(sb, ",\"n\":%ld,\"mape\":", x->sum.n);
		num(sb, bound ? NAN : x->sum.mape);
		strbuf_addstr(sb, ",\"bias\":");
		num(sb, bound ? NAN : x->sum.bias);
		strbuf_addstr(sb, ",\"sol_fraction\":");
		num(sb, bound ? x->sol : NAN);
		if (bound)
			strbuf_addf(sb, ",\"sol_over\":%ld", x->over);
		else
			strbuf_addstr(sb, ",\"sol_over\":null");
		strbuf_addstr(sb, ",\"cost\":");
		cost(sb, &x->cost);
		str(sb, "status", tiers_status_name(x->status));
		str(sb, "why", x->why);
		strbuf_addch(sb, '}');
	}
}

void tiers_json(struct strbuf *sb, const struct tiers *t, const char *policy)
{
	strbuf_addstr(sb, "{\"ref\":{\"source\":");
	strbuf_add_json_str(sb, t->ref_source);
	str(sb, "version", t->ref_version);
	str(sb, "kind", t->ref_kind);
	strbuf_addch(sb, '}');
	str(sb, "class_by", t->class_by);
	str(sb, "policy", policy);
	strbuf_addf(sb, ",\"min_points\":%ld,\"tiers\":[", t->min_points);
	for (size_t i = 0; i < t->ntiers; i++) {
		const struct tiers_tier *x = &t->tiers[i];

		strbuf_addstr(sb, i ? ",{\"source\":" : "{\"source\":");
		strbuf_add_json_str(sb, x->source);
		str(sb, "version", x->version);
		str(sb, "kind", x->kind);
		str(sb, "left_out", x->set ? NULL : x->why);
		strbuf_addstr(sb, ",\"cost\":");
		cost(sb, &x->cost);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "],\"classes\":[");
	for (size_t k = 0; k < t->nclasses; k++) {
		const struct tiers_class *c = &t->classes[k];

		strbuf_addstr(sb, k ? ",{\"class\":" : "{\"class\":");
		strbuf_add_json_str(sb, c->name);
		strbuf_addstr(sb, ",\"ref_cost\":");
		cost(sb, &c->ref_cost);
		strbuf_addstr(sb, ",\"rows\":[");
		rows(sb, t, c);
		strbuf_addstr(sb, "],\"cheapest\":{\"status\":");
		strbuf_add_json_str(sb, tiers_status_name(c->cheap));
		str(sb, "source", c->cheapest >= 0 ?
		    t->tiers[c->cheapest].source : NULL);
		str(sb, "kind", c->cheapest >= 0 ?
		    t->tiers[c->cheapest].kind : NULL);
		strbuf_addf(sb, ",\"by\":\"%s\"", c->by_cost ? "cost" :
			    "tier order");
		str(sb, "why", c->cheap_why);
		strbuf_addstr(sb, "}}");
	}
	strbuf_addstr(sb, "]}");
}
