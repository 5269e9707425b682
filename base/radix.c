/* Radix sorts (see radix.h). */
#include "base/radix.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Below this, a stable insertion sort beats building histograms (its
 * n^2/4 moves are about 1000 at 64). */
#define SMALL 64

uint64_t radix_key(double d)
{
	uint64_t u;

	d += 0.0;	/* -0 -> +0 */
	memcpy(&u, &d, sizeof(u));
	return (u >> 63) ? ~u : u | 0x8000000000000000ull;
}

double radix_unkey(uint64_t k)
{
	double d;

	k = (k >> 63) ? k & 0x7fffffffffffffffull : ~k;
	memcpy(&d, &k, sizeof(d));
	return d;
}

/*
 * Digit width for n keys. The histograms (one per pass, 2^bits counters
 * each) are built in one read of the keys and cleared and scanned once
 * per pass, so their size must stay near n: 65536 counters for 10,000
 * keys cost more than the keys themselves (what sorting many groups of a
 * few thousand points paid: sorting 100 groups of 10,000 cleared and
 * scanned 100 x 4 x 65536 counters). 8 bits: 8 passes of 256; 11: 6 of
 * 2048; 16: 4 of 65536. A pass whose digit is the same for every key is
 * skipped (found in O(1): its one counter holds n).
 */
static unsigned digit_bits(size_t n)
{
	return n < 4096 ? 8 : n < 131072 ? 11 : 16;
}

#define KV_KEY(e) ((e).k)
#define U64_KEY(e) (e)

/* Stable LSD radix sort of n elements of type T by the 64-bit KEY(e);
 * tmp holds n elements; small inputs by insertion. */
#define DEFINE_LSD(name, T, KEY)					\
static void name(T *a, T *tmp, size_t n)				\
{									\
	unsigned bits, np;						\
	size_t nd, mask, *count;					\
	T *src = a, *dst = tmp;						\
									\
	if (n < SMALL) {						\
		for (size_t i = 1; i < n; i++) {			\
			T x = a[i];					\
			size_t j = i;					\
									\
			for (; j > 0 && KEY(a[j - 1]) > KEY(x); j--)	\
				a[j] = a[j - 1];			\
			a[j] = x;					\
		}							\
		return;							\
	}								\
	bits = digit_bits(n);						\
	np = (64 + bits - 1) / bits;					\
	nd = (size_t)1 << bits;						\
	mask = nd - 1;							\
	count = xcalloc(np * nd, sizeof(*count));			\
	for (size_t i = 0; i < n; i++) {				\
		uint64_t k = KEY(a[i]);					\
									\
		for (unsigned p = 0; p < np; p++)			\
			count[p * nd + ((k >> (p * bits)) & mask)]++;	\
	}								\
	for (unsigned p = 0; p < np; p++) {				\
		size_t *c = count + p * nd, sum = 0;			\
		unsigned shift = p * bits;				\
									\
		if (c[(KEY(src[0]) >> shift) & mask] == n)		\
			continue;	/* one digit: nothing moves */	\
		for (size_t d = 0; d < nd; d++) {			\
			size_t t = c[d];				\
									\
			c[d] = sum;					\
			sum += t;					\
		}							\
		for (size_t i = 0; i < n; i++)				\
			dst[c[(KEY(src[i]) >> shift) & mask]++] = src[i];\
		src = dst;						\
		dst = src == a ? tmp : a;				\
	}								\
	if (src != a)							\
		memcpy(a, src, n * sizeof(*a));				\
	free(count);							\
}

DEFINE_LSD(sort_kv, struct radix_kv, KV_KEY)
DEFINE_LSD(sort_u64, uint64_t, U64_KEY)

void radix_sort_kv(struct radix_kv *a, struct radix_kv *tmp, size_t n)
{
	sort_kv(a, tmp, n);
}

/* Input already in order (the |errors| of points kept in |error| order,
 * issue 21): ascending, or descending and reversed, in one pass instead
 * of a sort. -0 becomes +0 as the sort makes it; a NaN is never "in
 * order" (its comparisons are false) and goes to the sort. */
static int presorted(double *a, size_t n)
{
	size_t i;

	for (i = 1; i < n && a[i - 1] <= a[i]; i++)
		;
	if (i < n) {
		for (i = 1; i < n && a[i - 1] >= a[i]; i++)
			;
		if (i < n)
			return 0;
		for (size_t l = 0, h = n - 1; l < h; l++, h--) {
			double t = a[l];

			a[l] = a[h];
			a[h] = t;
		}
	}
	for (i = 0; i < n; i++)
		a[i] += 0.0;
	return 1;
}

void radix_sort_doubles(double *a, size_t n)
{
	uint64_t *k;

	if (presorted(a, n))
		return;
	k = xmalloc((2 * n + 1) * sizeof(*k));

	for (size_t i = 0; i < n; i++)
		k[i] = radix_key(a[i]);
	sort_u64(k, k + n, n);
	for (size_t i = 0; i < n; i++)
		a[i] = radix_unkey(k[i]);
	free(k);
}
