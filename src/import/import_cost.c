/* What a run cost: --cost and --cost-unit (see import.h). */
#include "src/import/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"

static const char *const cost_units[] = { "s", "core-h", "emu-h", "gpu-h" };

int import_cost_parse(const char *text, const char *unit, double *cost_out,
		      const char **unit_out)
{
	const struct unit *u = NULL;
	const char *which = NULL;
	char *end;
	double v;

	for (size_t i = 0; i < sizeof(cost_units) / sizeof(*cost_units); i++)
		if (!strcmp(unit ? unit : "s", cost_units[i]))
			which = cost_units[i];
	if (!which)
		return pc_error_set(PC_EUSAGE, "--cost-unit '%s': not a unit "
				    "of cost (s: wall-clock seconds; core-h, "
				    "emu-h, gpu-h: hours of a CPU core, an "
				    "emulator, a GPU)", unit);
	v = strtod(text, &end);
	if (end == text || !isfinite(v) || v < 0)
		return pc_error_set(PC_EUSAGE, "--cost '%s': not a non-negative "
				    "amount like 3.5h, 90min or 120", text);
	while (*end == ' ')
		end++;
	if (*end && (!(u = units_lookup(end)) || strcmp(u->dim, "time")))
		return pc_error_set(PC_EUSAGE, "--cost '%s': '%s' is not a unit "
				    "of time (s, ms, min, h ...)", text, end);
	if (!strcmp(which, "s"))
		*cost_out = u ? units_to_si(v, u->factor) : v;
	else
		*cost_out = u ? units_to_si(v, u->factor) / 3600 : v;
	*unit_out = which;
	return 0;
}

void import_cost_fmt(char *buf, size_t len, double cost, const char *unit)
{
	if (!unit || isnan(cost))
		snprintf(buf, len, "-");
	else if (strcmp(unit, "s"))
		snprintf(buf, len, "%.3g %s", cost, unit);
	else if (cost >= 7200)
		snprintf(buf, len, "%.3g h", cost / 3600);
	else if (cost >= 120)
		snprintf(buf, len, "%.3g min", cost / 60);
	else
		snprintf(buf, len, "%.3g s", cost);
}
