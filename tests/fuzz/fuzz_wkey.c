/* Fuzz canonical workload keys (db/wkey.c): parse, format, re-parse;
 * a formatted key must parse back to the same text. */
#include <stdlib.h>
#include <string.h>

#include "db/wkey.h"
#include "fuzz.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wkey a, b;
	char *text, *fa, *fb;

	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	wkey_init(&a);
	wkey_init(&b);
	if (wkey_parse(&a, text) == 0) {
		fa = wkey_format(&a);
		if (wkey_parse(&b, fa) != 0)
			abort();	/* canonical form must parse */
		fb = wkey_format(&b);
		if (strcmp(fa, fb) != 0)
			abort();	/* and be a fixed point */
		free(fa);
		free(fb);
	}
	wkey_release(&a);
	wkey_release(&b);
	free(text);
	pc_error_clear();
	return 0;
}
