// SPDX-License-Identifier: Apache-2.0
// On-chip memories on the board: private arrays indexed at run time (each work-item's copy, the
// work-items taking turns), a __local histogram, a conditionally written private window, a shift
// register, constant tables as ROMs (kernels/onchip.cl, compiled by loomc at build time), compared
// bit for bit with the CPU device and a host reference.
#include "DifferentialSupport.h"

#include <algorithm>
#include <array>
#include <cstring>

using namespace e2e;

namespace {

const Sources OnChip{LOOM_E2E_ONCHIP_LOOM, LOOM_E2E_ONCHIP_CL};

} // namespace

TEST_CASE("private arrays indexed at run time (zero-initialised too), per work-item: board == CPU == host",
          "[e2e][board][onchip]") {
  const size_t items = 150; // more than the 64 slots: each is given back and taken again
  const int m = 16, sortM = 12;
  auto a = randomInts(items * m, -5000, 5000, 1), b = randomInts(items * m, -100, 100, 2);
  std::vector<int> reversed(a.size()), sorted(items * sortM);
  for (size_t i = 0; i < items; ++i)
    for (int k = 0; k < m; ++k)
      reversed[i * m + k] = a[i * m + (m - 1 - k)] * 3 + b[k];
  auto sa = std::vector<int>(a.begin(), a.begin() + items * sortM);
  for (size_t i = 0; i < items; ++i) {
    std::vector<int> v;
    for (int k = 0; k < sortM; ++k)
      v.push_back(sa[i * sortM + k] ^ b[k]);
    std::sort(v.begin(), v.end());
    std::copy(v.begin(), v.end(), sorted.begin() + i * sortM);
  }
  std::vector<int> counts(a.size(), -1);
  for (size_t i = 0; i < items; ++i) {
    std::fill(counts.begin() + i * 8, counts.begin() + i * 8 + 8, 0);
    for (int k = 0; k < m; ++k)
      counts[i * 8 + (a[i * m + k] & 7)] += b[k];
  }
  std::vector<int> picked(a.size(), -1);
  for (size_t i = 0; i < items; ++i) {
    auto byte = [&](int k) { return int(uint8_t(a[i] + k * 3)); };
    picked[i] = byte((b[i] & 0xff) % 80) + byte(((b[i] & 0xff) + 7) % 80);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "private_reverse", a, b, m, {{items}}), reversed) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "private_counts", a, b, m, {{items}}), counts) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "private_sort", sa, b, sortM, {{items}}), sorted) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "copies_reverse", a, b, m, {{items}}), reversed) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "many_write_ports", a, b, m, {{items}}), picked) == -1);
  }
}

TEST_CASE("the addresses of __local arrays, stored as integers, are aligned to their types", "[e2e][board][onchip]") {
  const std::vector<int> unused(8, 0);
  const std::array<uint64_t, 6> alignments = {4, 8, 16, 16, 32, 64};
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto out = runTwoInputs<cl_ulong>(OnChip, target, "local_addresses", unused, unused, 0, {{1}});
    for (size_t k = 0; k < alignments.size(); ++k) {
      INFO("array " << k << " at " << out[k]);
      CHECK(out[k] % alignments[k] == 0);
    }
    for (size_t k = 0; k < 4; ++k) {
      const uint32_t narrow = uint32_t(out[6 + k / 2] >> (32 * (k % 2)));
      INFO("array " << k << " as a uint: " << narrow);
      CHECK(narrow == uint32_t(out[k]));
    }
  }
}

TEST_CASE("CL_KERNEL_PRIVATE_MEM_SIZE: the private arrays a work-item keeps", "[e2e][board][onchip]") {
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Setup cl(target.device());
    cl_program program = programFor(cl, target, OnChip);
    auto privateBytes = [&](const char *name) {
      cl_kernel kernel = kernelNamed(program, name);
      cl_ulong bytes = ~cl_ulong(0);
      CHECK(clGetKernelWorkGroupInfo(kernel, cl.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof bytes, &bytes, nullptr) ==
            CL_SUCCESS);
      clReleaseKernel(kernel);
      return bytes;
    };
    CHECK(privateBytes("private_reverse") == 16 * sizeof(int));
    CHECK(privateBytes("private_sort") == 12 * sizeof(int));
    CHECK(privateBytes("local_histogram") == 0); // __local, not private
    clReleaseProgram(program);
  }
}

TEST_CASE("banked arrays (numbanks, bank_bits, xcl_array_partition, register), single work-item: board == CPU == host",
          "[e2e][board][onchip]") {
  const int n = 200;
  auto a = randomInts(1000, 0, 1 << 20, 5), b = randomInts(1000, -50, 50, 6);
  std::vector<long long> tile(a.begin(), a.begin() + 64), last(4, 0);
  std::vector<int> recent{0, 1, 2, 3, 4, 5};
  for (int k = 0; k < n; ++k) {
    const int at = a[k] & 63;
    tile[at] += b[k];
    last[k & 3] = tile[at];
    recent[at % 6] ^= recent[k % 6] + k;
  }
  auto pair = [&](int i) { return int(short(a[i] - b[i])); };
  std::vector<int> expected(a.size(), -1);
  for (int i = 0; i < 64; i += 4) {
    long long s = 0;
    for (int j = 0; j < 4; ++j)
      s += tile[i + j] * b[i + j]; // rows[j][i / 4] holds b[i + j]
    expected[i / 4] = int(s + pair((i / 2) & 31) + pair(a[i] & 31));
  }
  for (int j = 0; j < 4; ++j)
    expected[16 + j] = int(last[j]);
  for (int j = 0; j < 6; ++j)
    expected[20 + j] = recent[j];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "banked_tile", a, b, n, {{1}, {1}}), expected) == -1);
  }
}

TEST_CASE("a shift register, a __local histogram and a conditionally written private window, single work-item: "
          "board == CPU == host",
          "[e2e][board][onchip]") {
  const size_t n = 1000;
  auto a = randomInts(n, 0, 1 << 20, 3), b = randomInts(n, -50, 50, 4);
  std::vector<int> histogram(n, -1), window(n);
  std::fill(histogram.begin(), histogram.begin() + 64, 0);
  for (size_t k = 0; k < n; ++k)
    histogram[a[k] & 63] += b[k];
  short slots[8];
  for (int k = 0; k < 8; ++k)
    slots[k] = short(b[k]);
  int sum = 0;
  for (size_t k = 0; k < n; ++k) {
    if ((a[k] & 1) == 0) {
      sum += a[k] - slots[k & 7];
      slots[k & 7] = short(a[k]);
    }
    window[k] = sum;
  }
  std::vector<int> fir(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t acc = 0;
    for (size_t k = 0; k < 8 && k <= i; ++k)
      acc += uint32_t(b[k]) * uint32_t(a[i - k]);
    fir[i] = int(acc);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "shift_fir", a, b, int(n), {{1}, {1}}), fir) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "local_histogram", a, b, int(n), {{1}, {1}}), histogram) ==
          -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "window_sum", a, b, int(n), {{1}, {1}}), window) == -1);
  }
}

TEST_CASE("an on-chip array in elements of two sizes (a union, a short line read as bytes): board == CPU == host",
          "[e2e][board][onchip]") {
  const size_t n = 300;
  auto a = randomInts(n, -(1 << 30), 1 << 30, 9), b = randomInts(n, 0, 1 << 13, 10);
  std::vector<int> unions(n), punned(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t words[4];
    for (size_t k = 0; k < 4; ++k)
      words[k] = uint32_t(a[(i * 4 + k) % n]);
    uint8_t bytes[16];
    std::memcpy(bytes, words, sizeof bytes); // the device's byte order is the host's (little-endian)
    uint32_t acc = 0;
    for (int k = 0; k < 16; ++k)
      acc = acc * 31u + bytes[(k + b[i]) & 15];
    uint16_t half = uint16_t(acc);
    std::memcpy(reinterpret_cast<uint8_t *>(words) + 2 * (b[i] & 7), &half, sizeof half);
    unions[i] = int(acc ^ words[(b[i] >> 3) & 3]);
  }
  int16_t line[64];
  for (size_t k = 0; k < 64; ++k)
    line[k] = int16_t(a[k]);
  for (size_t i = 0; i < n; ++i)
    punned[i] = reinterpret_cast<const uint8_t *>(line)[b[i] & 127] + line[(b[i] >> 7) & 63];
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "union_bytes", a, b, int(n)), unions) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "local_punned", a, b, int(n), {{1}, {1}}), punned) == -1);
  }
}

TEST_CASE("reads taking turns at the ports of an array too large to copy per two reads: board == CPU == host",
          "[e2e][board][onchip]") {
  const int n = 1024; // a power of two: the kernel's indices k ^ 1 .. k ^ 4 stay below it
  auto a = randomInts(3 * n, -(1 << 20), 1 << 20, 11), b = randomInts(3 * n, 0, n - 1, 12);
  std::vector<int> expected(a.size(), -1);
  auto image = [&](int i) { return a[size_t(i)]; };
  for (int i = 0; i < n; ++i) {
    const int k = b[size_t(i)];
    const int near = image(k ^ 1) + image(k ^ 2) + image(k ^ 3) + image(k ^ 4);
    const int far = image(k >> 1) + image(k >> 2) + image(k >> 3);
    expected[size_t(i)] = image(i) * 3 + image(k) - (near ^ far);
    expected[size_t(n + i)] = image(n - 1 - i) ^ (image(b[size_t(i)] >> 2) + image(i >> 1));
  }
  expected[size_t(2 * n)] = image(b[0]);
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "shared_read_ports", a, b, n, {{1}}), expected) == -1);
  }
}

TEST_CASE("constant tables (__constant arrays, a constant private array) as ROMs: board == CPU == host",
          "[e2e][board][onchip]") {
  const size_t n = 500;
  auto a = randomInts(n, 0, 1 << 20, 5), b = randomInts(n, 0, 1 << 20, 6);
  const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  std::vector<int> looked(n);
  for (size_t i = 0; i < n; ++i)
    looked[i] = (a[i] & 15) * (a[i] & 15) * primes[b[i] & 7];
  std::vector<float> signal(n), zero(n, 0.0f), smoothed(n);
  for (size_t i = 0; i < n; ++i)
    signal[i] = float(a[i] % 2001 - 1000) / 16.0f;
  const float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
  for (size_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int k = 0; k < 5; ++k) {
      const int j = std::min(std::max(int(i) + k - 2, 0), int(n) - 1);
      acc = acc + (weights[k] * signal[j] + zero[0] * 0.0f);
    }
    smoothed[i] = acc;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "table_lookup", a, b, 0), looked) == -1);
    CHECK(firstMismatch(runTwoInputs<float>(OnChip, target, "smooth", signal, zero, int(n)), smoothed) == -1);
  }
}

TEST_CASE("a constant table's neighbours at a run-time base and its rows as vectors: board == CPU == host",
          "[e2e][board][onchip]") {
  const size_t n = 500;
  auto a = randomInts(n, 0, 1 << 20, 7), b = randomInts(n, 0, 1 << 20, 8);
  auto scrambled = [](uint32_t k) { return k * 2654435761u ^ (k << 27); };
  std::vector<int> expected(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t row = uint32_t(a[i] & 7) * 4, k = uint32_t(b[i] % 28);
    const uint32_t neighbours =
        scrambled(k) ^ (scrambled(k + 1) << 1) ^ (scrambled(k + 2) * 5u) ^ (scrambled(k + 3) + 9u);
    expected[i] = int(scrambled(row) + scrambled(row + 1) * 3u + scrambled(row + 2) * 7u + scrambled(row + 3) * 11u +
                      neighbours);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(OnChip, target, "table_rows", a, b, 0), expected) == -1);
  }
}
