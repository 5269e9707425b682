/* The fingerprint check's outcome as text and JSON (see corrout_fp.h). */
#include "src/corr/corrout_fp.h"

#include <stdlib.h>

#include "base/fingerprint.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"

/* The pairs allowed field name admitted (0 for an unknown name). */
static long admitted(const struct corr_set *s, const char *name)
{
	const struct fp_field *f = fp_field_find(name);

	return f ? s->admitted[fp_field_index(f)] : 0;
}

void corrout_fp_json_sb(struct strbuf *sb, const struct corr_set *s,
			const char *const *allow)
{
	strbuf_addf(sb, "\"not_comparable\":{\"pairs\":%ld,\"run_pairs\":%ld,"
		    "\"field\":", s->not_comparable, s->not_comparable_runs);
	if (s->not_comparable_why)
		strbuf_add_json_str(sb, s->not_comparable_field);
	else
		strbuf_addstr(sb, "null");
	strbuf_addstr(sb, ",\"why\":");
	if (s->not_comparable_why)
		strbuf_add_json_str(sb, s->not_comparable_why);
	else
		strbuf_addstr(sb, "null");
	strbuf_addf(sb, "},\"unverified\":%ld,\"allow_mismatch\":[",
		    s->unverified);
	for (const char *const *a = allow; a && *a; a++) {
		if (a != allow)
			strbuf_addch(sb, ',');
		strbuf_add_json_str(sb, *a);
	}
	strbuf_addf(sb, "],\"mismatch_admitted\":{\"pairs\":%ld,"
		    "\"by_field\":{", s->admitted_pairs);
	for (const char *const *a = allow; a && *a; a++) {
		if (a != allow)
			strbuf_addch(sb, ',');
		strbuf_add_json_str(sb, *a);
		strbuf_addf(sb, ":%ld", admitted(s, *a));
	}
	strbuf_addstr(sb, "}}");
}

void corrout_fp_json(FILE *fp, const struct corr_set *s,
		     const char *const *allow)
{
	struct strbuf sb = STRBUF_INIT;

	corrout_fp_json_sb(&sb, s, allow);
	fputs(strbuf_str(&sb), fp);
	strbuf_release(&sb);
}

char *corrout_fp_allowed(const struct corr_set *s, const char *const *allow)
{
	struct strbuf sb = STRBUF_INIT;

	if (!allow || !*allow)
		return NULL;
	for (const char *const *a = allow; *a; a++) {
		long n = admitted(s, *a);

		strbuf_addf(&sb, "%s%s (%ld pair%s)", a != allow ? ", " : "",
			    *a, n, n == 1 ? "" : "s");
	}
	return strbuf_detach(&sb);
}

void corrout_fp_text(FILE *fp, const struct corr_set *s,
		     const char *const *allow)
{
	char *al = corrout_fp_allowed(s, allow);

	if (s->not_comparable) {
		fprintf(fp, "not comparable: %ld pair%s (%ld run pair%s; "
			"first: ", s->not_comparable,
			s->not_comparable == 1 ? "" : "s",
			s->not_comparable_runs,
			s->not_comparable_runs == 1 ? "" : "s");
		util_fputs_safe(s->not_comparable_why, fp);
		fputs(")\n", fp);
	}
	if (s->unverified)
		fprintf(fp, "unverified: %ld pair%s (a checked workload-"
			"fingerprint field only one side's run states)\n",
			s->unverified, s->unverified == 1 ? "" : "s");
	if (al) {
		fputs("allowed fingerprint mismatches (--allow-mismatch): ",
		      fp);
		util_fputs_safe(al, fp);
		fprintf(fp, "; %ld pair%s admitted\n", s->admitted_pairs,
			s->admitted_pairs == 1 ? "" : "s");
	}
	free(al);
}

int corrout_fp_sentence(struct strbuf *sb, const struct corr_set *s,
			const char *const *allow)
{
	char *al = corrout_fp_allowed(s, allow);
	size_t start = sb->len;

	if (s->not_comparable)
		strbuf_addf(sb, "%ld pair%s refused as not comparable (%ld "
			    "run pair%s; first: %s). ", s->not_comparable,
			    s->not_comparable == 1 ? "" : "s",
			    s->not_comparable_runs,
			    s->not_comparable_runs == 1 ? "" : "s",
			    s->not_comparable_why);
	if (s->unverified)
		strbuf_addf(sb, "%ld pair%s unverified: a checked field only "
			    "one run states (kept, flagged ?). ",
			    s->unverified, s->unverified == 1 ? "" : "s");
	if (al)
		strbuf_addf(sb, "Allowed mismatches (--allow-mismatch): %s; "
			    "%ld pair%s admitted. ", al, s->admitted_pairs,
			    s->admitted_pairs == 1 ? "" : "s");
	free(al);
	if (sb->len == start)
		return 0;
	sb->len--;		/* the last blank */
	sb->buf[sb->len] = '\0';
	return 1;
}
