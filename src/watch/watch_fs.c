/*
 * The watcher's file-system side (see watch_int.h): directory
 * descriptors, O_NOFOLLOW opens, O_EXCL creation, the lock. The drop
 * directory is hostile ground: a sender may plant symbolic links, FIFOs,
 * folders named like the archive folders, or replace files mid-import.
 */
/* realpath, flock */
#define _DEFAULT_SOURCE
#include "src/watch/watch_int.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/error.h"
#include "base/sha256.h"
#include "base/util.h"

#define O_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

int wfs_exists(int dirfd, const char *name)
{
	struct stat sb;

	return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0;
}

int wfs_stat_same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int wfs_unchanged(int dirfd, const char *name, const struct stat *sb,
		  const char *sha)
{
	struct stat now, after;
	struct sha256 h;
	char buf[65536], hex[65];
	ssize_t k;
	int fd, same;

	if (fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(now.st_mode) || (sb && !wfs_stat_same(&now, sb)))
		return 0;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	sha256_init(&h);
	while ((k = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&h, buf, (size_t)k);
	sha256_final_hex(&h, hex);
	/* the file read is the one looked at, and it did not move meanwhile */
	same = k == 0 && fstat(fd, &after) == 0 &&
	       wfs_stat_same(&after, &now) && !strcmp(hex, sha);
	close(fd);
	return same;
}

/* DIR/name as an archive folder the watcher owns, created when absent. */
static int archive_dir(struct watch *w, const char *name, int *out)
{
	struct stat sb;
	int fd;

	if (mkdirat(w->dfd, name, 0750) != 0 && errno != EEXIST)
		return pc_error_set(PC_EIO, "cannot create '%s/%s': %s", w->dir,
				    name, strerror(errno));
	if ((fd = openat(w->dfd, name, O_DIR_FLAGS)) < 0) {
		int e = errno;

		if (fstatat(w->dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(sb.st_mode))
			return pc_error_set(PC_EIO, "'%s/%s' is a symbolic "
				"link: refused (an archive folder must be a "
				"real directory; remove the link)", w->dir,
				name);
		return pc_error_set(PC_EIO, "cannot use '%s/%s': %s", w->dir,
				    name, e == ENOTDIR ? "a file is in the way" :
				    strerror(e));
	}
	if (fstat(fd, &sb) != 0 || sb.st_uid != geteuid()) {
		close(fd);
		return pc_error_set(PC_EIO, "'%s/%s' belongs to another user "
			"(uid %ld): refused (the archive folders must belong "
			"to the account running perfcorr watch; remove it)",
			w->dir, name, (long)sb.st_uid);
	}
	/* senders write DIR, never the archive: its group is the
	 * watcher's own (not the senders' group a setgid DIR hands down),
	 * no setgid, no group/other write, others not even in; a manifest
	 * moved in keeps its sender as owner, so no sender may reach it */
	if (sb.st_gid != getegid() && fchown(fd, (uid_t)-1, getegid()) == 0)
		fstat(fd, &sb);
	if ((sb.st_mode & 02027) && fchmod(fd, sb.st_mode & 0750) != 0) {
		int e = errno;

		close(fd);
		return pc_error_set(PC_EIO, "cannot make '%s/%s' private: %s",
				    w->dir, name, strerror(e));
	}
	*out = fd;
	return 0;
}

static void clean_staging(struct watch *w)
{
	int fd = dup(w->ifd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, WATCH_STAGE, strlen(WATCH_STAGE)))
			unlinkat(w->ifd, e->d_name, 0);
	closedir(d);
}

int wfs_open(struct watch *w, const char *const *allow)
{
	struct stat sb;
	char *r;
	int rc;

	w->dfd = w->ifd = w->ffd = w->lockfd = -1;
	if ((w->dfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return pc_error_set(PC_EIO, "cannot watch '%s': %s", w->dir,
				    errno == ENOTDIR ? "not a directory" :
				    strerror(errno));
	if (fstat(w->dfd, &sb) != 0 || !(w->real = realpath(w->dir, NULL)))
		return pc_error_set(PC_EIO, "cannot watch '%s': %s", w->dir,
				    strerror(errno));
	w->dev = sb.st_dev;
	w->ino = sb.st_ino;
	if ((rc = archive_dir(w, "imported", &w->ifd)) < 0 ||
	    (rc = archive_dir(w, "failed", &w->ffd)) < 0)
		return rc;
	w->lockfd = openat(w->ifd, WATCH_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW |
			   O_CLOEXEC, 0600);
	if (w->lockfd < 0)
		return pc_error_set(PC_EIO, "cannot create '%s/imported/"
				    WATCH_LOCK "': %s", w->dir,
				    strerror(errno));
	if (flock(w->lockfd, LOCK_EX | LOCK_NB) != 0)
		return pc_error_set(PC_EIO, "another perfcorr watch is "
			"already watching '%s' (it holds imported/" WATCH_LOCK
			"); one watcher per drop directory", w->dir);
	clean_staging(w);
	for (const char *const *a = allow; a && *a; a++) {
		if (!(r = realpath(*a, NULL)) || stat(r, &sb) != 0 ||
		    !S_ISDIR(sb.st_mode)) {
			free(r);
			return pc_error_set(PC_EUSAGE, "--allow '%s': not a "
					    "directory", *a);
		}
		w->allow = xrealloc(w->allow, (w->nallow + 1) *
				    sizeof(*w->allow));
		w->allow[w->nallow++] = r;
	}
	return 0;
}

void wfs_close(struct watch *w)
{
	int *fds[4] = { &w->dfd, &w->ifd, &w->ffd, &w->lockfd };

	for (int i = 0; i < 4; i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	for (size_t i = 0; i < w->nallow; i++)
		free(w->allow[i]);
	free(w->allow);
	free(w->real);
	w->allow = NULL;
	w->real = NULL;
}

int wfs_check_dir(struct watch *w)
{
	struct stat sb;

	if (stat(w->dir, &sb) != 0 || sb.st_dev != w->dev ||
	    sb.st_ino != w->ino)
		return pc_error_set(PC_EIO, "'%s' was removed or replaced "
			"while watching: stopping (start perfcorr watch again "
			"on the new directory)", w->dir);
	return 0;
}

int wfs_open_file(int dirfd, const char *name, int *out, struct stat *sb)
{
	struct stat now;
	int fd, fl;

	/* refused before opening: opening a device can have effects */
	if (fstatat(dirfd, name, sb, AT_SYMLINK_NOFOLLOW) != 0)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", name,
				    strerror(errno));
	if (S_ISLNK(sb->st_mode))
		return pc_error_set(PC_EINVALID, "'%s' is a symbolic link: "
			"refused (perfcorr watch reads only regular files "
			"inside the drop directory)", name);
	if (!S_ISREG(sb->st_mode))
		return pc_error_set(PC_EINVALID, "'%s' is not a regular file "
			"(a FIFO, device or directory): refused", name);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", name,
				    strerror(errno));
	/* swapped between the look and the open: refuse it too */
	if (fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) ||
	    now.st_dev != sb->st_dev || now.st_ino != sb->st_ino ||
	    (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		close(fd);
		return pc_error_set(PC_EINVALID, "'%s' changed while being "
				    "opened: refused", name);
	}
	*sb = now;
	*out = fd;
	return 0;
}

/* path minus a leading dir + '/', or NULL. */
static const char *under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

int wfs_open_named(struct watch *w, const char *path, int *out)
{
	const char *rel = path;
	char *buf, *comp, *save = NULL, *next;
	struct stat sb;
	int cur, rc = 0;

	if (path[0] == '/') {
		const char *base = NULL;

		if ((rel = under(path, w->real)) ||
		    (w->dir[0] == '/' && (rel = under(path, w->dir))))
			base = w->real;
		for (size_t i = 0; !base && i < w->nallow; i++)
			if ((rel = under(path, w->allow[i])))
				base = w->allow[i];
		if (!base)
			return pc_error_set(PC_EINVALID, "'%s' is outside the "
				"drop directory: refused, not opened (start "
				"perfcorr watch with --allow DIR to permit a "
				"folder)", path);
		cur = base == w->real ? dup(w->dfd) :
		      open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		cur = dup(w->dfd);
	}
	if (cur < 0)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	buf = xstrdup(rel);
	comp = strtok_r(buf, "/", &save);
	while (comp && !strcmp(comp, "."))
		comp = strtok_r(NULL, "/", &save);
	if (!comp)
		rc = pc_error_set(PC_EINVALID, "'%s' names no file", path);
	while (!rc && comp) {
		next = strtok_r(NULL, "/", &save);
		while (next && !strcmp(next, "."))
			next = strtok_r(NULL, "/", &save);
		if (!strcmp(comp, "..")) {
			rc = pc_error_set(PC_EINVALID, "'%s': '..' is not "
				"allowed in a manifest path: refused", path);
		} else if (next) {
			int fd = openat(cur, comp, O_DIR_FLAGS), e = errno;

			if (fd < 0)
				rc = pc_error_set(PC_EINVALID, "'%s': %s", path,
					fstatat(cur, comp, &sb,
						AT_SYMLINK_NOFOLLOW) == 0 &&
					S_ISLNK(sb.st_mode) ? "a symbolic link "
					"on the way: refused" : strerror(e));
			close(cur);
			cur = fd;
		} else if ((rc = wfs_open_file(cur, comp, out, &sb)) < 0) {
			pc_error_prefix("'%s'", path);
		}
		comp = next;
	}
	if (cur >= 0)
		close(cur);
	free(buf);
	return rc;
}

int wfs_create(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0644);

	if (fd < 0)
		pc_error_set(errno == ENOSPC ? WATCH_ERETRY : PC_EIO,
			     "cannot create '%s': %s", name, strerror(errno));
	return fd;
}

int wfs_write(int dirfd, const char *name, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp", name);
	const char *p = data;
	int fd, ok = 1, e = 0;

	/* a leftover of a killed watcher; the folder is ours alone */
	unlinkat(dirfd, tmp, 0);
	if ((fd = wfs_create(dirfd, tmp)) < 0) {
		free(tmp);
		return PC_EIO;
	}
	while (ok && len) {
		ssize_t k = write(fd, p, len);

		if (k <= 0) {
			e = errno;
			ok = 0;
			break;
		}
		p += k;
		len -= (size_t)k;
	}
	if (close(fd) != 0 && ok)
		e = errno, ok = 0;
	if (ok && renameat(dirfd, tmp, dirfd, name) != 0)
		e = errno, ok = 0;
	if (!ok)
		unlinkat(dirfd, tmp, 0);
	free(tmp);
	return ok ? 0 : pc_error_set(e == ENOSPC ? WATCH_ERETRY : PC_EIO,
				     "cannot write '%s': %s", name,
				     e == ENOSPC ? "the disk is full" :
				     strerror(e));
}

char *wfs_free_name(int dirfd, const char *name)
{
	for (int i = 1; i < 10000; i++) {
		char *base = i == 1 ? xstrdup(name) :
			     xasprintf("%s~%d", name, i);
		char *m = xasprintf("%s" WATCH_SUFFIX, base);
		char *e = xasprintf("%s.error", base);
		int taken = wfs_exists(dirfd, base) || wfs_exists(dirfd, m) ||
			    wfs_exists(dirfd, e);

		free(m);
		free(e);
		if (!taken)
			return base;
		free(base);
	}
	pc_error_set(PC_EIO, "no free name for '%s' in the archive", name);
	return NULL;
}
