// SPDX-License-Identifier: Apache-2.0
// Unit tests of the plain paths for masked vector accesses whose every lane is on
// (devices/cpu/FullMaskFastPaths.h): which accesses get one, and that launches through both paths
// compute what the host computes.
#include "devices/cpu/FullMaskFastPaths.h"
#include "devices/cpu/CpuDevice.h"

#include "CpuTestSupport.h"
#include "../Stencil.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"

#include <map>

using namespace loom::runtime;

// The benchmark's 2D stencil, with a border (masked loads), a conditional store (a masked store), and
// a copy (neither).
const std::string MaskedKernels = std::string(loom::test::StencilSource) + R"(
__kernel void positive_doubled(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  if (in[i] > 0)
    out[i] = 2 * in[i];
}
__kernel void copy(__global const float *in, __global float *out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
)";

namespace {

struct MaskedAccesses {
  unsigned loads = 0, stores = 0, plainVectorLoads = 0, plainVectorStores = 0;
};

MaskedAccesses countAccesses(llvm::Function &function) {
  MaskedAccesses counts;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst)) {
      counts.loads += intrinsic->getIntrinsicID() == llvm::Intrinsic::masked_load;
      counts.stores += intrinsic->getIntrinsicID() == llvm::Intrinsic::masked_store;
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      counts.plainVectorLoads += load->getType()->isVectorTy();
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      counts.plainVectorStores += store->getValueOperand()->getType()->isVectorTy();
    }
  }
  return counts;
}

} // namespace

TEST_CASE("every masked load and store gets a plain path for a full mask, and nothing else changes",
          "[unit][runtime][cpu]") {
  llvm::LLVMContext context;
  HostProgram program = lowerForHost(context, MaskedKernels.c_str());
  optimiseForHost(program);
  std::map<std::string, MaskedAccesses> before, after;
  std::map<std::string, unsigned> guarded;
  for (size_t k = 0; k < program.symbols.size(); ++k) {
    const std::string &name = program.kernels[k].name;
    before[name] = countAccesses(*program.module->getFunction(program.symbols[k]));
    guarded[name] = cpu::addFullMaskFastPaths(*program.module, {program.symbols[k]});
    after[name] = countAccesses(*program.module->getFunction(program.symbols[k]));
  }
  CHECK_FALSE(llvm::verifyModule(*program.module, &llvm::errs()));
  // The vectoriser made the stencil's neighbour loads and the conditional store masked.
  CHECK(before["stencil"].loads >= 4);
  CHECK(before["positive_doubled"].stores >= 1);
  for (const auto &[name, counts] : before) {
    INFO(name);
    CHECK(guarded[name] == counts.loads + counts.stores);
    // The masked accesses stay, for partial masks; each has a plain twin.
    CHECK(after[name].loads == counts.loads);
    CHECK(after[name].stores == counts.stores);
    CHECK(after[name].plainVectorLoads == counts.plainVectorLoads + counts.loads);
    CHECK(after[name].plainVectorStores == counts.plainVectorStores + counts.stores);
  }
  CHECK(guarded["copy"] == 0);
}

TEST_CASE("masked accesses with full and partial masks compute what the host computes", "[unit][runtime][cpu]") {
  TemporaryCacheDirectory cache;
  auto device = createCpuDevice();
  std::string log;
  auto program = device->buildFromSource(MaskedKernels, "", log);
  REQUIRE_OK(program);
  // Rows of 203: no vector of 8 or 16 lines up with a row, so borders fall inside vectors.
  const uint64_t width = 203, height = 37, n = width * height;
  auto in = device->allocate(n * sizeof(float)), out = device->allocate(n * sizeof(float));
  REQUIRE_OK(in);
  REQUIRE_OK(out);
  std::vector<int32_t> random(n);
  fillPseudoRandom(random.data(), n, 5, 20);
  auto *inValues = static_cast<float *>(in->host), *outValues = static_cast<float *>(out->host);
  for (uint64_t i = 0; i < n; ++i)
    inValues[i] = float(random[i]); // Small integers: the stencil's weights then give exact results.
  for (uint64_t rows : {1u, 37u}) {
    NDRange range;
    range.dims = 2;
    range.global = {width, height, 1};
    range.local = {width, rows, 1};
    std::fill(outValues, outValues + n, -1.0f);
    REQUIRE_OK(device->launch(**program, 0, {bufferArg(*in), bufferArg(*out), scalarArg(int32_t(width))}, range));
    unsigned wrong = 0;
    for (uint64_t y = 0; y < height; ++y)
      for (uint64_t x = 0; x < width; ++x)
        wrong += outValues[y * width + x] != loom::test::stencilAt(inValues, width, height, x, y);
    CHECK(wrong == 0);
  }

  // The conditional store leaves the elements whose input is not positive untouched.
  auto *ints = static_cast<int32_t *>(in->host), *results = static_cast<int32_t *>(out->host);
  std::copy(random.begin(), random.end(), ints);
  std::fill(results, results + n, 7);
  NDRange range;
  range.global = {n, 1, 1};
  range.local = {width, 1, 1};
  REQUIRE_OK(device->launch(**program, 1, {bufferArg(*in), bufferArg(*out)}, range));
  unsigned wrong = 0;
  for (uint64_t i = 0; i < n; ++i)
    wrong += results[i] != (ints[i] > 0 ? 2 * ints[i] : 7);
  CHECK(wrong == 0);
  device->release(*in);
  device->release(*out);
}
