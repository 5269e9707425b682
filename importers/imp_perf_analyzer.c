/*
 * perf-analyzer-csv: Triton `perf_analyzer -f file.csv` (and the older
 * `perf_client`): one row per concurrency (or request rate), in any
 * order. Three header generations: 19.04 (Client Send ... Client Recv),
 * 19.07+ (+ p50..p99 latency), 2021+ (Server Compute split into Input,
 * Infer, Output); newer ones may add Avg latency, request/response and
 * response wait. Times are integer microseconds with no unit in the
 * header. Each row is a workload with the parameter concurrency (or
 * request_rate); the model and batch size are not in the file: give them
 * with --workload/--param.
 *
 * Results: sample_throughput (Inferences/Second), latency_pNN, and one
 * op per latency component (client_send, network, server_queue,
 * server_compute[_input|_infer|_output], client_recv) with metric time;
 * latency (op e2e) is Avg latency, or the sum of the components (as
 * perf_analyzer computes it) flagged derived.
 *
 * The workload fingerprint (issue 37): the concurrency or request rate
 * when every row has the same (a one-point file; a sweep's points are
 * workload parameters, no fact of the run), tool perf_analyzer. The
 * file states no token lengths.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/units.h"

enum { K_PARAM, K_TPUT, K_PART, K_PCT, K_AVG };

static const struct {
	const char *col, *name;	/* name: param, op or metric */
	int kind;
} cols[] = {
	{ "Concurrency", "concurrency", K_PARAM },
	{ "Request Rate", "request_rate", K_PARAM },
	{ "Inferences/Second", "sample_throughput", K_TPUT },
	{ "Client Send", "client_send", K_PART },
	{ "Network+Server Send/Recv", "network", K_PART },
	{ "Server Queue", "server_queue", K_PART },
	{ "Server Compute", "server_compute", K_PART },
	{ "Server Compute Input", "server_compute_input", K_PART },
	{ "Server Compute Infer", "server_compute_infer", K_PART },
	{ "Server Compute Output", "server_compute_output", K_PART },
	{ "Client Recv", "client_recv", K_PART },
	{ "request/response", "request_response", K_PART },
	{ "response wait", "response_wait", K_PART },
	{ "p50 latency", "latency_p50", K_PCT },
	{ "p90 latency", "latency_p90", K_PCT },
	{ "p95 latency", "latency_p95", K_PCT },
	{ "p99 latency", "latency_p99", K_PCT },
	{ "Avg latency", "latency", K_AVG },
};
#define NCOLS (sizeof(cols) / sizeof(*cols))

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const a[] = { "Concurrency,Inferences/Second,",
					 NULL };
	static const char *const b[] = { "Inferences/Second", "Client Send",
					 "Server Queue", NULL };

	(void)len;
	(void)filename;
	return hwutil_line_has(head, a) || hwutil_line_has(head, b) ? 93 : 0;
}

struct ctx {
	int idx[NCOLS];
	const char *unit[NCOLS];
	size_t ncols;
	int param;		/* index into cols of the row's parameter */
	struct fpstate fp;	/* what every row agrees on */
};

static int header(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	struct strbuf skipped = STRBUF_INIT;

	for (size_t k = 0; k < NCOLS; k++)
		x->idx[k] = -1;
	for (size_t i = 0; i < c->nfields; i++) {
		char name[64], unit[24];
		const struct unit *u;
		size_t k;

		hwutil_split_unit(c->fields[i], name, sizeof(name), unit,
				  sizeof(unit));
		for (k = 0; k < NCOLS && strcmp(cols[k].col, name); k++)
			;
		if (k == NCOLS) {
			strbuf_addf(&skipped, "%s'%s'", skipped.len ? ", " :
				    "", name);
			continue;
		}
		x->idx[k] = (int)i;
		x->unit[k] = "us";	/* perf_analyzer writes none */
		if (cols[k].kind < K_PART)
			continue;
		if (*unit && (!(u = units_lookup(unit)) ||
			      strcmp(u->dim, "time"))) {
			strbuf_release(&skipped);
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"unknown time unit '%s'", c->path, c->line,
				c->fields[i], unit);
		}
		if (*unit)
			x->unit[k] = u->name;
	}
	if (skipped.len)
		sink->warn(sink, "%s:%ld: columns skipped: %s", c->path,
			   c->line, skipped.buf);
	strbuf_release(&skipped);
	x->param = x->idx[0] >= 0 ? 0 : x->idx[1] >= 0 ? 1 : -1;
	if (x->param < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
				    "'Concurrency' (or 'Request Rate')",
				    c->path, c->line);
	if (x->idx[2] < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
				    "'Inferences/Second'", c->path, c->line);
	x->ncols = c->nfields;
	return 0;
}

static int row(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	struct imp_param p;
	struct stk_out o = { .sink = sink, .line = c->line, .params = &p,
			     .nparams = 1 };
	double sum = 0, avg = NAN, v;
	int rc, parts = 0;

	if (c->nfields != x->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->ncols,
				    c->nfields);
	p.name = cols[x->param].name;
	p.value = c->fields[x->idx[x->param]];
	if (stk_number(p.value, &v) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a number", c->path, c->line,
				    cols[x->param].col, p.value);
	fpstate_num(&x->fp, p.name, v);
	for (size_t k = 2; k < NCOLS; k++) {
		const char *f;

		if (x->idx[k] < 0)
			continue;
		f = c->fields[x->idx[k]];
		if (stk_number(f, &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"'%s' is not a number", c->path, c->line,
				cols[k].col, f);
		switch (cols[k].kind) {
		case K_TPUT:
			rc = stk_scalar(&o, NULL, cols[k].name, v,
					"samples/s");
			break;
		case K_PART:
			/* in the unit of the column: summed in us */
			sum += v * units_lookup(x->unit[k])->factor / 1e-6;
			parts++;
			rc = stk_scalar(&o, cols[k].name, "time", v,
					x->unit[k]);
			break;
		case K_AVG:
			avg = v * units_lookup(x->unit[k])->factor / 1e-6;
			rc = 0;
			break;
		default:
			rc = stk_scalar(&o, NULL, cols[k].name, v, x->unit[k]);
		}
		if (rc < 0)
			return rc;
	}
	if (!isnan(avg))
		return stk_scalar(&o, NULL, "latency", avg, "us");
	if (parts) {
		struct imp_record r;

		imp_record_init(&r);
		r.line = c->line;
		r.op = "e2e";
		r.metric = "latency";
		r.value = sum;
		r.unit = "us";
		r.params = &p;
		r.nparams = 1;
		r.flags = IMP_DERIVED;
		return sink->emit(sink, &r);
	}
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc, have_header = 0;
	long rows = 0;

	memset(&x, 0, sizeof(x));
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (!have_header) {
			if ((rc = header(&c, &x, sink)) < 0)
				break;
			have_header = 1;
			continue;
		}
		if ((rc = row(&c, &x, sink)) < 0)
			break;
		rows++;
	}
	if (rc == 0 && !rows)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no data row", in->path,
				  c.line);
	fpstate_note(&x.fp, "tool", "perf_analyzer");
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_perf_analyzer = {
	.name = "perf-analyzer-csv",
	.kind = "silicon",
	.desc = "Triton perf_analyzer / perf_client -f CSV (19.04 to 2021+ "
		"headers; a workload per concurrency)",
	.probe = probe,
	.import = import,
};
