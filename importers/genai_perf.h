#ifndef PC_IMPORTERS_GENAI_PERF_H
#define PC_IMPORTERS_GENAI_PERF_H
/*
 * genai-perf JSON parts shared by imp_genai_perf.c: the run identity
 * from input_config and the GPU telemetry (genai_perf.c).
 */
#include "importers/importer.h"
#include "importers/stacks.h"

struct cJSON;

/* input_config, flat (<= 0.0.12: model, concurrency,
 * synthetic_input_tokens_mean, output_tokens_mean) or nested (>= 0.0.13:
 * model_names, perf_analyzer.stimulus.concurrency,
 * input.synthetic_tokens.mean, input.output_tokens.mean): the workload
 * name and the parameters concurrency, input_len, output_len. */
int genai_perf_identity(struct imp_sink *sink, const struct cJSON *doc,
			struct imp_input *in);

/* The workload fingerprint (issue 37) the JSON states, as fp.FIELD run
 * metadata: input/output_sequence_length avg and std (the per-request
 * lengths measured), request_throughput avg (achieved), aiperf's
 * total_output_tokens; from input_config the concurrency and request
 * rate asked for (flat, nested or AIPerf's loadgen; genai-perf's -1 is
 * "not set"), extra inputs' ignore_eos, AIPerf's warmup_request_count >
 * 0 (warmup excluded); tool (genai-perf or aiperf). */
int genai_perf_fp(struct imp_sink *sink, const struct cJSON *doc,
		  const char *tool);

/* telemetry_stats: power (W), utilization (%), memory_used (GB) per GPU
 * and energy from the cumulative energy_consumption counter (MJ): max -
 * min of the run, never the counter. One GPU: op e2e; several: op gpuN
 * each and e2e (power, energy, memory summed, utilization averaged).
 * Metrics laid out per GPU or per statistic are both read. */
int genai_perf_telemetry(struct imp_sink *sink, const struct cJSON *doc,
			 struct imp_input *in, struct stk_out *o);

#endif
