#ifndef PC_TUI_RECORD_H
#define PC_TUI_RECORD_H
/*
 * What the TUI records for tests and benchmarks: the screen as text
 * (every row, trailing blanks trimmed, UTF-8) and per-key latencies
 * (wall and CPU milliseconds, with p50/p95/max at the end) into the
 * PERFCORR_TIMING file, which struct tui owns.
 */

struct tui;

/* Write the screen to path; PC_EIO when it cannot be written. */
int record_screen(const char *path);

/* Record that key took ms of wall time and cpu of CPU time. */
void record_key(struct tui *t, int key, double ms, double cpu);

/* Write the summary lines and close the timing file. */
void record_done(struct tui *t);

#endif
