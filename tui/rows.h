#ifndef PC_TUI_ROWS_H
#define PC_TUI_ROWS_H
/*
 * The discrepancy list's logic without a terminal: the filter language
 * (`metric=ttft op~gemm status=open err>0.1`), sorting by any column and
 * search, over a compact index of one corr_set's points. Built for a
 * million points: sorted permutations are computed once per column
 * (radix sort) and cached, string tests are memoised per workload/op/
 * metric id, so a keystroke costs one linear pass at most. The pair
 * index supplies the orders of every column but status precomputed.
 *
 * Ownership: struct rows_src borrows everything; struct rows and
 * struct filter own their arrays (release them).
 */
#include <stddef.h>
#include <stdint.h>

#include "src/pairidx/pairidx.h"

/* The points and their current annotation state, borrowed: packed keys
 * and values (the pair index's arrays), names by id, and optionally the
 * index's precomputed sort orders. */
struct rows_src {
	const struct pidx_key *keys;
	const struct pidx_val *vals;
	size_t n;
	const unsigned char *status;	/* 0 none, else db_annot_statuses[i-1] */
	const unsigned char *category;	/* 0 none, else db_annot_categories[i-1] */
	int64_t max_id[PIDX_KEY_PARTS];	/* largest workload, op, metric id */
	/* the name of a part by id; never NULL */
	const char *(*name)(void *arg, enum pidx_name_part part, int64_t id);
	/* an ascending order of a column with its value starts (see
	 * pidx_order), or non-zero to have rows compute it; may be NULL */
	int (*order)(void *arg, int col, const uint32_t **perm,
		     const unsigned char **starts);
	/* every name of a part lowercased in one buffer (see
	 * pidx_names_lower), for substring tests in bulk; may be NULL */
	int (*names_lower)(void *arg, enum pidx_name_part part,
			   const char **chars, const uint32_t **off,
			   uint64_t *count);
	void *arg;
	/* a roofline model is a bound (data_bound): the err column is the
	 * fraction of speed of light the reference reaches (ref/model for
	 * a rate, model/ref for a time: higher[metric id]) and sorts by
	 * it, not by |err|; higher may be NULL (every metric a time) */
	int bound;
	const unsigned char *higher;
	size_t nhigher;
};

/* A flag bit the TUI sets on the index's keys beside enum corr_flags:
 * new or changed since the last recorded review (filter flag=new). */
#define ROWS_FLAG_NEW (1u << 16)

enum rows_col {
	RC_WORKLOAD = PIDX_WORKLOAD, RC_OP = PIDX_OP, RC_METRIC = PIDX_METRIC,
	RC_MODEL = PIDX_MODEL, RC_REF = PIDX_REF, RC_ERR = PIDX_ABSERR,
	RC_FLAGS = PIDX_FLAGS, RC_STATUS, RC_COUNT
};

enum filter_field {
	FF_TEXT, FF_WORKLOAD, FF_OP, FF_CLASS, FF_METRIC, FF_STATUS,
	FF_CATEGORY, FF_ERR, FF_ABSERR, FF_MODEL, FF_REF, FF_FLAG
};
enum filter_op { FO_EQ, FO_NE, FO_LIKE, FO_NLIKE, FO_GT, FO_GE, FO_LT,
		 FO_LE };

/* A memoised string test, per name id. MEMO_YES >> 1 is 1 and
 * MEMO_NO >> 1 is 0: the filter's passes rely on it to stay branch-free
 * (memo_yes in rows.c). */
enum memo_answer { MEMO_UNKNOWN = 0, MEMO_NO = 1, MEMO_YES = 2 };

struct memo {
	unsigned char *v;	/* per id: an enum memo_answer */
	size_t len;
};

struct filter_term {
	enum filter_field field;
	enum filter_op op;
	char *text;
	double num;
	struct memo memo[PIDX_KEY_PARTS];	/* by workload, op, metric id */
};

struct filter {
	struct filter_term *terms;
	size_t n;
	char *text;		/* the source text */
	unsigned char *mask;	/* after rows_filter_select: mask[i] = 1 when
				   point i passes (index order) */
	size_t mask_len;
};

/* Parse text (blank = match everything) into out. Terms are ANDed:
 * FIELD OP VALUE with fields workload op class metric status category
 * err |err| model ref flag, ops = != ~ !~ > >= < <= (~ is a case-
 * insensitive substring; = with * ? [ is a glob); numbers may end in %.
 * A bare word matches workload, op or metric as a substring. Returns 0
 * or PC_EINVALID with a message naming the term; out is untouched on
 * error. */
int rows_filter_parse(struct filter *out, const char *text);
void rows_filter_release(struct filter *f);
/* 1 when point i of src passes every term. */
int rows_filter_match(struct filter *f, const struct rows_src *src, size_t i);
/* The points (in perm's order, NULL = index order) that pass f (NULL =
 * all) into out (src->n entries); returns how many. */
size_t rows_filter_select(struct filter *f, const struct rows_src *src,
		     const uint32_t *perm, uint32_t *out);

struct rows {
	const struct rows_src *src;
	uint32_t *perm[RC_COUNT][2];	/* cached orders [col][desc], lazily;
					   ties keep the core's order;
					   [col][0] may be the index's */
	unsigned char borrowed[RC_COUNT];	/* perm[col][0] not ours */
	uint32_t *idx;			/* the visible rows, in order */
	size_t n;
	int col;			/* sort column, -1 = |err| descending */
	int desc;
};

void rows_init(struct rows *r, const struct rows_src *src);
void rows_release(struct rows *r);
/* Forget cached orders (after status changes): all, or one column. */
void rows_invalidate(struct rows *r);
void rows_forget(struct rows *r, int col);
/* Sort by col (-1 = the core's order); desc reverses. Call rows_apply
 * after. */
void rows_sort(struct rows *r, int col, int desc);
/* Recompute idx: the sorted points that pass f (NULL = all). */
void rows_apply(struct rows *r, struct filter *f);
/* Position in idx of the next row whose workload, op or metric contains
 * needle (case-insensitive), searching from `from` + dir, wrapping;
 * -1 when none. */
long rows_search(const struct rows *r, const char *needle, size_t from,
		 int dir);
/* How many rows match needle as rows_search does; *upto gets how many
 * of them are at positions 0..at (at's rank when at matches). */
size_t rows_search_count(const struct rows *r, const char *needle,
			 size_t at, size_t *upto);
/* Position in idx of the point with these ids, or -1. */
long rows_find(const struct rows *r, int64_t workload_id, int64_t op_id,
	       int64_t metric_id);

/* Case-insensitive substring test (ASCII folding). */
int rows_contains(const char *hay, const char *needle);

#endif
