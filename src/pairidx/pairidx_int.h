#ifndef PC_SRC_PAIRIDX_INT_H
#define PC_SRC_PAIRIDX_INT_H
/*
 * Private to src/pairidx*.c, one module (pidx_*) in four files whose
 * calls go one way, never back:
 *   pairidx.c        cache key, open (from the cache or built), store, free
 *     -> pairidx_read.c   what the views read: points, orders, groups,
 *                         scatter, annotations
 *     -> pairidx_parts.c  parts from memory or the cache, names by id
 *     -> pairidx_build.c  a corr_set into parts (the cold path)
 *   pairidx_read.c -> pairidx_parts.c -> pairidx_build.c (part lists).
 *
 * The cached parts and their byte layout
 * (host byte order; the cache key includes PIDX_FORMAT and the struct
 * sizes, so a layout change simply misses the cache).
 *
 *   meta          struct pidx_meta, then the summary (see pidx_put_sum);
 *                 a summary-only entry (pidx_summary) has just this
 *   keys          n x struct pidx_key, |err| descending (CORR_WAIVED off)
 *   vals          n x struct pidx_val
 *   cold.K        points K*PIDX_CHUNK.. as struct pidx_cold
 *   perm.C        n x uint32: ascending order of column C (0..5)
 *   starts.C      bitmap: position k starts a new value of column C
 *   perm.key      n x uint32: (workload, op, metric) order
 *   names.D       names by id (D: enum pidx_name_part, 0 workload key,
 *                 1 op, 2 metric, 3 op class): u64 count, count + 1 u32
 *                 offsets, strings
 *   groupkeys     NUL-terminated group keys
 *   group.KEY     u64 groups, then per group u64 size, value, summary:
 *                 added to the entry when a view first asks for KEY
 *                 (pidx_groups pairs again, slim, and groups), not
 *                 built with the rest
 *   scatter       struct pidx_scatter
 *   wabbr         the workload column's abbreviation over the keys in
 *                 use (src/wabbr.h, wabbr_put; since format 4)
 */
#include <stddef.h>
#include <stdint.h>

#include "src/pairidx/pairidx.h"
#include "base/strbuf.h"

#define PIDX_FORMAT 9
#define PIDX_CHUNK 4096
/* the flags a cached key carries (enum corr_flags less CORR_WAIVED) */
#define PIDX_KEY_FLAGS (CORR_WITHIN_NOISE | CORR_SOL_VIOLATION | \
			CORR_NOISY_REF | CORR_INVALID | CORR_SOL_MODEL | \
			CORR_SOL_REF | CORR_UNVERIFIED)
/* the tail of every damaged-part message */
#define PIDX_DAMAGED " (perfcorr index --clear drops the cache)"

struct pidx_meta {
	uint64_t n;
	int64_t excluded_noisy, sol_violations, invalid;
	int64_t max_id[PIDX_KEY_PARTS];
	/* the fingerprint check (issue 37, corr_set's counts) */
	int64_t not_comparable, not_comparable_runs, unverified;
	int64_t admitted_pairs, admitted[FP_NFIELDS];
	char not_comparable_field[32];
};

struct pidx_cold {
	double model_sd, ref_sd, ref_n, ref_min, ref_max;
	int64_t model_run, ref_run;
};

/* A part being built or read: owned bytes. */
struct pidx_part {
	char *name;
	void *data;
	size_t len;
};

struct pidx_parts {
	struct pidx_part *v;
	size_t n;
};

struct db_name;
struct annot_index;

struct group_cache {
	char *key;
	struct corrgroup g;
};

struct pidx_store {
	struct db *db;
	int64_t cache_id;		/* 0: not in the cache */
	char key[65];			/* the entry's key (its id may be
					   another's once it is replaced) */
	struct pidx_parts mem;		/* parts built by this open */
	/* by enum pidx_name_part D: */
	char *names[PIDX_NAME_PARTS];	/* parts names.D, read at open */
	const uint32_t *name_off[PIDX_NAME_PARTS];	/* into names[D] by id */
	const char *name_chars[PIDX_NAME_PARTS];
	uint64_t name_count[PIDX_NAME_PARTS];
	char *lower[PIDX_NAME_PARTS];	/* pidx_names_lower, lazily */
	struct annot_index *annots;
	uint32_t *perm[PIDX_NORDERS];
	unsigned char *starts[PIDX_NORDERS];
	uint32_t *bykey;
	struct pidx_cold *chunk;	/* the last detail chunk read */
	size_t chunk_no, chunk_len;
	struct group_cache *groups;
	size_t ngroups;
	struct pidx_scatter *scatter;
	unsigned char *fl, *keep;	/* pidx_basic's: flags, selection */
	int stated;			/* an annotation state may be set */
	char **pool;			/* strings of cached summaries */
	size_t npool;
	/* for the statistics of a grouping no part holds yet: the query
	 * and flags of the open, and the pairing again (slim), kept for
	 * the next key once paired */
	struct corr_query q;
	void **qmem;			/* what q points to */
	size_t nqmem;
	unsigned flags;
	struct corr_set *set;
};

/* pairidx_parts.c. A part from this open's memory or the cache, copied
 * (caller frees); load_part takes a built part instead of copying it;
 * read_array also checks the length is n x size. */
int pidx_get_part(struct pidx *x, const char *name, void **data,
		  size_t *len);
int pidx_load_part(struct pidx *x, const char *name, void **data,
		   size_t *len);
int pidx_read_array(struct pidx *x, const char *name, void **out,
		    size_t size);
/* A permutation part: n uint32 entries, each < n. */
int pidx_read_perm(struct pidx *x, const char *name, uint32_t **out);
/* Read the names.D parts (checked: a damaged one is an error). */
int pidx_load_names(struct pidx *x);
/* The keys against meta and the names (after both are read): meta's
 * max_id is what the views loop to and size tables by, so it must be the
 * keys' real maximum, ids are >= 0, every id in use has a name, and the
 * keys are in |err| descending order, NaN last (pidx.h). In the same
 * pass (the open's one over the keys): pidx_basic's flags (st->fl)
 * made, every flag but the core's PIDX_KEY_FLAGS cleared (the waived
 * bit is the annotations'). */
int pidx_check_keys(struct pidx *x);

/* The part group.KEY when the index holds none: pairs the open's query
 * again (slim, the sides' versions pinned; runs that changed since the
 * open are PC_EINVALID: reopen), groups, and adds the part to the cache
 * entry (when writable at once). Caller frees data. */
int pidx_group_part(struct pidx *x, const char *key, void **data,
		    size_t *len);

/* pairidx.c. Open an index from parts in memory (taken; no database, no
 * annotations), validated as an open from the cache is: the fuzz target
 * over cache parts (tests/fuzz/fuzz_paircache.c). */
int pidx_open_mem(struct pidx **out, struct pidx_parts *parts);

/* pairidx_build.c. */
/* Every part of set s (sorted by the core); only "meta" unless full. */
int pidx_build(const struct corr_set *s, int full, struct pidx_parts *out);
void pidx_parts_release(struct pidx_parts *p);
/* The statistics of the groups of key over s as part group.KEY. */
int pidx_build_group(const struct corr_set *s, const char *key, void **data,
		     size_t *len);
/* Take ownership of data as part name. */
void pidx_parts_add(struct pidx_parts *p, const char *name, void *data,
		    size_t len);
/* The part named name, or NULL. */
const struct pidx_part *pidx_parts_get(const struct pidx_parts *p,
				       const char *name);

/* A summary as bytes: the struct with why[] cleared, then 32 strings. */
void pidx_put_sum(struct strbuf *sb, const struct stats_summary *s);
/* Read one back from *p (advanced; end bounds it); why[] strings are
 * copied into pool (strdup'd, appended to *pool, caller frees).
 * -1 when the bytes run out. */
int pidx_get_sum(const unsigned char **p, const unsigned char *end,
		 struct stats_summary *s, char ***pool, size_t *npool);

#endif
