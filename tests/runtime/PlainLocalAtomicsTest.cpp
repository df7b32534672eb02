// SPDX-License-Identifier: Apache-2.0
// Unit tests of the CPU device's plain atomics on __local memory (devices/cpu/PlainLocalAtomics.h):
// which atomics stay, and that a __local histogram and a compare-exchange loop compute what the host
// computes.
#include "devices/cpu/CpuDevice.h"

#include "CpuTestSupport.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <map>

using namespace loom::runtime;

// A __local histogram merged into a __global one, and a __local maximum found by compare-exchange.
const std::string HistogramAndLargest = R"(
__kernel void histogram(__global const uint *in, __global uint *out, __local uint *bins) {
  for (uint i = get_local_id(0); i < 64; i += get_local_size(0))
    bins[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&bins[in[get_global_id(0)] % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 64; i += get_local_size(0))
    atomic_add(&out[i], bins[i]);
}
__kernel void largest(__global const int *in, __global int *out) {
  __local int best;
  if (get_local_id(0) == 0)
    best = in[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  int mine = in[get_global_id(0)], seen = best;
  while (mine > seen) {
    int old = atomic_cmpxchg(&best, seen, mine);
    if (old == seen)
      break;
    seen = old;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_max(out, best);
}
)";

TEST_CASE("atomics on __local memory become plain accesses, atomics on other memory stay", "[unit][runtime][cpu]") {
  llvm::LLVMContext context;
  HostProgram program = lowerForHost(context, (HistogramAndLargest + R"(
__kernel void through_generic(__global atomic_int *out, __local atomic_int *count, int pick) {
  if (get_local_id(0) == 0)
    atomic_init(count, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add(pick ? (volatile __generic atomic_int *)count : (volatile __generic atomic_int *)out, 1);
})").c_str(), "-cl-std=CL2.0");
  std::map<std::string, unsigned> atomics;
  for (const loom::frontend::KernelInfo &kernel : program.kernels)
    for (llvm::Instruction &inst : llvm::instructions(*program.module->getFunction(kernel.name + ".loom_wi")))
      atomics[kernel.name] += llvm::isa<llvm::AtomicRMWInst>(inst) || llvm::isa<llvm::AtomicCmpXchgInst>(inst);
  // What is left: the update of the __global output.
  CHECK(atomics["histogram"] == 1);
  CHECK(atomics["largest"] == 1);
  // A generic pointer may point at global memory: its atomic stays.
  CHECK(atomics["through_generic"] == 1);
}

TEST_CASE("plain __local atomics compute what the host computes", "[unit][runtime][cpu]") {
  TemporaryCacheDirectory cache;
  auto device = createCpuDevice();
  std::string log;
  auto program = device->buildFromSource(HistogramAndLargest, "", log);
  REQUIRE_OK(program);
  const size_t n = 65536;
  auto in = device->allocate(n * sizeof(uint32_t)), out = device->allocate(64 * sizeof(uint32_t));
  REQUIRE_OK(in);
  REQUIRE_OK(out);
  auto *values = static_cast<int32_t *>(in->host);
  fillPseudoRandom(values, n, 11, 4);
  auto *outValues = static_cast<int32_t *>(out->host);
  for (uint64_t local : {1u, 64u, 256u, 4096u}) {
    NDRange range;
    range.global = {n, 1, 1};
    range.local = {local, 1, 1};
    std::fill(outValues, outValues + 64, 0);
    ArgValue bins;
    bins.kind = ArgValue::Kind::Local;
    bins.localBytes = 64 * sizeof(uint32_t);
    REQUIRE_OK(device->launch(**program, 0, {bufferArg(*in), bufferArg(*out), bins}, range));
    std::vector<int32_t> expected(64, 0);
    for (size_t i = 0; i < n; ++i)
      ++expected[uint32_t(values[i]) % 64];
    CHECK(std::equal(expected.begin(), expected.end(), outValues));

    outValues[0] = INT32_MIN;
    REQUIRE_OK(device->launch(**program, 1, {bufferArg(*in), bufferArg(*out)}, range));
    CHECK(outValues[0] == *std::max_element(values, values + n));
  }
  device->release(*in);
  device->release(*out);
}
