#ifndef PC_SRC_ANNOT_H
#define PC_SRC_ANNOT_H
/*
 * Finding a pair's current annotation among the rows of db_annot_all().
 * An index owns its rows. Matching (docs/statistics.md, "Annotations"):
 * a row matches when each key part is NULL (any), equal (exact rows) or
 * a glob that matches (pattern rows, util_glob). Exact rows naming
 * workload, op and metric win over exact rows with NULL parts, which win
 * over pattern rows; within a tier the newest matching row wins.
 */
#include <stddef.h>

#include "db/annot.h"

struct db;
struct annot_index;

/* Build an index; takes ownership of rows (n may be 0, rows NULL). */
struct annot_index *annot_index_new(struct annot *rows, size_t n);
/* Load every annotation of db into a new index. */
int annot_index_load(struct annot_index **out, struct db *db);
void annot_index_free(struct annot_index *ix);

/* The current annotation of a pair, or NULL; borrowed from ix. */
const struct annot *annot_index_find(const struct annot_index *ix,
				     const char *workload, const char *op,
				     const char *metric,
				     const char *model_source,
				     const char *ref_source);

/* 1 when a is 'accepted' and not expired on today ("YYYY-MM-DD"; NULL =
 * the current UTC date): no expiry, or expires >= today. */
int annot_waived(const struct annot *a, const char *today);

/* Today's UTC date as "YYYY-MM-DD" into buf (>= 11 bytes). */
void annot_today(char *buf, size_t len);

#endif
