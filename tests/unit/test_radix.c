/* Radix sorts (src/radix.c) against qsort, small and large inputs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/radix.h"

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint64_t seed = 0x2545f4914f6cdd1dull;

static double rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (double)(seed >> 11) / 9007199254740992.0;
}

static void check_sorted_like_qsort(size_t n)
{
	double *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	int same = 1;

	for (size_t i = 0; i < n; i++) {
		double v = (rnd() - 0.5) * 1e6;

		/* ties, signs, zeros of both signs, extremes */
		a[i] = i % 7 == 0 ? 3.5 : i % 11 == 0 ? -0.0 : i % 13 == 0 ?
		       0.0 : i % 17 == 0 ? 1e-300 : i % 19 == 0 ? -1e300 : v;
		b[i] = a[i];
	}
	radix_sort_doubles(a, n);
	qsort(b, n, sizeof(*b), dcmp);
	for (size_t i = 0; i < n; i++)
		same &= a[i] == b[i];
	CHECK(same);
	free(a);
	free(b);
}

TEST(doubles)
{
	check_sorted_like_qsort(0);
	check_sorted_like_qsort(1);
	check_sorted_like_qsort(40);		/* insertion path */
	check_sorted_like_qsort(64);		/* 8-bit digits from here */
	check_sorted_like_qsort(100);
	check_sorted_like_qsort(4095);
	check_sorted_like_qsort(4096);		/* 11-bit digits */
	check_sorted_like_qsort(100000);
	check_sorted_like_qsort(131072);	/* 16-bit digits */
	check_sorted_like_qsort(200000);
}

TEST(keys)
{
	double v[] = { -1e308, -2.5, -1e-310, -0.0, 0.0, 1e-310, 1, 2.5,
		       1e308 };

	for (size_t i = 0; i + 1 < sizeof(v) / sizeof(v[0]); i++)
		CHECK(radix_key(v[i]) <= radix_key(v[i + 1]));
	CHECK(radix_key(-0.0) == radix_key(0.0));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECK(radix_unkey(radix_key(v[i])) == v[i]);
}

/* Stable: equal keys keep their input order (Kendall relies on it). */
TEST(stable)
{
	/* each digit width: insertion, 8, 11 and 16 bits */
	static const size_t sizes[] = { 50, 1000, 50000, 300000 };

	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		size_t n = sizes[z];
		struct radix_kv *a = malloc(2 * n * sizeof(*a));
		int ok = 1;

		for (size_t i = 0; i < n; i++) {
			a[i].k = radix_key((double)(i % 37) * 1e-9 -
					   (double)(i % 5) * 1e12);
			a[i].v = i;
		}
		radix_sort_kv(a, a + n, n);
		for (size_t i = 1; i < n; i++)
			ok &= a[i - 1].k < a[i].k ||
			      (a[i - 1].k == a[i].k && a[i - 1].v < a[i].v);
		CHECK(ok);
		free(a);
	}
}


/* Input already in order, either way (the |errors| of points kept in
 * |error| order): the same result as a sort, -0 made +0 as the sort
 * makes it; one element out of place still sorts. */
TEST(presorted)
{
	size_t n = 5000;
	double *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	int same = 1, plus = 1;

	for (int how = 0; how < 3; how++) {
		for (size_t i = 0; i < n; i++) {
			/* ascending with ties and a -0 among zeros */
			double v = i < 10 ? -1.0 : i < 20 ? (i == 15 ? -0.0 :
				   0.0) : (double)(i / 3);

			a[how == 1 ? n - 1 - i : i] = v;
		}
		if (how == 2) {		/* one out of place */
			double t = a[100];

			a[100] = a[4000];
			a[4000] = t;
		}
		memcpy(b, a, n * sizeof(*a));
		radix_sort_doubles(a, n);
		qsort(b, n, sizeof(*b), dcmp);
		for (size_t i = 0; i < n; i++) {
			same &= a[i] == b[i];
			plus &= !(a[i] == 0 && signbit(a[i]));
		}
		CHECK(same);
		CHECK(plus);
	}
	a[0] = -0.0;
	radix_sort_doubles(a, 1);
	CHECK(a[0] == 0 && !signbit(a[0]));
	free(a);
	free(b);
}

TEST_MAIN(CASE(doubles), CASE(keys), CASE(stable), CASE(presorted))
