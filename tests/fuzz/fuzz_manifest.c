/* Fuzz the watch manifest parser (src/watch_manifest.c). */
#include "fuzz.h"
#include "base/error.h"
#include "src/watch/watch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct watch_manifest m;

	if (watch_manifest_parse(&m, (const char *)data, size, "f.json") == 0)
		watch_manifest_release(&m);
	pc_error_clear();
	return 0;
}
