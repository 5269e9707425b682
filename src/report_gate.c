/* The gate verdict in a report (see report_gate.h). */
#include "src/report_gate.h"

#include "src/report.h"
#include "src/util.h"

int report_gate(struct report *r, struct db *db)
{
	(void)db;
	r->gate_verdict = -1;
	r->gate_text = xasprintf("not available: this build has no gate "
				 "module (policy '%s' not evaluated)",
				 r->opts.policy);
	return 0;
}
