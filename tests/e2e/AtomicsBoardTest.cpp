// SPDX-License-Identifier: Apache-2.0
// Global atomics on the board: a contended histogram, min/max/and/or/xor/sub/dec reductions, tickets
// and exchanges whose results must be permutations, compare-and-swap retry loops, 64-bit atomics and
// a single work-item's atomics in a loop (kernels/atomics.cl, compiled by loomc at build time), on the
// board and the CPU device, against a host reference.
#include "DifferentialSupport.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <numeric>

using namespace e2e;

namespace {

const Sources Atomics{LOOM_E2E_ATOMICS_LOOM, LOOM_E2E_ATOMICS_CL, LOOM_E2E_ATOMICS_OPTIONS};

/// Runs kernel `name` of atomics.cl, (data, buffer, n), over `range` on `target`, with `buffer`
/// starting as given; returns the buffer afterwards and prints the board's cycles.
template <typename T>
std::vector<T> run(const Target &target, const char *name, const std::vector<int> &data, const std::vector<T> &buffer,
                   Range range) {
  Setup cl(target.device(), CL_QUEUE_PROFILING_ENABLE);
  cl_program program = programFor(cl, target, Atomics);
  cl_kernel kernel = kernelNamed(program, name);
  cl_mem ddata = e2e::buffer(cl, data, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dbuffer = e2e::buffer(cl, buffer, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(kernel, 0, ddata);
  setArg(kernel, 1, dbuffer);
  setArg(kernel, 2, int(data.size()));
  cl_event event = launch(cl, kernel, range);
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  if (target.fromBinary)
    std::printf("%s on the board: %llu ns simulated\n", name, static_cast<unsigned long long>(end - start));
  clReleaseEvent(event);
  auto out = readBack<T>(cl, dbuffer, buffer.size());
  clReleaseMemObject(ddata);
  clReleaseMemObject(dbuffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return out;
}

/// Whether `values` are `first`, `first` + 1, ... in some order.
bool isPermutationFrom(std::vector<int> values, int first) {
  std::sort(values.begin(), values.end());
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i] != first + int(i))
      return false;
  return true;
}

} // namespace

TEST_CASE("a histogram of 4096 work-items into 16 bins (atomic_inc, atomic_add): board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 4096;
  auto data = randomInts(n, -100000, 100000, 11);
  std::vector<int> want(32, 0);
  for (int v : data) {
    ++want[v & 15];
    want[16 + (v & 15)] += v;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(run(target, "histogram", data, std::vector<int>(32, 0), {{n}}), want) == -1);
  }
}

TEST_CASE("atomic min, max (signed and unsigned), and, or, xor, sub, dec and a conditional inc: board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 1024;
  auto data = randomInts(n, -2000000000, 2000000000, 12);
  const std::vector<uint32_t> start{uint32_t(INT_MAX), uint32_t(INT_MIN), UINT_MAX, 0, UINT_MAX,
                                    0,                 0x5a5a5a5a,        7,        0, 0};
  std::vector<uint32_t> want = start;
  for (size_t i = 0; i < n; ++i) {
    const int v = data[i];
    const uint32_t u = uint32_t(v);
    want[0] = uint32_t(std::min(int(want[0]), v));
    want[1] = uint32_t(std::max(int(want[1]), v));
    want[2] = std::min(want[2], u);
    want[3] = std::max(want[3], u);
    want[4] &= ~(1u << (i & 31)) | u;
    want[5] |= 1u << (v & 31);
    want[6] ^= u;
    want[7] -= u;
    want[8] -= 1;
    want[9] += v & 1;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(run(target, "reductions", data, start, {{n}}), want) == -1);
  }
}

TEST_CASE("tickets from atomic_inc and values from atomic_xchg are permutations: board == CPU",
          "[e2e][board][atomics]") {
  const size_t n = 2048;
  std::vector<int> data(n, 0);
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    std::vector<int> start(n + 1, -1);
    start[0] = 0;
    auto tickets = run(target, "tickets", data, start, {{n}});
    CHECK(tickets[0] == int(n));
    CHECK(isPermutationFrom(std::vector<int>(tickets.begin() + 1, tickets.end()), 0));
    // Each work-item takes what the slot held and leaves its id + 1000: what was taken, plus what is
    // left, is every id and the slot's first value 999.
    start[0] = 999;
    auto taken = run(target, "exchange", data, start, {{n}});
    CHECK(isPermutationFrom(taken, 999));
  }
}

TEST_CASE("compare-and-swap retry loops (a sum, a maximum): board == CPU == host", "[e2e][board][atomics]") {
  const size_t n = 256;
  auto data = randomInts(n, -1000000, 1000000, 13);
  const int sum = std::accumulate(data.begin(), data.end(), 0);
  const int max = *std::max_element(data.begin(), data.end());
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto out = run(target, "cas_loops", data, std::vector<int>{0, INT_MIN, 0}, {{n}});
    CHECK(out[0] == sum);
    CHECK(out[1] == max);
    CHECK(out[2] >= 0);
  }
}

TEST_CASE("64-bit atom_add and atom_max on long and ulong: board == CPU == host", "[e2e][board][atomics]") {
  const size_t n = 1024;
  auto data = randomInts(n, -2000000000, 2000000000, 14);
  std::vector<uint64_t> want{0, uint64_t(INT64_MIN), 0};
  for (int v : data) {
    const int64_t wide = int64_t(v) * 4000000007LL;
    want[0] += uint64_t(wide);
    want[1] = uint64_t(std::max(int64_t(want[1]), wide));
    want[2] = std::max(want[2], uint64_t(wide));
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(run(target, "wide", data, std::vector<uint64_t>{0, uint64_t(INT64_MIN), 0}, {{n}}), want) ==
          -1);
  }
}

TEST_CASE("a single work-item's atomics in loops, on global memory and on __local arrays: board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 1000, m = 500;
  auto data = randomInts(n, -5000, 5000, 15);
  std::vector<int> bins(16, 0), local(20, 0);
  for (size_t k = 0; k < n; ++k) {
    bins[data[k] & 15] += data[k];
    if (k < m)
      local[data[k] & 15] += data[k];
  }
  const std::vector<int> first(data.begin(), data.begin() + m);
  local[16] = *std::min_element(first.begin(), first.end());
  local[17] = *std::max_element(first.begin(), first.end());
  local[18] = first.back();
  local[19] = 1;
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(run(target, "serial_histogram", data, std::vector<int>(16, 0), {{1}, {1}}), bins) == -1);
    CHECK(firstMismatch(run(target, "local_atomics", first, std::vector<int>(20, -1), {{1}, {1}}), local) == -1);
  }
}

TEST_CASE("atomic_init of __global objects: board == CPU == host", "[e2e][board][atomics]") {
  const size_t n = 256;
  auto data = randomInts(n, -100000, 100000, 19);
  std::vector<int> want(n);
  for (size_t i = 0; i < n; ++i)
    want[i] = 3 * data[i];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(run(target, "c11_init", data, std::vector<int>(n, 0), {{n}, {64}}), want) == -1);
  }
}

TEST_CASE("the OpenCL C 2.0 atomics, relaxed at work-group scope: board == CPU == host", "[e2e][board][atomics]") {
  const size_t n = 512;
  auto data = randomInts(n, -100000, 100000, 17);
  std::vector<int> start(32 + n, 0);
  start[16] = INT_MIN;
  start[17] = INT_MAX;
  start[21] = -1;
  start[23] = -1;
  std::vector<int> want(start.begin(), start.begin() + 23);
  for (int v : data) {
    ++want[v & 15];
    want[16] = std::max(want[16], v);
    want[17] = std::min(want[17], v);
    want[18] ^= v;
    want[19] += v;
    want[20] |= 1 << (v & 31);
    want[21] &= ~(1 << ((v >> 5) & 31));
    want[22] -= v;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto got = run(target, "c11_relaxed", data, start, {{n}, {64}});
    CHECK(firstMismatch(std::vector<int>(got.begin(), got.begin() + 23), want) == -1);
    // Each exchange took the value the one before it left: the old values and the last one are -1
    // and every id, once each.
    std::vector<int> chain(got.begin() + 32, got.end());
    chain.push_back(got[23]);
    CHECK(isPermutationFrom(chain, -1));
  }
}

TEST_CASE("the OpenCL C 2.0 atomics in every form on the CPU device, not the board", "[e2e][board][atomics]") {
  // In OpenCL C 3.0 the pointers are global; in 2.0 Clang declares the forms on generic pointers.
  const std::string standard = GENERATE(as<std::string>{}, "-cl-std=CL3.0", "-cl-std=CL2.0");
  INFO(standard);
  const char *source = R"(
#if __OPENCL_C_VERSION__ < 300
#define memory_scope_all_devices memory_scope_all_svm_devices // its OpenCL C 2.0 name
#endif
kernel void c11_forms(global int *counters, global long *wide, global float *sum, global int *flag) {
  int i = get_global_id(0);
  volatile global atomic_int *c = (volatile global atomic_int *)counters;
  atomic_fetch_add(&c[0], 1);                                   // seq_cst, device scope
  atomic_fetch_add_explicit(&c[1], 2, memory_order_acq_rel);    // device scope
  atomic_store(&c[2 + i], i * 3);
  atomic_fetch_add_explicit(&c[2 + i], atomic_load_explicit(&c[2 + i], memory_order_acquire), memory_order_release,
                            memory_scope_all_devices);
  volatile global atomic_long *w = (volatile global atomic_long *)wide;
  atomic_fetch_add(&w[0], (long)i << 33);
  atomic_fetch_max(&w[1], (long)i << 40);
  volatile global atomic_float *f = (volatile global atomic_float *)sum;
  float seen = atomic_load(f);
  while (!atomic_compare_exchange_strong(f, &seen, seen + 1.0f))
    ;
  if (!atomic_flag_test_and_set((volatile global atomic_flag *)flag))
    atomic_fetch_add(&c[1], 1000);                              // one work-item finds the flag clear
}
)";
  const size_t n = 256;
  Setup cl(cpuDevice());
  cl_program program = cl.build(source, standard.c_str());
  cl_kernel kernel = kernelNamed(program, "c11_forms");
  std::vector<int> counters(2 + n, 0), flag{0};
  std::vector<long> wide{0, -1};
  std::vector<float> sum{0.5f};
  cl_mem buffers[] = {buffer(cl, counters, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, wide, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, sum, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, flag, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR)};
  for (cl_uint k = 0; k < 4; ++k)
    setArg(kernel, k, buffers[k]);
  clReleaseEvent(launch(cl, kernel, {{n}, {32}}));
  counters = readBack<int>(cl, buffers[0], counters.size());
  wide = readBack<long>(cl, buffers[1], 2);
  sum = readBack<float>(cl, buffers[2], 1);
  flag = readBack<int>(cl, buffers[3], 1);
  CHECK(counters[0] == int(n));
  CHECK(counters[1] == int(2 * n + 1000));
  for (size_t i = 0; i < n; ++i)
    CHECK(counters[2 + i] == int(6 * i));
  CHECK(wide[0] == (long(n * (n - 1) / 2) << 33));
  CHECK(wide[1] == (long(n - 1) << 40));
  CHECK(sum[0] == 0.5f + float(n));
  CHECK(flag[0] != 0);
  for (cl_mem mem : buffers)
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);

  // The board has only the forms with an order and a scope: the plain ones are not declared there.
  Setup board(boardDevice());
  const char *plain = "kernel void k(global int *p) {\n  atomic_fetch_add((volatile global atomic_int *)p, 1);\n}\n";
  CHECK(board.failedBuild(plain, "-cl-std=CL3.0").find(":2:3: error:") != std::string::npos);
}
