#ifndef PC_IMPORTERS_NCU_H
#define PC_IMPORTERS_NCU_H
/*
 * Shared by the two Nsight Compute importers (details and raw pages):
 * metric labels/names -> perfcorr metric names, ncu unit spellings ->
 * db/units.c names, and the per-launch metric collection (one value per
 * launch and metric, aggregated per kernel name).
 */
#include <stddef.h>

#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/hmap.h"

/* perfcorr metric name for an ncu label or raw metric name, written
 * into buf: Duration/gpu__time_duration.sum -> time, Elapsed Cycles/
 * gpc__cycles_elapsed.max -> cycles, SM Frequency -> sm_frequency,
 * dram__bytes_read.sum -> dram_bytes_read; other labels snake_case,
 * other raw names unchanged. */
const char *ncu_metric(const char *label, char *buf, size_t len);

/* The units.h name for an ncu unit and a factor to apply to the value
 * ("cycle/nsecond" -> GHz); units perfcorr has no dimension for
 * (register/thread, warp, byte/block ...) become "" (a count). */
const char *ncu_unit(const char *unit, double *factor);

struct ncu {
	struct hwutil_agg agg;
	struct hmap seen;	/* launch id + metric: first one wins */
	int have_time;
};

void ncu_init(struct ncu *n);
void ncu_release(struct ncu *n);

/* One metric value of launch id of kernel name. Text that is not a
 * number is skipped (some metrics are strings), except for time. */
int ncu_add(struct ncu *n, const char *path, long line, const char *id,
	    const char *kernel, const char *label, const char *unit,
	    const char *value);

/* One row of the --print-summary per-kernel layout: stat is the text of
 * Invocations, Minimum, Maximum, Average; stored at once as value =
 * Average, n, min, max. */
int ncu_summary_row(struct ncu *n, struct imp_sink *sink, const char *path,
		    long line, const char *kernel, const char *label,
		    const char *unit, const char *const stat[4]);

#endif
