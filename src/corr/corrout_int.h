#ifndef PC_SRC_CORR_CORROUT_INT_H
#define PC_SRC_CORR_CORROUT_INT_H
/*
 * Private to corrout*.c: THE table of statistics (corrout.c owns it:
 * corrout_tab and its additions, the fit's and Deming's parts) and
 * the accessors its writers read a summary through. One way, never
 * back: the writers corrout_json.c (the JSON of the contract) and
 * corrout_text.c (CSV and the table for people) read the table;
 * corrout.c (the table, flattened for the other writers, and its
 * documentation) calls neither.
 */
#include <stddef.h>

#include "src/corr/corrout.h"

enum kind { K_NUM, K_COUNT, K_ERR };

/*
 * THE table of statistics (issue 19): every statistic a summary has, in
 * the order of the JSON contract, with its JSON key (name), format and
 * unit behaviour (kind, unit), the reason index, its interval, where
 * people see it besides compare (views: the report's accuracy tables,
 * its per-op tables, the TUI's Summary view), the column labels and a
 * one-line description. compare's JSON, CSV and table, trend, diff, the
 * report (JSON, and the columns and "All statistics" of Markdown and
 * HTML), the gate's statistics and the TUI's Summary view iterate it;
 * docs/statistics.md's list is checked against it
 * (tests/unit/test_corrout.c). A new statistic: a field of struct
 * stats_summary, its function, and a row here.
 */
struct field {
	const char *name;
	enum kind kind;
	int why;		/* enum stats_field, or -1 */
	size_t off;
	size_t ci;		/* offset of its struct stats_ci, or 0 */
	enum corrout_unit unit;
	unsigned views;		/* CORROUT_V_* */
	const char *label, *abbr, *desc;
};

/* The short names of the units and views (the table's columns). */
#define UC CORROUT_U_COUNT
#define UE CORROUT_U_ERR
#define UR CORROUT_U_RATIO
#define UM CORROUT_U_METRIC
#define UL CORROUT_U_LOG
#define VR CORROUT_V_REPORT
#define VO CORROUT_V_OPS
#define VT CORROUT_V_TUI

/* corrout.c: the table (corrout_ntab rows, then corrout_nmore
 * additions; "fit" and "deming" expand to their parts). */
extern const struct field corrout_tab[];
extern const size_t corrout_ntab;
extern const struct field corrout_more[];
extern const size_t corrout_nmore;
extern const struct field corrout_deming[];	/* 4 */
extern const struct field corrout_fit[];	/* 5 */

static inline double dval(const struct stats_summary *s, const struct field *f)
{
	return *(const double *)((const char *)s + f->off);
}

static inline long lval(const struct stats_summary *s, const struct field *f)
{
	return *(const long *)((const char *)s + f->off);
}

static inline const struct stats_ci *cival(const struct stats_summary *s,
					   const struct field *f)
{
	return (const struct stats_ci *)(const void *)((const char *)s +
						       f->ci);
}

#endif
