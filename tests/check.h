#ifndef PC_TESTS_CHECK_H
#define PC_TESTS_CHECK_H
/*
 * A tiny in-tree unit-test harness. tests/unit/test_<module>.c is one
 * binary per module; it defines cases with TEST(case) { ... } (snake_case
 * names saying what is checked, without the module, which the binary
 * names) and ends with TEST_MAIN(CASE(case1), CASE(case2), ...).
 * `test_<module> CASE` runs one case. CHECK* record a failure and
 * continue; the process exits non-zero when any check failed, and prints
 * "N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures, check_current_failed;

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
	check_failures++; check_current_failed = 1; } } while (0)

#define CHECK_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	if (_a != _b) { fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", \
	__FILE__, __LINE__, #a, _a, _b); check_failures++; \
	check_current_failed = 1; } } while (0)

#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) { fprintf(stderr, \
	"%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
	_a ? _a : "(null)", _b ? _b : "(null)"); check_failures++; \
	check_current_failed = 1; } } while (0)

/* relative tolerance; NaN equals NaN */
#define CHECK_NEAR(a, b, rel) do { double _a = (a), _b = (b); \
	int _ok = (isnan(_a) && isnan(_b)) || _a == _b || \
		fabs(_a - _b) <= (rel) * fmax(fabs(_a), fabs(_b)); \
	if (!_ok) { fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g\n", \
	__FILE__, __LINE__, #a, _a, _b); check_failures++; \
	check_current_failed = 1; } } while (0)

/* Where the fixtures and the tests' own data are: $FIXTURES and $TESTS
 * (set by ctest), else the source tree the binary was built from
 * (PC_SOURCE_DIR, from tests/CMakeLists.txt), so a unit binary runs from
 * any directory. */
#ifndef PC_SOURCE_DIR
#define PC_SOURCE_DIR "."
#endif
static inline const char *check_dir(const char *env, const char *fallback)
{
	const char *v = getenv(env);

	return v && *v ? v : fallback;
}
#define check_fixtures() check_dir("FIXTURES", PC_SOURCE_DIR "/fixtures")
#define check_tests_dir() check_dir("TESTS", PC_SOURCE_DIR "/tests")

/* A scratch directory of this test binary, made on first use and removed
 * at exit; check_tmp_path(name) is a malloc'd path in it (the caller
 * frees it). */
static inline const char *check_tmp_dir(void);
static inline void check_tmp_cleanup(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", check_tmp_dir());
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", check_tmp_dir());
}
static inline const char *check_tmp_dir(void)
{
	static char dir[] = "/tmp/pc-unit-XXXXXX";
	static int ready;

	if (!ready++ && (!mkdtemp(dir) || atexit(check_tmp_cleanup)))
		abort();
	return dir;
}
static inline char *check_tmp_path(const char *name)
{
	const char *dir = check_tmp_dir();
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (!p)
		abort();
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

#define TEST(name) static void test_##name(void)

struct check_case { const char *name; void (*fn)(void); };
#define CASE(name) { #name, test_##name }

#define TEST_MAIN(...) \
int main(int argc, char **argv) { \
	static const struct check_case cases[] = { __VA_ARGS__ }; \
	int passed = 0, failed = 0; \
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) { \
		if (argc > 1 && strcmp(argv[1], cases[i].name)) continue; \
		check_current_failed = 0; \
		cases[i].fn(); \
		if (check_current_failed) { failed++; \
			fprintf(stderr, "FAIL %s\n", cases[i].name); } \
		else passed++; \
	} \
	printf("%d passed, %d failed\n", passed, failed); \
	return check_failures ? 1 : 0; \
}

#endif
