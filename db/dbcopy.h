#ifndef PC_DB_DBCOPY_H
#define PC_DB_DBCOPY_H
/*
 * perfcorr db copy (issue 22): a whole study from one database into
 * another, on either engine (SQLite or PostgreSQL, either way round),
 * every table that holds user data, rows streamed from the source's
 * cursor into the target's bulk insert (PostgreSQL: COPY), ids kept.
 * The pair cache is not copied: it is rebuilt from the results.
 *
 *   dbcopy_begin   snapshot on the source, one write transaction on
 *                  the target (refused when it holds a study already,
 *                  unless replace: then it is emptied in that
 *                  transaction)
 *   dbcopy_tables  every table, then count(*) of each on both sides
 *   (the caller verifies more: the checksum of `export results` read on
 *   both connections inside their transactions)
 *   dbcopy_end     commit the target, or roll it back
 */
#include <stdint.h>

struct db;

#define DBCOPY_NTABLES 15

struct dbcopy_count {
	const char *table;
	int64_t from, to;	/* count(*) on each side after the copy */
};

/* 0 when ready to copy; 1 when the target holds user data and replace
 * is 0 (*table and *rows name the first table that does; nothing was
 * changed and no transaction is left open); <0 on error. */
int dbcopy_begin(struct db *src, struct db *dst, int replace,
		 const char **table, int64_t *rows);
/* Copy every table in foreign-key order and count both sides into
 * counts[DBCOPY_NTABLES]; PC_EDB naming the table when a count differs. */
int dbcopy_tables(struct db *src, struct db *dst,
		  struct dbcopy_count counts[DBCOPY_NTABLES]);
/* Commit the target when rc is 0, else roll it back; end the source's
 * snapshot. Returns rc, or the commit's error. */
int dbcopy_end(struct db *src, struct db *dst, int rc);

#endif
