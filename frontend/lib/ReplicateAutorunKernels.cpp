//===- ReplicateAutorunKernels.cpp - Intel's autorun kernels and their compute units ===//
// SPDX-License-Identifier: Apache-2.0
//
// See ProgramScopeFifos.h. Before: kernels that may carry `autorun()` and `num_compute_units(X,Y,Z)`
// in their vendor attributes and call get_compute_id (themselves or through helpers). After: an
// autorun kernel with N > 1 compute units is N kernels `NAME_cu0` .. `NAME_cu<N-1>`, each with
// its own compute id folded into its code (so a channel array indexed by it names one channel per
// copy, which bindProgramScopeFifos then binds) and without num_compute_units, which hls/ would
// otherwise read as copies of an NDRange kernel's hardware; every other kernel's get_compute_id
// is 0, its only compute unit as a program sees it.
//===----------------------------------------------------------------------===//
#include "ProgramScopeFifos.h"

#include "InlineIntoKernels.h"
#include "VendorExtensions.h"

#include "loom/frontend/SourceLocation.h"
#include "loom/lowering/SimplifyFunction.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <array>

namespace loom::frontend {
namespace {

using namespace llvm;

constexpr StringLiteral ComputeIdFunction = "get_compute_id";

Error errorAt(const Instruction &at, const Twine &message) {
  return createStringError(inconvertibleErrorCode(), (diagnosticPrefix(at) + "error: " + message).str());
}

/// num_compute_units' sizes per dimension (1 where not given).
std::array<uint64_t, 3> computeUnitsOf(const Function &kernel) {
  std::array<uint64_t, 3> units{1, 1, 1};
  for (const std::string &attribute : vendorAttributesOf(kernel))
    if (auto sizes = argumentsOf(attribute, "num_compute_units"))
      std::copy_n(sizes->begin(), std::min<size_t>(sizes->size(), 3), units.begin());
  return units;
}

/// Drops num_compute_units from the kernel's vendor attributes: its copies are kernels of their own.
void dropComputeUnits(Function &kernel) {
  SmallVector<Metadata *, 4> kept;
  for (const std::string &attribute : vendorAttributesOf(kernel))
    if (!argumentsOf(attribute, "num_compute_units"))
      kept.push_back(MDString::get(kernel.getContext(), attribute));
  kernel.setMetadata(VendorAttributesMetadata, MDNode::get(kernel.getContext(), kept));
}

/// Makes every get_compute_id call in `kernel` the compute id `id` (0 for a dimension past the third).
void foldComputeId(Function &kernel, const std::array<uint64_t, 3> &id) {
  for (CallInst *call : callsOf(kernel, {ComputeIdFunction})) {
    IRBuilder<> builder(call);
    auto *type = cast<IntegerType>(call->getType());
    Value *dimension = builder.CreateZExtOrTrunc(call->getArgOperand(0), builder.getInt32Ty());
    Value *value = ConstantInt::get(type, 0);
    for (unsigned d = 0; d < 3; ++d)
      value = builder.CreateSelect(builder.CreateICmpEQ(dimension, builder.getInt32(d)), ConstantInt::get(type, id[d]),
                                   value);
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
}

bool isAutorun(const Function &kernel) { return is_contained(vendorAttributesOf(kernel), "autorun()"); }

/// The autorun kernel `kernel` as `units` kernels, one per compute unit.
SmallVector<Function *, 16> replicate(Function &kernel, const std::array<uint64_t, 3> &units) {
  SmallVector<Function *, 16> copies;
  const uint64_t count = units[0] * units[1] * units[2];
  const std::string name = kernel.getName().str();
  for (uint64_t unit = 0; unit < count; ++unit) {
    Function *copy = &kernel;
    if (unit + 1 < count) { // The last unit keeps the original.
      ValueToValueMapTy map;
      copy = CloneFunction(&kernel, map);
    }
    copy->setName(name + "_cu" + std::to_string(unit));
    dropComputeUnits(*copy);
    foldComputeId(*copy, {unit % units[0], unit / units[0] % units[1], unit / (units[0] * units[1])});
    copies.push_back(copy);
  }
  return copies;
}

} // namespace

Error replicateAutorunKernels(Module &module) {
  SmallVector<Function *, 8> kernels, autorun;
  for (Function &function : module)
    if (isKernel(function))
      kernels.push_back(&function);
  for (Function *kernel : kernels)
    if (isAutorun(*kernel))
      autorun.push_back(kernel);
  if (!module.getFunction(ComputeIdFunction) && autorun.empty())
    return Error::success();
  // Compute ids are per kernel, and an autorun kernel's printf has no command to print with.
  inlineIntoKernels(module, {ComputeIdFunction, "printf"});
  SmallVector<Function *, 16> changed;
  for (Function *kernel : kernels) {
    const std::array<uint64_t, 3> units = computeUnitsOf(*kernel);
    const SmallVector<CallInst *, 8> ids = callsOf(*kernel, {ComputeIdFunction});
    if (!is_contained(autorun, kernel)) {
      if (!ids.empty() && units[0] * units[1] * units[2] > 1)
        return errorAt(*ids.front(), "get_compute_id in kernel '" + kernel->getName() +
                                         "', which is not autorun: Loom numbers the copies of autorun kernels; an "
                                         "NDRange kernel's compute units share its work-groups instead");
      if (!ids.empty()) {
        foldComputeId(*kernel, {0, 0, 0});
        changed.push_back(kernel);
      }
      continue;
    }
    if (const SmallVector<CallInst *, 8> prints = callsOf(*kernel, {"printf"}); !prints.empty())
      return errorAt(*prints.front(), "autorun kernel '" + kernel->getName() +
                                          "' calls printf: it runs outside every command, so no command could print "
                                          "its output");
    if (units[0] * units[1] * units[2] > 1) {
      append_range(changed, replicate(*kernel, units));
    } else if (!ids.empty()) {
      foldComputeId(*kernel, {0, 0, 0});
      changed.push_back(kernel);
    }
  }
  // What the compute ids made constant (a channel array's index among it) folds.
  for (Function *kernel : changed)
    lowering::simplifyFunction(*kernel);
  return Error::success();
}

} // namespace loom::frontend
