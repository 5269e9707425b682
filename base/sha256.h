#ifndef PC_SRC_SHA256_H
#define PC_SRC_SHA256_H
/*
 * SHA-256 (FIPS 180-4), streaming. Used for run provenance and to
 * recognise re-imported bytes; no crypto library needed for that.
 */
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* Finish and write 64 lowercase hex digits plus NUL into hex[65]. */
void sha256_final_hex(struct sha256 *s, char hex[65]);

#endif
