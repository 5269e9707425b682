/* The importer registry: one row per format (see importer.h). */
#include "importers/importer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"

extern const struct importer imp_perfcorr_csv;
extern const struct importer imp_perfcorr_json;
extern const struct importer imp_nsys_kern_sum;
extern const struct importer imp_vllm;
extern const struct importer imp_llm_viewer;
extern const struct importer imp_llm_analysis;
extern const struct importer imp_genz;
extern const struct importer imp_llmcompass;
extern const struct importer imp_scalesim;
extern const struct importer imp_nsys_trace;
extern const struct importer imp_nvprof;
extern const struct importer imp_gpgpusim;
extern const struct importer imp_accelsim_stats;
extern const struct importer imp_gem5;
extern const struct importer imp_timeloop;
extern const struct importer imp_ncu_details;
extern const struct importer imp_ncu_raw;
extern const struct importer imp_vllm_stdout;
extern const struct importer imp_sglang;
extern const struct importer imp_sglang_one_batch;
extern const struct importer imp_cocotb;
extern const struct importer imp_verilator;
extern const struct importer imp_vcs;
extern const struct importer imp_chipyard;
extern const struct importer imp_regex_log;
extern const struct importer imp_nvsmi;
extern const struct importer imp_dcgm;
extern const struct importer imp_mlperf_summary;
extern const struct importer imp_mlperf_detail;
extern const struct importer imp_trtllm_bench;
extern const struct importer imp_trtllm_bench_json;
extern const struct importer imp_trtllm_csv;
extern const struct importer imp_perf_analyzer;
extern const struct importer imp_genai_perf_csv;
extern const struct importer imp_genai_perf_json;
extern const struct importer imp_aiperf_json;
extern const struct importer imp_aiperf_csv;
extern const struct importer imp_aiperf_jsonl;
extern const struct importer imp_inference_perf;
extern const struct importer imp_inference_perf_req;
extern const struct importer imp_llmd_report;
extern const struct importer imp_aiperf_server;
extern const struct importer imp_genai_perf_analyze;
extern const struct importer imp_llmperf;
extern const struct importer imp_optimum;
extern const struct importer imp_torch_trace;
extern const struct importer imp_torch_table;

const struct importer *const importers[] = {
	&imp_perfcorr_csv,
	&imp_perfcorr_json,
	&imp_nsys_kern_sum,
	&imp_vllm,
	&imp_llm_viewer,
	&imp_llm_analysis,
	&imp_genz,
	&imp_llmcompass,
	&imp_scalesim,
	&imp_nsys_trace,
	&imp_nvprof,
	&imp_gpgpusim,
	&imp_accelsim_stats,
	&imp_gem5,
	&imp_timeloop,
	&imp_ncu_details,
	&imp_ncu_raw,
	&imp_vllm_stdout,
	&imp_sglang,
	&imp_sglang_one_batch,
	&imp_cocotb,
	&imp_verilator,
	&imp_vcs,
	&imp_chipyard,
	&imp_regex_log,
	&imp_nvsmi,
	&imp_dcgm,
	&imp_mlperf_summary,
	&imp_mlperf_detail,
	&imp_trtllm_bench,
	&imp_trtllm_bench_json,
	&imp_trtllm_csv,
	&imp_perf_analyzer,
	&imp_genai_perf_csv,
	&imp_genai_perf_json,
	&imp_aiperf_json,
	&imp_aiperf_csv,
	&imp_aiperf_jsonl,
	&imp_inference_perf,
	&imp_inference_perf_req,
	&imp_llmd_report,
	&imp_aiperf_server,
	&imp_genai_perf_analyze,
	&imp_llmperf,
	&imp_optimum,
	&imp_torch_trace,
	&imp_torch_table,
	NULL,
};

void imp_record_init(struct imp_record *r)
{
	memset(r, 0, sizeof(*r));
	r->n = r->mean = r->median = r->min = r->max = r->stddev = NAN;
	r->total = NAN;
	r->value = NAN;
}

const char *imp_opt(const struct imp_input *in, const char *key)
{
	size_t n = strlen(key);

	for (const char *const *o = in->opts; o && *o; o++)
		if (!strncmp(*o, key, n) && (*o)[n] == '=')
			return *o + n + 1;
	return NULL;
}

int importer_check_opts(const struct importer *imp,
			const char *const *opts)
{
	for (const char *const *o = opts; o && *o; o++) {
		const char *eq = strchr(*o, '=');
		size_t n = eq ? (size_t)(eq - *o) : strlen(*o);
		struct strbuf known = STRBUF_INIT;
		int found = 0;

		for (const char *const *k = imp->options; k && *k; k++) {
			if (strlen(*k) == n && !strncmp(*k, *o, n) && eq)
				found = 1;
			strbuf_addf(&known, "%s%s", known.len ? ", " : "", *k);
		}
		if (!found) {
			if (!eq || !n)
				pc_error_set(PC_EUSAGE, "option '%s': expected "
					"KEY=VALUE", *o);
			else if (known.len)
				pc_error_set(PC_EUSAGE, "unknown option '%.*s' "
					"for format %s (known: %s)", (int)n, *o,
					imp->name, known.buf);
			else
				pc_error_set(PC_EUSAGE, "unknown option '%.*s': "
					"format %s takes no options", (int)n, *o,
					imp->name);
			strbuf_release(&known);
			return PC_EUSAGE;
		}
		strbuf_release(&known);
	}
	return 0;
}

const struct importer *importer_find(const char *name)
{
	for (int i = 0; importers[i]; i++)
		if (!strcmp(importers[i]->name, name))
			return importers[i];
	return NULL;
}

int importer_detect(const struct importer **out, const char *head,
		    size_t len, const char *filename)
{
	const struct importer *best = NULL;
	int best_score = 0, ties = 0;
	struct strbuf tried = STRBUF_INIT;

	for (int i = 0; importers[i]; i++) {
		int s = importers[i]->probe(head, len, filename);

		if (s > 0)
			strbuf_addf(&tried, "%s%s=%d", tried.len ? ", " : "",
				    importers[i]->name, s);
		if (s > best_score) {
			best = importers[i];
			best_score = s;
			ties = 0;
		} else if (s == best_score && s > 0) {
			ties++;
		}
	}
	if (ties) {
		pc_error_set(PC_EINVALID, "%s: cannot tell the format (several "
			     "importers claim it; scores: %s); use --format "
			     "NAME", filename, tried.buf);
		strbuf_release(&tried);
		return PC_EINVALID;
	}
	if (!best) {
		/* not 42 zero scores: the nearest formats and what each
		 * misses (issue 35 item 10) */
		char *why = importer_closest(head);

		pc_error_set(PC_EINVALID, "%s: cannot tell the format (no "
			     "importer recognises it; %s); use --format NAME "
			     "('perfcorr formats' lists them)", filename, why);
		free(why);
		strbuf_release(&tried);
		return PC_EINVALID;
	}
	strbuf_release(&tried);
	*out = best;
	return 0;
}
