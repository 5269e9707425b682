/*
 * cocotb: results.xml (JUnit) in both forms: up to cocotb 2.0.1 the
 * testcase carries sim_time_ns as an attribute; later versions (and the
 * pytest plugin) put sim_time_unit / sim_time_duration in <properties>.
 * One result per testcase: its simulated time. Failed or errored tests
 * are flagged invalid, skipped ones skipped, never valid numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/xmlscan.h"
#include "base/error.h"
#include "base/util.h"

struct test {
	char *name;
	long line;
	double t;		/* simulated time, in unit */
	char unit[8];
	unsigned flags;
};

struct state {
	struct imp_input *in;
	struct imp_sink *sink;
	struct test cur;
	int in_test, seed_done;
	long tests;
	double step_s;		/* --opt step_s for sim_time_unit "step" */
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "<testsuites") || strstr(head, "<testsuite")) {
		if (strstr(head, "sim_time_ns=") ||
		    strstr(head, "\"sim_time_duration\"") ||
		    strstr(head, "cocotb"))
			return 97;
		return 30;	/* some other JUnit file: try it last */
	}
	return 0;
}

/* A number attribute or property; NULL value = absent. */
static int number(struct state *st, const struct xml_tag *t, const char *what,
		  const char *v, double *out)
{
	if (util_parse_double(v, out) < 0 || *out < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: <%s> %s: '%s' is not "
				    "a time", st->in->path, t->line, t->name,
				    what, v);
	return 0;
}

static int start_test(struct state *st, const struct xml_tag *t)
{
	const char *name = xml_attr(t, "name");
	const char *ns = xml_attr(t, "sim_time_ns");

	if (!name || !*name)
		return pc_error_set(PC_EINVALID, "%s:%ld: <testcase> without a "
				    "name", st->in->path, t->line);
	memset(&st->cur, 0, sizeof(st->cur));
	st->cur.name = xstrdup(name);
	st->cur.line = t->line;
	st->cur.t = NAN;
	st->in_test = 1;
	if (ns) {
		snprintf(st->cur.unit, sizeof(st->cur.unit), "ns");
		return number(st, t, "sim_time_ns", ns, &st->cur.t);
	}
	return 0;
}

/* <property name= value=> inside a testcase (the 2.x form) */
static int property(struct state *st, const struct xml_tag *t)
{
	const char *n = xml_attr(t, "name"), *v = xml_attr(t, "value");

	if (!n || !v)
		return 0;
	if (!st->in_test) {
		if (!strcmp(n, "random_seed") && !st->seed_done++)
			return st->sink->meta(st->sink, "random_seed", v);
		return 0;
	}
	if (!strcmp(n, "sim_time_unit")) {
		if (!strcmp(v, "sec"))
			v = "s";
		if (strlen(v) >= sizeof(st->cur.unit))
			return pc_error_set(PC_EINVALID, "%s:%ld: sim_time_unit "
					    "'%s' is not a time unit",
					    st->in->path, t->line, v);
		snprintf(st->cur.unit, sizeof(st->cur.unit), "%s", v);
		return 0;
	}
	if (!strcmp(n, "sim_time_duration"))
		return number(st, t, "sim_time_duration", v, &st->cur.t);
	return 0;
}

static int end_test(struct state *st)
{
	struct test *c = &st->cur;
	struct imp_record r;
	int rc;

	st->in_test = 0;
	st->tests++;
	if (isnan(c->t) && !(c->flags & IMP_SKIPPED)) {
		rc = pc_error_set(PC_EINVALID, "%s:%ld: testcase '%s' has no "
				  "simulated time (sim_time_ns or "
				  "sim_time_duration)", st->in->path, c->line,
				  c->name);
		goto done;
	}
	if (!strcmp(c->unit, "step")) {
		if (isnan(st->step_s)) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: testcase '%s': "
				"sim_time_unit 'step' needs the simulator's "
				"precision: --opt step_s=SECONDS", st->in->path,
				c->line, c->name);
			goto done;
		}
		c->t *= st->step_s;
		strcpy(c->unit, "s");
	}
	imp_record_init(&r);
	r.raw_name = c->name;
	r.metric = "time";
	r.value = isnan(c->t) ? 0 : c->t;
	r.unit = *c->unit ? c->unit : "ns";
	r.flags = c->flags;
	r.line = c->line;
	rc = st->sink->emit(st->sink, &r);
done:
	free(c->name);
	c->name = NULL;
	return rc;
}

static int tag(struct state *st, const struct xml_tag *t)
{
	int is_case = !strcmp(t->name, "testcase");

	if (is_case && t->kind != XML_CLOSE) {
		int rc;

		if (st->in_test)
			return pc_error_set(PC_EINVALID, "%s:%ld: <testcase> "
					    "inside a testcase", st->in->path,
					    t->line);
		if ((rc = start_test(st, t)) < 0)
			return rc;
		return t->kind == XML_EMPTY ? end_test(st) : 0;
	}
	if (is_case)
		return end_test(st);
	if (t->kind == XML_CLOSE)
		return 0;
	if (!strcmp(t->name, "property"))
		return property(st, t);
	if (st->in_test && (!strcmp(t->name, "failure") ||
			    !strcmp(t->name, "error")))
		st->cur.flags |= IMP_INVALID;
	else if (st->in_test && !strcmp(t->name, "skipped"))
		st->cur.flags |= IMP_SKIPPED;
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct xmlscan x;
	const struct xml_tag *t;
	const char *step = imp_opt(in, "step_s");
	int rc, root = 0;

	memset(&st, 0, sizeof(st));
	st.in = in;
	st.sink = sink;
	st.step_s = NAN;
	if (step && (util_parse_double(step, &st.step_s) < 0 ||
		     !(st.step_s > 0)))
		return pc_error_set(PC_EUSAGE, "--opt step_s='%s': expected "
				    "seconds per simulator step", step);
	xmlscan_init(&x, in->fp, in->path);
	while ((rc = xmlscan_next(&x, &t)) > 0) {
		if (!root++ && strcmp(t->name, "testsuites") &&
		    strcmp(t->name, "testsuite")) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: the root is <%s>,"
					  " not <testsuites>", in->path,
					  t->line, t->name);
			break;
		}
		if ((rc = tag(&st, t)) < 0)
			break;
	}
	if (rc == 0 && !st.tests)
		rc = pc_error_set(PC_EINVALID, "%s: no <testcase>", in->path);
	free(st.cur.name);
	xmlscan_release(&x);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "step_s", NULL };

const struct importer imp_cocotb = {
	.name = "cocotb",
	.kind = "rtl",
	.desc = "cocotb results.xml (JUnit; sim_time_ns or sim_time_* "
		"properties), one time per testcase",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
