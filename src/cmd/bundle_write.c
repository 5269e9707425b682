/* perfcorr bundle: what it writes (see bundle_int.h). */
#include "src/cmd/bundle_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/error.h"
#include "base/util.h"
#include "db/calib.h"
#include "db/runinfo.h"
#include "src/corr/correlate.h"
#include "src/gate/policy.h"

static const char *const files[] = { "runs.sha256", "sources.txt",
	"policy.json", "commands.sh", "README.md", "table.csv" };

void bundle_sq(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	strbuf_addch(sb, '\'');
}

static void arg(struct strbuf *sb, const char *opt, const char *v)
{
	strbuf_addf(sb, " %s ", opt);
	bundle_sq(sb, v);
}

static void push(struct cli_list *l, const char *s)
{
	l->items = xrealloc(l->items, (l->n + 2) * sizeof(*l->items));
	l->items[l->n++] = xstrdup(s);
	l->items[l->n] = NULL;
}

void bundle_table_argv(struct bundle *b)
{
	char *m = xasprintf("%s@%s", b->set->model.source,
			    b->set->model.version);
	char *r = xasprintf("%s@%s", b->set->ref.source, b->set->ref.version);

	push(&b->table, "compare");
	push(&b->table, "--model");
	push(&b->table, m);
	push(&b->table, "--ref");
	push(&b->table, r);
	for (size_t i = 0; i < b->opt->group_by.n; i++) {
		push(&b->table, "--group-by");
		push(&b->table, b->opt->group_by.items[i]);
	}
	if (b->opt->metric) {
		push(&b->table, "--metric");
		push(&b->table, b->opt->metric);
	}
	for (size_t i = 0; i < b->opt->allow.n; i++) {
		push(&b->table, "--allow-mismatch");
		push(&b->table, b->opt->allow.items[i]);
	}
	push(&b->table, "--format");
	push(&b->table, "csv");
	free(m);
	free(r);
}

/* The new id of run id (its place among the bundled runs), 0: none. */
static long new_id(const struct bundle *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs[i].ri->id == id)
			return (long)i + 1;
	return 0;
}

static int part(const char *want, const char *s, int glob)
{
	return !want || (s && (glob ? util_glob(want, s) : !strcmp(want, s)));
}

int bundle_marks(struct bundle *b, struct db *db)
{
	struct db_calib *v = NULL;
	size_t n = 0;
	int rc;

	if ((rc = db_calib_all(db, &v, &n)) < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		const struct db_calib *m = &v[i];
		long run = m->run_id ? new_id(b, m->run_id) : 0, hits = 0;

		if ((m->model_source && strcmp(m->model_source,
					       b->set->model.source)) ||
		    (m->run_id && !run))
			continue;
		for (size_t j = 0; j < b->set->n; j++) {
			const struct corr_point *p = &b->set->points[j];

			hits += (!m->run_id || m->run_id == p->model_run ||
				 m->run_id == p->ref_run) &&
				part(m->workload, p->workload, m->is_pattern) &&
				part(m->op, p->op, m->is_pattern) &&
				part(m->metric, p->metric, m->is_pattern);
		}
		if (!hits)	/* says nothing of the table */
			continue;
		strbuf_addf(&b->marks, "\"$PERFCORR\" mark -q --%s",
			    m->held_out ? "held-out" : "calibration");
		if (m->model_source)
			arg(&b->marks, "--model", m->model_source);
		if (run)
			strbuf_addf(&b->marks, " --run %ld", run);
		if (m->workload)
			arg(&b->marks, "--workload", m->workload);
		if (m->op)
			arg(&b->marks, "--op", m->op);
		if (m->metric)
			arg(&b->marks, "--metric", m->metric);
		if (m->is_pattern)
			strbuf_addstr(&b->marks, " --pattern");
		if (m->note && *m->note)
			arg(&b->marks, "--note", m->note);
		if (m->author)
			arg(&b->marks, "--author", m->author);
		strbuf_addch(&b->marks, '\n');
	}
	db_calib_free(v, n);
	return 0;
}

static const char *meta(const struct brun *r, const char *key)
{
	const cJSON *v = r->meta ? cJSON_GetObjectItemCaseSensitive(r->meta,
								    key) :
			 NULL;

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The value of NAME= in an identity text, NULL when absent or empty. */
static const char *ident(const char *id, const char *name, char *buf,
			 size_t len)
{
	size_t n = strlen(name);

	for (const char *p = id; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l > n + 1 && !strncmp(p, name, n) && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)(l - n - 1), p + n + 1);
			return buf;
		}
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

/* inputs/NAME of an input: its place, else (--no-inputs) its name */
static void input(struct strbuf *sb, const struct bundle_file *f,
		  const char *name)
{
	char *p = xasprintf("inputs/%s", f && f->name ? f->name : name ?
			    name : "?");

	bundle_sq(sb, p);
	free(p);
}

static void lines_arg(struct strbuf *sb, const char *opt, const char *text)
{
	char *copy, *save = NULL, *t;

	if (!text)
		return;
	copy = xstrdup(text);
	for (t = strtok_r(copy, "\n", &save); t; t = strtok_r(NULL, "\n",
							       &save))
		arg(sb, opt, t);
	free(copy);
}

static void cost(struct strbuf *sb, const struct runinfo *ri)
{
	if (!ri->cost_unit || isnan(ri->cost))
		return;
	strbuf_addf(sb, " --cost %.17g --cost-unit ", ri->cost);
	bundle_sq(sb, ri->cost_unit);
}

static void run_cmd(struct strbuf *sb, const struct brun *r)
{
	const struct runinfo *ri = r->ri;
	static const char *const extra[3] = { "--map", "--topology",
					      "--rules" };
	static const char *const key[3] = { "import.map", "import.topology",
					    "import.rules" };
	char buf[512];
	const char *v;

	if (!strcmp(ri->format, "roofline")) {
		strbuf_addstr(sb, "\"$PERFCORR\" roofline -q --hw ");
		input(sb, r->spec, meta(r, "spec"));
		strbuf_addstr(sb, " --ops ");
		input(sb, r->file, ri->file_name);
		arg(sb, "--source", ri->source);
		if (ri->platform)
			arg(sb, "--platform", ri->platform);
		if ((v = meta(r, "import.workload")))
			arg(sb, "--workload", v);
		if ((v = meta(r, "import.precision")))
			arg(sb, "--precision", v);
		cost(sb, ri);
		strbuf_addch(sb, '\n');
		return;
	}
	strbuf_addstr(sb, "\"$PERFCORR\" import -q");
	arg(sb, "--source", ri->source);
	arg(sb, "--kind", ri->kind);
	arg(sb, "--format", ri->format);
	/* what the command line said: the identity (before schema 3 none:
	 * the run's own values, which the file agrees with) */
	if ((v = ri->identity ? ident(ri->identity, "version", buf,
				      sizeof(buf)) : ri->version))
		arg(sb, "--version", v);
	if (ri->identity && (v = ident(ri->identity, "workload", buf,
				       sizeof(buf))))
		arg(sb, "--workload", v);
	if ((v = ri->identity ? ident(ri->identity, "platform", buf,
				      sizeof(buf)) : ri->platform))
		arg(sb, "--platform", v);
	if (ri->identity && (v = ident(ri->identity, "clock_hz", buf,
				       sizeof(buf))))
		strbuf_addf(sb, " --clock-mhz %.17g", strtod(v, NULL) / 1e6);
	else if (!ri->identity && !isnan(ri->clock_hz))
		strbuf_addf(sb, " --clock-mhz %.17g", ri->clock_hz / 1e6);
	for (int k = 0; k < 3; k++)
		if (meta(r, key[k])) {
			strbuf_addf(sb, " %s ", extra[k]);
			input(sb, r->extra[k], meta(r, key[k]));
		}
	if (meta(r, "import.strict_map"))
		strbuf_addstr(sb, " --strict-map");
	lines_arg(sb, "--opt", meta(r, "import.opt"));
	lines_arg(sb, "--meta", meta(r, "import.meta"));
	cost(sb, ri);
	strbuf_addch(sb, ' ');
	input(sb, r->file, ri->file_name);
	strbuf_addch(sb, '\n');
}

static int write_file(const struct bundle *b, const char *name,
		      const struct strbuf *sb)
{
	char *path = xasprintf("%s/%s", b->tmp, name);
	FILE *fp = fopen(path, "w");
	int rc = 0;

	if (!fp || fwrite(sb->buf, 1, sb->len, fp) != sb->len)
		rc = -1;
	if (fp && fclose(fp) != 0)
		rc = -1;
	if (rc)
		rc = pc_error_set(PC_EIO, "cannot write '%s': %s", path,
				  strerror(errno));
	free(path);
	return rc;
}

static void sha_line(struct strbuf *sb, const struct bundle_file *f,
		     const char *hex, const char *name)
{
	char line[512];

	if (f)
		snprintf(line, sizeof(line), "%s  inputs/%s\n", f->hex, f->name);
	else if (hex && strlen(hex) == 64)
		snprintf(line, sizeof(line), "%s  inputs/%s\n", hex, name ?
			 name : "?");
	else
		return;
	if (!strstr(sb->buf ? sb->buf : "", line))	/* once a file */
		strbuf_addstr(sb, line);
}

static void sums(struct bundle *b, struct strbuf *sb)
{
	for (size_t i = 0; i < b->nruns; i++) {
		const struct brun *r = &b->runs[i];
		static const char *const hk[3] = { "import.map_sha256",
			"import.topology_sha256", "import.rules_sha256" };
		static const char *const nk[3] = { "import.map",
			"import.topology", "import.rules" };

		if (!strcmp(r->ri->format, "roofline"))
			sha_line(sb, r->spec, meta(r, "spec_sha256"),
				 meta(r, "spec"));
		if (r->file || strcmp(r->ri->format, "roofline"))
			sha_line(sb, r->file, r->ri->sha256, r->ri->file_name);
		for (int k = 0; k < 3; k++)
			if (meta(r, hk[k]))
				sha_line(sb, r->extra[k], meta(r, hk[k]),
					 meta(r, nk[k]));
	}
}

static void sources(const struct bundle *b, struct strbuf *sb)
{
	const struct corr_side *s[2] = { &b->set->model, &b->set->ref };

	for (int k = 0; k < 2; k++)
		strbuf_addf(sb, "%s: %s@%s (%s)\n", k ? "reference" : "model",
			    s[k]->source, s[k]->version, s[k]->kind);
	if (b->set->roofline)
		strbuf_addf(sb, "speed of light: %s\n", b->set->roofline);
	strbuf_addstr(sb, "runs (their id here, then in the re-derived "
		      "database):\n");
	for (size_t i = 0; i < b->nruns; i++) {
		const struct runinfo *ri = b->runs[i].ri;

		strbuf_addf(sb, "  %lld -> %zu  %s@%s (%s)  %s  %s  sha256 %s\n",
			    (long long)ri->id, i + 1, ri->source, ri->version,
			    ri->kind, ri->format, ri->file_name, ri->sha256);
	}
}

static void commands(struct bundle *b, struct strbuf *sb)
{
	strbuf_addstr(sb, "#!/bin/sh\n# Re-derive table.csv (perfcorr bundle): "
		      "a fresh database, the same inputs\n# (sha256sum -c "
		      "runs.sha256), the same commands. PERFCORR: the binary "
		      "(default\n# perfcorr); OUT: where the table and the new "
		      "database go (default\n# rederived/); BUNDLE_DB: that "
		      "database (default $OUT/perfcorr.db; never\n# your "
		      "$PERFCORR_DB).\nset -eu\n"
		      "PERFCORR=${PERFCORR:-perfcorr}\n"
		      "cd \"$(dirname \"$0\")\"\nOUT=${OUT:-rederived}\n"
		      "mkdir -p \"$OUT\"\n"
		      "export PERFCORR_DB=\"${BUNDLE_DB:-$OUT/perfcorr.db}\"\n"
		      "if [ -e \"$PERFCORR_DB\" ]; then echo \"$PERFCORR_DB "
		      "exists: the table is re-derived on a fresh database\" "
		      ">&2; exit 1; fi\n\"$PERFCORR\" init\n");
	for (size_t i = 0; i < b->nruns; i++)
		run_cmd(sb, &b->runs[i]);
	strbuf_addstr(sb, b->marks.len ? b->marks.buf : "");
	strbuf_addstr(sb, "\"$PERFCORR\"");
	for (size_t i = 0; i < b->table.n; i++) {
		strbuf_addch(sb, ' ');
		bundle_sq(sb, b->table.items[i]);
	}
	strbuf_addstr(sb, " >\"$OUT/table.csv\"\n");
	if (b->policy) {
		strbuf_addstr(sb, "\"$PERFCORR\" gate --policy policy.json "
			      "--dry-run");
		for (size_t i = 1; i < 5; i++) {
			strbuf_addch(sb, ' ');
			bundle_sq(sb, b->table.items[i]);
		}
		strbuf_addstr(sb, " >\"$OUT/gate.txt\" || echo \"the gate: exit "
			      "$? ($OUT/gate.txt)\"\n");
	}
	strbuf_addstr(sb, "cmp table.csv \"$OUT/table.csv\" && echo \"table.csv "
		      "re-derived byte for byte: $OUT/table.csv\"\n");
}

static void readme(const struct bundle *b, struct strbuf *sb)
{
	strbuf_addf(sb, "# A pinned bundle of a correlation table\n\n"
		    "`table.csv` is `perfcorr compare --format csv` of %s@%s "
		    "against %s@%s",
		    b->set->model.source, b->set->model.version,
		    b->set->ref.source, b->set->ref.version);
	if (b->opt->group_by.n)
		strbuf_addstr(sb, " (grouped as `commands.sh` says)");
	strbuf_addstr(sb, ". Everything it was derived from is here:\n\n"
		      "- `sources.txt`: the source versions and every run, with "
		      "its id in the database it came from;\n"
		      "- `inputs/`: each run's input file, and the kernel-name "
		      "mapping rules (`--map`) and other files it was imported "
		      "with; `runs.sha256` their hashes (`sha256sum -c "
		      "runs.sha256`);\n");
	if (b->policy)
		strbuf_addstr(sb, "- `policy.json`: the gate policy (its hash in "
			      "`runs.sha256` too);\n");
	strbuf_addstr(sb, "- `commands.sh`: the exact commands: one import (or "
		      "roofline) per run, in the order of their ids, with what "
		      "its command line said (version, workload, platform, "
		      "clock, rules, options, metadata, cost), the calibration "
		      "marks, then the table.\n\n"
		      "`PERFCORR=/path/to/perfcorr sh commands.sh` re-derives "
		      "the table on a fresh database into `rederived/` and "
		      "compares it with `table.csv` byte for byte. "
		      "Annotations and reviews are not part of the table and "
		      "are not bundled.\n");
	if (b->missing.len)
		strbuf_addf(sb, "\nNot bundled (`--no-inputs`): put these in "
			    "`inputs/` before running `commands.sh`:%s\n",
			    b->missing.buf);
}

int bundle_write(struct bundle *b)
{
	struct strbuf sb = STRBUF_INIT;
	char *dst;
	int rc;

	for (size_t i = 0; i < b->find.n; i++)
		b->nplaced += b->find.f[i].name != NULL;
	sums(b, &sb);
	if (b->policy) {
		strbuf_addf(&sb, "%s  policy.json\n", b->policy->hash);
		dst = xasprintf("%s/policy.json", b->tmp);
		rc = bundle_copy(b->opt->policy, dst);
		free(dst);
		if (rc < 0)
			goto done;
	}
	if ((rc = write_file(b, "runs.sha256", &sb)) < 0)
		goto done;
	strbuf_reset(&sb);
	sources(b, &sb);
	if ((rc = write_file(b, "sources.txt", &sb)) < 0)
		goto done;
	strbuf_reset(&sb);
	commands(b, &sb);
	if ((rc = write_file(b, "commands.sh", &sb)) < 0)
		goto done;
	strbuf_reset(&sb);
	readme(b, &sb);
	rc = write_file(b, "README.md", &sb);
done:
	strbuf_release(&sb);
	return rc;
}

void bundle_remove(struct bundle *b)
{
	for (size_t i = 0; i < b->find.n; i++)
		if (b->find.f[i].name) {
			char *p = xasprintf("%s/%s", b->in, b->find.f[i].name);

			unlink(p);
			free(p);
		}
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		char *p = xasprintf("%s/%s", b->tmp, files[i]);

		unlink(p);
		free(p);
	}
	if (b->in)
		rmdir(b->in);
	rmdir(b->tmp);
}
