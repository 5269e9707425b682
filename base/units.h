#ifndef PC_DB_UNITS_H
#define PC_DB_UNITS_H
/*
 * The unit table: every unit perfcorr accepts, its dimension and the
 * factor to the SI unit values are stored in. An unknown unit is an
 * error naming it, never a guess. Entries are static; pointers borrowed.
 */
#include <stddef.h>

struct unit {
	const char *name;	/* as written in files: "ms", "Kbyte" */
	const char *dim;	/* time, cycles, power, energy, rate ... */
	double factor;		/* value_si = value * factor */
	const char *si;		/* the SI unit stored: "s", "W", "B" */
};

/* Look a unit up (exact spelling first, then case-insensitively).
 * Returns NULL when unknown. "" is dimensionless ("count"). */
const struct unit *units_lookup(const char *name);

/* units_lookup(), then a compound unit perfcorr has no dimension for,
 * "N/D" with N a unit of the table (prefix applied: "Kbyte/block" is
 * 1000 B/block) or a word ("register/thread", "inst/warp": a count is
 * spelled by its own word), D a word or a table unit: its dimension and
 * SI unit are the SI spelling ("B/block"), so two spellings of one
 * quantity agree. Then words registered with units_word(). NULL when
 * none fits. Compound units live as long as the process. */
const struct unit *units_resolve(const char *name);

/* Register a bare word as a count labelled by itself ("warp", "SM"),
 * for a format whose unknown unit words are counts (ncu); NULL when name
 * is not a plain word. */
const struct unit *units_word(const char *name);

/* The SI unit usually used for a dimension ("s" for time), or NULL. */
const char *units_si_for_dim(const char *dim);

/* v (in a unit whose SI factor is factor) in SI. A power-of-ten factor
 * shifts the decimal exponent of v's shortest round-trip text instead of
 * multiplying, so 102.201 us is stored as the double nearest 0.000102201
 * (102.201 * 1e-6 is 0.00010220099999999999); other factors multiply. */
double units_to_si(double v, double factor);

/* 4 significant digits with an SI prefix: 0.001234 -> "1.234m",
 * 2.5e9 -> "2.5G", 0 -> "0", NaN -> "-" (units_fmt.c). */
void units_si(char *buf, size_t len, double v);

enum {
	UNITS_FMT_ASCII = 1,	/* "us", not "µs" */
	UNITS_FMT_SHORT = 2,	/* "tokens" -> "tok" (a narrow column) */
};
/* v, in the SI unit unit (a metric's stored unit: "s", "W", "cycles"),
 * for people: 4 significant digits and an SI prefix (102.2e-6 s ->
 * "102.2 µs", 2.496e5 cycles -> "249.6 kcycles", 2510 tokens/s -> "2.51
 * ktokens/s"); a dimensionless value (unit "" or "1"), a percent or
 * degrees Celsius without one (0.9995 -> "0.9995", 999.5 -> "999.5",
 * 12345 -> "12345"); NaN -> "-". The CLI and the TUI (tui/fmt.c) print
 * values with it (issue 35 item 8). */
void units_fmt(char *buf, size_t len, double v, const char *unit,
	       unsigned flags);

/* Iterate: the i-th entry or NULL past the end (for docs and --help). */
const struct unit *units_at(int i);

#endif
