#ifndef PC_SRC_WATCH_H
#define PC_SRC_WATCH_H
/*
 * The drop-directory ingester behind `perfcorr watch` (docs/service.md).
 * A delivery is a data file NAME plus its sidecar manifest
 * NAME.perfcorr.json; it is imported once both have stopped changing
 * between two scans. Success moves both to DIR/imported/, a bad file to
 * DIR/failed/ with NAME.error; a database problem leaves them in place
 * for the next scan. Never prints: one log line per file goes through a
 * callback. State lives in the directory and the database only, so a
 * restarted watcher neither skips nor re-imports anything.
 */
#include <signal.h>
#include <stddef.h>

struct db;

#define WATCH_SUFFIX ".perfcorr.json"

/* A parsed manifest; every string owned (watch_manifest_release). */
struct watch_manifest {
	char *source, *kind, *version, *format, *platform, *workload;
	char *map;		/* mapping rules path (relative: to DIR) */
	double clock_hz;	/* NaN = not given */
	char **params;		/* "k=v", NULL-terminated, or NULL */
	char **opts;		/* importer options "k=v", or NULL */
	long long size;		/* the data file's size in bytes; -1 = not given */
	char *sha256;		/* its sha256, lowercase hex, or NULL */
};

/* Parse manifest JSON text; path is for messages. Unknown keys, wrong
 * types and a missing "source" are PC_EINVALID. */
int watch_manifest_parse(struct watch_manifest *out, const char *text,
			 size_t len, const char *path);
void watch_manifest_release(struct watch_manifest *m);

enum watch_event {
	WATCH_IMPORTED,		/* new run stored, moved to imported/ */
	WATCH_DUPLICATE,	/* same bytes already stored: imported/ */
	WATCH_FAILED,		/* bad file: moved to failed/ + .error */
	WATCH_RETRY,		/* database problem: left for the next scan */
	WATCH_WAITING,		/* not complete yet (manifest size/sha256, no
				 * final newline): left, logged once */
};

struct watch;

/* A watcher on dir (created subfolders imported/ and failed/) writing
 * into db (borrowed). allow (NULL-terminated, or NULL) lists folders
 * outside dir that manifests may name files in. log(ctx, event, name,
 * text) is called once per file handled; text is the run summary or the
 * error. A second watcher on the same dir is refused. */
int watch_new(struct watch **out, struct db *db, const char *dir,
	      const char *const *allow,
	      void (*log)(void *ctx, enum watch_event ev, const char *name,
			  const char *text),
	      void *ctx);
void watch_free(struct watch *w);

/* One scan: note sizes, import every delivery unchanged since the
 * previous scan. Stops early (returns 0) when *stop becomes non-zero
 * between files. Returns the number of files handled, or <0 when the
 * directory itself cannot be read. */
int watch_scan(struct watch *w, const volatile sig_atomic_t *stop);

#endif
