#ifndef PC_IMPORTERS_AIPERF_H
#define PC_IMPORTERS_AIPERF_H
/*
 * NVIDIA AIPerf's schema-versioned JSON exports (issue 37 item 4), shared
 * by aiperf-json (profile_export_aiperf.json, read by the genai-perf
 * reader: imp_genai_perf.c) and aiperf-server-metrics
 * (server_metrics_export.json): the schema_version check, the run
 * identity of the 2026 configuration (models.items, phases) besides the
 * 2025 one genai_perf_identity() reads (endpoint.model_names, loadgen),
 * and the workload fingerprint of the profile export.
 */
#include "importers/fpstate.h"
#include "importers/importer.h"

struct cJSON;

/* schema_version, when present, must be a text "1" or "1.x" (AIPerf bumps
 * the minor on additive changes, the major on renames): PC_EINVALID
 * naming file:line and the version otherwise. what names the export. */
int aiperf_schema(const struct cJSON *doc, struct imp_input *in,
		  const char *what);

/* The 2026 input_config (AIPerf config v2.0: models.items[].name,
 * phases.<profiling>.{concurrency, rate}): the workload name and the
 * parameters concurrency and request_rate (and into fp, may be NULL),
 * only where the 2025 layout (endpoint.model_names, loadgen) is absent;
 * fp.tool_version from aiperf_version. */
int aiperf_identity(struct imp_sink *sink, const struct cJSON *doc,
		    struct fpstate *fp);

/* The fingerprint of a profile export beyond genai_perf_fp() (which
 * states the lengths, the achieved rate and the 2025 load): the input
 * total (total_isl) and a 2026 warmup phase (warmup excluded). */
void aiperf_fingerprint(const struct cJSON *doc, struct fpstate *fp);

#endif
