-- perfcorr schema, version 1 (PRAGMA user_version = 1).
-- One schema for the four source kinds; see docs/schema.md for the why.
-- Values are stored in SI base units (s, J, W, B, FLOP, tokens/s ...);
-- cycles stay cycles and convert through runs.clock_hz when paired.

CREATE TABLE sources (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	kind       TEXT NOT NULL
	           CHECK (kind IN ('roofline', 'perfsim', 'rtl', 'silicon')),
	created_at TEXT NOT NULL
);

-- One import of one file. Immutable; re-importing the same bytes into the
-- same source is a no-op (UNIQUE source_id, sha256).
CREATE TABLE runs (
	id          INTEGER PRIMARY KEY,
	source_id   INTEGER NOT NULL REFERENCES sources(id),
	version     TEXT NOT NULL,
	format      TEXT NOT NULL,
	file_name   TEXT NOT NULL,
	sha256      TEXT NOT NULL,
	file_size   INTEGER,
	platform    TEXT,
	clock_hz    REAL,
	imported_at TEXT NOT NULL,
	imported_by TEXT,
	metadata    TEXT,              -- JSON object: importer and user metadata
	n_results   INTEGER NOT NULL DEFAULT 0,
	UNIQUE (source_id, sha256)
);
CREATE INDEX runs_source_version ON runs(source_id, version, id);

-- A workload: canonical key (name/phase/k=v.../precision) + parameters.
CREATE TABLE workloads (
	id     INTEGER PRIMARY KEY,
	key    TEXT NOT NULL UNIQUE,
	name   TEXT NOT NULL,
	params TEXT NOT NULL DEFAULT '{}'   -- JSON object of the parameters
);
CREATE TABLE workload_params (
	workload_id INTEGER NOT NULL REFERENCES workloads(id),
	name        TEXT NOT NULL,
	value       TEXT NOT NULL,
	PRIMARY KEY (workload_id, name)
) WITHOUT ROWID;
CREATE INDEX workload_params_nv ON workload_params(name, value);

-- An op (scope inside a workload): e2e, a layer, a kernel class.
CREATE TABLE ops (
	id    INTEGER PRIMARY KEY,
	name  TEXT NOT NULL UNIQUE,
	class TEXT NOT NULL                 -- e.g. gemm for gemm_qkv
);
-- Raw tool names (kernel names, layer ids) that were mapped to an op.
CREATE TABLE op_raw_names (
	run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	op_id     INTEGER NOT NULL REFERENCES ops(id),
	raw_name  TEXT NOT NULL,
	instances INTEGER NOT NULL DEFAULT 1,
	PRIMARY KEY (run_id, raw_name)
) WITHOUT ROWID;
CREATE INDEX op_raw_names_op ON op_raw_names(op_id);

CREATE TABLE metrics (
	id        INTEGER PRIMARY KEY,
	name      TEXT NOT NULL UNIQUE,
	dimension TEXT NOT NULL,            -- time, cycles, power, energy ...
	unit      TEXT NOT NULL,            -- SI unit values are stored in
	better    TEXT NOT NULL CHECK (better IN ('lower', 'higher'))
);

-- Result flags (bit set): 1 = invalid (MLPerf INVALID, failed test),
-- 2 = skipped, 4 = derived by perfcorr (not read from the file).
CREATE TABLE results (
	id          INTEGER PRIMARY KEY,
	run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	workload_id INTEGER NOT NULL REFERENCES workloads(id),
	op_id       INTEGER NOT NULL REFERENCES ops(id),
	metric_id   INTEGER NOT NULL REFERENCES metrics(id),
	value       REAL NOT NULL,          -- SI (cycles stay cycles)
	n           INTEGER,                -- samples behind value
	mean        REAL,
	median      REAL,
	min         REAL,
	max         REAL,
	stddev      REAL,
	raw_value   REAL,
	raw_unit    TEXT,
	flags       INTEGER NOT NULL DEFAULT 0,
	UNIQUE (run_id, workload_id, op_id, metric_id)
);
-- The pairing index: same (workload, op, metric) across runs.
CREATE INDEX results_key ON results(workload_id, op_id, metric_id, run_id);

-- Append-only explanation history. A key names a discrepancy; any of the
-- key columns may hold a glob pattern (is_pattern = 1) or be NULL (= any).
-- The newest row for a key is its current state.
CREATE TABLE annotations (
	id           INTEGER PRIMARY KEY,
	workload     TEXT,
	op           TEXT,
	metric       TEXT,
	model_source TEXT,
	ref_source   TEXT,
	is_pattern   INTEGER NOT NULL DEFAULT 0,
	status       TEXT NOT NULL CHECK (status IN ('open', 'investigating',
	             'explained', 'accepted', 'fixed', 'wontfix')),
	category     TEXT NOT NULL CHECK (category IN ('modeling-error',
	             'specification-error', 'abstraction-error', 'rtl-bug',
	             'measurement-issue', 'reference-changed', 'unknown')),
	note         TEXT NOT NULL DEFAULT '',
	link         TEXT,
	expires      TEXT,                  -- YYYY-MM-DD, for accepted
	author       TEXT NOT NULL,
	created_at   TEXT NOT NULL
);
CREATE INDEX annotations_key ON annotations(workload, op, metric, id);

-- Gate evaluations: one row per `perfcorr gate`, one per rule.
CREATE TABLE gate_evals (
	id            INTEGER PRIMARY KEY,
	policy_name   TEXT NOT NULL,
	policy_hash   TEXT NOT NULL,
	model_source  TEXT NOT NULL,
	model_version TEXT NOT NULL,
	ref_source    TEXT NOT NULL,
	ref_version   TEXT NOT NULL,
	model_runs    TEXT NOT NULL,        -- JSON array of run ids
	ref_runs      TEXT NOT NULL,
	verdict       TEXT NOT NULL CHECK (verdict IN ('pass', 'warn', 'fail')),
	evaluated_at  TEXT NOT NULL,
	evaluated_by  TEXT,
	details       TEXT                  -- JSON: the full result
);
CREATE INDEX gate_evals_policy ON gate_evals(policy_name, id);
CREATE TABLE gate_rule_evals (
	eval_id  INTEGER NOT NULL REFERENCES gate_evals(id) ON DELETE CASCADE,
	rule     TEXT NOT NULL,
	seq      INTEGER NOT NULL DEFAULT 0, -- position in the policy
	status   TEXT NOT NULL,             -- pass, warn, fail
	failed   INTEGER NOT NULL,          -- the limit was exceeded this time
	value    REAL,                      -- first failed (else first) check
	lim      REAL,
	mape     REAL,                      -- baseline for max_mape_increase
	n_pairs  INTEGER,
	n_waived INTEGER,
	n_noisy  INTEGER,
	message  TEXT,
	PRIMARY KEY (eval_id, rule)
) WITHOUT ROWID;

-- Recorded weekly reviews (`perfcorr report --record`).
CREATE TABLE reviews (
	id           INTEGER PRIMARY KEY,
	created_at   TEXT NOT NULL,
	author       TEXT,
	model_source TEXT NOT NULL,
	model_version TEXT NOT NULL,
	ref_source   TEXT NOT NULL,
	ref_version  TEXT NOT NULL,
	runs         TEXT NOT NULL,         -- JSON array of run ids covered
	lim          REAL                   -- |error| above which a pair was
	                                    -- listed as a discrepancy
);
CREATE INDEX reviews_sides ON reviews(model_source, ref_source, id);
CREATE TABLE review_items (
	review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
	workload  TEXT NOT NULL,
	op        TEXT NOT NULL,
	metric    TEXT NOT NULL,
	model     REAL,
	ref       REAL,
	err       REAL,
	PRIMARY KEY (review_id, workload, op, metric)
) WITHOUT ROWID;

-- Known metrics; importers may add others (dimension from the unit).
INSERT INTO metrics (name, dimension, unit, better) VALUES
	('time', 'time', 's', 'lower'),
	('cycles', 'cycles', 'cycles', 'lower'),
	('ttft', 'time', 's', 'lower'),
	('itl', 'time', 's', 'lower'),
	('tpot', 'time', 's', 'lower'),
	('e2el', 'time', 's', 'lower'),
	('duration', 'time', 's', 'lower'),
	('throughput', 'rate', 'tokens/s', 'higher'),
	('output_throughput', 'rate', 'tokens/s', 'higher'),
	('total_throughput', 'rate', 'tokens/s', 'higher'),
	('request_throughput', 'rate', 'req/s', 'higher'),
	('power', 'power', 'W', 'lower'),
	('energy', 'energy', 'J', 'lower'),
	('tokens_per_joule', 'efficiency', 'tokens/J', 'higher'),
	('bytes', 'bytes', 'B', 'lower'),
	('flops', 'flops', 'FLOP', 'lower'),
	('utilization', 'ratio', '1', 'higher');
