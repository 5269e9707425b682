/* perfcorr tiers: accuracy against cost per tier (src/gate/tiers.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/corr/correlate.h"
#include "src/gate/policy.h"
#include "src/gate/tiers.h"
#include "src/import/import.h"
#include "src/out/out.h"

struct cmd_tiers_opts {
	const char *ref, *class_by, *metric, *policy, *format;
	int min_points;
	struct cli_list sources, allow;
};

static const struct cli_cmd tiers_cmd = {
	.name = "tiers",
	.usage = "--ref SRC[@V] [--policy FILE] [--class-by KEY] [options]",
	.summary = "Accuracy against cost per tier: the error of every "
		   "source below the reference (roofline < perfsim < rtl < "
		   "emulation < silicon) per workload class, its cost per "
		   "workload, and the cheapest tier that meets a policy's "
		   "limits per class.",
	.details = "Each tier source at its latest version (or --source "
		   "SRC@V) is paired with the reference.\nA workload class is "
		   "a group key (--class-by, as compare --group-by; default "
		   "op_class).\nCost per workload: a run's cost (import "
		   "--cost, or the tool's own log) over its workloads,\nthe "
		   "mean over the class's workloads; '-' when a run has none "
		   "or units differ.\nLimits: the policy's rules evaluated on "
		   "each class's points (as the gate does; release\nhistory "
		   "rules do not apply); unknown when fewer than --min-points "
		   "(default 3) or a\nrule's min_pairs are paired, or a check "
		   "is undefined. The cheapest tier is the first\nthat meets "
		   "them in the order of measured cost (when every candidate "
		   "has a cost in one\nunit) else of the ladder; unknown when "
		   "a cheaper tier is undecided.\nA roofline is graded as a "
		   "bound: the fraction of speed of light the reference\n"
		   "reaches and the pairs over it, no error; never the "
		   "cheapest.\nSee docs/statistics.md, "
		   "\"Accuracy against cost per tier\".",
	.min_args = 0, .max_args = 0,
};

static const char *pct(char *b, size_t len, double x, int sign)
{
	if (!isfinite(x))
		snprintf(b, len, "-");
	else
		snprintf(b, len, sign ? "%+.2f%%" : "%.2f%%", 100 * x);
	return b;
}

static void cost_text(char *b, size_t len, const struct tiers_cost *c)
{
	if (!isnan(c->per_workload))
		import_cost_fmt(b, len, c->per_workload, c->unit);
	else if (c->mixed)
		snprintf(b, len, "- (units differ)");
	else if (c->uncosted)
		snprintf(b, len, "- (%ld of %ld runs)", c->uncosted, c->runs);
	else
		snprintf(b, len, "-");
}

static void print_table(const struct tiers *t, const char *policy)
{
	static const char *const head[] = { "class", "tier", "source", "n",
		"MAPE", "bias", "cost/workload", "limits" };
	struct out_table *tb = out_table_new(8, head);
	int whys = 0, bounds = 0;

	util_fprintf_safe(stdout, "reference: %s@%s (%s); classes by %s; "
			  "limits: %s\n", t->ref_source, t->ref_version,
			  t->ref_kind, t->class_by, policy ? policy :
			  "none (--policy FILE)");
	for (size_t i = 0; i < t->ntiers; i++)
		if (!t->tiers[i].set)
			util_fprintf_safe(stdout, "left out: %s (%s): %s\n",
					  t->tiers[i].source, t->tiers[i].kind
					  ? t->tiers[i].kind : "?",
					  t->tiers[i].why);
	fputc('\n', stdout);
	for (int c = 3; c < 7; c++)
		out_table_right(tb, c);
	for (size_t k = 0; k < t->nclasses; k++) {
		const struct tiers_class *c = &t->classes[k];
		char ref[48], refcost[48];

		for (size_t i = 0; i < t->ntiers; i++) {
			const struct tiers_cell *x = &c->cells[i];
			char n[24], m[24], b[24], cost[48];
			const char *row[8];

			if (!x->npoints)
				continue;
			snprintf(n, sizeof(n), "%ld", x->sum.n);
			cost_text(cost, sizeof(cost), &x->cost);
			row[0] = c->name;
			row[1] = t->tiers[i].kind;
			row[2] = t->tiers[i].source;
			row[3] = n;
			if (x->status == TIERS_BOUND) {
				tiers_bound_text(x, m, sizeof(m), b, sizeof(b));
				row[4] = m;
				row[5] = b;
				bounds = 1;
			} else {
				row[4] = pct(m, sizeof(m), x->sum.mape, 0);
				row[5] = pct(b, sizeof(b), x->sum.bias, 1);
			}
			row[6] = cost;
			row[7] = tiers_status_name(x->status);
			whys += x->why != NULL;
			out_table_add(tb, row);
		}
		cost_text(refcost, sizeof(refcost), &c->ref_cost);
		snprintf(ref, sizeof(ref), "%s", t->ref_kind);
		{
			const char *row[8] = { c->name, ref, t->ref_source,
				"", "", "", refcost, "reference" };

			out_table_add(tb, row);
		}
	}
	out_table_print(tb, stdout);
	out_table_free(tb);
	if (bounds)
		fputs("\na roofline is a bound, not a prediction: its rows give "
		      "the fraction of speed of light\nthe reference reaches "
		      "and the pairs that beat it, no error; it is never the "
		      "cheapest\n", stdout);
	fputs("\ncheapest tier that meets the limits, per class:\n", stdout);
	for (size_t k = 0; k < t->nclasses; k++) {
		const struct tiers_class *c = &t->classes[k];

		util_fprintf_safe(stdout, "  %-14s ", c->name);
		if (c->cheap == TIERS_NOLIMIT) {
			util_fprintf_safe(stdout, "- (%s)\n", c->cheap_why);
			continue;
		}
		if (c->cheap == TIERS_UNKNOWN)
			util_fprintf_safe(stdout, "unknown: %s; ",
					  c->cheap_why);
		if (c->cheapest >= 0) {
			const struct tiers_tier *x = &t->tiers[c->cheapest];
			char cost[48];

			cost_text(cost, sizeof(cost),
				  &c->cells[c->cheapest].cost);
			util_fprintf_safe(stdout, "%s%s %s@%s (%s per "
					  "workload; %s)", c->cheap ==
					  TIERS_UNKNOWN ? "the first that meets: "
					  : "", x->kind, x->source, x->version,
					  cost, c->by_cost ? "by measured cost" :
					  "by the tier order");
		} else if (c->cheap == TIERS_UNKNOWN) {
			fputs("no other tier below the reference meets",
			      stdout);
		} else {
			util_fprintf_safe(stdout, "none below the reference "
					  "meets: %s (%s) itself", t->ref_source,
					  t->ref_kind);
		}
		fputc('\n', stdout);
	}
	if (!whys)
		return;
	fputs("\nwhy (limits not met, undecided, warnings):\n", stdout);
	for (size_t k = 0; k < t->nclasses; k++)
		for (size_t i = 0; i < t->ntiers; i++)
			if (t->classes[k].cells[i].npoints &&
			    t->classes[k].cells[i].why)
				util_fprintf_safe(stdout, "  %s %s: %s\n",
					t->classes[k].name, t->tiers[i].source,
					t->classes[k].cells[i].why);
}

static void print_json(const struct tiers *t, const char *policy)
{
	struct strbuf sb = STRBUF_INIT;

	tiers_json(&sb, t, policy);
	fputs(sb.buf, stdout);
	fputc('\n', stdout);
	strbuf_release(&sb);
}

static void print_csv(const struct tiers *t)
{
	fputs("class,kind,source,version,n,mape,bias,cost_per_workload,"
	      "cost_unit,status,why,cheapest,sol_fraction,sol_over\n",
	      stdout);
	for (size_t k = 0; k < t->nclasses; k++) {
		const struct tiers_class *c = &t->classes[k];

		for (size_t i = 0; i < t->ntiers; i++) {
			const struct tiers_cell *x = &c->cells[i];
			char num[4][32];
			int bound = x->status == TIERS_BOUND;

			if (!x->npoints)
				continue;
			snprintf(num[3], 32, "%.17g", x->sol);
			snprintf(num[0], 32, "%.17g", x->sum.mape);
			snprintf(num[1], 32, "%.17g", x->sum.bias);
			snprintf(num[2], 32, "%.17g", x->cost.per_workload);
			out_csv_field(stdout, c->name);
			fputc(',', stdout);
			out_csv_field(stdout, t->tiers[i].kind);
			fputc(',', stdout);
			out_csv_field(stdout, t->tiers[i].source);
			fputc(',', stdout);
			out_csv_field(stdout, t->tiers[i].version);
			printf(",%ld,%s,%s,%s,", x->sum.n,
			       isfinite(x->sum.mape) && !bound ? num[0] : "",
			       isfinite(x->sum.bias) && !bound ? num[1] : "",
			       isfinite(x->cost.per_workload) ? num[2] : "");
			out_csv_field(stdout, x->cost.unit ? x->cost.unit : "");
			printf(",%s,", tiers_status_name(x->status));
			out_csv_field(stdout, x->why ? x->why : "");
			printf(",%s,", c->cheapest == (long)i ?
			       tiers_status_name(c->cheap) : "");
			if (bound)
				printf("%s,%ld\n", isfinite(x->sol) ? num[3] :
				       "", x->over);
			else
				fputs(",\n", stdout);
		}
	}
}

int cmd_tiers(int argc, char **argv)
{
	struct cmd_tiers_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "ref", 'r', &opt.ref, "SRC[@V]", "the reference "
		  "(default: the policy's ref)" },
		{ CLI_LIST, "source", 's', &opt.sources, "SRC[@V]", "a tier "
		  "source (repeatable; default: every source of a kind "
		  "below the reference's, at its latest version)" },
		{ CLI_STR, "class-by", 'b', &opt.class_by, "KEY", "workload "
		  "class: op_class (default), op, metric, workload, "
		  "param.NAME" },
		{ CLI_STR, "metric", 'M', &opt.metric, "NAME", "only this "
		  "metric" },
		{ CLI_STR, "policy", 'p', &opt.policy, "FILE", "gate policy "
		  "whose rules are the limits" },
		{ CLI_INT, "min-points", 0, &opt.min_points, "N", "fewer "
		  "pairs in a class: unknown (default 3)" },
		{ CLI_LIST, "allow-mismatch", 0, &opt.allow, "FIELD", "pair "
		  "runs whose workload fingerprints differ in FIELD "
		  "(repeatable; over the policy's allow_mismatch)" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), json or csv" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = tiers_cmd;
	struct tiers_opts to;
	struct policy *p = NULL;
	struct cli_list pos;
	struct tiers t;
	struct db *db = NULL;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	opt.format = "table";
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	memset(&to, 0, sizeof(to));
	if (strcmp(opt.format, "table") && strcmp(opt.format, "json") &&
	    strcmp(opt.format, "csv"))
		rc = cli_usage_error(cmd.name, "unknown format '%s' (table, "
				     "json or csv)", opt.format);
	else if (opt.min_points < 0)
		rc = cli_usage_error(cmd.name, "--min-points must be >= 0");
	else if (opt.policy && policy_load(&p, opt.policy) < 0)
		rc = cli_fail(cmd.name, "%s", pc_error_last());
	else if (!opt.ref && !(p && p->ref))
		rc = cli_usage_error(cmd.name, "--ref SRC[@V] is required (or "
				     "a --policy with a ref)");
	else
		rc = cli_open_db(&db, DB_READONLY);
	if (rc)
		goto done;
	to.ref = opt.ref ? opt.ref : p->ref;
	to.sources = opt.sources.n ? (const char *const *)opt.sources.items :
		     NULL;
	to.class_by = opt.class_by;
	to.metric = opt.metric;
	to.policy = p;
	to.min_points = opt.min_points;
	to.allow_mismatch = opt.allow.n ? (const char *const *)opt.allow.items
			    : NULL;
	if ((rc = tiers_build(&t, db, &to)) < 0) {
		cli_error(cmd.name);
		rc = cli_exit_for(rc);
		goto done;
	}
	if (!strcmp(opt.format, "json"))
		print_json(&t, p ? p->name : NULL);
	else if (!strcmp(opt.format, "csv"))
		print_csv(&t);
	else
		print_table(&t, p ? p->name : NULL);
	tiers_release(&t);
done:
	db_close(db);
	policy_free(p);
	cli_list_free(&opt.sources);
	cli_list_free(&opt.allow);
	return rc;
}
