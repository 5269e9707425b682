#ifndef PC_SRC_MATRIX_MATRIX_INT_H
#define PC_SRC_MATRIX_MATRIX_INT_H
/*
 * Private to src/matrix/matrix*.c: the load state matrix_build keeps
 * while it builds, and the steps it calls. The call order is one way:
 * matrix.c (matrix_build, build: the order of the steps, the keys'
 * classification and annotations) calls matrix_load.c (the sources and
 * their values) and matrix_cells.c (the cells, the roofline beside each
 * key), never the other way; the two parts do not call each other.
 */
#include <stddef.h>

#include "base/hmap.h"
#include "src/matrix/matrix.h"

struct db_side;
struct db_name;
struct corr_point;
struct strbuf;

/* A source to load: SRC[@V], and whether it was chosen by default. */
struct spec {
	char *spec;
	int implicit;
};

/* Private load state. */
struct loader {
	struct matrix *m;
	const struct matrix_opts *o;
	struct db *db;
	struct db_side *sides;		/* clocks of each source's runs */
	struct hmap keys;		/* "w\x1fo\x1fmetric" -> key index */
	struct hmap has_time;		/* "w\x1fo" and "i\x1fw\x1fo" */
	size_t cap;
	struct db_name *metrics;	/* for units and directions */
	size_t nmetrics;
};

/* matrix_load.c */
/* Every source that has runs, as implicit specs appended to *out. */
int matrix_every_source(struct db *db, struct spec **out, size_t *n);
/* Load one source through the correlation core into m->src/m->sets; an
 * implicit one that matches nothing is named in left_out. */
int matrix_load_source(struct loader *ld, const struct spec *sp);
/* Sources in tier order, labelled. */
void matrix_order_sources(struct matrix *m);
/* Note which (workload, op) any source, and each source, holds time of. */
void matrix_note_time(struct loader *ld);
/* Source i's point p as a value of its key. */
int matrix_add_value(struct loader *ld, size_t i,
		     const struct corr_point *p, struct strbuf *sb);
/* Leave out the implicit sources whose cycles cannot become time. */
void matrix_drop_clockless(struct loader *ld, struct strbuf *sb);

/* matrix_cells.c */
/* Every metric's cells over the sorted keys (skipped metrics listed). */
int matrix_build_cells(struct loader *ld);
/* The roofline's violations beside a classified key. */
void matrix_key_sol(struct loader *ld, struct matrix_key *k);

#endif
