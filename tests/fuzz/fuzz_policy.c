/* REQUIRES: src/policy.h */
/* Fuzz the gate policy parser (src/policy.c). */
#include "fuzz.h"
#include "base/error.h"
#include "src/gate/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy *p = NULL;

	if (policy_parse(&p, (const char *)data, size, "fuzz.json") == 0)
		policy_free(p);
	pc_error_clear();
	return 0;
}
