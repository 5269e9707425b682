#ifndef PC_TUI_ROWS_H
#define PC_TUI_ROWS_H
/*
 * The discrepancy list's logic without a terminal: the filter language
 * (`metric=ttft op~gemm status=open err>0.1`), sorting by any column and
 * search, over a compact index of one corr_set's points. Built for a
 * million points: sorted permutations are computed once per column
 * (radix sort) and cached, string tests are memoised per workload/op/
 * metric id, so a keystroke costs one linear pass at most.
 *
 * Ownership: struct rows_src borrows everything; struct rows and
 * struct filter own their arrays (release them).
 */
#include <stddef.h>
#include <stdint.h>

struct corr_point;

/* What filters and sorts read of each point, packed (24 bytes instead
 * of a corr_point's 150) so a pass over a million stays in cache. */
struct rows_key {
	int32_t w, o, m;	/* workload, op, metric id (-1 when too big) */
	uint32_t flags;		/* enum corr_flags */
	double err;
};

/* The points and their current annotation state, borrowed. */
struct rows_src {
	const struct corr_point *pts;
	const struct rows_key *keys;	/* per point, or NULL */
	size_t n;
	const unsigned char *status;	/* 0 none, else db_annot_statuses[i-1] */
	const unsigned char *category;	/* 0 none, else db_annot_categories[i-1] */
	int64_t max_id[3];		/* largest workload, op, metric id */
};

enum rows_col {
	RC_WORKLOAD, RC_OP, RC_METRIC, RC_MODEL, RC_REF, RC_ERR, RC_FLAGS,
	RC_STATUS, RC_COUNT
};

enum filter_field {
	FF_TEXT, FF_WORKLOAD, FF_OP, FF_CLASS, FF_METRIC, FF_STATUS,
	FF_CATEGORY, FF_ERR, FF_ABSERR, FF_MODEL, FF_REF, FF_FLAG
};
enum filter_op { FO_EQ, FO_NE, FO_LIKE, FO_NLIKE, FO_GT, FO_GE, FO_LT,
		 FO_LE };

struct memo {
	unsigned char *v;	/* per id: 0 unknown, 1 no, 2 yes */
	size_t len;
};

struct filter_term {
	enum filter_field field;
	enum filter_op op;
	char *text;
	double num;
	struct memo memo[3];	/* by workload, op, metric id */
};

struct filter {
	struct filter_term *terms;
	size_t n;
	char *text;		/* the source text */
};

/* Parse text (blank = match everything) into out. Terms are ANDed:
 * FIELD OP VALUE with fields workload op class metric status category
 * err |err| model ref flag, ops = != ~ !~ > >= < <= (~ is a case-
 * insensitive substring; = with * ? [ is a glob); numbers may end in %.
 * A bare word matches workload, op or metric as a substring. Returns 0
 * or PC_EINVALID with a message naming the term; out is untouched on
 * error. */
int filter_parse(struct filter *out, const char *text);
void filter_release(struct filter *f);
/* 1 when point i of src passes every term. */
int filter_match(struct filter *f, const struct rows_src *src, size_t i);

struct rows {
	const struct rows_src *src;
	uint32_t *perm[RC_COUNT][2];	/* cached orders [col][desc], lazily;
					   ties keep the core's order */
	uint32_t *idx;			/* the visible rows, in order */
	size_t n;
	int col;			/* sort column, -1 = |err| descending */
	int desc;
};

void rows_init(struct rows *r, const struct rows_src *src);
void rows_release(struct rows *r);
/* Forget cached orders (after status changes). */
void rows_invalidate(struct rows *r);
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
/* Position in idx of the point with these ids, or -1. */
long rows_find(const struct rows *r, int64_t workload_id, int64_t op_id,
	       int64_t metric_id);

/* Fill keys (n entries) from pts. */
void rows_pack(struct rows_key *keys, const struct corr_point *pts, size_t n);

/* Case-insensitive substring test (ASCII folding). */
int rows_contains(const char *hay, const char *needle);

#endif
