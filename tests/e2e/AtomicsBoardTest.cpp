// SPDX-License-Identifier: Apache-2.0
// Atomics on the board: a contended histogram, min/max/and/or/xor/sub/dec reductions, tickets and
// exchanges whose results must be permutations, compare-and-swap retry loops, every 64-bit atom_* on
// long and ulong, atomic_sub and the 32-bit atom_* spellings on int and uint, a single work-item's
// atomics in a loop, work-groups contending on __local counters (1.x and 2.0 forms) and the 2.0
// atomics on __global memory (kernels/atomics.cl, compiled by loomc at build time), on the board and
// the CPU device, against a host reference.
#include "DifferentialSupport.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <limits>
#include <numeric>
#include <type_traits>

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

/// `count` values `first`, `first` + `step`, ..., wrapping as the device's integers do.
template <typename T> std::vector<T> progression(T first, T step, size_t count) {
  using U = std::make_unsigned_t<T>;
  std::vector<T> values(count);
  for (size_t k = 0; k < count; ++k)
    values[k] = T(U(first) + U(k) * U(step));
  return values;
}

/// Whether `values` are `want` in some order.
template <typename T> bool isPermutationOf(std::vector<T> values, std::vector<T> want) {
  std::sort(values.begin(), values.end());
  std::sort(want.begin(), want.end());
  return values == want;
}

/// Whether `values` are `first`, `first` + 1, ... in some order.
bool isPermutationFrom(const std::vector<int> &values, int first) {
  return isPermutationOf(values, progression(first, 1, values.size()));
}

/// Elements `offset`, `offset` + `stride`, ... of `values`, `count` of them: one old value of each
/// work-item, where the kernel stores several per work-item.
template <typename T> std::vector<T> column(const std::vector<T> &values, size_t offset, size_t stride, size_t count) {
  std::vector<T> picked(count);
  for (size_t k = 0; k < count; ++k)
    picked[k] = values.at(offset + k * stride);
  return picked;
}

/// Whether an exchange chain is whole: each atomic_xchg took what the one before it left, so the
/// values taken and the one left in the slot are the slot's first value and every value put in.
template <typename T> bool exchangesChain(std::vector<T> taken, T left, T first, std::vector<T> put) {
  taken.push_back(left);
  put.push_back(first);
  return isPermutationOf(taken, put);
}

/// The host's part of work-item `item`, value `v`, in words[0..6]: signed min, signed max, unsigned
/// min, unsigned max, and, or and xor, as the reductions and local_contention kernels do them.
void reduceInto(uint32_t *words, int v, size_t item) {
  const uint32_t u = uint32_t(v);
  words[0] = uint32_t(std::min(int(words[0]), v));
  words[1] = uint32_t(std::max(int(words[1]), v));
  words[2] = std::min(words[2], u);
  words[3] = std::max(words[3], u);
  words[4] &= ~(1u << (item & 31)) | u;
  words[5] |= 1u << (v & 31);
  words[6] ^= u;
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
    reduceInto(&want[0], v, i);
    want[7] -= uint32_t(v);
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

TEST_CASE("64-bit atom_add, sub, min, max (long and ulong), and, or, xor and a cmpxchg loop on 64-bit values: "
          "board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 1024;
  auto data = randomInts(n, -2000000000, 2000000000, 14);
  const std::vector<uint64_t> start{0, 5, uint64_t(INT64_MAX), uint64_t(INT64_MIN), UINT64_MAX, 0, UINT64_MAX, 0,
                                    0x5a5a5a5a5a5a5a5aULL, 0};
  std::vector<uint64_t> want = start;
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = int64_t(data[i]) * 4000000007LL;
    const uint64_t u = uint64_t(v);
    want[0] += u;
    want[1] -= u;
    want[2] = uint64_t(std::min(int64_t(want[2]), v));
    want[3] = uint64_t(std::max(int64_t(want[3]), v));
    want[4] = std::min(want[4], u);
    want[5] = std::max(want[5], u);
    want[6] &= ~(1ULL << (i & 63)) | u;
    want[7] |= 1ULL << (data[i] & 63);
    want[8] ^= u;
    want[9] += u;
  }
  // The values must reach both halves and both signs, or the 64-bit paths are not exercised.
  REQUIRE(int64_t(want[2]) < INT32_MIN);
  REQUIRE(want[5] > (1ULL << 63));
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(run(target, "wide", data, start, {{n}}), want) == -1);
  }
}

TEST_CASE("64-bit atom_inc, atom_dec, atom_add, atom_xchg and a cmpxchg loop: the old values form the expected "
          "sets across bit 31, bit 63 and zero: board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 2048;
  const std::vector<int> data(n, 0);
  const uint64_t inc = (1ULL << 63) - 1000, dec = 1000, add = 0x7fffffff, step = 0x180000001ULL;
  const uint64_t cas = uint64_t(-1000LL * (1LL << 32) + 7), slot = 5;
  std::vector<uint64_t> start(8 + 5 * n, 0);
  std::copy_n(std::vector<uint64_t>{inc, dec, add, cas, slot}.begin(), 5, start.begin());
  std::vector<uint64_t> put(n);
  for (size_t i = 0; i < n; ++i)
    put[i] = uint64_t(-int64_t(i + 1) * 0x200000001LL);
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto out = run(target, "wide_tickets", data, start, {{n}});
    CHECK(out[0] == inc + n);
    CHECK(int64_t(out[1]) == int64_t(dec) - int64_t(n));
    CHECK(out[2] == add + n * step);
    CHECK(out[3] == cas + (uint64_t(n) << 32));
    CHECK(isPermutationOf(column(out, 8, 5, n), progression<uint64_t>(inc, 1, n)));
    CHECK(isPermutationOf(column(out, 9, 5, n), progression<uint64_t>(dec, uint64_t(-1), n)));
    CHECK(isPermutationOf(column(out, 10, 5, n), progression<uint64_t>(add, step, n)));
    CHECK(isPermutationOf(column(out, 11, 5, n), progression<uint64_t>(cas, 1ULL << 32, n)));
    CHECK(exchangesChain(column(out, 12, 5, n), out[4], slot, put));
  }
}

/// Runs aliases_int or aliases_uint (the 32-bit spellings on T) and checks the results against the host.
template <typename T> void checkAliases(const char *kernel) {
  const size_t n = 1024;
  auto data = randomInts(n, -2000000000, 2000000000, 20);
  std::vector<T> start(16 + 2 * n, 0);
  const T first[] = {7, 0, std::numeric_limits<T>::max(), std::numeric_limits<T>::min(), T(-1), 0, T(0x5a5a5a5a),
                     3, 0, T(0x7fffff00), T(-1)};
  std::copy(std::begin(first), std::end(first), start.begin());
  // The host does the wrapping arithmetic in uint32_t; min and max compare as T.
  std::vector<T> want(start.begin(), start.begin() + 9);
  for (size_t i = 0; i < n; ++i) {
    const T v = T(data[i]);
    const uint32_t u = uint32_t(data[i]);
    want[0] = T(uint32_t(want[0]) - u);
    want[1] = T(uint32_t(want[1]) + u);
    want[2] = std::min(want[2], v);
    want[3] = std::max(want[3], v);
    want[4] = T(uint32_t(want[4]) & (~(1u << (i & 31)) | u));
    want[5] = T(uint32_t(want[5]) | (1u << (data[i] & 31)));
    want[6] = T(uint32_t(want[6]) ^ u);
    want[7] = T(uint32_t(want[7]) - 1);
    want[8] = T(uint32_t(want[8]) + u);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name << ", kernel: " << kernel);
    auto out = run(target, kernel, data, start, {{n}});
    CHECK(firstMismatch(std::vector<T>(out.begin(), out.begin() + 9), want) == -1);
    // The tickets run across 2^31, where an int wraps to INT_MIN.
    CHECK(out[9] == T(uint32_t(first[9]) + n));
    CHECK(isPermutationOf(column(out, 16, 2, n), progression<T>(first[9], 1, n)));
    CHECK(exchangesChain(column(out, 17, 2, n), out[10], first[10], progression<T>(0, 1, n)));
  }
}

TEST_CASE("atomic_sub and the 32-bit atom_* spellings (add, sub, inc, dec, xchg, cmpxchg, min, max, and, or, xor) "
          "on int and uint: board == CPU == host",
          "[e2e][board][atomics]") {
  checkAliases<int>("aliases_int");
  checkAliases<uint32_t>("aliases_uint");
}

TEST_CASE("work-groups of 128 contending on __local counters with every 1.x atomic, several groups: "
          "board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 1024, size = 128, groups = n / size;
  auto data = randomInts(n, -2000000000, 2000000000, 21);
  const std::vector<int> first{0, 0, INT_MAX, INT_MIN, -1, 0, -1, 0, 0x5a5a5a5a, 7, 0, 0, -1};
  std::vector<std::vector<int>> want; // each group's counters but the slot [12], checked as a chain
  for (size_t g = 0; g < groups; ++g) {
    std::vector<uint32_t> c(first.begin(), first.end());
    for (size_t lid = 0; lid < size; ++lid) {
      const int v = data[g * size + lid];
      const uint32_t u = uint32_t(v);
      c[0] += u;
      c[1] += 1;
      reduceInto(&c[2], v, lid);
      c[9] -= u;
      c[10] -= 1;
      c[11] += u;
    }
    want.emplace_back(c.begin(), c.end() - 1);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto out = run(target, "local_contention", data, std::vector<int>(16 * groups + 2 * n, -1), {{n}, {size}});
    for (size_t g = 0; g < groups; ++g) {
      INFO("group " << g);
      const auto at = out.begin() + 16 * g, mine = out.begin() + 16 * groups + 2 * size * g;
      CHECK(firstMismatch(std::vector<int>(at, at + 12), want[g]) == -1);
      const std::vector<int> olds(mine, mine + 2 * size);
      CHECK(isPermutationFrom(column(olds, 0, 2, size), 0));
      CHECK(exchangesChain(column(olds, 1, 2, size), at[12], -1, progression(0, 1, size)));
    }
  }
}

TEST_CASE("atomic_fetch_add_explicit on __local atomic_ints, relaxed at work-group scope, contended by groups of 64: "
          "board == CPU == host",
          "[e2e][board][atomics]") {
  const size_t n = 512, size = 64, groups = n / size;
  auto data = randomInts(n, -1000000, 1000000, 22);
  std::vector<int> want(2 * groups);
  for (size_t g = 0; g < groups; ++g) {
    want[2 * g] = std::accumulate(data.begin() + g * size, data.begin() + (g + 1) * size, 0);
    want[2 * g + 1] = int(size);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto out = run(target, "local_c11", data, std::vector<int>(2 * groups + n, -1), {{n}, {size}});
    CHECK(firstMismatch(std::vector<int>(out.begin(), out.begin() + 2 * groups), want) == -1);
    for (size_t g = 0; g < groups; ++g) {
      INFO("group " << g);
      const auto tickets = out.begin() + 2 * groups + size * g;
      CHECK(isPermutationFrom(std::vector<int>(tickets, tickets + size), 0));
    }
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
