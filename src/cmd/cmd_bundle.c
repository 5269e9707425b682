/*
 * perfcorr bundle OUT: a pinned bundle of a published table (issue 38
 * item 4): the source versions, every input file with its sha256, the
 * kernel-name rules and the policy, and the exact commands that re-derive
 * the table (compare --format csv) from them on a fresh database. The
 * commands come from what each run recorded (identity, metadata: see
 * import_record_cli), its cost and the calibration marks. Written into
 * OUT.partial and renamed: a failed bundle leaves nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/calib.h"
#include "db/db.h"
#include "db/runinfo.h"
#include "src/cmd/bundle.h"
#include "src/cmd/bundle_int.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/corr/correlate.h"
#include "src/gate/policy.h"

static const struct cli_cmd bundle_cmd = {
	.name = "bundle",
	.usage = "OUT --model SRC[@V] --ref SRC[@V] --inputs DIR... "
		 "[--group-by KEY]... [--metric M] [--policy FILE]",
	.summary = "Write a pinned bundle of a published table: the source "
		   "versions, the input files and their sha256, the mapping "
		   "rules, the policy and the exact commands that re-derive "
		   "the table on a fresh database.",
	.details = "The table is compare --format csv of the pair (with "
		   "--group-by, --metric,\n--allow-mismatch). Its runs are "
		   "the pair's and the roofline's that bound it; their\ninput "
		   "files (and the --map, --topology, --rules files they were "
		   "imported with)\nare found by sha256 under the --inputs "
		   "directories and copied into OUT/inputs/;\none not found is "
		   "an error naming it (--no-inputs: write the bundle without "
		   "the\nfiles; runs.sha256 says what belongs in inputs/). "
		   "OUT/commands.sh re-derives the\ntable into OUT/rederived/ "
		   "and compares it byte for byte with OUT/table.csv; the\n"
		   "bundle runs it once on a fresh database before it is "
		   "written (--no-verify: not).\nOUT "
		   "must not exist. See docs/statistics.md, \"A pinned "
		   "bundle\".",
	.min_args = 1, .max_args = 1,
};

/* The run ids of source@version (the roofline sources of a pairing). */
static int runs_of(struct db *db, const char *spec, int64_t **ids, size_t *n)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	int rc;

	/* a roofline paired with itself: its runs, no roofline check */
	q.model = q.ref = spec;
	q.no_roofline = 1;
	q.slim = 1;
	q.no_params = 1;
	if ((rc = corr_load(&s, db, &q)) < 0)
		return rc;
	for (size_t i = 0; i < s->model.nruns; i++) {
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = s->model.runs[i];
	}
	corr_set_free(s);
	return 0;
}

static int id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The runs behind the pairing, ascending, once each. */
static int collect(struct bundle *b, struct db *db)
{
	int64_t *ids = NULL;
	size_t n = 0, k = 0;
	const struct corr_set *s = b->set;
	int rc = 0;

	for (size_t i = 0; i < s->model.nruns; i++, n++) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		ids[n] = s->model.runs[i];
	}
	for (size_t i = 0; i < s->ref.nruns; i++, n++) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		ids[n] = s->ref.runs[i];
	}
	if (s->roofline) {
		char *list = xstrdup(s->roofline), *save = NULL, *t;

		for (t = strtok_r(list, ", ", &save); t && !rc;
		     t = strtok_r(NULL, ", ", &save))
			rc = runs_of(db, t, &ids, &n);
		free(list);
	}
	qsort(ids, n, sizeof(*ids), id_cmp);
	for (size_t i = 0; i < n; i++)
		if (!k || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	if (!rc)
		rc = db_runinfo_get(db, ids, k, &b->ri);
	if (!rc) {
		b->nruns = k;
		b->runs = xcalloc(k + 1, sizeof(*b->runs));
	}
	for (size_t i = 0; !rc && i < k; i++) {
		char *m = NULL;

		b->runs[i].ri = &b->ri[i];
		if ((rc = db_run_metadata(db, ids[i], &m)) == 0)
			b->runs[i].meta = cJSON_Parse(m);
		free(m);
	}
	free(ids);
	return rc;
}

static const char *meta_str(const struct brun *r, const char *key)
{
	const cJSON *v = r->meta ? cJSON_GetObjectItemCaseSensitive(r->meta,
								    key) :
			 NULL;

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Find one input; a missing one is added to b->missing. */
static struct bundle_file *need(struct bundle *b, const struct brun *r,
				const char *what, const char *name,
				const char *hex)
{
	struct bundle_file *f = bundle_find(&b->find, hex);

	if (!f)
		strbuf_addf(&b->missing, "\n  run %lld (%s@%s): %s '%s', "
			    "sha256 %.16s...", (long long)r->ri->id,
			    r->ri->source, r->ri->version, what, name ? name :
			    "?", hex ? hex : "unknown");
	return f;
}

static void locate(struct bundle *b, struct brun *r)
{
	static const char *const extra[3] = { "map", "topology", "rules" };

	if (!strcmp(r->ri->format, "roofline")) {
		r->spec = need(b, r, "hardware spec", meta_str(r, "spec"),
			       meta_str(r, "spec_sha256"));
		r->file = r->spec ? bundle_find_pair(&b->find, r->spec,
						     r->ri->file_name,
						     r->ri->sha256) : NULL;
		if (r->spec && !r->file)
			strbuf_addf(&b->missing, "\n  run %lld (%s@%s): ops "
				    "file '%s' (with the spec: sha256 %.16s...)",
				    (long long)r->ri->id, r->ri->source,
				    r->ri->version, r->ri->file_name,
				    r->ri->sha256);
	} else {
		r->file = need(b, r, "file", r->ri->file_name, r->ri->sha256);
	}
	for (int k = 0; k < 3; k++) {
		char key[64], hk[64];

		snprintf(key, sizeof(key), "import.%s", extra[k]);
		snprintf(hk, sizeof(hk), "import.%s_sha256", extra[k]);
		if (meta_str(r, hk))
			r->extra[k] = need(b, r, extra[k], meta_str(r, key),
					   meta_str(r, hk));
	}
}

/* The first few missing inputs on one line (the error is one line). */
static int missing_error(const struct bundle *b)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = b->missing.buf;
	int n = 0, more = 0, rc;

	while (p && (p = strstr(p, "\n  "))) {
		const char *e = strstr(p + 3, "\n  ");

		p += 3;
		if (n++ < 5)
			strbuf_addf(&sb, "%s%.*s", n > 1 ? "; " : " ",
				    (int)(e ? e - p : (long)strlen(p)), p);
		else
			more++;
	}
	if (more)
		strbuf_addf(&sb, "; and %d more", more);
	rc = pc_error_set(PC_ENOTFOUND, "input files not found under --inputs "
			  "(by sha256):%s: give the directories that hold them "
			  "with --inputs DIR, or --no-inputs to bundle without "
			  "them; nothing written", sb.buf);
	strbuf_release(&sb);
	return rc;
}

static int place_all(struct bundle *b)
{
	int rc = 0;

	for (size_t i = 0; i < b->nruns && !rc; i++) {
		struct brun *r = &b->runs[i];

		if (r->file)
			rc = bundle_place(&b->find, r->file);
		if (!rc && r->spec)
			rc = bundle_place(&b->find, r->spec);
		for (int k = 0; !rc && k < 3; k++)
			if (r->extra[k])
				rc = bundle_place(&b->find, r->extra[k]);
	}
	return rc;
}

/* Write the table now, as commands.sh will: compare in this process,
 * its standard output into OUT.partial/table.csv. */
static int table_now(struct bundle *b)
{
	char *path = xasprintf("%s/table.csv", b->tmp);
	int fd, saved, rc;

	fflush(stdout);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	free(path);
	if (fd < 0)
		return pc_error_set(PC_EIO, "cannot write the table: %s",
				    strerror(errno));
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	rc = cmd_compare((int)b->table.n, (char **)b->table.items);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc == CLI_OK ? 0 : pc_error_set(PC_EINVALID, "compare failed "
					       "(exit %d): nothing bundled", rc);
}

/* The last non-empty line of the file at path (at most len - 1 bytes). */
static void last_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	char line[512];

	snprintf(buf, len, "no output");
	while (fp && fgets(line, sizeof(line), fp))
		if (line[0] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%.*s", (int)len - 1, line);
		}
	if (fp)
		fclose(fp);
}

/* Remove dir, its files and its directories of files (what the
 * verification wrote: the log, out/ with the database and the table). */
static void remove_flat(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (unlink(p) < 0)
			remove_flat(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Run OUT.partial/commands.sh as a user will, with this binary, on a
 * fresh database in a temporary directory: a bundle whose commands do
 * not re-derive table.csv byte for byte is refused (a run imported
 * before perfcorr recorded its command line re-imports without its
 * --map, say). Nothing of the run is left behind. */
static int verify(struct bundle *b)
{
	const char *tmp = getenv("TMPDIR");
	char exe[4096], last[320], *dir;
	struct strbuf cmd = STRBUF_INIT;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int st, rc = 0;

	if (n <= 0) {
		b->unverified = "this system does not say where the perfcorr "
				"binary is (/proc/self/exe)";
		return 0;
	}
	exe[n] = '\0';
	dir = xasprintf("%s/perfcorr-bundle.XXXXXX", tmp && *tmp ? tmp :
			"/tmp");
	if (!mkdtemp(dir)) {
		rc = pc_error_set(PC_EIO, "cannot create '%s' to verify the "
				  "bundle: %s", dir, strerror(errno));
		free(dir);
		return rc;
	}
	strbuf_addstr(&cmd, "unset BUNDLE_DB; PERFCORR=");
	bundle_sq(&cmd, exe);
	strbuf_addf(&cmd, " OUT=");
	bundle_sq(&cmd, dir);
	strbuf_addstr(&cmd, "/out sh ");
	bundle_sq(&cmd, b->tmp);
	strbuf_addstr(&cmd, "/commands.sh >");
	bundle_sq(&cmd, dir);
	strbuf_addstr(&cmd, "/log 2>&1 </dev/null");
	fflush(stdout);
	fflush(stderr);
	st = system(cmd.buf);
	if (st != 0) {
		char *log = xasprintf("%s/log", dir);

		last_line(log, last, sizeof(last));
		free(log);
		rc = pc_error_set(PC_EINVALID, "commands.sh does not re-derive "
				  "table.csv (exit %d: %s): a run imported "
				  "before perfcorr recorded its command line "
				  "(--map, --opt, --meta) re-imports "
				  "differently; re-import those runs, or "
				  "--no-verify to write the bundle anyway; "
				  "nothing written", WIFEXITED(st) ?
				  WEXITSTATUS(st) : -1, last);
	}
	remove_flat(dir);
	free(dir);
	strbuf_release(&cmd);
	return rc;
}

static void release(struct bundle *b)
{
	for (size_t i = 0; i < b->nruns; i++)
		cJSON_Delete(b->runs[i].meta);
	free(b->runs);
	db_runinfo_free(b->ri, b->nruns);
	bundle_find_release(&b->find);
	strbuf_release(&b->missing);
	strbuf_release(&b->marks);
	corr_set_free(b->set);
	for (size_t i = 0; i < b->table.n; i++)
		free((char *)b->table.items[i]);
	free(b->table.items);
	free(b->tmp);
}

static int build(struct bundle *b, struct db *db)
{
	struct corr_query q = CORR_QUERY_INIT;
	int rc;

	q.model = b->opt->model;
	q.ref = b->opt->ref;
	q.metric = b->opt->metric;
	q.allow_mismatch = b->opt->allow.n ? b->opt->allow.items : NULL;
	q.no_params = 1;
	if ((rc = corr_load(&b->set, db, &q)) < 0)
		return rc;
	bundle_table_argv(b);
	if ((rc = collect(b, db)) < 0 ||
	    (rc = bundle_find_init(&b->find, b->opt->inputs.items, b->tmp)) < 0)
		return rc;
	for (size_t i = 0; i < b->nruns; i++)
		locate(b, &b->runs[i]);
	if (b->missing.len && !b->opt->no_inputs)
		return missing_error(b);
	if ((rc = place_all(b)) < 0 || (rc = bundle_marks(b, db)) < 0 ||
	    (rc = bundle_write(b)) < 0 || (rc = table_now(b)) < 0)
		return rc;
	if (b->opt->no_verify)
		b->unverified = "--no-verify";
	else if (b->missing.len)
		b->unverified = "--no-inputs: inputs missing";
	else
		rc = verify(b);
	return rc;
}

int cmd_bundle(int argc, char **argv)
{
	struct cmd_bundle_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.model, "SRC[@V]", "model side "
		  "(default: the policy's)" },
		{ CLI_STR, "ref", 'r', &opt.ref, "SRC[@V]", "reference side "
		  "(default: the policy's)" },
		{ CLI_LIST, "group-by", 'g', &opt.group_by, "KEY", "the "
		  "table's groups, as compare --group-by" },
		{ CLI_STR, "metric", 'M', &opt.metric, "NAME", "only this "
		  "metric" },
		{ CLI_LIST, "allow-mismatch", 0, &opt.allow, "FIELD", "as "
		  "compare --allow-mismatch" },
		{ CLI_STR, "policy", 'p', &opt.policy, "FILE", "gate policy "
		  "bundled with it (and its gate run by the commands)" },
		{ CLI_LIST, "inputs", 'i', &opt.inputs, "DIR", "where the "
		  "runs' input files are (repeatable; searched by sha256)" },
		{ CLI_FLAG, "no-inputs", 0, &opt.no_inputs, NULL, "bundle "
		  "without the input files (runs.sha256 says what belongs "
		  "in inputs/)" },
		{ CLI_FLAG, "no-verify", 0, &opt.no_verify, NULL, "do not "
		  "run commands.sh to check it re-derives the table" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = bundle_cmd;
	struct cli_list pos;
	struct policy *p = NULL;
	struct bundle b;
	struct db *db = NULL;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	memset(&b, 0, sizeof(b));
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	if (opt.policy && policy_load(&p, opt.policy) < 0) {
		rc = cli_fail(cmd.name, "%s", pc_error_last());
		goto out;
	}
	if (!opt.model && p)
		opt.model = p->model;
	if (!opt.ref && p)
		opt.ref = p->ref;
	if (!opt.model || !opt.ref) {
		rc = cli_usage_error(cmd.name, "--model and --ref are required "
				     "(or a --policy naming them)");
		goto out;
	}
	if (!opt.inputs.n && !opt.no_inputs) {
		rc = cli_usage_error(cmd.name, "--inputs DIR is required (where "
				     "the input files are), or --no-inputs");
		goto out;
	}
	b.opt = &opt;
	b.policy = p;
	b.out = pos.items[0];
	b.tmp = xasprintf("%s.partial", b.out);
	if (access(b.out, F_OK) == 0 || access(b.tmp, F_OK) == 0) {
		rc = cli_usage_error(cmd.name, "'%s' (or '%s') exists: a bundle "
				     "is written into a new directory", b.out,
				     b.tmp);
		goto out;
	}
	if ((rc = cli_open_db(&db, DB_READONLY)))
		goto out;
	if (mkdir(b.tmp, 0755) < 0 || mkdir(b.in = xasprintf("%s/inputs",
					    b.tmp), 0755) < 0) {
		rc = cli_fail(cmd.name, "cannot create '%s': %s", b.tmp,
			      strerror(errno));
		goto out;
	}
	if ((rc = build(&b, db)) == 0 && rename(b.tmp, b.out) < 0)
		rc = pc_error_set(PC_EIO, "cannot rename '%s' to '%s': %s",
				  b.tmp, b.out, strerror(errno));
	if (rc < 0) {
		cli_error(cmd.name);
		bundle_remove(&b);
		rc = cli_exit_for(rc);
	} else {
		util_fprintf_safe(stderr, "perfcorr bundle: %s: %zu runs, "
				  "%zu input files%s; sh %s/commands.sh "
				  "re-derives table.csv (%s%s)\n", b.out,
				  b.nruns, b.nplaced, b.missing.len ?
				  " (not all: --no-inputs)" : "", b.out,
				  b.unverified ? "not verified: " : "verified: "
				  "run here on a fresh database",
				  b.unverified ? b.unverified : "");
	}
out:
	db_close(db);
	release(&b);
	free(b.in);
	policy_free(p);
	cli_list_free(&pos);
	cli_list_free(&opt.group_by);
	cli_list_free(&opt.inputs);
	cli_list_free(&opt.allow);
	return rc;
}
