/* The floor of the TUI's open from the pair cache on this machine (issue
 * 21): the least a program can do to have a cached pairing's first
 * screen in memory.
 *   floor_tui_open DB
 * It opens the database as perfcorr does (SQLite, the file memory-mapped
 * as db/engine_sqlite.c maps it for blobs), finds the newest pair cache
 * entry that holds points, and reads the parts the open reads, each into
 * a buffer aligned and advised as src/base/util.c's xmalloc_big does
 * (huge pages): meta, keys, vals, the four names parts, groupkeys and the
 * workload abbreviation; then one pass over the keys (the largest ids:
 * what any reader must do before trusting them). No validation beyond
 * that, no annotations, no screen. Prints the CPU time (user + sys) from
 * after the open to the end (the window `perfcorr tui` reports as
 * first_screen cpu starts after its database is open), the CPU time of
 * the whole process (getrusage: start-up included) and the bytes read.
 * Not part of the build: cc -O2 floor_tui_open.c -lsqlite3. */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#define HUGE_PAGE ((size_t)2 << 20)

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "floor_tui_open: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static void *big(size_t n)
{
	void *p = NULL;

	if (n < 2 * HUGE_PAGE)
		return malloc(n ? n : 1);
	if (posix_memalign(&p, HUGE_PAGE, n) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, n & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
	return p;
}

/* Part name of entry id into a new buffer; its length in *len. */
static void *part(sqlite3 *db, int64_t id, const char *name, size_t *len)
{
	sqlite3_stmt *st;
	sqlite3_blob *b = NULL;
	int64_t row = 0, n = -1;
	void *buf;

	if (sqlite3_prepare_v2(db, "SELECT id, length(data) FROM "
			       "pair_cache_parts WHERE cache_id = ? AND "
			       "name = ?", -1, &st, NULL) != SQLITE_OK)
		die(db, "prepare");
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		row = sqlite3_column_int64(st, 0);
		n = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (n < 0) {
		*len = 0;
		return NULL;	/* an older entry without it */
	}
	if (!(buf = big((size_t)n)))
		die(db, "out of memory");
	if (n && (sqlite3_blob_open(db, "main", "pair_cache_parts", "data", row,
				    0, &b) != SQLITE_OK ||
		  sqlite3_blob_read(b, buf, (int)n, 0) != SQLITE_OK))
		die(db, "blob read");
	sqlite3_blob_close(b);
	*len = (size_t)n;
	return buf;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "meta", "keys", "vals", "names.0",
		"names.1", "names.2", "names.3", "groupkeys", "wabbr" };
	struct key { int32_t w, o, m; uint32_t flags; double err; } *k = NULL;
	void *bufs[sizeof(names) / sizeof(names[0])];
	int32_t max[3] = { -1, -1, -1 };
	size_t total = 0, nk = 0;
	sqlite3_stmt *st;
	struct rusage ru;
	int64_t id = 0;
	double c0;
	sqlite3 *db;

	if (argc != 2) {
		fprintf(stderr, "usage: floor_tui_open DB\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK)
		die(db, "open");
	c0 = cpu_ms();
	sqlite3_exec(db, "PRAGMA mmap_size = 1099511627776", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(db, "SELECT max(cache_id) FROM pair_cache_parts "
			       "WHERE name = 'keys'", -1, &st, NULL) !=
	    SQLITE_OK)
		die(db, "prepare");
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!id) {
		fprintf(stderr, "floor_tui_open: no cached pairing in %s "
			"(perfcorr index first)\n", argv[1]);
		return 1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len;

		bufs[i] = part(db, id, names[i], &len);
		total += len;
		if (i == 1) {
			k = bufs[i];
			nk = len / sizeof(*k);
		}
	}
	for (size_t i = 0; i < nk; i++) {
		max[0] = k[i].w > max[0] ? k[i].w : max[0];
		max[1] = k[i].o > max[1] ? k[i].o : max[1];
		max[2] = k[i].m > max[2] ? k[i].m : max[2];
	}
	printf("points %zu max %d %d %d bytes %zu cpu_ms %.3f", nk, max[0],
	       max[1], max[2], total, cpu_ms() - c0);
	getrusage(RUSAGE_SELF, &ru);
	printf(" process_cpu_ms %.3f\n",
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		free(bufs[i]);
	sqlite3_close(db);
	return 0;
}
