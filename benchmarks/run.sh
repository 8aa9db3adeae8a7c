#!/usr/bin/env bash
# Builds the benchmarks and runs every measure of issue 13 (all but peers); writes benchmarks/target/benchmarks.md and .json.
#   benchmarks/run.sh                      the full run (about an hour; run it on a quiet machine)
#   benchmarks/run.sh --smoke              proves everything runs (a few minutes), figures not comparable
#   benchmarks/run.sh --only handoff --stores memory,postgresql
#   benchmarks/run.sh --only shared        issue 37: permits, read/write locks, acquireAsync against the mutex
#   benchmarks/run.sh --only runtime       issue 38: the engine and Locks.acquire against the store's own (SPI) cycle
#   benchmarks/run.sh --only peers --stores postgresql,mariadb,redis
#                                          issue 38's peers (ShedLock, Spring Integration, Redisson) beside Baton and
#                                          the raw baselines of the same JMH runs; only when named (full: ~80 min)
#   benchmarks/run.sh --pool hibernate     the JPA store on Hibernate's built-in pool (default: HikariCP)
# BATON_BENCH_POSTGRES_URL / BATON_BENCH_MARIADB_URL / BATON_BENCH_REDIS_URL (redis://127.0.0.1:6379): use a
# running server instead of an embedded one.
# BENCH_NO_BUILD=1 skips the Maven build.
# BENCH_FORK_ARGS: JVM options added to every JMH fork, separated by spaces (e.g. a JFR recording).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -z "${BENCH_NO_BUILD:-}" ]; then
  ./mvnw -q -B -o -pl benchmarks -am package -DskipTests || ./mvnw -q -B -pl benchmarks -am package -DskipTests
fi
cp="$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/classpath.txt")"
exec java -Xmx2g -cp "$cp" -Dbaton.bench.dir="$root/benchmarks/target" -Dbaton.bench.forkArgs="${BENCH_FORK_ARGS:-}" \
  dev.baton.bench.BenchRunner "$@"
