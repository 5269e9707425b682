#ifndef PC_SRC_GATE_OUT_H
#define PC_SRC_GATE_OUT_H
/*
 * A gate result for people and machines: the text report, the JSON
 * document (also stored as gate_evals.details) and JUnit XML for CI.
 * Untrusted names are made terminal-safe in text and XML-escaped in
 * JUnit. Writers take the stream; they never print anywhere else.
 */
#include <stdio.h>

struct gate_result;
struct strbuf;

/* One line per rule, the worst offending points of each rule that did
 * not pass (with annotations), the waived points, the verdict. */
void gate_out_text(FILE *fp, const struct gate_result *g);

/* The whole result as JSON text; caller frees. */
char *gate_out_json(const struct gate_result *g);

/* JUnit XML: one testcase per rule; failures carry the message and the
 * offending points; warnings go to system-out. Returns 0 or PC_EIO. */
int gate_out_junit(FILE *fp, const struct gate_result *g);

/* JUnit XML for a gate that could not run (exit 2): one testcase with
 * an error carrying msg, so CI shows why. Returns 0 or PC_EIO. */
int gate_out_junit_error(FILE *fp, const char *policy, const char *msg);

/* Append s to sb escaped for XML 1.0 text and attributes: entities for
 * & < > " ', characters XML forbids and invalid UTF-8 become U+FFFD. */
void gate_xml_escape(struct strbuf *sb, const char *s);

#endif
