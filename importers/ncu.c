/* Nsight Compute metric names, units and collection (see ncu.h). */
#include "importers/ncu.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static const struct {
	const char *ncu, *metric;
} names[] = {
	{ "Duration", "time" }, { "gpu__time_duration.sum", "time" },
	{ "Elapsed Cycles", "cycles" }, { "gpc__cycles_elapsed.max", "cycles" },
	{ "SM Frequency", "sm_frequency" },
	{ "gpc__cycles_elapsed.avg.per_second", "sm_frequency" },
	{ "DRAM Frequency", "dram_frequency" },
	{ "dram__cycles_elapsed.avg.per_second", "dram_frequency" },
	{ "dram__bytes_read.sum", "dram_bytes_read" },
	{ "dram__bytes_write.sum", "dram_bytes_write" },
	{ "dram__bytes.sum", "dram_bytes" },
};

static const struct {
	const char *ncu, *unit;
	double factor;
} rates[] = {
	{ "cycle/nsecond", "Hz", 1e9 }, { "cycle/usecond", "Hz", 1e6 },
	{ "cycle/msecond", "Hz", 1e3 }, { "cycle/second", "Hz", 1 },
	{ "cycle/ns", "Hz", 1e9 }, { "cycle/us", "Hz", 1e6 },
};

const char *ncu_metric(const char *label, char *buf, size_t len)
{
	size_t j = 0;
	int us = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(names[i].ncu, label))
			return names[i].metric;
	if (strstr(label, "__")) {
		snprintf(buf, len, "%s", label);
		return buf;
	}
	for (const char *p = label; *p && j + 1 < len; p++) {
		if (isalnum((unsigned char)*p)) {
			if (us && j)
				buf[j++] = '_';
			us = 0;
			if (j + 1 < len)
				buf[j++] = (char)tolower((unsigned char)*p);
		} else {
			us = 1;
		}
	}
	buf[j] = '\0';
	return buf;
}

const char *ncu_unit(const char *unit, double *factor)
{
	const struct unit *u;

	*factor = 1;
	for (size_t i = 0; i < sizeof(rates) / sizeof(*rates); i++)
		if (!strcmp(rates[i].ncu, unit)) {
			*factor = rates[i].factor;
			return rates[i].unit;
		}
	/* a unit perfcorr has no dimension for keeps its name: a compound
	 * ("Kbyte/block") is scaled by its prefix into its own dimension
	 * ("B/block"), a word ("warp") is a count labelled by it */
	u = units_resolve(unit);
	if (!u)
		u = units_word(unit);
	return u ? u->name : "";
}

void ncu_init(struct ncu *n)
{
	memset(n, 0, sizeof(*n));
	hwutil_agg_init(&n->agg);
	hmap_init(&n->seen);
}

void ncu_release(struct ncu *n)
{
	hwutil_agg_release(&n->agg);
	hmap_release(&n->seen);
}

/* The perfcorr metric and unit of an ncu label and unit: "_pct" is
 * appended to labels of % values (SOL "Memory Throughput" is %, the
 * memory section's is GB/s), except occupancy, which simulators
 * (gpgpusim, accelsim-stats) report as achieved_occupancy: the same
 * name lets them pair. A time metric needs a time unit. */
static int resolve(const char *path, long line, const char *label,
		   const char *unit, char *mbuf, size_t len,
		   const char **metric, const char **u, double *f)
{
	*metric = ncu_metric(label, mbuf, len);
	*u = ncu_unit(unit, f);
	if (!strcmp(*u, "%") && *metric == mbuf && !strstr(mbuf, "__") &&
	    strlen(mbuf) + 5 < len && strcmp(mbuf, "achieved_occupancy"))
		strcat(mbuf, "_pct");
	if (!strcmp(*metric, "time")) {
		const struct unit *tu = units_lookup(*u);

		if (!**u || !tu || strcmp(tu->dim, "time"))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unit '%s' "
				"is not a time unit", path, line, label, unit);
	}
	return 0;
}

/* 1 when key was seen before (then nothing is stored twice). */
static int seen(struct ncu *n, const char *a, const char *b)
{
	struct strbuf key = STRBUF_INIT;
	int64_t dummy;
	int found;

	strbuf_addf(&key, "%s\x1f%s", a, b);
	found = hmap_get(&n->seen, key.buf, &dummy);
	if (!found)
		hmap_put(&n->seen, key.buf, 1);
	strbuf_release(&key);
	return found;
}

int ncu_add(struct ncu *n, const char *path, long line, const char *id,
	    const char *kernel, const char *label, const char *unit,
	    const char *value)
{
	char mbuf[128];
	const char *metric, *u;
	double v, f;
	int rc;

	if (!*ncu_metric(label, mbuf, sizeof(mbuf)))
		return 0;
	if (csv_number(value, &v) < 0 || isnan(v)) {
		if (!strcmp(ncu_metric(label, mbuf, sizeof(mbuf)), "time"))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is "
				"not a number", path, line, label, value);
		return 0;
	}
	if ((rc = resolve(path, line, label, unit, mbuf, sizeof(mbuf), &metric,
			  &u, &f)) < 0)
		return rc;
	if (!strcmp(metric, "time"))
		n->have_time = 1;
	if (seen(n, id, metric))
		return 0;
	rc = hwutil_agg_add(&n->agg, kernel, metric, u, v * f, line);
	if (rc < 0)
		pc_error_prefix("%s:%ld", path, line);
	return rc;
}

int ncu_summary_row(struct ncu *n, struct imp_sink *sink, const char *path,
		    long line, const char *kernel, const char *label,
		    const char *unit, const char *const stat[4])
{
	static const char *const col_names[4] = { "Invocations", "Minimum",
					      "Maximum", "Average" };
	struct imp_record r;
	char mbuf[128];
	const char *metric, *u;
	double v[4], f;
	int rc;

	if (!*ncu_metric(label, mbuf, sizeof(mbuf)))
		return 0;
	if (!*unit && strcmp(mbuf, "time") && csv_number(stat[3], &v[3]) < 0)
		return 0;	/* a text metric (Function Cache Configuration) */
	for (int i = 0; i < 4; i++)
		if (csv_number(stat[i], &v[i]) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"'%s' is not a number", path, line, col_names[i],
				stat[i]);
	if (isnan(v[3]))
		return 0;
	if ((rc = resolve(path, line, label, unit, mbuf, sizeof(mbuf), &metric,
			  &u, &f)) < 0)
		return rc;
	if (!strcmp(metric, "time"))
		n->have_time = 1;
	if (seen(n, kernel, metric))
		return 0;
	imp_record_init(&r);
	r.line = line;
	r.raw_name = kernel;
	r.metric = metric;
	r.unit = u;
	r.n = v[0];
	r.min = v[1] * f;
	r.max = v[2] * f;
	r.value = r.mean = v[3] * f;
	return sink->emit(sink, &r);
}
