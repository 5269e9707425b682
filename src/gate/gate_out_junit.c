/* The gate's JUnit XML (see gate_out.h): one testcase per rule. Every
 * testcase says what its rule measured and what moved since the baseline
 * in system-out; a failure is a failure, a warning and an unknown rule
 * are "skipped" with "warning: " or "unknown: " in the message, and each
 * testcase has a "status" property (issue 35 item 7). */
#include "src/gate/gate_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/gate/gate.h"
#include "src/gate/gate_out_int.h"
#include "src/gate/gate_out_sens.h"
#include "src/gate/gate_out_slo.h"

/* "source@version", raw: the caller escapes it. */
static void add_side(struct strbuf *sb, const struct corr_side *s)
{
	strbuf_addstr(sb, s->source ? s->source : "");
	strbuf_addch(sb, '@');
	strbuf_addstr(sb, s->version ? s->version : "");
}

static void prop(struct strbuf *x, const char *name, const char *value)
{
	strbuf_addf(x, "        <property name=\"%s\" value=\"", name);
	gate_xml_escape(x, value);
	strbuf_addstr(x, "\"/>\n");
}

/* The rule's status, its baseline and the raw and adjusted p of its
 * release-change test. */
static void junit_props(struct strbuf *x, const struct gate_rule_result *r)
{
	char num[32];

	strbuf_addstr(x, "      <properties>\n");
	prop(x, "status", gate_status_name(r->status));
	if (r->prior.have_base) {
		prop(x, "baseline", r->prior.base_version);
		prop(x, "baseline_from", gate_out_base_from(r));
	}
	for (int i = 0; i < r->nchecks; i++) {
		const struct gate_check *c = &r->checks[i];

		if (c->lim != PL_MAX_MAPE_INCREASE || isnan(c->p_raw))
			continue;
		snprintf(num, sizeof(num), "%.6g", c->p_raw);
		prop(x, "p_value", num);
		snprintf(num, sizeof(num), "%.6g", c->p_adj);
		prop(x, "p_adjusted", num);
	}
	strbuf_addstr(x, "      </properties>\n");
}

static void junit_case(struct strbuf *x, const struct gate_result *g,
		       const struct gate_rule_result *r)
{
	struct strbuf body = STRBUF_INIT;

	strbuf_addstr(x, "    <testcase classname=\"perfcorr.gate.");
	gate_xml_escape(x, g->policy->name);
	strbuf_addstr(x, "\" name=\"");
	gate_xml_escape(x, r->rule->name);
	strbuf_addstr(x, "\" time=\"0\">\n");
	gate_out_rule_line(&body, r, 0, 0);
	gate_out_offenders(&body, g, r);
	gate_out_sweeps(&body, r);
	gate_out_verdicts(&body, g, r);
	gate_out_movers(&body, g, r);
	junit_props(x, r);
	if (r->status == GATE_FAIL) {
		strbuf_addstr(x, "      <failure type=\"gate\" message=\"");
		gate_xml_escape(x, r->message);
		strbuf_addstr(x, "\">");
		gate_xml_escape(x, body.buf);
		strbuf_addstr(x, "</failure>\n    </testcase>\n");
		strbuf_release(&body);
		return;
	}
	if (r->status != GATE_PASS) {
		/* neither pass nor fail: JUnit's "skipped", with the reason;
		 * a warning does not block the release, an unknown rule is
		 * undecided */
		strbuf_addf(x, "      <skipped message=\"%s: ", r->status ==
			    GATE_WARN ? "warning" : "unknown");
		gate_xml_escape(x, r->message ? r->message : "");
		strbuf_addstr(x, "\"/>\n");
	}
	strbuf_addstr(x, "      <system-out>");
	gate_xml_escape(x, body.buf);
	strbuf_addstr(x, "</system-out>\n    </testcase>\n");
	strbuf_release(&body);
}

int gate_out_junit(FILE *fp, const struct gate_result *g)
{
	struct strbuf x = STRBUF_INIT, side = STRBUF_INIT;
	char now[32];
	int rc = 0;

	util_now_iso(now, sizeof(now));
	now[strcspn(now, "Z")] = 0;

	/* tests, failures, errors and skipped always, 0 included (JUnit
	 * schema consumers read all four); warnings and unknown rules are
	 * JUnit's "skipped" (their messages and each testcase's "status"
	 * property tell them apart) */
	strbuf_addf(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<testsuites name=\"perfcorr gate\" tests=\"%zu\" "
		    "failures=\"%ld\" errors=\"0\" skipped=\"%ld\">\n"
		    "  <testsuite name=\"", g->nrules, g->nfail,
		    g->nunknown + g->nwarn);
	gate_xml_escape(&x, g->policy->name);
	strbuf_addf(&x, "\" tests=\"%zu\" failures=\"%ld\" errors=\"0\" "
		    "skipped=\"%ld\" timestamp=\"%s\">\n    <properties>\n",
		    g->nrules, g->nfail, g->nunknown + g->nwarn, now);
	add_side(&side, &g->set->model);
	strbuf_addstr(&x, "      <property name=\"model\" value=\"");
	gate_xml_escape(&x, side.buf);
	strbuf_reset(&side);
	add_side(&side, &g->set->ref);
	strbuf_addstr(&x, "\"/>\n      <property name=\"ref\" value=\"");
	gate_xml_escape(&x, side.buf);
	strbuf_addf(&x, "\"/>\n      <property name=\"policy_sha256\" "
		    "value=\"%s\"/>\n      <property name=\"verdict\" "
		    "value=\"%s\"/>\n      <property name=\"warnings\" "
		    "value=\"%ld\"/>\n      <property name=\"unknown\" "
		    "value=\"%ld\"/>\n", g->policy->hash,
		    gate_status_name(g->verdict), g->nwarn, g->nunknown);
	if (g->ntests)
		strbuf_addf(&x, "      <property name=\"error_control\" "
			    "value=\"%s\"/>\n      <property name=\"tests\" "
			    "value=\"%zu\"/>\n", policy_error_control_name(
			    g->policy->error_control), g->ntests);
	strbuf_addstr(&x, "    </properties>\n");
	for (size_t i = 0; i < g->nrules; i++)
		junit_case(&x, g, &g->rules[i]);
	strbuf_addstr(&x, "  </testsuite>\n</testsuites>\n");
	if (fputs(x.buf, fp) == EOF)
		rc = pc_error_set(PC_EIO, "cannot write JUnit XML");
	strbuf_release(&x);
	strbuf_release(&side);
	return rc;
}

int gate_out_junit_error(FILE *fp, const char *policy, const char *msg)
{
	struct strbuf x = STRBUF_INIT;
	int rc = 0;

	strbuf_addstr(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<testsuites name=\"perfcorr gate\" tests=\"1\" "
		      "failures=\"0\" errors=\"1\" skipped=\"0\">\n"
		      "  <testsuite name=\"");
	gate_xml_escape(&x, policy ? policy : "gate");
	strbuf_addstr(&x, "\" tests=\"1\" failures=\"0\" errors=\"1\" "
		      "skipped=\"0\">\n"
		      "    <testcase classname=\"perfcorr.gate\" "
		      "name=\"evaluate\" time=\"0\">\n      <error "
		      "type=\"gate\" message=\"");
	gate_xml_escape(&x, msg);
	strbuf_addstr(&x, "\"/>\n    </testcase>\n  </testsuite>\n"
		      "</testsuites>\n");
	if (fputs(x.buf, fp) == EOF)
		rc = pc_error_set(PC_EIO, "cannot write JUnit XML");
	strbuf_release(&x);
	return rc;
}
