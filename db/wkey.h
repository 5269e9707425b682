#ifndef PC_DB_WKEY_H
#define PC_DB_WKEY_H
/*
 * Canonical workload keys: name/phase/k=v.../precision with parameter
 * names folded to one spelling (batch_size -> bs, seq_len -> seq ...)
 * and sorted, so two tools that spell a workload differently match.
 * A struct wkey owns its strings.
 */
#include <stddef.h>

struct wkey_param {
	char *name;
	char *value;
};

struct wkey {
	char *name;			/* e.g. llama3-8b; may contain '/' */
	struct wkey_param *params;	/* sorted by name */
	size_t n, cap;
};

void wkey_init(struct wkey *k);
void wkey_release(struct wkey *k);
/* Copy src into dst (dst initialised or released). */
void wkey_copy(struct wkey *dst, const struct wkey *src);

/* Parse "llama3-8b/decode/bs=32/seq=2048/bf16" (any order, aliases ok)
 * and merge it into k. PC_EINVALID on an empty name or a conflict. */
int wkey_parse(struct wkey *k, const char *text);

/* Set one parameter (name folded to its canonical spelling, value
 * normalised: "32.0" -> "32", "BF16" -> "bf16"). Setting "name" sets the
 * workload name. A different existing value is PC_EINVALID naming both. */
int wkey_set(struct wkey *k, const char *name, const char *value);

/* The value of a canonical parameter, or NULL; borrowed. */
const char *wkey_get(const struct wkey *k, const char *name);

/* Canonical key text; caller frees. PC_EINVALID-free: an empty name
 * formats as "" and the caller decides. */
char *wkey_format(const struct wkey *k);
/* Parameters as a JSON object; caller frees. */
char *wkey_params_json(const struct wkey *k);

/* A value normalised as wkey_set stores it ("32.0" -> "32", "BF16" ->
 * "bf16" for precision); caller frees. */
char *wkey_canon_value(const char *name, const char *value);

/* Canonical spelling of a parameter name (borrowed or name itself). */
const char *wkey_canon_name(const char *name);

#endif
