// SPDX-License-Identifier: Apache-2.0
// Unit tests of the CPU device's streaming variant (devices/cpu/StreamingStores.h): which stores it
// makes non-temporal after O3 for the host, which launches take it, and that they compute what the
// cached variant does.
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/StreamingStores.h"

#include "CpuTestSupport.h"

#include <map>

using namespace loom::runtime;

namespace {

/// How many stores of each kernel's work-group function the streaming variant makes non-temporal
/// (assumptions, O3 for this host, non-temporal stores).
std::map<std::string, unsigned> streamingStores(const char *source) {
  llvm::LLVMContext context;
  HostProgram program = lowerForHost(context, source);
  cpu::assumeStreamingLaunch(*program.module, program.symbols, program.kernels);
  optimiseForHost(program);
  std::map<std::string, unsigned> marked;
  for (size_t k = 0; k < program.symbols.size(); ++k)
    marked[program.kernels[k].name] =
        cpu::markStreamingStores(*program.module, {program.symbols[k]}, {program.kernels[k]});
  return marked;
}

} // namespace

TEST_CASE("the streaming variant makes vector stores into buffers non-temporal, aligned or checked, and only those",
          "[unit][runtime][cpu]") {
  auto marked = streamingStores(R"(
__kernel void add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void counted(__global const float *a, __global float *c, volatile __global int *count) {
  size_t i = get_global_id(0);
  c[i] = a[i];
  if (a[i] > 0.0f)
    atomic_inc(count);
}
__kernel void to_local(__global const float *a, __local float *tile, __global float *c) {
  tile[get_local_id(0)] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  c[get_global_id(0)] = tile[get_local_size(0) - 1 - get_local_id(0)];
}
__kernel void gather(__global const float *a, __global const int *index, __global float *c) {
  c[index[get_global_id(0)]] = a[get_global_id(0)];
}
__kernel void rows(__global const float *a, __global float *c, int width) {
  int i = get_global_id(1) * width + get_global_id(0);
  c[i] = 2.0f * a[i];
}
)");
  // The streaming store: vectorised, aligned by what the launch guarantees.
  CHECK(marked["add"] >= 1);
  // Another thread may read what precedes an atomic: its stores stay ordered.
  CHECK(marked["counted"] == 0);
  // The tile is __local: its stores are read back at once. The buffer's store after the barrier
  // streams.
  CHECK(marked["to_local"] >= 1);
  // A row's start is aligned when the width is a multiple of 16: checked where the store is.
  CHECK(marked["rows"] >= 1);
  // A scattered store is no vector store.
  CHECK(marked["gather"] == 0);
}

TEST_CASE("launches whose buffers fill the cache take the streaming variant, with the same results",
          "[unit][runtime][cpu]") {
  TemporaryCacheDirectory cache;
  auto device = createCpuDevice();
  std::string log;
  auto program = device->buildFromSource(R"(
__kernel void add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void rows(__global const float *a, __global float *c, int width) {
  int i = get_global_id(1) * width + get_global_id(0);
  c[i] = 2.0f * a[i];
})",
                                         "-cl-std=CL2.0", log); // OpenCL 2.0: the last work-group may be partial
  REQUIRE_OK(program);
  // The output alone is larger than the last-level cache.
  const size_t n = (cpu::lastLevelCacheBytes() + (1 << 20)) / sizeof(float);
  auto a = device->allocate(n * sizeof(float)), b = device->allocate(n * sizeof(float)),
       c = device->allocate(n * sizeof(float));
  REQUIRE_OK(a);
  REQUIRE_OK(b);
  REQUIRE_OK(c);
  auto *av = static_cast<float *>(a->host), *bv = static_cast<float *>(b->host), *cv = static_cast<float *>(c->host);
  for (size_t i = 0; i < n; ++i) {
    av[i] = float(i % 1000);
    bv[i] = 0.5f * float(i % 77);
  }
  auto launch = [&](uint64_t offset, uint64_t global, uint64_t local) {
    std::fill(cv, cv + n, -1.0f);
    NDRange range;
    range.offset = {offset, 0, 0};
    range.global = {global, 1, 1};
    range.local = {local, 1, 1};
    REQUIRE_OK(device->launch(**program, 0, {bufferArg(*a), bufferArg(*b), bufferArg(*c)}, range));
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
      wrong += cv[i] != (i >= offset && i < offset + global ? av[i] + bv[i] : -1.0f);
    CHECK(wrong == 0);
  };
  // The cached variant: a range that writes less than the cache holds, an offset and a group size
  // that are no multiples of 16.
  launch(0, 4096, 64);
  CHECK(cache.objects().size() == 1);
  launch(3, n - 3, 64);
  launch(0, n, 100);
  CHECK(cache.objects().size() == 1);
  // The streaming variant, made on its first launch: a last group that is partial, an offset of 16.
  launch(0, n - 5, 64);
  CHECK(cache.objects().size() == 2);
  launch(16, n - 16, 256);
  CHECK(cache.objects().size() == 2);
  // Rows of 1,000 floats: every eighth starts on a line, the others' stores stay cached.
  const uint64_t width = 1000, height = n / width;
  std::fill(cv, cv + n, -1.0f);
  NDRange range;
  range.dims = 2;
  range.global = {width, height, 1};
  range.local = {64, 1, 1};
  REQUIRE_OK(device->launch(**program, 1, {bufferArg(*a), bufferArg(*c), scalarArg<int32_t>(width)}, range));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += cv[i] != (i < width * height ? 2.0f * av[i] : -1.0f);
  CHECK(wrong == 0);
  CHECK(cache.objects().size() == 2);

  device->release(*a);
  device->release(*b);
  device->release(*c);
}

TEST_CASE("a launch streams when what it may write exceeds the cache and it meets the variant's assumptions",
          "[unit][runtime][cpu]") {
  loom::frontend::KernelInfo kernel;
  kernel.name = "k";
  auto pointer = [](const char *qualifiers) {
    loom::frontend::KernelArg arg;
    arg.isPointer = true;
    arg.addressSpace = loom::frontend::AddressSpace::Global;
    arg.typeQualifiers = qualifiers;
    return arg;
  };
  kernel.args = {pointer("const"), pointer("")};
  const uint64_t cache = 1 << 20, items = 1 << 20;
  alignas(64) static char storage[128];
  std::vector<cpu::LaunchBuffer> buffers = {{storage, 8 * cache, 4}, {storage + 64, 8 * cache, 4}};
  NDRange range;
  range.global = {items, 1, 1};
  range.local = {64, 1, 1};
  CHECK(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  // Another dimension multiplies the work-items.
  range.dims = 2;
  range.global = {items / 8, 8, 1};
  CHECK(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  range.dims = 1;
  range.global = {items, 1, 1};
  // What the variant assumes: 64-byte aligned buffers, a group size and an offset that are multiples of 16.
  buffers[0].host = storage + 4;
  CHECK_FALSE(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  buffers[0].host = storage;
  range.local = {8, 1, 1};
  CHECK_FALSE(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  range.local = {64, 1, 1};
  range.offset = {8, 0, 0};
  CHECK_FALSE(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  range.offset = {0, 0, 0};
  // What it may read and write, which must fill the cache: the buffer, or an element per work-item
  // if fewer (const buffers are read); here a quarter of the cache each.
  range.global = {cache / 4 / 4, 1, 1};
  CHECK_FALSE(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  buffers[1].elementBytes = 16; // Writes the whole cache.
  CHECK(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  buffers[1].bytes = cache / 2; // Reads a quarter, writes half.
  CHECK_FALSE(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  buffers[0].elementBytes = 12; // Reads three quarters, writes half.
  CHECK(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  kernel.args = {pointer("const"), pointer("const")}; // Writes nothing.
  CHECK_FALSE(cpu::isStreamingLaunch(kernel, buffers, range, cache));
  kernel.args = {pointer(""), pointer("")}; // Both written: half the cache each.
  buffers[0].elementBytes = 8;
  CHECK(cpu::isStreamingLaunch(kernel, buffers, range, cache));
}
