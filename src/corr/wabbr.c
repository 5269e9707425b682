/* Workload keys without their shared parts (see wabbr.h). */
#include "src/corr/wabbr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"

struct wabbr_group {
	char *name;		/* the model name */
	size_t len;		/* its length */
	char **common;		/* the parts all its workloads share */
	size_t ncommon;
};

int wabbr_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The length of the '/'-separated part at p (part_len(p), inlined:
 * wabbr_build runs it over every part of every workload key). */
static size_t part_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != '/')
		n++;
	return n;
}

/* 1 when name has part (len bytes) as one of its '/'-separated parts. */
static int has_part(const char *name, const char *part, size_t len)
{
	for (const char *p = name; (p = strstr(p, part)); p++)
		if ((p == name || p[-1] == '/') && (p[len] == '/' || !p[len]))
			return 1;
	return 0;
}

static int in_list(char *const *list, size_t n, const char *p, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !memcmp(list[i], p, len))
			return 1;
	return 0;
}

static int is_common(const struct wabbr *a, const char *p, size_t len)
{
	return in_list(a->common, a->ncommon, p, len);
}

/* The distinct parts of name (after the first when skip_first). */
static void parts_of(const char *name, int skip_first, char ***list,
		     size_t *n)
{
	for (const char *p = name; ; ) {
		size_t len = part_len(p);

		if (len && !skip_first && !in_list(*list, *n, p, len)) {
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = xstrndup(p, len);
		}
		skip_first = 0;
		if (!p[len])
			break;
		p += len + 1;
	}
}

/* Keep the entries of list that name has as a part. */
static void keep_shared(const char *name, char **list, size_t *n)
{
	for (size_t c = 0; c < *n; ) {
		if (has_part(name, list[c], strlen(list[c]))) {
			c++;
			continue;
		}
		free(list[c]);
		list[c] = list[--*n];
	}
}

static struct wabbr_group *group_of(const struct wabbr *a, const char *name)
{
	size_t len = part_len(name);

	for (size_t g = 0; g < a->ngroups; g++)
		if (a->groups[g].len == len &&
		    !memcmp(a->groups[g].name, name, len))
			return &a->groups[g];
	return NULL;
}

/* Level 2's groups: per model name, the parts its workloads share. */
static void build_groups(struct wabbr *a, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct wabbr_group *g = group_of(a, names[i]);

		if (g) {
			keep_shared(names[i], g->common, &g->ncommon);
			continue;
		}
		if (a->ngroups == WABBR_GROUPS) {
			for (size_t k = 0; k < a->ngroups; k++) {
				for (size_t c = 0; c < a->groups[k].ncommon; c++)
					free(a->groups[k].common[c]);
				free(a->groups[k].common);
				free(a->groups[k].name);
			}
			free(a->groups);
			a->groups = NULL;
			a->ngroups = 0;
			return;	/* too many models: level 1 only */
		}
		a->groups = xrealloc(a->groups, (a->ngroups + 1) *
				     sizeof(*a->groups));
		g = &a->groups[a->ngroups++];
		memset(g, 0, sizeof(*g));
		g->len = part_len(names[i]);
		g->name = xstrndup(names[i], g->len);
		parts_of(names[i], 1, &g->common, &g->ncommon);
	}
}

/* The template: the parts of the name with the most parts, the kept
 * ones replaced by one '*' per run. */
static void make_template(struct wabbr *a, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int star = 0;

	for (const char *p = name; ; ) {
		size_t len = part_len(p);

		if (is_common(a, p, len)) {
			strbuf_addf(&sb, "%s%.*s", sb.len ? "/" : "", (int)len,
				    p);
			star = 0;
		} else if (!star) {
			strbuf_addf(&sb, "%s*", sb.len ? "/" : "");
			star = 1;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	a->templ = strbuf_detach(&sb);
}

/* constkv: per KEY of a KEY=VALUE part (not shared by every name), the
 * part, kept while every name holding KEY has the same one. */
static void build_constkv(struct wabbr *a, const char *const *names,
			  size_t n)
{
	unsigned char *bad = NULL;
	size_t nkv = 0, *kvlen = NULL;

	for (size_t i = 0; i < n; i++) {
		for (const char *p = names[i]; ; ) {
			size_t len = part_len(p);
			const char *eq = memchr(p, '=', len);

			if (eq && !is_common(a, p, len)) {
				size_t klen = (size_t)(eq - p) + 1, k;

				for (k = 0; k < nkv; k++)
					if (kvlen[k] >= klen &&
					    !memcmp(a->constkv[k], p, klen))
						break;
				if (k == nkv) {
					a->constkv = xrealloc(a->constkv,
						(nkv + 1) * sizeof(*a->constkv));
					bad = xrealloc(bad, nkv + 1);
					kvlen = xrealloc(kvlen, (nkv + 1) *
							 sizeof(*kvlen));
					a->constkv[nkv] = xstrndup(p, len);
					kvlen[nkv] = len;
					bad[nkv++] = 0;
				} else if (!bad[k] && (kvlen[k] != len ||
					   memcmp(a->constkv[k], p, len))) {
					bad[k] = 1;
				}
			}
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	a->nconstkv = 0;
	for (size_t k = 0; k < nkv; k++) {
		if (bad[k] || !strncmp(a->constkv[k], "bs=", 3))
			free(a->constkv[k]);
		else
			a->constkv[a->nconstkv++] = a->constkv[k];
	}
	free(bad);
	free(kvlen);
}

/* Join the parts of name that are not dropped ('/'-separated) into buf:
 * the common parts always, the constant key=value parts too when constkv.
 * buf is left empty when every part is dropped (or nothing can be). */
static void join_kept(const struct wabbr *a, const char *name, int constkv,
		      char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (!a->ncommon && !(constkv && a->nconstkv))
		return;
	for (const char *p = name;; p += part_len(p) + 1) {
		size_t plen = part_len(p);

		if (!is_common(a, p, plen) &&
		    !(constkv && in_list(a->constkv, a->nconstkv, p, plen))) {
			int k = snprintf(buf + used, len - used, "%s%.*s",
					 used ? "/" : "", (int)plen, p);

			used += k > 0 ? (size_t)k : 0;
			if (used >= len)
				break;	/* truncated: it is for display */
		}
		if (!p[plen])
			break;
	}
}

const char *wabbr_apply_tight(const struct wabbr *a, const char *name,
			      char *buf, size_t len)
{
	if (!len)
		return buf;
	join_kept(a, name, 1, buf, len);
	if (!buf[0])
		return wabbr_apply(a, name, buf, len);
	return buf;
}

static int span_width(const char *s, size_t len)
{
	int w = 0;

	for (size_t i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* The widths of name, of wabbr_apply's and of wabbr_apply2's (an
 * unlimited width) without printing them, for a name shorter than the
 * buffer they print into (the result is never longer than the name).
 * Mirrors join_kept and wabbr_apply2 part for part: test_tui_wabbr
 * checks it against them. */
static void widths(const struct wabbr *a, const char *name, int *fw,
		   int *aw, int *aw2)
{
	const struct wabbr_group *g;
	size_t nlen;
	int used = 0, w = 0, rest = 0;

	*fw = wabbr_width(name);
	/* join_kept(constkv 0): a '/' before a part once something was
	 * printed; nothing printed means the whole name */
	if (a->ncommon) {
		for (const char *p = name;; p += part_len(p) + 1) {
			size_t plen = part_len(p);

			if (!is_common(a, p, plen)) {
				w += used + span_width(p, plen);
				used |= plen > 0;
			}
			if (!p[plen])
				break;
		}
	}
	*aw = used ? w : *fw;
	if (!(g = group_of(a, name))) {
		*aw2 = *aw;
		return;
	}
	nlen = strcspn(name, "/");
	for (const char *p = name + nlen; *p; ) {
		size_t plen;
		int phase = p == name + nlen;

		p++;
		plen = part_len(p);
		if (!is_common(a, p, plen) &&
		    (phase || !strncmp(p, "bs=", 3) ||
		     !in_list(g->common, g->ncommon, p, plen)))
			rest += 1 + span_width(p, plen);
		p += plen;
	}
	/* the model name is never cut at an unlimited width */
	*aw2 = wabbr_width(g->name) + rest;
}

void wabbr_build(struct wabbr *a, const char *const *names, size_t n)
{
	const char *longest = NULL;
	int most = -1;
	char buf[1024];

	memset(a, 0, sizeof(*a));
	if (!n)
		return;
	/* candidates: the distinct parts of the first name */
	parts_of(names[0], 0, &a->common, &a->ncommon);
	for (size_t i = 0; i < n; i++) {
		int parts = 1;

		keep_shared(names[i], a->common, &a->ncommon);
		for (const char *p = names[i]; *p; p++)
			parts += *p == '/';
		if (parts > most) {
			most = parts;
			longest = names[i];
		}
	}
	if (a->ncommon)
		make_template(a, longest);
	build_groups(a, names, n);
	build_constkv(a, names, n);
	for (size_t i = 0; i < n; i++) {
		int fw, aw, aw2;

		if (strlen(names[i]) < sizeof(buf)) {
			/* what the applies would print, counted: a million
			 * names at the first screen (no snprintf each) */
			widths(a, names[i], &fw, &aw, &aw2);
		} else {	/* the applies cut it at buf's size */
			fw = wabbr_width(names[i]);
			aw = wabbr_width(wabbr_apply(a, names[i], buf,
						     sizeof(buf)));
			aw2 = wabbr_width(wabbr_apply2(a, names[i], 1 << 20,
						       buf, sizeof(buf)));
		}

		a->fullw = fw > a->fullw ? fw : a->fullw;
		a->abbrw = aw > a->abbrw ? aw : a->abbrw;
		a->abbrw2 = aw2 > a->abbrw2 ? aw2 : a->abbrw2;
	}
}

void wabbr_release(struct wabbr *a)
{
	for (size_t i = 0; i < a->ncommon; i++)
		free(a->common[i]);
	free(a->common);
	free(a->templ);
	for (size_t g = 0; g < a->ngroups; g++) {
		for (size_t c = 0; c < a->groups[g].ncommon; c++)
			free(a->groups[g].common[c]);
		free(a->groups[g].common);
		free(a->groups[g].name);
	}
	free(a->groups);
	for (size_t k = 0; k < a->nconstkv; k++)
		free(a->constkv[k]);
	free(a->constkv);
	memset(a, 0, sizeof(*a));
}

const char *wabbr_apply(const struct wabbr *a, const char *name, char *buf,
			size_t len)
{
	if (!len)
		return buf;
	join_kept(a, name, 0, buf, len);
	if (!buf[0])
		snprintf(buf, len, "%s", name);
	return buf;
}

const char *wabbr_apply2(const struct wabbr *a, const char *name, int w,
			 char *buf, size_t len)
{
	const struct wabbr_group *g = group_of(a, name);
	size_t nlen = strcspn(name, "/"), used;
	struct strbuf rest = STRBUF_INIT;
	int keep;

	if (!g || !len)
		return wabbr_apply(a, name, buf, len);
	for (const char *p = name + nlen; *p; ) {
		size_t plen;
		int phase = p == name + nlen;	/* the part after the name */

		p++;
		plen = part_len(p);
		/* the phase and the batch stay: the reviewer needs them */
		if (!is_common(a, p, plen) &&
		    (phase || !strncmp(p, "bs=", 3) ||
		     !in_list(g->common, g->ncommon, p, plen)))
			strbuf_addf(&rest, "/%.*s", (int)plen, p);
		p += plen;
	}
	/* the model name, cut when the whole does not fit */
	keep = w - wabbr_width(strbuf_str(&rest));
	if (keep >= wabbr_width(g->name) || (int)nlen <= 3) {
		snprintf(buf, len, "%s%s", g->name, strbuf_str(&rest));
	} else {
		keep = keep - 1 > 3 ? keep - 1 : 3;
		used = 0;
		for (int k = 0; used < nlen && k < keep; k++) {
			used++;
			while (used < nlen &&
			       ((unsigned char)name[used] & 0xc0) == 0x80)
				used++;
		}
		snprintf(buf, len, "%.*s~%s", (int)used, name,
			 strbuf_str(&rest));
	}
	strbuf_release(&rest);
	return buf;
}

/* wabbr_put's layout: i32 fullw, abbrw, abbrw2; the common parts; the
 * template (an empty list or one string); the groups (name, then its
 * common parts); constkv. A list is a u32 count, then as many
 * NUL-terminated strings. */
static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, (const char *)&v, sizeof(v));
}

static void put_list(struct strbuf *sb, char *const *v, size_t n)
{
	put_u32(sb, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		strbuf_add(sb, v[i], strlen(v[i]) + 1);
}

void wabbr_put(const struct wabbr *a, struct strbuf *sb)
{
	int32_t w[3] = { a->fullw, a->abbrw, a->abbrw2 };

	strbuf_add(sb, (const char *)w, sizeof(w));
	put_list(sb, a->common, a->ncommon);
	put_list(sb, &a->templ, a->templ ? 1 : 0);
	put_u32(sb, (uint32_t)a->ngroups);
	for (size_t g = 0; g < a->ngroups; g++) {
		put_list(sb, &a->groups[g].name, 1);
		put_list(sb, a->groups[g].common, a->groups[g].ncommon);
	}
	put_list(sb, a->constkv, a->nconstkv);
}

struct reader {
	const char *p, *end;
	int bad;
};

static uint32_t get_u32(struct reader *r)
{
	uint32_t v = 0;

	if ((size_t)(r->end - r->p) < sizeof(v)) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, sizeof(v));
	r->p += sizeof(v);
	return v;
}

/* A list of at most max strings (xcalloc'd; *n set). */
static char **get_list(struct reader *r, size_t max, size_t *n)
{
	uint32_t count = get_u32(r);
	char **v;

	*n = 0;
	/* every string takes a byte at least: a count past the bytes left
	 * is damage, never a huge allocation */
	if (r->bad || count > max || count > (size_t)(r->end - r->p)) {
		r->bad = 1;
		return NULL;
	}
	v = xcalloc(count ? count : 1, sizeof(*v));
	for (; *n < count; (*n)++) {
		const char *z = memchr(r->p, 0, (size_t)(r->end - r->p));

		if (!z) {
			r->bad = 1;
			break;
		}
		v[*n] = xstrdup(r->p);
		r->p = z + 1;
	}
	return v;
}

int wabbr_get(struct wabbr *a, const void *data, size_t len)
{
	struct reader r = { data, (const char *)data + len, 0 };
	int32_t w[3];
	size_t n;
	char **t;

	memset(a, 0, sizeof(*a));
	if (len < sizeof(w))
		return -1;
	memcpy(w, r.p, sizeof(w));
	r.p += sizeof(w);
	a->fullw = w[0];
	a->abbrw = w[1];
	a->abbrw2 = w[2];
	a->common = get_list(&r, SIZE_MAX, &a->ncommon);
	t = get_list(&r, 1, &n);
	a->templ = n ? t[0] : NULL;
	free(t);
	n = r.bad ? 0 : get_u32(&r);
	if (n > WABBR_GROUPS)
		r.bad = 1;
	for (size_t g = 0; !r.bad && g < n; g++) {
		struct wabbr_group *gr;
		size_t one;

		a->groups = xrealloc(a->groups, (g + 1) * sizeof(*a->groups));
		gr = &a->groups[a->ngroups++];
		memset(gr, 0, sizeof(*gr));
		t = get_list(&r, 1, &one);
		if (one == 1) {
			gr->name = t[0];
			gr->len = strlen(gr->name);
		} else {
			r.bad = 1;
		}
		free(t);
		gr->common = get_list(&r, SIZE_MAX, &gr->ncommon);
	}
	if (!r.bad)
		a->constkv = get_list(&r, SIZE_MAX, &a->nconstkv);
	if (r.bad || r.p != r.end || a->fullw < 0 || a->abbrw < 0 ||
	    a->abbrw2 < 0) {
		wabbr_release(a);
		return -1;
	}
	return 0;
}
