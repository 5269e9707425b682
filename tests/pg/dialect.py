#!/usr/bin/env python3
"""One SQL for both engines (issue 22): checks db/schema_pg.sql against a
fresh SQLite database and every statement of db/ against PostgreSQL.

usage: dialect.py SRC_DIR SQLITE_DB PSQL_COMMAND...
SQLITE_DB is a database `perfcorr init` made; PSQL_COMMAND runs psql on
a PostgreSQL database loaded with db/schema_pg.sql (tests/pg/cluster.sh).

1. the schema: the same tables and columns, each of the same type class
   (INTEGER -> bigint, REAL -> double precision, TEXT -> text, BLOB ->
   bytea) and nullability, and schema_version = DB_SCHEMA_VERSION;
2. the statements: every SQL string literal of db/*.c (adjacent literals
   joined; a multi-row INSERT built in a loop gets its first row) is
   PREPAREd on PostgreSQL with `?`/`?N` turned into `$N`, after the
   temporary tables of db/ (their CREATE TEMP TABLE literals) are made.
   db/db.c (with its parts db/db_migrate.c and db/db_txn.c),
   db/engine_sqlite.c and db/engine_pg.c (with its parts
   db/engine_pg_open.c, db/engine_pg_stmt.c and db/engine_pg_copy.c) are
   the engines' own (PRAGMAs, sqlite_schema, catalog queries) and are not
   read. Prints
   each failure with file:line and PostgreSQL's message; exit 1 when any. Python 3 standard library only.
"""
import glob
import os
import re
import sqlite3
import subprocess
import sys

SRC, SQLITE_DB, PSQL = sys.argv[1], sys.argv[2], sys.argv[3:]
ENGINE_FILES = {"db.c", "db_migrate.c", "db_txn.c", "engine_sqlite.c",
                "engine_pg.c", "engine_pg_open.c", "engine_pg_stmt.c",
                "engine_pg_copy.c"}
TYPES = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text",
         "BLOB": "bytea"}
fails = []


def psql(sql):
    r = subprocess.run(PSQL + ["-At", "-c", sql], capture_output=True,
                       text=True)
    return r.returncode, r.stdout, r.stderr


# -- 1: the schema ----------------------------------------------------------
lite = {}
con = sqlite3.connect(SQLITE_DB)
for (t,) in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table'"
                        " AND name NOT LIKE 'sqlite_%'"):
    for _, col, typ, notnull, _, pk in con.execute(
            "PRAGMA table_info(%s)" % t):
        # INTEGER PRIMARY KEY is the rowid: NOT NULL in fact
        lite[(t, col)] = (TYPES.get(typ.upper(), typ),
                          bool(notnull) or (pk == 1 and
                                            typ.upper() == "INTEGER"))
version = con.execute("PRAGMA user_version").fetchone()[0]
con.close()
rc, out, err = psql("SELECT table_name, column_name, data_type, "
                    "is_nullable FROM information_schema.columns WHERE "
                    "table_schema = 'public' AND table_name <> "
                    "'schema_version'")
if rc:
    sys.exit("psql: " + err)
pg = {}
for line in out.splitlines():
    t, col, typ, nullable = line.split("|")
    pg[(t, col)] = (typ, nullable == "NO")
for k in sorted(set(lite) | set(pg)):
    if k not in pg:
        fails.append("db/schema_pg.sql: no column %s.%s (SQLite has %s): "
                     "add it" % (k[0], k[1], lite[k][0]))
    elif k not in lite:
        fails.append("db/schema_pg.sql: column %s.%s is not in SQLite's "
                     "schema" % k)
    elif lite[k] != pg[k]:
        fails.append("db/schema_pg.sql: %s.%s is %s%s, SQLite's is %s%s" % (
            k[0], k[1], pg[k][0], " NOT NULL" if pg[k][1] else "",
            lite[k][0], " NOT NULL" if lite[k][1] else ""))
rc, out, err = psql("SELECT version FROM schema_version")
if out.strip() != str(version):
    fails.append("db/schema_pg.sql: schema_version is %s, SQLite's "
                 "user_version is %d" % (out.strip() or err.strip(), version))

# -- 2: the statements -------------------------------------------------------
LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def literals():
    """(file, source, match, SQL) of every string literal of db/."""
    for f in sorted(glob.glob(os.path.join(SRC, "db", "*.c"))):
        if os.path.basename(f) in ENGINE_FILES:
            continue
        src = open(f).read()
        # adjacent literals, also across a macro's line continuations
        for m in re.finditer(r'(?:"(?:[^"\\]|\\.)*"(?:\s|\\\n)*)+', src):
            yield f, src, m, "".join(LIT.findall(m.group(0))).replace(
                '\\"', '"')


# the staging tables (db/wbatch.c) exist only inside a transaction
temp = "".join(s + "; " for _, _, _, s in literals()
               if re.match(r"\s*CREATE TEMP TABLE\b", s))
n = 0
for f, src, m, s in literals():
    if not re.match(r"\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", s):
        continue
    if s.rstrip().endswith("VALUES"):
        ncols = s[s.index("(") + 1:s.index(")")].count(",") + 1
        s += "(" + ",".join(["?"] * ncols) + ")"
    k = [0]

    def seq(_):
        k[0] += 1
        return "$%d" % k[0]
    q = re.sub(r"\?(\d+)", r"$\1", s)
    q = re.sub(r"\?", seq, q)
    n += 1
    rc, out, err = psql("BEGIN; %sPREPARE p AS %s; ROLLBACK;" % (
        temp, q))
    if rc or "ERROR" in err:
        line = src.count("\n", 0, m.start()) + 1
        msg = [x for x in err.splitlines() if "ERROR" in x]
        fails.append("%s:%d: %s\n    %s" % (
            os.path.relpath(f, SRC), line, " ".join(s.split())[:160],
            msg[0] if msg else err.strip()))
for x in fails:
    print("FAIL: " + x, file=sys.stderr)
print("dialect: %d columns, %d statements, %d failures" % (len(lite), n,
                                                            len(fails)))
sys.exit(1 if fails else 0)
