/*
 * chipyard: cycle prints of Chipyard RTL simulations. The TestDriver's
 * "*** PASSED *** Completed after N simulation cycles" (FAILED: flagged
 * invalid; "FAILED *** (timeout)", the +max-cycles limit: invalid and
 * capped) is the whole program's cycles on op e2e; gemmini-rocc-tests
 * prints per test "Cycles taken:", "Total macs:", "Ideal cycles:" and
 * "Utilization: N%", after an "I: .., J: .., K: .." header that names
 * the GEMM (workload parameters m, n, k; op gemm).
 */
#include <stdio.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"

struct state {
	struct imp_sink *sink;
	struct lines *l;
	char dim[3][24];	/* I, J, K of the current Gemmini test */
	struct imp_param prm[3];
	size_t nprm;
	char raw[32];
	int ntest, taken, results;
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "Cycles taken:"))
		return 82;
	if (strstr(head, "simulation cycles") && (strstr(head, "*** PASSED ***")
						  || strstr(head, "*** FAILED ***")))
		return 70;
	return 0;
}

static int emit(struct state *st, const char *op, const char *metric,
		double v, const char *unit, unsigned flags)
{
	struct imp_record r;

	imp_record_init(&r);
	if (!op) {
		r.params = st->prm;
		r.nparams = st->nprm;
		if (st->nprm)
			op = "gemm";
		else if (!*st->raw)
			snprintf(st->raw, sizeof(st->raw), "test%d",
				 ++st->ntest);
		if (!op)
			r.raw_name = st->raw;
	}
	r.op = op;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.flags = flags;
	r.line = st->l->line;
	st->results++;
	return st->sink->emit(st->sink, &r);
}

/* A whole-number count after a label ("Cycles taken: 5937"). */
static int count(struct state *st, const char *label, const char *s,
		 const char *tail, double *out)
{
	const char *end;

	if (lines_number(s, out, &end, 0) < 0 || *out < 0 ||
	    strncmp(end, tail, strlen(tail)) ||
	    end[strlen(tail)] != '\0')
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "count", st->l->path, st->l->line, label,
				    s);
	return 0;
}

/* "I: 128, J: 128, K: 64" starts a Gemmini test. */
static int gemm_header(struct state *st, const char *s)
{
	static const char *const names[] = { "m", "n", "k" };

	if (sscanf(s, "I: %23[0-9], J: %23[0-9], K: %23[0-9]", st->dim[0],
		   st->dim[1], st->dim[2]) != 3)
		return 0;
	for (int i = 0; i < 3; i++)
		st->prm[i] = (struct imp_param){ names[i], st->dim[i] };
	st->nprm = 3;
	st->taken = 0;
	return 1;
}

static int testdriver(struct state *st, const char *s)
{
	const char *after = strstr(s, " after ");
	const char *fail = strstr(s, "*** FAILED ***"), *tmo;
	double cyc, insn;
	const char *end;
	unsigned flags = fail ? IMP_INVALID : 0;
	int rc;

	if (!after || lines_number(after + 7, &cyc, &end, 0) < 0 ||
	    !lines_after(end, "simulation cycles"))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected 'after N "
				    "simulation cycles'", st->l->path,
				    st->l->line);
	/* "*** FAILED *** (timeout) after": +max-cycles ran out, the run
	 * hit the cycle limit (docs/schema.md: capped, always invalid) */
	tmo = fail ? strstr(fail, "(timeout)") : NULL;
	if (tmo && tmo < after)
		flags |= IMP_CAPPED;
	if (flags & IMP_CAPPED)
		st->sink->warn(st->sink, "%s:%ld: the test FAILED at its cycle "
			       "limit (timeout, +max-cycles): its cycles are "
			       "flagged invalid and capped", st->l->path,
			       st->l->line);
	else if (fail)
		st->sink->warn(st->sink, "%s:%ld: the test FAILED: its cycles "
			       "are flagged invalid", st->l->path,
			       st->l->line);
	if ((rc = emit(st, "e2e", "cycles", cyc, "cycles", flags)) < 0)
		return rc;
	end = lines_after(end, "simulation cycles and");
	if (end && lines_number(end, &insn, &end, 0) == 0)
		return emit(st, "e2e", "instructions", insn, "inst", flags);
	return 0;
}

static int line(struct state *st, const char *s)
{
	const char *v;
	double x;
	int rc;

	if (strstr(s, "*** PASSED ***") || strstr(s, "*** FAILED ***"))
		return testdriver(st, s);
	if (gemm_header(st, s))
		return 0;
	if ((v = lines_after(s, "Cycles taken:")) != NULL) {
		if (st->taken++ || !st->nprm) {
			st->nprm = 0;	/* a test without an I/J/K header */
			snprintf(st->raw, sizeof(st->raw), "test%d",
				 ++st->ntest);
		}
		if ((rc = count(st, "Cycles taken", v, "", &x)) < 0)
			return rc;
		return emit(st, NULL, "cycles", x, "cycles", 0);
	}
	if ((v = lines_after(s, "Ideal cycles:")) != NULL)
		return count(st, "Ideal cycles", v, "", &x) < 0 ? PC_EINVALID :
		       emit(st, NULL, "ideal_cycles", x, "cycles", 0);
	if ((v = lines_after(s, "Total macs:")) != NULL)
		return count(st, "Total macs", v, "", &x) < 0 ? PC_EINVALID :
		       emit(st, NULL, "macs", x, "", 0);
	if (st->taken && (v = lines_after(s, "Utilization:")) != NULL)
		return count(st, "Utilization", v, "%", &x) < 0 ? PC_EINVALID :
		       emit(st, NULL, "utilization", x, "%", 0);
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct lines l;
	char *s;
	int rc;

	memset(&st, 0, sizeof(st));
	st.sink = sink;
	st.l = &l;
	lines_init(&l, in->fp, in->path);
	l.whole = 1;	/* every line ends: a cut last line is refused */
	while ((rc = lines_read(&l, &s)) > 0)
		if ((rc = line(&st, s)) < 0)
			break;
	if (rc == 0 && !st.results)
		rc = pc_error_set(PC_EINVALID, "%s: no TestDriver or Gemmini "
				  "cycle line", in->path);
	lines_release(&l);
	return rc < 0 ? rc : 0;
}

const struct importer imp_chipyard = {
	.name = "chipyard",
	.kind = "rtl",
	.desc = "Chipyard TestDriver cycles and Gemmini test prints (Cycles "
		"taken, Ideal cycles, Total macs, Utilization)",
	.probe = probe,
	.import = import,
};
