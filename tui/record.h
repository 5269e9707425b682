#ifndef PC_TUI_RECORD_H
#define PC_TUI_RECORD_H
/*
 * What the TUI records for tests and benchmarks: the screen as text
 * (every row, trailing blanks trimmed, UTF-8) and per-key latencies
 * (wall and CPU milliseconds, with p50/p95/max at the end) into the
 * PERFCORR_TIMING file. struct tui holds a struct record; this file
 * never sees struct tui (tui.c calls it, not the other way round).
 */
#include <stddef.h>
#include <stdio.h>

struct record {
	FILE *timing;			/* PERFCORR_TIMING, or NULL */
	double *lat, *latc;		/* per-key latencies, wall and CPU (ms) */
	size_t nlat;
};

/* Write the screen to path; PC_EIO when it cannot be written. */
int record_screen(const char *path);

/* Record that key took ms of wall time and cpu of CPU time. */
void record_key(struct record *r, int key, double ms, double cpu);

/* Write the summary lines and close the timing file. */
void record_done(struct record *r);

#endif
