#ifndef PC_SRC_MATRIX_H
#define PC_SRC_MATRIX_H
/*
 * Who disagrees with whom (docs/statistics.md, "The disagreement
 * matrix"). Several sources (default: the latest version of each) are
 * read through the correlation core, one value per (workload, op,
 * metric) and source, cycles turned into time through each run's clock
 * where another source holds time. Then:
 *  - the matrix: per metric, every ordered pair (model row, reference
 *    column) on the keys every selected source holds (or, with
 *    pairwise_keys, on each pair's own common keys): n, MAPE, bias,
 *    Lin's concordance on values and logs, Pearson on logs;
 *  - the odd one out: every key that three or more non-roofline sources
 *    hold is classified by which sources agree within a tolerance
 *    (agree, odd:<source>, split:<group>|<group>, scattered, or
 *    ambiguous when agreement is not transitive there); the roofline
 *    never groups, its speed-of-light violations are listed beside;
 *  - a suggested cause from the pattern and the source kinds, with the
 *    rule that produced it (a suggestion: nothing is written).
 *
 * Ownership: a matrix owns everything it points to.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/stats/stats.h"

struct db;
struct annot;
struct corr_set;
struct annot_index;
struct matrix_fp;
struct matrix;

struct matrix_opts {
	const char *const *sources;	/* SRC[@V], NULL-terminated; NULL or
					   empty: every source, latest */
	const char *metric;		/* NULL = every metric */
	const char *op_glob, *workload_glob;
	const char *const *where;	/* param.NAME=VALUE */
	int pool;
	double max_ref_cv;		/* noisy: stddev/value above it */
	double tolerance;		/* agreement floor (default 0.05) */
	int pairwise_keys;		/* cells on each pair's own keys */
	const char *const *workload_globs;	/* corr_query's */
	const char *const *allow_mismatch;	/* fingerprint fields whose
					   mismatch is meant (issue 37) */
};

#define MATRIX_OPTS_INIT { NULL, NULL, NULL, NULL, NULL, 0, 0.30, 0.05, 0, \
			   NULL, NULL }

struct matrix_source {
	char *label;		/* source, or source@version when one source
				   is selected in two versions */
	char *source, *version, *kind;
	int roofline;
	int implicit;		/* chosen by default, not named */
	size_t nkeys;		/* keys holding a usable value */
};

/* One value of one source for a key. */
enum matrix_vstate { MV_ABSENT, MV_OK, MV_INVALID };

struct matrix_val {
	double v, sd;		/* SI; sd NaN when unknown */
	int64_t run;
	unsigned char state;	/* enum matrix_vstate */
	unsigned char noisy;	/* sd / |v| > max_ref_cv */
	unsigned char converted;	/* cycles turned into time */
};

enum matrix_pattern {
	MP_NONE,		/* fewer than 3 non-roofline sources */
	MP_AGREE, MP_ODD, MP_SPLIT, MP_SCATTERED, MP_AMBIGUOUS,
	MP_COUNT
};

struct matrix_key {
	const char *workload, *op, *metric;	/* borrowed from the sets */
	int64_t workload_id, op_id;
	int64_t metric_id;	/* of the metric (time for converted cycles) */
	struct matrix_val *vals;		/* one per source */
	/* classification (pattern MP_NONE: the rest is unset) */
	enum matrix_pattern pattern;
	char *label;		/* "agree", "odd:archsim", "split:a+b|c",
				   "scattered", "ambiguous" */
	int *group;		/* per source: group number, -1 none */
	size_t ngroups, nvoters;
	double tol;		/* the tolerance used */
	long tol_src;		/* source whose spread set it, -1 floor */
	long odd;		/* the odd source, -1 none */
	const char *cause;	/* suggested category or NULL */
	const char *rule;	/* the rule that suggested it, or why none */
	char *sol;		/* roofline violations: "h100-lab, archsim" or
				   NULL */
	unsigned char *sol_by;	/* per source: 1 when a roofline value of
				   the key is violated against it */
	double spread;		/* max/min - 1 over the voters */
	const struct annot *ann;	/* current annotation, or NULL */
	/* the fingerprint check of the voters' runs (matrix_fp_key):
	 * per source 1 when left out of the vote (its run is not
	 * comparable with the voters'), NULL when none is; why (each one
	 * left out, or why the key is not classified), NULL when all
	 * voters' runs pair */
	unsigned char *unvoted;
	char *vote_why;
	unsigned char fp_unclassified;	/* not classified: its voters'
					   runs do not pair (vote_why) */
};

/*
 * The roofline's row and column of the disagreement matrix (issue 35
 * item 2): a roofline is a bound, not a model, so a cell whose row or
 * column is a roofline holds the achieved fraction of speed of light of
 * the other source and the keys where it beats the bound, never an
 * error against a limit (the MAPE of a source against the roofline
 * reads thousands of percent and says nothing).
 *
 * fraction of SoL of a key = roofline time / achieved time (times and
 * cycles, where lower is better) or achieved rate / roofline rate
 * (rates): 1 is speed of light, 0.5 half of it, above 1 a violation
 * (the achieved value beats the bound by more than a relative 1e-9,
 * as corr_roof_beats judges every pairing). A cell summarises the keys
 * both sources hold (each pair's own keys, whatever the matrix's key
 * mode: the bound holds key by key): their geometric mean fraction
 * (compare's `efficiency` of a roofline model), its range and the
 * violations. One computation for `perfcorr matrix`, the
 * report's heatmap and tables and the TUI's disagreement view.
 */
enum matrix_sol_kind {
	MSOL_NONE,	/* neither side is a roofline: an ordinary cell */
	MSOL_GREY,	/* a roofline cell without a fraction: both sides
			   rooflines, a metric no roofline bounds (power,
			   counts), or no key with a usable value on both */
	MSOL_FRAC,	/* the fraction of speed of light below */
};

struct matrix_sol {
	int kind;		/* enum matrix_sol_kind */
	long n;			/* keys with a positive value on both */
	long violations;	/* of them, beating the roofline */
	double frac;		/* geometric mean fraction of SoL over the
				   n keys */
	double lo, hi;		/* smallest and largest fraction */
	const char *why;	/* static: why a grey cell has none */
};

/* 1 when a roofline bounds a metric of this unit: times ("s"),
 * cycles and rates ("*" "/s"); not power, energy or counts. */
int matrix_sol_bounds(const char *unit);

/* The fraction of speed of light of value v against the roofline's
 * value roof (higher: the metric's better direction is up); NaN when
 * either is not positive (corr_roof_fraction: one definition). */
double matrix_sol_fraction(double v, double roof, int higher);

/* Summarise the cell of row i, column j over keys k[0..nk) (one
 * metric's, of unit `unit`, better direction `higher`) into out. Its
 * kind is MSOL_NONE unless src i or j is a roofline. */
void matrix_sol_cell(struct matrix_sol *out, const struct matrix *m,
		     const struct matrix_key *k, size_t nk, const char *unit,
		     int higher, size_t i, size_t j);

/* The cell as text: "54.9% SoL", "54.9% SoL, 3 over" (violations) or
 * "n/a" (grey); "" for MSOL_NONE. */
const char *matrix_sol_fmt(char *buf, size_t len,
			   const struct matrix_sol *s);

struct matrix_cell {
	struct stats_summary s;	/* n, mape, bias, pearson_log ... */
	double ccc, ccc_log;
	const char *ccc_why, *ccc_log_why;	/* static, NULL if defined */
	long keys;		/* keys considered (before noisy exclusion) */
	struct matrix_sol sol;	/* a roofline row or column: the fraction
				   of speed of light (matrix_sol.c) */
	/* the fingerprint check of the two values' runs (issue 37,
	 * matrix_fp.h): keys refused as not comparable (not in keys, n or
	 * any statistic; keys 0 and refused > 0: the cell is "not
	 * comparable"), keys kept unverified */
	long refused, unverified;
};

/* Why a source is not in a metric's grid: a source without the metric
 * is absent from that grid, never empties it. */
enum matrix_absent {
	MA_IN,		/* in the grid */
	MA_NONE,	/* no result of the metric */
	MA_INVALID,	/* only invalid results of it */
	MA_ALONE,	/* it, on no key another source holds with a usable
			   value (its cells could only be empty) */
};

struct matrix_metric {
	char *metric;
	size_t ncommon;		/* keys held by every source of the grid */
	struct matrix_cell *cells;	/* [model * nsrc + ref]; diagonal
					   unused; a row or column off the
					   grid empty (never shown) */
	unsigned char *absent;	/* per source: enum matrix_absent */
	size_t nin;		/* sources in the grid (MA_IN), >= 2 */
};

struct matrix {
	struct matrix_opts opts;	/* borrowed strings */
	struct matrix_source *src;
	size_t nsrc;
	char **left_out;	/* "SRC: why" for sources that held nothing */
	size_t nleft;
	struct matrix_key *keys;	/* sorted by metric, workload, op */
	size_t nkeys;
	struct matrix_metric *metrics;	/* sorted by name */
	size_t nmetrics;
	char **skipped;		/* "metric ttft: no key held by all 3
				   sources of its grid (...)" */
	size_t nskipped;
	long counts[MP_COUNT];
	/* the fingerprint check over every cell (issue 37): key pairs
	 * refused, kept unverified, admitted by allow_mismatch, and the
	 * first refusal (field, both values, the cure), or NULL */
	long not_comparable, unverified, admitted;
	char *not_comparable_why;
	long unclassified;	/* keys left out of the odd one out: no
				   3 voters whose runs pair, or two such
				   sets (their vote_why says which) */
	long vote_left;		/* keys classified with a voter left out
				   of the vote (vote_why) */
	struct corr_set **sets;		/* private */
	struct annot_index *annots;	/* private */
	struct matrix_fp *fp;		/* private (matrix_fp.h) */
};

/* Load, build the matrix and classify. Fewer than two sources holding
 * anything, an unknown source or version, or cycles that must become
 * time without a clock are errors with a message. */
int matrix_build(struct matrix **out, struct db *db,
		 const struct matrix_opts *o);
void matrix_free(struct matrix *m);

/* Classify one key's values in place (matrix_build does it for every
 * key; exposed for tests). src gives kinds and roofline flags; a source
 * marked in k->unvoted (matrix_fp_key) does not vote. */
void matrix_classify(struct matrix_key *k, const struct matrix_source *src,
		     size_t nsrc, double tolerance);
void matrix_key_release(struct matrix_key *k);

/* Two values agree within tol: |a - b| <= tol * min(|a|, |b|) (the
 * larger is within tol of the smaller, as an error relative to it),
 * with a 1e-12 relative allowance for rounding at the limit. */
int matrix_agree(double a, double b, double tol);

/* "agree" ... for a pattern. */
const char *matrix_pattern_name(enum matrix_pattern p);

/* The distinct pattern labels of the classified keys with their counts:
 * the disagreements first (most keys first, then by label), agree last.
 * Caller frees the array (labels are borrowed from m). */
struct matrix_label {
	const char *label;
	enum matrix_pattern pattern;
	long count;
	size_t first;		/* index into the order of matrix_order */
};
size_t matrix_labels(const struct matrix *m, struct matrix_label **out);

/* Indexes of the classified keys in review order: by label as
 * matrix_labels lists them, then the widest spread first. Caller frees;
 * *n receives the count. */
size_t *matrix_order(const struct matrix *m, size_t *n);

/* perfcorr matrix's contract (matrix_out.c): the JSON document, the CSV
 * of the cells, the CSV of the classified keys. A roofline cell adds its
 * fraction of speed of light ("sol" in JSON, sol_* columns in CSV). */
void matrix_write_json(const struct matrix *m, FILE *fp);
void matrix_write_csv_cells(const struct matrix *m, FILE *fp);
void matrix_write_csv_keys(const struct matrix *m, FILE *fp);

/* 1 when source i is in metric mi's grid: it holds a usable value of
 * the metric on a key another source holds. The writers show a grid's
 * rows and columns only, and say who is left out and why: */
int matrix_in_grid(const struct matrix *m, size_t mi, size_t i);
/* "servesim: no time results, left out of the time grid" (caller frees),
 * NULL when source i is in the grid. */
char *matrix_absent_text(const struct matrix *m, size_t mi, size_t i);
/* The sources left out of metric mi's grid for one reason why (enum
 * matrix_absent, not MA_IN) in one sentence: "roofline, t100-rtl: no
 * power results, left out of the power grid" (caller frees); NULL when
 * none is. */
char *matrix_absent_note(const struct matrix *m, size_t mi, int why);

/* The cell of model row i, reference column j of metric mi. */
const struct matrix_cell *matrix_cell(const struct matrix *m, size_t mi,
				      size_t i, size_t j);

/* The fingerprint check per source pair (issue 37, matrix_fp.c): each
 * cell compares two sources key by key, each value from its own run;
 * the two runs' workload fingerprints are judged as the pairing judges
 * a model run and a reference run (src/corr/corr_fp.h: the same fields,
 * tolerances and opts.allow_mismatch). The roofline's row and column are
 * never judged (a bound, not a workload). */
/* Read the fingerprints of every run of the loaded sources (m->sets);
 * an unknown field in opts.allow_mismatch is PC_EUSAGE. */
int matrix_fp_load(struct matrix *m, struct db *db);
/* 1 when the values a (row i) and b (column j) are refused (counted in
 * c and m, the first reason kept in m), else 0 (an unverified pair
 * counted in c and m, an admitted one in m). */
int matrix_fp_refused(struct matrix *m, struct matrix_cell *c, size_t i,
		      size_t j, const struct matrix_val *a,
		      const struct matrix_val *b);
/* Who votes on key k (issue 37, per field as the cells judge: a field
 * allowed admits its mismatch): the voters (usable non-roofline values)
 * whose runs all pair vote; otherwise the largest set of voters whose
 * runs pair with each other votes when there is one such set of three
 * or more, the rest marked in k->unvoted and named in k->vote_why
 * (their values are another workload: the odd one out would call it a
 * model's error), counted in m->vote_left. Returns 1 when the key is
 * not classified (at most two voters pair, or two largest sets), why
 * in k->vote_why, counted in m->unclassified; else 0. */
int matrix_fp_key(struct matrix *m, struct matrix_key *k);
/* The largest sets of mutually adjacent nodes of a graph of n <= 64
 * nodes (adj[i]: bit j when i and j pair; bit i ignored): returns how
 * many largest sets there are, *out the first found (a bit per node).
 * Exposed for tests. */
size_t matrix_vote_set(const uint64_t *adj, size_t n, uint64_t *out);
void matrix_fp_free(struct matrix_fp *f);

#endif
