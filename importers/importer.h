#ifndef PC_IMPORTERS_IMPORTER_H
#define PC_IMPORTERS_IMPORTER_H
/*
 * The importer interface and registry. An importer reads one format from
 * a stream and emits records to a sink; it knows nothing of SQLite. A new
 * format is one importers/imp_<name>.c plus one row in registry.c.
 *
 * Errors: an importer returns <0 with pc_error_set() text that names the
 * file, line (or JSON position) and field: "perf.csv:17: column 'value':
 * 'abc' is not a number". Errors returned by the sink already carry the
 * position (the sink adds it from record.line); pass them through as is.
 */
#include <stddef.h>
#include <stdio.h>

struct imp_param {
	const char *name;
	const char *value;
};

enum imp_flags {
	IMP_INVALID = 1 << 0,	/* the tool marked it invalid / test failed */
	IMP_SKIPPED = 1 << 1,	/* skipped test: kept, never paired */
	IMP_DERIVED = 1 << 2,	/* computed by perfcorr from other values */
	IMP_MERGE = 1 << 3,	/* sum with an earlier record of the same key */
	IMP_CAPPED = 1 << 4,	/* hit the simulator's cycle cap (+ INVALID) */
};

struct imp_record {
	const char *workload;	/* key text merged with the run's, or NULL */
	const struct imp_param *params;	/* extra workload parameters */
	size_t nparams;
	const char *op;		/* canonical op; NULL = map raw_name */
	const char *raw_name;	/* the tool's own name (kernel, layer id) */
	const char *metric;	/* time, cycles, ttft ... (db/schema.sql) */
	double value;
	const char *unit;	/* db/units.c spelling; "" = dimensionless */
	double n, mean, median, min, max, stddev;	/* NaN = unknown */
	double total;		/* sum of the n values behind value (nsys
				 * Total Time), NaN = value * n */
	unsigned flags;		/* enum imp_flags */
	const char *raw_unit;	/* NULL, or the raw unit of an export read
				 * back, with raw_value: stored as given */
	double raw_value;
	long line;		/* source line (or JSON record) for messages */
};

/* Reset r: NULL strings, NaN statistics, no flags. */
void imp_record_init(struct imp_record *r);

struct imp_sink {
	/* Store one record; <0 with a positioned message on error. */
	int (*emit)(struct imp_sink *s, const struct imp_record *r);
	/* Run facts from the file: "version", "platform", "clock_hz",
	 * "workload" (key text), "param.NAME", "default.name" (the workload
	 * name unless the command line gave one; else kept as metadata
	 * "model"), anything else = metadata. */
	int (*meta)(struct imp_sink *s, const char *key, const char *value);
	/* A warning for the user (e.g. MLPerf INVALID); never fatal. */
	void (*warn)(struct imp_sink *s, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void *ctx;
};

struct imp_input {
	FILE *fp;		/* positioned at the start */
	const char *path;	/* display name for messages */
	long long size;		/* bytes, -1 when unknown */
	const char *const *opts;	/* "key=value" strings, NULL-terminated */
};

/* The value of option key (from --opt key=value or a dedicated flag such
 * as --topology), or NULL; borrowed. */
const char *imp_opt(const struct imp_input *in, const char *key);

struct importer {
	const char *name;	/* --format NAME */
	const char *kind;	/* the usual source kind, or NULL */
	const char *desc;	/* one line for `perfcorr formats` */
	/* How sure (0 = not mine .. 100 = certain) the file is this format,
	 * from its first bytes (NUL-terminated) and its file name. */
	int (*probe)(const char *head, size_t len, const char *filename);
	int (*import)(struct imp_input *in, struct imp_sink *sink);
	/* The option keys it reads with imp_opt(), NULL-terminated; NULL
	 * when it takes none. Any other key is refused before reading. */
	const char *const *options;
};

/* The registry, NULL-terminated, in registry.c. */
extern const struct importer *const importers[];

const struct importer *importer_find(const char *name);

/* Check "key=value" options against imp->options: PC_EUSAGE naming an
 * unknown key (or a malformed one) and the importer's known options. */
int importer_check_opts(const struct importer *imp,
			const char *const *opts);

/* What the probe of format name looks for in a file's first bytes
 * (marks.c): strings, or alternatives "A|B", NULL-terminated; NULL for
 * a format with no words to look for (llmcompass, regex-log). */
const char *const *importer_marks(const char *name);
/* 1 when head holds mark (any of its alternatives). */
int importer_mark_found(const char *head, const char *mark);
/* For a head no importer claims: "closest: perfcorr-csv (found ',';
 * missing 'workload', 'op', 'metric'), ..." (the three whose marks it
 * holds most of), or that it holds none; caller frees. */
char *importer_closest(const char *head);

/* Pick the importer for a file head. Returns the best; PC_EINVALID when
 * none claims it (naming the closest formats and what each misses) or
 * two claim it equally (with their scores). */
int importer_detect(const struct importer **out, const char *head,
		    size_t len, const char *filename);

#endif
