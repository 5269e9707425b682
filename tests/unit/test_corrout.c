/*
 * The one table of statistics (src/corrout.c, issue 19): every row is a
 * key of compare's JSON statistics object (the writer compare, report
 * JSON, trend, diff and the gate share), with a label, a description and
 * a unit; the report's and the TUI's columns are rows of it; and the list
 * in docs/statistics.md is the table's own (between the markers
 * "<!-- statistics table -->" and "<!-- end statistics table -->"; when it
 * differs this test prints the list to paste there).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "src/corr/corrout.h"
#include "src/stats/stats.h"
#include "src/stats/stats_ci.h"

static const double model[] = { 1.10, 2.00, 0.95, 3.30, 1.00, 5.50, 0.80,
				1.21, 2.40, 0.50, 4.00 };
static const double ref[] = { 1.00, 2.10, 1.00, 3.00, 1.00, 5.00, 1.00,
			      1.10, 2.00, 0.55, 4.40 };
static const double sd[] = { 0.01, 0.02, 0.01, 0.03, 0.01, 0.05, 0.01,
			     0.01, 0.02, 0.01, 0.04 };
static const int64_t wkey[] = { 7, 7, 3, 3, 3, 11, 5, 5, 5, 5, 9 };

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long len;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, fp) != (size_t)len)
		len = 0;
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

/* "KEY": in the JSON text, nested keys as "PARENT":{..."CHILD": */
static int has_key(const char *json, const char *key)
{
	char pat[96];
	const char *dot = strchr(key, '.');

	if (!dot) {
		snprintf(pat, sizeof(pat), "\"%s\":", key);
		return strstr(json, pat) != NULL;
	}
	snprintf(pat, sizeof(pat), "\"%.*s\":{", (int)(dot - key), key);
	json = strstr(json, pat);
	if (!json)
		return 0;
	snprintf(pat, sizeof(pat), "\"%s\":", dot + 1);
	return strstr(json, pat) != NULL;
}

TEST(rows_are_keys)
{
	struct stats_summary s;
	char *json;
	size_t n = corrout_stats_count();
	unsigned views = 0;

	CHECK_INT(stats_compute(&s, model, ref, sd, 11), 0);
	stats_ci_compute(&s, model, ref, wkey, 11, NULL);
	json = corrout_stats_json_str(&s);
	CHECK(n > 50);
	for (size_t i = 0; i < n; i++) {
		const struct corrout_stat *st = corrout_stats_at(i);

		if (!has_key(json, st->key))
			fprintf(stderr, "row '%s' is not in the JSON\n",
				st->key);
		CHECK(has_key(json, st->key));
		CHECK(st->label && *st->label && st->desc && *st->desc);
		CHECK(st->abbr && *st->abbr);
		if (st->has_ci) {
			char k[64];

			snprintf(k, sizeof(k), "%s_ci", st->key);
			CHECK(has_key(json, k));
		}
		/* keys are unique */
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(corrout_stats_at(j)->key, st->key) != 0);
		views |= st->views;
	}
	CHECK(corrout_stats_at(n) == NULL);
	/* every view has columns */
	CHECK(views == (CORROUT_V_REPORT | CORROUT_V_OPS | CORROUT_V_TUI));
	free(json);
}

TEST(values)
{
	struct stats_summary s;

	CHECK_INT(stats_compute(&s, model, ref, NULL, 11), 0);
	stats_ci_compute(&s, model, ref, wkey, 11, NULL);
	for (size_t i = 0; i < corrout_stats_count(); i++) {
		const struct corrout_stat *st = corrout_stats_at(i);
		double v = corrout_stat_value(st, &s);

		if (!strcmp(st->key, "mape"))
			CHECK(v == s.mape && corrout_stat_ci(st, &s) ==
			      &s.mape_ci);
		if (!strcmp(st->key, "fit.slope"))
			CHECK(v == s.fit.slope);
		if (!strcmp(st->key, "deming.p_identity"))
			CHECK(v == s.deming.p_identity ||
			      (isnan(v) && isnan(s.deming.p_identity)));
		if (!strcmp(st->key, "within_5pct"))
			CHECK(st->count && v == (double)s.within_5pct);
		if (!strcmp(st->key, "workloads"))
			CHECK(v == 5);
		if (!strcmp(st->key, "bias"))
			CHECK(st->pct && !st->count);
		if (st->interval)
			CHECK(isnan(v) && corrout_stat_ci(st, &s));
	}
}

TEST(docs_list)
{
	static const char begin[] = "<!-- statistics table -->\n";
	static const char end[] = "<!-- end statistics table -->";
	char *doc = slurp(PC_SOURCE_DIR "/docs/statistics.md");
	char *want = NULL, *at, *stop;
	size_t len = 0;
	FILE *fp = open_memstream(&want, &len);

	corrout_stats_doc(fp);
	fclose(fp);
	CHECK(doc != NULL);
	if (!doc)
		return;
	at = strstr(doc, begin);
	CHECK(at != NULL);
	if (!at) {
		free(doc);
		free(want);
		return;
	}
	at += strlen(begin);
	stop = strstr(at, end);
	CHECK(stop != NULL);
	if (stop && ((size_t)(stop - at) != len || memcmp(at, want, len))) {
		fprintf(stderr, "docs/statistics.md's list differs from the "
			"table; it should read:\n%s", want);
		CHECK(0);
	}
	free(doc);
	free(want);
}

/* The report's lean tables (issue 21: corr_set.lean, CORR_LEAN_*): the
 * op class rows (CORROUT_V_REPORT) come from stats_compute_lean, the op
 * rows (CORROUT_V_OPS) from stats_compute_mixed without the
 * correlations: every
 * statistic those tables print must be stats_compute's bit for bit, with
 * the same reason. A row added to a view that the lean computation
 * leaves out (Kendall, the fit, CCC ...) fails here. Data: the sample
 * above, a constant one (Pearson undefined) and one with a zero
 * reference (MAPE undefined). */
static void lean_view(const double *m, const double *r, const double *w,
		      size_t n, unsigned view, int with_corr, const char *what)
{
	struct stats_summary full, lean;

	CHECK_INT(stats_compute(&full, m, r, w, n), 0);
	CHECK_INT(with_corr ? stats_compute_lean(&lean, m, r, w, n) :
		  stats_compute_mixed(&lean, m, r, w, n, 0), 0);
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);
		double a, b;
		const char *wa, *wb;

		if (!(st->views & view))
			continue;
		a = corrout_stat_value(st, &full);
		b = corrout_stat_value(st, &lean);
		wa = corrout_stat_why(st, &full);
		wb = corrout_stat_why(st, &lean);
		if (!((isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a))) ||
		    (wa != wb && (!wa || !wb || strcmp(wa, wb)))) {
			fprintf(stderr, "%s: '%s' is %.17g (%s) lean, %.17g "
				"(%s) in full\n", what, st->key, b,
				wb ? wb : "-", a, wa ? wa : "-");
			check_failures++;
			check_current_failed = 1;
		}
	}
}

TEST(lean_tables)
{
	static const double cm[] = { 2, 2, 2, 2 }, cr[] = { 1, 2, 3, 4 };
	static const double zm[] = { 1, 2, 3, 4 }, zr[] = { 1, 0, 3, 5 };
	size_t n = sizeof(model) / sizeof(model[0]);

	lean_view(model, ref, sd, n, CORROUT_V_REPORT, 1, "op class rows");
	lean_view(model, ref, NULL, n, CORROUT_V_REPORT, 1,
		  "op class rows, unweighted");
	lean_view(model, ref, sd, n, CORROUT_V_OPS, 0, "op rows");
	lean_view(cm, cr, NULL, 4, CORROUT_V_REPORT, 1,
		  "constant, op class rows");
	lean_view(cm, cr, NULL, 4, CORROUT_V_OPS, 0, "constant, op rows");
	lean_view(zm, zr, NULL, 4, CORROUT_V_REPORT, 1,
		  "zero ref, op class rows");
	lean_view(zm, zr, NULL, 4, CORROUT_V_OPS, 0, "zero ref, op rows");
	/* the metric rows are lean too: the html figures also read their
	 * limits of agreement (log_stats, in every set) */
	{
		struct stats_summary full, lean;

		stats_compute(&full, model, ref, sd, n);
		stats_compute_lean(&lean, model, ref, sd, n);
		CHECK(isfinite(full.loa_low) && isfinite(full.loa_high));
		CHECK(!memcmp(&full.loa_low, &lean.loa_low, sizeof(double)) &&
		      !memcmp(&full.loa_high, &lean.loa_high,
			      sizeof(double)));
	}
	/* and the check itself can fail: Kendall is not in the lean set */
	{
		struct stats_summary full, lean;

		stats_compute(&full, model, ref, NULL, n);
		stats_compute_lean(&lean, model, ref, NULL, n);
		CHECK(isfinite(full.kendall_tau_b) &&
		      isnan(lean.kendall_tau_b) && isfinite(full.ccc) &&
		      isnan(lean.ccc));
	}
}

TEST_MAIN(CASE(rows_are_keys), CASE(values), CASE(docs_list),
	  CASE(lean_tables))
