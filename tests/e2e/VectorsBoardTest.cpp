// SPDX-License-Identifier: Apache-2.0
// Vector types and structs on the board: float4/uint16/char16/float3 arithmetic, swizzles, vector
// literals, a vector argument, a runtime lane index, a loop on float4 values, structs in global and
// private memory (kernels/vectors.cl, compiled by loomc at build time), compared bit for bit with the
// CPU device and a host reference.
#include "DifferentialSupport.h"

#include <random>

using namespace e2e;

namespace {

const Sources Vectors{LOOM_E2E_VECTORS_LOOM, LOOM_E2E_VECTORS_CL};

template <typename T, int N> struct Lanes {
  T v[N];
};
using Float4 = Lanes<float, 4>;
using Uint16 = Lanes<uint32_t, 16>;
using Char16 = Lanes<int8_t, 16>;
using Int4 = Lanes<int32_t, 4>;

template <typename T> std::vector<T> randomVectors(size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<T> v(n);
  for (T &x : v)
    for (auto &lane : x.v) {
      using Lane = std::remove_reference_t<decltype(lane)>;
      if constexpr (std::is_floating_point_v<Lane>)
        lane = Lane(int(random() % 20001) - 10000) / 128.0f;
      else
        lane = Lane(random());
    }
  return v;
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<float> v(n);
  for (float &x : v)
    x = float(int(random() % 20001) - 10000) / 64.0f;
  return v;
}

/// The OpenCL layout of kernels/vectors.cl's Particle: 16 bytes, one padding byte after `flags`.
struct Particle {
  float x, y;
  int16_t tag;
  uint8_t flags, padding;
  int32_t count;
};
static_assert(sizeof(Particle) == 16);

} // namespace

TEST_CASE("float4, uint16 and char16 arithmetic with swizzles and literals: board == CPU == host",
          "[e2e][board][vectors]") {
  const size_t n = 256;
  auto fa = randomVectors<Float4>(n, 1), fb = randomVectors<Float4>(n, 2);
  const float s = 1.75f;
  std::vector<Float4> axpy(n);
  for (size_t i = 0; i < n; ++i) {
    const float add[4] = {s, s * 2.0f, -s, 0.5f};
    for (int l = 0; l < 4; ++l)
      axpy[i].v[l] = fa[i].v[l] * fb[i].v[l] + add[l];
  }
  auto ua = randomVectors<Uint16>(n, 3), ub = randomVectors<Uint16>(n, 4);
  const uint32_t k = 2654435761u;
  std::vector<Uint16> mix(n);
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < 16; ++l) {
      const uint32_t x = ua[i].v[l], y = ub[i].v[l];
      const uint32_t mixed = (x ^ (y << l)) + (y >> (l & 7)) * k;
      mix[i].v[l] = x > y ? mixed : ~mixed;
    }
  auto ca = randomVectors<Char16>(n, 5), cb = randomVectors<Char16>(n, 6);
  const int8_t ck = -7;
  std::vector<Char16> swizzled(n);
  for (size_t i = 0; i < n; ++i) {
    int8_t r[16];
    for (int l = 0; l < 8; ++l) {
      r[l] = int8_t(ca[i].v[2 * l] - cb[i].v[2 * l + 1]);  // hi = x.even - y.odd
      r[8 + l] = int8_t(ca[i].v[l] + cb[i].v[8 + l]);      // lo = x.lo + y.hi
    }
    r[0] = ck;
    for (int l = 0; l < 16; ++l)
      swizzled[i].v[l] = int8_t(r[15 - l] + int8_t(ca[i].v[l] * 3));
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<Float4>(Vectors, target, "float4_axpy", fa, fb, s), axpy) == -1);
    CHECK(firstMismatch(runTwoInputs<Uint16>(Vectors, target, "uint16_mix", ua, ub, k), mix) == -1);
    CHECK(firstMismatch(runTwoInputs<Char16>(Vectors, target, "char16_swizzle", ca, cb, ck), swizzled) == -1);
  }
}

TEST_CASE("float3 cross products, an int2 argument, a runtime lane index, a float4 loop: board == CPU == host",
          "[e2e][board][vectors]") {
  const size_t n = 200;
  auto a = randomFloats(3 * n, 7), b = randomFloats(3 * n, 8);
  std::vector<float> cross(3 * n);
  for (size_t i = 0; i < n; ++i) {
    const float *u = &a[3 * i], *v = &b[3 * i];
    cross[3 * i] = u[1] * v[2] - u[2] * v[1];
    cross[3 * i + 1] = u[2] * v[0] - u[0] * v[2];
    cross[3 * i + 2] = u[0] * v[1] - u[1] * v[0];
  }
  auto ia = randomVectors<Int4>(n, 9);
  std::vector<int> lanes(n), picked(n);
  std::mt19937 random(10);
  for (int &lane : lanes)
    lane = int(random() % 1000);
  const cl_int2 k = {{-3, 12345}};
  for (size_t i = 0; i < n; ++i)
    picked[i] = int(uint32_t(ia[i].v[lanes[i] & 3]) * uint32_t(k.s[0]) + uint32_t(k.s[1]));
  cl_long16 wide;
  for (int l = 0; l < 16; ++l)
    wide.s[l] = (int64_t(l) << 40) - 77 * l + 3;
  const cl_float4 k4 = {{1.5f, -2.25f, 0.5f, 3.0f}};
  auto floats = randomFloats(n, 13);
  std::vector<cl_long> widePicked(n);
  std::vector<float> fromFloat4(n);
  const cl_long3 wide3 = {{-3, 1000000007, 1LL << 40, 0}};
  std::vector<cl_long> fromLong3(n);
  for (size_t i = 0; i < n; ++i) {
    fromLong3[i] = (lanes[i] & 1 ? wide3.s[0] : wide3.s[2]) * lanes[i] + wide3.s[1];
    widePicked[i] = wide.s[lanes[i] & 15] * lanes[i] + wide.s[15];
    fromFloat4[i] = floats[i] * k4.s[0] + k4.s[1] - k4.s[2] * k4.s[3] + float(lanes[i]);
  }
  const int m = 8;
  const size_t rows = 64;
  auto da = randomVectors<Float4>(rows * m, 11), db = randomVectors<Float4>(m, 12);
  std::vector<float> dot(rows * m);
  std::memset(dot.data(), 0xff, dot.size() * sizeof(float));
  for (size_t i = 0; i < rows; ++i) {
    float acc[4] = {0, 0, 0, 0};
    for (int j = 0; j < m; ++j)
      for (int l = 0; l < 4; ++l)
        acc[l] = acc[l] + da[i * m + j].v[l] * db[j].v[l];
    dot[i] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<float>(Vectors, target, "float3_cross", a, b, 0, {{n}}), cross) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Vectors, target, "int2_argument", ia, lanes, k), picked) == -1);
    CHECK(firstMismatch(runTwoInputs<cl_long>(Vectors, target, "long16_argument", lanes, lanes, wide), widePicked) ==
          -1);
    CHECK(firstMismatch(runTwoInputs<cl_long>(Vectors, target, "long3_argument", lanes, lanes, wide3), fromLong3) ==
          -1);
    CHECK(firstMismatch(runTwoInputs<float>(Vectors, target, "float4_argument", lanes, floats, k4), fromFloat4) == -1);
    CHECK(firstMismatch(runTwoInputs<float>(Vectors, target, "float4_dot", da, db, m, {{rows}}), dot) == -1);
  }
}

TEST_CASE("structs in global memory and a private struct: board == CPU == host", "[e2e][board][vectors]") {
  const size_t n = 300;
  std::mt19937 random(13);
  std::vector<Particle> in(n);
  for (Particle &p : in)
    p = {float(int(random() % 2001) - 1000) / 8.0f, float(int(random() % 2001) - 1000) / 8.0f,
         int16_t(random()), uint8_t(random()), 0, int32_t(random())};
  auto wind = randomFloats(n, 14);
  const float dt = 0.125f;
  std::vector<Particle> want(n);
  for (size_t i = 0; i < n; ++i) {
    Particle p = in[i];
    const bool hit = p.flags & 1;
    p.x = p.x + (hit ? p.x * dt : 0.0f);
    p.y = p.y + wind[i] * dt;
    p.tag = int16_t(p.tag * 3 - 1);
    p.flags = uint8_t(p.flags ^ 0x80);
    p.count = int32_t(uint32_t(p.count) + (hit ? 1u : 0u));
    want[i] = p;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto got = runTwoInputs<Particle>(Vectors, target, "particle_step", in, wind, dt);
    // The padding byte is not the kernel's to write: compare the fields.
    for (Particle &p : got)
      p.padding = 0;
    CHECK(firstMismatch(got, want) == -1);
  }
}

TEST_CASE("printf of scalars and vectors: board == CPU == host", "[e2e][board][vectors][printf]") {
  std::vector<std::string> want;
  for (int i = 0; i < 64; ++i) {
    char line[256];
    std::snprintf(line, sizeof line, "item %d: %5.2f %d,%d,%d,%d %hhx,%hhx ok %c %lu|%-4u|%%", i, i * 0.25, i, -i,
                  2 * i, 7, (unsigned char)i, (unsigned char)255, 'A' + i, (unsigned long)i << 33, unsigned(i));
    want.push_back(line);
  }
  std::sort(want.begin(), want.end());
  for (const Target &target : Targets) {
    INFO(target.name);
    Setup cl(target.device());
    cl_program program = programFor(cl, target, Vectors);
    std::vector<int> results;
    CHECK(sortedLines(printedBy(cl, program, "print_values", {{64}}, results)) == want);
    CHECK(std::count(results.begin(), results.end(), 0) == 64);
    clReleaseProgram(program);
  }
}
