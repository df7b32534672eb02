// SPDX-License-Identifier: Apache-2.0
// Unit tests of the CPU device's combining of a work-group's relaxed atomic updates
// (devices/cpu/CombineGroupAtomics.h): which updates it combines, and that launches compute what
// one atomic per work-item computes.
#include "devices/cpu/CombineGroupAtomics.h"
#include "devices/cpu/CpuDevice.h"

#include "CpuTestSupport.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"

#include <map>
#include <numeric>

using namespace loom::runtime;

namespace {

struct Combined {
  unsigned updates = 0; ///< Updates combineGroupAtomics replaced.
  unsigned atomics = 0; ///< Atomic read-modify-writes left in the work-group function.
};

/// Each kernel's work-group function with its updates marked, optimised and combined.
std::map<std::string, Combined> combinedUpdates(const char *source) {
  llvm::LLVMContext context;
  HostProgram program = lowerForHost(context, source, "-cl-std=CL2.0", [](HostProgram &program) {
    cpu::markCombinableAtomics(*program.module, program.kernels);
  });
  optimiseForHost(program);
  std::map<std::string, Combined> combined;
  for (size_t k = 0; k < program.symbols.size(); ++k) {
    Combined &counts = combined[program.kernels[k].name];
    counts.updates = cpu::combineGroupAtomics(*program.module, {program.symbols[k]});
    for (llvm::Instruction &inst : llvm::instructions(*program.module->getFunction(program.symbols[k])))
      counts.atomics += llvm::isa<llvm::AtomicRMWInst>(inst);
  }
  REQUIRE_FALSE(llvm::verifyModule(*program.module, &llvm::errs()));
  return combined;
}

} // namespace

TEST_CASE("a work-group's relaxed updates combine where the work-item cannot tell, and only there",
          "[unit][runtime][cpu]") {
  auto combined = combinedUpdates(R"(
__kernel void histogram(__global const uint *in, __global uint *bins) {
  atomic_inc(&bins[in[get_global_id(0)] & 255]);
}
__kernel void total(__global const int *in, __global int *sum) {
  atomic_add(sum, in[get_global_id(0)]);
}
__kernel void strided(__global const uint *restrict in, __global uint *bins, uint n) {
  for (uint k = get_global_id(0); k < n; k += get_global_size(0))
    atomic_add(&bins[in[k] % 64u], 2u);
}
__kernel void strided_may_alias(__global const uint *in, __global uint *bins, uint n) {
  for (uint k = get_global_id(0); k < n; k += get_global_size(0))
    atomic_add(&bins[in[k] % 64u], 2u);
}
__kernel void reads_after(__global const uint *in, __global uint *bins, __global uint *out) {
  atomic_inc(&bins[in[get_global_id(0)] & 15]);
  out[get_global_id(0)] = bins[0];
}
__kernel void old_value_used(__global const uint *in, __global uint *bins, __global uint *out) {
  out[get_global_id(0)] = atomic_inc(&bins[in[get_global_id(0)] & 15]);
}
__kernel void unbounded(__global const uint *in, __global uint *bins) {
  atomic_inc(&bins[in[get_global_id(0)]]);
}
__kernel void two_operations(__global const int *in, __global int *bins) {
  atomic_add(&bins[in[get_global_id(0)] & 7], 1);
  atomic_max(&bins[in[get_global_id(0)] & 7], 3);
}
__kernel void sequentially_consistent(__global atomic_int *count) {
  atomic_fetch_add(count, 1);
}
__kernel void barrier_after(__global const uint *in, __global uint *bins, __global uint *out) {
  atomic_inc(&bins[in[get_global_id(0)] & 15]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = bins[get_local_id(0) & 15];
})");
  // One table per object, flushed by one atomic.
  CHECK(combined["histogram"].updates >= 1);
  CHECK(combined["histogram"].atomics == 1);
  CHECK(combined["total"].updates >= 1);
  CHECK(combined["total"].atomics == 1);
  // The next iteration's load is of a restrict buffer: it cannot read what the update wrote.
  CHECK(combined["strided"].updates >= 1);
  CHECK(combined["strided"].atomics == 1);
  // Without restrict, it might.
  CHECK(combined["strided_may_alias"].updates == 0);
  CHECK(combined["reads_after"].updates == 0);
  CHECK(combined["old_value_used"].updates == 0);
  // A table of 2^32 entries: not combined.
  CHECK(combined["unbounded"].updates == 0);
  // The add comes before a max of the same object: the max combines, the add stays atomic.
  CHECK(combined["two_operations"].updates >= 1);
  CHECK(combined["two_operations"].atomics > 1);
  // OpenCL C 2.0's atomics keep their sequentially consistent order.
  CHECK(combined["sequentially_consistent"].updates == 0);
  CHECK(combined["barrier_after"].updates == 0);
}

TEST_CASE("combined updates compute what one atomic per work-item computes", "[unit][runtime][cpu]") {
  TemporaryCacheDirectory cache;
  auto device = createCpuDevice();
  std::string log;
  auto program = device->buildFromSource(R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void histogram(__global const uint *in, __global uint *bins) {
  atomic_inc(&bins[in[get_global_id(0)] & 255]);
}
__kernel void extremes(__global const int *in, __global int *restrict least, __global long *restrict spread) {
  int v = in[get_global_id(0)];
  atom_sub(&spread[(v >> 4) & 7], (long)v);
  atomic_min(least, v);
})",
                                         "-cl-std=CL2.0", log); // OpenCL 2.0: the last work-group may be partial
  REQUIRE_OK(program);
  const size_t n = 100003;
  auto in = device->allocate(n * sizeof(int32_t)), bins = device->allocate(256 * sizeof(uint32_t)),
       least = device->allocate(sizeof(int32_t)), spread = device->allocate(8 * sizeof(int64_t));
  REQUIRE_OK(in);
  REQUIRE_OK(bins);
  REQUIRE_OK(least);
  REQUIRE_OK(spread);
  auto *values = static_cast<int32_t *>(in->host);
  fillPseudoRandom(values, n, 7, 3);
  auto *binsOut = static_cast<uint32_t *>(bins->host);
  auto *leastOut = static_cast<int32_t *>(least->host);
  auto *spreadOut = static_cast<int64_t *>(spread->host);

  auto launch = [&](uint64_t offset, uint64_t global, uint64_t local) {
    std::fill(binsOut, binsOut + 256, 5u);
    *leastOut = 1 << 30;
    std::fill(spreadOut, spreadOut + 8, 0);
    NDRange range;
    range.offset = {offset, 0, 0};
    range.global = {global, 1, 1};
    range.local = {local, 1, 1};
    REQUIRE_OK(device->launch(**program, 0, {bufferArg(*in), bufferArg(*bins)}, range));
    REQUIRE_OK(device->launch(**program, 1, {bufferArg(*in), bufferArg(*least), bufferArg(*spread)}, range));
    std::vector<uint32_t> expectedBins(256, 5u);
    int32_t expectedLeast = 1 << 30;
    std::vector<int64_t> expectedSpread(8, 0);
    for (uint64_t i = offset; i < offset + global; ++i) {
      ++expectedBins[uint32_t(values[i]) & 255];
      expectedLeast = std::min(expectedLeast, values[i]);
      expectedSpread[(values[i] >> 4) & 7] -= values[i];
    }
    CHECK(std::equal(expectedBins.begin(), expectedBins.end(), binsOut));
    CHECK(*leastOut == expectedLeast);
    CHECK(std::equal(expectedSpread.begin(), expectedSpread.end(), spreadOut));
  };
  launch(0, n, 4096); // a partial last group
  launch(0, n - 3, 1);
  launch(3, n - 3, 64);
  launch(0, 4096, 256);

  for (auto *allocation : {&*in, &*bins, &*least, &*spread})
    device->release(*allocation);
}
