/* Lin's concordance (src/stats_lin.c) and the odd-one-out classification
 * (src/matrix_class.c) at and around the tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "src/matrix/matrix.h"
#include "src/stats/stats_lin.h"

TEST(lin_formula)
{
	/* y = 2x, x = 1..5 (by hand): means 3 and 6, s_xx = 2, s_yy = 8,
	 * s_xy = 4 (1/n moments): 2*4 / (2 + 8 + 9) = 8/19; Pearson would
	 * say 1. */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 };
	/* Lin's formula in plain Python (1/n moments, math.log), not this
	 * code: 0.9880455935501805 and 0.9917923852772047 on logs */
	double a[] = { 1.1, 2.3, 2.9, 4.2, 5.1, 6.3 };
	double b[] = { 1.0, 2.5, 3.1, 3.9, 5.5, 6.0 };
	double c[] = { 3, 3, 3 }, neg[] = { 1, -2, 3 };

	CHECK_NEAR(stats_lin_ccc(x, y, 5), 8.0 / 19.0, 1e-15);
	CHECK_NEAR(stats_lin_ccc(x, x, 5), 1.0, 1e-15);
	CHECK_NEAR(stats_lin_ccc(a, b, 6), 0.9880455935501805, 1e-12);
	CHECK_NEAR(stats_lin_ccc_log(a, b, 6), 0.9917923852772047, 1e-12);
	CHECK_NEAR(stats_lin_ccc(b, a, 6), stats_lin_ccc(a, b, 6), 1e-15);
	/* undefined, with reasons */
	CHECK(isnan(stats_lin_ccc(x, y, 1)));
	CHECK_STR(stats_lin_why(x, y, 1, 0), "fewer than 2 pairs");
	CHECK_STR(stats_lin_why(x, y, 0, 0), "no pairs");
	CHECK(isnan(stats_lin_ccc(c, c, 3)));
	CHECK_STR(stats_lin_why(c, c, 3, 0), "both series constant and equal");
	CHECK(isnan(stats_lin_ccc_log(neg, x, 3)));
	CHECK_STR(stats_lin_why(neg, x, 3, 1), "a value is zero or negative");
	CHECK(stats_lin_why(a, b, 6, 1) == NULL);
	/* constant but different series: defined (0), not a division by 0 */
	CHECK_NEAR(stats_lin_ccc(c, x, 3), 0.0, 0);
}

static struct matrix_source S[] = {
#define SRC(n, k, r) { .label = n, .source = n, .version = "1", .kind = k, \
	.roofline = r, .nkeys = 0 }
	SRC("roof", "roofline", 1),
	SRC("sim", "perfsim", 0),
	SRC("rtl", "rtl", 0),
	SRC("lab", "silicon", 0),
	SRC("lab2", "silicon", 0),
	SRC("emu", "emulation", 0),
#undef SRC
};

/* Classify values v[0..5) (NaN = absent) for S[0..ns). */
static void classify(struct matrix_key *k, const double *v, size_t ns,
		     double tol)
{
	memset(k, 0, sizeof(*k));
	k->vals = calloc(ns, sizeof(*k->vals));
	for (size_t i = 0; i < ns; i++) {
		k->vals[i].v = v[i];
		k->vals[i].sd = NAN;
		k->vals[i].state = isnan(v[i]) ? MV_ABSENT : MV_OK;
	}
	matrix_classify(k, S, ns, tol);
}

#define X NAN

TEST(agree_at_and_around_the_tolerance)
{
	struct matrix_key k;

	/* 105 vs 100: |5| <= 0.05 * 100 at the limit: agree */
	classify(&k, (double[]){ X, 100, 103, 105 }, 4, 0.05);
	CHECK_STR(k.label, "agree");
	CHECK_INT(k.ngroups, 1);
	matrix_key_release(&k);
	/* just past it 100 and 105.001 part, both agree with 103: not
	 * transitive, refused as ambiguous */
	classify(&k, (double[]){ X, 100, 103, 105.001 }, 4, 0.05);
	CHECK_STR(k.label, "ambiguous");
	CHECK(k.cause == NULL);
	matrix_key_release(&k);
	CHECK(matrix_agree(100, 105, 0.05));
	CHECK(!matrix_agree(100, 105.0001, 0.05));
	CHECK(matrix_agree(105, 100, 0.05));
	CHECK(matrix_agree(0, 0, 0.05));
	CHECK(!matrix_agree(0, 1e-300, 0.05));
	CHECK(!matrix_agree(-1, 1, 0.5));
}

TEST(odd_causes_by_kind)
{
	struct matrix_key k;

	/* sim at 100 vs rtl/lab at 105: 5% agrees; 99.99 is out (5.01 >
	 * 0.05 * 99.99 = 4.9995): odd perfsim = modeling-error */
	classify(&k, (double[]){ X, 100, 105, 105 }, 4, 0.05);
	CHECK_STR(k.label, "agree");
	matrix_key_release(&k);
	classify(&k, (double[]){ X, 99.99, 105, 105 }, 4, 0.05);
	CHECK_STR(k.label, "odd:sim");
	CHECK_STR(k.cause, "modeling-error");
	CHECK_INT(k.odd, 1);
	matrix_key_release(&k);
	/* odd rtl = rtl-bug; emulation counts as rtl */
	classify(&k, (double[]){ X, 100, 120, 101 }, 4, 0.05);
	CHECK_STR(k.label, "odd:rtl");
	CHECK_STR(k.cause, "rtl-bug");
	matrix_key_release(&k);
	classify(&k, (double[]){ X, 100, X, 101, X, 130 }, 6, 0.05);
	CHECK_STR(k.label, "odd:emu");
	CHECK_STR(k.cause, "rtl-bug");
	matrix_key_release(&k);
	/* silicon alone vs a perfsim and an rtl that agree */
	classify(&k, (double[]){ X, 120, 121, 100 }, 4, 0.05);
	CHECK_STR(k.label, "odd:lab");
	CHECK_STR(k.cause, "specification-error");
	matrix_key_release(&k);
	/* ... the same with an emulator in the rtl's place */
	classify(&k, (double[]){ X, 120, X, 100, X, 121 }, 6, 0.05);
	CHECK_STR(k.label, "odd:lab");
	CHECK_STR(k.cause, "specification-error");
	matrix_key_release(&k);
	/* one silicon against another silicon that agrees with the models */
	classify(&k, (double[]){ X, 100, 101, 100, 120 }, 5, 0.05);
	CHECK_STR(k.label, "odd:lab2");
	CHECK_STR(k.cause, "measurement-issue");
	matrix_key_release(&k);
	/* silicon alone vs two perfsims: no rule */
	classify(&k, (double[]){ X, 100, X, 130, X, X }, 6, 0.05);
	CHECK(k.pattern == MP_NONE);	/* two voters only */
	matrix_key_release(&k);
}

TEST(noisy_widens_and_suggests_measurement)
{
	struct matrix_key k;
	double v[] = { X, 100, 101, 140 };

	memset(&k, 0, sizeof(k));
	k.vals = calloc(4, sizeof(*k.vals));
	for (int i = 0; i < 4; i++) {
		k.vals[i].v = v[i];
		k.vals[i].sd = NAN;
		k.vals[i].state = i ? MV_OK : MV_ABSENT;
	}
	/* cv 50/140 = 35.7% widens the tolerance; 140/100 - 1 = 40% is out */
	k.vals[3].sd = 50;
	k.vals[3].noisy = 1;
	matrix_classify(&k, S, 4, 0.05);
	CHECK_STR(k.label, "odd:lab");
	CHECK_NEAR(k.tol, 50.0 / 140.0, 1e-15);
	CHECK_INT(k.tol_src, 3);
	CHECK_STR(k.cause, "measurement-issue");
	/* sd 60: cv 42.9% > 40%: now every value agrees */
	k.vals[3].sd = 60;
	matrix_classify(&k, S, 4, 0.05);
	CHECK_STR(k.label, "agree");
	matrix_key_release(&k);
}

TEST(split_scattered_and_the_roofline)
{
	struct matrix_key k;

	/* the models agree, the silicon agree, apart: a specification */
	classify(&k, (double[]){ 50, 120, 121, 100, 101 }, 5, 0.05);
	CHECK_STR(k.label, "split:lab+lab2|rtl+sim");
	CHECK_STR(k.cause, "specification-error");
	CHECK_INT(k.group[0], -1);	/* the roofline never groups */
	CHECK_INT(k.nvoters, 4);
	matrix_key_release(&k);
	/* no two within 5% (112/100, 125/112, 140/125 all > 1.05) */
	classify(&k, (double[]){ 50, 100, 112, 125, 140 }, 5, 0.05);
	CHECK_STR(k.label, "scattered");
	CHECK(k.cause == NULL);
	CHECK_NEAR(k.spread, 0.4, 1e-15);
	matrix_key_release(&k);
	/* a roofline equal to everyone still does not vote, and one that
	 * equals the odd value does not rescue it */
	classify(&k, (double[]){ 100, 100, 100, 100 }, 4, 0.05);
	CHECK_STR(k.label, "agree");
	CHECK_INT(k.group[0], -1);
	matrix_key_release(&k);
	classify(&k, (double[]){ 70, 70, 100, 100 }, 4, 0.05);
	CHECK_STR(k.label, "odd:sim");
	CHECK_INT(k.group[0], -1);
	matrix_key_release(&k);
	/* roofline + two sources: not classified */
	classify(&k, (double[]){ 100, 100, 100 }, 3, 0.05);
	CHECK(k.pattern == MP_NONE);
	CHECK(k.label == NULL);
	matrix_key_release(&k);
	/* invalid values do not vote */
	classify(&k, (double[]){ X, 100, 100, 100 }, 4, 0.05);
	k.vals[3].state = MV_INVALID;
	matrix_classify(&k, S, 4, 0.05);
	CHECK(k.pattern == MP_NONE);
	matrix_key_release(&k);
}

/* Issue 35: a roofline cell is the fraction of speed of light. Rates:
 * achieved / roofline: roof 1000/s, lab 250, 500, 1100 (over), 800/s ->
 * 0.25, 0.5, 1.1, 0.8, geometric mean (0.11)^(1/4) = 0.5759014490653241
 * (python3 math.exp of the mean log); a key the roofline lacks does not
 * count; 1000 * (1 + 1e-9) is not over (the 1e-9 of corr_roof_beats):
 * with it the five give 0.6431000407747121. */
TEST(sol_fraction_of_a_roofline_cell)
{
	struct matrix_source src[3] = { S[0], S[3], S[4] };
	double roof[] = { 1000, 1000, 1000, 1000, X, 1000 };
	double lab[] = { 250, 500, 1100, 800, 900, 1000 * (1 + 1e-9) };
	struct matrix_key k[6];
	struct matrix m;
	struct matrix_sol s;
	char b[48];

	memset(&m, 0, sizeof(m));
	m.src = src;
	m.nsrc = 3;
	for (size_t x = 0; x < 6; x++) {
		memset(&k[x], 0, sizeof(k[x]));
		k[x].vals = calloc(3, sizeof(*k[x].vals));
		k[x].vals[0].v = roof[x];
		k[x].vals[0].state = isnan(roof[x]) ? MV_ABSENT : MV_OK;
		k[x].vals[1].v = lab[x];
		k[x].vals[1].state = MV_OK;
		k[x].vals[2].state = MV_ABSENT;
	}
	matrix_sol_cell(&s, &m, k, 6, "token/s", 1, 1, 0);
	CHECK_INT(s.kind, MSOL_FRAC);
	CHECK_INT(s.n, 5);
	CHECK_INT(s.violations, 1);
	CHECK_NEAR(s.frac, 0.6431000407747121, 1e-14);
	CHECK_NEAR(s.lo, 0.25, 1e-15);
	CHECK_NEAR(s.hi, 1.1, 1e-15);
	CHECK_STR(matrix_sol_fmt(b, sizeof(b), &s), "64.3% SoL, 1 over");
	matrix_sol_cell(&s, &m, k, 4, "token/s", 1, 0, 1);	/* its row */
	CHECK_NEAR(s.frac, 0.5759014490653241, 1e-14);
	CHECK_INT(s.n, 4);
	CHECK_STR(matrix_sol_fmt(b, sizeof(b), &s), "57.6% SoL, 1 over");
	/* a time: roofline / achieved (400 us against 100 us: 25%) */
	CHECK_NEAR(matrix_sol_fraction(400e-6, 100e-6, 0), 0.25, 1e-15);
	CHECK(isnan(matrix_sol_fraction(0, 100e-6, 0)));
	/* grey: a metric no roofline bounds, no common key, no roofline */
	matrix_sol_cell(&s, &m, k, 6, "W", 0, 1, 0);
	CHECK_INT(s.kind, MSOL_GREY);
	CHECK_STR(matrix_sol_fmt(b, sizeof(b), &s), "n/a");
	matrix_sol_cell(&s, &m, k, 6, "s", 0, 2, 0);
	CHECK_INT(s.kind, MSOL_GREY);
	CHECK_STR(s.why, "no key with a value on both");
	matrix_sol_cell(&s, &m, k, 6, "s", 0, 1, 2);
	CHECK_INT(s.kind, MSOL_NONE);
	CHECK_STR(matrix_sol_fmt(b, sizeof(b), &s), "");
	CHECK(matrix_sol_bounds("s") && matrix_sol_bounds("cycles") &&
	      matrix_sol_bounds("token/s") && !matrix_sol_bounds("W") &&
	      !matrix_sol_bounds("/s") && !matrix_sol_bounds(NULL));
	for (size_t x = 0; x < 6; x++)
		free(k[x].vals);
}

/* Who votes when some voters' runs do not pair (issue 37): the largest
 * set of voters whose runs pair with each other, by hand. */
TEST(vote_set_largest_pairing_voters)
{
	/* 5 voters: 0, 1, 2 pair (tp 1); 3 pairs with none (tp 2); 4
	 * states nothing (pairs with all): {0, 1, 2, 4}, one set */
	uint64_t adj[6] = { 0x16, 0x15, 0x13, 0x10, 0x0f }, out = 0;

	CHECK_INT(matrix_vote_set(adj, 5, &out), 1);
	CHECK_INT(out, 0x17);
	/* two classes of three (tp 1: 0-2, tp 2: 3-5): two largest sets */
	{
		uint64_t two[6] = { 0x06, 0x05, 0x03, 0x30, 0x28, 0x18 };

		CHECK_INT(matrix_vote_set(two, 6, &out), 2);
		CHECK(out == 0x07 || out == 0x38);
	}
	/* a path 0-1-2 (0 and 2 do not pair): two sets of two */
	{
		uint64_t path[3] = { 0x02, 0x05, 0x02 };

		CHECK_INT(matrix_vote_set(path, 3, &out), 2);
		CHECK(out == 0x03 || out == 0x06);
	}
	/* everyone pairs: one set, all of them; the diagonal is ignored */
	{
		uint64_t all[4] = { 0x0f, 0x0f, 0x0f, 0x0f };

		CHECK_INT(matrix_vote_set(all, 4, &out), 1);
		CHECK_INT(out, 0x0f);
	}
}

/* A source marked in unvoted does not vote: lab2 (130) left out, sim,
 * rtl and lab agree; with it, lab2 is the odd one. */
TEST(unvoted_source_does_not_vote)
{
	double v[] = { X, 100, 101, 102, 130 };
	struct matrix_key k;

	classify(&k, v, 5, 0.05);
	CHECK_STR(k.label, "odd:lab2");
	matrix_key_release(&k);
	memset(&k, 0, sizeof(k));
	k.vals = calloc(5, sizeof(*k.vals));
	k.unvoted = calloc(5, 1);
	for (size_t i = 0; i < 5; i++) {
		k.vals[i].v = v[i];
		k.vals[i].sd = NAN;
		k.vals[i].state = isnan(v[i]) ? MV_ABSENT : MV_OK;
	}
	k.unvoted[4] = 1;
	matrix_classify(&k, S, 5, 0.05);
	CHECK_STR(k.label, "agree");
	CHECK_INT(k.nvoters, 3);
	CHECK_INT(k.group[4], -1);
	matrix_key_release(&k);
}

TEST_MAIN(CASE(lin_formula), CASE(agree_at_and_around_the_tolerance),
	  CASE(odd_causes_by_kind), CASE(noisy_widens_and_suggests_measurement),
	  CASE(split_scattered_and_the_roofline),
	  CASE(sol_fraction_of_a_roofline_cell),
	  CASE(vote_set_largest_pairing_voters),
	  CASE(unvoted_source_does_not_vote))
