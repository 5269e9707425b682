#ifndef PC_DB_DERIVE_H
#define PC_DB_DERIVE_H
/*
 * Derived efficiency: when a workload has both an energy (or a mean power
 * and a duration) and a token count or token throughput, perfcorr stores
 * tokens_per_joule and tokens_per_s_per_watt for it (flag derived). Runs
 * inside the import transaction of the run being written; inputs come
 * from that run and earlier runs of the same source (docs/importers.md).
 */

struct db_writer;

/* Derive for the workloads the current run touched; *out = results
 * added. Errors are PC_EDB/PC_EINVALID with a message. */
int db_derive_efficiency(struct db_writer *w, long *out);

#endif
