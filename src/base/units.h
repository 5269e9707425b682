#ifndef PC_DB_UNITS_H
#define PC_DB_UNITS_H
/*
 * The unit table: every unit perfcorr accepts, its dimension and the
 * factor to the SI unit values are stored in. An unknown unit is an
 * error naming it, never a guess. Entries are static; pointers borrowed.
 */

struct unit {
	const char *name;	/* as written in files: "ms", "Kbyte" */
	const char *dim;	/* time, cycles, power, energy, rate ... */
	double factor;		/* value_si = value * factor */
	const char *si;		/* the SI unit stored: "s", "W", "B" */
};

/* Look a unit up (exact spelling first, then case-insensitively).
 * Returns NULL when unknown. "" is dimensionless ("count"). */
const struct unit *units_lookup(const char *name);

/* The SI unit usually used for a dimension ("s" for time), or NULL. */
const char *units_si_for_dim(const char *dim);

/* v (in a unit whose SI factor is factor) in SI. A power-of-ten factor
 * shifts the decimal exponent of v's shortest round-trip text instead of
 * multiplying, so 102.201 us is stored as the double nearest 0.000102201
 * (102.201 * 1e-6 is 0.00010220099999999999); other factors multiply. */
double units_to_si(double v, double factor);

/* Iterate: the i-th entry or NULL past the end (for docs and --help). */
const struct unit *units_at(int i);

#endif
