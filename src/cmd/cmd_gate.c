/* perfcorr gate: judge a model release against a policy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/calib.h"
#include "db/gate.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/corr/corr_calib.h"
#include "src/corr/correlate.h"
#include "src/corr/corrout_fp.h"
#include "base/error.h"
#include "src/gate/gate.h"
#include "src/gate/gate_out.h"
#include "src/out/out.h"
#include "src/gate/policy.h"
#include "base/strbuf.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_gate, and the
 * outputs, opened before anything is evaluated (an unwritable path is
 * exit 2). */
struct cmd_gate_opts {
	const char *policy, *model, *ref, *junit, *format, *out;
	const char *roofline;
	int dry, history, top;
	FILE *junit_fp, *out_fp;
	struct cli_list allow;	/* --allow-mismatch (issue 37) */
};

static const struct cli_cmd gate_cmd = {
	.name = "gate",
	.usage = "--policy FILE [--model SRC@V] [--ref SRC@V] [--junit FILE|-] "
		 "[-o FILE] [--format text|json] [--dry-run] | --history "
		 "[--policy FILE]",
	.summary = "Judge a model release against a policy's error limits. "
		   "Exit 0: pass (warnings allowed), 1: a fail rule failed, "
		   "2: usage or policy error, or nothing to compare, 3: "
		   "unknown (a rule's interval straddles its limit; no rule "
		   "failed). Every evaluation is recorded unless --dry-run.",
	.details = "A point whose current annotation is 'accepted' is "
		   "waived (left out of the limits\nand listed) while its "
		   "error stays within the policy's waiver_tolerance of the\n"
		   "error accepted, for the model versions it names, unexpired "
		   "and complete\n(waivers.*). max_mape_increase is measured "
		   "on the points both releases have,\nwith the "
		   "release-change test's interval and p (rule option "
		   "significance;\npolicy keys error_control and unknown).\nAn unwritable --junit or -o path is exit 2. "
		   "See docs/gate.md.",
	.min_args = 0, .max_args = 0,
};

static int record(struct db *db, const struct gate_result *g)
{
	struct db_gate_eval e = { 0 };
	struct db_gate_rule_eval *r = xcalloc(g->nrules + 1, sizeof(*r));
	int rc;

	e.policy_name = g->policy->name;
	e.policy_hash = (char *)g->policy->hash;
	e.model_source = g->set->model.source;
	e.model_version = g->set->model.version;
	e.ref_source = g->set->ref.source;
	e.ref_version = g->set->ref.version;
	e.model_runs = gate_runs_json(&g->set->model);
	e.ref_runs = gate_runs_json(&g->set->ref);
	/* pass, warn, fail or unknown (schema 8: unknown is its own) */
	e.verdict = (char *)gate_status_name(g->verdict);
	e.details = gate_out_json(g);
	for (size_t i = 0; i < g->nrules; i++) {
		const struct gate_rule_result *x = &g->rules[i];
		const struct gate_check *c = &x->checks[x->nchecks > 1];

		for (int j = 0; j < x->nchecks; j++)
			if (x->checks[j].failed) {
				c = &x->checks[j];
				break;
			}
		r[i].rule = x->rule->name;
		r[i].status = (char *)gate_status_name(x->status);
		r[i].failed = x->failed;
		r[i].value = c->value;
		r[i].lim = c->limit;
		r[i].mape = x->sum.mape;
		r[i].npairs = gate_rule_n(x);
		r[i].nwaived = x->nwaived;
		r[i].nnoisy = x->nnoisy;
		r[i].message = x->message;
	}
	rc = db_gate_record(db, &e, r, g->nrules, NULL);
	free(e.model_runs);
	free(e.ref_runs);
	free(e.details);
	free(r);
	return rc;
}

static int open_out(FILE **fp, const char *path, const char *what)
{
	if (!strcmp(path, "-")) {
		*fp = stdout;
		return 0;
	}
	if (!(*fp = fopen(path, "w")))
		return cli_usage_error(gate_cmd.name, "cannot write %s '%s': %s",
				       what, path, strerror(errno));
	return 0;
}

static int close_out(FILE **fp, const char *path)
{
	int bad;

	if (!*fp)
		return 0;
	bad = fflush(*fp) != 0 || ferror(*fp);
	if (*fp != stdout)
		bad |= fclose(*fp) != 0;
	*fp = NULL;
	return bad ? pc_error_set(PC_EIO, "cannot write '%s': %s", path,
				  strerror(errno)) : 0;
}

/* The gate could not run: say why in the JUnit file too (best effort:
 * the exit code already tells CI). */
static void junit_error(const struct cmd_gate_opts *o,
			const char *policy)
{
	char *msg = xstrdup(pc_error_last());

	if (o->junit_fp)
		gate_out_junit_error(o->junit_fp, policy, msg);
	free(msg);
}

static int output(const struct cmd_gate_opts *o, const struct gate_result *g,
		  int json)
{
	FILE *fp = o->out_fp;

	if (json) {
		char *s = gate_out_json(g);

		fprintf(fp, "%s\n", s);
		free(s);
	} else {
		gate_out_text(fp, g);
	}
	if (o->junit_fp && gate_out_junit(o->junit_fp, g) < 0)
		return -1;
	return fflush(fp) || ferror(fp) ? pc_error_set(PC_EIO, "cannot write "
			"the report: %s", strerror(errno)) : 0;
}

/* Load, evaluate, print, record. Returns the exit code. */
static int evaluate(const struct cmd_gate_opts *o, struct db *db,
		    const struct policy *p, int json)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *set = NULL;
	struct gate_result *g = NULL;
	struct gate_inputs in = { 0 };
	int rc, code = CLI_USAGE, marks = 0;
	long ncal = 0;

	q.model = o->model ? o->model : p->model;
	q.ref = o->ref ? o->ref : p->ref;
	q.max_ref_cv = p->max_ref_cv;
	q.allow_mismatch = o->allow.n ? o->allow.items :
			   (const char *const *)p->allow_mismatch;
	q.roofline = o->roofline;
	if ((rc = corr_load(&set, db, &q)) < 0)
		goto done;
	/* pairs whose runs ran different workloads (issue 37): the gate
	 * judges no subset silently, and never calls it a regression */
	if (set->not_comparable) {
		rc = pc_error_set(PC_EINVALID, "not comparable: %ld of the "
				  "pairs were refused (%ld run pairs): %s; or "
				  "the policy's \"allow_mismatch\": [\"%s\"]",
				  set->not_comparable,
				  set->not_comparable_runs,
				  set->not_comparable_why,
				  set->not_comparable_field);
		goto done;
	}
	/* what the allowance let in, said (stderr: the verdict's output
	 * keeps its contract) */
	if (q.allow_mismatch && *q.allow_mismatch) {
		char *al = corrout_fp_allowed(set, q.allow_mismatch);

		fprintf(stderr, "perfcorr gate: allowed fingerprint mismatches "
			"(--allow-mismatch): ");
		util_fputs_safe(al, stderr);
		fprintf(stderr, "; %ld pair%s admitted\n", set->admitted_pairs,
			set->admitted_pairs == 1 ? "" : "s");
		free(al);
	}
	/* calibration marks: a rule passing only on them is a warning */
	if ((rc = db_calib_any(db, set->model.source, &marks)) < 0 ||
	    (marks && (rc = corr_calib_apply(set, db, &ncal)) < 0))
		goto done;
	if ((rc = gate_inputs_load(&in, db, p, set)) < 0 ||
	    (rc = gate_evaluate(&g, p, set, &in, NULL, (size_t)o->top)) < 0 ||
	    (ncal && (rc = gate_calib_check(g)) < 0))
		goto done;
	if ((rc = output(o, g, json)) < 0) {
		code = CLI_USAGE + 1;	/* an output error, not a gate error */
		goto done;
	}
	if (!o->dry && (rc = record(db, g)) < 0) {
		code = CLI_FAIL;
		goto done;
	}
	code = g->verdict == GATE_FAIL ? CLI_FAIL : g->verdict == GATE_UNKNOWN ?
	       CLI_UNKNOWN : CLI_OK;
done:
	if (rc < 0) {
		cli_error(gate_cmd.name);
		if (code == CLI_USAGE)
			junit_error(o, p->name);
		if (code == CLI_USAGE + 1)
			code = CLI_USAGE;
	}
	gate_inputs_release(&in);
	gate_result_free(g);
	corr_set_free(set);
	return code;
}

static void history_json(struct db *db, const struct db_gate_eval *e)
{
	static const char *const k[] = { "model_source", "model_version",
		"ref_source", "ref_version", "verdict" };
	const char *v[] = { e->model_source, e->model_version, e->ref_source,
			    e->ref_version, e->verdict };
	struct db_gate_rule_eval *r = NULL;
	size_t n = 0;

	printf("{\"id\": %lld, \"evaluated_at\": ", (long long)e->id);
	out_json_str(stdout, e->evaluated_at);
	printf(", \"evaluated_by\": ");
	out_json_str(stdout, e->evaluated_by ? e->evaluated_by : "");
	printf(", \"policy\": ");
	out_json_str(stdout, e->policy_name);
	printf(", \"policy_sha256\": ");
	out_json_str(stdout, e->policy_hash);
	for (int i = 0; i < 5; i++) {
		printf(", \"%s\": ", k[i]);
		out_json_str(stdout, v[i]);
	}
	printf(", \"model_runs\": %s, \"ref_runs\": %s, \"rules\": [",
	       e->model_runs, e->ref_runs);
	if (db_gate_rule_evals(db, e->id, &r, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		printf("%s{\"rule\": ", i ? ", " : "");
		out_json_str(stdout, r[i].rule);
		printf(", \"status\": ");
		out_json_str(stdout, r[i].status);
		printf(", \"failed\": %s, \"value\": ", r[i].failed ? "true" :
		       "false");
		out_json_num(stdout, r[i].value);
		printf(", \"limit\": ");
		out_json_num(stdout, r[i].lim);
		printf(", \"mape\": ");
		out_json_num(stdout, r[i].mape);
		printf(", \"pairs\": %ld, \"waived\": %ld}", r[i].npairs,
		       r[i].nwaived);
	}
	printf("]}");
	db_gate_rule_evals_free(r, n);
}

static int history(struct db *db, const char *name, int json)
{
	static const char *const hdr[] = { "id", "evaluated_at", "policy",
		"model", "ref", "verdict", "fail", "unknown", "warn", "pass",
		"by" };
	struct db_gate_eval *e = NULL;
	struct out_table *t;
	size_t n = 0;

	if (db_gate_evals(db, name, &e, &n) < 0) {
		cli_error(gate_cmd.name);
		return CLI_FAIL;
	}
	t = json ? NULL : out_table_new(11, hdr);
	if (json)
		printf("[");
	for (size_t i = 0; i < n; i++) {
		char id[24], m[512], r[512], c[4][24];
		const char *row[11];

		if (json) {
			printf(i ? ",\n " : "\n ");
			history_json(db, &e[i]);
			continue;
		}
		snprintf(id, sizeof(id), "%lld", (long long)e[i].id);
		snprintf(m, sizeof(m), "%s@%s", e[i].model_source,
			 e[i].model_version);
		snprintf(r, sizeof(r), "%s@%s", e[i].ref_source,
			 e[i].ref_version);
		snprintf(c[0], sizeof(c[0]), "%ld", e[i].nfail);
		snprintf(c[1], sizeof(c[1]), "%ld", e[i].nunknown);
		snprintf(c[2], sizeof(c[2]), "%ld", e[i].nwarn);
		snprintf(c[3], sizeof(c[3]), "%ld", e[i].npass);
		row[0] = id;
		row[1] = e[i].evaluated_at;
		row[2] = e[i].policy_name;
		row[3] = m;
		row[4] = r;
		row[5] = e[i].verdict;
		row[6] = c[0];
		row[7] = c[1];
		row[8] = c[2];
		row[9] = c[3];
		row[10] = e[i].evaluated_by ? e[i].evaluated_by : "";
		out_table_add(t, row);
	}
	if (json) {
		printf("%s]\n", n ? "\n" : "");
	} else {
		for (int col = 6; col <= 9; col++)
			out_table_right(t, col);
		out_table_right(t, 0);
		out_table_print(t, stdout);
		out_table_free(t);
	}
	db_gate_evals_free(e, n);
	return fflush(stdout) ? cli_fail(gate_cmd.name, "cannot write output") :
	       CLI_OK;
}

int cmd_gate(int argc, char **argv)
{
	struct cmd_gate_opts opt = { .format = "text", .top = 5 };
	const struct cli_opt opts[] = {
		{ CLI_STR, "policy", 'p', &opt.policy, "FILE", "the policy "
		  "(JSON, see docs/gate.md)" },
		{ CLI_STR, "model", 0, &opt.model, "SRC[@V]", "model release "
		  "(default: the policy's model, latest version)" },
		{ CLI_STR, "ref", 0, &opt.ref, "SRC[@V]", "reference (default: "
		  "the policy's ref, latest version)" },
		{ CLI_STR, "roofline", 0, &opt.roofline, "SRC[@V]", "the "
		  "roofline that bounds both sides (default: every roofline "
		  "source; needed when several hold a key)" },
		{ CLI_STR, "junit", 0, &opt.junit, "FILE", "also write JUnit "
		  "XML, one testcase per rule ('-': standard output; the "
		  "report then goes to standard error unless -o)" },
		{ CLI_STR, "output", 'o', &opt.out, "FILE", "write the report "
		  "to FILE instead of standard output" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "text (default) "
		  "or json" },
		{ CLI_INT, "top", 0, &opt.top, "N", "offending points, flagged "
		  "sweeps and movers listed per rule (default 5)" },
		{ CLI_LIST, "allow-mismatch", 0, &opt.allow, "FIELD", "pair "
		  "runs whose workload fingerprints differ in FIELD "
		  "(repeatable; over the policy's allow_mismatch)" },
		{ CLI_FLAG, "dry-run", 'n', &opt.dry, NULL, "evaluate without "
		  "recording the evaluation" },
		{ CLI_FLAG, "history", 0, &opt.history, NULL, "list recorded "
		  "evaluations (of --policy's policy when given)" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = gate_cmd;
	struct cli_list pos;
	struct policy *p = NULL;
	struct db *db;
	int rc, json;

	cmd.opts = opts;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if (strcmp(opt.format, "text") && strcmp(opt.format, "json"))
		return cli_list_free(&opt.allow),
		       cli_usage_error(gate_cmd.name, "unknown format '%s' "
				       "(text or json)", opt.format);
	json = !strcmp(opt.format, "json");
	if (opt.top < 0)
		return cli_list_free(&opt.allow),
		       cli_usage_error(gate_cmd.name, "--top must be >= 0");
	if (!opt.policy && !opt.history)
		return cli_list_free(&opt.allow),
		       cli_usage_error(gate_cmd.name, "--policy is required");
	if (!opt.history) {
		if (opt.junit &&
		    (rc = open_out(&opt.junit_fp, opt.junit, "JUnit")))
			return cli_list_free(&opt.allow), rc;
		if (opt.out &&
		    (rc = open_out(&opt.out_fp, opt.out, "the report"))) {
			close_out(&opt.junit_fp, opt.junit);
			return cli_list_free(&opt.allow), rc;
		}
		if (!opt.out_fp)
			opt.out_fp = opt.junit_fp == stdout ? stderr : stdout;
	}
	if (opt.policy && policy_load(&p, opt.policy) < 0) {
		cli_error(gate_cmd.name);
		if (!opt.history)
			junit_error(&opt, NULL);
		close_out(&opt.junit_fp, opt.junit);
		if (opt.out)
			close_out(&opt.out_fp, opt.out);
		cli_list_free(&opt.allow);
		return CLI_USAGE;
	}
	if (!opt.history && !(opt.model || p->model))
		rc = cli_usage_error(gate_cmd.name, "no model: give --model or "
				     "\"model\" in the policy");
	else if (!opt.history && !(opt.ref || p->ref))
		rc = cli_usage_error(gate_cmd.name, "no reference: give --ref "
				     "or \"ref\" in the policy");
	else if (!(rc = cli_open_db(&db, opt.dry || opt.history ?
				    DB_READONLY : 0))) {
		rc = opt.history ? history(db, p ? p->name : NULL, json) :
		     evaluate(&opt, db, p, json);
		db_close(db);
	}
	if ((opt.junit_fp && close_out(&opt.junit_fp, opt.junit) < 0) ||
	    (opt.out && opt.out_fp && close_out(&opt.out_fp, opt.out) < 0)) {
		cli_error(gate_cmd.name);
		rc = CLI_USAGE;
	}
	policy_free(p);
	cli_list_free(&opt.allow);
	return rc;
}
