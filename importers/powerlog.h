#ifndef PC_IMPORTERS_POWERLOG_H
#define PC_IMPORTERS_POWERLOG_H
/*
 * Sampled GPU telemetry (nvidia-smi, DCGM dmon) -> results. Samples are
 * kept as running sums per GPU and metric (memory does not grow with
 * the log). Power is integrated by the trapezoid rule over the sample
 * times; an energy counter (DCGM TOTEC) can be given instead. Emission:
 * op "gpuN" per GPU when several are logged, and op "e2e" for the node
 * (power, energy, memory: sum over GPUs; others: mean over GPUs).
 */
#include <stddef.h>

#include "importers/hwutil.h"
#include "importers/importer.h"

struct powerlog_metric {
	char *name;
	char unit[16];
	int sum;		/* 1: the node value is the sum over GPUs */
	struct hwutil_series s;
};

struct powerlog_gpu {
	char *id;
	struct powerlog_metric *m;
	size_t n;
	double energy;		/* J from a counter, NaN when none */
	double e_first, e_last;	/* the counter's first and last values */
	double t_last;		/* last sample time */
	long rows;		/* samples (rows) seen */
	long line;		/* first sample */
};

/* What to do with an energy over a window shorter than
 * POWERLOG_MIN_RESOLUTIONS x the sensor's resolution. */
enum powerlog_short {
	POWERLOG_SHORT_REFUSE,	/* the import fails, naming the cures */
	POWERLOG_SHORT_DROP,	/* power and the rest stored, no energy */
	POWERLOG_SHORT_KEEP	/* energy stored, metadata says so */
};

/* An energy window needs this many sensor resolutions (docs/importers.md,
 * "Sensor limits"). */
#define POWERLOG_MIN_RESOLUTIONS 10

struct powerlog {
	struct powerlog_gpu *g;
	size_t n;
	int no_integral;	/* 1: sample times are not real (no energy) */
	const char *path;	/* for messages */
	double window;		/* the power sensor's averaging window (s);
				 * 0: instantaneous samples */
	char window_why[96];	/* where window comes from */
	enum powerlog_short on_short;
};

void powerlog_init(struct powerlog *p);

/* The sensor options every power importer takes: --opt sensor_window_ms
 * (the averaging window, overriding default_s, which why explains) and
 * --opt short_window=refuse|drop|keep. PC_EUSAGE naming a bad value. */
int powerlog_options(struct powerlog *p, const char *window_ms,
		     const char *on_short, double default_s, const char *why);
void powerlog_release(struct powerlog *p);

/* One sample of metric (in unit) at time t (s; NaN = no time) of gpu.
 * power*, memory_used/total/free sum over GPUs; others average. */
void powerlog_sample(struct powerlog *p, const char *gpu, const char *metric,
		     const char *unit, double t, double v, long line);

/* Start a sample row of gpu at time *t (s, NaN = none): without a time
 * and with interval > 0, *t becomes rows x interval. A time before the
 * previous one of the same GPU is PC_EINVALID naming path:line. */
int powerlog_row(struct powerlog *p, const char *gpu, double *t,
		 double interval, const char *path, long line);

/* One reading of an energy counter (monotonic) in a unit of factor J
 * (the difference is scaled, not the large readings); <0 with a message
 * when it goes backwards. */
int powerlog_counter(struct powerlog *p, const char *gpu, double value,
		     double factor, const char *path, long line);

/* The mean interval between power samples over all GPUs (s), NaN when
 * no power samples have times. */
double powerlog_interval(const struct powerlog *p);

/* Emit every result; energy from the counter when there is one, else by
 * integrating metric "power". 0 when there was nothing. Records the
 * sensor's resolution as metadata; an energy over a window shorter than
 * POWERLOG_MIN_RESOLUTIONS resolutions is PC_EINVALID naming the window,
 * the resolution and the cures (or dropped or kept: p->on_short). */
int powerlog_emit(struct powerlog *p, struct imp_sink *sink);

/* 1 when some GPU has metric "power" samples. */
int powerlog_has_power(const struct powerlog *p);

#endif
