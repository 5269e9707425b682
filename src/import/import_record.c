/* What an import's command line said beyond its identity, recorded in the
 * run's metadata so that perfcorr bundle can repeat the exact command
 * (import.h, import_record_cli). */
#include "src/import/import.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "db/writer.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int import_file_sha256(const char *path, const char *what, char hex[65])
{
	struct sha256 s;
	char buf[65536];
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open %s%s'%s': %s",
				    what ? what : "", what ? " " : "", path,
				    strerror(errno));
	sha256_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sha256_update(&s, buf, n);
	if (ferror(fp)) {
		fclose(fp);
		return pc_error_set(PC_EIO, "cannot read '%s'", path);
	}
	fclose(fp);
	sha256_final_hex(&s, hex);
	return 0;
}

/* "import.KEY" = the file's base name, "import.KEY_sha256" its hash. */
static int file_meta(struct db_writer *w, const char *key, const char *path)
{
	char k[64], hex[65];
	int rc;

	if ((rc = import_file_sha256(path, key, hex)) < 0)
		return rc;
	snprintf(k, sizeof(k), "import.%s", key);
	if ((rc = db_writer_meta(w, k, base_name(path))) < 0)
		return rc;
	snprintf(k, sizeof(k), "import.%s_sha256", key);
	return db_writer_meta(w, k, hex);
}

int import_record_cli(struct db_writer *w, const struct import_opts *o)
{
	struct strbuf opts = STRBUF_INIT, meta = STRBUF_INIT;
	int rc = 0;

	if (o->map_path)
		rc = file_meta(w, "map", o->map_path);
	if (!rc && o->strict_map)
		rc = db_writer_meta(w, "import.strict_map", "1");
	for (const char *const *p = o->opts; !rc && p && *p; p++) {
		/* options naming a file: its name and hash, else k=v */
		if (!strncmp(*p, "topology=", 9))
			rc = file_meta(w, "topology", *p + 9);
		else if (!strncmp(*p, "rules=", 6))
			rc = file_meta(w, "rules", *p + 6);
		else
			strbuf_addf(&opts, "%s%s", opts.len ? "\n" : "", *p);
	}
	for (const char *const *p = o->meta; p && *p; p++)
		strbuf_addf(&meta, "%s%s", meta.len ? "\n" : "", *p);
	if (!rc && opts.len)
		rc = db_writer_meta(w, "import.opt", opts.buf);
	if (!rc && meta.len)
		rc = db_writer_meta(w, "import.meta", meta.buf);
	strbuf_release(&opts);
	strbuf_release(&meta);
	return rc;
}
