/* The drop-directory ingester (see watch.h, watch_int.h, docs/service.md). */
#include "src/watch/watch_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/import/import.h"

#define MAX_MANIFEST (1u << 20)

/* importer options that name a file (importers/imp_regex_log.c,
 * imp_scalesim.c): resolved like "map" */
static const char *const path_opts[] = { "rules", "topology", NULL };

/* One delivery being handled. */
struct delivery {
	const char *name;
	struct strbuf msg;
	char *mtext;		/* the manifest as read */
	size_t mlen;
	struct stat msb;	/* the manifest as opened (mread) */
	char msha[65];		/* the sha256 of mtext */
	int mread;
	struct stat dsb;	/* the data file as opened (staged) */
	char *stage;		/* its private copy in imported/, or NULL */
	FILE *sfp;
	long long size;		/* of the copy */
	char sha[65];
	int last;		/* its last byte, -1 when empty */
	int tries;		/* waits and retries so far (struct seen) */
	int fds[8];		/* files a manifest names, open */
	size_t nfds;
	struct strbuf names;	/* "/proc/self/fd/N\tmanifest path\n" ... */
};

void watch_seen_free(struct seen *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

int watch_new(struct watch **out, struct db *db, const char *dir,
	      const char *const *allow,
	      void (*log)(void *ctx, enum watch_event ev, const char *name,
			  const char *text),
	      void *ctx)
{
	struct watch *w = xcalloc(1, sizeof(*w));
	int rc;

	w->db = db;
	w->dir = xstrdup(dir);
	w->log = log;
	w->ctx = ctx;
	if ((rc = wfs_open(w, allow)) < 0) {
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
	wfs_close(w);
	watch_seen_free(w->prev, w->nprev);
	free(w->dir);
	free(w);
}

/* A manifest whose data file is gone: an earlier watcher archived the
 * data and was killed before the manifest. Finish that move. */
static int recover(struct watch *w, const char *name)
{
	const int dests[2] = { w->ifd, w->ffd };
	char *src = xasprintf("%s" WATCH_SUFFIX, name);
	int found = -1;

	for (int k = 0; k < 2 && found < 0; k++) {
		for (int i = 1; i < 10000; i++) {
			char *base = i == 1 ? xstrdup(name) :
				     xasprintf("%s~%d", name, i);
			char *m = xasprintf("%s" WATCH_SUFFIX, base);
			int have_d = wfs_exists(dests[k], base);

			if (have_d && !wfs_exists(dests[k], m) &&
			    renameat(w->dfd, src, dests[k], m) == 0)
				found = k;
			free(base);
			free(m);
			if (found >= 0 || !have_d)
				break;
		}
	}
	free(src);
	return found;
}

static int read_manifest(struct watch *w, struct delivery *d)
{
	struct sha256 h;
	char *mname = xasprintf("%s" WATCH_SUFFIX, d->name);
	ssize_t k;
	size_t n = 0;
	int fd, rc;

	rc = wfs_open_file(w->dfd, mname, &fd, &d->msb);
	free(mname);
	if (rc < 0)
		return rc;
	d->mread = 1;
	d->mtext = xmalloc(MAX_MANIFEST + 1);
	while (n <= MAX_MANIFEST &&
	       (k = read(fd, d->mtext + n, MAX_MANIFEST + 1 - n)) > 0)
		n += (size_t)k;
	close(fd);
	if (n > MAX_MANIFEST)
		return pc_error_set(PC_EINVALID, "manifest larger than 1 MiB");
	d->mtext[n] = '\0';
	d->mlen = n;
	sha256_init(&h);
	sha256_update(&h, d->mtext, n);
	sha256_final_hex(&h, d->msha);
	return 0;
}

/* Copy the data file into imported/ (a private folder): what is imported
 * and archived is this copy, whatever happens to the original. 1 when
 * the original changed during the copy (still being written). */
static int stage(struct watch *w, struct delivery *d)
{
	struct sha256 h;
	struct stat after;
	char buf[65536];
	int fd, sfd, rc = 0;
	ssize_t k;

	if ((rc = wfs_open_file(w->dfd, d->name, &fd, &d->dsb)) < 0)
		return rc;
	d->stage = xasprintf(WATCH_STAGE "%ld.%lu", (long)getpid(),
			     ++w->nstage);
	if ((sfd = wfs_create(w->ifd, d->stage)) < 0) {
		close(fd);
		return WATCH_ERETRY;
	}
	sha256_init(&h);
	d->size = 0;
	d->last = -1;
	while (rc == 0 && (k = read(fd, buf, sizeof(buf))) > 0) {
		sha256_update(&h, buf, (size_t)k);
		d->size += k;
		d->last = (unsigned char)buf[k - 1];
		for (ssize_t off = 0, m; rc == 0 && off < k; off += m)
			if ((m = write(sfd, buf + off, (size_t)(k - off))) <= 0)
				rc = pc_error_set(WATCH_ERETRY, "staging a copy "
					"in '%s/imported': %s", w->dir,
					errno == ENOSPC ? "the disk is full" :
					strerror(errno));
	}
	if (rc == 0 && k < 0)
		rc = pc_error_set(PC_EIO, "reading '%s': %s", d->name,
				  strerror(errno));
	sha256_final_hex(&h, d->sha);
	if (rc == 0 && (fstat(fd, &after) != 0 || after.st_size != d->size ||
			!wfs_stat_same(&after, &d->dsb)))
		rc = 1;
	close(fd);
	if (rc == 0 && lseek(sfd, 0, SEEK_SET) != 0)
		rc = pc_error_set(PC_EIO, "staged copy: %s", strerror(errno));
	if (rc == 0 && !(d->sfp = fdopen(sfd, "rb")))
		rc = pc_error_set(PC_EIO, "staged copy: %s", strerror(errno));
	if (!d->sfp)
		close(sfd);
	return rc;
}

/* Open what the manifest names (map, path options) inside DIR or an
 * --allow folder; the importer reads them through /proc/self/fd. */
static int open_named(struct watch *w, struct delivery *d, const char *path,
		      char **out)
{
	int fd, rc;

	if (d->nfds == sizeof(d->fds) / sizeof(d->fds[0]))
		return pc_error_set(PC_EINVALID, "too many files named");
	if ((rc = wfs_open_named(w, path, &fd)) < 0)
		return rc;
	d->fds[d->nfds++] = fd;
	*out = xasprintf("/proc/self/fd/%d", fd);
	strbuf_addf(&d->names, "%s\t%s\n", *out, path);
	return 0;
}

/* The importer's message with /proc/self/fd/N put back to the name the
 * manifest gave. */
static void add_error(struct delivery *d, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = d->names.len ? d->names.buf : "";

	strbuf_addstr(&sb, text);
	while (*p) {
		const char *tab = strchr(p, '\t'), *nl = strchr(tab, '\n');
		char *fdp = xstrndup(p, (size_t)(tab - p));
		char *name = xstrndup(tab + 1, (size_t)(nl - tab - 1));
		char *at;

		while ((at = strstr(sb.buf, fdp))) {
			struct strbuf t = STRBUF_INIT;

			strbuf_add(&t, sb.buf, (size_t)(at - sb.buf));
			strbuf_addstr(&t, name);
			strbuf_addstr(&t, at + strlen(fdp));
			strbuf_release(&sb);
			sb = t;
		}
		free(fdp);
		free(name);
		p = nl + 1;
	}
	strbuf_addstr(&d->msg, sb.buf);
	strbuf_release(&sb);
}

/* Complete by the manifest's size/sha256, else by a final newline. */
static enum watch_event complete(const struct watch_manifest *m,
				 struct delivery *d)
{
	if (m->size >= 0 && d->size < m->size) {
		strbuf_addf(&d->msg, "waiting: %lld of %lld bytes (manifest "
			    "'size')", d->size, m->size);
		return WATCH_WAITING;
	}
	if (m->size >= 0 && d->size > m->size) {
		pc_error_set(PC_EINVALID, "%s: %lld bytes, the manifest says "
			     "%lld", d->name, d->size, m->size);
		return WATCH_FAILED;
	}
	if (m->sha256 && strcmp(m->sha256, d->sha)) {
		if (m->size >= 0) {
			pc_error_set(PC_EINVALID, "%s: sha256 %s, the manifest "
				     "says %s", d->name, d->sha, m->sha256);
			return WATCH_FAILED;
		}
		strbuf_addf(&d->msg, "waiting: sha256 does not match the "
			    "manifest's yet");
		return WATCH_WAITING;
	}
	if (m->size < 0 && !m->sha256 && d->last != '\n' && d->last != '}' &&
	    d->last != ']') {
		/* unchanged through every wait (about 150 scans): a file
		 * that simply ends without one, not a sender mid-line */
		if (d->tries >= MAX_TRIES - 1)
			return WATCH_IMPORTED;
		strbuf_addstr(&d->msg, "waiting: the last line has no newline "
			      "yet (a manifest with \"size\" or \"sha256\" "
			      "imports such a file at once)");
		return WATCH_WAITING;
	}
	return WATCH_IMPORTED;
}

/* complete() before any copy, on the file in place: one shorter than
 * the manifest's size, one without its final newline yet or (sha256
 * without size) whose hash does not match yet waits without being
 * copied, so a waiting file costs a stat, not a copy, per retry. 1:
 * waiting (d->msg says why); 0: copy it (the copy decides for good). */
static int precheck(struct watch *w, struct delivery *d,
		    const struct watch_manifest *m)
{
	struct stat sb;
	unsigned char c;
	int fd, rc;

	if ((rc = wfs_open_file(w->dfd, d->name, &fd, &sb)) < 0)
		return rc;
	d->size = sb.st_size;
	d->last = d->size > 0 && pread(fd, &c, 1, d->size - 1) == 1 ? c : -1;
	if (m->sha256 && m->size < 0) {
		struct sha256 h;
		char buf[65536];
		ssize_t k;

		sha256_init(&h);
		while ((k = read(fd, buf, sizeof(buf))) > 0)
			sha256_update(&h, buf, (size_t)k);
		sha256_final_hex(&h, d->sha);
	} else if (m->sha256) {
		/* the size decides here; the copy's hash is checked after */
		snprintf(d->sha, sizeof(d->sha), "%s", m->sha256);
	}
	close(fd);
	if (complete(m, d) == WATCH_WAITING)
		return 1;
	strbuf_reset(&d->msg);
	return 0;
}

/* A pause after the import's commit, before the files move (tests of a
 * delivery rewritten mid-import: tests/service/watch_redeliver.sh). */
static void test_pause(void)
{
	const char *ms = getenv("PERFCORR_TEST_WATCH_PAUSE_MS");
	long n = ms ? atol(ms) : 0;
	struct timespec ts = { n / 1000, (n % 1000) * 1000000L };

	if (n > 0)
		nanosleep(&ts, NULL);
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

static enum watch_event event_of(int rc)
{
	return rc == 0 ? WATCH_IMPORTED : rc == PC_EEXISTS ? WATCH_DUPLICATE :
	       rc == WATCH_ERETRY ? WATCH_RETRY : WATCH_FAILED;
}

/* Import one stable delivery whose data file is a regular file. */
static enum watch_event import_one(struct watch *w, struct delivery *d)
{
	struct watch_manifest m;
	struct import_opts io;
	struct import_result res;
	char *map = NULL, **opts = NULL, *dpath, *mpath;
	enum watch_event ev;
	size_t nopts = 0;
	int rc;

	memset(&m, 0, sizeof(m));
	if ((rc = read_manifest(w, d)) < 0)
		goto done;
	mpath = xasprintf("%s/%s" WATCH_SUFFIX, w->dir, d->name);
	rc = watch_manifest_parse(&m, d->mtext, d->mlen, mpath);
	free(mpath);
	if (rc < 0 || (rc = precheck(w, d, &m)) < 0)
		goto done;
	if (rc == 1) {
		watch_manifest_release(&m);
		return WATCH_WAITING;
	}
	if ((rc = stage(w, d)) == 1) {
		strbuf_addstr(&d->msg, "waiting: the file changed while it was "
			      "read");
		watch_manifest_release(&m);
		return WATCH_WAITING;
	}
	if (rc < 0)
		goto done;
	if ((ev = complete(&m, d)) != WATCH_IMPORTED) {
		rc = ev == WATCH_FAILED ? PC_EINVALID : 0;
		watch_manifest_release(&m);
		if (rc < 0)
			goto done;
		return ev;
	}
	memset(&io, 0, sizeof(io));
	if (m.map && (rc = open_named(w, d, m.map, &map)) < 0)
		goto done;
	for (char **o = m.opts; o && *o; o++) {
		const char *eq = strchr(*o, '=');
		char *fdp = NULL;

		opts = xrealloc(opts, (nopts + 2) * sizeof(*opts));
		opts[nopts] = NULL;
		for (const char *const *p = path_opts; *p; p++)
			if (strlen(*p) == (size_t)(eq - *o) &&
			    !strncmp(*p, *o, (size_t)(eq - *o))) {
				if ((rc = open_named(w, d, eq + 1, &fdp)) < 0)
					goto done;
				opts[nopts] = xasprintf("%s=%s", *p, fdp);
				free(fdp);
			}
		if (!opts[nopts])
			opts[nopts] = xstrdup(*o);
		opts[++nopts] = NULL;
	}
	io.source = m.source;
	io.kind = m.kind;
	io.version = m.version;
	io.format = m.format;
	io.platform = m.platform;
	io.clock_hz = m.clock_hz;
	io.workload = m.workload;
	io.params = (const char *const *)m.params;
	io.opts = (const char *const *)opts;
	io.map_path = map;
	io.in = d->sfp;
	dpath = xasprintf("%s/%s", w->dir, d->name);
	rc = import_file(w->db, dpath, &io, &res);
	free(dpath);
	if (rc == 0)
		summary(&d->msg, &res);
	test_pause();
done:
	if (rc < 0)
		add_error(d, pc_error_last());
	for (size_t i = 0; i < nopts; i++)
		free(opts[i]);
	free(opts);
	free(map);
	watch_manifest_release(&m);
	return event_of(rc);
}

/* Move the delivery into dest: the staged copy is the archived data;
 * the original goes, and the manifest moves, only when both are still
 * the files read: the same inode, size, mtime, ctime and sha256. A
 * delivery rewritten in place while it was imported (cp, >) stays, both
 * files, for the next scan: the archive gets the bytes read (the copy,
 * the manifest's text), so it holds exactly the run it names.
 * For failed/, the message goes to NAME.error first. */
static int archive(struct watch *w, struct delivery *d, int dest,
		   const char *error)
{
	char *mname = xasprintf("%s" WATCH_SUFFIX, d->name);
	char *base = wfs_free_name(dest, d->name), *dm = NULL;
	struct stat sb;
	int rc = 0, keep = 0;

	if (!base) {
		free(mname);
		return PC_EIO;
	}
	dm = xasprintf("%s" WATCH_SUFFIX, base);
	if (d->stage)
		keep = !wfs_unchanged(w->dfd, d->name, &d->dsb, d->sha) ||
		       (d->mread &&
			!wfs_unchanged(w->dfd, mname, &d->msb, d->msha));
	if (error) {
		char *e = xasprintf("%s.error", base);
		char *text = util_safe_dup(error);
		size_t n = strlen(text);

		/* escaped like the log line: the input's bytes may be hostile */
		text = xrealloc(text, n + 2);
		memcpy(text + n, "\n", 2);
		rc = wfs_write(dest, e, text, n + 1);
		free(e);
		free(text);
	}
	if (!rc && d->stage) {
		if (renameat(w->ifd, d->stage, dest, base) != 0)
			rc = pc_error_set(PC_EIO, "cannot archive '%s': %s",
					  d->name, strerror(errno));
		else if (!keep)
			unlinkat(w->dfd, d->name, 0);
		else
			strbuf_addf(&d->msg, " ('%s' or its manifest was "
				    "rewritten while it was imported: the "
				    "bytes imported are archived, the new "
				    "delivery stays for the next scan)",
				    d->name);
		free(d->stage);
		d->stage = NULL;
	} else if (!rc && fstatat(w->dfd, d->name, &sb, AT_SYMLINK_NOFOLLOW)
		   == 0 && !S_ISDIR(sb.st_mode)) {
		/* a link, FIFO or a file never staged: the entry itself
		 * moves (nothing is followed); a folder never moves */
		if (renameat(w->dfd, d->name, dest, base) != 0)
			rc = pc_error_set(PC_EIO, "cannot archive '%s': %s",
					  d->name, strerror(errno));
	}
	if (!rc && !keep && (!d->mread ||
			     wfs_unchanged(w->dfd, mname, &d->msb, d->msha))) {
		if (renameat(w->dfd, mname, dest, dm) != 0)
			rc = pc_error_set(PC_EIO, "cannot archive '%s': %s",
					  mname, strerror(errno));
		else if (d->mread && !wfs_unchanged(dest, dm, NULL, d->msha))
			/* written in the instant between the look and the
			 * move: the archive keeps the text read */
			rc = wfs_write(dest, dm, d->mtext, d->mlen);
	} else if (!rc && d->mread) {
		rc = wfs_write(dest, dm, d->mtext, d->mlen);
	}
	free(mname);
	free(base);
	free(dm);
	return rc;
}

enum watch_event watch_handle(struct watch *w, const struct seen *s,
			      struct strbuf *msg)
{
	struct delivery d;
	enum watch_event ev;
	int rc = 0;

	memset(&d, 0, sizeof(d));
	d.name = s->name;
	d.tries = s->tries;
	strbuf_init(&d.msg);
	strbuf_init(&d.names);
	if (!s->have_data && !s->mlink) {
		int k = recover(w, s->name);

		if (k >= 0) {
			strbuf_addstr(msg, "finished an interrupted move");
			strbuf_release(&d.msg);
			strbuf_release(&d.names);
			return k ? WATCH_FAILED : WATCH_IMPORTED;
		}
		ev = WATCH_FAILED;
		strbuf_addf(&d.msg, "data file '%s' is missing (write the data "
			    "file before its manifest)", s->name);
	} else if (s->mlink) {
		ev = WATCH_FAILED;
		strbuf_addf(&d.msg, "'%s" WATCH_SUFFIX "' is a symbolic link: "
			    "refused", s->name);
	} else if (s->have_data == 2) {
		/* never moved: it may be a folder (even imported/) */
		ev = WATCH_FAILED;
		struct stat sb;
		int dir = fstatat(w->dfd, s->name, &sb, AT_SYMLINK_NOFOLLOW)
			  == 0 && S_ISDIR(sb.st_mode);

		strbuf_addf(&d.msg, "'%s' is not a regular file (%s): "
			    "refused%s", s->name, dir ? "a folder" :
			    "a symbolic link, FIFO or device", dir ?
			    ", left in place" : "");
	} else {
		ev = import_one(w, &d);
	}
	if (ev == WATCH_IMPORTED || ev == WATCH_DUPLICATE)
		rc = archive(w, &d, w->ifd, NULL);
	else if (ev == WATCH_FAILED)
		rc = archive(w, &d, w->ffd, d.msg.len ? d.msg.buf : "failed");
	if (rc < 0) {
		strbuf_addf(&d.msg, "; %s", pc_error_last());
		ev = WATCH_RETRY;
	}
	strbuf_addstr(msg, d.msg.len ? d.msg.buf : "");
	if (d.sfp)
		fclose(d.sfp);
	if (d.stage)
		unlinkat(w->ifd, d.stage, 0);
	for (size_t i = 0; i < d.nfds; i++)
		close(d.fds[i]);
	free(d.stage);
	free(d.mtext);
	strbuf_release(&d.msg);
	strbuf_release(&d.names);
	return ev;
}
