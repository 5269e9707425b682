#ifndef PC_IMPORTERS_YAMLSUB_H
#define PC_IMPORTERS_YAMLSUB_H
/*
 * A reader of the YAML that report writers emit with PyYAML's
 * yaml.dump() (the llm-d Benchmark Report, inference-perf's config.yaml)
 * into a cJSON tree, for small documents (at most YAMLSUB_MAX bytes):
 * block mappings and sequences (indentless sequences as values, compact
 * "- key: v" and "- - x" items), plain, single- and double-quoted
 * scalars over several lines (PyYAML's folding at 80 columns, escapes),
 * literal and folded block scalars, one-line flow collections, comments,
 * and YAML 1.1's scalars as PyYAML resolves them (null/~, true/false/
 * yes/no/on/off, ints, floats with .inf/.nan). Anchors, aliases, tags,
 * complex keys ("? ") and several documents are refused with
 * "path:line: YAML: what" (never a guess); so are tabs in indentation
 * and duplicate keys.
 */
#include <stddef.h>
#include <stdio.h>

struct cJSON;

#define YAMLSUB_MAX (64u << 20)

/* Parse all of fp into *out (caller deletes). 0, or <0 with the
 * positioned message. */
int yamlsub_parse(struct cJSON **out, FILE *fp, const char *path);

#endif
