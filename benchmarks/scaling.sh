#!/bin/bash
# The many-core figures of issue 36 in one run, for a machine with 16 cores (or as many
# as it has): the plan analysis's speed-up over the threads (freed memory kept, as
# `furball analyze` does, then without), the bound the grids' deal of rows puts on 16
# threads from this machine's own per-row costs, and the sweeps' speed-up over 1-16
# Dask workers against the machine's own ceiling (16 processes without Dask).
#
# Run with a Python that imports furball (PYTHON, default python3):
#   PYTHON=.venv/bin/python bash benchmarks/scaling.sh [OUT_DIR]   (default: the current folder)
# Each benchmark's output is printed and kept in OUT_DIR (analyze.txt, analyze_fresh.txt,
# deal.txt, sweep.txt). GAMES (default 4000): games per sweep setting. Exits 1 when any
# benchmark failed (the others still run).
set -o pipefail
out=${1:-.}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
here=$(dirname "$0")
py=${PYTHON:-python3}
failed=0
nproc; uptime; lscpu 2>/dev/null | grep -E "Model name|Thread|Core|Socket|NUMA node\(s\)|MHz|L3"
echo "== the analysis over the threads =="
timeout 150 "$py" "$here/bench_analyze.py" 2 2>&1 | tee "$out/analyze.txt" || failed=1
echo "== the same, fresh memory =="
timeout 70 "$py" "$here/bench_analyze.py" 2 --threads-only --fresh-memory 2>&1 | tee "$out/analyze_fresh.txt" || failed=1
echo "== the grids' deal of rows, from this machine's per-row costs =="
timeout 90 "$py" "$here/bench_deal.py" 16 2>&1 | tee "$out/deal.txt" || failed=1
echo "== sweeps over the workers =="
timeout 150 "$py" "$here/bench_sweep.py" scale "${GAMES:-4000}" > "$out/sweep_raw.txt" 2>&1 || failed=1
grep -v "^\s*$" "$out/sweep_raw.txt" | grep -v "leaked semaphore\|warnings.warn" | tee "$out/sweep.txt"
uptime
exit $failed
