/*
 * accelsim-stats: the CSV that Accel-Sim's util/job_launching/get_stats.py
 * prints. Blocks start with a line of 100 dashes, then the stat's regex
 * as the title, then "APPS,<config>..." with one row per "<app>--<kernel>"
 * (or, with -R, "CFG,<app>--<kernel>..." with one row per config). The
 * app is the workload, the kernel (name, name--N, final_kernel) the raw
 * name, the config the platform. NA is missing.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#define DASHES 100

static const struct {
	const char *stat, *metric, *unit;
} known[] = {
	{ "gpu_tot_sim_cycle", "cycles", "cycles" },
	{ "gpu_sim_cycle", "cycles", "cycles" },
	{ "gpu_tot_sim_insn", "instructions", "inst" },
	{ "gpu_sim_insn", "instructions", "inst" },
	{ "gpu_ipc", "ipc", "" },
	{ "gpu_occupancy", "achieved_occupancy", "%" },
	{ "L2_BW", "l2_bandwidth", "GB/s" },
	{ "gpgpu_n_tot_w_icount", "executed_instructions", "inst" },
};

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

struct state {
	struct imp_input *in;
	struct imp_sink *sink;
	const char *want;	/* --opt config=NAME */
	char *platform;		/* the config imported */
	int expect;		/* 0 dashes, 1 title, 2 header, 3 rows */
	int stat;		/* index in known[], -1 = skipped block */
	int cfg_rows;		/* -R layout */
	int col;		/* the config's column (APPS layout) */
	char **names;		/* header cells (CFG layout) */
	size_t nnames;
	long results;
};

static int is_dashes(const char *s)
{
	size_t n = strspn(s, "-");

	return n >= DASHES && !s[n];
}

static int probe(const char *head, size_t len, const char *filename)
{
	static char dashes[DASHES + 2];

	(void)len;
	(void)filename;
	if (!dashes[0]) {
		memset(dashes, '-', DASHES);
		dashes[DASHES] = '\n';
	}
	if (strstr(head, dashes) && (strstr(head, "\nAPPS,") ||
				     strstr(head, "\nCFG,")))
		return 89;
	return 0;
}

/* The stat's name: the title regex up to its first non-name character. */
static int stat_of(const char *title)
{
	size_t n = 0;

	while (isalnum((unsigned char)title[n]) || title[n] == '_')
		n++;
	for (size_t i = 0; i < N_KNOWN; i++)
		if (strlen(known[i].stat) == n && !strncmp(title,
							   known[i].stat, n))
			return (int)i;
	return -1;
}

/* "<app>--<kernel>": split at the first "--" after the last '/'. */
static int split(const char *cell, char **app, const char **kernel)
{
	const char *slash = strrchr(cell, '/');
	const char *dd = strstr(slash ? slash : cell, "--");

	if (!dd || dd == cell || !dd[2])
		return -1;
	*app = xstrndup(cell, (size_t)(dd - cell));
	for (char *p = *app; *p; p++)
		if (*p == '/' || *p == '=')
			*p = '_';
	*kernel = dd + 2;
	return 0;
}

static int emit(struct state *st, struct csv *c, char *cell,
		const char *value)
{
	struct imp_record r;
	const char *kernel;
	char *app;
	double v;
	int rc;

	if (csv_number(value, &v) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", c->path, c->line, cell, value);
	if (isnan(v))
		return 0;	/* NA */
	if (split(util_trim(cell), &app, &kernel) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s' is not "
				    "<app>--<kernel>", c->path, c->line, cell);
	imp_record_init(&r);
	r.workload = app;
	r.raw_name = kernel;
	r.metric = known[st->stat].metric;
	r.unit = known[st->stat].unit;
	r.value = v;
	r.line = c->line;
	rc = st->sink->emit(st->sink, &r);
	free(app);
	st->results++;
	return rc;
}

static int set_platform(struct state *st, struct csv *c, const char *cfg)
{
	if (st->platform) {
		if (strcmp(st->platform, cfg))
			return pc_error_set(PC_EINVALID, "%s:%ld: several "
				"configs ('%s', '%s'): choose one with --opt "
				"config=NAME", c->path, c->line, st->platform,
				cfg);
		return 0;
	}
	st->platform = xstrdup(cfg);
	return st->sink->meta(st->sink, "platform", cfg);
}

static int header(struct state *st, struct csv *c)
{
	const char *first = util_trim(c->fields[0]);

	for (size_t i = 0; i < st->nnames; i++)
		free(st->names[i]);
	st->nnames = 0;
	st->cfg_rows = !strcmp(first, "CFG");
	if (!st->cfg_rows && strcmp(first, "APPS"))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected an 'APPS,...'"
				    " or 'CFG,...' header", c->path, c->line);
	if (c->nfields < 2)
		return pc_error_set(PC_EINVALID, "%s:%ld: header with no column",
				    c->path, c->line);
	if (st->cfg_rows) {
		st->names = xrealloc(st->names, c->nfields * sizeof(*st->names));
		for (size_t i = 1; i < c->nfields; i++)
			st->names[st->nnames++] = xstrdup(c->fields[i]);
		return 0;
	}
	st->col = -1;
	for (size_t i = 1; i < c->nfields; i++)
		if (st->want ? !strcmp(util_trim(c->fields[i]), st->want) :
		    c->nfields == 2)
			st->col = (int)i;
	if (st->col < 0 && st->want)
		return pc_error_set(PC_EINVALID, "%s:%ld: no config '%s' in the "
				    "header", c->path, c->line, st->want);
	if (st->col < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: several configs: "
				    "choose one with --opt config=NAME",
				    c->path, c->line);
	return set_platform(st, c, util_trim(c->fields[st->col]));
}

static int row(struct state *st, struct csv *c)
{
	char *first = util_trim(c->fields[0]);
	int rc = 0;

	if (st->stat < 0)
		return 0;
	if (!st->cfg_rows) {
		if ((size_t)st->col >= c->nfields)
			return pc_error_set(PC_EINVALID, "%s:%ld: expected %d "
					    "fields, found %zu", c->path,
					    c->line, st->col + 1, c->nfields);
		return emit(st, c, first, c->fields[st->col]);
	}
	if (st->want && strcmp(first, st->want))
		return 0;
	if (c->nfields != st->nnames + 1)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line,
				    st->nnames + 1, c->nfields);
	if ((rc = set_platform(st, c, first)) < 0)
		return rc;
	for (size_t i = 0; i < st->nnames && !rc; i++)
		rc = emit(st, c, st->names[i], c->fields[i + 1]);
	return rc;
}

static int record(struct state *st, struct csv *c)
{
	if (c->nfields == 1 && is_dashes(util_trim(c->fields[0]))) {
		st->expect = 1;
		return 0;
	}
	switch (st->expect) {
	case 0:
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a line of "
				    "dashes before a stat block", c->path,
				    c->line);
	case 1:
		/* the title is a regex and may hold commas: rejoin it */
		st->stat = stat_of(util_trim(c->fields[0]));
		if (st->stat < 0)
			st->sink->warn(st->sink, "%s:%ld: stat '%s' is not "
				       "imported", c->path, c->line,
				       c->fields[0]);
		st->expect = 2;
		return 0;
	case 2:
		st->expect = 3;
		return header(st, c);
	default:
		return row(st, c);
	}
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct csv c;
	int rc;

	memset(&st, 0, sizeof(st));
	st.in = in;
	st.sink = sink;
	st.want = imp_opt(in, "config");
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if ((rc = record(&st, &c)) < 0)
			break;
	}
	if (rc == 0 && !st.results)
		rc = pc_error_set(PC_EINVALID, "%s: no values of a known stat "
				  "(gpu_tot_sim_cycle, gpu_ipc ...)", in->path);
	for (size_t i = 0; i < st.nnames; i++)
		free(st.names[i]);
	free(st.names);
	free(st.platform);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "config", NULL };

const struct importer imp_accelsim_stats = {
	.name = "accelsim-stats",
	.kind = "perfsim",
	.desc = "Accel-Sim get_stats.py CSV blocks (per app--kernel stats)",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
