#ifndef PC_DB_CALIB_H
#define PC_DB_CALIB_H
/*
 * Calibration marks (schema 10; issue 38 item 4): which keys or runs a
 * model was calibrated or trained on. Append-only: the newest mark that
 * matches a point decides its state (src/corr/corr_calib.h). Rows own
 * their strings.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

struct db_calib {
	int64_t id;
	char *model_source;	/* NULL: every model */
	int64_t run_id;		/* 0: any run; else a run of either side */
	char *workload, *op, *metric;	/* NULL: any; globs when is_pattern */
	int is_pattern;
	int held_out;		/* 0 calibration, 1 held-out */
	char *note, *author, *created_at;
};

/* Append m (id and created_at ignored: the new id in *id_out, may be
 * NULL). PC_EINVALID when a run id does not exist. */
int db_calib_add(struct db *db, const struct db_calib *m, int64_t *id_out);
/* Every mark, oldest first; caller frees with db_calib_free. */
int db_calib_all(struct db *db, struct db_calib **out, size_t *n);
void db_calib_free(struct db_calib *v, size_t n);
/* *out 1 when some mark could apply to model_source (its own, or one
 * for every model); cheap: one indexed row at most. */
int db_calib_any(struct db *db, const char *model_source, int *out);
/* Call fn for every distinct (workload, op, metric) stored in the runs
 * of source (NULL: any) and run id (0: any), until fn returns non-zero
 * (returned). For the mark command's check of what a mark covers. */
int db_calib_keys(struct db *db, const char *source, int64_t run_id,
		  int (*fn)(void *arg, const char *workload, const char *op,
			    const char *metric), void *arg);
/* The SQL of a mark on run id, for an import's own transaction (the
 * writer: import --calibration): one statement, parameters run id,
 * note, author, created_at. */
extern const char db_calib_run_sql[];

#endif
