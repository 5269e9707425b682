/* The quick_check stamp (db_int.h): PATH-checked names the state of the
 * database file and its -wal at a moment perfcorr knew the database
 * sound, so that a write process does not read every page again (PRAGMA
 * quick_check: about 1 s per 100 MB) while nothing but perfcorr has
 * touched the files since. The state is each file's device, inode,
 * size, mtime and ctime (ns): any other writer changes mtime and ctime,
 * and ctime cannot be set back. The stamp is a cache: a missing,
 * unreadable or stale one only means the check runs. */
#include "db/db_int.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"

#define STAMP_MAGIC "perfcorr quick_check stamp 1\n"

static void add_state(struct strbuf *sb, const char *path, int must)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (!must && st.st_size == 0)) {
		/* an empty -wal (each connection's open makes one) holds
		 * nothing: the same as none */
		strbuf_addstr(sb, must ? "?\n" : "-\n");
		return;
	}
	strbuf_addf(sb, "%llu %llu %lld %lld.%09ld %lld.%09ld\n",
		    (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

char *dbstamp_state(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *wal = xasprintf("%s-wal", path);

	strbuf_addstr(&sb, STAMP_MAGIC);
	add_state(&sb, path, 1);
	add_state(&sb, wal, 0);
	free(wal);
	if (strstr(sb.buf, "?\n")) {	/* no database file: no stamp */
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

int dbstamp_matches(const char *path, const char *state)
{
	char *name, buf[512];
	ssize_t n;
	int fd;

	if (!state)
		return 0;
	name = xasprintf("%s-checked", path);
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	free(name);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return !strcmp(buf, state);
}

void dbstamp_write(const char *path, const char *state)
{
	char *name, *tmp;
	size_t len;
	int fd, ok;

	if (!state)
		return;
	name = xasprintf("%s-checked", path);
	tmp = xasprintf("%s-checked.%ld.tmp", path, (long)getpid());
	len = strlen(state);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0666);
	if (fd >= 0) {
		ok = write(fd, state, len) == (ssize_t)len;
		ok = close(fd) == 0 && ok;
		/* rename replaces a link planted as the name, never follows it */
		if (!ok || rename(tmp, name) != 0)
			unlink(tmp);
	}
	free(tmp);
	free(name);
}
