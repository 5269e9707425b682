/* Filter, sort and search over a pair index's points (see rows.h).
 * Built with _GNU_SOURCE for memmem (CMakeLists.txt). */
#include "tui/rows.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "base/util.h"

#define MEMO_MAX_ID (16L << 20)

static const struct {
	const char *name;
	enum filter_field field;
} fields[] = {
	{ "workload", FF_WORKLOAD }, { "w", FF_WORKLOAD }, { "op", FF_OP },
	{ "class", FF_CLASS }, { "op_class", FF_CLASS },
	{ "metric", FF_METRIC }, { "m", FF_METRIC }, { "status", FF_STATUS },
	{ "category", FF_CATEGORY }, { "cat", FF_CATEGORY },
	{ "err", FF_ERR }, { "|err|", FF_ABSERR }, { "abserr", FF_ABSERR },
	{ "model", FF_MODEL }, { "ref", FF_REF }, { "flag", FF_FLAG },
	{ "flags", FF_FLAG },
};

static const struct {
	const char *name;
	unsigned bit;
} flag_names[] = {
	{ "noise", CORR_WITHIN_NOISE }, { "sol", CORR_SOL_VIOLATION },
	{ "noisy", CORR_NOISY_REF }, { "waived", CORR_WAIVED },
	{ "invalid", CORR_INVALID }, { "new", ROWS_FLAG_NEW },
	{ "unverified", CORR_UNVERIFIED },
};

/* Longest operators first. */
static const struct {
	const char *text;
	enum filter_op op;
} ops[] = {
	{ "!=", FO_NE }, { "!~", FO_NLIKE }, { ">=", FO_GE }, { "<=", FO_LE },
	{ "=", FO_EQ }, { "~", FO_LIKE }, { ">", FO_GT }, { "<", FO_LT },
};

int rows_contains(const char *hay, const char *needle)
{
	size_t nl = strlen(needle);

	if (!nl)
		return 1;
	for (; *hay; hay++) {
		size_t i = 0;

		while (i < nl && hay[i] && tolower((unsigned char)hay[i]) ==
		       tolower((unsigned char)needle[i]))
			i++;
		if (i == nl)
			return 1;
	}
	return 0;
}

static int is_numeric(enum filter_field f)
{
	return f == FF_ERR || f == FF_ABSERR || f == FF_MODEL || f == FF_REF;
}

static int parse_number(const char *s, double *out)
{
	size_t len = strlen(s);
	char *tmp;
	int rc;

	if (len && s[len - 1] == '%') {
		tmp = xstrndup(s, len - 1);
		rc = util_parse_double(tmp, out);
		free(tmp);
		if (!rc)
			*out /= 100;
		return rc;
	}
	return util_parse_double(s, out);
}

static int parse_term(struct filter_term *t, const char *word)
{
	size_t flen = strcspn(word, "=!~<>");
	const char *val;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (!word[flen]) {
		t->field = FF_TEXT;
		t->op = FO_LIKE;
		t->text = xstrdup(word);
		return 0;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(word + flen, ops[i].text, strlen(ops[i].text)))
			break;
	if (i == sizeof(ops) / sizeof(ops[0]))
		return pc_error_set(PC_EINVALID, "'%s': expected an operator "
				    "(= != ~ !~ > >= < <=)", word);
	t->op = ops[i].op;
	val = word + flen + strlen(ops[i].text);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strlen(fields[i].name) == flen &&
		    !strncmp(fields[i].name, word, flen))
			break;
	if (i == sizeof(fields) / sizeof(fields[0]))
		return pc_error_set(PC_EINVALID, "'%s': unknown field (workload "
				    "op class metric status category err |err| "
				    "model ref flag)", word);
	t->field = fields[i].field;
	if (is_numeric(t->field)) {
		if (t->op == FO_LIKE || t->op == FO_NLIKE ||
		    parse_number(val, &t->num))
			return pc_error_set(PC_EINVALID, "'%s': expected a "
					    "number after the operator", word);
	} else if (t->op >= FO_GT) {
		return pc_error_set(PC_EINVALID, "'%s': < and > need a "
				    "numeric field (err |err| model ref)", word);
	} else if (t->field == FF_FLAG) {
		for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
			if (!strcmp(flag_names[i].name, val))
				t->num = flag_names[i].bit;
		if (!t->num)
			return pc_error_set(PC_EINVALID, "'%s': unknown flag "
					    "(noise sol noisy waived invalid new "
					    "unverified)",
					    word);
	}
	t->text = xstrdup(val);
	return 0;
}

int rows_filter_parse(struct filter *out, const char *text)
{
	struct filter f = { NULL, 0, xstrdup(text ? text : ""), NULL, 0 };
	char *copy = xstrdup(f.text), *save = NULL;
	int rc = 0;

	for (char *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		f.terms = xrealloc(f.terms, (f.n + 1) * sizeof(*f.terms));
		if ((rc = parse_term(&f.terms[f.n], w)) < 0)
			break;
		f.n++;
	}
	free(copy);
	if (rc < 0) {
		rows_filter_release(&f);
		return rc;
	}
	*out = f;
	return 0;
}

void rows_filter_release(struct filter *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->terms[i].text);
		for (int p = 0; p < PIDX_KEY_PARTS; p++)
			free(f->terms[i].memo[p].v);
	}
	free(f->terms);
	free(f->text);
	free(f->mask);
	memset(f, 0, sizeof(*f));
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int str_test(const struct filter_term *t, const char *s)
{
	int yes;

	switch (t->op) {
	case FO_EQ:
	case FO_NE:
		yes = has_glob(t->text) ? !fnmatch(t->text, s, 0) :
		      !strcmp(t->text, s);
		return t->op == FO_EQ ? yes : !yes;
	case FO_LIKE:
		return rows_contains(s, t->text);
	case FO_NLIKE:
		return !rows_contains(s, t->text);
	default:
		return 0;
	}
}

/* A string test memoised by the id of the string, in the memo of the
 * key part whose id it is. */
static int memo_test(struct filter_term *t, enum pidx_name_part id_part,
		     int64_t id, int64_t max, const char *s)
{
	struct memo *m = &t->memo[id_part];

	if (id < 0 || id > max || max > MEMO_MAX_ID)
		return str_test(t, s);
	if (!m->v) {
		m->len = (size_t)max + 1;
		m->v = xcalloc(m->len, 1);
	}
	if (m->v[id] == MEMO_UNKNOWN)
		m->v[id] = str_test(t, s) ? MEMO_YES : MEMO_NO;
	return m->v[id] == MEMO_YES;
}

static int num_test(const struct filter_term *t, double v)
{
	switch (t->op) {
	case FO_EQ: return v == t->num;
	case FO_NE: return v != t->num;
	case FO_GT: return v > t->num;
	case FO_GE: return v >= t->num;
	case FO_LT: return v < t->num;
	case FO_LE: return v <= t->num;
	default: return 0;
	}
}

static int code_test(const struct filter_term *t, unsigned code,
		     const char *const *names)
{
	const char *s = code ? names[code - 1] : "none";
	int yes;

	if (t->op == FO_LIKE || t->op == FO_NLIKE)
		return str_test(t, s);
	yes = has_glob(t->text) ? !fnmatch(t->text, s, 0) : !strcmp(t->text, s);
	/* a discrepancy nobody annotated yet is open */
	if (!yes && !code && names == db_annot_statuses)
		yes = !strcmp(t->text, "open");
	return t->op == FO_NE ? !yes : yes;
}

static const char *part_name(const struct rows_src *src,
			     enum pidx_name_part part, int64_t id)
{
	return src->name(src->arg, part, id);
}

/* A string test on name part `part` of the point, whose id is that of
 * key part id_part (the same part, but the op class goes by op id),
 * memoised by that id. */
static inline int part_test(struct filter_term *t, const struct rows_src *src,
			    enum pidx_name_part id_part,
			    enum pidx_name_part part, int32_t id)
{
	struct memo *m = &t->memo[id_part];

	if (m->v && id >= 0 && (size_t)id < m->len &&
	    m->v[id] != MEMO_UNKNOWN)
		return m->v[id] == MEMO_YES;
	return memo_test(t, id_part, id, src->max_id[id_part],
			 part_name(src, part, id));
}

static inline int term_match(struct filter_term *t, const struct rows_src *src,
		      size_t i)
{
	const struct pidx_key *key = &src->keys[i];
	int yes;

	switch (t->field) {
	case FF_TEXT:
		return part_test(t, src, PIDX_NAME_WORKLOAD, PIDX_NAME_WORKLOAD, key->w) ||
		       part_test(t, src, PIDX_NAME_OP, PIDX_NAME_OP, key->o) ||
		       part_test(t, src, PIDX_NAME_METRIC, PIDX_NAME_METRIC, key->m);
	case FF_WORKLOAD:
		return part_test(t, src, PIDX_NAME_WORKLOAD, PIDX_NAME_WORKLOAD, key->w);
	case FF_OP:
		return part_test(t, src, PIDX_NAME_OP, PIDX_NAME_OP, key->o);
	case FF_CLASS:
		return part_test(t, src, PIDX_NAME_OP, PIDX_NAME_OP_CLASS, key->o);
	case FF_METRIC:
		return part_test(t, src, PIDX_NAME_METRIC, PIDX_NAME_METRIC, key->m);
	case FF_STATUS:
		return code_test(t, src->status ? src->status[i] : 0,
				 db_annot_statuses);
	case FF_CATEGORY:
		return code_test(t, src->category ? src->category[i] : 0,
				 db_annot_categories);
	case FF_ERR:
		return num_test(t, key->err);
	case FF_ABSERR:
		return num_test(t, fabs(key->err));
	case FF_MODEL:
		return num_test(t, src->vals[i].model);
	case FF_REF:
		return num_test(t, src->vals[i].ref);
	case FF_FLAG:
		yes = (key->flags & (unsigned)t->num) != 0;
		return t->op == FO_NE || t->op == FO_NLIKE ? !yes : yes;
	}
	return 0;
}

/* A substring test on every name of part `part` at once: one memmem over
 * the lowercased names buffer, skipping to the next name after a hit
 * (a million names: one scan, not a million searches). 0 when the source
 * has no such buffer or it does not cover the memo. */
static int bulk_contains(struct filter_term *t, const struct rows_src *src,
			 struct memo *m, enum pidx_name_part part)
{
	const char *buf, *hit;
	const uint32_t *off;
	uint64_t count, id = 0;
	size_t nl = strlen(t->text), pos = 0, end;
	char *needle;
	/* the answer for a name that holds the needle, and for one that
	 * does not */
	unsigned char hit_is = t->op == FO_NLIKE ? MEMO_NO : MEMO_YES;
	unsigned char miss_is = t->op == FO_NLIKE ? MEMO_YES : MEMO_NO;

	if (!src->names_lower ||
	    src->names_lower(src->arg, part, &buf, &off, &count) < 0 ||
	    count < m->len)
		return 0;
	needle = xstrdup(t->text);
	for (char *c = needle; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	memset(m->v, miss_is, m->len);
	end = count ? off[count] : 0;
	while (nl && pos < end &&
	       (hit = memmem(buf + pos, end - pos, needle, nl))) {
		size_t at = (size_t)(hit - buf);

		while (id + 1 < count && off[id + 1] <= at)
			id++;
		if (id < m->len)
			m->v[id] = hit_is;
		pos = off[id + 1];	/* the next name */
	}
	if (!nl)
		memset(m->v, hit_is, m->len);	/* "" is in every name */
	free(needle);
	return 1;
}

/* Fill the memo of key part id_part for every id up front (one test
 * per distinct name of part `part`, then the pass is table lookups): 0
 * when the ids are too many. */
static int full_memo(struct filter_term *t, const struct rows_src *src,
		     enum pidx_name_part id_part, enum pidx_name_part part)
{
	struct memo *m = &t->memo[id_part];
	int64_t max = src->max_id[id_part];

	if (max < 0 || max > MEMO_MAX_ID)
		return 0;
	if (!m->v) {
		m->len = (size_t)max + 1;
		m->v = xcalloc(m->len, 1);
		if ((t->op == FO_LIKE || t->op == FO_NLIKE) &&
		    bulk_contains(t, src, m, part))
			return 1;
	}
	for (int64_t id = 0; id <= max; id++)
		if (m->v[id] == MEMO_UNKNOWN)
			m->v[id] = str_test(t, part_name(src, part, id)) ?
				   MEMO_YES : MEMO_NO;
	return 1;
}

/* A filled memo's answer (MEMO_NO or MEMO_YES). Ids outside it do not
 * occur (max_id is the largest id in the keys); they would count as
 * no. */
static inline unsigned memo_of(const struct filter_term *t,
			       enum pidx_name_part id_part, int32_t id)
{
	const struct memo *m = &t->memo[id_part];

	return (uint32_t)id < m->len ? m->v[id] : MEMO_NO;
}

/* 1 when a memo answer (or the | of several) holds a MEMO_YES, without
 * a branch (see enum memo_answer). */
static inline unsigned char memo_yes(unsigned answers)
{
	return (unsigned char)((answers >> 1) & 1);
}

#define NUM_PASS(expr)							\
	do {								\
		switch (t->op) {					\
		case FO_EQ: for (i = 0; i < n; i++) mask[i] &= (expr) == x; break; \
		case FO_NE: for (i = 0; i < n; i++) mask[i] &= (expr) != x; break; \
		case FO_GT: for (i = 0; i < n; i++) mask[i] &= (expr) > x; break; \
		case FO_GE: for (i = 0; i < n; i++) mask[i] &= (expr) >= x; break; \
		case FO_LT: for (i = 0; i < n; i++) mask[i] &= (expr) < x; break; \
		case FO_LE: for (i = 0; i < n; i++) mask[i] &= (expr) <= x; break; \
		default: memset(mask, 0, n); break;			\
		}							\
	} while (0)

/* mask[i] &= point i passes t, one tight loop per field and operator
 * (the switch is outside the loop: this is the keystroke's cost). */
static void term_pass(struct filter_term *t, const struct rows_src *src,
		      unsigned char *mask)
{
	const struct pidx_key *keys = src->keys;
	const struct pidx_val *v = src->vals;
	size_t i, n = src->n;
	double x = t->num;

	switch (t->field) {
	case FF_ERR:
		NUM_PASS(keys[i].err);
		return;
	case FF_ABSERR:
		NUM_PASS(fabs(keys[i].err));
		return;
	case FF_MODEL:
		NUM_PASS(v[i].model);
		return;
	case FF_REF:
		NUM_PASS(v[i].ref);
		return;
	case FF_TEXT:
		if (!full_memo(t, src, PIDX_NAME_WORKLOAD, PIDX_NAME_WORKLOAD) ||
		    !full_memo(t, src, PIDX_NAME_OP, PIDX_NAME_OP) ||
		    !full_memo(t, src, PIDX_NAME_METRIC, PIDX_NAME_METRIC))
			break;
		for (i = 0; i < n; i++)	/* any part matches */
			mask[i] &= memo_yes(memo_of(t, PIDX_NAME_WORKLOAD, keys[i].w) |
					    memo_of(t, PIDX_NAME_OP, keys[i].o) |
					    memo_of(t, PIDX_NAME_METRIC, keys[i].m));
		return;
	case FF_WORKLOAD:
		if (!full_memo(t, src, PIDX_NAME_WORKLOAD, PIDX_NAME_WORKLOAD))
			break;
		for (i = 0; i < n; i++)
			mask[i] &= memo_yes(memo_of(t, PIDX_NAME_WORKLOAD, keys[i].w));
		return;
	case FF_OP:
	case FF_CLASS:
		if (!full_memo(t, src, PIDX_NAME_OP, t->field == FF_OP ?
			       PIDX_NAME_OP : PIDX_NAME_OP_CLASS))
			break;
		for (i = 0; i < n; i++)
			mask[i] &= memo_yes(memo_of(t, PIDX_NAME_OP, keys[i].o));
		return;
	case FF_METRIC:
		if (!full_memo(t, src, PIDX_NAME_METRIC, PIDX_NAME_METRIC))
			break;
		for (i = 0; i < n; i++)
			mask[i] &= memo_yes(memo_of(t, PIDX_NAME_METRIC, keys[i].m));
		return;
	default:
		break;
	}
	/* status, category, flags; and names whose ids are too many to
	 * memoise in full */
	for (i = 0; i < n; i++)
		mask[i] &= (unsigned char)term_match(t, src, i);
}

size_t rows_filter_select(struct filter *f, const struct rows_src *src,
		     const uint32_t *perm, uint32_t *out)
{
	unsigned char *mask;
	size_t n = 0;

	if (!f || !f->n) {
		if (perm) {
			memcpy(out, perm, src->n * sizeof(*out));
		} else {
			for (size_t k = 0; k < src->n; k++)
				out[k] = (uint32_t)k;
		}
		return src->n;
	}
	/* a pass per term over the points in index order (sequential), then
	 * one compaction in the view's order without a branch per row */
	if (f->mask_len < src->n) {
		free(f->mask);
		f->mask = xmalloc(src->n ? src->n : 1);
		f->mask_len = src->n;
	}
	mask = f->mask;
	memset(mask, 1, src->n);
	for (size_t t = 0; t < f->n; t++)
		term_pass(&f->terms[t], src, mask);
	for (size_t k = 0; k < src->n; k++) {
		uint32_t i = perm ? perm[k] : (uint32_t)k;

		out[n] = i;
		n += mask[i];
	}
	return n;
}

int rows_filter_match(struct filter *f, const struct rows_src *src, size_t i)
{
	for (size_t k = 0; f && k < f->n; k++)
		if (!term_match(&f->terms[k], src, i))
			return 0;
	return 1;
}
