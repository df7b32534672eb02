// SPDX-License-Identifier: Apache-2.0
// Barriers and __local memory in NDRange kernels (kernels/barriers.cl, compiled by loomc at build
// time): a __local tile reversed per group at several group sizes (also 4 SIMD work-items a cycle),
// a tree reduction with its barrier in a loop (also on 3 compute units), a 2D tile transpose,
// barriers in a uniform branch exchanging through global memory, async copies in and out of
// __local memory (in bursts of the board's memory width; of ints, longs, floats, chars, shorts and
// vectors up to 16 wide, contiguous and strided, both ways, chained on an event and waited several
// at once, after prefetches), __local pointer arguments, a bool and structs copied whole kept
// across a barrier; the board (a work-group per invocation, several in flight, each region's
// work-items streaming through loops) == the CPU device == a host reference. Also: the board's limit
// on such a kernel's group size, as a query and as a launch error, and a __local argument larger
// than the memory the board built for it.
#include "DifferentialSupport.h"

#include <cstdint>
#include <cstring>
#include <tuple>

using namespace e2e;

namespace {

const Sources Barriers{LOOM_E2E_BARRIERS_LOOM, LOOM_E2E_BARRIERS_CL};

/// Enqueues reverse_local_args over `items` in groups of `local`, its __local arguments `local`
/// ints each unless `signsBytes` says otherwise; returns the event (the caller releases it) and the
/// output in `out`.
/// Sets reverse_local_args' arguments: its tile has a work-group's ints, its signs `signsBytes`.
void setReverseLocalArgs(cl_kernel kernel, cl_mem a, cl_mem b, cl_mem out, size_t local, size_t signsBytes) {
  setArg(kernel, 0, a);
  setArg(kernel, 1, b);
  setArg(kernel, 2, out);
  setArg(kernel, 3, 3);
  REQUIRE(clSetKernelArg(kernel, 4, local * sizeof(int), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 5, signsBytes, nullptr) == CL_SUCCESS);
}

cl_event reverseLocalArgs(Setup &cl, cl_program program, const std::vector<int> &a, const std::vector<int> &b,
                          size_t local, size_t signsBytes, std::vector<int> &out) {
  cl_kernel kernel = kernelNamed(program, "reverse_local_args");
  cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem db = buffer(cl, b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dout = buffer(cl, out, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setReverseLocalArgs(kernel, da, db, dout, local, signsBytes);
  size_t global = a.size();
  cl_event event = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &event) == CL_SUCCESS);
  clWaitForEvents(1, &event);
  clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, out.size() * sizeof(int), out.data(), 0, nullptr, nullptr);
  for (cl_mem mem : {da, db, dout})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  return event;
}

cl_int statusOf(cl_event event) {
  cl_int status = CL_QUEUED;
  REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  return status;
}

} // namespace

TEST_CASE("barriers: a __local tile reversed per group, several group sizes, SIMD work-items",
          "[e2e][board][barriers]") {
  const size_t items = 768;
  auto a = randomInts(items, -1000, 1000, 1), b = randomInts(items, -50, 50, 2);
  // reverse_simd4 takes 4 work-items a cycle through its loops (num_simd_work_items(4)), groups of 64.
  for (auto [kernel, local] : {std::pair{"reverse_groups", 1u}, {"reverse_groups", 16u}, {"reverse_groups", 96u},
                               {"reverse_groups", 256u}, {"reverse_simd4", 64u}}) {
    std::vector<int> expected(items);
    for (size_t g = 0; g < items / local; ++g)
      for (size_t l = 0; l < local; ++l)
        expected[g * local + l] = a[g * local + (local - 1 - l)] * 3 + b[g];
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", kernel " << kernel << ", local size " << local);
      CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, kernel, a, b, 3, {{size_t(items)}, {size_t(local)}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("barriers: a tree reduction, barrier in a loop, value kept across, on compute units",
          "[e2e][board][barriers]") {
  const size_t items = 64 * 40; // groups enough to have several in flight, each with its __local copy
  auto a = randomInts(items, -100000, 100000, 3), b = randomInts(items, 0, 1 << 20, 4);
  std::vector<int> expected(items);
  for (size_t g = 0; g < items / 64; ++g) {
    int sum = 0;
    for (size_t l = 0; l < 64; ++l)
      sum += a[g * 64 + l] ^ b[g * 64 + l];
    for (size_t l = 0; l < 64; ++l)
      expected[g * 64 + l] = sum - (a[g * 64 + l] ^ b[g * 64 + l]);
  }
  for (const char *kernel : {"tree_sum", "tree_sum_cu3"})
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", kernel " << kernel);
      CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, kernel, a, b, 0, {{items}, {64}}), expected) == -1);
    }
}

TEST_CASE("barriers: a 2D tile transpose through __local memory", "[e2e][board][barriers]") {
  const int width = 48;
  auto a = randomInts(width * width, -1000, 1000, 5), b = randomInts(width * width, 1, 9, 6);
  std::vector<int> expected(a.size());
  for (int y = 0; y < width; ++y)
    for (int x = 0; x < width; ++x)
      expected[x * width + y] = a[y * width + x] + b[0];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "transpose_tiles", a, b, width,
                                          {{size_t(width), size_t(width)}, {8, 8}}),
                        expected) == -1);
  }
}

TEST_CASE("barriers: in a uniform branch, exchanging through global memory",
          "[e2e][board][barriers]") {
  const size_t items = 320, local = 32;
  auto a = randomInts(items, -20, 20, 7), b = randomInts(items, -3, 3, 8);
  for (int rounds : {0, 3}) {
    std::vector<int> value(a.begin(), a.end());
    for (int r = 0; r < rounds; ++r) {
      std::vector<int> next(value);
      for (size_t i = 0; i < items; ++i) {
        size_t base = i - i % local;
        next[i] = value[i] + value[base + (i % local + 1) % local] * b[r];
      }
      value = next;
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", rounds " << rounds);
      CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "neighbours", a, b, rounds, {{items}, {local}}),
                          value) == -1);
    }
  }
}

TEST_CASE("barriers: a bool kept across a barrier, and structs copied whole into __local memory",
          "[e2e][board][barriers]") {
  const size_t items = 32 * 12;
  auto a = randomInts(items, -500, 500, 31), b = randomInts(4 * items, -30000, 30000, 32);
  const int threshold = 40;
  std::vector<int> expected(items);
  for (size_t i = 0; i < items; ++i) {
    const size_t other = 4 * (i - i % 32 + 31 - i % 32);
    expected[i] = b[other] + int(uint32_t(b[other + 1]) >> 3) - b[other + 2] * b[other + 3] +
                  (a[i] > threshold ? 1000 : -1);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "flags_and_structs", a, b, threshold, {{items}, {32}}),
                        expected) == -1);
  }
}

TEST_CASE("barriers: async copies in and out of __local memory", "[e2e][board][barriers]") {
  const size_t items = 64 * 10;
  auto a = randomInts(items, -1000, 1000, 9), b = randomInts(items, -50, 50, 10);
  std::vector<int> expected(items);
  for (size_t g = 0; g < items / 64; ++g)
    for (size_t l = 0; l < 64; ++l)
      expected[g * 64 + l] = a[g * 64 + 63 - l] * 5 + b[g * 64 + l];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "async_reverse", a, b, 5, {{items}, {64}}), expected) ==
          -1);
  }
}

TEST_CASE("barriers: async copies in bursts", "[e2e][board][barriers]") {
  // n elements a group: bursts of one work-item each and a tail; several bursts a work-item; one
  // work-item copying everything.
  for (auto [n, local, groups] : {std::tuple{1000, 64u, 3u}, {200, 4u, 5u}, {37, 1u, 4u}}) {
    const size_t items = size_t(n) * groups;
    auto a = randomInts(items, -100000, 100000, 11);
    std::vector<int64_t> b(items);
    const std::vector<int> high = randomInts(items, -1000000, 1000000, 12);
    for (size_t k = 0; k < items; ++k)
      b[k] = int64_t(high[k]) * 40503 + int64_t(k);
    std::vector<int> expected(items);
    auto *bytes = reinterpret_cast<const uint8_t *>(b.data());
    for (size_t g = 0; g < groups; ++g)
      for (int i = 0; i < n; ++i)
        expected[g * n + i] = a[g * n + n - 1 - i] + int(b[g * n + i] >> 3) + bytes[g * n * sizeof(int64_t) + i];
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", n " << n << ", local size " << local);
      CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "async_bursts", a, b, n, {{groups * local}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("barriers: async copies in bursts, 4 work-items a cycle", "[e2e][board][barriers]") {
  const int n = 1000;
  const size_t groups = 3, items = size_t(n) * groups;
  auto a = randomInts(items, -100000, 100000, 31), b = randomInts(items, -1000, 1000, 32);
  std::vector<int> expected(items);
  for (size_t g = 0; g < groups; ++g)
    for (int i = 0; i < n; ++i)
      expected[g * n + i] = a[g * n + n - 1 - i] * 3 + b[g * n + i];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "async_simd4", a, b, n, {{groups * 64}, {64}}),
                        expected) == -1);
  }
}

TEST_CASE("barriers: async copies of vectors, 3-component ones and strided", "[e2e][board][barriers]") {
  // n vectors a group: whole 64-byte bursts and a tail for some work-items, one work-item for all.
  for (auto [n, local, groups] : {std::tuple{64, 16u, 3u}, {45, 8u, 2u}, {7, 1u, 2u}}) {
    const size_t items = 1024 * groups;
    auto a = randomInts(items, -1000000000, 1000000000, 13), b = randomInts(items, -100000, 100000, 14);
    std::vector<int> expected(items, -1); // what the kernel leaves unwritten (runTwoInputs' 0xff bytes)
    for (size_t g = 0; g < groups; ++g) {
      const int *in = &a[g * 1024], *column = &b[g * 1024];
      int *mine = &expected[g * 1024];
      auto *triples = reinterpret_cast<const int8_t *>(in + 256); // char3 takes 4 bytes, as char4
      auto *pairs = reinterpret_cast<const uint8_t *>(in + 320);
      auto *octets = reinterpret_cast<const int16_t *>(in + 352);
      for (int i = 0; i < n; ++i) {
        const int8_t *t = triples + 4 * i;
        const uint8_t *p = pairs + 2 * i;
        const int16_t *o = octets + 8 * i;
        const int *q = in + 4 * i, *c = column + 6 * i;
        mine[i] = q[0] - q[3] + t[0] + 2 * t[1] + 3 * t[2] + 5 * p[0] + 7 * p[1] + o[0] - o[3] +
                  o[7] + c[0] - c[1];
        for (int k = 0; k < 4; ++k)
          mine[64 + 4 * i + k] = q[3 - k];
        mine[320 + 4 * i] = c[1];
        mine[320 + 4 * i + 1] = c[0];
      }
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", n " << n << ", local size " << local);
      CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "async_vectors", a, b, n, {{groups * local}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("barriers: async copies of floats and 16-wide vectors, both ways, waited together",
          "[e2e][board][barriers]") {
  // n vectors and m floats a group: whole bursts of floats; a burst and a tail, 5 work-items; a
  // tail only, one work-item for all.
  for (auto [n, m, local, groups] : {std::tuple{2, 32, 16u, 3u}, {1, 27, 5u, 2u}, {2, 7, 1u, 2u}}) {
    const size_t items = 1024 * groups;
    const auto eighths = randomInts(items, -8000, 8000, 15), b = randomInts(items, -1000000, 1000000, 16);
    std::vector<float> a(items);
    for (size_t i = 0; i < items; ++i)
      a[i] = float(eighths[i]) / 8.0f; // sums exact
    auto bits = [](float f) {
      int i;
      std::memcpy(&i, &f, sizeof i);
      return i;
    };
    std::vector<int> expected(items, -1); // what the kernel leaves unwritten (runTwoInputs' 0xff bytes)
    for (size_t g = 0; g < groups; ++g) {
      const float *in = &a[g * 1024];
      const int *ints = &b[g * 1024];
      int *mine = &expected[g * 1024];
      auto column = [&](int j) { return in[256 + 5 * j]; };
      for (int j = 0; j < m; ++j) {
        mine[j] = bits(in[640 + j] + column(j));
        mine[256 + 3 * j] = bits(column(j));
      }
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < 16; ++k) {
          mine[64 + 32 * i + k] = bits(k == 3 ? in[16 * i + k] + column(i) : in[16 * i + k]);
          mine[192 + 16 * i + k] = k == 10 ? ints[48 * i + k] - ints[48 * i + 5] : ints[48 * i + k];
        }
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", n " << n << ", m " << m << ", local size " << local);
      CHECK(firstMismatch(runTwoInputs<int>(Barriers, target, "async_wide", a, b, m << 2 | n,
                                            {{groups * local}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("barriers: async copies of chars and shorts, both ways, chained, waited together, prefetched",
          "[e2e][board][barriers]") {
  // n elements a group: whole bursts of 16 chars; a burst and a tail, 3 work-items; a tail only,
  // one work-item for all.
  for (auto [n, local, groups] : {std::tuple{32, 8u, 3u}, {21, 3u, 2u}, {5, 1u, 2u}}) {
    const size_t items = 1024 * groups;
    const auto chars = randomInts(items, -128, 127, 17), shorts = randomInts(items, -32768, 32767, 18);
    const std::vector<int8_t> a(chars.begin(), chars.end());
    const std::vector<int16_t> b(shorts.begin(), shorts.end());
    std::vector<int16_t> expected(items, -1);
    for (size_t g = 0; g < groups; ++g) {
      const int8_t *in = &a[g * 1024], *picked = in + 512; // picked: every other char
      const int16_t *column = &b[g * 1024];                // every third short
      int16_t *mine = &expected[g * 1024];
      auto *mineBytes = reinterpret_cast<int8_t *>(mine);
      for (int i = 0; i < n; ++i) {
        mine[i] = int16_t(in[i] * column[3 * i] + picked[2 * (n - 1 - i)]);
        mineBytes[256 + 3 * i] = int8_t(in[i] ^ picked[2 * i]);
        mineBytes[512 + i] = picked[2 * i];
        mine[512 + 2 * i] = int16_t(column[3 * i] >> 2);
      }
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", n " << n << ", local size " << local);
      CHECK(firstMismatch(runTwoInputs<int16_t>(Barriers, target, "async_narrow", a, b, n,
                                                {{groups * local}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("barriers: __local pointer arguments", "[e2e][board][barriers]") {
  const size_t items = 768;
  auto a = randomInts(items, -1000, 1000, 11), b = randomInts(items, -50, 50, 12);
  for (size_t local : {16u, 96u, 256u}) {
    std::vector<int> expected(items);
    for (size_t g = 0; g < items / local; ++g)
      for (size_t l = 0; l < local; ++l)
        expected[g * local + l] =
            a[g * local + (local - 1 - l)] * 3 + b[g] * (a[g * local + (l + 1) % local] < 0 ? -1 : 1);
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", local size " << local);
      Setup cl(target.device());
      cl_program program = programFor(cl, target, Barriers);
      std::vector<int> out(items, 0);
      cl_event event = reverseLocalArgs(cl, program, a, b, local, local * sizeof(int), out);
      CHECK(statusOf(event) == CL_COMPLETE);
      CHECK(firstMismatch(out, expected) == -1);
      clReleaseEvent(event);
      clReleaseProgram(program);
    }
  }
}

TEST_CASE("barriers: a __local argument larger than its memory", "[e2e][board][barriers][errors]") {
  Setup cl(boardDevice());
  cl_program program = cl.load(readFile(Barriers.binary));
  cl_kernel kernel = kernelNamed(program, "reverse_local_args");
  std::vector<int> a(256, 1), out(256, 0);
  cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dout = buffer(cl, out, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  size_t global = a.size(), local = 64;
  // signs was built with local_mem_size(2048): 2049 bytes do not fit; the tile's 16 KiB would. The
  // call fails, as the spec names it, and no command is queued to fail what comes after it.
  setReverseLocalArgs(kernel, da, da, dout, local, 2049);
  cl_event event = nullptr;
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &event) ==
        CL_OUT_OF_RESOURCES);
  CHECK(event == nullptr);
  INFO(cl.diagnosis());
  CHECK_THAT(cl.diagnosis(), Catch::Contains("clEnqueueNDRangeKernel: kernel 'reverse_local_args' argument 5: 2049 "
                                             "bytes of __local memory asked, but its on-chip memory holds 2048"));
  // The queue goes on: the same launch with 2048 bytes runs.
  REQUIRE(clSetKernelArg(kernel, 5, 2048, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &event) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &event) == CL_SUCCESS);
  CHECK(statusOf(event) == CL_COMPLETE);
  CHECK(clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, out.size() * sizeof(int), out.data(), 0, nullptr, nullptr) ==
        CL_SUCCESS);
  clReleaseEvent(event);
  for (cl_mem mem : {da, dout})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("barriers: the board bounds such a kernel's work-group size",
          "[e2e][board][barriers]") {
  Setup cl(boardDevice());
  cl_program program = cl.load(readFile(Barriers.binary));
  cl_kernel reverse = kernelNamed(program, "reverse_groups");
  size_t limit = 0;
  REQUIRE(clGetKernelWorkGroupInfo(reverse, cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit, nullptr) ==
          CL_SUCCESS);
  CHECK(limit == 256);
  std::vector<int> data(1024, 1);
  cl_mem in = buffer(cl, data, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(reverse, 0, in);
  setArg(reverse, 1, in);
  setArg(reverse, 2, in);
  setArg(reverse, 3, 1);
  size_t global = 1024, local = 512;
  CHECK(clEnqueueNDRangeKernel(cl.queue, reverse, 1, nullptr, &global, &local, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  clReleaseMemObject(in);
  clReleaseKernel(reverse);
  clReleaseProgram(program);
}

TEST_CASE("barriers: CL_KERNEL_LOCAL_MEM_SIZE counts __local variables and arguments", "[e2e][board][barriers]") {
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Setup cl(target.device());
    cl_program program = programFor(cl, target, Barriers);
    auto localBytes = [&](cl_kernel kernel) {
      cl_ulong bytes = ~cl_ulong(0);
      REQUIRE(clGetKernelWorkGroupInfo(kernel, cl.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof bytes, &bytes, nullptr) ==
              CL_SUCCESS);
      return bytes;
    };
    cl_kernel tree = kernelNamed(program, "tree_sum"), reverse = kernelNamed(program, "reverse_local_args");
    CHECK(localBytes(tree) == 64 * sizeof(int)); // int partial[64], passed to a helper
    CHECK(localBytes(reverse) == 0);
    REQUIRE(clSetKernelArg(reverse, 4, 96 * sizeof(int), nullptr) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(reverse, 5, 40, nullptr) == CL_SUCCESS);
    CHECK(localBytes(reverse) == 96 * sizeof(int) + 40);
    clReleaseKernel(tree);
    clReleaseKernel(reverse);
    clReleaseProgram(program);
  }
}

TEST_CASE("barriers: printf after a barrier", "[e2e][board][barriers][printf]") {
  std::vector<std::string> want;
  for (int item = 0; item < 128; ++item) {
    const int group = item / 32, local = item % 32;
    want.push_back("group " + std::to_string(group) + " item " + std::to_string(local) + " sees " +
                   std::to_string(group * 32 + 31 - local));
  }
  std::sort(want.begin(), want.end());
  for (const Target &target : Targets) {
    INFO(target.name);
    Setup cl(target.device());
    cl_program program = programFor(cl, target, Barriers);
    std::vector<int> results;
    CHECK(sortedLines(printedBy(cl, program, "print_after_barrier", {{128}, {32}}, results)) == want);
    CHECK(std::count(results.begin(), results.end(), 0) == 128);
    clReleaseProgram(program);
  }
}
