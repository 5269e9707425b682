#!/usr/bin/python3
"""The peer a user would otherwise write: pandas read_csv + to_sql.
usage: peer_import.py CSV DB"""
import sqlite3
import sys

import pandas as pd

df = pd.read_csv(sys.argv[1])
con = sqlite3.connect(sys.argv[2])
df.to_sql("results", con, index=False)
con.commit()
con.close()
print(len(df))
