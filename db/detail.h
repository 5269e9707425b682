#ifndef PC_DB_DETAIL_H
#define PC_DB_DETAIL_H
/*
 * The detail of one (workload, op): every stored result of it across
 * all sources and runs with provenance, and the raw tool names (kernel
 * names, layer ids) that were mapped to the op in those runs. For the
 * TUI's detail view and `explain`-style listings. Caller frees with the
 * matching _free.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

struct db_detail_row {
	char *source, *kind, *version, *platform, *file, *metric, *unit;
	int64_t run_id;
	double value, n, stddev, min, max;	/* NaN when unknown */
	double clock_hz;			/* NaN when unknown */
	long flags;
};

/* Results of (workload_id, op_id) in every run, ordered by source kind
 * (roofline, perfsim, rtl, emulation, silicon), source, run. */
int db_detail_results(struct db *db, int64_t workload_id, int64_t op_id,
		      struct db_detail_row **out, size_t *n);
void db_detail_free(struct db_detail_row *rows, size_t n);

struct db_raw_name {
	char *source, *version, *raw_name;
	int64_t run_id;
	long instances;
};

/* Raw names mapped to op_id in the runs that hold results for
 * (workload_id, op_id). */
int db_op_raw_names(struct db *db, int64_t workload_id, int64_t op_id,
		    struct db_raw_name **out, size_t *n);
void db_raw_names_free(struct db_raw_name *v, size_t n);

#endif
