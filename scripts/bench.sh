#!/usr/bin/env bash
# Benchmarks: builds Loom, then prints the figures the project tracks. They are measured in one run so
# that ratios (board model vs bare Verilator loop, Loom CPU vs PoCL) compare like with like.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
bash scripts/build.sh >/dev/null
B=${LOOM_BUILD_DIR:-build}
N_BOARD=${N_BOARD:-1000000}
N_CPU=${N_CPU:-16777216}
export OCL_ICD_VENDORS=$PWD/$B/loom.icd

echo "== loomc: time and peak memory for vector_add (default board, Verilated model included)"
python3 - "$B/bin/loomc" examples/vector_add/vector_add.cl "$B/bench-vector_add.loom" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run([sys.argv[1], sys.argv[2], "-o", sys.argv[3], "-q"], check=True)
wall = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"loomc vector_add: {wall:.1f} s wall, peak RSS {peak:.0f} MB (largest of loomc, verilator, c++)")
PY

echo "== board: vector_add of $N_BOARD floats (simulated cycles vs the memory-bandwidth bound)"
"$B/bin/bench_sim_speed" "$B/bench-vector_add.loom" "$N_BOARD"

echo "== CPU device vs PoCL: vector_add and a reduction of $N_CPU floats, a 512^3 __local-tiled sgemm"
vendors=$(mktemp -d)
cp "$B/loom.icd" "$vendors/"
for icd in /etc/OpenCL/vendors/pocl*.icd; do cp "$icd" "$vendors/"; done
OCL_ICD_VENDORS=$vendors "$B/bin/bench_cpu_vs_pocl" examples/vector_add/vector_add.cl "$N_CPU"
rm -rf "$vendors"

echo "== pipes on the CPU device: packets/s producer -> consumer and a chain of 4 (PoCL 3.1 has no pipes),"
echo "   against two host threads and a bare ring of the same depth"
"$B/bin/bench_pipe_throughput" 1000000

echo "== math precision on the CPU device: every 64th float bit pattern per single-argument builtin"
echo "   (run bench_math_ulp 1 for every float: some 30 s per function)"
"$B/bin/bench_math_ulp" 64

echo "== memory: host application + board process, vector_add of $N_CPU floats on the board"
"$B/bin/bench_board_memory" "$B/bench-vector_add.loom" "$N_CPU"

echo "== QoR: loop and memory kernels on the board (cycles vs bound, loop II, yosys area vs estimate)"
/usr/bin/python3 tests/benchmarks/qor.py "$B/bin/loomc" "$B/bench-qor"

echo "== board model vs bare Verilator loop on the QoR kernels (simulation speed per simulated cycle)"
"$B/bin/bench_sim_speed" --qor "$B/bench-qor/qor.loom"

echo "== online build: clBuildProgram of vector_add on the board (first build, then a cache hit)"
PYOPENCL_NO_CACHE=1 LOOM_CACHE_DIR="$B/bench-cache" /usr/bin/python3 - examples/vector_add/vector_add.cl <<'PY'
import shutil, sys, time, os
import pyopencl as cl
shutil.rmtree(os.environ["LOOM_CACHE_DIR"], ignore_errors=True)
platform = next(p for p in cl.get_platforms() if p.name.startswith("Loom"))
board = next(d for d in platform.get_devices() if d.type & cl.device_type.ACCELERATOR)
context = cl.Context([board])
source = open(sys.argv[1]).read()
for what in ("first build", "cache hit"):
    start = time.monotonic()
    cl.Program(context, source).build()
    print(f"clBuildProgram vector_add, {what}: {time.monotonic() - start:.2f} s")
PY
