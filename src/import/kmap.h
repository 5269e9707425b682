#ifndef PC_SRC_KMAP_H
#define PC_SRC_KMAP_H
/*
 * Kernel-name mapping rules: an ordered list of { "match": regex,
 * "op": name, "icase": bool, "stage": bool, "comment": text } (POSIX
 * extended regex, searched anywhere in the raw name; icase ignores case;
 * stage: the kernel is a stage launched with each call of the op, its
 * time adds to the call instead of counting as launches of the op; first
 * match wins). Loaded from JSON: either the array itself
 * or { "rules": [...] }. See docs/mapping.md.
 */

struct kmap;

/* Load rules from a JSON file. Errors name the file and rule index. */
int kmap_load(struct kmap **out, const char *path);
/* Parse rules from JSON text (same forms); path is for messages. */
int kmap_parse(struct kmap **out, const char *json, const char *path);
void kmap_free(struct kmap *m);

/* The op for raw, or NULL when no rule matches; borrowed from m. */
const char *kmap_lookup(const struct kmap *m, const char *raw);
/* The same; *stage (may be NULL) says whether the rule is a stage. */
const char *kmap_lookup_stage(const struct kmap *m, const char *raw,
			      int *stage);

#endif
