# ctest fixture of the PostgreSQL run (label pg): start|stop DIR. The
# command-line tests run with PERFCORR_TEST_DB_ENGINE=pg and PC_PG_DIR=DIR
# each make their own database on this one cluster (tests/cli/lib.sh).
. "$(dirname "$0")/cluster.sh"
case "${1:-}" in
start)
	pg_cluster_start "${2:?usage: fixture.sh start|stop DIR}" ;;
stop)
	PC_PG_DIR=${2:?usage: fixture.sh start|stop DIR}
	pg_cluster_stop ;;
*)
	echo "usage: fixture.sh start|stop DIR" >&2
	exit 2 ;;
esac
