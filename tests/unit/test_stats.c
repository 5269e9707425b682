/*
 * Statistics against independent reference values: tests/data/stats_*.csv
 * and tests/data/stats_ref.json, produced offline by
 * tests/ref/gen_stats_ref.py (numpy/scipy). Agreement to 1e-9 relative.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "src/stats/stats.h"

#define REL 1e-9

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long len;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, fp) != (size_t)len)
		len = 0;
	buf[len] = 0;
	fclose(fp);
	return buf;
}

static char *data_path(const char *name)
{
	static char path[1024];
	snprintf(path, sizeof(path), "%s/data/%s", check_tests_dir(), name);
	return path;
}

struct series {
	double *m, *r, *sd;
	size_t n;
	int has_sd;
};

static void load(struct series *s, const char *name)
{
	char file[256], *text, *line, *save = NULL;

	memset(s, 0, sizeof(*s));
	snprintf(file, sizeof(file), "stats_%s.csv", name);
	text = slurp(data_path(file));
	CHECK(text != NULL);
	if (!text)
		return;
	s->m = calloc(1000, sizeof(double));
	s->r = calloc(1000, sizeof(double));
	s->sd = calloc(1000, sizeof(double));
	line = strtok_r(text, "\n", &save);	/* header */
	while ((line = strtok_r(NULL, "\n", &save)) && s->n < 1000) {
		char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : 0;

		if (!c2)
			continue;
		s->m[s->n] = strtod(line, NULL);
		s->r[s->n] = strtod(c1 + 1, NULL);
		s->has_sd = c2[1] != 0;
		s->sd[s->n] = s->has_sd ? strtod(c2 + 1, NULL) : NAN;
		s->n++;
	}
	free(text);
}

static double jnum(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

#define NEAR(name, field, got) do { double _e = jnum(exp, field); \
	double _g = (got); \
	if (!((isnan(_e) && isnan(_g)) || _e == _g || \
	      fabs(_e - _g) <= REL * fmax(fabs(_e), fabs(_g)))) { \
		fprintf(stderr, "%s.%s: got %.17g, expected %.17g\n", \
			name, field, _g, _e); CHECK(0); } } while (0)
#define COUNT(name, field, got) do { long _e = (long)jnum(exp, field); \
	if (_e != (long)(got)) { fprintf(stderr, "%s.%s: got %ld, " \
	"expected %ld\n", name, field, (long)(got), _e); CHECK(0); } } while (0)

static void compare(const char *name, const cJSON *exp,
		    const struct stats_summary *s)
{
	COUNT(name, "n", s->n);
	NEAR(name, "mape", s->mape);
	NEAR(name, "bias", s->bias);
	NEAR(name, "median_abs_err", s->median_abs_err);
	NEAR(name, "p90_abs_err", s->p90_abs_err);
	NEAR(name, "p95_abs_err", s->p95_abs_err);
	NEAR(name, "max_abs_err", s->max_abs_err);
	NEAR(name, "geomean_ratio", s->geomean_ratio);
	NEAR(name, "agg_err", s->agg_err);
	NEAR(name, "rpd", s->rpd);
	NEAR(name, "rmse", s->rmse);
	NEAR(name, "nrmse", s->nrmse);
	COUNT(name, "within_1pct", s->within_1pct);
	COUNT(name, "within_5pct", s->within_5pct);
	COUNT(name, "within_10pct", s->within_10pct);
	COUNT(name, "under", s->under);
	COUNT(name, "over", s->over);
	NEAR(name, "pearson", s->pearson);
	NEAR(name, "pearson_log", s->pearson_log);
	NEAR(name, "spearman", s->spearman);
	NEAR(name, "kendall_tau_b", s->kendall_tau_b);
	NEAR(name, "intercept", s->fit.intercept);
	NEAR(name, "slope", s->fit.slope);
	NEAR(name, "r2", s->fit.r2);
	NEAR(name, "se_intercept", s->fit.se_intercept);
	NEAR(name, "se_slope", s->fit.se_slope);
	COUNT(name, "weighted", s->fit.weighted);
	NEAR(name, "loa_low", s->loa_low);
	NEAR(name, "loa_high", s->loa_high);
	COUNT(name, "outliers", s->outliers);
}

/* Every undefined statistic has a reason, every defined one none. */
static void check_reasons(const char *name, const struct stats_summary *s)
{
	static const struct { enum stats_field f; size_t off; } map[] = {
		{ SF_MAPE, offsetof(struct stats_summary, mape) },
		{ SF_BIAS, offsetof(struct stats_summary, bias) },
		{ SF_ABS_ERR, offsetof(struct stats_summary, median_abs_err) },
		{ SF_GEOMEAN, offsetof(struct stats_summary, geomean_ratio) },
		{ SF_AGG_ERR, offsetof(struct stats_summary, agg_err) },
		{ SF_RPD, offsetof(struct stats_summary, rpd) },
		{ SF_RMSE, offsetof(struct stats_summary, rmse) },
		{ SF_NRMSE, offsetof(struct stats_summary, nrmse) },
		{ SF_PEARSON, offsetof(struct stats_summary, pearson) },
		{ SF_PEARSON_LOG, offsetof(struct stats_summary, pearson_log) },
		{ SF_SPEARMAN, offsetof(struct stats_summary, spearman) },
		{ SF_KENDALL, offsetof(struct stats_summary, kendall_tau_b) },
		{ SF_FIT, offsetof(struct stats_summary, fit.slope) },
		{ SF_LOA, offsetof(struct stats_summary, loa_low) },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		double v = *(const double *)((const char *)s + map[i].off);
		const char *why = stats_why(s, map[i].f);

		if (isnan(v) != (why != NULL)) {
			fprintf(stderr, "%s: field %d value %g reason %s\n",
				name, (int)map[i].f, v, why ? why : "(none)");
			CHECK(0);
		}
	}
}

TEST(reference_datasets)
{
	char *text = slurp(data_path("stats_ref.json"));
	cJSON *root = text ? cJSON_Parse(text) : NULL, *ds;
	int count = 0;

	CHECK(root != NULL);
	cJSON_ArrayForEach(ds, root) {
		struct series s;
		struct stats_summary sum;

		load(&s, ds->string);
		CHECK_INT(stats_compute(&sum, s.m, s.r, s.has_sd ? s.sd : NULL,
					s.n), 0);
		compare(ds->string, ds, &sum);
		check_reasons(ds->string, &sum);
		free(s.m);
		free(s.r);
		free(s.sd);
		count++;
	}
	CHECK(count >= 13);
	cJSON_Delete(root);
	free(text);
}

TEST(reasons)
{
	struct stats_summary s;
	double m[] = { 1.1, 0.5, 2 }, r[] = { 1, -0.5, 0 };

	CHECK_INT(stats_compute(&s, m, r, NULL, 0), 0);
	CHECK(isnan(s.mape) && isnan(s.rmse) && s.n == 0);
	CHECK_STR(stats_why(&s, SF_MAPE), "no pairs");
	CHECK_INT(stats_compute(&s, m, r, NULL, 2), 0);
	CHECK(isnan(s.mape));
	CHECK_STR(stats_why(&s, SF_MAPE), "a reference is zero or negative");
	CHECK(!isnan(s.nrmse) && !isnan(s.bias));
	CHECK_STR(stats_why(&s, SF_PEARSON), "fewer than 3 pairs");
	CHECK_INT(stats_compute(&s, m, r, NULL, 3), 0);
	CHECK_STR(stats_why(&s, SF_MAPE), "a reference is zero");
	CHECK(isnan(s.bias) && !isnan(s.rmse));
	CHECK_INT(s.under + s.over, 2);
	CHECK(stats_why(&s, SF_COUNT) == NULL);
	CHECK(isnan(stats_err(1, 0)));
	CHECK_NEAR(stats_err(1.1, 1), 0.1, 1e-12);
}

/* Known values: scipy.stats.kendalltau([1,2,3,4,5],[3,4,1,2,5]) = 0.2,
 * and with ties [1,1,2,3] vs [1,2,2,3]: tau-b = 0.8. */
TEST(kendall_known)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 3, 4, 1, 2, 5 };
	double a[] = { 1, 1, 2, 3 }, b[] = { 1, 2, 2, 3 };
	double c[] = { 1, 1, 1 };

	CHECK_NEAR(stats_kendall_tau_b(x, y, 5), 0.2, 1e-12);
	CHECK_NEAR(stats_kendall_tau_b(a, b, 4), 0.8, 1e-12);
	CHECK(isnan(stats_kendall_tau_b(c, x, 3)));
	CHECK(isnan(stats_kendall_tau_b(x, y, 2)));
	CHECK_NEAR(stats_spearman(x, y, 5), 0.2, 1e-12);
	CHECK_NEAR(stats_pearson(x, x, 5), 1.0, 1e-15);
}

static double kendall_brute(const double *x, const double *y, size_t n)
{
	double con = 0, dis = 0, tx = 0, ty = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double a = x[i] - x[j], b = y[i] - y[j];

			if (a == 0 && b == 0)
				continue;
			if (a == 0)
				tx++;
			else if (b == 0)
				ty++;
			else if ((a > 0) == (b > 0))
				con++;
			else
				dis++;
		}
	return (con - dis) / sqrt((con + dis + tx) * (con + dis + ty));
}

/* Knight's algorithm against the O(n^2) definition, many ties. */
TEST(kendall_brute)
{
	size_t n = 1500;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	uint64_t seed = 88172645463325252ull;

	for (size_t i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		x[i] = (double)(seed % 40);
		y[i] = x[i] * 0.5 + (double)((seed >> 20) % 25);
	}
	CHECK_NEAR(stats_kendall_tau_b(x, y, n), kendall_brute(x, y, n),
		   1e-12);
	free(x);
	free(y);
}

/* The summary's Kendall (dense ranks, runs by insertion and merges of
 * 32-bit keys, issue 21) against the O(n^2) definition: sizes around
 * the insertion runs (32) and odd merges, many ties, positive values. */
TEST(kendall_summary_brute)
{
	static const size_t sizes[] = { 31, 32, 33, 97, 1500, 4099 };

	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		size_t n = sizes[z];
		double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
		uint64_t seed = 0x853c49e6748fea9bull + z;
		struct stats_summary s;

		for (size_t i = 0; i < n; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			x[i] = 1 + (double)(seed % 40);
			y[i] = x[i] * 0.5 + 1 + (double)((seed >> 20) % 25);
		}
		CHECK(stats_compute(&s, y, x, NULL, n) == 0);
		CHECK_NEAR(s.kendall_tau_b, kendall_brute(y, x, n), 1e-12);
		free(x);
		free(y);
	}
}

/* 52 references from 1e-9 to 7.3e3 (10^k (1 + 2.1 j), k = -9..3,
 * j = 0..3), sd = 1% of each: the weights span 24 decades. Expected
 * values of model = 1.5 ref + 2e-10 from tests/ref/gen_wfit_exact.py's
 * exact rational normal equations on the same doubles:
 * slope 1.5, intercept 1.9999999999999998e-10, r2 1.0, se_intercept
 * 9.0e-26, se_slope 1.36e-17 (only the inputs' rounding is left). */
static void decades(double *x, double *y, double *sd, double scale,
		    double slope, double icpt)
{
	size_t n = 0;

	for (int k = -9; k <= 3; k++)
		for (int j = 0; j < 4; j++, n++) {
			x[n] = pow(10, k) * (1 + j * 2.1);
			y[n] = slope * x[n] + icpt;
			sd[n] = scale * x[n];
		}
}

static void permute(double *x, double *y, double *sd, size_t n, int how)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i + 1 < n; i++) {
		size_t j = n - 1 - i;	/* reverse */
		double t;

		if (how == 2) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			j = i + (size_t)(seed % (n - i));
		} else if (j <= i) {
			break;
		}
		t = x[i]; x[i] = x[j]; x[j] = t;
		t = y[i]; y[i] = y[j]; y[j] = t;
		t = sd[i]; sd[i] = sd[j]; sd[j] = t;
	}
}

TEST(fit_decades)
{
	double x[52], y[52], sd[52];
	struct stats_summary s;

	for (int how = 0; how < 3; how++) {
		decades(x, y, sd, 0.01, 1.5, 2e-10);
		if (how)
			permute(x, y, sd, 52, how);
		CHECK_INT(stats_compute(&s, y, x, sd, 52), 0);
		CHECK_INT(s.fit.weighted, 1);
		CHECK_NEAR(s.fit.slope, 1.5, 1e-15);
		CHECK_NEAR(s.fit.intercept / 1.9999999999999998e-10, 1.0,
			   1e-9);
		CHECK_NEAR(s.fit.r2, 1.0, 1e-15);
		CHECK(s.fit.se_slope < 1e-15 && s.fit.se_intercept < 1e-24);
	}
	/* exact slope 1 with sd = 1e-170 x: 1/sd^2 is infinite for every
	 * point below 1e-139 (the old GSL fit gave NaN); the weights are
	 * relative, so the fit is exact: slope 1, intercept 0, se 0 */
	for (int how = 0; how < 3; how++) {
		decades(x, y, sd, 1e-170, 1.0, 0.0);
		if (how)
			permute(x, y, sd, 52, how);
		CHECK_INT(stats_compute(&s, y, x, sd, 52), 0);
		CHECK_INT(s.fit.weighted, 1);
		CHECK(s.fit.slope == 1.0 && s.fit.intercept == 0.0);
		CHECK(s.fit.r2 == 1.0 && s.fit.se_slope == 0.0);
	}
}

/* A summary over several metrics keeps only dimensionless statistics. */
TEST(null_mixed)
{
	double m[] = { 1.05, 2.1, 2.85, 4.2 }, r[] = { 1, 2, 3, 4 };
	struct stats_summary s;

	CHECK_INT(stats_compute(&s, m, r, NULL, 4), 0);
	CHECK(!isnan(s.pearson) && !isnan(s.fit.slope) && !isnan(s.rmse));
	stats_null_mixed(&s);
	CHECK(isnan(s.pearson) && isnan(s.spearman) && isnan(s.kendall_tau_b));
	CHECK(isnan(s.pearson_log) && isnan(s.fit.slope) && isnan(s.rmse));
	CHECK(isnan(s.nrmse) && isnan(s.agg_err) && isnan(s.loa_low));
	CHECK(isnan(s.efficiency));
	CHECK_STR(stats_why(&s, SF_PEARSON), "several metrics");
	CHECK_STR(stats_why(&s, SF_FIT), "several metrics");
	/* kept: (0.05 + 0.05 + 0.05 + 0.05) / 4 = 0.05 */
	CHECK_NEAR(s.mape, 0.05, 1e-12);
	CHECK(!isnan(s.geomean_ratio) && !isnan(s.median_abs_err));
	CHECK_INT(s.within_10pct, 4);
}

TEST_MAIN(CASE(reference_datasets), CASE(reasons),
	  CASE(kendall_known), CASE(kendall_brute), CASE(kendall_summary_brute),
	  CASE(fit_decades), CASE(null_mixed))
