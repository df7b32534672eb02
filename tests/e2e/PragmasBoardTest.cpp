// SPDX-License-Identifier: Apache-2.0
// FPGA vendors' attributes and pragmas (kernels/pragmas.cl, compiled by loomc at build time) on the
// board and the CPU device: results equal to a host reference, the launch limits the attributes set
// enforced through the cl* API, the ignored ones named in the build log.
#include "DifferentialSupport.h"

#include <numeric>

using namespace e2e;

namespace {

const Sources Pragmas{LOOM_E2E_PRAGMAS_LOOM, LOOM_E2E_PRAGMAS_CL};

} // namespace

TEST_CASE("ivdep, ivdep array, ii, unroll, unrolled-stream and reassociated-sum kernels: board == CPU == host", "[e2e][board][pragmas]") {
  const int n = 600;
  auto a = randomInts(n, -1000, 1000, 11);
  std::vector<int> permutation(n);
  std::iota(permutation.begin(), permutation.end(), 0);
  std::shuffle(permutation.begin(), permutation.end(), std::mt19937(12));
  auto b = randomInts(n, -20, 20, 13);

  std::vector<int> scattered(n, -1), counted(n, -1), prefix(n), dot(n);
  for (int k = 0; k < n; ++k)
    scattered[permutation[k]] += a[k];
  int seen[16] = {};
  for (int k = 0; k < n; ++k)
    counted[permutation[k]] += a[k] * ++seen[a[k] & 15];
  int sum = 0;
  for (int k = 0; k < n; ++k)
    prefix[k] = sum += a[k] ^ permutation[k];
  for (int i = 0; i < n; ++i) {
    int d = 0;
    for (int k = 0; k < n; ++k)
      d += a[(i + k) % n] * b[k];
    int taps = 0;
    for (int k = 0; k < 8; ++k)
      taps += (a[i] >> k) & 1;
    dot[i] = d + taps;
  }
  std::vector<int> stream(n);
  stream[0] = a[0];
  for (int k = 1; k < n; ++k)
    stream[k] = a[k] * 3 - b[k - 1];
  std::vector<int> reassociated(n, -1);
  reassociated[0] = 0;
  for (int k = 0; k < n; ++k)
    reassociated[0] += a[k] - b[k];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "ivdep_scatter", a, permutation, n, {{1}}), scattered) ==
          -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "ivdep_array_scatter", a, permutation, n, {{1}}),
                        counted) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "reassociated_sum", a, b, n, {{1}}), reassociated) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "ii_prefix", a, permutation, n, {{1}}), prefix) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "unrolled_dot", a, b, n, {{size_t(n)}}), dot) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "unrolled_stream", a, b, n, {{1}}), stream) == -1);
  }
}

TEST_CASE("num_simd_work_items kernels: diverging lanes, lanes with loops, lanes' atomics; board == CPU == host",
          "[e2e][board][pragmas]") {
  // simd_lanes: a 2D range of 128 x 3 work-items from offset (5, 1), in work-groups of 64 x 1.
  const size_t width = 128, height = 3, count = width * height;
  auto a = randomInts(count, -1000, 1000, 41), b = randomInts(count, -30, 30, 42);
  std::vector<int> lanes(count);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      const size_t i = y * width + x;
      int v = a[i] * 3 + int(x % 64) - 5 * int(x / 64);
      lanes[i] = b[i] > 0 ? v - b[i] * b[i] : v;
    }
  // simd_loops: each lane sums 1 to 8 neighbours.
  const int n = 96;
  auto c = randomInts(n, -1000, 1000, 43), d = randomInts(n, 0, 1000, 44);
  std::vector<int> loops(n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k <= (d[i] & 7); ++k)
      loops[i] += c[(i + k) % n];
  // simd_histogram: 16 lanes add to 16 counters (which start at -1: runTwoInputs fills the output).
  std::vector<int> histogram(n, -1);
  for (int i = 0; i < n; ++i)
    histogram[c[i] & 15] += d[i];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "simd_lanes", a, b, 0,
                                          {{width, height}, {}, {5, 1}}),
                        lanes) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "simd_loops", c, d, n, {{size_t(n)}}), loops) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "simd_histogram", c, d, n, {{size_t(n)}}), histogram) ==
          -1);
  }
}

TEST_CASE("num_compute_units kernels: units' parts of 2D and 1D ranges, idle units, units' atomics; board == CPU "
          "== host",
          "[e2e][board][pragmas]") {
  auto cuGroups = [](const std::vector<int> &a, const std::vector<int> &b, size_t width, size_t height,
                     size_t localWidth, size_t localHeight) {
    const size_t count = width * height;
    std::vector<int> out(count);
    for (size_t y = 0; y < height; ++y)
      for (size_t x = 0; x < width; ++x) {
        const size_t i = y * width + x;
        int acc = 0;
        for (int k = 0; k <= (b[i] & 7); ++k)
          acc += a[(i + size_t((k + b[i]) & 3)) % count] * (k + 1);
        out[i] = acc + 1000 * int(y / localHeight) + int(x % localWidth);
      }
    return out;
  };
  // 40 x 24 from offset (3, 2) in groups of 8 x 4: 5 x 6 groups, each unit 2 rows of groups.
  auto a = randomInts(40 * 24, -1000, 1000, 51), b = randomInts(40 * 24, -30, 30, 52);
  const auto rows = cuGroups(a, b, 40, 24, 8, 4);
  // 40 x 4 in groups of 8 x 4: 5 x 1 groups, split 2, 2, 1 along dimension 0.
  std::vector<int> a2(a.begin(), a.begin() + 160), b2(b.begin(), b.begin() + 160);
  const auto columns = cuGroups(a2, b2, 40, 4, 8, 4);
  // cu_histogram: 96 work-items in groups of 8 (3 per unit), then 16 (two units idle).
  auto c = randomInts(96, -1000, 1000, 53), d = randomInts(96, 0, 1000, 54);
  std::vector<int> histogram(96, -1), small(16, -1);
  for (int i = 0; i < 96; ++i)
    histogram[c[i] & 15] += d[i];
  for (int i = 0; i < 16; ++i)
    small[c[i] & 15] += d[i];
  std::vector<int> c16(c.begin(), c.begin() + 16), d16(d.begin(), d.begin() + 16);
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "cu_groups", a, b, int(a.size()), {{40, 24}, {8, 4}, {3, 2}}),
                        rows) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "cu_groups", a2, b2, int(a2.size()), {{40, 4}, {8, 4}}),
                        columns) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "cu_histogram", c, d, 96, {{96}, {8}}), histogram) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "cu_histogram", c16, d16, 16, {{16}, {8}}), small) == -1);
  }
}

TEST_CASE("max_interleaving kernels: one outer iteration, two work-items in the inner loop; board == CPU == host",
          "[e2e][board][pragmas]") {
  const int n = 200;
  auto a = randomInts(n, -1000, 1000, 61), b = randomInts(n, 0, 1000, 62);
  std::vector<int> expected(n);
  for (int j = 0; j < n; ++j) {
    unsigned s = 1; // wraps as the kernel's int does
    for (int k = 0; k <= (b[j] & 15); ++k)
      s = s * 3 + unsigned(a[j + k < n ? j + k : j + k - n]);
    expected[j] = int(s);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "interleave_once", a, b, n, {{1}}), expected) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "interleave_two", a, b, n, {{size_t(n)}}), expected) == -1);
  }
}

TEST_CASE("max_work_group_size bounds the work-groups the runtime picks and accepts", "[e2e][board][pragmas]") {
  const int n = 64;
  auto a = randomInts(n, -100, 100, 21), b = randomInts(n, -10, 10, 22);
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c)
        acc += a[(i + r * 4 + c) % n] * (b[i] + r - c);
    want[i] = acc + 16;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Pragmas, target, "bounded_groups", a, b, n, {{size_t(n)}}), want) == -1);

    Setup cl(target.device());
    cl_program program = programFor(cl, target, Pragmas);
    cl_kernel kernel = kernelNamed(program, "bounded_groups");
    size_t groupSize = 0;
    REQUIRE(clGetKernelWorkGroupInfo(kernel, cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupSize, &groupSize,
                                     nullptr) == CL_SUCCESS);
    CHECK(groupSize == 16);
    char attributes[256] = {};
    REQUIRE(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, sizeof attributes, attributes, nullptr) == CL_SUCCESS);
    CHECK(std::string(attributes) == "max_work_group_size(16,1,1)");
    cl_mem mem = buffer(cl, a, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
    for (cl_uint i = 0; i < 3; ++i)
      setArg(kernel, i, mem);
    setArg(kernel, 3, n);
    const size_t global = n, local = 32;
    CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr) ==
          CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
}

TEST_CASE("a max_global_work_dim(0) kernel runs as a task and refuses an NDRange", "[e2e][board][pragmas]") {
  const int n = 50;
  auto a = randomInts(n, -100, 100, 31), b = randomInts(n, 0, 100, 32);
  std::vector<int> want(n);
  int sum = 0;
  for (int k = 0; k < n; ++k)
    want[k] = sum += a[k] ^ b[k];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Setup cl(target.device());
    cl_program program = programFor(cl, target, Pragmas);
    cl_kernel kernel = kernelNamed(program, "ii_prefix");
    cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    cl_mem db = buffer(cl, b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    cl_mem dout = buffer(cl, std::vector<int>(n), CL_MEM_READ_WRITE);
    setArg(kernel, 0, da);
    setArg(kernel, 1, db);
    setArg(kernel, 2, dout);
    setArg(kernel, 3, n);
    const size_t global = 4;
    CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_GLOBAL_WORK_SIZE);
    REQUIRE(clEnqueueTask(cl.queue, kernel, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(firstMismatch(readBack<int>(cl, dout, n), want) == -1);
    for (cl_mem mem : {da, db, dout})
      clReleaseMemObject(mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
}

TEST_CASE("the build log names each ignored attribute and pragma with its reason", "[e2e][pragmas]") {
  // The board's build runs the same frontend (and takes a minute more to make the hardware).
  CpuSetup cl;
  cl_program program = cl.build(readFile(Pragmas.source));
  const std::string log = buildLog(program, cl.device);
  INFO(log);
  CHECK(log.find(":17:56: warning: 'num_compute_units' ignored on a single work-item kernel") != std::string::npos);
  CHECK(log.find(":48:11: warning: '#pragma loop_coalesce' ignored:") != std::string::npos);
  CHECK(log.find("unknown attribute") == std::string::npos);
  clReleaseProgram(program);
}
