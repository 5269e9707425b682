/*
 * The pair index (src/pairidx.h) against the correlation core, which is
 * the reference: cold opens (corr_load, build, store) and warm ones (read
 * back from the pair cache) give corr_load's points, corr_summary's
 * summary and corrgroup_build's groups; sort orders with their starts
 * bitmaps and pidx_find against brute force; the cache cleared by a
 * deleted run; PIDX_NO_WRITE and read-only databases; annotations per
 * point as annot_index_find answers; pidx_basic over subsets; and
 * stats_basic (plain sums) against stats_compute (compensated sums).
 * Data: the fixtures/tui CSVs imported as tests/tui/libtui.sh does, and
 * a generated study of 4550 pairs (two detail chunks, ties, noisy and
 * invalid points, a zero reference).
 */
#include "check.h"

#include <stdarg.h>
#include <stdint.h>

#include "db/annot.h"
#include "db/db.h"
#include "src/corr/annot.h"
#include "src/corr/corrgroup.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "src/import/import.h"
#include "src/pairidx/pairidx.h"
#include "base/util.h"
#include "src/corr/wabbr.h"

#define FAILV(...) failv(__LINE__, __VA_ARGS__)
#define WV(f) ((f) & ~(unsigned)CORR_WAIVED)	/* annotations: check_annots */
#define QUERY(m, r) { m, r, NULL, NULL, NULL, NULL, 0, 0.30, { 0, 0 }, NULL, NULL, NULL, 0, 0, NULL, NULL, 0 }
#define DIFF(a, b, f) (!same((a).f, (b).f))

static uint64_t rng = 88172645463325252ull;

static void failv(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", __FILE__, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	check_failures++;
	check_current_failed = 1;
}

static uint64_t xs(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	return rng ^= rng << 17;
}

/* Bit-equal, or both NaN. */
static int same(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

static long count(struct db *db, const char *table)
{
	char *sql = xasprintf("SELECT count(*) FROM %s", table);
	struct db_stmt *st = NULL;
	int rc = 0;
	long n = -1;

	db_prepare(db, &rc, &st, sql);
	if (!rc && db_step(st) == DB_ROW)
		n = (long)db_column_int64(st, 0);
	db_finalize(st);
	free(sql);
	return n;
}

static int64_t import(struct db *db, const char *path, const char *src,
		      const char *kind, const char *ver, int replace)
{
	struct import_opts o = { .source = src, .kind = kind, .version = ver,
		.clock_hz = NAN, .replace = replace };
	struct import_result res;

	if (import_file(db, path, &o, &res) == 0)
		return res.run_id;
	FAILV("import %s: %s", path, pc_error_last());
	return -1;
}

/* The TUI tests' study (file, source, kind, version), libtui.sh's order. */
static const char *const tui[5][4] = {
	{ "silicon.csv", "h100-lab", "silicon", "2026.11" },
	{ "archsim_v1.csv", "archsim", "perfsim", "2.3.0" },
	{ "archsim.csv", "archsim", "perfsim", "2.4.0" },
	{ "roofline.csv", "roofline", "roofline", "1.0" },
	{ "rtl.csv", "t100-rtl", "rtl", "r42" },
};

static int64_t import_tui(struct db *db, int k, int replace)
{
	char *path = xasprintf("%s/tui/%s", check_fixtures(), tui[k][0]);
	int64_t id = import(db, path, tui[k][1], tui[k][2], tui[k][3],
			    replace);

	free(path);
	return id;
}

/* A new database: the TUI study (runs[k] = tui[k]'s run), or when runs
 * is NULL gm (perfsim) vs gr (silicon): 70 workloads x 65 ops on a 0.01
 * grid (ties), every 37th reference noisy, one zero, and every 53rd
 * result flagged invalid in the database. */
static struct db *new_db(const char *name, int64_t *runs)
{
	char *path = check_tmp_path(name), *mp = check_tmp_path("gm.csv");
	char *rp = check_tmp_path("gr.csv");
	FILE *m = runs ? NULL : fopen(mp, "w"), *r = m ? fopen(rp, "w") : 0;
	struct db *db = NULL;

	rng = 88172645463325252ull;	/* the same study every time */
	for (int k = 0; m && r && k < 70 * 65; k++) {
		int w = k / 65, o = k % 65;
		double rv = w == 3 && o == 5 ? 0 : (double)(1 + xs() % 400);

		fprintf(m, "%sg%02d/decode/bs=%d/seq=%d/bf16,op%02d,time,%.2f,"
			"ms\n", k ? "" : "workload,op,metric,value,unit\n", w,
			1 << (w % 6), 1024 << (w % 3), o,
			(double)(1 + xs() % 400) / 100);
		fprintf(r, "%sg%02d/decode/bs=%d/seq=%d/bf16,op%02d,time,%.2f,"
			"ms,5,%.6f\n", k ? "" : "workload,op,metric,value,"
			"unit,n,stddev\n", w, 1 << (w % 6), 1024 << (w % 3), o,
			rv / 100, rv / 100 * (k % 37 ? 0.01 : 0.5));
	}
	if (m)
		fclose(m);
	if (r)
		fclose(r);
	if (db_open(&db, path, DB_CREATE) < 0)
		abort();
	for (int k = 0; runs && k < 5; k++)
		runs[k] = import_tui(db, k, 0);
	if (!runs) {
		import(db, mp, "gm", "perfsim", "1", 0);
		import(db, rp, "gr", "silicon", "1", 0);
		CHECK_INT(db_exec(db, "UPDATE results SET flags = 1 "
				  "WHERE (seq + 7 * run_id) % 53 = 0"), 0);
	}
	free(path);
	free(mp);
	free(rp);
	return db;
}

static void check_sum(const struct stats_summary *a,
		      const struct stats_summary *e, const char *what)
{
	if (a->n != e->n || a->excluded_noisy != e->excluded_noisy ||
	    a->sol_violations != e->sol_violations || DIFF(*a, *e, mape) ||
	    DIFF(*a, *e, bias) || DIFF(*a, *e, pearson) ||
	    DIFF(*a, *e, spearman) || DIFF(*a, *e, p90_abs_err))
		FAILV("%s: summary n %ld mape %.17g r %.17g rho %.17g, "
		      "expected %ld %.17g %.17g %.17g (or bias/p90/noisy/sol)",
		      what, a->n, a->mape, a->pearson, a->spearman, e->n,
		      e->mape, e->pearson, e->spearman);
}

/* Every point, the summary and every group key against the core. */
static void check_index(struct pidx *x, const struct corr_set *s,
			const char *what)
{
	static const char *const fixed[] = { "op_class", "op", "metric",
					     "workload" };
	struct stats_summary sum;
	char **params = NULL;
	size_t np = 0, bad = 0;

	if (x->n != s->n) {
		FAILV("%s: n %zu, corr_load has %zu", what, x->n, s->n);
		return;
	}
	CHECK(x->excluded_noisy == s->excluded_noisy &&
	      x->sol_violations == s->sol_violations &&
	      x->invalid == s->invalid);
	CHECK_STR(x->model.source, s->model.source);
	CHECK_STR(x->ref.source, s->ref.source);
	for (size_t i = 0; i < s->n && bad < 5; i++) {
		const struct corr_point *e = &s->points[i];
		struct corr_point p;

		if (pidx_point(x, i, &p, 1) || strcmp(p.workload, e->workload)
		    || strcmp(p.op, e->op) || strcmp(p.op_class, e->op_class)
		    || strcmp(p.metric, e->metric) ||
		    p.workload_id != e->workload_id || p.op_id != e->op_id ||
		    p.metric_id != e->metric_id || DIFF(p, *e, model) ||
		    DIFF(p, *e, ref) || DIFF(p, *e, err) ||
		    WV(p.flags) != WV(e->flags & ~CORR_SOL_BOUND) || DIFF(p, *e, model_sd) ||
		    DIFF(p, *e, ref_sd) || DIFF(p, *e, ref_n) ||
		    DIFF(p, *e, ref_min) || DIFF(p, *e, ref_max) ||
		    p.model_run != e->model_run || p.ref_run != e->ref_run)
			bad++, FAILV("%s: point %zu (%s|%s|%s) differs from "
				     "corr_load's", what, i, e->workload, e->op,
				     e->metric);
	}
	CHECK_INT(corr_summary(&sum, s, NULL, NULL, 0), 0);
	check_sum(&x->sum, &sum, what);
	corr_param_names(s, &params, &np);
	CHECK_INT(x->ngroup_keys, 4 + np);
	for (size_t k = 0; k < 4 + np; k++) {
		char *key = k < 4 ? xstrdup(fixed[k]) :
			    xasprintf("param.%s", params[k - 4]);
		const char *by[1] = { key };
		const struct corrgroup *pg = NULL;
		struct corrgroup g;

		CHECK(k < x->ngroup_keys && !strcmp(x->group_keys[k], key));
		CHECK_INT(corrgroup_build(&g, s, by, 1, 0), 0);
		CHECK_INT(pidx_groups(x, key, &pg), 0);
		if (pg && pg->n != g.n)
			FAILV("%s: %s: %zu groups, expected %zu", what, key,
			      pg->n, g.n);
		for (size_t i = 0; pg && i < g.n && i < pg->n; i++)
			if (strcmp(pg->values[i], g.values[i]) ||
			    pg->size[i] != g.size[i] ||
			    pg->stats[i].n != g.stats[i].n ||
			    DIFF(pg->stats[i], g.stats[i], mape))
				FAILV("%s: %s group %zu (%s) differs", what, key,
				      i, g.values[i]);
		corrgroup_release(&g);
		free(key);
		free(k >= 4 ? params[k - 4] : NULL);
	}
	free(params);
}

/* Column col of points a and b: strcmp for names, numbers with NaN
 * last, flags as integers. */
static int col_cmp(struct pidx *x, int col, uint32_t a, uint32_t b)
{
	const struct pidx_key *ka = &x->keys[a], *kb = &x->keys[b];
	double u = fabs(ka->err), v = fabs(kb->err);

	if (col == PIDX_WORKLOAD)
		return strcmp(pidx_workload(x, ka->w), pidx_workload(x, kb->w));
	if (col == PIDX_OP)
		return strcmp(pidx_op(x, ka->o), pidx_op(x, kb->o));
	if (col == PIDX_METRIC)
		return strcmp(pidx_metric(x, ka->m), pidx_metric(x, kb->m));
	if (col == PIDX_MODEL)
		u = x->vals[a].model, v = x->vals[b].model;
	else if (col == PIDX_REF)
		u = x->vals[a].ref, v = x->vals[b].ref;
	if (isnan(u) || isnan(v))
		return isnan(u) - isnan(v);
	return (u > v) - (u < v);
}

/* Each order: a permutation, ascending, ties by index, starts bits. */
static void check_orders(struct pidx *x, const char *what)
{
	unsigned char *seen = xmalloc(x->n + 1);

	const uint32_t *none;
	const unsigned char *no;

	/* flags carry the waived bit: the TUI sorts them, not the index */
	if (pidx_order(x, PIDX_FLAGS, &none, &no) != PC_ENOTFOUND)
		FAILV("%s: a cached order for the flags column", what);
	for (int col = 0; col < PIDX_NORDERS; col++) {
		const uint32_t *perm = NULL;
		const unsigned char *starts = NULL;
		size_t bad = 0;

		memset(seen, 0, x->n + 1);
		if (pidx_order(x, col, &perm, &starts) < 0) {
			FAILV("%s: no order for column %d", what, col);
			continue;
		}
		for (size_t k = 0; k < x->n && bad < 3; k++) {
			int c = k ? col_cmp(x, col, perm[k - 1], perm[k]) : 1;
			int bit = (starts[k / 8] >> (k % 8)) & 1;

			if (perm[k] >= x->n || seen[perm[k]]++ || (k &&
			    (c > 0 || (c == 0 && perm[k - 1] > perm[k]))) ||
			    bit != (c != 0))
				bad++, FAILV("%s: column %d, position %zu: point "
					     "%u vs the one before: %d, starts "
					     "bit %d", what, col, k, perm[k], c,
					     bit);
		}
	}
	free(seen);
}

/* Every id triple in -1..max+1, and one far out: the point or -1. */
static void check_find(struct pidx *x, const char *what)
{
	int64_t d0 = x->max_id[0] + 3, d1 = x->max_id[1] + 3;
	int64_t d2 = x->max_id[2] + 3, bad = 0;
	long *at = xmalloc((size_t)(d0 * d1 * d2) * sizeof(*at));

	for (int64_t i = 0; i < d0 * d1 * d2; i++)
		at[i] = -1;
	for (size_t i = 0; i < x->n; i++)
		at[((x->keys[i].w + 1) * d1 + x->keys[i].o + 1) * d2 +
		   x->keys[i].m + 1] = (long)i;
	for (int64_t i = 0; i < d0 * d1 * d2 && bad < 5; i++) {
		int64_t w = i / (d1 * d2) - 1, o = i / d2 % d1 - 1;
		long got = pidx_find(x, w, o, i % d2 - 1);

		if (got != at[i])
			bad++, FAILV("%s: find(%lld, %lld, %lld) = %ld, "
				     "expected %ld", what, (long long)w,
				     (long long)o, (long long)(i % d2 - 1), got,
				     at[i]);
	}
	CHECK(x->n == 0 || pidx_find(x, INT64_MAX, x->keys[0].o,
				     x->keys[0].m) == -1);
	free(at);
}

/* Open q twice (cold, then warm; both warm unless cold) and compare
 * everything with the core. */
static void against_core(struct db *db, const struct corr_query *q,
			 int cold)
{
	struct corr_set *s = NULL;
	struct stats_summary sum, ps;
	char what[128];

	snprintf(what, sizeof(what), "%s vs %s", q->model, q->ref);
	if (corr_load(&s, db, q) < 0) {
		FAILV("%s: corr_load: %s", what, pc_error_last());
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		struct pidx *x = NULL;

		CHECK_INT(pidx_open(&x, db, q, 0), 0);
		if (!x)
			continue;
		if (x->built != (cold && !pass) || !x->cached)
			FAILV("%s: open %d: built %d cached %d", what, pass,
			      x->built, x->cached);
		check_index(x, s, what);
		check_orders(x, what);
		check_find(x, what);
		pidx_free(x);
	}
	CHECK_INT(corr_summary(&sum, s, NULL, NULL, 0), 0);
	if (pidx_summary(db, q, &ps) == 0)
		check_sum(&ps, &sum, what);
	else
		FAILV("%s: pidx_summary: %s", what, pc_error_last());
	corr_set_free(s);
}

TEST(cold_warm_vs_core)
{
	static const char *const pairs[][2] = {
		{ "archsim", "h100-lab" }, { "roofline", "h100-lab" },
		{ "archsim@2.3.0", "h100-lab" }, { "t100-rtl", "h100-lab" },
		{ "archsim@2.3.0", "archsim@2.4.0" }, { "gm", "gr" },
		{ "gm", "gr" } };
	int64_t runs[5];
	struct db *db = new_db("cw.db", runs), *g = new_db("gen.db", NULL);

	for (size_t k = 0; k < 7; k++) {
		struct corr_query q = QUERY(pairs[k][0], pairs[k][1]);

		q.op_glob = k == 6 ? "op1*" : NULL;	/* another entry */
		against_core(k < 5 ? db : g, &q, 1);
	}
	CHECK_INT(count(db, "pair_cache"), 5);
	CHECK_INT(count(g, "pair_cache"), 2);
	db_close(db);
	db_close(g);
}

TEST(invalidation)
{
	int64_t runs[5];
	struct db *db = new_db("inv.db", runs);
	struct corr_query a = QUERY("archsim", "h100-lab");
	struct corr_query r = QUERY("roofline", "h100-lab");
	char *sql = xasprintf("DELETE FROM runs WHERE id = %lld",
			      (long long)runs[2]);	/* archsim 2.4.0 */

	against_core(db, &a, 1);
	against_core(db, &r, 1);
	CHECK_INT(count(db, "pair_cache"), 2);
	CHECK(count(db, "pair_cache_parts") > 0);
	CHECK_INT(db_exec(db, sql), 0);
	free(sql);
	CHECK_INT(count(db, "pair_cache"), 0);
	CHECK_INT(count(db, "pair_cache_parts"), 0);
	against_core(db, &r, 1);	/* a pairing without that run */
	against_core(db, &a, 1);	/* archsim is 2.3.0 now */
	CHECK(import_tui(db, 2, 0) > 0);	/* 2.4.0 again: a new key */
	CHECK_INT(count(db, "pair_cache"), 2);
	against_core(db, &a, 1);
	against_core(db, &r, 0);
	CHECK(import_tui(db, 0, 1) > 0);	/* import --replace */
	CHECK_INT(count(db, "pair_cache"), 0);
	CHECK_INT(count(db, "pair_cache_parts"), 0);
	against_core(db, &a, 1);
	db_close(db);
}

/* Twice PIDX_NO_WRITE, then read-only (cold): built, never cached. */
TEST(no_write_and_readonly)
{
	int64_t runs[5];
	struct db *db = new_db("ro.db", runs);
	struct corr_query q = QUERY("roofline", "h100-lab");
	char *path = check_tmp_path("ro.db");

	for (int pass = 0; pass < 3; pass++) {
		const char *what = pass < 2 ? "no-write" : "read-only";
		struct stats_summary sum, ps;
		struct corr_set *s = NULL;
		struct pidx *x = NULL;

		if (pass == 2) {
			db_close(db);
			CHECK_INT(db_open(&db, path, DB_READONLY), 0);
		}
		CHECK_INT(corr_load(&s, db, &q), 0);
		CHECK_INT(pidx_open(&x, db, &q, pass < 2 ? PIDX_NO_WRITE : 0),
			  0);
		if (x && s) {
			CHECK(x->built == 1 && x->cached == 0);
			check_index(x, s, what);
			check_orders(x, what);
			check_find(x, what);
		}
		if (pass == 2 && s) {	/* builds, cannot store */
			CHECK_INT(corr_summary(&sum, s, NULL, NULL, 0), 0);
			if (pidx_summary(db, &q, &ps) == 0)
				check_sum(&ps, &sum, what);
			else
				FAILV("read-only pidx_summary failed");
		}
		pidx_free(x);
		corr_set_free(s);
		CHECK_INT(count(db, "pair_cache"), 0);
	}
	db_close(db);
	free(path);
}

/* 1-based index of s in a NULL-terminated list, 0 for none. */
static unsigned code_of(const char *const *list, const char *s)
{
	for (unsigned i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return i + 1;
	return 0;
}

#define STATUS(s) code_of(db_annot_statuses, s)

/* Per point: status, category, CORR_WAIVED and the row as
 * annot_index_find answers; CORR_WAIVED also as corr_load sets it. */
static void check_annots(struct pidx *x, struct db *db,
			 const struct corr_query *q, const char *what)
{
	struct annot_index *ix = NULL;
	struct corr_set *s = NULL;

	CHECK_INT(annot_index_load(&ix, db), 0);
	CHECK_INT(corr_load(&s, db, q), 0);
	for (size_t i = 0; s && ix && i < x->n && i < s->n; i++) {
		const struct corr_point *e = &s->points[i];
		const struct annot *a = annot_index_find(ix, e->workload, e->op,
			e->metric, x->model.source, x->ref.source);
		int waived = a && annot_waived(a, NULL);
		struct corr_point p;

		pidx_point(x, i, &p, 0);
		if (x->status[i] != STATUS(a ? a->status : NULL) ||
		    x->category[i] != code_of(db_annot_categories,
					      a ? a->category : NULL) ||
		    !(p.flags & CORR_WAIVED) != !waived ||
		    !(e->flags & CORR_WAIVED) != !waived ||
		    (a ? !p.ann || p.ann->id != a->id : p.ann != NULL))
			FAILV("%s: point %zu %s|%s|%s: status %u flags %u "
			      "(core %u), expected status %u waived %d", what,
			      i, e->workload, e->op, e->metric, x->status[i],
			      p.flags, e->flags, STATUS(a ? a->status : NULL),
			      waived);
	}
	annot_index_free(ix);
	corr_set_free(s);
}

/* Add an annotation: exact for p in archsim vs h100-lab, else a
 * pattern on op_glob. */
static void annotate(struct db *db, const struct corr_point *p,
		     const char *op_glob, const char *status,
		     const char *expires)
{
	struct annot a = { .workload = p ? (char *)p->workload : NULL,
		.op = (char *)(p ? p->op : op_glob),
		.metric = p ? (char *)p->metric : NULL,
		.model_source = p ? (char *)"archsim" : NULL,
		.ref_source = p ? (char *)"h100-lab" : NULL,
		.is_pattern = !p, .status = (char *)status,
		.category = (char *)(p ? "modeling-error" : "unknown"),
		.note = (char *)"t",
		.expires = (char *)expires };

	CHECK_INT(db_annot_add(db, &a, 1, NULL), 0);
}

TEST(annotations)
{
	int64_t runs[5];
	struct db *db = new_db("ann.db", runs);
	struct corr_query q = QUERY("archsim", "h100-lab"), q2 = q;
	struct pidx *x = NULL;
	struct corr_point p;
	long target = -1, other = -1, pat = 0;

	if (pidx_open(&x, db, &q, 0) < 0)	/* cold, no annotations */
		abort();
	for (size_t i = 0; i < x->n; i++) {
		pidx_point(x, i, &p, 0);
		CHECK(x->status[i] == 0 && !(p.flags & CORR_WAIVED));
		if (target < 0 && !strcmp(p.op, "gemm_mlp"))
			target = (long)i;
		else if (other < 0 && !strcmp(p.op, "flash_attn"))
			other = (long)i;
	}
	if (target < 0 || other < 0)
		abort();
	pidx_point(x, (size_t)target, &p, 0);	/* names borrowed from x */
	annotate(db, &p, NULL, "accepted", NULL);
	pidx_free(x);
	if (pidx_open(&x, db, &q, 0) < 0)
		abort();
	CHECK_INT(x->built, 0);
	for (size_t i = 0; i < x->n; i++) {
		CHECK_INT(x->status[i], (long)i == target ? STATUS("accepted") :
			  0);
		CHECK_INT(!!(x->keys[i].flags & CORR_WAIVED), (long)i == target);
	}
	check_annots(x, db, &q, "exact");
	pidx_free(x);
	annotate(db, NULL, "gemm*", "investigating", NULL);
	if (pidx_open(&x, db, &q, 0) < 0)
		abort();
	for (size_t i = 0; i < x->n; i++)
		pat += x->status[i] == STATUS("investigating");
	CHECK(x->built == 0 && pat >= 2);	/* the other gemm_* points */
	CHECK_INT(x->status[target], STATUS("accepted"));	/* exact wins */
	check_annots(x, db, &q, "pattern");
	check_orders(x, "waived");	/* the flags order with a W point */
	q2.metric = "time";		/* a cold build with a waived point */
	against_core(db, &q2, 1);
	/* while x is open: an expired acceptance, the target fixed */
	pidx_point(x, (size_t)other, &p, 0);
	annotate(db, &p, NULL, "accepted", "2000-01-01");
	pidx_point(x, (size_t)target, &p, 0);	/* newest row: not waived */
	annotate(db, &p, NULL, "fixed", NULL);
	CHECK_INT(pidx_annotations(x, db), 0);
	CHECK_INT(x->status[other], STATUS("accepted"));
	CHECK(!(x->keys[other].flags & CORR_WAIVED));
	CHECK_INT(x->status[target], STATUS("fixed"));
	CHECK(!(x->keys[target].flags & CORR_WAIVED));
	check_annots(x, db, &q, "expired and fixed");
	pidx_free(x);
	db_close(db);
}

#define NEAR12(b, f, fld, what) do { if (!((isnan(b.fld) && \
	isnan(f.fld)) || fabs(b.fld - f.fld) <= 1e-12 * \
	fmax(fabs(b.fld), fabs(f.fld)))) FAILV("%s: " #fld " %.17g, " \
	"expected %.17g", what, b.fld, f.fld); } while (0)

static void basic_vs_full(const double *m, const double *r, size_t n,
			  const char *what)
{
	struct stats_summary b, f;

	CHECK_INT(stats_basic(&b, m, r, 1, NULL, n), 0);
	CHECK_INT(stats_compute(&f, m, r, NULL, n), 0);
	CHECK_INT(b.n, f.n);
	NEAR12(b, f, mape, what);
	NEAR12(b, f, bias, what);
	NEAR12(b, f, pearson, what);
}

TEST(stats_basic_vs_compute)
{
	enum { N = 3000 };
	double *m = xmalloc(N * sizeof(*m)), *r = xmalloc(N * sizeof(*r));

	rng = 88172645463325252ull;
	for (size_t i = 0; i < N; i++) {
		r[i] = i < 300 ? 0.5 + (double)(xs() % 100000) / 1e4 :
		       1e8 + (double)(xs() % 1000) / 1e3;	/* offset */
		m[i] = r[i] * (0.7 + (double)(xs() % 6000) / 1e4);
	}
	basic_vs_full(m, r, 50, "random 50");
	basic_vs_full(m + 300, r + 300, N - 300, "offset 1e8");
	basic_vs_full(m, r, 2, "n=2");
	basic_vs_full(m, r, 1, "n=1");
	basic_vs_full(m, r, 0, "n=0");
	r[7] = -r[7];
	r[19] = -r[19];
	basic_vs_full(m, r, 40, "negative refs");
	r[3] = 0;
	basic_vs_full(m, r, 40, "a zero ref");
	for (size_t i = 0; i < 10; i++)
		m[100 + i] = 0.1, r[200 + i] = 1.1, m[250 + i] = 2;
	basic_vs_full(m + 100, r + 100, 10, "constant model 0.1");
	basic_vs_full(m + 200, r + 200, 10, "constant ref 1.1");
	basic_vs_full(m + 250, r + 250, 10, "constant model 2");
	free(m);
	free(r);
}

static const unsigned char *keep_mask;	/* corr_summary's keep */

static int keep_in(const struct corr_point *p, void *arg)
{
	return keep_mask[p - ((const struct corr_set *)arg)->points];
}

/* pidx_basic over the points idx lists (as a mask): stats_basic over the
 * same points picked by hand in index order (bit-equal), and
 * corr_summary over them (to 1e-12). */
static void check_basic(struct pidx *x, const struct corr_set *s,
			const uint32_t *idx, size_t n, const char *what)
{
	double *m = xmalloc((n + 1) * sizeof(*m));
	double *r = xmalloc((n + 1) * sizeof(*r));
	unsigned char *in = xcalloc(x->n + 1, 1);
	struct stats_summary got, exp, full;
	long noisy = 0, sol = 0, zero = 0;
	int32_t metric = -1;
	int mixed = 0;
	size_t k = 0;

	for (size_t j = 0; j < n; j++)
		in[idx[j]] = 1;
	for (size_t i = 0; i < x->n; i++) {
		unsigned f = x->keys[i].flags;

		if (!in[i] || (f & CORR_INVALID))
			continue;
		sol += (f & CORR_SOL_VIOLATION) != 0;
		noisy += (f & CORR_NOISY_REF) != 0;
		if (f & CORR_NOISY_REF)
			continue;
		if (x->vals[i].ref == 0) {	/* out, counted */
			zero++;
			continue;
		}
		if (metric < 0)
			metric = x->keys[i].m;
		mixed |= x->keys[i].m != metric;
		m[k] = x->vals[i].model, r[k++] = x->vals[i].ref;
	}
	CHECK_INT(pidx_basic(x, in, &got), 0);
	CHECK_INT(stats_basic(&exp, m, r, 1, NULL, k), 0);
	if (mixed)	/* one summary never pools metrics */
		exp.pearson = NAN;
	CHECK_INT(got.excluded_zero_ref, zero);
	if (got.n != exp.n || got.excluded_noisy != noisy ||
	    got.sol_violations != sol || DIFF(got, exp, mape) ||
	    DIFF(got, exp, bias) || DIFF(got, exp, pearson))
		FAILV("%s: pidx_basic n %ld mape %.17g r %.17g, by hand %ld "
		      "%.17g %.17g (or bias/noisy/sol)", what, got.n, got.mape,
		      got.pearson, exp.n, exp.mape, exp.pearson);
	keep_mask = in;
	CHECK_INT(corr_summary(&full, s, keep_in, (void *)s, 0), 0);
	CHECK(got.n == full.n && got.excluded_noisy == full.excluded_noisy &&
	      got.sol_violations == full.sol_violations &&
	      got.excluded_zero_ref == full.excluded_zero_ref);
	NEAR12(got, full, mape, what);
	NEAR12(got, full, bias, what);
	NEAR12(got, full, pearson, what);
	free(m);
	free(r);
	free(in);
}

TEST(basic_subsets)
{
	int64_t runs[5];
	struct db *dbs[2] = { new_db("basg.db", NULL), new_db("bas.db", runs) };
	struct corr_query qs[2] = { QUERY("gm", "gr"),
				    QUERY("roofline", "h100-lab") };

	for (int d = 0; d < 2; d++) {
		struct corr_set *s = NULL;
		struct pidx *x = NULL;
		uint32_t *idx;
		size_t n = 0, excl = 0;

		if (corr_load(&s, dbs[d], &qs[d]) < 0 ||
		    pidx_open(&x, dbs[d], &qs[d], 0) < 0 || x->n != s->n)
			abort();
		idx = xmalloc((x->n + 1) * sizeof(*idx));
		for (size_t i = 0; i < x->n; i++)
			idx[i] = (uint32_t)i;
		check_basic(x, s, idx, x->n, "all");
		check_basic(x, s, idx, 0, "none");
		check_basic(x, s, idx + 1, x->n / 2, "a range");
		for (size_t i = x->n; i-- > 0;)
			if (i % 3 == 0 || (x->keys[i].flags & CORR_NOISY_REF))
				idx[n++] = (uint32_t)i;
		check_basic(x, s, idx, n, "every third, descending");
		for (size_t i = 0; i < x->n; i++)
			if (x->keys[i].flags & (CORR_NOISY_REF | CORR_INVALID))
				idx[excl++] = (uint32_t)i;
		CHECK(d == 1 || excl > 0);
		check_basic(x, s, idx, excl, "excluded only");
		free(idx);
		pidx_free(x);
		corr_set_free(s);
		db_close(dbs[d]);
	}
}

/* pidx_summary (the Trend view's per-version read): uncached, it stores
 * a summary-only entry, not a whole index; a full entry serves it too. */
TEST(summary_only)
{
	int64_t runs[5];
	struct db *db = new_db("sum.db", runs);
	struct corr_query q = QUERY("archsim", "h100-lab");
	struct stats_summary sum, ps;
	struct corr_set *s = NULL;
	struct pidx *x = NULL;

	CHECK_INT(corr_load(&s, db, &q), 0);
	CHECK_INT(corr_summary(&sum, s, NULL, NULL, 0), 0);
	CHECK_INT(pidx_summary(db, &q, &ps), 0);
	check_sum(&ps, &sum, "summary, first");
	CHECK_INT(count(db, "pair_cache"), 1);
	CHECK_INT(count(db, "pair_cache_parts"), 1);	/* meta only */
	CHECK_INT(count(db, "pair_cache WHERE label LIKE '% (summary)'"), 1);
	CHECK_INT(pidx_summary(db, &q, &ps), 0);	/* read back */
	check_sum(&ps, &sum, "summary, cached");
	CHECK_INT(count(db, "pair_cache"), 1);
	/* the TUI's open is not fooled by the summary-only entry */
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 1 && x->cached == 1);
		check_index(x, s, "full after summary");
		pidx_free(x);
	}
	CHECK_INT(count(db, "pair_cache"), 2);
	CHECK_INT(pidx_summary(db, &q, &ps), 0);
	check_sum(&ps, &sum, "summary from the full entry");
	CHECK_INT(count(db, "pair_cache"), 2);
	corr_set_free(s);
	db_close(db);
}

/* A damaged entry never reads out of bounds: damaged names at open are
 * rebuilt; a damaged order read later is an error that says what to do. */
/* Swap the first and the last point of the cached keys (24 bytes each),
 * through the blob API: SQL's || would make text of them. */
static void swap_first_last_key(struct db *db)
{
	struct db_stmt *st = NULL;
	int64_t row = 0, len = 0;
	unsigned char *buf, tmp[24];
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT id, length(data) FROM "
		   "pair_cache_parts WHERE name = 'keys'");
	if (!rc && db_step(st) == DB_ROW) {
		row = db_column_int64(st, 0);
		len = db_column_int64(st, 1);
	}
	db_finalize(st);
	st = NULL;
	if (len < 48) {
		FAILV("no keys part to damage (%lld bytes)", (long long)len);
		return;
	}
	buf = xmalloc((size_t)len);
	CHECK_INT(db_blob_read(db, "pair_cache_parts", "data", row, buf,
			       (size_t)len), 0);
	memcpy(tmp, buf, 24);
	memcpy(buf, buf + len - 24, 24);
	memcpy(buf + len - 24, tmp, 24);
	db_prepare(db, &rc, &st, "UPDATE pair_cache_parts SET data = ? "
		   "WHERE id = ?");
	if (!rc) {
		db_bind_blob_static(st, 1, buf, (size_t)len);
		db_bind_int64(st, 2, row);
		CHECK_INT(db_step(st), DB_DONE);
	}
	db_finalize(st);
	free(buf);
}

TEST(damaged_cache)
{
	int64_t runs[5];
	struct db *db = new_db("dmg.db", runs);
	struct corr_query q = QUERY("archsim", "h100-lab");
	struct corr_set *s = NULL;
	struct pidx *x = NULL;
	const uint32_t *perm;
	const unsigned char *starts;

	CHECK_INT(corr_load(&s, db, &q), 0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	pidx_free(x);
	x = NULL;
	/* offsets that run past the strings */
	CHECK_INT(db_exec(db, "UPDATE pair_cache_parts SET data = "
		  "x'0200000000000000000000000000ffff0000ffff41' WHERE name = "
		  "'names.0'"), 0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 1 && x->cached == 1);
		check_index(x, s, "rebuilt after damaged names");
		pidx_free(x);
		x = NULL;
	}
	/* the first and the last point swapped: every id and flag as
	 * before, the |err| order broken (a count of discrepancies stops at
	 * the first |err| under the limit) */
	swap_first_last_key(db);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 1 && x->cached == 1);
		CHECK(x->repaired && strstr(x->repaired, "out of order"));
		check_index(x, s, "rebuilt after keys out of order");
		pidx_free(x);
		x = NULL;
	}
	/* the entry replaced after the open and its id reused by another
	 * pairing (SQLite reuses the largest rowid): a part read later is
	 * refused, never read from the other entry */
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 0);
		CHECK_INT(db_exec(db, "UPDATE pair_cache SET key = 'another'"),
			  0);
		CHECK_INT(pidx_order(x, PIDX_REF, &perm, &starts),
			  PC_EINVALID);
		CHECK(strstr(pc_error_last(), "replaced since it was opened")
		      != NULL);
		pidx_free(x);
		x = NULL;
	}
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);	/* 'another' is no match */
	if (x) {
		CHECK(x->built == 1 && x->cached == 1);
		CHECK_INT(pidx_order(x, PIDX_REF, &perm, &starts), 0);
		pidx_free(x);
		x = NULL;
	}
	CHECK_INT(count(db, "pair_cache WHERE key = 'another'"), 0);
	/* an order pointing past the points */
	CHECK_INT(db_exec(db, "UPDATE pair_cache_parts SET data = "
		  "zeroblob(length(data)) WHERE name = 'perm.3'"), 0);
	CHECK_INT(db_exec(db, "UPDATE pair_cache_parts SET data = "
		  "x'ffffffff' || substr(data, 5) WHERE name = 'perm.3'"), 0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 0);
		CHECK_INT(pidx_order(x, PIDX_MODEL, &perm, &starts),
			  PC_EINVALID);
		CHECK(strstr(pc_error_last(), "index --clear") != NULL);
		CHECK_INT(pidx_order(x, PIDX_REF, &perm, &starts), 0);
		pidx_free(x);
	}
	corr_set_free(s);
	db_close(db);
}

/* Groups are computed when first asked for (issue 21): an open stores
 * none; pidx_groups groups (the core's corrgroup_build over the same
 * pairing) and adds the part to the entry, which the next open reads.
 * Runs imported after the open refuse to group (the groups would be of
 * another pairing than the rows), while a grouping already stored still
 * reads. */
static void same_groups(const struct corrgroup *pg, const struct corrgroup *g,
			const char *what)
{
	if (!pg || pg->n != g->n) {
		FAILV("%s: %zu groups, expected %zu", what, pg ? pg->n : 0,
		      g->n);
		return;
	}
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(pg->values[i], g->values[i]) ||
		    pg->size[i] != g->size[i] ||
		    pg->stats[i].n != g->stats[i].n ||
		    DIFF(pg->stats[i], g->stats[i], mape) ||
		    DIFF(pg->stats[i], g->stats[i], pearson))
			FAILV("%s: group %zu (%s) differs", what, i,
			      g->values[i]);
}

TEST(lazy_groups)
{
	int64_t runs[5];
	struct db *db = new_db("lazy.db", runs);
	struct corr_query q = QUERY("archsim", "h100-lab");
	const char *by[1] = { "op" };
	const struct corrgroup *pg = NULL;
	struct corr_set *s = NULL;
	struct pidx *x = NULL;
	struct corrgroup g;
	char *extra = check_tmp_path("extra.csv");
	FILE *f;

	CHECK_INT(corr_load(&s, db, &q), 0);
	CHECK_INT(corrgroup_build(&g, s, by, 1, 0), 0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	CHECK(x && x->built && x->cached);
	CHECK_INT(count(db, "pair_cache_parts WHERE name LIKE 'group.%'"), 0);
	CHECK_INT(pidx_groups(x, "op", &pg), 0);
	same_groups(pg, &g, "op, grouped now");
	CHECK_INT(count(db, "pair_cache_parts WHERE name = 'group.op'"), 1);
	pidx_free(x);
	x = NULL;
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	CHECK(x && !x->built);
	pg = NULL;
	CHECK_INT(pidx_groups(x, "op", &pg), 0);
	same_groups(pg, &g, "op, from the cache");
	/* another run of archsim 2.4.0 while x is open */
	f = fopen(extra, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("workload,op,metric,value,unit\nnew/bs=1,opx,time,1.0,"
		      "ms\n", f);
		fclose(f);
	}
	CHECK(import(db, extra, "archsim", "perfsim", "2.4.0", 0) > 0);
	pg = NULL;
	CHECK_INT(pidx_groups(x, "op", &pg), 0);	/* stored: the rows' */
	same_groups(pg, &g, "op, stored before the import");
	CHECK_INT(pidx_groups(x, "metric", &pg), PC_EINVALID);
	CHECK(strstr(pc_error_last(), "changed since it was opened") != NULL);
	CHECK_INT(count(db, "pair_cache_parts WHERE name = 'group.metric'"),
		  0);
	pidx_free(x);
	corrgroup_release(&g);
	corr_set_free(s);
	free(extra);
	db_close(db);
}

static void same_wabbr(struct pidx *x, const struct wabbr *want,
		       const char *const *names, size_t n, const char *what)
{
	struct wabbr got;
	char a[256], b[256];

	pidx_wabbr(x, &got);
	if (got.fullw != want->fullw || got.abbrw != want->abbrw ||
	    got.abbrw2 != want->abbrw2 || got.ncommon != want->ncommon ||
	    !got.templ != !want->templ ||
	    (got.templ && strcmp(got.templ, want->templ)))
		FAILV("%s: widths %d %d %d, template %s; expected %d %d %d, %s",
		      what, got.fullw, got.abbrw, got.abbrw2,
		      got.templ ? got.templ : "(none)", want->fullw,
		      want->abbrw, want->abbrw2,
		      want->templ ? want->templ : "(none)");
	for (size_t i = 0; i < n; i++)
		if (strcmp(wabbr_apply(&got, names[i], a, sizeof(a)),
			   wabbr_apply(want, names[i], b, sizeof(b))))
			FAILV("%s: %s shown as %s, expected %s", what,
			      names[i], a, b);
	wabbr_release(&got);
}

/* The workload column's abbreviation is built with the index and stored
 * (format 4): a warm open reads it back as the one found from the names
 * the points use (in id order, as the list finds it); a damaged or
 * missing part is found from the points again, never decoded. An entry
 * stored under another format (its key is another digest: the format is
 * in it) is never read: the open pairs again and replaces it. */
TEST(stored_wabbr_and_old_entries)
{
	struct db *db = new_db("wabbr.db", NULL);
	struct corr_query q = QUERY("gm", "gr");
	struct corr_set *s = NULL;
	struct pidx *x = NULL;
	struct wabbr want;
	const char **name;
	size_t n = 0;
	int64_t max = -1;

	CHECK_INT(corr_load(&s, db, &q), 0);
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		max = s->points[i].workload_id > max ? s->points[i].workload_id :
		      max;
	name = xcalloc((size_t)max + 1, sizeof(*name));
	for (size_t i = 0; i < s->n; i++)
		name[s->points[i].workload_id] = s->points[i].workload;
	for (int64_t id = 0; id <= max; id++)
		if (name[id])
			name[n++] = name[id];
	CHECK_INT((int)n, 70);
	wabbr_build(&want, name, n);
	/* "gNN/decode/bs=B/seq=S/bf16": decode and bf16 are shared */
	CHECK_STR(want.templ, "*/decode/*/bf16");
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);	/* cold: built, stored */
	if (x) {
		CHECK(x->built == 1 && x->cached == 1);
		same_wabbr(x, &want, name, n, "cold");
		pidx_free(x);
	}
	CHECK_INT(count(db, "pair_cache_parts WHERE name = 'wabbr'"), 1);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 0);
		same_wabbr(x, &want, name, n, "warm");
		pidx_free(x);
	}
	/* a count of 2^32 - 1 common parts: refused, found again */
	CHECK_INT(db_exec(db, "UPDATE pair_cache_parts SET data = "
		  "x'000000000000000000000000ffffffff41' WHERE name = 'wabbr'"),
		  0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		same_wabbr(x, &want, name, n, "damaged part");
		pidx_free(x);
	}
	CHECK_INT(db_exec(db, "DELETE FROM pair_cache_parts WHERE name = "
			  "'wabbr'"), 0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		same_wabbr(x, &want, name, n, "missing part");
		pidx_free(x);
	}
	/* an older format's entry of the same pairing */
	CHECK_INT(db_exec(db, "UPDATE pair_cache SET key = 'format-3-digest'"),
		  0);
	CHECK_INT(pidx_open(&x, db, &q, 0), 0);
	if (x) {
		CHECK(x->built == 1 && x->cached == 1);
		check_index(x, s, "after an older format's entry");
		same_wabbr(x, &want, name, n, "rebuilt");
		pidx_free(x);
	}
	CHECK_INT(count(db, "pair_cache WHERE key = 'format-3-digest'"), 0);
	CHECK_INT(count(db, "pair_cache"), 1);
	CHECK_INT(count(db, "pair_cache_parts WHERE name = 'wabbr'"), 1);
	wabbr_release(&want);
	free(name);
	corr_set_free(s);
	db_close(db);
}

TEST_MAIN(CASE(stored_wabbr_and_old_entries), CASE(cold_warm_vs_core), CASE(lazy_groups), CASE(invalidation), CASE(summary_only),
	  CASE(damaged_cache),
	  CASE(no_write_and_readonly), CASE(annotations),
	  CASE(stats_basic_vs_compute), CASE(basic_subsets))
