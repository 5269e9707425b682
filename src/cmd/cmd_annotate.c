/* perfcorr annotate | annotations: explain discrepancies, list history. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/annot.h"
#include "db/db.h"
#include "db/query.h"
#include "db/wkey.h"
#include "src/corr/annot_cover.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "src/out/out.h"
#include "base/util.h"

/* The options of annotate and of annotations, filled by cli_parse from
 * the tables in cmd_annotate and cmd_annotations. */
struct cmd_annotate_opts {
	const char *workload, *op, *metric, *model, *ref;
	const char *status, *category, *note, *link, *expires, *author;
	int pattern, all;
};

struct cmd_annotations_opts {
	const char *workload, *op, *metric, *status, *format;
	int current;
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

/* A real calendar date in YYYY-MM-DD form. */
static int valid_date(const char *s)
{
	struct tm tm = { 0 };
	int y, m, d;
	char tail;

	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d,
				       &tail) != 3 || s[4] != '-' ||
	    s[7] != '-')
		return 0;
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_hour = 12;
	if (m < 1 || m > 12 || d < 1 || d > 31 || mktime(&tm) == (time_t)-1)
		return 0;
	return tm.tm_mday == d && tm.tm_mon == m - 1;
}

/* 1 when s would be a glob to fnmatch: '*', '?', or '[' closed by ']'. */
static int looks_like_glob(const char *s)
{
	const char *b;

	if (!s)
		return 0;
	if (strpbrk(s, "*?"))
		return 1;
	return (b = strchr(s, '[')) && strchr(b + 1, ']');
}

/* A key part that looks like a glob without --pattern: taken literally
 * (a workload canonicalised: 'llama3-8b/decode/ *' became
 * 'llama3-8b/ * /decode') it matched nothing (issue 35 item 10). */
static int refuse_glob(const char *cmd, const struct cmd_annotate_opts *o)
{
	static const char *const name[] = { "workload", "op", "metric" };
	const char *v[] = { o->workload, o->op, o->metric };

	for (int i = 0; i < 3 && !o->pattern; i++) {
		struct wkey k;
		char *canon = NULL;
		int rc;

		if (!looks_like_glob(v[i]))
			continue;
		wkey_init(&k);
		if (!i && wkey_parse(&k, v[i]) == 0)
			canon = wkey_format(&k);
		wkey_release(&k);
		pc_error_clear();
		rc = cli_usage_error(cmd, "--%s '%s' looks like a glob: add "
				     "--pattern (without it the key is one "
				     "literal pair%s%s%s)", name[i], v[i],
				     canon ? ", canonicalised into '" : "",
				     canon ? canon : "", canon ? "'" : "");
		free(canon);
		return rc;
	}
	return 0;
}

/* Usage checks before the database is touched. */
static int validate(const char *cmd, const struct cmd_annotate_opts *o)
{
	if (!o->status)
		return cli_usage_error(cmd, "--status is required");
	if (!in_list(db_annot_statuses, o->status))
		return cli_usage_error(cmd, "unknown status '%s' (open, "
				       "investigating, explained, accepted, "
				       "fixed, wontfix)", o->status);
	if (!in_list(db_annot_categories, o->category))
		return cli_usage_error(cmd, "unknown category '%s' "
				       "(modeling-error, specification-error, "
				       "abstraction-error, rtl-bug, "
				       "measurement-issue, reference-changed, "
				       "unknown)", o->category);
	if (!o->workload && !o->op && !o->metric)
		return cli_usage_error(cmd, "name what it explains: "
				       "--workload, --op and/or --metric");
	if (refuse_glob(cmd, o))
		return CLI_USAGE;
	if (o->expires && !valid_date(o->expires))
		return cli_usage_error(cmd, "--expires '%s' is not a date "
				       "(YYYY-MM-DD)", o->expires);
	if (!strcmp(o->status, "accepted") && (!o->note || !*o->note))
		return cli_usage_error(cmd, "an accepted annotation needs "
				       "--note: say why the error is acceptable");
	if (!strcmp(o->status, "accepted") && (!o->model || !o->ref))
		return cli_usage_error(cmd, "an accepted annotation records the "
				       "error it accepts: name the release with "
				       "--model SRC[@V] and the reference with "
				       "--ref SRC[@V]");
	return 0;
}

/* The version of a --model spec to pair at: V, B of A..B, latest for
 * A..; and the ends of a range must be known versions. */
static int model_spec(const char *cmd, struct db *db, const char *src,
		      const char *spec, char **load)
{
	const char *dots = spec ? strstr(spec, "..") : NULL;
	char **v = NULL;
	size_t nv = 0;
	int rc = 0;

	*load = spec && !dots ? xasprintf("%s@%s", src, spec) :
		dots && dots[2] ? xasprintf("%s@%s", src, dots + 2) :
		xstrdup(src);
	if (!spec)
		return 0;
	if (dots == spec)
		return cli_usage_error(cmd, "--model %s@%s: a range is A..B or "
				       "A..", src, spec);
	if (corr_versions(db, src, &v, &nv) < 0) {
		cli_error(cmd);
		return CLI_FAIL;
	}
	for (int end = 0; end < (dots ? 2 : 1) && !rc; end++) {
		const char *e = end ? dots + 2 : spec;
		size_t len = end ? strlen(e) : dots ? (size_t)(dots - spec) :
			     strlen(spec);
		int found = !len && end;

		for (size_t i = 0; i < nv && !found; i++)
			found = strlen(v[i]) == len && !strncmp(v[i], e, len);
		if (!found)
			rc = cli_fail(cmd, "source '%s' has no version '%.*s' "
				      "(see 'perfcorr runs')", src, (int)len,
				      e);
	}
	for (size_t i = 0; i < nv; i++)
		free(v[i]);
	free(v);
	return rc;
}

/* What the key covers; refuses a key matching nothing (1) and one
 * matching several pairs without --pattern or --all (2). */
static int cover(const char *cmd, const struct cmd_annotate_opts *o,
		 struct db *db, struct annot *a, const char *model,
		 struct annot_cover *c)
{
	char *why;

	if (annot_cover_load(c, db, a, model, o->ref) < 0) {
		cli_error(cmd);
		return CLI_FAIL;
	}
	if (!c->nmatch) {
		why = annot_cover_closest(c, a);
		cli_fail(cmd, "the key matches no stored pair%s%s: %s; nothing "
			 "written", model || o->ref ? " of " : "", model ?
			 model : o->ref ? o->ref : "", why);
		free(why);
		return CLI_FAIL;
	}
	if (c->nmatch > 1 && !a->is_pattern && !o->all) {
		size_t i = c->match[0];

		return cli_usage_error(cmd, "the key covers %zu stored pairs "
				       "(e.g. %s %s %s): name one pair (--workload, "
				       "--op and --metric), or say --pattern or "
				       "--all", c->nmatch, c->w[i], c->o[i],
				       c->m[i]);
	}
	if (!strcmp(a->status, "accepted"))
		annot_cover_errs(c, a);
	return 0;
}

static void say_cover(const char *cmd, int64_t id,
		      const struct annot_cover *c)
{
	fprintf(stderr, "perfcorr %s: annotation %lld covers %zu stored pair%s", cmd,
		(long long)id, c->ncurrent, c->ncurrent == 1 ? "" : "s");
	if (c->nshadow) {
		size_t i = c->match[c->shadow_first];
		const struct annot *b = &c->shadow_by;

		fprintf(stderr, "; %zu more stay%s with an existing annotation "
			"(e.g. %s %s %s keeps #%lld, %s%s: %s)", c->nshadow,
			c->nshadow == 1 ? "s" : "",
			c->w[i], c->o[i], c->m[i], (long long)b->id, b->status,
			b->is_pattern ? ", a pattern" : "", c->shadow_rule);
	}
	fputc('\n', stderr);
}

static int check_source(const char *cmd, struct db *db, const char *src)
{
	if (!src || db_source_exists(db, src, NULL) == 1)
		return 0;
	return cli_fail(cmd, "unknown source '%s' (see 'perfcorr sources')",
			src);
}

static int add(const char *cmd, const struct cmd_annotate_opts *o,
	       struct annot *a)
{
	struct annot_cover c = { 0 };
	char *model = NULL;
	struct db *db;
	int64_t id = 0;
	int rc;

	if ((rc = cli_open_db(&db, 0)))
		return rc;
	rc = check_source(cmd, db, a->model_source);
	if (!rc)
		rc = check_source(cmd, db, a->ref_source);
	if (!rc && a->model_source)
		rc = model_spec(cmd, db, a->model_source, a->model_versions,
				&model);
	if (!rc)
		rc = cover(cmd, o, db, a, model, &c);
	if (!rc && db_annot_add(db, a, 1, &id) < 0) {
		cli_error(cmd);
		rc = CLI_FAIL;
	}
	if (!rc && annot_cover_shadow(&c, db, id) < 0) {
		cli_error(cmd);
		rc = CLI_FAIL;
	}
	db_close(db);
	if (!rc) {
		printf("%lld\n", (long long)id);
		say_cover(cmd, id, &c);
	}
	annot_cover_errs_free(a);
	annot_cover_release(&c);
	free(model);
	return rc;
}

static const struct cli_cmd annotate_cmd = {
	.name = "annotate",
	.usage = "--status S [--workload W] [--op O] [--metric M] "
		 "[--model SRC[@V]] [--ref SRC[@V]] [--pattern|--all] "
		 "[--category C] [--note TEXT] [--link URL] "
		 "[--expires DATE]",
	.summary = "Explain a discrepancy: append an annotation to its "
		   "history (the newest row is its current state). "
		   "The key must match stored pairs (more than one "
		   "needs --pattern or --all). An 'accepted' annotation "
		   "needs a note, --model and --ref, and records the "
		   "error it accepts at each pair; 'perfcorr gate' "
		   "waives a point only while its error stays within "
		   "the policy's tolerance of that. Prints the new "
		   "annotation's id; says on stderr how many pairs it "
		   "covers and which stay with an annotation that "
		   "takes precedence.",
	.min_args = 0, .max_args = 0,
};

int cmd_annotate(int argc, char **argv)
{
	struct cmd_annotate_opts opt = { .category = "unknown" };
	const struct cli_opt opts[] = {
		{ CLI_STR, "workload", 'w', &opt.workload, "KEY", "workload "
		  "key (canonicalised unless --pattern)" },
		{ CLI_STR, "op", 'o', &opt.op, "OP", "op name" },
		{ CLI_STR, "metric", 'm', &opt.metric, "METRIC", "metric name" },
		{ CLI_STR, "model", 0, &opt.model, "SRC[@V]", "only for this "
		  "model source; @V, @A..B or @A.. (release order) also limits "
		  "it to those versions (required for accepted: its errors are "
		  "recorded at V, B or the latest)" },
		{ CLI_STR, "ref", 0, &opt.ref, "SRC[@V]", "only for this "
		  "reference source (required for accepted)" },
		{ CLI_FLAG, "pattern", 0, &opt.pattern, NULL, "workload, op and "
		  "metric are globs (* ? [..])" },
		{ CLI_FLAG, "all", 0, &opt.all, NULL, "the key may cover more "
		  "than one stored pair (without --pattern)" },
		{ CLI_STR, "status", 's', &opt.status, "S", "open, "
		  "investigating, explained, accepted, fixed or wontfix "
		  "(required)" },
		{ CLI_STR, "category", 'c', &opt.category, "C", "modeling-error, "
		  "specification-error, abstraction-error, rtl-bug, "
		  "measurement-issue, reference-changed or unknown (default)" },
		{ CLI_STR, "note", 'n', &opt.note, "TEXT", "the explanation" },
		{ CLI_STR, "link", 0, &opt.link, "URL", "ticket or document" },
		{ CLI_STR, "expires", 0, &opt.expires, "DATE", "YYYY-MM-DD: an "
		  "accepted waiver stops applying after this day" },
		{ CLI_STR, "author", 0, &opt.author, "NAME", "who (default "
		  "$USER)" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = annotate_cmd;
	struct annot a = { 0 };
	struct wkey k;
	struct cli_list pos;
	char *key = NULL, *msrc = NULL, *mver = NULL, *rsrc = NULL, *rver = NULL;
	int rc;

	cmd.opts = opts;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if ((rc = validate(cmd.name, &opt)))
		return rc;
	if (opt.model)
		corr_parse_side(opt.model, &msrc, &mver);
	if (opt.ref)
		corr_parse_side(opt.ref, &rsrc, &rver);
	if (opt.workload && !opt.pattern) {
		wkey_init(&k);
		if (wkey_parse(&k, opt.workload) < 0) {
			wkey_release(&k);
			return cli_usage_error(cmd.name, "--workload: %s",
					       pc_error_last());
		}
		key = wkey_format(&k);
		wkey_release(&k);
	}
	a.workload = key ? key : (char *)opt.workload;
	a.op = (char *)opt.op;
	a.metric = (char *)opt.metric;
	a.model_source = msrc;
	a.model_versions = mver;
	a.ref_source = rsrc;
	a.is_pattern = opt.pattern;
	a.status = (char *)opt.status;
	a.category = (char *)opt.category;
	a.note = (char *)opt.note;
	a.link = (char *)opt.link;
	a.expires = (char *)opt.expires;
	a.author = (char *)opt.author;
	rc = add(cmd.name, &opt, &a);
	free(key);
	free(msrc);
	free(mver);
	free(rsrc);
	free(rver);
	return rc;
}

static int keep(const struct cmd_annotations_opts *o, const struct annot *v,
		size_t n, size_t i)
{
	const struct annot *a = &v[i];

	if ((o->workload && (!a->workload || strcmp(a->workload, o->workload))) ||
	    (o->op && (!a->op || strcmp(a->op, o->op))) ||
	    (o->metric && (!a->metric || strcmp(a->metric, o->metric))) ||
	    (o->status && strcmp(a->status, o->status)))
		return 0;
	if (!o->current)
		return 1;
	/* superseded by a newer row of the same key? */
	for (size_t j = i + 1; j < n; j++) {
		const struct annot *b = &v[j];
		const char *x[] = { a->workload, a->op, a->metric,
				    a->model_source, a->ref_source };
		const char *y[] = { b->workload, b->op, b->metric,
				    b->model_source, b->ref_source };
		int same = a->is_pattern == b->is_pattern;

		for (int f = 0; same && f < 5; f++)
			same = (!x[f] && !y[f]) || (x[f] && y[f] &&
						    !strcmp(x[f], y[f]));
		if (same)
			return 0;
	}
	return 1;
}

#define NCOLS 14
static const char *const headers[NCOLS] = { "id", "created_at", "author",
	"status", "category", "workload", "op", "metric", "model", "ref",
	"pattern", "expires", "note", "link" };

static void cells(const struct annot *a, char *id, const char **c)
{
	snprintf(id, 32, "%lld", (long long)a->id);
	c[0] = id;
	c[1] = a->created_at;
	c[2] = a->author;
	c[3] = a->status;
	c[4] = a->category;
	c[5] = a->workload;
	c[6] = a->op;
	c[7] = a->metric;
	c[8] = a->model_source;
	c[9] = a->ref_source;
	c[10] = a->is_pattern ? "1" : "0";
	c[11] = a->expires;
	c[12] = a->note;
	c[13] = a->link;
}

static void print_row(FILE *fp, enum out_format fmt, struct out_table *t,
		      const struct annot *a, int first)
{
	const char *c[NCOLS];
	char id[32];

	cells(a, id, c);
	if (fmt == OUT_TABLE) {
		for (int i = 0; i < NCOLS; i++)
			c[i] = c[i] ? c[i] : (fmt == OUT_TABLE ? "-" : "");
		out_table_add(t, c);
		return;
	}
	if (fmt == OUT_CSV) {
		for (int i = 0; i < NCOLS; i++) {
			if (i)
				fputc(',', fp);
			out_csv_field(fp, c[i] ? c[i] : "");
		}
		fputc('\n', fp);
		return;
	}
	fputs(first ? "  {" : ",\n  {", fp);
	fprintf(fp, "\"id\": %lld", (long long)a->id);
	for (int i = 1; i < NCOLS; i++) {
		fprintf(fp, ", \"%s\": ", headers[i]);
		if (i == 10)
			fputs(a->is_pattern ? "true" : "false", fp);
		else if (c[i])
			out_json_str(fp, c[i]);
		else
			fputs("null", fp);
	}
	fputc('}', fp);
}

static void print_all(const struct cmd_annotations_opts *o,
		      const struct annot *v, size_t n, enum out_format fmt)
{
	struct out_table *t = NULL;
	int first = 1;

	if (fmt == OUT_TABLE)
		t = out_table_new(NCOLS, headers);
	else if (fmt == OUT_CSV)
		for (int i = 0; i < NCOLS; i++)
			printf("%s%c", headers[i], i + 1 < NCOLS ? ',' : '\n');
	else
		fputs("[\n", stdout);
	for (size_t i = 0; i < n; i++) {
		if (!keep(o, v, n, i))
			continue;
		print_row(stdout, fmt, t, &v[i], first);
		first = 0;
	}
	if (t) {
		out_table_right(t, 0);
		out_table_print(t, stdout);
		out_table_free(t);
	} else if (fmt == OUT_JSON) {
		fputs(first ? "]\n" : "\n]\n", stdout);
	}
}

static const struct cli_cmd annotations_cmd = {
	.name = "annotations",
	.usage = "[--workload W] [--op O] [--metric M] [--status S] "
		 "[--current] [--format table|csv|json]",
	.summary = "List the annotation history, oldest first (every "
		   "edit is a row; --current keeps the newest row of "
		   "each key).",
	.min_args = 0, .max_args = 0,
};

int cmd_annotations(int argc, char **argv)
{
	struct cmd_annotations_opts opt = { .format = "table" };
	const struct cli_opt opts[] = {
		{ CLI_STR, "workload", 'w', &opt.workload, "KEY", "only this "
		  "workload key (exact)" },
		{ CLI_STR, "op", 'o', &opt.op, "OP", "only this op (exact)" },
		{ CLI_STR, "metric", 'm', &opt.metric, "METRIC", "only this "
		  "metric" },
		{ CLI_STR, "status", 's', &opt.status, "S", "only rows with "
		  "this status" },
		{ CLI_FLAG, "current", 0, &opt.current, NULL, "only the newest "
		  "row of each key (its current state)" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table (default), "
		  "csv or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = annotations_cmd;
	struct cli_list pos;
	struct annot *v = NULL;
	enum out_format fmt;
	struct db *db;
	size_t n = 0;
	int rc;

	cmd.opts = opts;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if (out_parse_format(opt.format, &fmt))
		return cli_usage_error(cmd.name, "unknown format '%s'",
				       opt.format);
	if ((rc = cli_open_db(&db, DB_READONLY)))
		return rc;
	rc = db_annot_all(db, &v, &n);
	db_close(db);
	if (rc < 0) {
		cli_error(cmd.name);
		return CLI_FAIL;
	}
	print_all(&opt, v, n, fmt);
	db_annot_free(v, n);
	if (fflush(stdout) != 0)
		return cli_fail(cmd.name, "cannot write output");
	return CLI_OK;
}
