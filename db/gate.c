/* Gate evaluation records and history (see gate.h). */
#include "db/gate.h"

#include <math.h>
#include <stdlib.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

static int insert_rules(struct db *db, int64_t id,
			const struct db_gate_rule_eval *r, size_t n)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "INSERT INTO gate_rule_evals (eval_id, rule, "
		   "seq, status, failed, value, lim, mape, n_pairs, n_waived, "
		   "n_noisy, message) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
	for (size_t i = 0; !rc && i < n; i++) {
		db_bind_int64(st, 1, id);
		db_bind_text(st, 2, r[i].rule);
		db_bind_int64(st, 3, (int64_t)i);
		db_bind_text(st, 4, r[i].status);
		db_bind_int(st, 5, r[i].failed);
		db_bind_double(st, 6, r[i].value);
		db_bind_double(st, 7, r[i].lim);
		db_bind_double(st, 8, r[i].mape);
		db_bind_int64(st, 9, r[i].npairs);
		db_bind_int64(st, 10, r[i].nwaived);
		db_bind_int64(st, 11, r[i].nnoisy);
		db_bind_text(st, 12, r[i].message);
		if (db_step(st) != DB_DONE)
			rc = db_fail(db, "recording gate rule");
		db_reset(st);
	}
	db_finalize(st);
	return rc;
}

int db_gate_record(struct db *db, const struct db_gate_eval *e,
		   const struct db_gate_rule_eval *r, size_t n,
		   int64_t *id_out)
{
	struct db_stmt *st = NULL;
	char now[32];
	int64_t id = 0;
	int rc = 0;

	util_now_iso(now, sizeof(now));
	if ((rc = db_begin(db)) < 0)
		return rc;
	db_prepare(db, &rc, &st, "INSERT INTO gate_evals (policy_name, "
		   "policy_hash, model_source, model_version, ref_source, "
		   "ref_version, model_runs, ref_runs, verdict, evaluated_at, "
		   "evaluated_by, details) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) "
		   "RETURNING id");
	if (!rc) {
		db_bind_text(st, 1, e->policy_name);
		db_bind_text(st, 2, e->policy_hash);
		db_bind_text(st, 3, e->model_source);
		db_bind_text(st, 4, e->model_version);
		db_bind_text(st, 5, e->ref_source);
		db_bind_text(st, 6, e->ref_version);
		db_bind_text(st, 7, e->model_runs);
		db_bind_text(st, 8, e->ref_runs);
		db_bind_text(st, 9, e->verdict);
		db_bind_text(st, 10, e->evaluated_at ? e->evaluated_at : now);
		db_bind_text(st, 11, e->evaluated_by ? e->evaluated_by :
			     util_user());
		db_bind_text(st, 12, e->details);
		if (db_step(st) != DB_ROW)
			rc = db_fail(db, "recording gate evaluation");
		else
			id = db_column_int64(st, 0);
	}
	db_finalize(st);
	if (!rc)
		rc = insert_rules(db, id, r, n);
	if ((rc = db_end(db, rc)) < 0)
		return rc;
	if (id_out)
		*id_out = id;
	return 0;
}

int db_gate_evals(struct db *db, const char *policy_name,
		  struct db_gate_eval **out, size_t *n)
{
	struct db_gate_eval *v = NULL;
	struct db_stmt *st = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT e.id, policy_name, policy_hash, "
		   "model_source, model_version, ref_source, ref_version, "
		   "model_runs, ref_runs, verdict, evaluated_at, evaluated_by, "
		   "details, (SELECT count(*) FROM gate_rule_evals r WHERE "
		   "r.eval_id = e.id AND r.status = 'pass'), (SELECT count(*) "
		   "FROM gate_rule_evals r WHERE r.eval_id = e.id AND r.status "
		   "= 'warn'), (SELECT count(*) FROM gate_rule_evals r WHERE "
		   "r.eval_id = e.id AND r.status = 'fail'), (SELECT count(*) "
		   "FROM gate_rule_evals r WHERE r.eval_id = e.id AND r.status "
		   "= 'unknown') FROM gate_evals e "
		   "WHERE policy_name = ?1 OR ?1 IS NULL ORDER BY e.id DESC");
	if (rc)
		return rc;
	db_bind_text(st, 1, policy_name);
	while ((step = db_step(st)) == DB_ROW) {
		struct db_gate_eval *e;

		v = xgrow(v, &cap, len, sizeof(*v));
		e = &v[len++];
		e->id = db_column_int64(st, 0);
		e->policy_name = db_column_dup(st, 1);
		e->policy_hash = db_column_dup(st, 2);
		e->model_source = db_column_dup(st, 3);
		e->model_version = db_column_dup(st, 4);
		e->ref_source = db_column_dup(st, 5);
		e->ref_version = db_column_dup(st, 6);
		e->model_runs = db_column_dup(st, 7);
		e->ref_runs = db_column_dup(st, 8);
		e->verdict = db_column_dup(st, 9);
		e->evaluated_at = db_column_dup(st, 10);
		e->evaluated_by = db_column_dup(st, 11);
		e->details = db_column_dup(st, 12);
		e->npass = db_column_int(st, 13);
		e->nwarn = db_column_int(st, 14);
		e->nfail = db_column_int(st, 15);
		e->nunknown = db_column_int(st, 16);
	}
	if (step != DB_DONE)
		rc = db_fail(db, "reading gate evaluations");
	db_finalize(st);
	if (rc) {
		db_gate_evals_free(v, len);
		return rc;
	}
	*out = v;
	*n = len;
	return 0;
}

void db_gate_evals_free(struct db_gate_eval *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].policy_name);
		free(e[i].policy_hash);
		free(e[i].model_source);
		free(e[i].model_version);
		free(e[i].ref_source);
		free(e[i].ref_version);
		free(e[i].model_runs);
		free(e[i].ref_runs);
		free(e[i].verdict);
		free(e[i].evaluated_at);
		free(e[i].evaluated_by);
		free(e[i].details);
	}
	free(e);
}

int db_gate_rule_evals(struct db *db, int64_t eval_id,
		       struct db_gate_rule_eval **out, size_t *n)
{
	struct db_gate_rule_eval *v = NULL;
	struct db_stmt *st = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT rule, status, failed, value, lim, "
		   "mape, n_pairs, n_waived, n_noisy, message FROM "
		   "gate_rule_evals WHERE eval_id = ? ORDER BY seq");
	if (rc)
		return rc;
	db_bind_int64(st, 1, eval_id);
	while ((step = db_step(st)) == DB_ROW) {
		struct db_gate_rule_eval *r;

		v = xgrow(v, &cap, len, sizeof(*v));
		r = &v[len++];
		r->rule = db_column_dup(st, 0);
		r->status = db_column_dup(st, 1);
		r->failed = db_column_int(st, 2);
		r->value = db_column_double(st, 3);
		r->lim = db_column_double(st, 4);
		r->mape = db_column_double(st, 5);
		r->npairs = db_column_int(st, 6);
		r->nwaived = db_column_int(st, 7);
		r->nnoisy = db_column_int(st, 8);
		r->message = db_column_dup(st, 9);
	}
	if (step != DB_DONE)
		rc = db_fail(db, "reading gate rules");
	db_finalize(st);
	if (rc) {
		db_gate_rule_evals_free(v, len);
		return rc;
	}
	*out = v;
	*n = len;
	return 0;
}

void db_gate_rule_evals_free(struct db_gate_rule_eval *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].rule);
		free(r[i].status);
		free(r[i].message);
	}
	free(r);
}

int db_gate_hist(struct db *db, const char *policy_name,
		 const char *model_source, const char *ref_source,
		 const char *rule, struct db_gate_hist **out, size_t *n)
{
	struct db_gate_hist *v = NULL;
	struct db_stmt *st = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT e.id, e.model_version, e.model_runs "
		   "|| '|' || e.ref_runs, e.verdict, r.rule IS NOT NULL, "
		   "r.failed, r.mape, EXISTS (SELECT 1 FROM gate_rule_evals u "
		   "WHERE u.eval_id = e.id AND u.status = 'unknown' AND "
		   "COALESCE(u.message, '') NOT LIKE 'nothing evaluated%') "
		   "FROM gate_evals e LEFT JOIN "
		   "gate_rule_evals r ON r.eval_id = e.id AND r.rule = ? "
		   "WHERE e.policy_name = ? AND e.model_source = ? AND "
		   "e.ref_source = ? ORDER BY e.id DESC");
	if (rc)
		return rc;
	db_bind_text(st, 1, rule);
	db_bind_text(st, 2, policy_name);
	db_bind_text(st, 3, model_source);
	db_bind_text(st, 4, ref_source);
	while ((step = db_step(st)) == DB_ROW) {
		struct db_gate_hist *h;

		v = xgrow(v, &cap, len, sizeof(*v));
		h = &v[len++];
		h->eval_id = db_column_int64(st, 0);
		h->model_version = db_column_dup(st, 1);
		h->inputs = db_column_dup(st, 2);
		h->verdict = db_column_dup(st, 3);
		h->have_rule = db_column_int(st, 4);
		h->failed = db_column_int(st, 5);
		h->mape = db_column_double(st, 6);
		h->unknown = db_column_int(st, 7);
	}
	if (step != DB_DONE)
		rc = db_fail(db, "reading gate history");
	db_finalize(st);
	if (rc) {
		db_gate_hist_free(v, len);
		return rc;
	}
	*out = v;
	*n = len;
	return 0;
}

void db_gate_hist_free(struct db_gate_hist *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(h[i].model_version);
		free(h[i].inputs);
		free(h[i].verdict);
	}
	free(h);
}
