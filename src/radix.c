/* Radix sorts (see radix.h). */
#include "src/radix.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

#define DIGITS 65536
#define SMALL 512	/* below this, a comparison sort beats 4 histograms */

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

/* 1 when every key has the same digit at shift (the pass is a no-op). */
static int same_digit(const size_t *count, size_t n)
{
	for (size_t d = 0; d < DIGITS; d++)
		if (count[d])
			return count[d] == n;
	return 1;
}

/* Stable insertion sort for small inputs. */
static void small_kv(struct radix_kv *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct radix_kv x = a[i];
		size_t j = i;

		for (; j > 0 && a[j - 1].k > x.k; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

static void small_u64(uint64_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t x = a[i];
		size_t j = i;

		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

void radix_sort_kv(struct radix_kv *a, struct radix_kv *tmp, size_t n)
{
	size_t *count;
	struct radix_kv *src = a, *dst = tmp;

	if (n < SMALL) {
		small_kv(a, n);
		return;
	}
	count = xmalloc(DIGITS * sizeof(*count));

	for (int shift = 0; shift < 64; shift += 16) {
		size_t sum = 0;

		memset(count, 0, DIGITS * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(src[i].k >> shift) & 0xffff]++;
		if (same_digit(count, n))
			continue;
		for (size_t d = 0; d < DIGITS; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].k >> shift) & 0xffff]++] = src[i];
		src = dst;
		dst = src == a ? tmp : a;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(count);
}

static void sort_u64(uint64_t *a, uint64_t *tmp, size_t n)
{
	size_t *count;
	uint64_t *src = a, *dst = tmp;

	if (n < SMALL) {
		small_u64(a, n);
		return;
	}
	count = xmalloc(DIGITS * sizeof(*count));

	for (int shift = 0; shift < 64; shift += 16) {
		size_t sum = 0;

		memset(count, 0, DIGITS * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(src[i] >> shift) & 0xffff]++;
		if (same_digit(count, n))
			continue;
		for (size_t d = 0; d < DIGITS; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 0xffff]++] = src[i];
		src = dst;
		dst = src == a ? tmp : a;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(count);
}

void radix_sort_doubles(double *a, size_t n)
{
	uint64_t *k = xmalloc((2 * n + 1) * sizeof(*k));

	for (size_t i = 0; i < n; i++)
		k[i] = radix_key(a[i]);
	sort_u64(k, k + n, n);
	for (size_t i = 0; i < n; i++)
		a[i] = radix_unkey(k[i]);
	free(k);
}
