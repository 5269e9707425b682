/*
 * torch-key-averages: the text of `prof.key_averages().table()`, alone or
 * inside a longer log, one or several tables. A table is found by its
 * header between two dashed rules; the rule above the header gives each
 * column's extent (columns are fixed width, right-aligned, two spaces
 * apart), so names with spaces, ':' or '(' are read whole. Each cell
 * carries its unit: us/ms/s times, b/Kb/Mb/Gb memory (1 Kb = 1024 b).
 * Per row (raw name = Name, mapped to an op): time = CUDA time avg (n =
 * # of Calls), cpu_time = CPU time avg (n), self_cpu_time, cpu_total_time,
 * self_cuda_time, cuda_total_time, cpu_mem, self_cpu_mem, cuda_mem,
 * self_cuda_mem, calls; percentages and negative memory cells (net
 * frees) are not stored. Names truncated to
 * the column with "..." are not unique: a name seen twice in a table is
 * kept apart as "NAME#2" with a warning. Several tables in one file get
 * the workload parameter table=1, 2 ...
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/units.h"
#include "base/util.h"

enum { D_TIME, D_MEM, D_COUNT };

static const struct {
	const char *col, *metric;
	int dim, avg;		/* avg: n = # of Calls on the record */
} cols[] = {
	{ "Self CPU", "self_cpu_time", D_TIME, 0 },
	{ "CPU total", "cpu_total_time", D_TIME, 0 },
	{ "CPU time avg", "cpu_time", D_TIME, 1 },
	{ "Self CUDA", "self_cuda_time", D_TIME, 0 },
	{ "CUDA total", "cuda_total_time", D_TIME, 0 },
	{ "CUDA time avg", "time", D_TIME, 1 },
	{ "CPU Mem", "cpu_mem", D_MEM, 0 },
	{ "Self CPU Mem", "self_cpu_mem", D_MEM, 0 },
	{ "CUDA Mem", "cuda_mem", D_MEM, 0 },
	{ "Self CUDA Mem", "self_cuda_mem", D_MEM, 0 },
	{ "# of Calls", "calls", D_COUNT, 0 },
};
#define NCOLS (sizeof(cols) / sizeof(*cols))
#define MAXEXT 64

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return strstr(head, "Name") && strstr(head, "Self CPU %") &&
	       strstr(head, "# of Calls") && strstr(head, "\n----") ? 89 : 0;
}

struct cell {
	char *raw;
	long line;
	int table, col;
	double v, n;
};

struct ctx {
	struct imp_input *in;
	struct imp_sink *sink;
	/* the table being read */
	int state;		/* 0 outside, 1 rule seen, 2 header, 3 rows */
	int ext[MAXEXT][2], next;
	int colmap[MAXEXT];	/* extent -> cols index or -1 */
	int ncall, table;
	long header_line;
	long rows_start;	/* first cell of this table */
	struct cell *c;
	size_t n, cap;
	long dups, negmem;
};

static int is_rule(const char *s)
{
	if (*s != '-')
		return 0;
	for (; *s; s++)
		if (*s != '-' && *s != ' ')
			return 0;
	return 1;
}

static void extents(struct ctx *x, const char *s)
{
	int i = 0;

	x->next = 0;
	while (s[i] && x->next < MAXEXT) {
		while (s[i] == ' ')
			i++;
		if (!s[i])
			break;
		x->ext[x->next][0] = i;
		while (s[i] == '-')
			i++;
		x->ext[x->next++][1] = i;
	}
}

/* The trimmed text of extent e of line s into buf. */
static char *field(const char *s, const int *ext, char *buf, size_t n)
{
	size_t len = strlen(s), a = (size_t)ext[0], b = (size_t)ext[1];

	if (a > len)
		a = len;
	if (b > len)
		b = len;
	if (b - a >= n)
		b = a + n - 1;
	memcpy(buf, s + a, b - a);
	buf[b - a] = '\0';
	return util_trim(buf);
}

/* The k-th header name: names are separated by two or more blanks (the
 * header is not aligned with the rule in every version; the order is). */
static int header_names(const char *s, char names[][32], int max)
{
	int n = 0;

	while (*s && n < max) {
		size_t k = 0;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		while (*s && !(s[0] == ' ' && (s[1] == ' ' || !s[1]))) {
			if (k + 1 < sizeof(names[0]))
				names[n][k++] = *s;
			s++;
		}
		names[n++][k] = '\0';
	}
	return n;
}

static int header(struct ctx *x, long line, const char *s)
{
	char names[MAXEXT][32];
	int n = header_names(s, names, MAXEXT);

	if (n < 1 || strcmp(names[0], "Name"))
		return 0;
	if (n != x->next)
		return pc_error_set(PC_EINVALID, "%s:%ld: %d column names but "
				    "%d columns in the rule above", x->in->path,
				    line, n, x->next);
	x->ncall = -1;
	for (int e = 0; e < n; e++) {
		x->colmap[e] = -1;
		for (size_t k = 0; k < NCOLS; k++)
			if (!strcmp(cols[k].col, names[e]))
				x->colmap[e] = (int)k;
		if (!strcmp(names[e], "# of Calls"))
			x->ncall = e;
	}
	if (x->ncall < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column '# of "
				    "Calls'", x->in->path, line);
	x->table++;
	x->header_line = line;
	x->rows_start = (long)x->n;
	return 1;
}

/* A cell as SI: seconds, bytes or a count. */
static int cell_value(struct ctx *x, long line, int dim, const char *col,
		      const char *t, double *out)
{
	static const struct {
		const char *u;
		double f;
	} mem[] = { { "b", 1 }, { "Kb", 1024.0 }, { "Mb", 1048576.0 },
		    { "Gb", 1073741824.0 }, { "Tb", 1099511627776.0 } };
	char unit[16];
	const char *end;

	if (lines_quantity(t, out, unit, sizeof(unit), &end) < 0 || *end)
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a number", x->in->path, line, col, t);
	if (dim == D_COUNT && !*unit)
		return 0;
	if (dim == D_TIME) {
		const struct unit *u = units_lookup(unit);

		if (u && !strcmp(u->dim, "time") && *unit) {
			*out *= u->factor;
			return 0;
		}
	}
	if (dim == D_MEM)
		for (size_t i = 0; i < sizeof(mem) / sizeof(*mem); i++)
			if (!strcmp(mem[i].u, unit)) {
				*out *= mem[i].f;
				return 0;
			}
	return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': unknown unit "
			    "'%s' in '%s'", x->in->path, line, col, unit, t);
}

static int row(struct ctx *x, long line, const char *s)
{
	char name[256], buf[64], *raw;
	double calls;
	int k = 1, rc;

	snprintf(name, sizeof(name), "%s", s);
	raw = field(s, x->ext[0], name, sizeof(name));
	if (!*raw)
		return pc_error_set(PC_EINVALID, "%s:%ld: a row without a name",
				    x->in->path, line);
	if ((rc = cell_value(x, line, D_COUNT, "# of Calls",
			     field(s, x->ext[x->ncall], buf, sizeof(buf)),
			     &calls)) < 0)
		return rc;
	/* the same name twice in one table: truncated ("...") or listed
	 * once per device: kept apart */
	for (size_t i = (size_t)x->rows_start; i < x->n; i++)
		if (x->c[i].col == (int)NCOLS - 1 && !strncmp(x->c[i].raw, raw,
							strlen(raw)) &&
		    (x->c[i].raw[strlen(raw)] == '\0' ||
		     x->c[i].raw[strlen(raw)] == '#'))
			k++;
	if (k > 1) {
		char *dup = xasprintf("%s#%d", raw, k);

		x->sink->warn(x->sink, "%s:%ld: '%s' is listed %s: kept apart "
			      "as '%s'", x->in->path, line, raw,
			      strstr(raw, "...") ? "again (names truncated "
			      "with '...' are not unique)" : "again", dup);
		snprintf(name, sizeof(name), "%s", dup);
		free(dup);
		raw = name;
		x->dups++;
	}
	for (int e = 1; e < x->next; e++) {
		int col = e == x->ncall ? (int)NCOLS - 1 : x->colmap[e];
		struct cell *c;
		double v = calls;

		if (col < 0)
			continue;	/* percentages, shapes ... */
		if (e != x->ncall && (rc = cell_value(x, line, cols[col].dim,
				cols[col].col, field(s, x->ext[e], buf,
				sizeof(buf)), &v)) < 0)
			return rc;
		if (cols[col].dim == D_MEM && v < 0) {
			x->negmem++;	/* net frees: not a size */
			continue;
		}
		if (x->n == x->cap) {
			x->cap = x->cap ? 2 * x->cap : 256;
			x->c = xrealloc(x->c, x->cap * sizeof(*x->c));
		}
		c = &x->c[x->n++];
		c->raw = xstrdup(raw);
		c->line = line;
		c->table = x->table;
		c->col = col;
		c->v = v;
		c->n = cols[col].avg ? calls : NAN;
	}
	return 0;
}

static int text_line(void *ctx, long line, char *s)
{
	struct ctx *x = ctx;
	int rc;

	switch (x->state) {
	case 0:
		if (is_rule(s)) {
			extents(x, s);
			x->state = 1;
		}
		return 0;
	case 1:
		if ((rc = header(x, line, s)) < 0)
			return rc;
		x->state = rc ? 2 : is_rule(s) ? 1 : 0;
		if (x->state == 1)
			extents(x, s);
		return 0;
	case 2:
		x->state = is_rule(s) ? 3 : 0;
		return 0;
	default:
		if (is_rule(s)) {
			x->state = 0;
			return 0;
		}
		return row(x, line, s);
	}
}

static int emit(struct ctx *x)
{
	char tbl[16];
	struct imp_param p = { "table", tbl };
	int rc;

	for (size_t i = 0; i < x->n; i++) {
		const struct cell *c = &x->c[i];
		struct imp_record r;

		imp_record_init(&r);
		r.line = c->line;
		r.raw_name = c->raw;
		r.metric = cols[c->col].metric;
		r.value = c->v;
		r.unit = cols[c->col].dim == D_TIME ? "s" :
			 cols[c->col].dim == D_MEM ? "B" : "";
		if (!isnan(c->n)) {
			r.n = c->n;
			r.mean = c->v;
		}
		if (x->table > 1) {
			snprintf(tbl, sizeof(tbl), "%d", c->table);
			r.params = &p;
			r.nparams = 1;
		}
		if ((rc = x->sink->emit(x->sink, &r)) < 0)
			return rc;
	}
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	long rc;

	memset(&x, 0, sizeof(x));
	x.in = in;
	x.sink = sink;
	rc = lines_each(in, text_line, &x);
	if (rc >= 0 && x.state == 3)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: the table of line %ld "
				  "has no closing rule: a cut file",
				  in->path, rc, x.header_line);
	else if (rc >= 0 && !x.n)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no key_averages() table "
				  "(a dashed rule, a header with Name and # of "
				  "Calls, a dashed rule)", in->path, rc);
	if (rc >= 0 && x.negmem)
		sink->warn(sink, "%s: %ld negative memory cells (memory freed "
			   "under the op) not stored", in->path, x.negmem);
	if (rc >= 0)
		rc = emit(&x);
	for (size_t i = 0; i < x.n; i++)
		free(x.c[i].raw);
	free(x.c);
	return rc < 0 ? (int)rc : 0;
}

const struct importer imp_torch_table = {
	.name = "torch-key-averages",
	.kind = "silicon",
	.desc = "PyTorch profiler key_averages().table() text (columns from "
		"the header, us/ms/s and b/Kb/Mb cells, several tables)",
	.probe = probe,
	.import = import,
};
