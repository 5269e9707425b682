/* Import glue: importer records -> db_writer (see import.h). */
#include "src/import/import.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/derive.h"
#include "db/writer.h"
#include "db/wkey.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/fingerprint.h"
#include "base/hmap.h"
#include "src/import/kmap.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/util.h"

#define HEAD_BYTES 8192
/* Workloads remembered by their record text (see glue_emit): a sweep
 * brings a new key every few rows, so the cache is bounded and starts
 * over when full (memory flat in the file's size; the size and why:
 * db/writer.c CACHE_MAX). */
#define WL_CACHE_MAX 4096

struct wl_entry {
	int64_t id;
	char *key;		/* canonical key text, for messages */
};

struct glue {
	const struct import_opts *o;
	struct import_result *res;
	struct db_writer *w;
	const char *path;
	FILE *fp;
	long long size;
	struct kmap *map;
	struct hmap unmapped;
	struct wkey base;		/* from --workload/--param and the file */
	struct wkey cur;		/* per record, when it adds anything */
	struct strbuf cur_sig;		/* what cur was built from */
	struct strbuf sig;		/* scratch: the current record's */
	int cur_valid;
	/* record signature -> workload id and key, so a repeated key is
	 * never canonicalised again; valid while base does not change */
	struct hmap wl_idx;
	struct wl_entry *wl;
	size_t nwl, capwl;
};

static void wl_cache_clear(struct glue *g)
{
	for (size_t i = 0; i < g->nwl; i++)
		free(g->wl[i].key);
	g->nwl = 0;
	hmap_release(&g->wl_idx);
	hmap_init(&g->wl_idx);
}

static void wl_cache_put(struct glue *g, const char *sig, int64_t id,
			 const char *key)
{
	if (g->nwl == WL_CACHE_MAX)
		wl_cache_clear(g);
	g->wl = xgrow(g->wl, &g->capwl, g->nwl, sizeof(*g->wl));
	g->wl[g->nwl].id = id;
	g->wl[g->nwl].key = xstrdup(key);
	hmap_put(&g->wl_idx, sig, (int64_t)g->nwl++);
}

static void glue_warn(struct imp_sink *s, const char *fmt, ...)
{
	struct glue *g = s->ctx;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	g->res->warnings++;
	if (g->o->warn)
		g->o->warn(g->o->ctx, msg);
}

/* A fingerprint member "fp.FIELD" = value, checked and canonical, into
 * buf; PC_EINVALID naming the field (where names who said it). */
static int fp_meta(const char *key, const char *value, const char *where,
		   char *buf, size_t size)
{
	const struct fp_field *f = fp_field_find(key);
	const char *expect;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (!f) {
		for (size_t i = 0; i < fp_nfields; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "",
				    fp_fields[i].name);
		rc = pc_error_set(PC_EINVALID, "%s: unknown fingerprint field "
				  "'%s' (known: %s)", where, key + 3,
				  strbuf_str(&sb));
		strbuf_release(&sb);
		return rc;
	}
	if (fp_value_ok(f, value, &expect) < 0)
		return pc_error_set(PC_EINVALID, "%s: fingerprint field '%s': "
				    "'%s' is not %s", where, f->name, value,
				    expect);
	fp_canon(f, value, buf, size);
	return 0;
}

/* 1 when --meta states key (it wins over the file's value) */
static int cli_meta_has(const struct import_opts *o, const char *key)
{
	size_t n = strlen(key);

	for (const char *const *p = o->meta; p && *p; p++)
		if (!strncmp(*p, key, n) && (*p)[n] == '=')
			return 1;
	return 0;
}

/* Store the --meta entries (before the file's metadata). */
static int apply_cli_meta(struct glue *g)
{
	for (const char *const *p = g->o->meta; p && *p; p++) {
		const char *eq = strchr(*p, '=');
		char key[128], buf[256];
		const char *v;
		int rc;

		if (!eq || eq == *p || (size_t)(eq - *p) >= sizeof(key))
			return pc_error_set(PC_EUSAGE, "--meta '%s': expected "
					    "KEY=VALUE", *p);
		memcpy(key, *p, (size_t)(eq - *p));
		key[eq - *p] = '\0';
		v = eq + 1;
		if (!strncmp(key, "fp.", 3)) {
			if ((rc = fp_meta(key, v, "--meta", buf,
					  sizeof(buf))) < 0)
				return PC_EUSAGE;
			v = buf;
		}
		if ((rc = db_writer_meta(g->w, key, v)) < 0)
			return rc;
	}
	return 0;
}

static int glue_meta(struct imp_sink *s, const char *key, const char *value)
{
	struct glue *g = s->ctx;
	char buf[256];
	int rc;

	if (!strncmp(key, "fp.", 3)) {
		if (cli_meta_has(g->o, key))
			return 0;
		if (fp_meta(key, value, g->path, buf, sizeof(buf)) < 0)
			return PC_EINVALID;
		return db_writer_meta(g->w, key, buf) < 0 ? PC_EINVALID : 0;
	}
	if (!strcmp(key, "workload"))
		rc = wkey_parse(&g->base, value);
	else if (!strcmp(key, "default.name") && g->base.name)
		return db_writer_meta(g->w, "model", value) < 0 ?
		       (pc_error_prefix("%s", g->path), PC_EINVALID) : 0;
	else if (!strcmp(key, "default.name"))
		rc = wkey_set(&g->base, "name", value);
	else if (!strncmp(key, "param.", 6))
		rc = wkey_set(&g->base, key + 6, value);
	else {
		rc = db_writer_meta(g->w, key, value);
		if (rc == 1)	/* a note (the file's clock kept) */
			glue_warn(s, "note: %s: %s", g->path,
				  db_writer_note(g->w));
		return rc < 0 ? (pc_error_prefix("%s", g->path), PC_EINVALID) :
		       0;
	}
	g->cur_valid = 0;
	wl_cache_clear(g);
	if (rc < 0)
		pc_error_prefix("%s", g->path);
	return rc;
}

/* The signature of what r adds to the run's workload, into sb (a
 * workload text, even an empty one, starts with \x1e). */
static void record_sig(struct strbuf *sb, const struct imp_record *r)
{
	strbuf_reset(sb);
	if (r->workload) {
		strbuf_addch(sb, '\x1e');
		strbuf_addstr(sb, r->workload);
	}
	for (size_t i = 0; i < r->nparams; i++) {
		strbuf_addch(sb, '\x1f');
		strbuf_addstr(sb, r->params[i].name);
		strbuf_addch(sb, '=');
		strbuf_addstr(sb, r->params[i].value);
	}
}

/* The workload of r: the run's, plus what the record adds. Consecutive
 * records usually add the same: then cur is reused as it is. g->sig
 * holds r's signature (record_sig). */
static int record_wkey(struct glue *g, const struct imp_record *r,
		       const struct wkey **out)
{
	int rc = 0;

	if (!r->workload && !r->nparams) {
		*out = &g->base;
		return 0;
	}
	if (g->cur_valid && !strcmp(strbuf_str(&g->sig), strbuf_str(&g->cur_sig))) {
		*out = &g->cur;
		return 0;
	}
	wkey_copy(&g->cur, &g->base);
	if (r->workload)
		rc = wkey_parse(&g->cur, r->workload);
	for (size_t i = 0; !rc && i < r->nparams; i++)
		rc = wkey_set(&g->cur, r->params[i].name, r->params[i].value);
	strbuf_reset(&g->cur_sig);
	strbuf_add(&g->cur_sig, strbuf_str(&g->sig), g->sig.len);
	g->cur_valid = rc == 0;
	*out = &g->cur;
	return rc;
}

static void error_at(const char *path, long line)
{
	if (line > 0)
		pc_error_prefix("%s:%ld", path, line);
	else
		pc_error_prefix("%s", path);
}

static int glue_emit(struct imp_sink *s, const struct imp_record *r)
{
	struct glue *g = s->ctx;
	struct db_result_in in;
	const char *op = r->op;
	int rc, merge = (r->flags & IMP_MERGE) != 0;
	int64_t idx;
	long line;

	memset(&in, 0, sizeof(in));
	/* a workload text seen before (with the same run workload) is the
	 * same workload: its id, without parsing and formatting it again */
	record_sig(&g->sig, r);
	if (hmap_get(&g->wl_idx, strbuf_str(&g->sig), &idx)) {
		in.workload_id = g->wl[idx].id;
		in.workload_key = g->wl[idx].key;
	} else if ((rc = record_wkey(g, r, &in.workload)) < 0) {
		goto fail;
	}
	if (!op || !*op) {
		if (!r->raw_name || !*r->raw_name) {
			rc = pc_error_set(PC_EINVALID, "record has neither an op "
					  "nor a raw name");
			goto fail;
		}
		op = kmap_lookup_stage(g->map, r->raw_name, &in.stage);
		if (!op) {
			int64_t dummy;

			if (g->o->strict_map) {
				rc = pc_error_set(PC_EINVALID, "no mapping rule "
					"matches kernel '%s'", r->raw_name);
				pc_error_cause(PC_CAUSE_STRICT_MAP);
				goto fail;
			}
			if (!hmap_get(&g->unmapped, r->raw_name, &dummy))
				hmap_put(&g->unmapped, r->raw_name, 1);
			op = r->raw_name;
		}
		merge = 1;
	}
	in.op = op;
	in.raw_name = r->raw_name;
	in.metric = r->metric;
	in.value = r->value;
	in.unit = r->unit;
	in.n = r->n;
	in.mean = r->mean;
	in.median = r->median;
	in.min = r->min;
	in.max = r->max;
	in.stddev = r->stddev;
	in.total = r->total;
	in.flags = (r->flags & IMP_INVALID ? DB_RES_INVALID : 0) |
		   (r->flags & IMP_SKIPPED ? DB_RES_SKIPPED : 0) |
		   (r->flags & IMP_DERIVED ? DB_RES_DERIVED : 0) |
		   (r->flags & IMP_CAPPED ? DB_RES_CAPPED : 0);
	in.raw_unit = r->raw_unit;
	in.raw_value = r->raw_value;
	in.merge = merge;
	in.line = r->line;
	if (!in.metric || !*in.metric) {
		rc = pc_error_set(PC_EINVALID, "record has no metric");
		goto fail;
	}
	if ((rc = db_writer_put(g->w, &in)) < 0)
		goto fail;
	if (!in.workload_id) {
		const char *key;
		int64_t id;

		db_writer_last_workload(g->w, &id, &key);
		if (id > 0 && key)
			wl_cache_put(g, strbuf_str(&g->sig), id, key);
	}
	g->res->records++;
	if (g->o->progress && (g->res->records & 16383) == 0) {
		long long pos = ftell(g->fp);

		g->o->progress(g->o->ctx, g->path, pos, g->size,
			       g->res->records);
	}
	return 0;
fail:
	line = r->line;
	/* a repeated key queued before this record is the first error */
	db_writer_settle(g->w, &line);
	error_at(g->path, line);
	return rc;
}

/* Copy stdin to a temporary file so it can be hashed and re-read. */
static int spool_stdin(FILE **out)
{
	FILE *tmp = tmpfile();
	char buf[65536];
	size_t n;

	if (!tmp)
		return pc_error_set(PC_EIO, "cannot create a temporary file: %s",
				    strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, tmp) != n) {
			fclose(tmp);
			return pc_error_set(PC_EIO, "spooling stdin: %s",
					    strerror(errno));
		}
	rewind(tmp);
	*out = tmp;
	return 0;
}

static int hash_file(FILE *fp, const char *path, char hex[65],
		     long long *size, char *head, size_t *headlen)
{
	struct sha256 s;
	char buf[65536];
	size_t n;
	long long total = 0;

	sha256_init(&s);
	*headlen = 0;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (*headlen < HEAD_BYTES) {
			size_t k = HEAD_BYTES - *headlen < n ?
				   HEAD_BYTES - *headlen : n;
			memcpy(head + *headlen, buf, k);
			*headlen += k;
		}
		sha256_update(&s, buf, n);
		total += (long long)n;
	}
	if (ferror(fp))
		return pc_error_set(PC_EIO, "%s: read error: %s", path,
				    strerror(errno));
	head[*headlen] = '\0';
	sha256_final_hex(&s, hex);
	*size = total;
	rewind(fp);
	return 0;
}

static int apply_cli_workload(struct glue *g)
{
	const struct import_opts *o = g->o;
	int rc = 0;

	if (o->workload && (rc = wkey_parse(&g->base, o->workload)) < 0)
		return rc;
	for (const char *const *p = o->params; p && *p && !rc; p++) {
		const char *eq = strchr(*p, '=');
		char *name;

		if (!eq || eq == *p)
			return pc_error_set(PC_EUSAGE, "--param '%s': expected "
					    "NAME=VALUE", *p);
		name = xstrndup(*p, (size_t)(eq - *p));
		rc = wkey_set(&g->base, name, eq + 1);
		free(name);
	}
	return rc;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int import_file(struct db *db, const char *path, const struct import_opts *o,
		struct import_result *out)
{
	struct glue g;
	struct imp_sink sink;
	struct imp_input in;
	struct db_run_info ri;
	struct db_writer_summary sum;
	const struct importer *imp = NULL;
	char hex[65], *head = xmalloc(HEAD_BYTES + 1), *cli_wl = NULL;
	size_t headlen;
	long line;
	int rc;

	memset(&g, 0, sizeof(g));
	memset(out, 0, sizeof(*out));
	g.o = o;
	g.res = out;
	g.path = !strcmp(path, "-") ? "<stdin>" : path;
	hmap_init(&g.unmapped);
	hmap_init(&g.wl_idx);
	wkey_init(&g.base);
	wkey_init(&g.cur);
	if (o->in) {
		g.fp = o->in;
		rc = fseek(g.fp, 0, SEEK_SET) == 0 ? 0 :
		     pc_error_set(PC_EIO, "%s: cannot rewind: %s", path,
				  strerror(errno));
	} else if (!strcmp(path, "-")) {
		rc = spool_stdin(&g.fp);
	} else {
		/* a FIFO, device or <(...) would block or never end, and is
		 * read twice (hash, then import): regular files only */
		rc = util_fopen_regular(&g.fp, path, NULL);
	}
	if (rc < 0)
		goto done;
	if ((rc = hash_file(g.fp, g.path, hex, &g.size, head, &headlen)) < 0)
		goto done;
	if (g.size == 0) {
		rc = pc_error_set(PC_EINVALID, "%s: empty file", g.path);
		goto done;
	}
	if (o->format && strcmp(o->format, "auto")) {
		if (!(imp = importer_find(o->format))) {
			const char *names[64], *best;
			size_t n = 0;

			for (int i = 0; importers[i] && n < 64; i++)
				names[n++] = importers[i]->name;
			best = util_did_you_mean(o->format, names, n);
			rc = pc_error_set(PC_EUSAGE, "unknown format '%s'%s%s%s "
					  "(see 'perfcorr formats')", o->format,
					  best ? ": did you mean '" : "",
					  best ? best : "", best ? "'?" : "");
			goto done;
		}
	} else if ((rc = importer_detect(&imp, head, headlen, g.path)) < 0) {
		goto done;
	}
	snprintf(out->format, sizeof(out->format), "%s", imp->name);
	if ((rc = importer_check_opts(imp, o->opts)) < 0) {
		pc_error_prefix("%s", g.path);
		goto done;
	}
	if (o->map_path && (rc = kmap_load(&g.map, o->map_path)) < 0)
		goto done;
	if ((rc = apply_cli_workload(&g)) < 0)
		goto done;
	memset(&ri, 0, sizeof(ri));
	ri.source = o->source;
	ri.kind = o->kind;
	ri.version = o->version;
	ri.format = imp->name;
	ri.file_name = strcmp(path, "-") ? base_name(path) : "-";
	ri.sha256 = hex;
	ri.file_size = g.size;
	ri.platform = o->platform;
	ri.clock_hz = o->clock_hz;
	ri.cost = o->cost;
	ri.cost_unit = o->cost_unit;
	ri.calibration = o->calibration;
	/* part of the import's identity: the same bytes under another
	 * workload are another run */
	if (o->workload || (o->params && *o->params))
		cli_wl = wkey_format(&g.base);
	/* parameters without a name format as "/tp=1" */
	ri.workload = cli_wl && *cli_wl == '/' ? cli_wl + 1 : cli_wl;
	ri.replace = o->replace;
	if ((rc = db_writer_begin(&g.w, db, &ri)) < 0) {
		if (rc != PC_EEXISTS)
			pc_error_prefix("%s", g.path);
		goto done;
	}
	if ((rc = apply_cli_meta(&g)) < 0 ||
	    (rc = import_record_cli(g.w, o)) < 0) {
		db_writer_abort(g.w);
		goto done;
	}
	sink.emit = glue_emit;
	sink.meta = glue_meta;
	sink.warn = glue_warn;
	sink.ctx = &g;
	in.fp = g.fp;
	in.path = g.path;
	in.size = g.size;
	in.opts = o->opts;
	if ((rc = imp->import(&in, &sink)) < 0) {
		/* the importer's own error: a repeated key it emitted before
		 * comes first */
		if (db_writer_settle(g.w, &line))
			error_at(g.path, line);
		db_writer_abort(g.w);
		goto done;
	}
	if (o->map_path)
		out->unmapped = (long)g.unmapped.len;
	if ((rc = db_writer_input_done(g.w)) < 0 ||
	    (rc = db_derive_efficiency(g.w, &out->derived)) < 0) {
		line = 0;
		db_writer_settle(g.w, &line);
		db_writer_abort(g.w);
		error_at(g.path, line);
		goto done;
	}
	rc = db_writer_finish(g.w, &sum);
	if (rc < 0) {
		pc_error_prefix("%s", g.path);
		goto done;
	}
	out->run_id = sum.run_id;
	out->results = sum.results;
	if (o->progress)
		o->progress(o->ctx, g.path, g.size, g.size, out->records);
done:
	if (g.fp && g.fp != o->in)
		fclose(g.fp);
	free(head);
	free(cli_wl);
	kmap_free(g.map);
	hmap_release(&g.unmapped);
	wkey_release(&g.base);
	wkey_release(&g.cur);
	strbuf_release(&g.cur_sig);
	strbuf_release(&g.sig);
	wl_cache_clear(&g);
	hmap_release(&g.wl_idx);
	free(g.wl);
	return rc;
}
