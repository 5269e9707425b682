/*
 * gpgpusim: GPGPU-Sim / Accel-Sim simulator stdout. One stat block per
 * finished kernel; the per-kernel values are gpu_sim_cycle, gpu_sim_insn,
 * gpu_ipc, gpu_occupancy and L2_BW (never the cumulative gpu_tot_*). A
 * kernel launched more than once gets instances name--1, name--2 ... as
 * Accel-Sim's get_stats -K does. The core clock comes from
 * -gpgpu_clock_domains. The run's cost: the last gpgpu_simulation_time
 * (cumulative: "(N sec)" after each kernel), meta "cost_s". See
 * docs/importers-models.md.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

enum stat { S_CYCLES, S_INSN, S_IPC, S_OCC, S_L2BW, N_STATS };

static const struct {
	const char *key, *metric, *unit;
} stats[N_STATS] = {
	{ "gpu_sim_cycle", "cycles", "cycles" },
	{ "gpu_sim_insn", "instructions", "inst" },
	{ "gpu_ipc", "ipc", "" },
	{ "gpu_occupancy", "achieved_occupancy", "%" },
	{ "L2_BW", "l2_bandwidth", "GB/s" },
};

struct kernel {
	char *name;
	long line;
	double v[N_STATS];
	unsigned flags;
};

struct state {
	struct kernel *k;
	size_t n, cap;
	int stopped, exited;	/* hit the cycle limit; end marker seen */
	int version_seen;
	double sim_s;		/* the last gpgpu_simulation_time, or NaN */
	long sim_line;
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	/* at a line start: log lines and the config echo */
	if (strstr(head, "\ngpu_sim_cycle =") ||
	    !strncmp(head, "GPGPU-Sim", 9) || strstr(head, "\nGPGPU-Sim") ||
	    !strncmp(head, "-gpgpu_", 7) || strstr(head, "\n-gpgpu_"))
		return 91;
	return 0;
}

/* When line is "key = value" (blanks around '=' free), the value. */
static const char *kv(const char *line, const char *key)
{
	const char *p = lines_after(line, key);

	if (!p || *p != '=')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "name1 name2 " -> "name1+name2" (kernels run together) */
static char *kernel_name(const char *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy = xstrdup(v), *save = NULL, *tok;

	for (tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (sb.len)
			strbuf_addch(&sb, '+');
		strbuf_addstr(&sb, tok);
	}
	free(copy);
	return strbuf_detach(&sb);
}

static int stat_value(struct lines *l, struct kernel *k, int s, const char *v)
{
	const char *end;
	double x;

	if (lines_number(v, &x, &end, 0) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", l->path, l->line, stats[s].key, v);
	while (*end == ' ')
		end++;
	if ((s == S_OCC && *end != '%') ||
	    (s == S_L2BW && strncmp(end, "GB/Sec", 6)))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': expected %s "
				    "after the number", l->path, l->line,
				    stats[s].key, s == S_OCC ? "'%'" : "GB/Sec");
	k->v[s] = x;
	return 0;
}

static int clock_line(struct lines *l, struct imp_sink *sink, const char *v)
{
	const char *end;
	double mhz;
	char buf[32];

	if (lines_number(v, &mhz, &end, 0) < 0 || !(mhz > 0))
		return pc_error_set(PC_EINVALID, "%s:%ld: -gpgpu_clock_domains: "
				    "'%s' does not start with the core clock "
				    "in MHz", l->path, l->line, v);
	/* "1755.0": the clock is known to half the last digit printed */
	{
		size_t dec = 0;
		const char *dot = memchr(v, '.', (size_t)(end - v));
		char src[160];
		int rc;

		if (dot)
			dec = (size_t)(end - dot - 1);
		snprintf(buf, sizeof(buf), "%.17g", 0.5 * pow(10, -(double)dec)
			 * 1e6);
		snprintf(src, sizeof(src), "%s:%ld (-gpgpu_clock_domains)",
			 l->path, l->line);
		if ((rc = sink->meta(sink, "clock_tolerance_hz", buf)) < 0 ||
		    (rc = sink->meta(sink, "clock_source", src)) < 0)
			return rc;
	}
	snprintf(buf, sizeof(buf), "%.17g", mhz * 1e6);
	return sink->meta(sink, "clock_hz", buf);
}

static int line(struct state *st, struct lines *l, struct imp_sink *sink,
		char *s)
{
	const char *v;
	struct kernel *k;

	if ((v = lines_after(s, "-gpgpu_clock_domains")) != NULL)
		return clock_line(l, sink, v);
	if (!st->version_seen && (v = strstr(s, "GPGPU-Sim Simulator Version"))) {
		char *end = s + strlen(s);

		while (end > v && (end[-1] == '*' || end[-1] == ' '))
			*--end = '\0';	/* the banner's closing " ***" */
		st->version_seen = 1;
		return sink->meta(sink, "simulator", v);
	}
	if ((v = kv(s, "kernel_name")) != NULL) {
		if (st->n == st->cap) {
			st->cap = st->cap ? 2 * st->cap : 16;
			st->k = xrealloc(st->k, st->cap * sizeof(*st->k));
		}
		k = &st->k[st->n++];
		memset(k, 0, sizeof(*k));
		k->name = kernel_name(v);
		k->line = l->line;
		for (int i = 0; i < N_STATS; i++)
			k->v[i] = NAN;
		if (!*k->name)
			return pc_error_set(PC_EINVALID, "%s:%ld: empty "
					    "kernel_name", l->path, l->line);
		return 0;
	}
	if (strstr(s, "break due to reaching the maximum")) {
		sink->warn(sink, "%s:%ld: the simulation stopped at its cycle "
			   "or instruction limit; the last kernel is flagged "
			   "invalid", l->path, l->line);
		st->stopped = 1;
		return 0;
	}
	if ((v = kv(s, "gpgpu_simulation_time")) != NULL) {
		const char *p = strrchr(v, '(');
		const char *end;

		if (!p || lines_number(p + 1, &st->sim_s, &end, 0) < 0 ||
		    strncmp(end, " sec)", 5) || st->sim_s < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: "
				"gpgpu_simulation_time: '%s' does not end in "
				"'(N sec)'", l->path, l->line, v);
		st->sim_line = l->line;
		return 0;
	}
	if (strstr(s, "GPGPU-Sim: *** exit detected ***")) {
		st->exited = 1;
		return 0;
	}
	if (!st->n)
		return 0;
	k = &st->k[st->n - 1];
	for (int i = 0; i < N_STATS; i++)
		if ((v = kv(s, stats[i].key)) != NULL)
			return stat_value(l, k, i, v);
	return 0;
}

static int emit_kernel(struct imp_sink *sink, const struct kernel *k,
		       const char *raw)
{
	struct imp_record r;
	int rc;

	for (int i = 0; i < N_STATS; i++) {
		if (isnan(k->v[i]))
			continue;
		imp_record_init(&r);
		r.raw_name = raw;
		r.metric = stats[i].metric;
		r.value = k->v[i];
		r.unit = stats[i].unit;
		r.flags = k->flags;
		r.line = k->line;
		if ((rc = sink->emit(sink, &r)) < 0)
			return rc;
	}
	return 0;
}

/* Every kernel as name, or name--N when the name was launched again. */
static int emit_all(struct state *st, struct imp_sink *sink, const char *path)
{
	struct hmap count, seen;
	int64_t c, n;
	int rc = 0;

	hmap_init(&count);
	hmap_init(&seen);
	for (size_t i = 0; i < st->n; i++)
		hmap_put(&count, st->k[i].name, hmap_get(&count, st->k[i].name,
			 &c) ? c + 1 : 1);
	for (size_t i = 0; i < st->n && !rc; i++) {
		struct kernel *k = &st->k[i];
		char *raw;

		if (isnan(k->v[S_CYCLES])) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: kernel '%s' has "
					  "no gpu_sim_cycle", path, k->line,
					  k->name);
			break;
		}
		hmap_get(&count, k->name, &c);
		n = hmap_get(&seen, k->name, &n) ? n + 1 : 1;
		hmap_put(&seen, k->name, n);
		raw = c > 1 ? xasprintf("%s--%lld", k->name, (long long)n) :
			      xstrdup(k->name);
		rc = emit_kernel(sink, k, raw);
		free(raw);
	}
	hmap_release(&count);
	hmap_release(&seen);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct lines l;
	char *s;
	int rc;

	memset(&st, 0, sizeof(st));
	st.sim_s = NAN;
	lines_init(&l, in->fp, in->path);
	l.whole = 1;	/* every line ends: a cut last line is refused */
	while ((rc = lines_read(&l, &s)) > 0)
		if ((rc = line(&st, &l, sink, s)) < 0)
			break;
	if (rc == 0 && !st.n)
		rc = pc_error_set(PC_EINVALID, "%s: no kernel stat block "
				  "(kernel_name = ...)", in->path);
	if (rc == 0 && st.stopped)
		st.k[st.n - 1].flags |= IMP_INVALID | IMP_CAPPED;
	if (rc == 0 && !st.exited && !st.stopped)
		sink->warn(sink, "%s: no 'exit detected' marker: the log may be "
			   "cut short", in->path);
	if (rc == 0)
		rc = emit_all(&st, sink, in->path);
	if (rc == 0 && !isnan(st.sim_s)) {
		char v[32], src[192];

		snprintf(src, sizeof(src), "%s:%ld gpgpu_simulation_time",
			 in->path, st.sim_line);
		snprintf(v, sizeof(v), "%.17g", st.sim_s);
		if ((rc = sink->meta(sink, "cost_source", src)) == 0)
			rc = sink->meta(sink, "cost_s", v);
	}
	for (size_t i = 0; i < st.n; i++)
		free(st.k[i].name);
	free(st.k);
	lines_release(&l);
	return rc < 0 ? rc : 0;
}

const struct importer imp_gpgpusim = {
	.name = "gpgpusim",
	.kind = "perfsim",
	.desc = "GPGPU-Sim / Accel-Sim simulator log (per-kernel "
		"gpu_sim_cycle, IPC, occupancy, L2 bandwidth)",
	.probe = probe,
	.import = import,
};
