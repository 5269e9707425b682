#ifndef PC_IMPORTERS_FPSTATE_H
#define PC_IMPORTERS_FPSTATE_H
/*
 * The workload fingerprint an importer states (issue 37,
 * base/fingerprint.h) for a file of several documents (a JSONL of
 * benchmark results): each document's values are noted, and at the end
 * only the fields every document that states them agrees on go to the
 * sink as "fp.FIELD" (a field that differs between documents is no fact
 * of the run; a sweep's request rate is a workload parameter already).
 */
#include <cjson/cJSON.h>

#include "importers/importer.h"

#define FPSTATE_MAX 32

struct fpstate {
	char *val[FPSTATE_MAX];
	unsigned char conflict[FPSTATE_MAX];
};

/* Note field = value (a text; NULL or "" ignored). */
void fpstate_note(struct fpstate *f, const char *field, const char *value);
/* A number (NaN ignored; infinity noted "inf"). */
void fpstate_num(struct fpstate *f, const char *field, double v);
/* A JSON member: a number, a bool, a string ("inf" kept); null or
 * absent ignored. */
void fpstate_json(struct fpstate *f, const char *field, const cJSON *v);
/* A number, or a string that is one ("550"); anything else ignored. */
void fpstate_jnum(struct fpstate *f, const char *field, const cJSON *v);
/* A text that is a number ("8", "21.5"); anything else ("None", "")
 * ignored. */
void fpstate_jnum_text(struct fpstate *f, const char *field, const char *s);
/* mean = total / count when both are numbers and count > 0. */
void fpstate_mean(struct fpstate *f, const char *field, const cJSON *total,
		  const cJSON *count);
/* Mean and sample stddev of a JSON array of numbers into field and
 * field_sd (arrays of fewer than 2 numbers: the mean only). */
void fpstate_array(struct fpstate *f, const char *field, const cJSON *arr);
/* State the agreed fields to the sink (a value the field does not take
 * is left out with a warning); releases f. */
int fpstate_flush(struct fpstate *f, struct imp_sink *sink);
void fpstate_release(struct fpstate *f);

#endif
