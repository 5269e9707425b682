/* The unit table (see units.h). Decimal prefixes are 1000-based; the
 * KiB/MiB/GiB family is 1024-based. ncu spellings (nsecond, Kbyte) and
 * nvidia-smi/DCGM spellings are included. */
#include "base/units.h"

#include <ctype.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

static const struct unit table[] = {
	/* time */
	{ "s", "time", 1, "s" }, { "sec", "time", 1, "s" },
	{ "second", "time", 1, "s" }, { "seconds", "time", 1, "s" },
	{ "ms", "time", 1e-3, "s" }, { "msec", "time", 1e-3, "s" },
	{ "msecond", "time", 1e-3, "s" },
	{ "us", "time", 1e-6, "s" }, { "usec", "time", 1e-6, "s" },
	{ "usecond", "time", 1e-6, "s" }, { "\xc2\xb5s", "time", 1e-6, "s" },
	{ "\xce\xbcs", "time", 1e-6, "s" },
	{ "ns", "time", 1e-9, "s" }, { "nsec", "time", 1e-9, "s" },
	{ "nsecond", "time", 1e-9, "s" },
	{ "ps", "time", 1e-12, "s" }, { "psecond", "time", 1e-12, "s" },
	{ "fs", "time", 1e-15, "s" },
	{ "min", "time", 60, "s" }, { "h", "time", 3600, "s" },
	/* cycles: stored as cycles; converted through the run's clock */
	{ "cycles", "cycles", 1, "cycles" }, { "cycle", "cycles", 1, "cycles" },
	{ "cyc", "cycles", 1, "cycles" }, { "clk", "cycles", 1, "cycles" },
	/* power and energy */
	{ "W", "power", 1, "W" }, { "watt", "power", 1, "W" },
	{ "watts", "power", 1, "W" }, { "mW", "power", 1e-3, "W" },
	{ "kW", "power", 1e3, "W" },
	{ "J", "energy", 1, "J" }, { "joule", "energy", 1, "J" },
	{ "mJ", "energy", 1e-3, "J" }, { "uJ", "energy", 1e-6, "J" },
	{ "nJ", "energy", 1e-9, "J" }, { "pJ", "energy", 1e-12, "J" },
	{ "fJ", "energy", 1e-15, "J" }, { "kJ", "energy", 1e3, "J" },
	{ "Wh", "energy", 3600, "J" }, { "kWh", "energy", 3.6e6, "J" },
	/* rates */
	{ "tokens/s", "rate", 1, "tokens/s" }, { "tok/s", "rate", 1, "tokens/s" },
	{ "token/s", "rate", 1, "tokens/s" },
	{ "samples/s", "rate", 1, "samples/s" },
	{ "sample/s", "rate", 1, "samples/s" },
	{ "queries/s", "rate", 1, "samples/s" },
	{ "req/s", "rate", 1, "req/s" }, { "requests/s", "rate", 1, "req/s" },
	{ "tokens/J", "efficiency", 1, "tokens/J" },
	{ "tokens/s/W", "efficiency", 1, "tokens/J" },
	/* bytes */
	{ "B", "bytes", 1, "B" }, { "byte", "bytes", 1, "B" },
	{ "bytes", "bytes", 1, "B" },
	{ "KB", "bytes", 1e3, "B" }, { "kB", "bytes", 1e3, "B" },
	{ "Kbyte", "bytes", 1e3, "B" }, { "MB", "bytes", 1e6, "B" },
	{ "Mbyte", "bytes", 1e6, "B" }, { "GB", "bytes", 1e9, "B" },
	{ "Gbyte", "bytes", 1e9, "B" }, { "TB", "bytes", 1e12, "B" },
	{ "Tbyte", "bytes", 1e12, "B" },
	{ "KiB", "bytes", 1024.0, "B" }, { "MiB", "bytes", 1048576.0, "B" },
	{ "GiB", "bytes", 1073741824.0, "B" },
	{ "TiB", "bytes", 1099511627776.0, "B" },
	/* bandwidth */
	{ "B/s", "bandwidth", 1, "B/s" }, { "byte/second", "bandwidth", 1, "B/s" },
	{ "KB/s", "bandwidth", 1e3, "B/s" }, { "MB/s", "bandwidth", 1e6, "B/s" },
	{ "GB/s", "bandwidth", 1e9, "B/s" }, { "TB/s", "bandwidth", 1e12, "B/s" },
	{ "Kbyte/second", "bandwidth", 1e3, "B/s" },
	{ "Mbyte/second", "bandwidth", 1e6, "B/s" },
	{ "Gbyte/second", "bandwidth", 1e9, "B/s" },
	{ "Tbyte/second", "bandwidth", 1e12, "B/s" },
	{ "GiB/s", "bandwidth", 1073741824.0, "B/s" },
	/* floating-point work and rate */
	{ "FLOP", "flops", 1, "FLOP" }, { "flop", "flops", 1, "FLOP" },
	{ "FLOPs", "flops", 1, "FLOP" }, { "OPs", "flops", 1, "FLOP" },
	{ "KFLOP", "flops", 1e3, "FLOP" }, { "MFLOP", "flops", 1e6, "FLOP" },
	{ "GFLOP", "flops", 1e9, "FLOP" }, { "TFLOP", "flops", 1e12, "FLOP" },
	{ "PFLOP", "flops", 1e15, "FLOP" },
	{ "FLOP/s", "flop_rate", 1, "FLOP/s" },
	{ "GFLOP/s", "flop_rate", 1e9, "FLOP/s" },
	{ "TFLOP/s", "flop_rate", 1e12, "FLOP/s" },
	{ "Tflops", "flop_rate", 1e12, "FLOP/s" },
	{ "TFLOPS", "flop_rate", 1e12, "FLOP/s" },
	{ "GFLOPS", "flop_rate", 1e9, "FLOP/s" },
	/* frequency */
	{ "Hz", "frequency", 1, "Hz" }, { "hz", "frequency", 1, "Hz" },
	{ "kHz", "frequency", 1e3, "Hz" }, { "MHz", "frequency", 1e6, "Hz" },
	{ "GHz", "frequency", 1e9, "Hz" },
	/* dimensionless */
	{ "%", "ratio", 0.01, "1" }, { "fraction", "ratio", 1, "1" },
	{ "ratio", "ratio", 1, "1" },
	{ "", "count", 1, "1" }, { "1", "count", 1, "1" },
	{ "count", "count", 1, "1" }, { "tokens", "count", 1, "1" },
	{ "requests", "count", 1, "1" }, { "inst", "count", 1, "1" },
	{ "C", "temperature", 1, "C" },
};

#define N_UNITS (sizeof(table) / sizeof(table[0]))

const struct unit *units_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < N_UNITS; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	/* case-insensitive only for long names: "MS" must not become "ms" */
	for (i = 0; i < N_UNITS; i++)
		if (strlen(table[i].name) >= 3 &&
		    !strcasecmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *units_si_for_dim(const char *dim)
{
	for (size_t i = 0; i < N_UNITS; i++)
		if (!strcmp(table[i].dim, dim) && table[i].factor == 1)
			return table[i].si;
	return NULL;
}

const struct unit *units_at(int i)
{
	return i >= 0 && (size_t)i < N_UNITS ? &table[i] : NULL;
}

/* k when f is exactly the double nearest 10^k (|k| <= 18), else 99. */
static int pow10_of(double f)
{
	static const double tab[] = { 1e-18, 1e-17, 1e-16, 1e-15, 1e-14,
		1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4,
		1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
		1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };

	for (int k = -18; k <= 18; k++)
		if (tab[k + 18] == f)
			return k;
	return 99;
}

/* 10^0 .. 10^22: the powers of ten a double holds exactly. */
static const double exact10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	1e20, 1e21, 1e22 };

/* m * 10^e for an integer m below 2^53 and |e| <= 22: both exact, so the
 * one correctly rounded operation is the double nearest the decimal
 * m e e (what strtod returns for it). */
static double dec_exact(double m, int e)
{
	return e < 0 ? m / exact10[-e] : m * exact10[e];
}

/* The fast path of units_to_si: when a 15-digit decimal M * 10^e reads
 * back as a (|a| not an integer, finite, non-zero), it is the one the
 * slow path prints (two 15-digit decimals are further apart than one
 * ulp, so at most one reads back as a) and the answer is M * 10^(e+k),
 * one correctly rounded operation when both exponents are within 22.
 * 1 and *out, or 0 when the slow path must decide. */
static int to_si_fast(double a, int k, double *out)
{
	int e = (int)floor(log10(a)) - 14;

	if (e < -22 || e > 22 || e + k < -22 || e + k > 22)
		return 0;
	for (int d = 0; d < 3; d++) {
		double m = nearbyint(e < 0 ? a * exact10[-e] : a / exact10[e]);

		m += d == 1 ? -1 : d == 2 ? 1 : 0;
		if (m < 1e14 || m >= 1e15)
			continue;
		if (dec_exact(m, e) == a) {
			*out = dec_exact(m, e + k);
			return 1;
		}
	}
	return 0;
}

double units_to_si(double v, double factor)
{
	char buf[48], *e;
	int k, prec;
	double fast;

	if (factor == 1 || !isfinite(v) || v == 0)
		return v * factor;
	if ((k = pow10_of(factor)) == 99)
		return v * factor;
	/* an integer below 2^53 and 10^|k| are both exact: one correctly
	 * rounded operation gives the nearest double */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return k < 0 ? v / pow(10, -k) : v * pow(10, k);
	if (to_si_fast(fabs(v), k, &fast))
		return v < 0 ? -fast : fast;
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	e = strchr(buf, 'e');
	if (!e)
		return v * factor;
	snprintf(e + 1, sizeof(buf) - (size_t)(e + 1 - buf), "%ld",
		 strtol(e + 1, NULL, 10) + k);
	return strtod(buf, NULL);
}

/* Compound units and registered words: created once, kept. */
struct dyn_unit {
	struct unit u;
	struct dyn_unit *next;
	char buf[];
};

static struct dyn_unit *dyn;

static const struct unit *dyn_find(const char *name)
{
	for (struct dyn_unit *d = dyn; d; d = d->next)
		if (!strcmp(d->u.name, name))
			return &d->u;
	return NULL;
}

static const struct unit *dyn_add(const char *name, const char *dim,
				  const char *si, double factor)
{
	size_t n = strlen(name) + 1, m = strlen(dim) + 1, k = strlen(si) + 1;
	struct dyn_unit *d = malloc(sizeof(*d) + n + m + k);

	if (!d)
		abort();
	memcpy(d->buf, name, n);
	memcpy(d->buf + n, dim, m);
	memcpy(d->buf + n + m, si, k);
	d->u.name = d->buf;
	d->u.dim = d->buf + n;
	d->u.si = d->buf + n + m;
	d->u.factor = factor;
	d->next = dyn;
	dyn = d;
	return &d->u;
}

static int is_word(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalpha((unsigned char)s[i]))
			return 0;
	return 1;
}

const struct unit *units_resolve(const char *name)
{
	const struct unit *u = units_lookup(name), *nu, *du;
	const char *slash = strchr(name, '/');
	char num[32], den[32], dim[80];
	double f = 1;

	if (u || (u = dyn_find(name)))
		return u;
	if (!slash || strchr(slash + 1, '/') || (size_t)(slash - name) >=
	    sizeof(num) || strlen(slash + 1) >= sizeof(den))
		return NULL;
	memcpy(num, name, (size_t)(slash - name));
	num[slash - name] = '\0';
	strcpy(den, slash + 1);
	nu = units_lookup(num);
	du = units_lookup(den);
	if ((!nu && !is_word(num, strlen(num))) ||
	    (!du && !is_word(den, strlen(den))))
		return NULL;
	if (nu && strcmp(nu->dim, "count") && strcmp(nu->dim, "ratio")) {
		f = nu->factor;
		snprintf(num, sizeof(num), "%s", nu->si);
	}
	if (du && strcmp(du->dim, "count") && strcmp(du->dim, "ratio")) {
		f /= du->factor;
		snprintf(den, sizeof(den), "%s", du->si);
	}
	snprintf(dim, sizeof(dim), "%s/%s", num, den);
	return dyn_add(name, dim, dim, f);
}

const struct unit *units_word(const char *name)
{
	const struct unit *u = units_resolve(name);

	if (u)
		return u;
	if (!is_word(name, strlen(name)) || strlen(name) > 32)
		return NULL;
	return dyn_add(name, "count", "1", 1);
}
