/*
 * Shared by the fuzz targets: each defines LLVMFuzzerTestOneInput and is
 * linked either with libFuzzer (clang -fsanitize=fuzzer, PERFCORR_FUZZ)
 * or with replay.c, which runs the committed corpus as a regression test.
 */
#ifndef PC_TESTS_FUZZ_H
#define PC_TESTS_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
