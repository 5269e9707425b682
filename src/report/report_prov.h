#ifndef PC_SRC_REPORT_PROV_H
#define PC_SRC_REPORT_PROV_H
/*
 * The report's provenance (report_prov.c), last in md and html (issue 35
 * item 6: a reader of the meeting's report wants the verdict first, the
 * hashes last): one line per side and source version (files, formats,
 * results, run ids, when and by whom imported), then every file with its
 * sha256 in a fold (<details>; identical runs of one file one row).
 */
struct strbuf;
struct report;

void report_prov_md(struct strbuf *sb, const struct report *r);
void report_prov_html(struct strbuf *sb, const struct report *r);

#endif
