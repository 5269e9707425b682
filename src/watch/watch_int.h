#ifndef PC_SRC_WATCH_INT_H
#define PC_SRC_WATCH_INT_H
/*
 * Private to src/watch*.c: the watcher's state and its file-system
 * helpers (watch_fs.c). The drop directory is writable by senders the
 * service does not trust (docs/service.md "Threat model"), so every
 * file is reached through a directory descriptor with O_NOFOLLOW, never
 * through a path a sender could redirect, and created with O_EXCL.
 */
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/error.h"
#include "src/watch/watch.h"

/* What a delivery looked like at the previous scan. */
struct seen {
	char *name;		/* data file name (manifest minus suffix) */
	long long dsize, msize;
	long long dmtime, mmtime;	/* nanoseconds */
	int have_data;		/* 0 absent, 1 regular file, 2 other */
	int mlink;		/* the manifest is a symbolic link */
	int tries;		/* retries and waits so far (backoff) */
	int skip;		/* scans to let pass before the next try */
};

struct watch {
	struct db *db;
	char *dir;		/* as given, for messages */
	char *real;		/* its realpath */
	int dfd, ifd, ffd;	/* DIR, DIR/imported, DIR/failed */
	int lockfd;		/* imported/.perfcorr-watch.lock, flock'ed */
	dev_t dev;		/* DIR's identity: a replaced DIR is noticed */
	ino_t ino;
	char **allow;		/* realpaths of --allow folders */
	size_t nallow;
	struct seen *prev;
	size_t nprev;
	unsigned long nstage;
	void (*log)(void *ctx, enum watch_event ev, const char *name,
		    const char *text);
	void *ctx;
};

/* an error that is the service's problem, not the file's (a full disk,
 * the database): the delivery stays for a later scan */
#define WATCH_ERETRY PC_EDB

#define WATCH_STAGE ".perfcorr-staging."
#define WATCH_LOCK ".perfcorr-watch.lock"

/* Open DIR, its archive folders (created 0750 in the watcher's group,
 * refused when a symbolic link or another user's; setgid, group/other
 * write and other access taken away), take the lock
 * (a second watcher on DIR is refused) and remove stale staging files. */
int wfs_open(struct watch *w, const char *const *allow);
void wfs_close(struct watch *w);
/* 0 while DIR is still the directory the watcher opened. */
int wfs_check_dir(struct watch *w);

/* Open name in dirfd for reading: refused (without opening) when it is
 * a symbolic link or not a regular file; a FIFO is never waited on. */
int wfs_open_file(int dirfd, const char *name, int *fd, struct stat *sb);
/* Open a path a manifest names: relative to DIR, or absolute inside
 * DIR or an --allow folder; no '..', no symbolic links on the way.
 * Anything else is refused without opening it. */
int wfs_open_named(struct watch *w, const char *path, int *fd);
/* Create name in dirfd (read-write): O_EXCL | O_NOFOLLOW, mode 0644. */
int wfs_create(int dirfd, const char *name);
/* Write data to dirfd/name through an exclusive temporary and rename. */
int wfs_write(int dirfd, const char *name, const void *data, size_t len);
/* A free base name in dirfd: name, else name~2 ...; NULL past 9999. */
char *wfs_free_name(int dirfd, const char *name);
/* 1 when dirfd/name (not followed) is still the file sb describes (the
 * same inode, size, mtime and ctime: a file rewritten in place is not)
 * and its bytes hash to sha (hex); sb NULL: the bytes alone. */
int wfs_unchanged(int dirfd, const char *name, const struct stat *sb,
		  const char *sha);
/* 1 when a and b are one file in one state (inode, size, m/ctime). */
int wfs_stat_same(const struct stat *a, const struct stat *b);
/* 1 when dirfd/name exists (not followed). */
int wfs_exists(int dirfd, const char *name);

/* retries and waits: 1, 2, 4 ... 32 scans apart, then give up until the
 * delivery changes (or the watcher restarts) */
#define MAX_TRIES 10
#define MAX_SKIP 32

struct strbuf;
/* Handle one stable delivery (watch.c): import it, archive it to
 * imported/ or failed/; msg gets what to log. */
enum watch_event watch_handle(struct watch *w, const struct seen *s,
			      struct strbuf *msg);
void watch_seen_free(struct seen *s, size_t n);

#endif
