#ifndef PC_SRC_CMD_RUNS_FP_H
#define PC_SRC_CMD_RUNS_FP_H
/*
 * `perfcorr runs --fingerprint`: each run's workload fingerprint (issue
 * 37, the fp.FIELD members of its metadata, base/fingerprint.h) in the
 * field table's order: table and csv as one text column "field=value
 * ...", json as an object. Streams the runs listing.
 */
#include <stdio.h>

#include "src/out/out.h"

struct db;

/* Write the runs (of source, or all when NULL) to fp in fmt. Returns
 * the rows written or <0 (PC_ENOTFOUND for an unknown source). */
long runs_fp_write(FILE *fp, struct db *db, const char *source,
		   enum out_format fmt);

#endif
