/* The watcher's scan (see watch.h, watch_int.h, docs/service.md): list
 * the drop directory's manifests, keep the ones that did not change since
 * the previous scan, hand each to watch_handle (watch.c) and back off the
 * ones that wait or must be retried. */
#include "src/watch/watch_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static long long mtime_ns(const struct stat *sb)
{
	return (long long)sb->st_mtim.tv_sec * 1000000000LL +
	       sb->st_mtim.tv_nsec;
}

/* Fill s for manifest entry mname; 0 when it is a delivery to consider.
 * Nothing is followed: a symbolic link is seen as one. */
static int observe(struct watch *w, const char *mname, struct seen *s)
{
	size_t n = strlen(mname), k = strlen(WATCH_SUFFIX);
	struct stat sb;

	if (n <= k || mname[0] == '.' || strcmp(mname + n - k, WATCH_SUFFIX))
		return -1;
	if (fstatat(w->dfd, mname, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
	    (!S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)))
		return -1;
	memset(s, 0, sizeof(*s));
	s->name = xstrndup(mname, n - k);
	s->mlink = S_ISLNK(sb.st_mode);
	s->msize = sb.st_size;
	s->mmtime = mtime_ns(&sb);
	if (fstatat(w->dfd, s->name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		/* 2: a link, FIFO, device or folder: refused, never moved */
		s->have_data = S_ISREG(sb.st_mode) ? 1 : 2;
		s->dsize = sb.st_size;
		s->dmtime = mtime_ns(&sb);
	}
	return 0;
}

/* The previous scan's entry for s when nothing changed, else NULL. */
static const struct seen *stable(const struct watch *w, const struct seen *s)
{
	for (size_t i = 0; i < w->nprev; i++) {
		const struct seen *p = &w->prev[i];

		if (!strcmp(p->name, s->name))
			return p->have_data == s->have_data &&
			       p->mlink == s->mlink &&
			       p->dsize == s->dsize && p->msize == s->msize &&
			       p->dmtime == s->dmtime &&
			       p->mmtime == s->mmtime ? p : NULL;
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct seen *)a)->name,
		      ((const struct seen *)b)->name);
}

/* A retry or a wait: try again 1, 2, 4 ... MAX_SKIP scans later; after
 * MAX_TRIES, not until the delivery changes. */
static void back_off(struct watch *w, struct seen *s, enum watch_event ev,
		     const char *text)
{
	s->tries++;
	s->skip = s->tries >= MAX_TRIES ? -1 :
		  (1 << (s->tries < 6 ? s->tries - 1 : 5)) - 1;
	if (s->skip > MAX_SKIP)
		s->skip = MAX_SKIP;
	if (ev == WATCH_RETRY || s->tries == 1)
		w->log(w->ctx, ev, s->name, text);
	if (s->skip < 0)
		w->log(w->ctx, ev, s->name, "giving up after 10 tries: tried "
		       "again when the file or its manifest changes, or when "
		       "the watcher restarts");
}

int watch_scan(struct watch *w, const volatile sig_atomic_t *stop)
{
	struct dirent *e;
	struct seen *cur = NULL;
	size_t n = 0, cap = 0;
	int handled = 0, fd, rc;
	DIR *d;

	if ((rc = wfs_check_dir(w)) < 0)
		return rc;
	if ((fd = dup(w->dfd)) < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return pc_error_set(PC_EIO, "cannot read '%s': %s", w->dir,
				    strerror(errno));
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		struct seen s;

		if (observe(w, e->d_name, &s) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			cur = xrealloc(cur, cap * sizeof(*cur));
		}
		cur[n++] = s;
	}
	closedir(d);
	if (n)
		qsort(cur, n, sizeof(*cur), by_name);
	for (size_t i = 0; i < n && !(stop && *stop); i++) {
		const struct seen *p = stable(w, &cur[i]);
		struct strbuf msg = STRBUF_INIT;
		enum watch_event ev;

		if (!p)
			continue;
		cur[i].tries = p->tries;
		cur[i].skip = p->skip;
		if (cur[i].skip) {
			if (cur[i].skip > 0)
				cur[i].skip--;
			continue;
		}
		ev = watch_handle(w, &cur[i], &msg);
		if (ev == WATCH_RETRY || ev == WATCH_WAITING) {
			back_off(w, &cur[i], ev, strbuf_str(&msg));
		} else {
			w->log(w->ctx, ev, cur[i].name, strbuf_str(&msg));
			/* handled: forget it, a re-delivery is seen afresh */
			cur[i].have_data = -1;
		}
		strbuf_release(&msg);
		handled++;
	}
	watch_seen_free(w->prev, w->nprev);
	w->prev = cur;
	w->nprev = n;
	return handled;
}
