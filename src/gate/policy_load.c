/* Loading, freeing and naming gate policies (see policy.h; the parser
 * is policy.c). */
#include "src/gate/policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

const char *policy_error_control_name(enum policy_error_control e)
{
	return e == PEC_BH ? "bh" : e == PEC_NONE ? "none" : "holm";
}

const char *policy_unknown_name(enum policy_unknown u)
{
	return u == PU_FAIL ? "fail" : u == PU_PASS ? "pass" : "unknown";
}

int policy_load(struct policy **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	size_t n;
	FILE *fp;
	int rc;

	if (!(fp = fopen(path, "rb")))
		return pc_error_set(PC_EIO, "cannot open '%s'", path);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&sb, buf, n);
	rc = ferror(fp);
	fclose(fp);
	if (rc) {
		strbuf_release(&sb);
		return pc_error_set(PC_EIO, "cannot read '%s'", path);
	}
	rc = policy_parse(out, strbuf_str(&sb), sb.len, path);
	strbuf_release(&sb);
	return rc;
}

void policy_free(struct policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrules; i++) {
		struct policy_rule *r = &p->rules[i];

		free(r->name);
		free(r->description);
		free(r->metric);
		free(r->op_glob);
		free(r->op_class_glob);
		free(r->workload_glob);
		for (size_t j = 0; j < r->nparams; j++) {
			free(r->param_names[j]);
			free(r->param_values[j]);
		}
		free(r->param_names);
		free(r->param_values);
	}
	free(p->rules);
	corr_slo_release(&p->slo);
	for (size_t i = 0; p->allow_mismatch && p->allow_mismatch[i]; i++)
		free(p->allow_mismatch[i]);
	free(p->allow_mismatch);
	free(p->name);
	free(p->description);
	free(p->model);
	free(p->ref);
	free(p->file);
	free(p);
}

long policy_min_pairs(const struct policy *p)
{
	double m = 0;

	for (size_t i = 0; p && i < p->nrules; i++)
		if (p->rules[i].has & (1u << PL_MIN_PAIRS))
			m = fmax(m, p->rules[i].lim[PL_MIN_PAIRS]);
	return (long)m;
}
