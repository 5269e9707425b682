/*
 * gem5: m5out/stats.txt. One or more dump blocks between "Begin/End
 * Simulation Statistics" lines; "<name> <value> ... # desc (Unit)".
 * Both the camelCase names (v21+) and the old snake_case ones. Per block:
 * time = simTicks / simFreq, cycles (the CPUs' numCycles, the largest),
 * instructions, ipc; the clock from the CPU clock domain's period.
 * nan/inf values are missing, with a warning. The run's cost: the sum of
 * the blocks' hostSeconds (each block counts from the last reset, as
 * its simTicks do), meta "cost_s".
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"
#include "base/util.h"

enum val { V_SECONDS, V_TICKS, V_FREQ, V_INSTS, V_CYCLES, V_IPC, V_CPUCLK,
	   V_CLK, V_HOST, N_VALS };

struct block {
	double v[N_VALS];
	long line[N_VALS];	/* where each value was read */
	long begin;
};

struct state {
	struct imp_sink *sink;
	struct block b;
	int open, nblocks;
	long nth;		/* blocks emitted so far */
	double clock_hz;
	double host;		/* hostSeconds over the blocks; NaN: none */
	long host_line;		/* the last one read */
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return strstr(head, "---------- Begin Simulation Statistics") ? 96 : 0;
}

/* Which value a stat name carries, or -1. */
static int which(const char *name)
{
	static const struct {
		const char *name;
		int v;
	} exact[] = {
		{ "simSeconds", V_SECONDS }, { "sim_seconds", V_SECONDS },
		{ "simTicks", V_TICKS }, { "sim_ticks", V_TICKS },
		{ "simFreq", V_FREQ }, { "sim_freq", V_FREQ },
		{ "simInsts", V_INSTS }, { "sim_insts", V_INSTS },
		{ "system.cpu_clk_domain.clock", V_CPUCLK },
		{ "system.clk_domain.clock", V_CLK },
		{ "hostSeconds", V_HOST }, { "host_seconds", V_HOST },
	};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(name, exact[i].name))
			return exact[i].v;
	if (!strncmp(name, "system.cpu", 10) && n > 10 &&
	    (!strcmp(name + n - 10, ".numCycles") ||
	     !strcmp(name + n - 11, ".num_cycles")))
		return V_CYCLES;
	if (!strcmp(name, "system.cpu.ipc"))
		return V_IPC;
	return -1;
}

static int stat_line(struct state *st, struct lines *l, char *s)
{
	char *save = NULL, *name, *val;
	const char *end;
	double x;
	int w;

	name = strtok_r(s, " \t", &save);
	val = strtok_r(NULL, " \t", &save);
	if (!name || *name == '#' || (w = which(name)) < 0)
		return 0;
	if (!val)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s' has no value",
				    l->path, l->line, name);
	if (lines_number(val, &x, &end, 1) < 0 || *end)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", l->path, l->line, name, val);
	if (!isfinite(x)) {
		st->sink->warn(st->sink, "%s:%ld: '%s' is %s: treated as "
			       "missing", l->path, l->line, name, val);
		return 0;
	}
	if (w == V_CYCLES && !isnan(st->b.v[w]))
		x = fmax(x, st->b.v[w]);
	st->b.v[w] = x;
	st->b.line[w] = l->line;
	return 0;
}

static int put(struct state *st, const char *raw, const char *op, long line,
	       const char *metric, double v, const char *unit)
{
	struct imp_record r;

	if (isnan(v))
		return 0;
	imp_record_init(&r);
	r.raw_name = raw;
	r.op = op;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.line = line;
	return st->sink->emit(st->sink, &r);
}

/* The clock: simFreq over the CPU clock domain's period in ticks. */
static int block_clock(struct state *st, struct lines *l)
{
	double per = !isnan(st->b.v[V_CPUCLK]) ? st->b.v[V_CPUCLK] :
		     st->b.v[V_CLK];
	double hz;
	char buf[32], src[160];
	int rc;

	if (isnan(per) || isnan(st->b.v[V_FREQ]) || !(per > 0))
		return 0;
	hz = st->b.v[V_FREQ] / per;
	if (!isnan(st->clock_hz)) {
		if (fabs(hz - st->clock_hz) > 1e-9 * hz)
			st->sink->warn(st->sink, "%s:%ld: this block's clock "
				       "(%g Hz) differs from the first (%g Hz)",
				       l->path, l->line, hz, st->clock_hz);
		return 0;
	}
	st->clock_hz = hz;
	/* the period is a whole number of ticks: the clock is known to
	 * half a tick, 1.5 GHz is 667 ps = 1499.25 MHz */
	snprintf(src, sizeof(src), "%s:%ld (period %.17g ticks)", l->path,
		 st->b.line[!isnan(st->b.v[V_CPUCLK]) ? V_CPUCLK : V_CLK], per);
	snprintf(buf, sizeof(buf), "%.17g", per > 0.5 ?
		 st->b.v[V_FREQ] / (per - 0.5) - hz : hz);
	if ((rc = st->sink->meta(st->sink, "clock_tolerance_hz", buf)) < 0 ||
	    (rc = st->sink->meta(st->sink, "clock_source", src)) < 0)
		return rc;
	snprintf(buf, sizeof(buf), "%.17g", hz);
	return st->sink->meta(st->sink, "clock_hz", buf);
}

/* One block: op e2e when it is the file's only block, else dumpN. */
static int close_block(struct state *st, struct lines *l)
{
	struct block *b = &st->b;
	double t = b->v[V_SECONDS];
	char raw[32];
	const char *op = NULL;
	int rc;

	st->nth++;
	if (!isnan(b->v[V_HOST])) {
		st->host = (isnan(st->host) ? 0 : st->host) + b->v[V_HOST];
		st->host_line = b->line[V_HOST];
	}
	if (st->nblocks == 1)
		op = "e2e";
	snprintf(raw, sizeof(raw), "dump%ld", st->nth);
	if (!isnan(b->v[V_TICKS]) && b->v[V_FREQ] > 0)
		t = b->v[V_TICKS] / b->v[V_FREQ];
	if ((rc = block_clock(st, l)) < 0 ||
	    (rc = put(st, raw, op, b->begin, "time", t, "s")) < 0 ||
	    (rc = put(st, raw, op, b->begin, "cycles", b->v[V_CYCLES],
		      "cycles")) < 0 ||
	    (rc = put(st, raw, op, b->begin, "instructions", b->v[V_INSTS],
		      "inst")) < 0)
		return rc;
	return put(st, raw, op, b->begin, "ipc", b->v[V_IPC], "");
}

/* Pass 1 counts the blocks (one block is the whole run: op e2e). */
static int pass(struct state *st, struct lines *l, int emit)
{
	char *s;
	int rc;

	while ((rc = lines_read(l, &s)) > 0) {
		if (strstr(s, "---------- Begin Simulation Statistics")) {
			if (st->open)
				return pc_error_set(PC_EINVALID, "%s:%ld: Begin "
					"inside an open block (from line %ld)",
					l->path, l->line, st->b.begin);
			st->open = 1;
			st->b.begin = l->line;
			for (int i = 0; i < N_VALS; i++)
				st->b.v[i] = NAN;
		} else if (strstr(s, "---------- End Simulation Statistics")) {
			if (!st->open)
				return pc_error_set(PC_EINVALID, "%s:%ld: End "
					"without Begin", l->path, l->line);
			st->open = 0;
			if (!emit)
				st->nblocks++;
			else if ((rc = close_block(st, l)) < 0)
				return rc;
		} else if (st->open && emit &&
			   (rc = stat_line(st, l, s)) < 0) {
			return rc;
		}
	}
	if (rc == 0 && st->open)
		return pc_error_set(PC_EINVALID, "%s:%ld: the block that "
				    "begins at line %ld never ends", l->path,
				    l->line, st->b.begin);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct lines l;
	int rc;

	memset(&st, 0, sizeof(st));
	st.sink = sink;
	st.clock_hz = NAN;
	st.host = NAN;
	lines_init(&l, in->fp, in->path);
	rc = pass(&st, &l, 0);
	if (rc == 0 && !st.nblocks)
		rc = pc_error_set(PC_EINVALID, "%s: no 'Begin Simulation "
				  "Statistics' block", in->path);
	if (rc == 0) {
		rewind(in->fp);
		lines_release(&l);
		lines_init(&l, in->fp, in->path);
		rc = pass(&st, &l, 1);
	}
	if (rc == 0 && !isnan(st.host)) {
		char v[32], src[192];

		snprintf(src, sizeof(src), "%s:%ld hostSeconds (summed over "
			 "%d blocks)", in->path, st.host_line, st.nblocks);
		snprintf(v, sizeof(v), "%.17g", st.host);
		if ((rc = sink->meta(sink, "cost_source", src)) == 0)
			rc = sink->meta(sink, "cost_s", v);
	}
	lines_release(&l);
	return rc < 0 ? rc : 0;
}

const struct importer imp_gem5 = {
	.name = "gem5",
	.kind = "perfsim",
	.desc = "gem5 m5out/stats.txt (dump blocks; simTicks, numCycles, "
		"simInsts, ipc)",
	.probe = probe,
	.import = import,
};
