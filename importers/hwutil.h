#ifndef PC_IMPORTERS_HWUTIL_H
#define PC_IMPORTERS_HWUTIL_H
/*
 * Helpers shared by the measured-hardware importers (nsys, ncu, nvprof,
 * vLLM, SGLang, MLPerf, nvidia-smi, DCGM): header units, probing by
 * lines, record emission, per-kernel aggregation of traces, power series
 * and JSON document streams (text lines: importers/lines.h). Nothing
 * here owns SQL; strings returned are borrowed unless said otherwise.
 */
#include <stddef.h>
#include <stdio.h>

#include "importers/importer.h"
#include "base/hmap.h"

/* Split a header cell "Avg (ns)" or "power.draw [W]" into its name and
 * the unit in the final (...) or [...]; unit is "" when there is none.
 * Both are written trimmed into the caller's buffers (truncated). */
void hwutil_split_unit(const char *hdr, char *name, size_t nlen,
		       char *unit, size_t ulen);

/* 1 when some line of head (NUL-terminated) contains every one of the
 * NULL-terminated needles. */
int hwutil_line_has(const char *head, const char *const *needles);

/* Emit one value with no statistics; op NULL maps raw. */
int hwutil_emit(struct imp_sink *s, long line, const char *op,
		const char *raw, const char *metric, double value,
		const char *unit);

/* Per-kernel aggregation of traces and per-launch profiles: values per
 * (raw name, metric), in order of first appearance. Memory: one double
 * per instance. */
struct hwutil_agg {
	struct hmap idx;
	struct hwutil_kernel *k;
	size_t n, cap;
};

void hwutil_agg_init(struct hwutil_agg *a);
void hwutil_agg_release(struct hwutil_agg *a);
/* Add one instance of (name, metric) with value in unit (a units.h
 * name). A later unit of the same dimension is converted to the first
 * one; another dimension is PC_EINVALID naming metric and units. */
int hwutil_agg_add(struct hwutil_agg *a, const char *name,
		   const char *metric, const char *unit, double value,
		   long line);
/* Emit one record per (name, metric): value = mean, n = instances,
 * median, min, max, sample stddev (0 for one instance); op NULL. */
int hwutil_agg_emit(struct hwutil_agg *a, struct imp_sink *s);
/* End of a per-launch trace (nsys gputrace, nvprof): a trace without
 * kernel rows is refused, skipped memory operations are recorded in the
 * run metadata, then the per-kernel aggregates are emitted. */
int hwutil_trace_finish(struct hwutil_agg *a, struct imp_sink *s,
			long memops, const char *path);

/* Integration of a sampled signal (power) over time by the trapezoid
 * rule; also mean/max/stddev of the samples and the sampling interval. */
struct hwutil_series {
	double t0, tlast, vlast;	/* seconds, value */
	double integral, sum, sumsq, max, min;
	double dt_sum;			/* sum of positive intervals */
	long n, nint;
};

void hwutil_series_init(struct hwutil_series *s);
void hwutil_series_add(struct hwutil_series *s, double t, double v);
double hwutil_series_mean(const struct hwutil_series *s);
double hwutil_series_stddev(const struct hwutil_series *s);


/* Header columns found by name: names is "Avg|Average" (alternatives
 * compared after hwutil_split_unit). */
struct csv;

struct hwutil_col {
	const char *names;
	int required;
	int idx;		/* -1 when absent */
	char unit[24];		/* from the header's (...) or [...] */
};

/* Match the current record against cols: fills idx/unit and returns the
 * number of required columns found (== count required: a header). */
int hwutil_cols_match(const struct csv *c, struct hwutil_col *cols,
		      size_t ncols);

/* The first required column of cols that is absent, or NULL. */
const char *hwutil_cols_missing(const struct hwutil_col *cols,
				size_t ncols);

/* Parse field col of the current record as a number: NaN for missing
 * when !required; errors name "file:line: column 'X': 'v' is not a
 * number" or "... is empty". */
int hwutil_num(const struct csv *c, const struct hwutil_col *col,
	       double *out, int required);

/* Read a stream of JSON documents: one document, JSON lines, or several
 * concatenated (vLLM --append-result), one at a time through the
 * streaming reader (base/jsonstream.h). Python's bare Infinity and
 * -Infinity become +-inf and NaN the string "-" (a missing value). fn
 * gets each document (deleted after it returns) and the line it starts
 * on; a non-zero return stops. keep (NULL: all) drops members of a
 * document's top-level object before they are built (per-request arrays:
 * skipped, still checked); what is built of one document is capped at
 * JSONUTIL_DOC_MAX bytes of input. Returns the number of documents (at
 * least one), or <0 with "file:line:col: invalid JSON (byte N): ..." or
 * "file: no JSON document" for a file with none. */
struct cJSON;
struct jsonstream_tok;
int hwutil_json_docs(FILE *fp, const char *path,
		     int (*fn)(struct cJSON *doc, long line, void *ctx),
		     void *ctx);
int hwutil_json_docs_keep(FILE *fp, const char *path,
			  int (*keep)(const char *key,
				      const struct jsonstream_tok *value,
				      const struct cJSON *sofar, void *ctx),
			  int (*fn)(struct cJSON *doc, long line, void *ctx),
			  void *ctx);

/* Read a document that is one JSON array (a per-request file written by
 * json.dumps(list)) one element at a time through the streaming reader:
 * fn gets each element, built (keep drops members of an element object
 * before they are built; at most JSONUTIL_DOC_MAX each) and deleted
 * after it returns, and the line it starts on; a non-zero return stops.
 * Returns the number of elements, or <0: "file:line: expected a JSON
 * array (what)", a cut or malformed file "file:line:col: invalid JSON". */
int hwutil_json_items(FILE *fp, const char *path, const char *what,
		      int (*keep)(const char *key,
				  const struct jsonstream_tok *value,
				  const struct cJSON *sofar, void *ctx),
		      int (*fn)(struct cJSON *item, long line, void *ctx),
		      void *ctx);

#endif
