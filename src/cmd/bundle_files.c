/* perfcorr bundle: input files by their sha256 (see bundle.h). */
#include "src/cmd/bundle.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/sha256.h"
#include "base/util.h"
#include "src/import/import.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int walk(struct bundle_finder *b, const char *dir, int depth)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (depth > 16)
		return 0;
	if (!(d = opendir(dir)))
		return pc_error_set(PC_EIO, "--inputs '%s': %s", dir,
				    strerror(errno));
	while (!rc && (e = readdir(d))) {
		struct stat st;
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) < 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			/* the bundle being written is no input */
			if (st.st_dev != b->out_dev || st.st_ino != b->out_ino)
				rc = walk(b, p, depth + 1);
			free(p);
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		b->f = xrealloc(b->f, (b->n + 1) * sizeof(*b->f));
		memset(&b->f[b->n], 0, sizeof(*b->f));
		b->f[b->n].path = p;
		if ((rc = import_file_sha256(p, NULL, b->f[b->n].hex)) < 0)
			free(p);
		else
			b->n++;
	}
	closedir(d);
	return rc;
}

int bundle_find_init(struct bundle_finder *b, const char *const *dirs,
		     const char *out)
{
	int rc = 0;

	struct stat st;

	memset(b, 0, sizeof(*b));
	b->out = xstrdup(out);
	if (stat(out, &st) == 0) {
		b->out_dev = st.st_dev;
		b->out_ino = st.st_ino;
	}
	for (size_t i = 0; dirs && dirs[i] && !rc; i++) {
		char *d = xstrdup(dirs[i]);
		size_t len = strlen(d);

		while (len > 1 && d[len - 1] == '/')
			d[--len] = '\0';
		rc = walk(b, d, 0);
		free(d);
	}
	if (rc < 0)
		bundle_find_release(b);
	return rc;
}

void bundle_find_release(struct bundle_finder *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->f[i].path);
		free(b->f[i].name);
	}
	free(b->f);
	free(b->out);
	memset(b, 0, sizeof(*b));
}

struct bundle_file *bundle_find(struct bundle_finder *b, const char *hex)
{
	for (size_t i = 0; hex && i < b->n; i++)
		if (!strcmp(b->f[i].hex, hex))
			return &b->f[i];
	return NULL;
}

static int hash_two(const char *a, const char *c, char hex[65])
{
	const char *paths[2] = { a, c };
	struct sha256 s;
	char buf[65536];
	size_t n;

	sha256_init(&s);
	for (int i = 0; i < 2; i++) {
		FILE *fp = fopen(paths[i], "rb");

		if (!fp)
			return -1;
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
			sha256_update(&s, buf, n);
		fclose(fp);
	}
	sha256_final_hex(&s, hex);
	return 0;
}

struct bundle_file *bundle_find_pair(struct bundle_finder *b,
				     const struct bundle_file *spec,
				     const char *name, const char *hex)
{
	char h[65];

	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(base_name(b->f[i].path), name) &&
		    !hash_two(spec->path, b->f[i].path, h) && !strcmp(h, hex))
			return &b->f[i];
	return NULL;
}

int bundle_copy(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out;
	char buf[65536];
	size_t n;
	int rc = 0;

	if (!in)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", src,
				    strerror(errno));
	if (!(out = fopen(dst, "wb"))) {
		fclose(in);
		return pc_error_set(PC_EIO, "cannot write '%s': %s", dst,
				    strerror(errno));
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (ferror(in) || fclose(out) != 0 || rc)
		rc = pc_error_set(PC_EIO, "cannot copy '%s' to '%s'", src, dst);
	fclose(in);
	return rc;
}

int bundle_place(struct bundle_finder *b, struct bundle_file *f)
{
	const char *name = base_name(f->path);
	char *dst;
	int taken = 0, rc;

	if (f->name)
		return 0;
	for (size_t i = 0; i < b->n; i++)
		taken |= b->f[i].name && !strcmp(b->f[i].name, name);
	f->name = taken ? xasprintf("%zu-%s", (size_t)(f - b->f) + 1, name) :
		  xstrdup(name);
	dst = xasprintf("%s/inputs/%s", b->out, f->name);
	rc = bundle_copy(f->path, dst);
	free(dst);
	return rc;
}
