#ifndef PC_SRC_RADIX_H
#define PC_SRC_RADIX_H
/*
 * LSD radix sorts for the statistics over a million pairs: finite
 * doubles map to order-preserving 64-bit keys (-0 and +0 to one key, so
 * equal keys mean equal values); stable LSD sorts whose digit width
 * follows n (8, 11 or 16 bits: the histograms stay about the size of
 * the input, so many small sorts cost what one big one does), skipping
 * passes where every key shares the digit; insertion below 64 keys.
 * O(n) time, O(n) scratch supplied by the caller or allocated here.
 */
#include <stddef.h>
#include <stdint.h>

struct radix_kv {
	uint64_t k, v;		/* key, payload */
};

/* Order-preserving key of a finite double, and back. */
uint64_t radix_key(double d);
double radix_unkey(uint64_t k);

/* Sort a by k, stable; tmp holds n elements. */
void radix_sort_kv(struct radix_kv *a, struct radix_kv *tmp, size_t n);

/* Sort finite doubles ascending (allocates n scratch keys). */
void radix_sort_doubles(double *a, size_t n);

#endif
