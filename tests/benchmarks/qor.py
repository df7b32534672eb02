#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# QoR benchmark: compiles qor/qor.cl with loomc for a board, runs every kernel on the simulated board
# through the ICD loader (pyopencl), checks it against numpy, and prints per kernel the simulated
# cycles, the bound (one loop iteration or work-item per cycle, or the board's memory bandwidth), the
# ratio, each loop's II and what sets it, and, with yosys, synth_xilinx's LUT/FF/DSP beside the
# report's estimate. Figures, not a test: the exit status only says whether results were correct.
# Usage: qor.py <loomc> <workdir> [board]   (OCL_ICD_VENDORS must name Loom's loom.icd)
# yosys: QOR_YOSYS=0 skips it, QOR_YOSYS=all adds the barrier kernels (over ten minutes each),
# QOR_YOSYS_TIMEOUT limits each run (seconds, 600).
# The FIR is also measured on the unit board (2-cycle memory, like the on-chip arrays of Dynamatic's
# published figure), in a process of its own: qor.py <loomc> <workdir> unit fir, with LOOM_BOARD=unit.
import json, os, re, shutil, subprocess, sys

import numpy as np
import pyopencl as cl

loomc, workdir = sys.argv[1], sys.argv[2]
board_name = sys.argv[3] if len(sys.argv) > 3 else "default"
fir_only = len(sys.argv) > 4 and sys.argv[4] == "fir"
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
board = json.load(open(os.path.join(root, "board-support", "boards", board_name + ".json")))
clock_mhz = board["clock_mhz"]
peak_bytes_per_cycle = board["global_memory"]["bandwidth_gbps"] * 1e3 / clock_mhz

os.makedirs(workdir, exist_ok=True)
binary, verilog = os.path.join(workdir, "qor.loom"), os.path.join(workdir, "qor.v")
report = ""
if not fir_only:
    report = subprocess.run([loomc, os.path.join(here, "qor", "qor.cl"), "-o", binary, "--board", board_name,
                             "--report", "-q", "--emit-verilog", verilog],
                            check=True, capture_output=True, text=True).stdout

def build_alone(source, stem, options):
    """Builds one of qor/'s kernel files alone with build options; adds its report."""
    global report
    alone_binary, alone_verilog = os.path.join(workdir, stem + ".loom"), os.path.join(workdir, stem + ".v")
    report += subprocess.run([loomc, os.path.join(here, "qor", source), "-o", alone_binary, "--board", board_name,
                              "--report", "-q", "--options=" + options, "--emit-verilog", alone_verilog],
                             check=True, capture_output=True, text=True).stdout
    return alone_binary, alone_verilog

if fir_only:
    binary, verilog = build_alone("fir.cl", "qor_fir", "")
else:
    # The same float sum built with -cl-fast-relaxed-math: reassociated into interleaved partial sums.
    fast_binary, fast_verilog = build_alone("gsum.cl", "qor_fast", "-cl-fast-relaxed-math -Dgsum=gsum_fast")
    # The same rows with #pragma max_interleaving 1.
    once_binary, once_verilog = build_alone("rows.cl", "qor_once", "-DONE_ROW_AT_A_TIME -Drows=rows_once")
    # Kernels with barriers, as OpenCL C 2.0 for the work-group function, with uniform work-groups as FPGA
    # kernels are written (every group's loops over its work-items then run the same count, and overlap).
    barriers_binary, barriers_verilog = build_alone("barriers.cl", "qor_barriers",
                                                    "-cl-std=CL2.0 -cl-uniform-work-group-size")
    # The same as OpenCL C 2.0 allows them, with a partial last group: each group's loops run the enqueued
    # size all the same, skipping the work-items a partial group lacks, and overlap as well.
    nonuniform_binary, nonuniform_verilog = build_alone("barriers.cl", "qor_nonuniform",
                                                        "-cl-std=CL2.0 -Dasync_tile=async_tile_nonuniform "
                                                        "-Dtiled_sgemm=tiled_sgemm_nonuniform")
barrier_kernels = ("local_reverse", "local_reverse_simd4", "tree_sum", "group_sum", "async_window", "async_tile",
                   "tiled_sgemm")

def kernel_report(name):
    lines, inside = [], False
    for line in report.splitlines():
        if line.startswith("kernel "):
            inside = line.startswith(f"kernel {name}:")
            if inside:
                lines.append(line)
        elif inside and line.startswith("  loop"):
            lines.append(line)
    return lines

platform = next(p for p in cl.get_platforms() if p.name.startswith("Loom"))
device = next(d for d in platform.get_devices() if d.type & cl.device_type.ACCELERATOR)
context = cl.Context([device])
queue = cl.CommandQueue(context, properties=cl.command_queue_properties.PROFILING_ENABLE)
program = cl.Program(context, [device], [open(binary, "rb").read()]).build()
rng = np.random.default_rng(7)
mf = cl.mem_flags

def buf(host):
    return cl.Buffer(context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)

def run(name, global_size, *args, built=program, local_size=None):
    event = getattr(built, name)(queue, global_size, local_size, *args)
    event.wait()
    return (event.profile.end - event.profile.start) * clock_mhz / 1000.0

def get(buffer, like):
    out = np.empty_like(like)
    cl.enqueue_copy(queue, out, buffer)
    return out

cases = []

def case(name, cycles, bound, bound_what, correct):
    cases.append((name, cycles, bound, bound_what, correct))

def fir_case(label):
    taps, samples = 16, 1000
    fx = rng.integers(-1000, 1000, samples).astype(np.int32)
    coef = rng.integers(-100, 100, taps).astype(np.int32)
    fy = np.zeros(samples, np.int32)
    fb = buf(fy)
    cycles = run("fir", (1,), buf(fx), buf(coef), fb, np.int32(samples))
    history = np.concatenate([np.zeros(taps - 1, np.int32), fx])  # the window starts at zero
    want = np.array([np.dot(coef, history[i:i + taps]) for i in range(samples)], np.int32)
    case("fir 1000 x 16 taps" + label, cycles, samples, "1 sample/cycle (shift register)",
         np.array_equal(get(fb, fy), want))

def print_case(name, cycles, bound, what, correct):
    print(f"{name:<34} {cycles:>10.0f} {bound:>10.0f} {cycles / bound:>6.2f}  {what:<15} {'ok' if correct else 'WRONG'}")

if fir_only:
    fir_case(" (unit board)")
    print_case(*cases[0])
    for line in kernel_report("fir"):
        print(line)
    sys.exit(0 if cases[0][4] else 1)

n = 1000
a = rng.standard_normal(n).astype(np.float32)
out = np.zeros(1, np.float32)
ob = buf(out)
cycles = run("gsum", (1,), buf(a), ob, np.int32(n))
want = np.float32(0)
for v in a:
    want = np.float32(want + v)
case("gsum 1000", cycles, n, "1 iteration/cycle", get(ob, out)[0] == want)

fast_program = cl.Program(context, [device], [open(fast_binary, "rb").read()]).build()
cycles = run("gsum_fast", (1,), buf(a), ob, np.int32(n), built=fast_program)
# Reassociated: any order of the additions is right; the error bound is n ulps of the magnitudes.
fast_sum = get(ob, out)[0]
case("gsum fast-math 1000", cycles, n, "1 iteration/cycle",
     abs(float(fast_sum) - float(np.sum(a.astype(np.float64)))) <= n * np.finfo(np.float32).eps * float(np.sum(np.abs(a))))

# 100 rows of 32: 3,200 loop iterations; one row at a time, each waits for the multiply.
rows_n, rows_m = 100, 32
matrix = rng.integers(-1000, 1000, (rows_n, rows_m)).astype(np.int32)
want = np.zeros(rows_n, np.int32)
with np.errstate(over="ignore"):
    for k in range(rows_m):
        want = want * np.int32(3) + matrix[:, k]
once_program = cl.Program(context, [device], [open(once_binary, "rb").read()]).build()
for kernel, built in (("rows", program), ("rows_once", once_program), ("rows_swi", program)):
    folded = np.zeros(rows_n, np.int32)
    fb = buf(folded)
    sizes = ((1,), np.int32(rows_n)) if kernel == "rows_swi" else ((rows_n,),)
    cycles = run(kernel, sizes[0], buf(matrix), fb, *sizes[1:], np.int32(rows_m), built=built)
    case(f"{kernel} {rows_n} x {rows_m}", cycles, rows_n * rows_m, "1 iteration/cycle", np.array_equal(get(fb, folded), want))

bins = rng.integers(0, 64, n).astype(np.int32)
weights = rng.random(n).astype(np.float32)
hist = np.zeros(64, np.float32)
hb = buf(hist)
cycles = run("histogram", (1,), buf(bins), buf(weights), hb, np.int32(n))
want = np.zeros(64, np.float32)
for b_, w_ in zip(bins, weights):
    want[b_] = np.float32(want[b_] + w_)
case("histogram 1000", cycles, n, "1 iteration/cycle", np.array_equal(get(hb, hist), want))

rows_items, rows_n = 256, 32
row_bins = rng.integers(0, 64, (rows_items, rows_n)).astype(np.int32)
counts = np.zeros((rows_items, 64), np.float32)
cb = buf(counts)
cycles = run("row_counts", (rows_items,), buf(row_bins), cb, np.int32(rows_n))
want = np.zeros((rows_items, 64), np.float32)
for i in range(rows_items):
    np.add.at(want[i], row_bins[i], 1.0)
case(f"row_counts {rows_items} x {rows_n}", cycles, rows_items * rows_n, "1 iteration/cycle",
     np.array_equal(get(cb, counts), want))

m = 30
ga, gb = rng.integers(-100, 100, (m, m)).astype(np.int32), rng.integers(-100, 100, (m, m)).astype(np.int32)
gc = np.zeros((m, m), np.int32)
cb = buf(gc)
cycles = run("gemm", (1,), buf(ga), buf(gb), cb, np.int32(m))
case("gemm 30^3 int", cycles, m ** 3, "1 MAC/cycle", np.array_equal(get(cb, gc), ga @ gb))

# n^3 MACs, 16 an iteration; per 16 x 16 tile, a loop copying the tiles and a loop computing.
m = 64
ga, gb = rng.integers(-100, 100, (m, m)).astype(np.int32), rng.integers(-100, 100, (m, m)).astype(np.int32)
gc = np.zeros((m, m), np.int32)
cb = buf(gc)
cycles = run("tiled_gemm", (1,), buf(ga), buf(gb), cb, np.int32(m))
case("tiled_gemm 64^3 int", cycles, 2 * m ** 3 // 16, "1 iteration/cycle", np.array_equal(get(cb, gc), ga @ gb))

t = 100000
tb, tc = rng.random(t).astype(np.float32), rng.random(t).astype(np.float32)
ta = np.zeros(t, np.float32)
want = tb + np.float32(3) * tc
memory_bound = 12 * t / peak_bytes_per_cycle
for kernel, size, extra in (("triad_swi", (1,), (np.int32(t),)), ("triad", (t,), ()),
                            ("triad16_swi", (1,), (np.int32(t // 16),)), ("triad16", (t // 16,), ()),
                            ("triad_unroll16_swi", (1,), (np.int32(t),)), ("triad_simd16", (t,), ())):
    ab = buf(ta)
    cycles = run(kernel, size, buf(tb), buf(tc), ab, np.float32(3), *extra)
    case(f"{kernel} 100k", cycles, memory_bound, f"{peak_bytes_per_cycle:.0f} B/cycle peak",
         np.array_equal(get(ab, ta), want))

s = 64
sga, sgb = rng.standard_normal((s, s)).astype(np.float32), rng.standard_normal((s, s)).astype(np.float32)
sc = np.zeros((s, s), np.float32)
scb = buf(sc)
cycles = run("sgemm", (s, s), buf(sga), buf(sgb), scb, np.int32(s))
want_sgemm = np.zeros((s, s), np.float32)
for k in range(s):
    want_sgemm = (want_sgemm + np.outer(sga[:, k], sgb[k, :]).astype(np.float32)).astype(np.float32)
case("sgemm 64^3 naive", cycles, s ** 3, "1 MAC/cycle", np.array_equal(get(scb, sc), want_sgemm))

side, maxit = 256, 64
image = np.zeros((side, side), np.int32)
ib = buf(image)
x0, y0, step = np.float32(-2.0), np.float32(-1.5), np.float32(3.0 / side)
cycles = run("mandelbrot", (side, side), ib, x0, y0, step, np.int32(maxit))
xs = (x0 + step * np.arange(side, dtype=np.float32)).astype(np.float32)
ys = (y0 + step * np.arange(side, dtype=np.float32)).astype(np.float32)
cr, ci = np.meshgrid(xs, ys)
zr, zi, its = np.zeros_like(cr), np.zeros_like(ci), np.zeros(cr.shape, np.int32)
with np.errstate(over="ignore", invalid="ignore"):
    for _ in range(maxit):
        active = (zr * zr + zi * zi) < np.float32(4)
        tr = (zr * zr - zi * zi + cr).astype(np.float32)
        zi = np.where(active, (np.float32(2) * zr * zi + ci).astype(np.float32), zi)
        zr = np.where(active, tr, zr)
        its += active
got = get(ib, image)
case(f"mandelbrot {side}^2", cycles, int(got.sum()), "1 iteration/cycle", np.array_equal(got, its))
image[:] = 0
ib = buf(image)
cycles = run("mandelbrot_cu4", (side, side), ib, x0, y0, step, np.int32(maxit))
case(f"mandelbrot 4 CUs", cycles, int(its.sum()) / 4, "4 iterations/cycle", np.array_equal(get(ib, image), its))

fir_case("")

w = 130
grid = rng.random((w, w)).astype(np.float32)
result = np.zeros_like(grid)
rb = buf(result)
cycles = run("stencil", (w - 2, w - 2), buf(grid), rb, np.int32(w))
g = grid
inner = (np.float32(0.5) * g[1:-1, 1:-1] + np.float32(0.125) * (((g[1:-1, :-2] + g[1:-1, 2:]) + g[:-2, 1:-1]) + g[2:, 1:-1])).astype(np.float32)
case("stencil 128^2", cycles, (w - 2) ** 2, "1 point/cycle", np.array_equal(get(rb, result)[1:-1, 1:-1], inner))
# The same, single work-item over a sliding window of the grid's 130-point rows: it reads each point
# once, and the loop runs a row past the grid's end to make the last row's points.
result[:] = 0
rb = buf(result)
cycles = run("stencil_window", (1,), buf(grid), rb, np.int32(w))
case("stencil_window 128^2 (single work-item)", cycles, w * w + w, "1 point/cycle", np.array_equal(get(rb, result)[1:-1, 1:-1], inner))

# Barrier kernels: the bound is one work-item a cycle through each region (pass) of each group.
barriers_program = cl.Program(context, [device], [open(barriers_binary, "rb").read()]).build()
nonuniform_program = cl.Program(context, [device], [open(nonuniform_binary, "rb").read()]).build()
items = 4096
values = rng.standard_normal(items + 3).astype(np.float32)
for kernel, group, lanes in (("local_reverse", 256, 1), ("local_reverse", 16, 1), ("local_reverse_simd4", 256, 4)):
    reversed_ = np.zeros(items, np.float32)
    rb = buf(reversed_)
    cycles = run(kernel, (items,), buf(values[:items].copy()), rb, built=barriers_program, local_size=(group,))
    case(f"{kernel} {items}, groups of {group}", cycles, 2 * items / lanes, f"{lanes} work-items/cycle, 2 regions",
         np.array_equal(get(rb, reversed_), values[:items].reshape(-1, group)[:, ::-1].reshape(-1)))
ints = rng.integers(-1000, 1000, items).astype(np.int32)
for kernel, passes in (("tree_sum", 8), ("group_sum", 3)):
    sums = np.zeros(items // 64, np.int32)
    sb = buf(sums)
    cycles = run(kernel, (items,), buf(ints), sb, built=barriers_program, local_size=(64,))
    case(f"{kernel} {items}, groups of 64", cycles, passes * items, f"1 work-item/cycle, {passes} passes",
         np.array_equal(get(sb, sums), ints.reshape(-1, 64).sum(axis=1)))
windows = np.zeros(items, np.float32)
wb = buf(windows)
cycles = run("async_window", (items,), buf(values), wb, built=barriers_program, local_size=(64,))
want = (((values[:-3] + values[1:-2]) + values[2:-1]) + values[3:]).astype(np.float32)
case(f"async_window {items}, groups of 64", cycles, 2 * items, "1 work-item/cycle, 2 regions",
     np.array_equal(get(wb, windows), want))
tiles = rng.standard_normal(items * 16).astype(np.float32)
tb = buf(np.zeros_like(tiles))
want = tiles.reshape(-1, 1024).copy()
want[:, :64] += want[:, :-65:-1]
for kernel, built in (("async_tile", barriers_program), ("async_tile_nonuniform", nonuniform_program)):
    tb = buf(np.zeros_like(tiles))
    cycles = run(kernel, (items,), buf(tiles), tb, built=built, local_size=(64,))
    case(f"{kernel} {items * 16} floats, groups of 64", cycles, 3 * items, "1 work-item/cycle, 3 regions",
         np.array_equal(get(tb, np.zeros_like(tiles)), want.reshape(-1)))

# The sgemm above with 16 x 16 __local tiles: the same sums in the same order.
regions = 2 * s // 16 + 1
for kernel, built in (("tiled_sgemm", barriers_program), ("tiled_sgemm_nonuniform", nonuniform_program)):
    tsc = buf(sc)
    cycles = run(kernel, (s, s), buf(sga), buf(sgb), tsc, np.int32(s), built=built, local_size=(16, 16))
    case(f"{kernel} {s}^3, 16 x 16 tiles", cycles, regions * s * s, f"1 work-item/cycle, {regions} regions",
         np.array_equal(get(tsc, sc), want_sgemm))

items, m = 1000, 16
unsorted = rng.integers(-10000, 10000, (items, m)).astype(np.int32)
sorted_out = np.zeros_like(unsorted)
pb = buf(sorted_out)
cycles = run("private_sort", (items,), buf(unsorted), pb, np.int32(m))
# Loop iterations: each element's outer iteration, its shifts (inversions), and the copy out.
shifts = sum(int((row[:k] < row[k]).sum()) for row in unsorted for k in range(m))
case(f"private_sort {items} x {m}", cycles, items * 2 * m + shifts, "1 iteration/cycle",
     np.array_equal(get(pb, sorted_out), -np.sort(-unsorted, axis=1)))

def yosys_area(top, verilog=verilog):
    if not shutil.which("yosys"):
        return "yosys not found"
    try:
        out = subprocess.run(["yosys", "-q", "-p", f"read_verilog {verilog}; synth_xilinx -flatten -top {top}; tee -o /dev/stdout stat"],
                             capture_output=True, text=True, timeout=int(os.environ.get("QOR_YOSYS_TIMEOUT", "600"))).stdout
    except subprocess.TimeoutExpired:
        return "yosys timed out"
    count = lambda pattern: sum(int(v) for v in re.findall(pattern, out))
    luts = count(r"LUT[1-6]\s+(\d+)")
    registers = count(r"FD[A-Z]*\s+(\d+)") + count(r"SRL[A-Z0-9]*\s+(\d+)")
    dsps = count(r"DSP48E1\s+(\d+)")
    rams = count(r"RAM[A-Z0-9]*\s+(\d+)")
    return f"yosys synth_xilinx: {luts} LUT, {registers} FF/SRL, {rams} RAM cells (FIFOs), {dsps} DSP"

print(f"board '{board_name}': {clock_mhz} MHz, {peak_bytes_per_cycle:.0f} B/cycle peak memory bandwidth")
print(f"{'kernel':<34} {'cycles':>10} {'bound':>10} {'ratio':>6}  bound is        result")
all_correct = True
for name, cycles, bound, what, correct in cases:
    all_correct &= bool(correct)
    print_case(name, cycles, bound, what, correct)
if board_name != "unit":
    unit = subprocess.run([sys.executable, os.path.abspath(__file__), loomc, os.path.join(workdir, "unit"), "unit", "fir"],
                          env=dict(os.environ, LOOM_BOARD="unit"), capture_output=True, text=True)
    print(unit.stdout + unit.stderr[-2000:] * (unit.returncode != 0), end="")
    all_correct &= unit.returncode == 0
print()
for kernel in ("gsum", "gsum_fast", "rows", "rows_once", "rows_swi", "histogram", "row_counts", "gemm", "tiled_gemm", "triad_swi", "triad", "triad16_swi", "triad16", "triad_unroll16_swi", "triad_simd16", "sgemm",
               "mandelbrot", "mandelbrot_cu4", "fir", "stencil", "stencil_window", *barrier_kernels, "private_sort"):
    for line in kernel_report(kernel):
        print(line)
    # yosys spends over ten minutes on each barrier kernel (opt_dff over the FIFOs memory_map turns into
    # flip-flops): their area only with QOR_YOSYS=all.
    if os.environ.get("QOR_YOSYS", "1") != "0" and (kernel not in barrier_kernels or os.environ.get("QOR_YOSYS") == "all"):
        print("  " + yosys_area("loom_kernel_" + kernel, {"gsum_fast": fast_verilog, "rows_once": once_verilog}.get(
            kernel, barriers_verilog if kernel in barrier_kernels else verilog)))
sys.exit(0 if all_correct else 1)
