#ifndef PC_DB_WRITER_H
#define PC_DB_WRITER_H
/*
 * The import writer: one run per file, one transaction per run. It owns
 * ids (source, run, workload, op, metric), unit normalisation to SI,
 * dedup and validation. Importers never see it directly: src/import.c
 * adapts importer records to db_writer_put().
 */
#include <stdint.h>

#include "db/wkey.h"

struct db;
struct db_writer;

struct db_run_info {
	const char *source;	/* required */
	const char *kind;	/* roofline|perfsim|rtl|emulation|silicon; NULL = existing */
	const char *version;	/* NULL -> "unversioned" (file may set it) */
	const char *format;	/* importer name */
	const char *file_name;
	const char *sha256;	/* 64 hex digits of the file's bytes */
	long long file_size;
	const char *platform;	/* may be NULL (file may set it) */
	double clock_hz;	/* NaN = unknown (file may set it) */
	const char *workload;	/* canonical workload the command line gave
				   (--workload/--param), or NULL */
	int replace;		/* replace an earlier import of the same
				   identity (docs/schema.md) */
	/* what the run cost (issue 38 item 5): cost in cost_unit, "s"
	 * (wall-clock seconds), "core-h", "emu-h" or "gpu-h"; cost_unit
	 * NULL: not given (a file may state one: meta "cost_s") */
	double cost;
	const char *cost_unit;
	/* import --calibration (issue 38 item 4): the run was used to
	 * calibrate or train the models paired with it; a calibration mark
	 * on the run is written in the import's transaction */
	int calibration;
};

enum db_result_flags {
	DB_RES_INVALID = 1 << 0,	/* tool says invalid / test failed */
	DB_RES_SKIPPED = 1 << 1,
	DB_RES_DERIVED = 1 << 2,	/* computed by perfcorr */
	DB_RES_CAPPED = 1 << 3,		/* the simulator hit its cycle cap
					 * (always with DB_RES_INVALID) */
};

struct db_result_in {
	const struct wkey *workload;	/* canonical form */
	int64_t workload_id;	/* > 0: the workload's id as an earlier put
				 * resolved it (db_writer_last_workload);
				 * workload is then not read */
	const char *workload_key;	/* with workload_id: its canonical
					 * key (for messages) */
	const char *op;
	const char *raw_name;	/* tool's own name, or NULL */
	const char *metric;
	double value;		/* in `unit` */
	const char *unit;	/* a units.h name; "" = dimensionless */
	double n, mean, median, min, max, stddev;	/* NaN = unknown */
	double total;		/* sum of the n values (nsys Total Time), NaN
				 * = value * n */
	unsigned flags;		/* enum db_result_flags */
	int merge;		/* merge into the same key instead of refusing
				 * (several raw names, one op: see below) */
	int stage;		/* a stage kernel of the op (mapping rule) */
	const char *raw_unit;	/* NULL: raw = value, unit; else the raw
				 * value and unit as stored before (an
				 * export read back): must agree with value */
	double raw_value;
	long line;		/* the caller's position of this result (a
				 * file line; 0 = none): a repeated key is
				 * found when the result is stored, maybe
				 * during a later put (db_writer_settle) */
};

struct db_writer_summary {
	int64_t run_id;
	long results;		/* rows stored (after merging) */
	long puts;		/* records received */
	long workloads, ops;	/* distinct in this run */
};

/* Start a run: BEGIN, find or create the source (kind must match an
 * existing source), refuse an import whose identity (source, sha256 and
 * the version, workload, platform and clock ri was given) is already
 * stored with PC_EEXISTS (message names the run, its file, workload and
 * version) unless ri->replace, which deletes that run only. */
int db_writer_begin(struct db_writer **out, struct db *db,
		    const struct db_run_info *ri);

/* Run-level facts found in the file: "version", "platform", "clock_hz"
 * (number), "clock_tolerance_hz" (the resolution the file writes its
 * clock to; before clock_hz), "clock_source" ("file:line", for
 * messages), "cost_s" (the wall-clock seconds the tool says the run
 * took: the run's cost unless the command line gave one; kept in the
 * metadata either way), anything else goes into the run's metadata JSON. A file
 * clock further than its resolution from --clock-mhz is PC_EINVALID
 * naming its source and the cure; within it, the file's clock is kept
 * and 1 is returned with db_writer_note() saying so. */
int db_writer_meta(struct db_writer *w, const char *key, const char *value);
const char *db_writer_note(const struct db_writer *w);

/* The run being written, its source and database (for db/derive.c). */
int64_t db_writer_run_id(const struct db_writer *w);
int64_t db_writer_source_id(const struct db_writer *w);
/* The run's metadata so far: the members of its JSON object, without
 * the braces (borrowed, valid until the next db_writer_meta()). */
const char *db_writer_meta_text(const struct db_writer *w);
struct db *db_writer_db(struct db_writer *w);
/* 1 when this import has put a result of metric `name` (db/derive.c asks
 * before it queries what the run stored). */
int db_writer_put_metric(const struct db_writer *w, const char *name);

/* The clock recorded so far (NaN when none). */
double db_writer_clock(const struct db_writer *w);

/* Store one result. Errors (unknown unit, non-finite or negative value,
 * unit not matching the metric, duplicate key) are PC_EINVALID with a
 * message naming the field; the caller adds file:line.
 *
 * Merged results (r->merge: raw names mapped to one op, launch shapes of
 * one kernel) are kept until the run is finished, then stored as one row
 * per key (docs/mapping.md):
 *  - rows with a launch count n are one population of launches: n = sum
 *    of n, value = mean = sum of totals / sum of n, min/max over the rows,
 *    the exact pooled standard deviation; a stage row (r->stage) adds its
 *    total to the calls of the others without adding launches. Metric
 *    `time` also gets `kernel_time`, the op's total time in the run;
 *  - rows without n (model layers counted twice) are summed: value,
 *    mean, min, max add up, stddev in quadrature;
 *  - mixing the two in one key is an error. */
int db_writer_put(struct db_writer *w, const struct db_result_in *r);

/* The caller is about to fail with the current error (of a put, its own
 * or its importer's). Results are stored in batches, so a repeated key
 * may be found only now: results queued before the failure are stored
 * first. Returns 1 when the error to report is a duplicate result found
 * after its own put (this failure's, or one among the queued results):
 * the message says which, *line is its result's `line` (prefix that,
 * not the current record's); 0 otherwise, the current message kept.
 * NULL is a no-op. */
int db_writer_settle(struct db_writer *w, long *line);

/* The workload the last successful db_writer_put() resolved from its
 * wkey: its id and canonical key (valid until the next put that
 * resolves another), or 0 and NULL. A caller that sees the same
 * workload again passes them as workload_id and workload_key. */
void db_writer_last_workload(const struct db_writer *w, int64_t *id,
			     const char **key);

/* The importer is done: store the merged results (before anything
 * queries this run's results). Errors name the key; finish does it too. */
int db_writer_input_done(struct db_writer *w);

/* Commit and free w. A run with no results is refused (PC_EINVALID) and
 * rolled back. */
int db_writer_finish(struct db_writer *w, struct db_writer_summary *out);

/* Roll back and free w (NULL is a no-op). */
void db_writer_abort(struct db_writer *w);

#endif
