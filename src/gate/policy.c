/* Gate policy parser (see policy.h and docs/gate.md). */
#include "src/gate/policy.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/wkey.h"
#include "base/jsonpos.h"
#include "base/error.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/util.h"

enum lkind { LK_FRACTION, LK_CORR, LK_COUNT, LK_PAIRS, LK_RANGE };

static const struct {
	const char *name;
	enum lkind kind;
} limits[PL_COUNT] = {
	[PL_MIN_PAIRS] = { "min_pairs", LK_PAIRS },
	[PL_MAX_MAPE] = { "max_mape", LK_FRACTION },
	[PL_MAX_ABS_ERR] = { "max_abs_err", LK_FRACTION },
	[PL_MAX_P95_ABS_ERR] = { "max_p95_abs_err", LK_FRACTION },
	[PL_MAX_BIAS] = { "max_bias", LK_FRACTION },
	[PL_MIN_PEARSON] = { "min_pearson", LK_CORR },
	[PL_MIN_SPEARMAN] = { "min_spearman", LK_CORR },
	[PL_MIN_KENDALL] = { "min_kendall", LK_CORR },
	[PL_SLOPE_RANGE] = { "slope_range", LK_RANGE },
	[PL_MAX_NRMSE] = { "max_nrmse", LK_FRACTION },
	[PL_MAX_SOL_VIOLATIONS] = { "max_sol_violations", LK_COUNT },
	[PL_MAX_MAPE_INCREASE] = { "max_mape_increase", LK_FRACTION },
	[PL_MAX_ABS_ERR_INCREASE] = { "max_abs_err_increase", LK_FRACTION },
	[PL_MAX_BLIND_KNOBS] = { "max_blind_knobs", LK_COUNT },
	[PL_MAX_VERDICT_FLIPS] = { "max_verdict_flips", LK_COUNT },
};

struct ctx {
	const char *text, *file;
	size_t len;
	struct jsonpos_step path[8];
	int depth;
};

static void push_key(struct ctx *c, const char *key, int nth)
{
	c->path[c->depth++] = (struct jsonpos_step){ key, -1, nth };
}

static void push_idx(struct ctx *c, int idx)
{
	c->path[c->depth++] = (struct jsonpos_step){ NULL, idx, 0 };
}

static size_t locate(const struct ctx *c, int at_key)
{
	return jsonpos_locate(c->text, c->len, c->path, c->depth, at_key);
}

static int line_of(const struct ctx *c, size_t off)
{
	return jsonpos_line(c->text, c->len, off);
}

static void path_str(const struct ctx *c, struct strbuf *sb)
{
	for (int d = 0; d < c->depth; d++) {
		if (c->path[d].key)
			strbuf_addf(sb, "%s%s", sb->len ? "." : "",
				    c->path[d].key);
		else
			strbuf_addf(sb, "[%d]", c->path[d].idx);
	}
}

/* "FILE:LINE: PATH: message"; returns PC_EINVALID. */
__attribute__((format(printf, 3, 4)))
static int err(const struct ctx *c, int at_key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	va_list ap;
	char m[512];

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	path_str(c, &sb);
	strbuf_addf(&msg, "%s:%d: ", c->file, line_of(c, locate(c, at_key)));
	if (sb.len)
		strbuf_addf(&msg, "%s: ", sb.buf);
	strbuf_addstr(&msg, m);
	pc_error_set(PC_EINVALID, "%s", msg.buf);
	strbuf_release(&sb);
	strbuf_release(&msg);
	return PC_EINVALID;
}

static const char *type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	return "an object";
}

static int get_string(struct ctx *c, const cJSON *v, char **out)
{
	if (!cJSON_IsString(v))
		return err(c, 0, "expected a string, got %s", type_name(v));
	if (!*v->valuestring)
		return err(c, 0, "must not be empty");
	free(*out);
	*out = xstrdup(v->valuestring);
	return 0;
}

/* Reject a key seen earlier in the same object (cJSON keeps both). */
static int check_dup(struct ctx *c, const cJSON *obj, const cJSON *item)
{
	int nth = 0;

	for (const cJSON *o = obj->child; o != item; o = o->next)
		nth += !strcmp(o->string, item->string);
	if (!nth)
		return 0;
	push_key(c, item->string, nth);
	return err(c, 1, "duplicate key");
}

/* A fraction (0.15) or a percentage string ("15%"); numbers above 1 are
 * almost always a percentage written as a number, so they are refused. */
static int get_fraction(struct ctx *c, const cJSON *v, double *out)
{
	double x = 0;
	int bad = 0;

	if (cJSON_IsString(v)) {
		char *s = xstrdup(v->valuestring);
		size_t n = strlen(s);

		if (!n || s[n - 1] != '%')
			bad = 1;
		else
			s[n - 1] = 0;
		bad = bad || util_parse_double(s, &x);
		free(s);
		if (bad)
			return err(c, 0, "expected a fraction (0.15) or a "
				   "percentage (\"15%%\"), got \"%s\"",
				   v->valuestring);
		x /= 100;
	} else if (cJSON_IsNumber(v)) {
		x = v->valuedouble;
		if (x > 1)
			return err(c, 0, "%g looks like a percentage: write a "
				   "fraction (%g) or a string (\"%g%%\")", x,
				   x / 100, x);
	} else {
		return err(c, 0, "expected a number, got %s", type_name(v));
	}
	if (!(x >= 0))
		return err(c, 0, "must be >= 0 (got %g)", x);
	*out = x;
	return 0;
}

static int get_number(struct ctx *c, const cJSON *v, double *out)
{
	if (!cJSON_IsNumber(v))
		return err(c, 0, "expected a number, got %s", type_name(v));
	*out = v->valuedouble;
	return 0;
}

static int get_int(struct ctx *c, const cJSON *v, long lo, double *out)
{
	double x = 0;
	int rc;

	if ((rc = get_number(c, v, &x)))
		return rc;
	if (x != floor(x) || x > 1e15)
		return err(c, 0, "expected a whole number (got %g)", x);
	if (x < lo)
		return err(c, 0, "must be >= %ld (got %g)", lo, x);
	*out = x;
	return 0;
}

static int get_range(struct ctx *c, const cJSON *v, double *lo, double *hi)
{
	double x[2] = { 0, 0 };
	int rc;

	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
		return err(c, 0, "expected [low, high], got %s",
			   cJSON_IsArray(v) ? "an array of another length" :
			   type_name(v));
	for (int i = 0; i < 2; i++) {
		push_idx(c, i);
		rc = get_number(c, cJSON_GetArrayItem(v, i), &x[i]);
		c->depth--;
		if (rc)
			return rc;
	}
	if (x[0] > x[1])
		return err(c, 0, "low end %g is above high end %g", x[0], x[1]);
	*lo = x[0];
	*hi = x[1];
	return 0;
}

static int parse_limit(struct ctx *c, const cJSON *v, struct policy_rule *r,
		       enum policy_limit l)
{
	double x = NAN;
	int rc = 0;

	switch (limits[l].kind) {
	case LK_FRACTION:
		rc = get_fraction(c, v, &x);
		break;
	case LK_CORR:
		if (!(rc = get_number(c, v, &x)) && (x < -1 || x > 1))
			rc = err(c, 0, "must be between -1 and 1 (got %g)", x);
		break;
	case LK_COUNT:
		rc = get_int(c, v, 0, &x);
		break;
	case LK_PAIRS:
		rc = get_int(c, v, 1, &x);
		break;
	case LK_RANGE:
		rc = get_range(c, v, &x, &r->slope_hi);
		break;
	}
	if (rc)
		return rc;
	r->lim[l] = x;
	r->has |= 1u << l;
	return 0;
}

static int parse_param(struct ctx *c, const cJSON *v, struct policy_rule *r)
{
	const char *name = v->string + strlen("param.");
	struct wkey k;
	char num[64];
	const char *val;
	int rc;

	if (!*name || !strcmp(name, "name"))
		return err(c, 1, "expected param.NAME with a parameter name "
			   "(the workload name is 'workload')");
	if (cJSON_IsNumber(v)) {
		snprintf(num, sizeof(num), "%.17g", v->valuedouble);
		val = num;
	} else if (cJSON_IsString(v)) {
		val = v->valuestring;
	} else {
		return err(c, 0, "expected a string or a number, got %s",
			   type_name(v));
	}
	wkey_init(&k);
	rc = wkey_set(&k, name, val);
	if (!rc && k.n == 1) {
		r->param_names = xrealloc(r->param_names, (r->nparams + 1) *
					  sizeof(char *));
		r->param_values = xrealloc(r->param_values, (r->nparams + 1) *
					   sizeof(char *));
		r->param_names[r->nparams] = xstrdup(k.params[0].name);
		r->param_values[r->nparams++] = xstrdup(k.params[0].value);
	} else {
		rc = err(c, 0, "cannot use '%s' as a value of parameter '%s'",
			 val, name);
	}
	wkey_release(&k);
	return rc;
}

static int parse_severity(struct ctx *c, const cJSON *v,
			  struct policy_rule *r)
{
	if (!cJSON_IsString(v))
		return err(c, 0, "expected \"fail\" or \"warn\", got %s",
			   type_name(v));
	if (!strcmp(v->valuestring, "fail"))
		r->severity = POLICY_FAIL;
	else if (!strcmp(v->valuestring, "warn"))
		r->severity = POLICY_WARN;
	else
		return err(c, 0, "expected \"fail\" or \"warn\", got \"%s\"",
			   v->valuestring);
	return 0;
}

static int rule_key(struct ctx *c, const cJSON *v, struct policy_rule *r)
{
	const char *k = v->string;
	double x = NAN;
	int rc;

	for (int l = 0; l < PL_COUNT; l++)
		if (!strcmp(k, limits[l].name))
			return parse_limit(c, v, r, (enum policy_limit)l);
	if (!strcmp(k, "name"))
		return get_string(c, v, &r->name);
	if (!strcmp(k, "description"))
		return get_string(c, v, &r->description);
	if (!strcmp(k, "metric"))
		return get_string(c, v, &r->metric);
	if (!strcmp(k, "op"))
		return get_string(c, v, &r->op_glob);
	if (!strcmp(k, "op_class"))
		return get_string(c, v, &r->op_class_glob);
	if (!strcmp(k, "workload"))
		return get_string(c, v, &r->workload_glob);
	if (!strncmp(k, "param.", 6))
		return parse_param(c, v, r);
	if (!strcmp(k, "severity"))
		return parse_severity(c, v, r);
	if (!strcmp(k, "significance")) {
		if (!(rc = get_number(c, v, &x)) && !(x > 0 && x < 1))
			rc = err(c, 0, "must be between 0 and 1, exclusive "
				 "(got %g)", x);
		r->significance = x;
		return rc;
	}
	if (!strcmp(k, "consecutive")) {
		if (!(rc = get_int(c, v, 1, &x)))
			r->consecutive = (int)fmin(x, 1000000);
		return rc;
	}
	return err(c, 1, "unknown key (a rule has name, description, metric, "
		   "op, op_class, workload, param.NAME, severity, consecutive, "
		   "significance and limits such as max_mape; see docs/gate.md)");
}

static int parse_rule(struct ctx *c, const cJSON *obj, struct policy_rule *r)
{
	int rc;

	if (!cJSON_IsObject(obj))
		return err(c, 0, "expected a rule object, got %s",
			   type_name(obj));
	r->line = line_of(c, locate(c, 0));
	r->consecutive = 1;
	for (int l = 0; l < PL_COUNT; l++)
		r->lim[l] = NAN;
	r->lim[PL_MIN_PAIRS] = 1;
	r->slope_hi = NAN;
	r->significance = NAN;
	for (const cJSON *v = obj->child; v; v = v->next) {
		if ((rc = check_dup(c, obj, v)))
			return rc;
		push_key(c, v->string, 0);
		rc = rule_key(c, v, r);
		c->depth--;
		if (rc)
			return rc;
	}
	if (!r->name)
		return err(c, 0, "missing required key 'name'");
	if (!r->has)
		return err(c, 0, "rule '%s' has no limits (max_mape, "
			   "min_pairs, ... see docs/gate.md)", r->name);
	if (!isnan(r->significance) && !(r->has & (1u << PL_MAX_MAPE_INCREASE)))
		return err(c, 0, "rule '%s': significance applies to "
			   "max_mape_increase, and it has none", r->name);
	r->has |= 1u << PL_MIN_PAIRS;
	return 0;
}

static int parse_rules(struct ctx *c, const cJSON *arr, struct policy *p)
{
	int n, rc;

	if (!cJSON_IsArray(arr))
		return err(c, 0, "expected an array of rules, got %s",
			   type_name(arr));
	n = cJSON_GetArraySize(arr);
	if (n == 0)
		return err(c, 0, "a policy needs at least one rule");
	p->rules = xcalloc((size_t)n, sizeof(*p->rules));
	for (const cJSON *r = arr->child; r; r = r->next) {
		size_t i = p->nrules++;

		push_idx(c, (int)i);
		rc = parse_rule(c, r, &p->rules[i]);
		for (size_t j = 0; !rc && j < i; j++)
			if (!strcmp(p->rules[j].name, p->rules[i].name)) {
				push_key(c, "name", 0);
				rc = err(c, 0, "duplicate rule name '%s' (also "
					 "rules[%zu])", p->rules[i].name, j);
				c->depth--;
			}
		c->depth--;
		if (rc)
			return rc;
	}
	return 0;
}

/* "waiver_tolerance": "2%" (absolute) or {"abs": "2%", "rel": 0.25}. */
static int parse_tolerance(struct ctx *c, const cJSON *v, struct policy *p)
{
	int rc;

	if (!cJSON_IsObject(v)) {
		p->waivers.tol_rel = 0;
		return get_fraction(c, v, &p->waivers.tol_abs);
	}
	p->waivers.tol_abs = p->waivers.tol_rel = 0;
	for (const cJSON *k = v->child; k; k = k->next) {
		if ((rc = check_dup(c, v, k)))
			return rc;
		push_key(c, k->string, 0);
		if (!strcmp(k->string, "abs"))
			rc = get_fraction(c, k, &p->waivers.tol_abs);
		else if (!strcmp(k->string, "rel"))
			rc = get_fraction(c, k, &p->waivers.tol_rel);
		else
			rc = err(c, 1, "unknown key (waiver_tolerance has abs "
				 "and rel)");
		c->depth--;
		if (rc)
			return rc;
	}
	return 0;
}

static int get_bool(struct ctx *c, const cJSON *v, int *out)
{
	if (!cJSON_IsBool(v))
		return err(c, 0, "expected true or false, got %s",
			   type_name(v));
	*out = cJSON_IsTrue(v);
	return 0;
}

static int parse_waivers(struct ctx *c, const cJSON *v, struct policy *p)
{
	double x;
	int rc;

	if (!cJSON_IsObject(v))
		return err(c, 0, "expected an object, got %s", type_name(v));
	for (const cJSON *k = v->child; k; k = k->next) {
		if ((rc = check_dup(c, v, k)))
			return rc;
		push_key(c, k->string, 0);
		if (!strcmp(k->string, "require_expiry")) {
			rc = get_bool(c, k, &p->waivers.require_expiry);
		} else if (!strcmp(k->string, "require_link")) {
			rc = get_bool(c, k, &p->waivers.require_link);
		} else if (!strcmp(k->string, "max_days")) {
			if (!(rc = get_int(c, k, 1, &x)))
				p->waivers.max_days = (long)fmin(x, 1e6);
		} else {
			rc = err(c, 1, "unknown key (waivers has "
				 "require_expiry, require_link and max_days)");
		}
		c->depth--;
		if (rc)
			return rc;
	}
	return 0;
}

/* "slo": "SPEC" (compare --slo's grammar) or {"METRIC": "2s" | "<=2s" |
 * ">=1500tokens/s", "mlperf": "BENCHMARK"} (issue 38, corr_slo.h). */
static int parse_slo(struct ctx *c, const cJSON *v, struct policy *p)
{
	struct strbuf spec = STRBUF_INIT;
	char *origin;
	int rc = 0;

	if (cJSON_IsString(v)) {
		strbuf_addstr(&spec, v->valuestring);
	} else if (cJSON_IsObject(v)) {
		for (const cJSON *k = v->child; k && !rc; k = k->next) {
			const char *s = k->valuestring;

			push_key(c, k->string, 0);
			if (!cJSON_IsString(k))
				rc = err(c, 0, "expected a limit such as \"2s\","
					 " \"<=100ms\" or \">=1500tokens/s\", "
					 "got %s", type_name(k));
			else
				strbuf_addf(&spec, "%s%s%s%s", spec.len ? "," :
					    "", k->string, !strcmp(k->string,
					    "mlperf") ? ":" : (*s == '<' ||
					    *s == '>') ? "" : "=", s);
			c->depth--;
		}
	} else {
		rc = err(c, 0, "expected limits, a string (\"ttft_p99=2s,"
			 "tpot_p99=100ms\") or an object, got %s",
			 type_name(v));
	}
	if (!rc) {
		origin = xasprintf("%s:%d: slo", c->file,
				   line_of(c, locate(c, 0)));
		rc = corr_slo_parse(&p->slo, strbuf_str(&spec), origin);
		free(origin);
	}
	strbuf_release(&spec);
	return rc;
}

static int root_key(struct ctx *c, const cJSON *v, struct policy *p)
{
	const char *k = v->string;
	int rc;

	if (!strcmp(k, "name"))
		return get_string(c, v, &p->name);
	if (!strcmp(k, "description"))
		return get_string(c, v, &p->description);
	if (!strcmp(k, "model"))
		return get_string(c, v, &p->model);
	if (!strcmp(k, "ref"))
		return get_string(c, v, &p->ref);
	if (!strcmp(k, "rules"))
		return parse_rules(c, v, p);
	if (!strcmp(k, "waiver_tolerance"))
		return parse_tolerance(c, v, p);
	if (!strcmp(k, "waivers"))
		return parse_waivers(c, v, p);
	if (!strcmp(k, "slo"))
		return parse_slo(c, v, p);
	if (!strcmp(k, "error_control") || !strcmp(k, "unknown")) {
		static const char *const ec[] = { "holm", "bh", "none" };
		static const char *const uk[] = { "unknown", "fail", "pass" };
		int e = !strcmp(k, "error_control");
		const char *const *names = e ? ec : uk;

		if (!cJSON_IsString(v))
			return err(c, 0, "expected a string, got %s",
				   type_name(v));
		for (int i = 0; i < 3; i++)
			if (!strcmp(v->valuestring, names[i])) {
				if (e)
					p->error_control =
						(enum policy_error_control)i;
				else
					p->unknown_as = (enum policy_unknown)i;
				return 0;
			}
		return err(c, 0, "expected %s, %s or %s, got \"%s\"", names[0],
			   names[1], names[2], v->valuestring);
	}
	if (!strcmp(k, "allow_mismatch")) {	/* issue 37 */
		const cJSON *e;
		size_t n = 0;

		if (!cJSON_IsArray(v))
			return err(c, 0, "expected an array of fingerprint "
				   "field names, got %s", type_name(v));
		p->allow_mismatch = xcalloc((size_t)cJSON_GetArraySize(v) + 1,
					    sizeof(*p->allow_mismatch));
		cJSON_ArrayForEach(e, v) {
			if (!cJSON_IsString(e))
				return err(c, 0, "expected field names, got "
					   "%s", type_name(e));
			p->allow_mismatch[n++] = xstrdup(e->valuestring);
		}
		return 0;
	}
	if (!strcmp(k, "max_ref_cv")) {
		if (!(rc = get_number(c, v, &p->max_ref_cv)) &&
		    !(p->max_ref_cv > 0))
			rc = err(c, 0, "must be > 0 (got %g)", p->max_ref_cv);
		return rc;
	}
	return err(c, 1, "unknown key (a policy has name, description, model, "
		   "ref, max_ref_cv, allow_mismatch, error_control, unknown, "
		   "waiver_tolerance, waivers, slo and rules)");
}

static int parse_root(struct ctx *c, const cJSON *root, struct policy *p)
{
	int rc;

	if (!cJSON_IsObject(root))
		return err(c, 0, "expected a policy object, got %s",
			   type_name(root));
	for (const cJSON *v = root->child; v; v = v->next) {
		if ((rc = check_dup(c, root, v)))
			return rc;
		push_key(c, v->string, 0);
		rc = root_key(c, v, p);
		c->depth--;
		if (rc)
			return rc;
	}
	if (!p->name)
		return err(c, 0, "missing required key 'name'");
	if (!p->rules)
		return err(c, 0, "missing required key 'rules'");
	for (size_t i = 0; i < p->nrules; i++) {
		p->rules[i].unknown_as = p->unknown_as;
		if ((p->rules[i].has & (1u << PL_MAX_VERDICT_FLIPS)) &&
		    !p->slo.n)
			return err(c, 0, "rule '%s' has max_verdict_flips and "
				   "the policy no 'slo' (the limits its keys "
				   "are judged against: docs/gate.md)",
				   p->rules[i].name);
	}
	return 0;
}

int policy_parse(struct policy **out, const char *text, size_t len,
		 const char *file)
{
	struct ctx c = { .text = text, .len = len, .file = file };
	struct policy *p;
	const char *end = NULL;
	struct sha256 h;
	cJSON *root;
	int rc;

	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		size_t off = end ? (size_t)(end - text) : 0;
		size_t col = 1;

		for (size_t i = off; i > 0 && text[i - 1] != '\n'; i--)
			col++;
		return pc_error_set(PC_EINVALID, "%s:%d:%zu: invalid JSON",
				    file, line_of(&c, off), col);
	}
	p = xcalloc(1, sizeof(*p));
	p->max_ref_cv = 0.30;
	p->waivers = (struct waiver_rules)WAIVER_RULES_INIT;
	rc = parse_root(&c, root, p);
	cJSON_Delete(root);
	if (rc) {
		policy_free(p);
		return rc;
	}
	sha256_init(&h);
	sha256_update(&h, text, len);
	sha256_final_hex(&h, p->hash);
	p->file = xstrdup(file);
	*out = p;
	return 0;
}

const char *policy_limit_name(enum policy_limit l)
{
	return l < PL_COUNT ? limits[l].name : "?";
}

int policy_limit_is_fraction(enum policy_limit l)
{
	return l < PL_COUNT && limits[l].kind == LK_FRACTION;
}

int policy_limit_is_min(enum policy_limit l)
{
	return l < PL_COUNT && (limits[l].kind == LK_CORR ||
				limits[l].kind == LK_PAIRS);
}
