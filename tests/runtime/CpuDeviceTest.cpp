// SPDX-License-Identifier: Apache-2.0
// Unit tests of the CPU device, called directly: vector_add built from source and run, 2D ranges and
// work-item builtins, __local variables and arguments, barriers, binaries, and the build failures
// (syntax, missing builtin, binary without CPU code).
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/frontend/Binary.h"
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "../TestSupport.h"
#include "CpuTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

using namespace loom::runtime;

namespace {

struct Built {
  std::unique_ptr<DeviceProgram> program;
  std::string log;
};

Built build(Device &device, const char *source, const char *options = "") {
  Built built;
  auto program = device.buildFromSource(source, options, built.log);
  if (!program)
    FAIL(llvm::toString(program.takeError()) << "\nlog:\n" << built.log);
  built.program = std::move(*program);
  return built;
}

std::string buildError(Device &device, const char *source) {
  std::string log;
  auto program = device.buildFromSource(source, "", log);
  REQUIRE_FALSE(static_cast<bool>(program));
  llvm::consumeError(program.takeError());
  return log;
}

} // namespace

TEST_CASE("the CPU device describes itself", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  const DeviceInfo &info = device->info();
  CHECK(info.kind == DeviceKind::Cpu);
  CHECK(llvm::StringRef(info.name).startswith("Loom CPU ("));
  CHECK(info.computeUnits >= 1);
  CHECK(info.denormals);
  CHECK(info.compilerAvailable);
}

TEST_CASE("vector_add builds, runs and matches the host", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
})");
  REQUIRE(built.program->kernels().size() == 1);
  CHECK(built.program->kernels()[0].name == "vector_add");

  const size_t n = 100000;
  auto a = device->allocate(n * sizeof(float));
  auto b = device->allocate(n * sizeof(float));
  auto c = device->allocate(n * sizeof(float));
  REQUIRE_OK(a);
  REQUIRE_OK(b);
  REQUIRE_OK(c);
  auto *pa = static_cast<float *>(a->host), *pb = static_cast<float *>(b->host), *pc = static_cast<float *>(c->host);
  for (size_t i = 0; i < n; ++i) {
    pa[i] = float(i);
    pb[i] = 0.25f * float(i);
    pc[i] = -1;
  }
  NDRange range;
  range.global = {n, 1, 1};
  range.local = {1000, 1, 1};
  auto result = device->launch(*built.program, 0, {bufferArg(*a), bufferArg(*b), bufferArg(*c)}, range);
  REQUIRE_OK(result);
  CHECK(result->deviceNs > 0);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += pc[i] != pa[i] + pb[i];
  CHECK(wrong == 0);
  device->release(*a);
  device->release(*b);
  device->release(*c);
}

TEST_CASE("a first launch keeps its code on disk; a damaged entry is made again", "[unit][runtime][cpu]") {
  TemporaryCacheDirectory cache;
  const char *source = R"(
__kernel void triple(__global int *data) { data[get_global_id(0)] *= 3; })";
  auto device = createCpuDevice();
  auto run = [&](const char *options) {
    Built built = build(*device, source, options); // other options: not the build kept in memory
    auto data = device->allocate(64 * sizeof(int32_t));
    REQUIRE_OK(data);
    auto *values = static_cast<int32_t *>(data->host);
    std::iota(values, values + 64, 0);
    NDRange range;
    range.global = {64, 1, 1};
    range.local = {8, 1, 1};
    REQUIRE_OK(device->launch(*built.program, 0, {bufferArg(*data)}, range));
    for (int i = 0; i < 64; ++i)
      CHECK(values[i] == 3 * i);
    device->release(*data);
  };
  run("");
  auto stored = cache.objects();
  REQUIRE(stored.size() == 1);
  uint64_t size = 0;
  REQUIRE_FALSE(llvm::sys::fs::file_size(stored[0], size));
  CHECK(size > 100);
  {
    std::error_code error;
    llvm::raw_fd_ostream damaged(stored[0], error);
    REQUIRE_FALSE(error);
    damaged << "not an object file";
  }
  run("-DUNUSED=1"); // the same code: it loads the damaged entry, then makes and stores it again
  CHECK(cache.objects() == stored);
  uint64_t remade = 0;
  REQUIRE_FALSE(llvm::sys::fs::file_size(stored[0], remade));
  CHECK(remade == size);
}

TEST_CASE("work-item builtins in 3D, helpers, __local variables and arguments", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
static size_t flat(void) {
  return get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
}
__kernel void ids(__global uint *out, __local uint *scratch, uint bias) {
  __local uint tile[8];
  size_t l = get_local_id(0);
  tile[l] = (uint)l;
  scratch[l] = (uint)get_group_id(1);
  uint d = get_work_dim();
  out[flat()] = bias + tile[l] + 10 * scratch[l] + 100 * (uint)get_local_id(2) +
                1000 * (uint)get_num_groups(0) + 10000 * d + (uint)get_local_size(d - 1) * 0 +
                (uint)get_global_offset(0);
})");
  const size_t gx = 8, gy = 4, gz = 2;
  auto out = device->allocate(gx * gy * gz * sizeof(uint32_t));
  REQUIRE_OK(out);
  ArgValue local;
  local.kind = ArgValue::Kind::Local;
  local.localBytes = 8 * sizeof(uint32_t);
  NDRange range;
  range.dims = 3;
  range.global = {gx, gy, gz};
  range.local = {4, 2, 2};
  auto result = device->launch(*built.program, 0, {bufferArg(*out), local, scalarArg<uint32_t>(7)}, range);
  REQUIRE_OK(result);
  auto *values = static_cast<uint32_t *>(out->host);
  for (size_t z = 0; z < gz; ++z)
    for (size_t y = 0; y < gy; ++y)
      for (size_t x = 0; x < gx; ++x) {
        uint32_t expected = 7 + uint32_t(x % 4) + 10 * uint32_t(y / 2) + 100 * uint32_t(z % 2) + 1000 * 2 + 30000;
        INFO("x=" << x << " y=" << y << " z=" << z);
        CHECK(values[x + gx * (y + gy * z)] == expected);
      }
  device->release(*out);
}

TEST_CASE("a work-group tree reduction through __local memory, a barrier in its loop", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
__kernel void reduce(__global const int *in, __global int *out, __local int *partial) {
  size_t l = get_local_id(0), n = get_local_size(0);
  partial[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s >>= 1) {
    if (l < s)
      partial[l] += partial[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = partial[0];
})");
  for (size_t local : {1, 2, 64, 256}) {
    const size_t n = 4096, groups = n / local;
    auto in = device->allocate(n * sizeof(int32_t));
    auto out = device->allocate(groups * sizeof(int32_t));
    REQUIRE_OK(in);
    REQUIRE_OK(out);
    auto *values = static_cast<int32_t *>(in->host);
    for (size_t i = 0; i < n; ++i)
      values[i] = int32_t(i * 7919 % 1000) - 500;
    ArgValue partial;
    partial.kind = ArgValue::Kind::Local;
    partial.localBytes = local * sizeof(int32_t);
    NDRange range;
    range.global = {n, 1, 1};
    range.local = {local, 1, 1};
    REQUIRE_OK(device->launch(*built.program, 0, {bufferArg(*in), bufferArg(*out), partial}, range));
    for (size_t g = 0; g < groups; ++g) {
      int32_t expected = 0;
      for (size_t i = 0; i < local; ++i)
        expected += values[g * local + i];
      INFO("local size " << local << ", group " << g);
      CHECK(static_cast<int32_t *>(out->host)[g] == expected);
    }
    device->release(*in);
    device->release(*out);
  }
}

TEST_CASE("private values and arrays live across barriers in loops and uniform branches", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
__kernel void rotate(__global int *data, int rounds) {
  __local int tile[64];
  size_t l = get_local_id(0), n = get_local_size(0);
  int mine[4];
  int keep = data[get_global_id(0)] * 3;
  for (int k = 0; k < 4; ++k)
    mine[k] = keep + k;
  for (int r = 0; r < rounds; ++r) {
    tile[l] = mine[r % 4] + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    mine[r % 4] = tile[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (rounds > 2) {
    tile[l] = keep;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    keep = tile[n - 1 - l];
  }
  data[get_global_id(0)] = keep + mine[0] + mine[1] + mine[2] + mine[3];
})", "-cl-std=CL2.0");
  const size_t local = 64, n = 4 * local;
  for (int rounds : {0, 2, 7}) {
    auto data = device->allocate(n * sizeof(int32_t));
    REQUIRE_OK(data);
    auto *values = static_cast<int32_t *>(data->host);
    std::vector<int32_t> expected(n);
    for (size_t i = 0; i < n; ++i)
      values[i] = int32_t(i * 31 % 97);
    for (size_t g = 0; g < n / local; ++g) {
      const int32_t *in = values + g * local;
      std::vector<int32_t> keep(local), tile(local);
      std::vector<std::array<int32_t, 4>> mine(local);
      for (size_t l = 0; l < local; ++l) {
        keep[l] = in[l] * 3;
        for (int k = 0; k < 4; ++k)
          mine[l][k] = keep[l] + k;
      }
      for (int r = 0; r < rounds; ++r) {
        for (size_t l = 0; l < local; ++l)
          tile[l] = mine[l][r % 4] + r;
        for (size_t l = 0; l < local; ++l)
          mine[l][r % 4] = tile[(l + 1) % local];
      }
      if (rounds > 2) {
        tile = keep;
        for (size_t l = 0; l < local; ++l)
          keep[l] = tile[local - 1 - l];
      }
      for (size_t l = 0; l < local; ++l)
        expected[g * local + l] = keep[l] + mine[l][0] + mine[l][1] + mine[l][2] + mine[l][3];
    }
    NDRange range;
    range.global = {n, 1, 1};
    range.local = {local, 1, 1};
    REQUIRE_OK(device->launch(*built.program, 0, {bufferArg(*data), scalarArg<int32_t>(rounds)}, range));
    for (size_t i = 0; i < n; ++i) {
      INFO("rounds " << rounds << ", work-item " << i);
      CHECK(values[i] == expected[i]);
    }
    device->release(*data);
  }
}

TEST_CASE("an inner loop every work-item runs alike runs across the work-items", "[unit][runtime][cpu]") {
  // One dot product per work-item, its loop differing: bounded by an argument, under a divergent
  // branch, bounded by a loaded value, four iterations.
  const char *source = R"(
#define DOT(guard, bound)                                                      \
  int col = get_global_id(0), row = get_global_id(1);                          \
  float sum = 0.0f;                                                            \
  if (guard)                                                                   \
    for (int k = 0; k < (bound); ++k)                                          \
      sum += a[row * n + k] * b[k * n + col];                                  \
  c[row * n + col] = sum;
#define ARGS __global const float *a, __global const float *b, __global float *c, int n
__kernel void across(ARGS) { DOT(1, n) }
__kernel void guarded(ARGS) { DOT(col % 3 != 0, n) }
__kernel void data_bound(ARGS) { DOT(1, (int)a[row * n] % n) }
__kernel void few(ARGS) { DOT(1, 4) }
)";
  // Cut at the loop's head, the total is kept per work-item across the cut; the loop under a
  // divergent branch, the one whose bound was loaded, and the short one are not cut.
  llvm::LLVMContext context;
  auto compiled = loom::frontend::compileOpenCL(context, {source, "across.cl", ""}, loom::frontend::Target::Host);
  REQUIRE_OK(compiled);
  auto kernels = loom::frontend::extractKernels(*compiled->module);
  REQUIRE_OK(kernels);
  auto functions = cpu::addWorkGroupFunctions(*compiled->module, *kernels);
  REQUIRE_OK(functions);
  for (const cpu::WorkGroupFunction &function : *functions) {
    INFO(function.kernel);
    CHECK((function.contextBytesPerItem > 0) == (function.kernel == "across"));
  }

  auto device = createCpuDevice();
  Built built = build(*device, source);
  const int n = 24;
  auto a = device->allocate(n * n * sizeof(float)), b = device->allocate(n * n * sizeof(float)),
       c = device->allocate(n * n * sizeof(float));
  REQUIRE_OK(a);
  REQUIRE_OK(b);
  REQUIRE_OK(c);
  auto *av = static_cast<float *>(a->host), *bv = static_cast<float *>(b->host), *cv = static_cast<float *>(c->host);
  for (int i = 0; i < n * n; ++i) {
    av[i] = float(i % 7) - 2.0f; // small integers: every sum is exact
    bv[i] = float(i % 5) - 1.0f;
  }
  NDRange range;
  range.dims = 2;
  range.global = {size_t(n), size_t(n), 1};
  range.local = {8, 3, 1};
  for (unsigned kernel = 0; kernel < 2; ++kernel) {
    REQUIRE_OK(device->launch(*built.program, kernel, {bufferArg(*a), bufferArg(*b), bufferArg(*c), scalarArg(n)}, range));
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) {
        float expected = 0.0f;
        if (kernel == 0 || col % 3 != 0)
          for (int k = 0; k < n; ++k)
            expected += av[row * n + k] * bv[k * n + col];
        INFO("kernel " << kernel << ", row " << row << ", col " << col);
        REQUIRE(cv[row * n + col] == expected);
      }
  }
  device->release(*a);
  device->release(*b);
  device->release(*c);
}

TEST_CASE("a 2D transpose through a __local tile", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
__kernel void transpose(__global const float *in, __global float *out, int width) {
  __local float tile[16][17];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
  tile[ly][lx] = in[(gy + ly) * width + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * width + gy + lx] = tile[lx][ly];
})");
  const size_t width = 64;
  auto in = device->allocate(width * width * sizeof(float));
  auto out = device->allocate(width * width * sizeof(float));
  REQUIRE_OK(in);
  REQUIRE_OK(out);
  auto *source = static_cast<float *>(in->host);
  for (size_t i = 0; i < width * width; ++i)
    source[i] = float(i);
  NDRange range;
  range.dims = 2;
  range.global = {width, width, 1};
  range.local = {16, 16, 1};
  REQUIRE_OK(device->launch(*built.program, 0, {bufferArg(*in), bufferArg(*out), scalarArg<int32_t>(width)}, range));
  auto *result = static_cast<float *>(out->host);
  for (size_t y = 0; y < width; ++y)
    for (size_t x = 0; x < width; ++x) {
      INFO("x=" << x << " y=" << y);
      CHECK(result[y * width + x] == source[x * width + y]);
    }
  device->release(*in);
  device->release(*out);
}

TEST_CASE("work-group functions in 2D groups, one in a loop, every kind", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
__kernel void collectives(__global const int *in, __global const float *fin, __global int *out,
                          __global float *fout, __global ulong *uout) {
  size_t g = get_global_id(0) + get_global_size(0) * get_global_id(1);
  size_t n = get_global_size(0) * get_global_size(1);
  int x = in[g];
  out[0 * n + g] = work_group_reduce_add(x);
  out[1 * n + g] = work_group_reduce_min(x);
  out[2 * n + g] = work_group_reduce_max(x);
  out[3 * n + g] = work_group_scan_inclusive_add(x);
  out[4 * n + g] = work_group_scan_exclusive_add(x);
  out[5 * n + g] = work_group_scan_inclusive_min(x);
  out[6 * n + g] = work_group_scan_exclusive_max(x);
  out[7 * n + g] = work_group_all(x > -90);
  out[8 * n + g] = work_group_any(x == 7);
  out[9 * n + g] = work_group_broadcast(x, 1, 2);
  int acc = 0;
  for (int r = 0; r < 3; ++r)
    acc += work_group_reduce_add(x + r);
  out[10 * n + g] = acc;
  uout[g] = work_group_scan_exclusive_min((ulong)(uint)x * 3u);
  fout[g] = work_group_scan_inclusive_add(fin[g]);
  fout[n + g] = work_group_reduce_min(fin[g]);
})", "-cl-std=CL2.0");
  const size_t gx = 16, gy = 8, lx = 4, ly = 4, n = gx * gy;
  auto in = device->allocate(n * sizeof(int32_t));
  auto fin = device->allocate(n * sizeof(float));
  auto out = device->allocate(11 * n * sizeof(int32_t));
  auto fout = device->allocate(2 * n * sizeof(float));
  auto uout = device->allocate(n * sizeof(uint64_t));
  for (auto *allocation : {&in, &fin, &out, &fout, &uout})
    REQUIRE_OK(*allocation);
  auto *x = static_cast<int32_t *>(in->host);
  auto *f = static_cast<float *>(fin->host);
  for (size_t i = 0; i < n; ++i) {
    x[i] = int32_t(i * 37 % 199) - 99;
    f[i] = float(int32_t(i * 13 % 31) - 15);
  }
  NDRange range;
  range.dims = 2;
  range.global = {gx, gy, 1};
  range.local = {lx, ly, 1};
  REQUIRE_OK(device->launch(*built.program, 0,
                            {bufferArg(*in), bufferArg(*fin), bufferArg(*out), bufferArg(*fout), bufferArg(*uout)}, range));
  auto *results = static_cast<int32_t *>(out->host);
  auto *floats = static_cast<float *>(fout->host);
  auto *unsigneds = static_cast<uint64_t *>(uout->host);
  for (size_t groupY = 0; groupY < gy / ly; ++groupY)
    for (size_t groupX = 0; groupX < gx / lx; ++groupX) {
      // The group's work-items in local linear id order.
      std::vector<size_t> items;
      for (size_t y = 0; y < ly; ++y)
        for (size_t xx = 0; xx < lx; ++xx)
          items.push_back(groupX * lx + xx + gx * (groupY * ly + y));
      int32_t sum = 0, low = INT32_MAX, high = INT32_MIN;
      bool all = true, any = false;
      float fsum = 0, flow = INFINITY;
      for (size_t i : items) {
        sum += x[i];
        low = std::min(low, x[i]);
        high = std::max(high, x[i]);
        all &= x[i] > -90;
        any |= x[i] == 7;
        flow = std::min(flow, f[i]);
      }
      int32_t inclusive = 0, inclusiveMin = INT32_MAX, exclusiveMax = INT32_MIN;
      uint64_t exclusiveUnsignedMin = UINT64_MAX;
      const size_t source = items[1 + lx * 2];
      for (size_t i : items) {
        INFO("work-item " << i);
        CHECK(results[0 * n + i] == sum);
        CHECK(results[1 * n + i] == low);
        CHECK(results[2 * n + i] == high);
        CHECK(results[4 * n + i] == inclusive);
        inclusive += x[i];
        CHECK(results[3 * n + i] == inclusive);
        inclusiveMin = std::min(inclusiveMin, x[i]);
        CHECK(results[5 * n + i] == inclusiveMin);
        CHECK(results[6 * n + i] == exclusiveMax);
        exclusiveMax = std::max(exclusiveMax, x[i]);
        CHECK(results[7 * n + i] == int32_t(all));
        CHECK(results[8 * n + i] == int32_t(any));
        CHECK(results[9 * n + i] == x[source]);
        CHECK(results[10 * n + i] == 3 * sum + 3 * int32_t(items.size()));
        CHECK(unsigneds[i] == exclusiveUnsignedMin);
        exclusiveUnsignedMin = std::min<uint64_t>(exclusiveUnsignedMin, uint64_t(uint32_t(x[i])) * 3u);
        fsum += f[i];
        CHECK(floats[i] == fsum);
        CHECK(floats[n + i] == flow);
      }
    }
  for (auto *allocation : {&in, &fin, &out, &fout, &uout})
    device->release(**allocation);
}

TEST_CASE("async copies both ways, strided, 3-component vectors as 4, chained events", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
__kernel void stage(__global const float4 *in, __global float4 *out, __global const int *matrix,
                    __global int *back, __global const float3 *v3, __global float3 *out3, int width) {
  __local float4 tile[64];
  __local int column[16];
  __local float3 t3[8];
  size_t g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + g * 64, 64, 0);
  e = async_work_group_strided_copy(column, matrix + g, 16, width, e);
  event_t e3 = async_work_group_copy(t3, v3 + g * 8, 8, 0);
  prefetch(in + g * 64, 64);
  event_t both[2] = {e, e3};
  wait_group_events(2, both);
  tile[l] = tile[l] * 2.0f;
  if (l < 16)
    column[l] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + g * 64, tile, 64, 0);
  e = async_work_group_strided_copy(back + g, column, 16, width, e);
  e = async_work_group_copy(out3 + g * 8, t3, 8, e);
  wait_group_events(1, &e);
})");
  const size_t groups = 4, local = 64, width = groups;
  auto in = device->allocate(groups * 64 * 4 * sizeof(float));
  auto out = device->allocate(groups * 64 * 4 * sizeof(float));
  auto matrix = device->allocate(16 * width * sizeof(int32_t));
  auto back = device->allocate(16 * width * sizeof(int32_t));
  auto v3 = device->allocate(groups * 8 * 4 * sizeof(float));
  auto out3 = device->allocate(groups * 8 * 4 * sizeof(float));
  for (auto *allocation : {&in, &out, &matrix, &back, &v3, &out3})
    REQUIRE_OK(*allocation);
  auto *source = static_cast<float *>(in->host);
  for (size_t i = 0; i < groups * 64 * 4; ++i)
    source[i] = float(i);
  auto *elements = static_cast<int32_t *>(matrix->host);
  for (size_t i = 0; i < 16 * width; ++i)
    elements[i] = int32_t(i * 3);
  auto *vectors = static_cast<float *>(v3->host);
  for (size_t i = 0; i < groups * 8 * 4; ++i)
    vectors[i] = i % 4 == 3 ? -1.0f - float(i) : float(i); // The fourth lane too.
  NDRange range;
  range.global = {groups * local, 1, 1};
  range.local = {local, 1, 1};
  REQUIRE_OK(device->launch(*built.program, 0,
                            {bufferArg(*in), bufferArg(*out), bufferArg(*matrix), bufferArg(*back), bufferArg(*v3),
                             bufferArg(*out3), scalarArg<int32_t>(int32_t(width))},
                            range));
  auto *doubled = static_cast<float *>(out->host);
  for (size_t i = 0; i < groups * 64 * 4; ++i) {
    INFO("float " << i);
    CHECK(doubled[i] == 2.0f * source[i]);
  }
  auto *columns = static_cast<int32_t *>(back->host);
  for (size_t i = 0; i < 16 * width; ++i) {
    INFO("element " << i);
    CHECK(columns[i] == elements[i] + 1);
  }
  auto *copied = static_cast<float *>(out3->host);
  for (size_t i = 0; i < groups * 8 * 4; ++i) {
    INFO("float3 lane " << i);
    CHECK(copied[i] == vectors[i]);
  }
  for (auto *allocation : {&in, &out, &matrix, &back, &v3, &out3})
    device->release(**allocation);
}

TEST_CASE("sub-groups: ids and sizes, functions, barriers in loops and branches that differ by sub-group", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, R"(
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void sub(__global const int *in, __global int *out, __global uint *info) {
  __local int tile[64];
  size_t g = get_global_id(0), n = get_global_size(0), l = get_local_id(0);
  uint sid = get_sub_group_id(), lid = get_sub_group_local_id(), size = get_sub_group_size();
  info[6 * g + 0] = size;
  info[6 * g + 1] = get_max_sub_group_size();
  info[6 * g + 2] = get_num_sub_groups();
  info[6 * g + 3] = get_enqueued_num_sub_groups();
  info[6 * g + 4] = sid;
  info[6 * g + 5] = lid;
  int x = in[g];
  out[0 * n + g] = sub_group_reduce_add(x);
  out[1 * n + g] = sub_group_scan_inclusive_max(x);
  out[2 * n + g] = sub_group_scan_exclusive_add(x);
  out[3 * n + g] = sub_group_broadcast(x, 2);
  out[4 * n + g] = sub_group_all(x > -40) + 2 * sub_group_any(x == 5);
  int acc = 0;
  for (uint r = 0; r <= sid; ++r) { // A different trip count in each sub-group.
    tile[l] = x + (int)r;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    acc += tile[l - lid + (lid + 1) % size];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  }
  out[5 * n + g] = acc;
  if (sid % 2 == 0)
    out[6 * n + g] = sub_group_reduce_min(x);
  else
    out[6 * n + g] = -sub_group_reduce_max(x);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[7 * n + g] = work_group_reduce_add(x);
})", "-cl-std=CL2.0");
  const size_t local = 20, groups = 3, n = local * groups, S = loom::runtime::cpu::SubGroupSize;
  auto in = device->allocate(n * sizeof(int32_t));
  auto out = device->allocate(8 * n * sizeof(int32_t));
  auto info = device->allocate(6 * n * sizeof(uint32_t));
  for (auto *allocation : {&in, &out, &info})
    REQUIRE_OK(*allocation);
  auto *x = static_cast<int32_t *>(in->host);
  for (size_t i = 0; i < n; ++i)
    x[i] = int32_t(i * 29 % 83) - 41;
  NDRange range;
  range.global = {n, 1, 1};
  range.local = {local, 1, 1};
  REQUIRE_OK(device->launch(*built.program, 0, {bufferArg(*in), bufferArg(*out), bufferArg(*info)}, range));
  auto *results = static_cast<int32_t *>(out->host);
  auto *facts = static_cast<uint32_t *>(info->host);
  const size_t subGroups = (local + S - 1) / S;
  for (size_t group = 0; group < groups; ++group) {
    int32_t groupSum = 0;
    for (size_t l = 0; l < local; ++l)
      groupSum += x[group * local + l];
    for (size_t sid = 0; sid < subGroups; ++sid) {
      const size_t first = group * local + sid * S, size = std::min(S, local - sid * S);
      int32_t sum = 0, low = INT32_MAX, high = INT32_MIN;
      bool all = true, any = false;
      for (size_t i = first; i < first + size; ++i) {
        sum += x[i];
        low = std::min(low, x[i]);
        high = std::max(high, x[i]);
        all &= x[i] > -40;
        any |= x[i] == 5;
      }
      int32_t running = INT32_MIN, exclusive = 0;
      for (size_t lid = 0; lid < size; ++lid) {
        const size_t i = first + lid;
        INFO("work-item " << i << ", sub-group " << sid);
        CHECK(facts[6 * i + 0] == size);
        CHECK(facts[6 * i + 1] == S);
        CHECK(facts[6 * i + 2] == subGroups);
        CHECK(facts[6 * i + 3] == subGroups);
        CHECK(facts[6 * i + 4] == sid);
        CHECK(facts[6 * i + 5] == lid);
        CHECK(results[0 * n + i] == sum);
        running = std::max(running, x[i]);
        CHECK(results[1 * n + i] == running);
        CHECK(results[2 * n + i] == exclusive);
        exclusive += x[i];
        CHECK(results[3 * n + i] == x[first + 2]);
        CHECK(results[4 * n + i] == int32_t(all) + 2 * int32_t(any));
        int32_t acc = 0;
        for (size_t r = 0; r <= sid; ++r)
          acc += x[first + (lid + 1) % size] + int32_t(r);
        CHECK(results[5 * n + i] == acc);
        CHECK(results[6 * n + i] == (sid % 2 == 0 ? low : -high));
        CHECK(results[7 * n + i] == groupSum);
      }
    }
  }
  for (auto *allocation : {&in, &out, &info})
    device->release(**allocation);
}

TEST_CASE("sub-groups make independent forward progress: waits for later sub-groups, a lock, no hang", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  CHECK(device->info().independentSubGroups);
  // The turn passes from the last sub-group to the first, so sub-group 0, which runs first, waits
  // for all the others; every work-item takes a lock in turn. Then a sub-group and a work-group
  // function, cut in the rounds the yields bring.
  Built built = build(*device, R"(
__kernel void relay(__global int *order, __global int *out, int stuck) {
  __local atomic_int turn, lock;
  __local int counter;
  size_t l = get_local_id(0), g = get_group_id(0);
  int sid = (int)get_sub_group_id(), subGroups = (int)get_num_sub_groups();
  if (l == 0) {
    atomic_init(&turn, 0);
    atomic_init(&lock, 0);
    counter = 0;
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0) {
    while (atomic_load(&turn) != subGroups - 1 - sid)
      ;
    order[g * subGroups + sid] = atomic_fetch_add(&turn, 1);
  }
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int sum = sub_group_reduce_add((int)l);
  int expected = 0;
  while (!atomic_compare_exchange_strong(&lock, &expected, 1))
    expected = 0;
  counter += 1;
  atomic_store(&lock, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = counter * 10000 + sum + work_group_reduce_max((int)l);
  if (stuck && l == 0)
    barrier(CLK_LOCAL_MEM_FENCE); // Reached by one work-item only: undefined, and must not hang.
}
)", "-cl-std=CL2.0");
  const size_t local = 44, groups = 3, n = local * groups, S = loom::runtime::cpu::SubGroupSize;
  const size_t subGroups = (local + S - 1) / S;
  auto order = device->allocate(groups * subGroups * sizeof(int32_t));
  auto out = device->allocate(n * sizeof(int32_t));
  for (auto *allocation : {&order, &out})
    REQUIRE_OK(*allocation);
  NDRange range;
  range.global = {n, 1, 1};
  range.local = {local, 1, 1};
  for (int32_t stuck : {0, 1}) {
    INFO("stuck " << stuck);
    std::memset(order->host, 0xff, groups * subGroups * sizeof(int32_t));
    REQUIRE_OK(device->launch(*built.program, 0, {bufferArg(*order), bufferArg(*out), scalarArg<int32_t>(stuck)}, range));
    auto *turns = static_cast<int32_t *>(order->host);
    auto *results = static_cast<int32_t *>(out->host);
    for (size_t group = 0; group < groups; ++group)
      for (size_t sid = 0; sid < subGroups; ++sid) {
        INFO("group " << group << ", sub-group " << sid);
        CHECK(turns[group * subGroups + sid] == int32_t(subGroups - 1 - sid));
        const size_t first = sid * S, end = std::min(first + S, local);
        int32_t sum = 0;
        for (size_t l = first; l < end; ++l)
          sum += int32_t(l);
        for (size_t l = first; l < end; ++l)
          CHECK(results[group * local + l] == int32_t(local) * 10000 + sum + int32_t(local - 1));
      }
  }
  for (auto *allocation : {&order, &out})
    device->release(**allocation);
}

TEST_CASE("a program's binary loads back; a binary without CPU code does not", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  Built built = build(*device, "__kernel void k(__global int *p) { p[get_global_id(0)] = 42; }");
  std::string binary = built.program->binary();
  std::string log;
  auto loaded = device->loadBinary(binary, log);
  REQUIRE_OK(loaded);
  CHECK((*loaded)->kernels().size() == 1);

  loom::frontend::ProgramBinary boardOnly;
  boardOnly.meta = llvm::json::Object{{"board", "default"}};
  auto refused = device->loadBinary(loom::frontend::writeBinary(boardOnly), log);
  CHECK_THAT(errorMessage(refused), Catch::Contains("binary has no CPU code"));
  CHECK_THAT(log, Catch::Contains("binary has no CPU code"));

  std::string corrupt = binary;
  corrupt[corrupt.size() / 2] ^= 0x33;
  auto bad = device->loadBinary(corrupt, log);
  CHECK_FALSE(errorMessage(bad).empty());
  CHECK_FALSE(log.empty());
}

TEST_CASE("build failures give readable logs", "[unit][runtime][cpu]") {
  auto device = createCpuDevice();
  std::string syntax = buildError(*device, "__kernel void k(__global int *p) {\n  p[0] = \n}\n");
  CHECK_THAT(syntax, Catch::Contains("program.cl:3:1: error:"));
  std::string missing = buildError(*device, "float helper(float);\n"
                                            "__kernel void k(__global float *p) { p[0] = helper(p[0]); }\n");
  CHECK_THAT(missing, Catch::Contains("undefined function 'helper'"));
}
