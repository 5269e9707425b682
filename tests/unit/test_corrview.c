/*
 * corr_set_view (issue 21): the summaries of a set of full points read
 * a compact copy of each point; every summary must be the one read from
 * the points, bit for bit (compared as corrout_stats_json_str, which
 * prints every statistic, reason and interval with %.17g): the overall
 * one, per metric, per workload, lean and with the bootstrap, and a keep
 * selection (which reads the points). Then the check is shown able to
 * fail: a changed copy changes the summary, so it is the copy that is
 * read. Data: the TUI fixtures (archsim against h100-lab: several
 * metrics, noisy references, an invalid result) and a generated study
 * of 70 workloads x 65 ops with ties, noisy references, a zero
 * reference and invalid results.
 */
#include "check.h"

#include <stdint.h>

#include "db/db.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "src/stats/stats_ci.h"
#include "base/error.h"
#include "src/import/import.h"
#include "base/util.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t xs(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	return rng ^= rng << 17;
}

static void import(struct db *db, const char *path, const char *src,
		   const char *kind, const char *ver)
{
	struct import_opts o = { .source = src, .kind = kind, .version = ver,
		.clock_hz = NAN };
	struct import_result res;

	if (import_file(db, path, &o, &res) != 0) {
		fprintf(stderr, "import %s: %s\n", path, pc_error_last());
		CHECK(0);
	}
}

/* gm (perfsim) vs gr (silicon), or the TUI fixtures' archsim 2.4.0 vs
 * h100-lab. */
static struct db *new_db(const char *name, int tui)
{
	char *path = check_tmp_path(name), *mp = check_tmp_path("gm.csv");
	char *rp = check_tmp_path("gr.csv");
	struct db *db = NULL;

	if (db_open(&db, path, DB_CREATE) < 0)
		abort();
	if (tui) {
		char *s = xasprintf("%s/tui/silicon.csv", check_fixtures());
		char *a = xasprintf("%s/tui/archsim.csv", check_fixtures());

		import(db, s, "h100-lab", "silicon", "2026.11");
		import(db, a, "archsim", "perfsim", "2.4.0");
		free(s);
		free(a);
	} else {
		FILE *m = fopen(mp, "w"), *r = fopen(rp, "w");

		for (int k = 0; m && r && k < 70 * 65; k++) {
			int w = k / 65, o = k % 65;
			double rv = w == 3 && o == 5 ? 0 :
				    (double)(1 + xs() % 400);

			fprintf(m, "%sg%02d/bs=%d,op%02d,time,%.2f,ms\n",
				k ? "" : "workload,op,metric,value,unit\n", w,
				1 << (w % 6), o,
				(double)(1 + xs() % 400) / 100);
			fprintf(r, "%sg%02d/bs=%d,op%02d,time,%.2f,ms,5,%.6f\n",
				k ? "" : "workload,op,metric,value,unit,n,"
				"stddev\n", w, 1 << (w % 6), o, rv / 100,
				rv / 100 * (k % 37 ? 0.01 : 0.5));
		}
		if (m)
			fclose(m);
		if (r)
			fclose(r);
		import(db, mp, "gm", "perfsim", "1");
		import(db, rp, "gr", "silicon", "1");
		CHECK_INT(db_exec(db, "UPDATE results SET flags = 1 "
				  "WHERE (seq + 7 * run_id) % 53 = 0"), 0);
	}
	free(path);
	free(mp);
	free(rp);
	return db;
}

/* Every summary of the rows: all, per metric id, per workload id (the
 * points in set order); n strings into out[0..*n). */
static void summaries(struct corr_set *s, char **out, size_t *n)
{
	size_t *idx = xmalloc((s->n + 1) * sizeof(*idx));
	struct stats_summary sum;

	*n = 0;
	CHECK_INT(corr_summary(&sum, s, NULL, NULL, 0), 0);
	out[(*n)++] = corrout_stats_json_str(&sum);
	for (int by = 0; by < 2; by++) {
		int64_t done[64];
		size_t nd = 0;

		for (size_t i = 0; i < s->n && nd < 64; i++) {
			int64_t key = by ? s->points[i].workload_id :
				      s->points[i].metric_id, k2;
			size_t len = 0, d = 0;

			while (d < nd && done[d] != key)
				d++;
			if (d < nd)
				continue;
			done[nd++] = key;
			for (size_t j = i; j < s->n; j++) {
				k2 = by ? s->points[j].workload_id :
				     s->points[j].metric_id;
				if (k2 == key)
					idx[len++] = j;
			}
			CHECK_INT(corr_summary_idx(&sum, s, idx, len, 0), 0);
			out[(*n)++] = corrout_stats_json_str(&sum);
		}
	}
	free(idx);
}

static int keep_even(const struct corr_point *p, void *arg)
{
	(void)arg;
	return p->op_id % 2 == 0;
}

static void check_study(struct db *db, const char *m, const char *r,
			const char *what)
{
	static const struct stats_paired_opts ci = { 97, 7, 0.9, 0 };
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct stats_summary a, b;
	char *pts[200], *view[200], *sa, *sb;
	size_t np, nv;

	q.model = m;
	q.ref = r;
	q.no_params = 1;
	CHECK_INT(corr_load(&s, db, &q), 0);
	if (!s)
		return;
	for (int mode = 0; mode < 3; mode++) {
		s->ci = mode == 1 ? &ci : NULL;
		s->lean = mode == 2 ? CORR_LEAN_CORR : 0;
		summaries(s, pts, &np);
		corr_set_view(s);
		CHECK(s->view != NULL);
		summaries(s, view, &nv);
		CHECK(np == nv && np > 2);
		for (size_t i = 0; i < np && i < nv; i++) {
			if (strcmp(pts[i], view[i])) {
				fprintf(stderr, "%s, mode %d, summary %zu:\n"
					"points %s\nview   %s\n", what, mode,
					i, pts[i], view[i]);
				CHECK(0);
			}
			free(pts[i]);
			free(view[i]);
		}
		corr_set_view_drop(s);
		CHECK(s->view == NULL);
	}
	s->ci = NULL;
	s->lean = 0;
	/* a keep selection reads the points, view or not */
	CHECK_INT(corr_summary(&a, s, keep_even, NULL, 0), 0);
	corr_set_view(s);
	CHECK_INT(corr_summary(&b, s, keep_even, NULL, 0), 0);
	sa = corrout_stats_json_str(&a);
	sb = corrout_stats_json_str(&b);
	CHECK_STR(sb, sa);
	free(sa);
	free(sb);
	/* and the summaries do read the copy: a changed copy shows */
	CHECK_INT(corr_summary(&a, s, NULL, NULL, 0), 0);
	for (size_t i = 0; i < s->n; i++)
		s->view[i].model *= 2;
	CHECK_INT(corr_summary(&b, s, NULL, NULL, 0), 0);
	CHECK(a.n == b.n && a.mape != b.mape);
	corr_set_free(s);
}

TEST(view_equals_points)
{
	struct db *db = new_db("gen.db", 0);

	check_study(db, "gm", "gr", "generated study");
	db_close(db);
	db = new_db("tui.db", 1);
	check_study(db, "archsim", "h100-lab", "TUI fixtures");
	db_close(db);
}

/* A slim set has no view (its summaries read the slim points). */
TEST(slim_has_none)
{
	struct db *db = new_db("slim.db", 0);
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;

	q.model = "gm";
	q.ref = "gr";
	q.slim = 1;
	CHECK_INT(corr_load(&s, db, &q), 0);
	if (s) {
		corr_set_view(s);
		CHECK(s->view == NULL);
	}
	corr_set_free(s);
	db_close(db);
}

TEST_MAIN(CASE(view_equals_points), CASE(slim_has_none))
