#ifndef PC_BASE_FINGERPRINT_H
#define PC_BASE_FINGERPRINT_H
/*
 * The workload fingerprint of a run (issue 37): what the run actually ran
 * (token lengths, load, parallelism, precision ...), stated by the
 * importer from the file or by `import --meta fp.FIELD=VALUE`, stored as
 * run metadata "fp.FIELD". The table says each field's class and its
 * tolerance and whether pairing checks it (src/corr/corr_fp.c); pure
 * functions, no SQL (docs/statistics.md "Is the pair comparable?").
 */
#include <stddef.h>

enum fp_class {
	FP_NUMBER,	/* relative tolerance tol */
	FP_RATE,	/* a number or "inf"; relative tolerance tol */
	FP_BOOL,	/* true/false, exact */
	FP_INT,		/* a whole number, exact */
	FP_TEXT,	/* exact text */
	FP_CHOICE,	/* one of fp_field.choices, exact */
	FP_DTYPE	/* exact after the spelling is folded: lowercase,
			   "torch." dropped, bfloat16 -> bf16, float16 and
			   half -> fp16, float32 and float -> fp32 ... */
};

struct fp_field {
	const char *name;	/* metadata key without "fp." */
	enum fp_class cls;
	double tol;		/* relative, FP_NUMBER and FP_RATE */
	int checked;		/* pairing refuses a mismatch */
	const char *choices;	/* FP_CHOICE: "a|b" */
	const char *what;	/* one line for docs and messages */
};

/* How many fields the table has (fixed: corr_set counts per field). */
#define FP_NFIELDS 20

extern const struct fp_field fp_fields[];
extern const size_t fp_nfields;

/* The field named name (with or without "fp."), or NULL. */
const struct fp_field *fp_field_find(const char *name);
/* Index of f in fp_fields. */
size_t fp_field_index(const struct fp_field *f);

/* 0 when v is a valid value of f, else -1 with the expected form in
 * *expect (static text). */
int fp_value_ok(const struct fp_field *f, const char *v, const char **expect);

/* Canonical spelling of a valid value into buf (booleans true/false,
 * numbers %.10g, "inf", dtypes folded); returns buf. */
const char *fp_canon(const struct fp_field *f, const char *v, char *buf,
		     size_t size);

/* 1 when a and b (valid values of f) agree within f's tolerance. */
int fp_same(const struct fp_field *f, const char *a, const char *b);

/* 1 when the relative difference |a - b| / max(|a|, |b|) <= tol (both
 * zero agree; equal infinities agree, a finite and an infinite do not). */
int fp_within(double a, double b, double tol);

#endif
