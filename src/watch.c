/* The drop-directory ingester (see watch.h, docs/service.md). */
#include "src/watch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/error.h"
#include "src/import.h"
#include "src/base/strbuf.h"
#include "src/base/util.h"

#define MAX_MANIFEST (1u << 20)

/* What a delivery looked like at the previous scan. */
struct seen {
	char *name;		/* data file name (manifest minus suffix) */
	long long dsize, msize;
	long long dmtime, mmtime;	/* nanoseconds */
	int have_data;		/* 0 absent, 1 regular file, 2 other */
};

struct watch {
	struct db *db;
	char *dir, *imported, *failed;
	struct seen *prev;
	size_t nprev;
	void (*log)(void *ctx, enum watch_event ev, const char *name,
		    const char *text);
	void *ctx;
};

static void seen_free(struct seen *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

static int make_dir(const char *path)
{
	struct stat sb;

	if (mkdir(path, 0777) == 0)
		return 0;
	if (errno == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	return pc_error_set(PC_EIO, "cannot create directory '%s': %s", path,
			    errno == EEXIST ? "a file is in the way" :
			    strerror(errno));
}

int watch_new(struct watch **out, struct db *db, const char *dir,
	      void (*log)(void *ctx, enum watch_event ev, const char *name,
			  const char *text),
	      void *ctx)
{
	struct watch *w;
	struct stat sb;
	int rc;

	if (stat(dir, &sb) != 0)
		return pc_error_set(PC_EIO, "cannot watch '%s': %s", dir,
				    strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return pc_error_set(PC_EIO, "cannot watch '%s': not a "
				    "directory", dir);
	w = xcalloc(1, sizeof(*w));
	w->db = db;
	w->dir = xstrdup(dir);
	w->imported = xasprintf("%s/imported", dir);
	w->failed = xasprintf("%s/failed", dir);
	w->log = log;
	w->ctx = ctx;
	if ((rc = make_dir(w->imported)) < 0 ||
	    (rc = make_dir(w->failed)) < 0) {
		watch_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void watch_free(struct watch *w)
{
	if (!w)
		return;
	seen_free(w->prev, w->nprev);
	free(w->dir);
	free(w->imported);
	free(w->failed);
	free(w);
}

static int exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/* A free base name in dest for name: name, else name~2, name~3 ... */
static char *free_name(const char *dest, const char *name)
{
	for (int i = 1;; i++) {
		char *base = i == 1 ? xstrdup(name) :
			     xasprintf("%s~%d", name, i);
		char *d = xasprintf("%s/%s", dest, base);
		char *m = xasprintf("%s/%s" WATCH_SUFFIX, dest, base);
		char *e = xasprintf("%s/%s.error", dest, base);
		int taken = exists(d) || exists(m) || exists(e);

		free(d);
		free(m);
		free(e);
		if (!taken)
			return base;
		free(base);
	}
}

static int move(const char *from, const char *to)
{
	if (rename(from, to) != 0)
		return pc_error_set(PC_EIO, "cannot move '%s' to '%s': %s",
				    from, to, strerror(errno));
	return 0;
}

/* Write text to path through a temporary file and rename. */
static int write_file(const char *path, const char *text)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *fp = fopen(tmp, "w");
	int ok;

	if (!fp) {
		free(tmp);
		return pc_error_set(PC_EIO, "cannot write '%s': %s", path,
				    strerror(errno));
	}
	ok = fputs(text, fp) >= 0 && fputc('\n', fp) != EOF;
	ok = (fclose(fp) == 0) && ok && rename(tmp, path) == 0;
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok ? 0 : pc_error_set(PC_EIO, "cannot write '%s'", path);
}

/* Move NAME (when present) and its manifest into dest; for failed/ the
 * message goes to NAME.error first. The data file moves before the
 * manifest, so an interrupted move leaves a manifest without its data,
 * which recover() completes on the next scan. */
static int move_pair(struct watch *w, const char *dest, const char *name,
		     const char *error)
{
	char *base = free_name(dest, name);
	char *src_d = xasprintf("%s/%s", w->dir, name);
	char *src_m = xasprintf("%s/%s" WATCH_SUFFIX, w->dir, name);
	char *dst_d = xasprintf("%s/%s", dest, base);
	char *dst_m = xasprintf("%s/%s" WATCH_SUFFIX, dest, base);
	char *dst_e = xasprintf("%s/%s.error", dest, base);
	int rc = 0;

	if (error)
		rc = write_file(dst_e, error);
	if (!rc && exists(src_d))
		rc = move(src_d, dst_d);
	if (!rc)
		rc = move(src_m, dst_m);
	free(base);
	free(src_d);
	free(src_m);
	free(dst_d);
	free(dst_m);
	free(dst_e);
	return rc;
}

/* A manifest whose data file is gone: an earlier watcher moved the data
 * and was killed before the manifest. Finish that move. */
static int recover(struct watch *w, const char *name)
{
	const char *dests[2] = { w->imported, w->failed };

	for (int k = 0; k < 2; k++) {
		for (int i = 1;; i++) {
			char *base = i == 1 ? xstrdup(name) :
				     xasprintf("%s~%d", name, i);
			char *d = xasprintf("%s/%s", dests[k], base);
			char *m = xasprintf("%s/%s" WATCH_SUFFIX, dests[k],
					    base);
			char *src = xasprintf("%s/%s" WATCH_SUFFIX, w->dir,
					      name);
			int have_d = exists(d), have_m = exists(m), rc = 1;

			if (have_d && !have_m)
				rc = move(src, m) == 0 ? 0 : 1;
			free(base);
			free(d);
			free(m);
			free(src);
			if (rc == 0)
				return k;
			if (!have_d)
				break;
		}
	}
	return -1;
}

static int read_manifest(const char *path, char **out, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	buf = xmalloc(MAX_MANIFEST + 1);
	n = fread(buf, 1, MAX_MANIFEST + 1, fp);
	fclose(fp);
	if (n > MAX_MANIFEST) {
		free(buf);
		return pc_error_set(PC_EINVALID, "%s: manifest larger than "
				    "1 MiB", path);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static void summary(struct strbuf *sb, const struct import_result *r)
{
	strbuf_addf(sb, "run %lld (%s): %ld results", (long long)r->run_id,
		    r->format, r->results);
	if (r->unmapped)
		strbuf_addf(sb, ", %ld raw names unmapped", r->unmapped);
	if (r->warnings)
		strbuf_addf(sb, ", %ld warnings", r->warnings);
}

/* Import one stable delivery. Returns the event. */
static enum watch_event import_one(struct watch *w, const char *name,
				   struct strbuf *msg)
{
	struct watch_manifest m;
	struct import_opts io;
	struct import_result res;
	char *mpath = xasprintf("%s/%s" WATCH_SUFFIX, w->dir, name);
	char *dpath = xasprintf("%s/%s", w->dir, name);
	char *map = NULL, *text = NULL;
	size_t len = 0;
	int rc;

	memset(&m, 0, sizeof(m));
	m.clock_hz = NAN;
	if ((rc = read_manifest(mpath, &text, &len)) < 0 ||
	    (rc = watch_manifest_parse(&m, text, len, mpath)) < 0)
		goto done;
	memset(&io, 0, sizeof(io));
	io.source = m.source;
	io.kind = m.kind;
	io.version = m.version;
	io.format = m.format;
	io.platform = m.platform;
	io.clock_hz = m.clock_hz;
	io.workload = m.workload;
	io.params = (const char *const *)m.params;
	io.opts = (const char *const *)m.opts;
	if (m.map)
		map = m.map[0] == '/' ? xstrdup(m.map) :
		      xasprintf("%s/%s", w->dir, m.map);
	io.map_path = map;
	rc = import_file(w->db, dpath, &io, &res);
	if (rc == 0)
		summary(msg, &res);
done:
	if (rc < 0)
		strbuf_addstr(msg, pc_error_last());
	watch_manifest_release(&m);
	free(text);
	free(map);
	free(mpath);
	free(dpath);
	return rc == 0 ? WATCH_IMPORTED : rc == PC_EEXISTS ? WATCH_DUPLICATE :
	       rc == PC_EDB ? WATCH_RETRY : WATCH_FAILED;
}

static void handle(struct watch *w, const struct seen *s)
{
	struct strbuf msg = STRBUF_INIT;
	enum watch_event ev;
	int rc = 0;

	if (!s->have_data) {
		int k = recover(w, s->name);

		if (k >= 0) {
			w->log(w->ctx, k ? WATCH_FAILED : WATCH_IMPORTED,
			       s->name, "finished an interrupted move");
			return;
		}
		ev = WATCH_FAILED;
		strbuf_addf(&msg, "data file '%s' is missing (write the data "
			    "file before its manifest)", s->name);
	} else if (s->have_data == 2) {
		ev = WATCH_FAILED;
		strbuf_addf(&msg, "'%s' is not a regular file", s->name);
	} else {
		ev = import_one(w, s->name, &msg);
	}
	if (ev == WATCH_IMPORTED || ev == WATCH_DUPLICATE)
		rc = move_pair(w, w->imported, s->name, NULL);
	else if (ev == WATCH_FAILED)
		rc = move_pair(w, w->failed, s->name, strbuf_str(&msg));
	if (rc < 0) {
		strbuf_addf(&msg, "; %s", pc_error_last());
		ev = WATCH_RETRY;
	}
	w->log(w->ctx, ev, s->name, strbuf_str(&msg));
	strbuf_release(&msg);
}

static long long mtime_ns(const struct stat *sb)
{
	return (long long)sb->st_mtim.tv_sec * 1000000000LL +
	       sb->st_mtim.tv_nsec;
}

/* Fill s for manifest entry mname; 0 when it is a delivery to consider. */
static int observe(struct watch *w, const char *mname, struct seen *s)
{
	size_t n = strlen(mname), k = strlen(WATCH_SUFFIX);
	struct stat sb;
	char *path;
	int rc;

	if (n <= k || mname[0] == '.' || strcmp(mname + n - k, WATCH_SUFFIX))
		return -1;
	path = xasprintf("%s/%s", w->dir, mname);
	rc = stat(path, &sb);
	free(path);
	if (rc != 0 || !S_ISREG(sb.st_mode))
		return -1;
	memset(s, 0, sizeof(*s));
	s->name = xstrndup(mname, n - k);
	s->msize = sb.st_size;
	s->mmtime = mtime_ns(&sb);
	path = xasprintf("%s/%s", w->dir, s->name);
	if (stat(path, &sb) == 0) {
		/* 2: a FIFO or device would block or never end: refuse it */
		s->have_data = S_ISREG(sb.st_mode) ? 1 : 2;
		s->dsize = sb.st_size;
		s->dmtime = mtime_ns(&sb);
	}
	free(path);
	return 0;
}

static int stable(const struct watch *w, const struct seen *s)
{
	for (size_t i = 0; i < w->nprev; i++) {
		const struct seen *p = &w->prev[i];

		if (!strcmp(p->name, s->name))
			return p->have_data == s->have_data &&
			       p->dsize == s->dsize && p->msize == s->msize &&
			       p->dmtime == s->dmtime && p->mmtime == s->mmtime;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct seen *)a)->name,
		      ((const struct seen *)b)->name);
}

int watch_scan(struct watch *w, const volatile sig_atomic_t *stop)
{
	DIR *d = opendir(w->dir);
	struct dirent *e;
	struct seen *cur = NULL;
	size_t n = 0, cap = 0;
	int handled = 0;

	if (!d)
		return pc_error_set(PC_EIO, "cannot read '%s': %s", w->dir,
				    strerror(errno));
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
		if (!stable(w, &cur[i]))
			continue;
		handle(w, &cur[i]);
		handled++;
		/* handled: forget it, so a re-delivery is observed afresh */
		cur[i].have_data = -1;
	}
	seen_free(w->prev, w->nprev);
	w->prev = cur;
	w->nprev = n;
	return handled;
}
