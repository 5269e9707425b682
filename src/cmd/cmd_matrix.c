/* perfcorr matrix: who disagrees with whom, and the odd one out per key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/db.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corrout.h"
#include "src/matrix/matrix.h"
#include "src/out/out.h"

/* The options, filled by cli_parse from the table in cmd_matrix. */
struct matrix_cli {
	struct cli_sel sel;		/* filters only: model/ref unused */
	struct cli_list sources;
	const char *format, *pattern;
	double tolerance;
	int pairwise_keys, keys;
};

static const struct cli_cmd matrix_cmd = {
	.name = "matrix",
	.usage = "[--source SRC[@V]]... [options]",
	.summary = "Who disagrees with whom: every pair of sources on the "
		   "same keys, and the odd one out per key.",
	.details = "Sources: every source at its latest version unless "
		   "--source names them (SRC@V for a\nversion; roofline "
		   "included). Cells compare a model (row) with a reference\n"
		   "(column) on the keys every selected source holds "
		   "(--pairwise-keys: each pair's\nown common keys): n, MAPE, "
		   "bias, Lin's concordance on values and logs.\nEvery (workload, "
		   "op, metric) held by three or more non-roofline sources "
		   "is\nclassified: agree, odd:SRC, split:A+B|C, scattered "
		   "(no two agree) or ambiguous\n(agreement not transitive), "
		   "with the tolerance max(--tolerance, the key's spread)\nand "
		   "a suggested cause with the rule that produced it (nothing "
		   "is written).\nSee docs/statistics.md, \"The disagreement "
		   "matrix\".",
	.min_args = 0, .max_args = 0,
};

/* A percent cell, "-" when undefined. */
static const char *pct(char *buf, size_t len, double v)
{
	return corrout_pct(buf, len, v);
}

static void print_grid(const struct matrix *m, size_t mi, const char *title,
		       int what)
{
	size_t ns = m->nsrc, nc = 0;
	const char **head = xcalloc(ns + 1, sizeof(*head));
	const char **row = xcalloc(ns + 1, sizeof(*row));
	char (*buf)[32] = xcalloc(ns + 1, sizeof(*buf));
	struct out_table *t;

	/* the grid's sources only: one without the metric is left out */
	head[0] = "model \\ ref";
	for (size_t j = 0; j < ns; j++)
		if (matrix_in_grid(m, mi, j))
			head[++nc] = m->src[j].label;
	t = out_table_new((int)nc + 1, head);
	for (size_t j = 0; j < nc; j++)
		out_table_right(t, (int)j + 1);
	for (size_t i = 0; i < ns; i++) {
		size_t col = 0;

		if (!matrix_in_grid(m, mi, i))
			continue;
		row[0] = m->src[i].label;
		for (size_t j = 0; j < ns; j++) {
			const struct matrix_cell *c = matrix_cell(m, mi, i, j);
			const char **r = &row[++col];

			if (!matrix_in_grid(m, mi, j)) {
				col--;
				continue;
			}
			if (i == j)
				*r = "";
			else if (!c->keys && c->refused)	/* issue 37 */
				*r = "not comparable";
			else if (c->sol.kind != MSOL_NONE && what == 0)
				snprintf(buf[j], 32, "%ld", c->sol.n), *r = buf[j];
			else if (c->sol.kind != MSOL_NONE && what == 1)
				*r = matrix_sol_fmt(buf[j], 32, &c->sol);
			else if (c->sol.kind != MSOL_NONE)
				*r = "-";	/* not an error */
			else if (!c->keys)
				*r = "no common keys";
			else if (what == 0)
				snprintf(buf[j], 32, "%ld", c->s.n), *r = buf[j];
			else if (what == 1)
				*r = pct(buf[j], 32, c->s.mape);
			else if (what == 2)
				*r = pct(buf[j], 32, c->s.bias);
			else
				*r = corrout_num(buf[j], 32, c->ccc_log);
		}
		out_table_add(t, row);
	}
	printf("%s\n", title);
	out_table_print(t, stdout);
	out_table_free(t);
	free(head);
	free(row);
	free(buf);
}

/* Who is left out of metric mi's grid, one line per reason. */
static void print_absent(const struct matrix *m, size_t mi, FILE *fp,
			 const char *prefix)
{
	for (int why = MA_NONE; why <= MA_ALONE; why++) {
		char *note = matrix_absent_note(m, mi, why);

		if (!note)
			continue;
		fputs(prefix, fp);
		util_fputs_safe(note, fp);
		fputc('\n', fp);
		free(note);
	}
}

/* Under a metric's grids: what the roofline's cells hold, then each
 * source that beats the roofline (once: its row and column agree). */
static void print_sol_notes(const struct matrix *m, size_t mi)
{
	printf("(the roofline is a bound, not a model: its row and column "
	       "hold the median fraction of speed of light over the keys both "
	       "hold, roofline / achieved time or achieved / roofline rate; "
	       "\"over\": keys faster than the roofline)\n");
	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t j = 0; j < m->nsrc; j++) {
			const struct matrix_cell *c = matrix_cell(m, mi, i, j);

			if (i == j || !m->src[j].roofline || !c->sol.violations ||
			    !matrix_in_grid(m, mi, i) || !matrix_in_grid(m, mi, j))
				continue;
			fputs("speed-of-light violations: ", stdout);
			util_fputs_safe(m->src[i].label, stdout);
			fputs(" faster than ", stdout);
			util_fputs_safe(m->src[j].label, stdout);
			printf(" on %ld of %ld keys\n", c->sol.violations,
			       c->sol.n);
		}
}

/* The fingerprint check over the cells (issue 37), when it said
 * anything. */
static void print_fp(const struct matrix *m)
{
	if (m->not_comparable) {
		printf("\nnot comparable: %ld key pair%s of the cells refused "
		       "(left out; a cell with none left says 'not "
		       "comparable'); first: ", m->not_comparable,
		       m->not_comparable == 1 ? "" : "s");
		util_fputs_safe(m->not_comparable_why, stdout);
		fputc('\n', stdout);
	}
	if (m->unclassified)
		printf("%snot classified: %ld key%s whose voters' runs do not "
		       "pair (listed under the odd one out)\n",
		       m->not_comparable ? "" : "\n", m->unclassified,
		       m->unclassified == 1 ? "" : "s");
	if (m->vote_left)
		printf("%sleft out of the vote: voters of %ld key%s whose runs "
		       "do not pair with the others' (listed under the odd "
		       "one out)\n", m->not_comparable || m->unclassified ?
		       "" : "\n", m->vote_left, m->vote_left == 1 ? "" : "s");
	if (m->unverified)
		printf("%sunverified: %ld key pair%s of the cells (a checked "
		       "workload-fingerprint field only one run states)\n",
		       m->not_comparable ? "" : "\n", m->unverified,
		       m->unverified == 1 ? "" : "s");
	if (m->opts.allow_mismatch && *m->opts.allow_mismatch) {
		fputs("allowed fingerprint mismatches (--allow-mismatch):",
		      stdout);
		for (const char *const *a = m->opts.allow_mismatch; *a; a++) {
			fputc(' ', stdout);
			util_fputs_safe(*a, stdout);
		}
		printf("; %ld key pair%s admitted\n", m->admitted,
		       m->admitted == 1 ? "" : "s");
	}
}

static void print_matrix_table(const struct matrix *m)
{
	printf("sources:");
	for (size_t i = 0; i < m->nsrc; i++) {
		printf("%s ", i ? "," : "");
		util_fputs_safe(m->src[i].label, stdout);
		printf(" (%s", m->src[i].kind);
		if (!strchr(m->src[i].label, '@')) {
			fputs(" @", stdout);
			util_fputs_safe(m->src[i].version, stdout);
		}
		printf(", %zu keys)", m->src[i].nkeys);
	}
	fputc('\n', stdout);
	for (size_t i = 0; i < m->nleft; i++) {
		fputs("left out: ", stdout);
		util_fputs_safe(m->left_out[i], stdout);
		fputc('\n', stdout);
	}
	for (size_t mi = 0; mi < m->nmetrics; mi++) {
		const struct matrix_metric *mm = &m->metrics[mi];
		int noisy = 0, sol = 0;

		fputs("\nmetric ", stdout);
		util_fputs_safe(mm->metric, stdout);
		if (m->opts.pairwise_keys)
			printf(": each pair on its own common keys\n");
		else if (mm->nin == 2)
			printf(": %zu key%s held by both sources\n",
			       mm->ncommon, mm->ncommon == 1 ? "" : "s");
		else
			printf(": %zu key%s held by all %zu sources\n",
			       mm->ncommon, mm->ncommon == 1 ? "" : "s",
			       mm->nin);
		print_absent(m, mi, stdout, "");
		print_grid(m, mi, "n (pairs in the statistics)", 0);
		print_grid(m, mi, "MAPE (row = model, column = reference; the "
			   "roofline's row and column: fraction of speed of "
			   "light)", 1);
		print_grid(m, mi, "bias", 2);
		print_grid(m, mi, "Lin's concordance on log values", 3);
		for (size_t i = 0; i < m->nsrc; i++)
			for (size_t j = 0; j < m->nsrc; j++) {
				if (i == j || !matrix_in_grid(m, mi, i) ||
				    !matrix_in_grid(m, mi, j))
					continue;
				noisy += matrix_cell(m, mi, i, j)->s.excluded_noisy
					 > 0;
				sol += matrix_cell(m, mi, i, j)->sol.kind !=
				       MSOL_NONE;
			}
		if (noisy)
			printf("(noisy references, stddev/value > %g, are "
			       "left out of their column's cells)\n",
			       m->opts.max_ref_cv);
		if (sol)
			print_sol_notes(m, mi);
	}
	for (size_t i = 0; i < m->nskipped; i++) {
		fputs("\n", stdout);
		util_fputs_safe(m->skipped[i], stdout);
		fputc('\n', stdout);
	}
	print_fp(m);
}

/* The key's workload, op and metric, then why (untrusted text made
 * safe). */
static void print_key_why(const struct matrix_key *k, FILE *fp)
{
	util_fputs_safe(k->workload, fp);
	fputc(' ', fp);
	util_fputs_safe(k->op, fp);
	fputc(' ', fp);
	util_fputs_safe(k->metric, fp);
	fputs(": ", fp);
	util_fputs_safe(k->vote_why, fp);
	fputc('\n', fp);
}

/* The keys whose voters' runs do not all pair (issue 37): who was left
 * out of the vote and why, then the keys not classified and why. */
static void print_votes(const struct matrix *m)
{
	for (int pass = 0; pass < 2; pass++) {
		int head = 0;

		for (size_t x = 0; x < m->nkeys; x++) {
			const struct matrix_key *k = &m->keys[x];

			if (!k->vote_why || k->fp_unclassified != pass)
				continue;
			if (!head++)
				fputs(pass ? "\nnot classified (workload "
				      "fingerprints):\n" : "\nleft out of the "
				      "vote (workload fingerprints):\n", stdout);
			fputs("  ", stdout);
			print_key_why(k, stdout);
		}
	}
}

static void print_patterns_table(const struct matrix *m, const char *only)
{
	struct matrix_label *l = NULL;
	size_t nl = matrix_labels(m, &l), n = 0;
	size_t *ord = matrix_order(m, &n);
	static const char *const head[] = { "pattern", "workload", "op",
		"metric", "spread", "tol", "suggested", "rule", "roofline "
		"violated by", "annotation" };
	struct out_table *t = out_table_new(10, head);
	char sp[32], tol[64];

	printf("\nthe odd one out (keys held by 3 or more non-roofline sources; "
	       "tolerance max(%g%%, the key's spread)):\n  ",
	       m->opts.tolerance * 100);
	for (size_t i = 0; i < nl; i++) {
		if (i)
			fputs(", ", stdout);
		util_fputs_safe(l[i].label, stdout);
		printf(" %ld", l[i].count);
	}
	printf("%s\n\n", nl ? "" : m->unclassified ? "no key classified: the "
	       "runs of those held by 3 are not comparable" : "no key is held "
	       "by 3 non-roofline sources");
	out_table_right(t, 4);
	out_table_right(t, 5);
	for (size_t x = 0; x < n; x++) {
		const struct matrix_key *k = &m->keys[ord[x]];
		const char *row[10];
		char *ann = k->ann ? xasprintf("%s/%s: %s", k->ann->status,
					       k->ann->category, k->ann->note) :
				     xstrdup("");

		if (only && strcmp(only, k->label) &&
		    strcmp(only, matrix_pattern_name(k->pattern))) {
			free(ann);
			continue;
		}
		row[0] = k->label;
		row[1] = k->workload;
		row[2] = k->op;
		row[3] = k->metric;
		row[4] = pct(sp, sizeof(sp), k->spread);
		if (k->tol_src >= 0)
			snprintf(tol, sizeof(tol), "%.1f%% (%s)", k->tol * 100,
				 m->src[k->tol_src].label);
		else
			snprintf(tol, sizeof(tol), "%.1f%%", k->tol * 100);
		row[5] = tol;
		row[6] = k->cause ? k->cause : "-";
		row[7] = k->rule;
		row[8] = k->sol ? k->sol : "";
		row[9] = ann;
		out_table_add(t, row);
		free(ann);
	}
	if (n)
		out_table_print(t, stdout);
	out_table_free(t);
	free(ord);
	free(l);
	print_votes(m);
}

/* CSV holds the cells (or the keys) only: what was left out, and why,
 * is said on stderr (the table and JSON carry it). */
static void csv_notes(const struct matrix *m, int keys)
{
	for (size_t i = 0; i < m->nleft; i++) {
		fputs("perfcorr matrix: left out: ", stderr);
		util_fputs_safe(m->left_out[i], stderr);
		fputc('\n', stderr);
	}
	for (size_t mi = 0; mi < m->nmetrics && !keys; mi++)
		print_absent(m, mi, stderr, "perfcorr matrix: ");
	for (size_t i = 0; i < m->nskipped && !keys; i++) {
		fputs("perfcorr matrix: ", stderr);
		util_fputs_safe(m->skipped[i], stderr);
		fputc('\n', stderr);
	}
	if (keys)	/* the rows carry who was left out of the vote */
		for (size_t x = 0; x < m->nkeys; x++) {
			const struct matrix_key *k = &m->keys[x];

			if (!k->fp_unclassified)
				continue;
			fputs("perfcorr matrix: not classified: ", stderr);
			print_key_why(k, stderr);
		}
}

static int run(struct db *db, enum out_format fmt, const struct matrix_cli *o)
{
	struct matrix_opts mo = MATRIX_OPTS_INIT;
	struct matrix *m = NULL;
	int rc;

	mo.sources = o->sources.items;
	mo.metric = o->sel.metric;
	mo.op_glob = o->sel.op;
	mo.workload_globs = o->sel.workload.items;
	mo.where = o->sel.where.items;
	mo.pool = o->sel.pool;
	mo.max_ref_cv = o->sel.max_ref_cv;
	mo.tolerance = o->tolerance;
	mo.pairwise_keys = o->pairwise_keys;
	mo.allow_mismatch = o->sel.allow_mismatch.items;
	if ((rc = matrix_build(&m, db, &mo)) < 0)
		return rc;
	if (fmt == OUT_JSON) {
		matrix_write_json(m, stdout);
	} else if (fmt == OUT_CSV) {
		csv_notes(m, o->keys);
		if (o->keys)
			matrix_write_csv_keys(m, stdout);
		else
			matrix_write_csv_cells(m, stdout);
	} else {
		print_matrix_table(m);
		print_patterns_table(m, o->pattern);
	}
	matrix_free(m);
	return 0;
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_cli o;
	const struct cli_opt opts[] = {
		{ CLI_LIST, "source", 's', &o.sources, "SRC[@V]", "a source to "
		  "include (repeatable; default: every source, latest "
		  "version)" },
		CLI_SEL_FILTER_OPTS(o.sel),
		{ CLI_DOUBLE, "tolerance", 't', &o.tolerance, "F", "sources "
		  "agree within F (default 0.05; a key's spread widens it)" },
		{ CLI_FLAG, "pairwise-keys", 0, &o.pairwise_keys, NULL, "each "
		  "cell on its own pair's common keys, not the keys every "
		  "source holds" },
		{ CLI_STR, "pattern", 'p', &o.pattern, "P", "table: list only "
		  "keys of this pattern or label (odd, odd:SRC, split ...)" },
		{ CLI_FLAG, "keys", 0, &o.keys, NULL, "csv: one row per "
		  "classified key instead of one per cell" },
		{ CLI_STR, "format", 'f', &o.format, "FMT", "table (default), "
		  "csv or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = matrix_cmd;
	struct cli_list pos;
	enum out_format fmt;
	struct db *db;
	int rc;

	memset(&o, 0, sizeof(o));
	cli_sel_init(&o.sel);
	o.format = "table";
	o.tolerance = 0.05;
	cmd.opts = opts;
	if ((rc = cli_parse(&cmd, argc, argv, &pos))) {
		rc = rc == 1 ? CLI_OK : rc;
		goto out;
	}
	cli_list_free(&pos);
	if (!(o.sel.max_ref_cv >= 0)) {
		rc = cli_usage_error(cmd.name, "--max-ref-cv must be >= 0");
		goto out;
	}
	if (!(o.tolerance >= 0) || !(o.tolerance < 10)) {
		rc = cli_usage_error(cmd.name, "--tolerance must be between 0 "
				     "and 10 (a fraction: 0.05 = 5%%)");
		goto out;
	}
	if (out_parse_format(o.format, &fmt)) {
		rc = cli_usage_error(cmd.name, "unknown format '%s'", o.format);
		goto out;
	}
	if ((rc = cli_open_db(&db, DB_READONLY)))
		goto out;
	if ((rc = run(db, fmt, &o)) < 0) {
		cli_error(cmd.name);
		rc = cli_exit_for(rc);
	}
	db_close(db);
	if (rc == CLI_OK && fflush(stdout) != 0)
		rc = cli_fail(cmd.name, "cannot write output");
out:
	cli_sel_release(&o.sel);
	cli_list_free(&o.sources);
	return rc;
}
