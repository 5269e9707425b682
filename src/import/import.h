#ifndef PC_SRC_IMPORT_H
#define PC_SRC_IMPORT_H
/*
 * Import glue: one file -> one run in one transaction. Hashes the bytes,
 * picks the importer (auto-detect or by name), merges the workload from
 * the command line with what the file says, maps raw kernel names to ops
 * through the rules, and feeds db_writer. Never prints: warnings and
 * progress go through callbacks.
 */
#include <stdint.h>
#include <stdio.h>

struct db;

struct import_opts {
	const char *source, *kind, *version, *format, *platform;
	double clock_hz;		/* NaN = not given */
	/* what the run cost (import --cost, import_cost_parse): cost in
	 * cost_unit ("s", "core-h", "emu-h", "gpu-h"); cost_unit NULL:
	 * not given */
	double cost;
	const char *cost_unit;
	int calibration;		/* import --calibration: mark the run */
	const char *workload;		/* key text, or NULL */
	const char *const *params;	/* "k=v", NULL-terminated, or NULL */
	const char *map_path;		/* mapping rules JSON, or NULL */
	int strict_map;			/* unmapped raw names are errors */
	int replace;			/* replace an earlier import */
	const char *const *opts;	/* importer options "k=v" */
	/* run metadata "k=v" (import --meta) for what the file does not
	 * say, e.g. "fp.ignore_eos=true" (base/fingerprint.h: an fp. key
	 * must name a field and hold a valid value); over the file's own
	 * value of the same key */
	const char *const *meta;
	/* read this open, seekable stream instead of opening path (path
	 * still names the file in messages and the runs table); borrowed */
	FILE *in;
	/* Callbacks (may be NULL); ctx is passed back. */
	void (*warn)(void *ctx, const char *msg);
	void (*progress)(void *ctx, const char *path, long long done,
			 long long total, long results);
	void *ctx;
};

struct import_result {
	int64_t run_id;
	long results;		/* rows stored */
	long records;		/* records read */
	long unmapped;		/* distinct raw names no rule mapped */
	long warnings;
	long derived;		/* tokens/J etc. computed (db/derive.h) */
	char format[32];
};

/* The cost of a run from --cost TEXT and --cost-unit UNIT (NULL: "s"):
 * TEXT a non-negative number with an optional unit of time ("3.5h",
 * "90min", "120"); UNIT "s" (wall-clock: the amount in seconds), or
 * "core-h", "emu-h", "gpu-h" (hours of a CPU core, an emulator, a GPU:
 * the amount in hours; a bare number is hours). *unit_out is static.
 * PC_EUSAGE naming the problem and the units accepted. */
int import_cost_parse(const char *text, const char *unit, double *cost_out,
		      const char **unit_out);
/* The cost as text: "3.5 h" (wall time in s, min or h as fits), "120
 * core-h"; "-" when unit is NULL or cost NaN. */
void import_cost_fmt(char *buf, size_t len, double cost, const char *unit);

/* The sha256 of the file at path as 64 hex digits into hex; what (or
 * NULL) names the file in an error: "cannot open topology '...'". */
int import_file_sha256(const char *path, const char *what, char hex[65]);

/* Record in the run's metadata what o's command line said beyond the
 * run's identity (for perfcorr bundle): "import.map" with
 * "import.map_sha256", "import.topology(_sha256)", "import.rules(_sha256)",
 * "import.strict_map", "import.opt" (the other --opt k=v, one a line),
 * "import.meta" (the --meta k=v, one a line). src/import/import_record.c */
struct db_writer;
int import_record_cli(struct db_writer *w, const struct import_opts *o);

/* Import path ("-" = stdin). PC_EEXISTS when these bytes are already
 * imported into the source (not an error for the user: say so). Any
 * other error leaves the database exactly as it was. */
int import_file(struct db *db, const char *path, const struct import_opts *o,
		struct import_result *out);

#endif
