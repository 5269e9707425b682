#ifndef PC_TUI_DETAIL_VALUES_H
#define PC_TUI_DETAIL_VALUES_H
/*
 * The detail's "Values" and "Pairwise errors" sections: every stored
 * result of the key's (workload, op), one block per source and run (a
 * run's provenance once, its metrics below, cycles with the time the
 * run's clock makes of them: the time a pairing uses), and the pairwise
 * error of every model kind against every later kind, from the
 * correlation core (a reference that holds cycles pairs in cycles: the
 * core converts the model's time with the reference's clock, and the
 * line shows the time both are at that clock). Both fit
 * 80 columns.
 */
#include <stddef.h>

struct view;
struct corr_point;
struct db_detail_row;

/* Append the Values section for rows (db_detail_results) to v->text. */
void detail_values_add(struct view *v, const struct db_detail_row *rows,
		       size_t n);

/* Append the Pairwise errors section of point p, the sources of rows. */
void detail_pairs_add(struct view *v, const struct corr_point *p,
		      const struct db_detail_row *rows, size_t n);

#endif
