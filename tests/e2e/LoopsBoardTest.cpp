// SPDX-License-Identifier: Apache-2.0
// Loops on the board: single work-item and NDRange kernels with loops (constant and data-dependent
// trip counts, nesting, break/continue, early return, a loop in a branch, memory carried across
// iterations, a helper left a call by Clang's inliner), compiled by loomc at build time, compared
// bit for bit with the CPU device and the host. The binary's per-kernel area estimate reads back as
// loomc --report prints it.
#include "DifferentialSupport.h"
#include "TestSupport.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <map>
#include <regex>
#include <sstream>

using namespace e2e;

namespace {

const Sources Loops{LOOM_E2E_LOOPS_LOOM, LOOM_E2E_LOOPS_CL, LOOM_E2E_LOOPS_OPTIONS};

/// A kernel's estimated LUTs, FFs, DSPs and RAM blocks.
using Area = std::array<int64_t, 4>;

/// Each kernel's area in a .loom binary's metadata (its .loom.meta section, JSON).
std::map<std::string, Area> areasInBinary(const std::string &bytes) {
  auto object = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(bytes, "program.loom"));
  REQUIRE_OK(object);
  llvm::Optional<llvm::json::Value> meta;
  for (const llvm::object::SectionRef &section : (*object)->sections()) {
    auto name = section.getName();
    REQUIRE_OK(name);
    if (*name != ".loom.meta")
      continue;
    auto contents = section.getContents();
    REQUIRE_OK(contents);
    auto parsed = llvm::json::parse(*contents);
    REQUIRE_OK(parsed);
    meta = std::move(*parsed);
  }
  REQUIRE(meta);
  const llvm::json::Array *kernels = meta->getAsObject()->getArray("kernels");
  REQUIRE(kernels);
  std::map<std::string, Area> areas;
  for (const llvm::json::Value &kernel : *kernels) {
    const llvm::json::Object *hardware = kernel.getAsObject()->getObject("hardware");
    REQUIRE(hardware);
    const llvm::json::Object *area = hardware->getObject("area");
    REQUIRE(area);
    Area counts;
    const char *fields[] = {"luts", "ffs", "dsps", "rams"};
    for (size_t f = 0; f < counts.size(); ++f) {
      INFO("area field " << fields[f]);
      auto count = area->getInteger(fields[f]);
      REQUIRE(count);
      counts[f] = *count;
    }
    areas[kernel.getAsObject()->getString("name").value_or("").str()] = counts;
  }
  return areas;
}

/// Each kernel's area as `loomc --rtl --report` prints it for `sources`.
std::map<std::string, Area> areasReported(const Sources &sources) {
  const std::string command = std::string("'") + LOOMC_EXECUTABLE + "' --rtl --report -q -o /dev/null '" +
                              sources.source + "' --options='" + sources.options + "'";
  std::FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string report;
  char chunk[4096];
  for (size_t got; (got = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;)
    report.append(chunk, got);
  CHECK(pclose(pipe) == 0);
  const std::regex kernelLine(
      R"(^kernel (\w+)( \(autorun\))?: .*, estimated (\d+) LUTs, (\d+) FFs, (\d+) DSPs, (\d+) RAM blocks)");
  std::map<std::string, Area> areas;
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch match; std::regex_search(line, match, kernelLine))
      areas[match[1]] = {std::stoll(match[3]), std::stoll(match[4]), std::stoll(match[5]), std::stoll(match[6])};
  return areas;
}

} // namespace

TEST_CASE("NDRange loops: dot products (int and float), board == CPU == host", "[e2e][board][loops]") {
  const size_t items = 200;
  const int m = 16;
  auto a = randomInts(items * m, -1000, 1000, 1), b = randomInts(items * m, -1000, 1000, 2);
  std::vector<float> fa(a.size()), fb(b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    fa[i] = float(a[i]) / 64.0f;
    fb[i] = float(b[i]) / 32.0f;
  }
  std::vector<int> dot(a.size(), -1);
  std::vector<float> fdot(a.size());
  std::memset(fdot.data(), 0xff, fdot.size() * sizeof(float));
  for (size_t i = 0; i < items; ++i) {
    int sum = 0;
    float fsum = 0.0f;
    for (int k = 0; k < m; ++k) {
      sum += a[i * m + k] * b[k];
      fsum += fa[i * m + k] * fb[k];
    }
    dot[i] = sum;
    fdot[i] = fsum;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "dot_rows", a, b, m, {{items}}), dot) == -1);
    CHECK(firstMismatch(runTwoInputs<float>(Loops, target, "float_rows", fa, fb, m, {{items}}), fdot) == -1);
  }
}

TEST_CASE("data-dependent loops, nesting, break/continue, early return: board == CPU == host",
          "[e2e][board][loops]") {
  const size_t n = 512;
  auto a = randomInts(n, 1, 5000, 3), b = randomInts(n, 0, 40, 4);
  const int cap = 200, m = 9;
  std::vector<int> collatz(n), nested(n), found(n), guarded(n);
  auto search = randomInts(n, -50, 50, 5), keys = randomInts(n, -60, 60, 6);
  auto signedA = randomInts(n, -20, 20, 7);
  for (size_t i = 0; i < n; ++i) {
    unsigned x = unsigned(a[i]);
    int steps = 0;
    while (x > 1 && steps < cap) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    collatz[i] = steps + b[i];
    int acc = 0;
    for (int r = 0; r < m; ++r) {
      if ((a[i] + r) % 3 == 0)
        continue;
      for (int c = 0; c <= r; ++c) {
        if (c * r > b[i])
          break;
        acc += (r + 1) * (c + 2);
      }
    }
    nested[i] = acc;
    found[i] = -2;
    for (int j = 0; j < int(n); ++j)
      if (search[j] == keys[i]) {
        found[i] = j;
        break;
      }
    int v = b[i];
    if (signedA[i] > 0)
      for (int k = 0; k < signedA[i] % m; ++k)
        v = v * 3 + k;
    guarded[i] = v;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "collatz", a, b, cap), collatz) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "nested", a, b, m), nested) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "find_first", search, keys, int(n)), found) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "guarded_loop", signedA, b, m), guarded) == -1);
  }
}

TEST_CASE("NDRange nests where work-items overtake each other in the inner loop: board == CPU == host",
          "[e2e][board][loops]") {
  const int n = 300, times = 5;
  auto a = randomInts(n, -100, 100, 12), b = randomInts(n, -100, 100, 13);
  std::vector<int> tripCount(n), skip(n);
  for (int i = 0; i < n; ++i) {
    tripCount[i] = 1;
    for (int t = 0; t < times; ++t)
      for (int k = 0; k < i % 29; ++k)
        tripCount[i] += a[k];
    unsigned acc = unsigned(b[i]); // wrapping, as the kernel's int arithmetic is on both devices
    for (int t = 0; t < times; ++t) {
      if (i % 3 == 0)
        for (int k = 0; k < 12; ++k)
          acc = acc * 3u + unsigned(a[k]);
      acc += unsigned(t);
    }
    skip[i] = int(acc);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "per_item_trip_count", a, b, times), tripCount) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "per_item_skip", a, b, times), skip) == -1);
  }
}

TEST_CASE("single work-item loops with memory carried across iterations: board == CPU == host",
          "[e2e][board][loops]") {
  const size_t n = 1000;
  auto a = randomInts(n, -100000, 100000, 8), b = randomInts(n, 0, 1 << 20, 9);
  std::vector<int> prefix(n), histogram(n, -1), stream(n), inPlace(n);
  int sum = 0;
  for (size_t j = 0; j < n; ++j) {
    sum += a[j];
    prefix[j] = sum ^ b[j];
  }
  for (size_t j = 0; j < n; ++j)
    stream[j] = a[j] * 3 + b[j];
  for (size_t j = 0; j < n; ++j)
    inPlace[j] = b[j] + a[j] * 3;
  for (size_t j = 1; j < n; ++j)
    inPlace[j] ^= inPlace[j - 1] & 7;
  std::vector<int> lagged(a);
  for (size_t j = 5; j < n; ++j)
    lagged[j] = ((lagged[j - 2] & 0xffff) * (b[j] & 3)) ^ (lagged[j - 5] >> 1);
  for (size_t row = 3; row < n / 8; ++row)
    for (size_t k = 0; k < 8; ++k)
      if (b[row * 8 + k] & 4)
        lagged[row * 8 + k] += lagged[(row - 3) * 8 + k] ^ 5;
  for (size_t row = 2; row < n / 16; ++row)
    for (size_t c = 0; c < 16; ++c)
      lagged[row * 16 + c] = lagged[(row - 2) * 16 + c] + (lagged[(row - 2) * 16 + ((c + 1) & 15)] >> 1);
  for (size_t j = 8; j < n; ++j)
    lagged[j] = (lagged[j - 4 - (b[j] & 3)] >> 2) + (lagged[j] & 0xfff);
  for (int k = 0; k < 16; ++k)
    histogram[k] = b[k];
  for (size_t j = 0; j < n; ++j)
    histogram[a[j] & 15] += 1;
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "prefix_sum", a, b, int(n), {{1}}), prefix) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "histogram", a, b, int(n), {{1}}), histogram) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "stream_restrict", a, b, int(n), {{1}}), stream) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "in_place", a, b, int(n), {{1}}), inPlace) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "lagged", a, b, int(n), {{1}}), lagged) == -1);
  }
}

TEST_CASE("read-modify-writes through a forwarding queue: board == CPU == host", "[e2e][board][loops]") {
  const size_t n = 1000, rows = 10, columns = 100; // rows * columns <= n: the cells are a's first elements
  auto a = randomInts(n, -100000, 100000, 10), b = randomInts(n, -1000, 1000, 11);
  std::vector<int> bins(n, -1), rowBins(rows * columns, -1);
  for (int k = 0; k < 16; ++k)
    bins[k] = b[k];
  for (size_t j = 0; j < n; ++j)
    if (a[j] % 3 != 0)
      bins[a[j] & 15] += a[j] >> 8;
  bins[16] = bins[a[0] & 15] + 1;
  std::vector<int> cells(a.begin(), a.begin() + rows * columns);
  for (size_t row = 0; row < rows; ++row) {
    std::fill_n(rowBins.begin() + row * 8, 8, 0);
    for (size_t j = 0; j < columns; ++j)
      rowBins[row * 8 + (cells[row * columns + j] & 7)] += b[j];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "histogram_forwarded", a, b, int(n), {{1}}), bins) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "histogram_rows", cells, b, int(columns), {{rows}}),
                        rowBins) == -1);
  }
}

TEST_CASE("single work-item nests, rows overlapping in inner loops or not: board == CPU == host",
          "[e2e][board][loops]") {
  const int rows = 100;
  auto a = randomInts(rows * 16, -1000, 1000, 10), b = randomInts(rows * 16, -1000, 1000, 11);
  std::vector<int> fold(a.size(), -1), nest3(a.size(), -1), total(a.size(), -1), triangle(a.size(), -1),
      chained(a.size(), -1);
  // Wrapping arithmetic, as the kernels' int overflow is on both devices.
  auto step = [](int s, int times, int x) { return int(unsigned(s) * unsigned(times) + unsigned(x)); };
  int running = 0, chain = 0;
  for (int r = 0; r < rows; ++r) {
    int s = b[r];
    for (int k = 0; k < 16; ++k)
      s = step(s, 3, a[r * 16 + k]);
    fold[r] = (s & 1) ? s : s ^ r;
    int t = b[r];
    for (int c = 0; c < 4; ++c) {
      int inner = c;
      for (int k = 0; k < 4; ++k)
        inner = step(inner, 5, a[(r * 4 + c) * 4 + k]);
      t = step(t, 7, 0) ^ inner;
    }
    nest3[r] = t;
    int row = 0;
    for (int k = 0; k < 16; ++k)
      row = step(row, 3, a[r * 16 + k]);
    running = step(running, 1, row);
    total[r] = running;
    s = b[r];
    if (r % 3 != 0)
      for (int k = 0; k <= r % 16; ++k)
        s = step(s, 3, a[r * 16 + k]);
    triangle[r] = s;
    for (int k = 0; k < 16; ++k)
      chain = step(chain, 3, a[r * 16 + k]);
    chained[r] = chain ^ b[r];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "rows_fold", a, b, rows, {{1}}), fold) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "rows_nest3", a, b, rows, {{1}}), nest3) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "rows_running_total", a, b, rows, {{1}}), total) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "rows_triangle", a, b, rows, {{1}}), triangle) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "rows_chained", a, b, rows, {{1}}), chained) == -1);
  }
}

TEST_CASE("mandelbrot on a 2D NDRange (data-dependent loop under back-pressure): board == CPU == host",
          "[e2e][board][loops]") {
  const int side = 64, maxit = 64;
  std::vector<int> a(side * side, 0), b(side * side, 0), image(side * side);
  a[0] = 3;
  b[0] = 5;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const float cr = -2.0f + 0.046875f * float(x), ci = -1.5f + 0.046875f * float(y);
      float zr = 0.0f, zi = 0.0f;
      int it = 0;
      while (it < maxit && zr * zr + zi * zi < 4.0f) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++it;
      }
      image[y * side + x] = it + 2;
    }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "mandelbrot", a, b, maxit, {{side, side}}), image) == -1);
  }
}

TEST_CASE("a helper function Clang left a call (noinline, called twice) is inlined: board == CPU == host",
          "[e2e][board][loops]") {
  const size_t n = 300;
  auto a = randomInts(n, -100000, 100000, 21), b = randomInts(n, 0, 1 << 30, 22);
  const int base = 7;
  auto digitSum = [](int x, int base) {
    int sum = 0;
    for (unsigned v = unsigned(x); v != 0; v /= unsigned(base))
      sum += int(v % unsigned(base));
    return sum;
  };
  std::vector<int> expected(n);
  for (size_t i = 0; i < n; ++i)
    expected[i] = digitSum(a[i], base) * 100 + digitSum(b[i], base + 1);
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Loops, target, "helper_calls", a, b, base), expected) == -1);
  }
}

TEST_CASE("each kernel's area estimate in the binary's JSON is what loomc --report prints", "[e2e][board][loops]") {
  Setup cl(boardDevice());
  cl_program program = cl.load(readFile(Loops.binary));
  const auto inBinary = areasInBinary(programBinary(program));
  clReleaseProgram(program);
  const auto reported = areasReported(Loops);
  REQUIRE_FALSE(reported.empty());
  CHECK(inBinary.size() == reported.size());
  for (const auto &[name, area] : reported) {
    INFO("kernel " << name);
    REQUIRE(inBinary.count(name) == 1);
    CHECK(inBinary.at(name) == area);
    // Every kernel has logic and registers.
    CHECK(area[0] > 0);
    CHECK(area[1] > 0);
  }
  // dot_rows multiplies integers, in DSP blocks.
  CHECK(reported.at("dot_rows")[2] > 0);
}
