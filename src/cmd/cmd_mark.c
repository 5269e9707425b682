/* perfcorr mark: the keys or runs a model was calibrated or trained on
 * (issue 38 item 4; db/calib.h, src/corr/corr_calib.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "db/calib.h"
#include "db/db.h"
#include "db/query.h"
#include "db/wkey.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/out/out.h"

struct cmd_mark_opts {
	const char *model, *workload, *op, *metric, *note, *author, *format;
	int calibration, held_out, list, pattern, run, quiet;
};

static const struct cli_cmd mark_cmd = {
	.name = "mark",
	.usage = "--calibration|--held-out [--model SRC] [--run ID] "
		 "[--workload KEY] [--op OP] [--metric M] [--pattern] | --list",
	.summary = "Mark the keys or runs a model was calibrated or trained on "
		   "(or held out): every summary then gives the error on "
		   "calibration and held-out points apart.",
	.details = "A mark names a model source (--model; default every model), "
		   "a run of either side\n(--run), and/or a workload, op and "
		   "metric (globs with --pattern). A point is\ncalibration when "
		   "the newest mark matching it says so; --held-out marks "
		   "override\nan earlier, broader calibration mark. A mark that "
		   "matches no stored result is\nrefused; nothing is written. "
		   "import --calibration marks a whole run as it is\nimported. "
		   "The gate warns when a rule passes only on calibration "
		   "points.\nSee docs/statistics.md, \"Calibration and held "
		   "out\".",
	.min_args = 0, .max_args = 0,
};

struct cover {
	const struct db_calib *m;
	long n;
	char first[512];
};

static int part(const char *want, const char *s, int glob)
{
	return !want || (glob ? util_glob(want, s) : !strcmp(want, s));
}

static int count_key(void *arg, const char *w, const char *o, const char *m)
{
	struct cover *c = arg;

	if (part(c->m->workload, w, c->m->is_pattern) &&
	    part(c->m->op, o, c->m->is_pattern) &&
	    part(c->m->metric, m, c->m->is_pattern) && !c->n++)
		snprintf(c->first, sizeof(c->first), "%s %s %s", w, o, m);
	return 0;
}

/* '*', '?' or '[..]' without --pattern: refused (as annotate). */
static int globby(const char *s)
{
	const char *b;

	return s && (strpbrk(s, "*?") || ((b = strchr(s, '[')) &&
					   strchr(b + 1, ']')));
}

static int validate(const struct cmd_mark_opts *o)
{
	const char *v[3] = { o->workload, o->op, o->metric };
	static const char *const name[3] = { "workload", "op", "metric" };

	if (o->calibration + o->held_out + o->list != 1)
		return cli_usage_error(mark_cmd.name, "say --calibration, "
				       "--held-out or --list");
	if (o->list)
		return 0;
	if (!o->run && !o->workload && !o->op && !o->metric)
		return cli_usage_error(mark_cmd.name, "name what was used: "
				       "--run, --workload, --op and/or "
				       "--metric");
	if (o->run < 0)
		return cli_usage_error(mark_cmd.name, "--run takes a run id "
				       "(perfcorr runs)");
	for (int i = 0; i < 3 && !o->pattern; i++)
		if (globby(v[i]))
			return cli_usage_error(mark_cmd.name, "--%s '%s' looks "
					       "like a glob: add --pattern", name[i],
					       v[i]);
	return 0;
}

static int add(struct db *db, const struct cmd_mark_opts *o,
	       struct db_calib *m)
{
	struct cover c = { m, 0, "" };
	int64_t id = 0;
	int rc;

	if (o->model && db_source_exists(db, o->model, NULL) != 1)
		return cli_fail(mark_cmd.name, "unknown source '%s' (see "
				"'perfcorr sources')", o->model);
	if ((rc = db_calib_keys(db, o->model, m->run_id, count_key, &c)) < 0) {
		cli_error(mark_cmd.name);
		return CLI_FAIL;
	}
	if (!c.n)
		return cli_fail(mark_cmd.name, "the mark matches no stored result"
				"%s%s%s; nothing written", o->model ? " of " : "",
				o->model ? o->model : "", m->run_id ?
				" in that run" : "");
	if (db_calib_add(db, m, &id) < 0) {
		cli_error(mark_cmd.name);
		return CLI_FAIL;
	}
	if (o->quiet)
		return CLI_OK;
	printf("%lld\n", (long long)id);
	util_fprintf_safe(stderr, "perfcorr mark: mark %lld: %s for %s, %ld "
			  "stored key%s (e.g. %s)\n", (long long)id, m->held_out ?
			  "held out" : "calibration", o->model ? o->model :
			  "every model", c.n, c.n == 1 ? "" : "s", c.first);
	return CLI_OK;
}

static void emit(enum out_format fmt, struct out_table *t, size_t k,
		 const char *const *head, const char *const *row)
{
	if (fmt == OUT_TABLE) {
		out_table_add(t, row);
		return;
	}
	for (int c = 0; c < 11; c++) {
		if (fmt == OUT_CSV) {
			if (c)
				fputc(',', stdout);
			out_csv_field(stdout, row[c]);
			continue;
		}
		fputs(c ? "," : k ? ",{" : "{", stdout);
		out_json_str(stdout, head[c]);
		fputc(':', stdout);
		out_json_str(stdout, row[c]);
	}
	fputs(fmt == OUT_CSV ? "\n" : "}", stdout);
}

static int list(struct db *db, const char *format, const char *model)
{
	static const char *const head[] = { "id", "created_at", "author",
		"state", "model", "run", "workload", "op", "metric", "pattern",
		"note" };
	enum out_format fmt;
	struct db_calib *v = NULL;
	struct out_table *t;
	size_t n = 0, k = 0;

	if (out_parse_format(format, &fmt) < 0)
		return cli_usage_error(mark_cmd.name, "unknown format '%s' "
				       "(table, csv or json)", format);
	if (db_calib_all(db, &v, &n) < 0) {
		cli_error(mark_cmd.name);
		return CLI_FAIL;
	}
	t = out_table_new(11, head);
	for (int c = 0; fmt == OUT_CSV && c < 11; c++)
		printf("%s%s", c ? "," : "", head[c]);
	fputs(fmt == OUT_CSV ? "\n" : fmt == OUT_JSON ? "[" : "", stdout);
	for (size_t i = 0; i < n; i++) {
		char id[24], run[24];
		const char *row[11];

		if (model && v[i].model_source && strcmp(v[i].model_source,
							  model))
			continue;
		snprintf(id, sizeof(id), "%lld", (long long)v[i].id);
		snprintf(run, sizeof(run), "%lld", (long long)v[i].run_id);
		row[0] = id;
		row[1] = v[i].created_at;
		row[2] = v[i].author;
		row[3] = v[i].held_out ? "held-out" : "calibration";
		row[4] = v[i].model_source ? v[i].model_source : "";
		row[5] = v[i].run_id ? run : "";
		row[6] = v[i].workload ? v[i].workload : "";
		row[7] = v[i].op ? v[i].op : "";
		row[8] = v[i].metric ? v[i].metric : "";
		row[9] = v[i].is_pattern ? "yes" : "";
		row[10] = v[i].note ? v[i].note : "";
		emit(fmt, t, k++, head, row);
	}
	if (fmt == OUT_TABLE)
		out_table_print(t, stdout);
	else if (fmt == OUT_JSON)
		fputs("]\n", stdout);
	out_table_free(t);
	db_calib_free(v, n);
	return CLI_OK;
}

int cmd_mark(int argc, char **argv)
{
	struct cmd_mark_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_FLAG, "calibration", 0, &opt.calibration, NULL, "the "
		  "named keys or run were used to calibrate or train the "
		  "model" },
		{ CLI_FLAG, "held-out", 0, &opt.held_out, NULL, "the named "
		  "keys or run were not (over an earlier, broader mark)" },
		{ CLI_FLAG, "list", 'l', &opt.list, NULL, "list the marks" },
		{ CLI_STR, "model", 0, &opt.model, "SRC", "the model source "
		  "calibrated (default: every model)" },
		{ CLI_INT, "run", 0, &opt.run, "ID", "a run of either side "
		  "(perfcorr runs)" },
		{ CLI_STR, "workload", 'w', &opt.workload, "KEY", "workload "
		  "key (canonicalised unless --pattern)" },
		{ CLI_STR, "op", 'o', &opt.op, "OP", "op name" },
		{ CLI_STR, "metric", 'm', &opt.metric, "METRIC", "metric "
		  "name" },
		{ CLI_FLAG, "pattern", 0, &opt.pattern, NULL, "workload, op and "
		  "metric are globs (* ? [..])" },
		{ CLI_STR, "note", 'n', &opt.note, "TEXT", "how it was used" },
		{ CLI_STR, "author", 0, &opt.author, "NAME", "who (default "
		  "$USER)" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "--list: table "
		  "(default), csv or json" },
		{ CLI_FLAG, "quiet", 'q', &opt.quiet, NULL, "print nothing "
		  "when the mark is written" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = mark_cmd;
	struct cli_list pos;
	struct db_calib m;
	struct db *db;
	char *key = NULL;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	opt.format = "table";
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if ((rc = validate(&opt)))
		return rc;
	memset(&m, 0, sizeof(m));
	if (opt.workload && !opt.pattern) {
		struct wkey k;

		wkey_init(&k);
		if (wkey_parse(&k, opt.workload) < 0) {
			wkey_release(&k);
			return cli_usage_error(cmd.name, "--workload: %s",
					       pc_error_last());
		}
		key = wkey_format(&k);
		wkey_release(&k);
	}
	m.model_source = (char *)opt.model;
	m.run_id = opt.run;
	m.workload = key ? key : (char *)opt.workload;
	m.op = (char *)opt.op;
	m.metric = (char *)opt.metric;
	m.is_pattern = opt.pattern;
	m.held_out = opt.held_out;
	m.note = (char *)opt.note;
	m.author = (char *)opt.author;
	if ((rc = cli_open_db(&db, opt.list ? DB_READONLY : 0)) == 0) {
		rc = opt.list ? list(db, opt.format, opt.model) :
		     add(db, &opt, &m);
		db_close(db);
	}
	free(key);
	return rc;
}
