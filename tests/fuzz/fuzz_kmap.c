/* Fuzz the kernel-name mapping rules parser (src/kmap.c): rules JSON,
 * then lookups of a few names (regexes come from the input). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/error.h"
#include "src/import/kmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const raw[] = { "", "sm90_xmma_gemm_bf16",
		"flash_fwd_kernel", "ampere_fp16_s16816gemm_fp16_128x128",
		"void at::native::vectorized_elementwise_kernel<4>" };
	struct kmap *m = NULL;
	char *text;

	if (size > 65536)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (kmap_parse(&m, text, "fuzz.json") == 0) {
		for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
			(void)kmap_lookup(m, raw[i]);
		(void)kmap_lookup(m, text);
		kmap_free(m);
	}
	free(text);
	pc_error_clear();
	return 0;
}
