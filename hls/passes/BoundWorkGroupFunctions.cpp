//===- BoundWorkGroupFunctions.cpp - the ranges of work-group sizes and ids -===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: calls of the work-group functions, size_t results of unknown range. After: each call of
// get_local_size, get_enqueued_local_size, the last group's size (LastGroupSize), get_local_id and
// get_work_dim carries !range metadata: a group has at most as many work-items as its
// reqd_work_group_size, its storage across barriers (formWorkGroupLoops' maxItems) or the board's
// MaxWorkGroupItems, which the board device reports and its launches enforce. ScalarEvolution then
// bounds the arithmetic on them and the loops over a group's work-items, and the graph builder
// computes what fits fewer bits in as many (build/NarrowArithmetic.cpp): in hardware every bit is a
// LUT or a register along the pipeline, and a product of two sizes takes 1 DSP instead of 16.
// Runs on the IR, last before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "loom/hls/HardwareKernel.h"
#include "loom/lowering/WorkItemFunction.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/MDBuilder.h"

namespace loom::hls {

void boundWorkGroupFunctions(llvm::Function &kernel, unsigned maxGroupItems) {
  const auto required = lowering::requiredGroupSize(kernel);
  const uint64_t maxItems = required ? (*required)[0] * (*required)[1] * (*required)[2]
                            : maxGroupItems ? maxGroupItems
                                            : MaxWorkGroupItems;
  struct Bound {
    llvm::StringRef name;
    uint64_t low, high; ///< [low, high)
  };
  const Bound bounds[] = {{"_Z14get_local_sizej", 1, maxItems + 1},
                          {"_Z23get_enqueued_local_sizej", 1, maxItems + 1},
                          {LastGroupSize, 1, maxItems + 1},
                          {"_Z12get_local_idj", 0, maxItems},
                          {"_Z12get_work_dimv", 1, 4}};
  llvm::MDBuilder metadata(kernel.getContext());
  for (llvm::Instruction &inst : llvm::instructions(kernel)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee || !call->getType()->isIntegerTy())
      continue;
    const unsigned width = call->getType()->getIntegerBitWidth();
    for (const Bound &bound : bounds)
      if (callee->getName() == bound.name)
        call->setMetadata(llvm::LLVMContext::MD_range,
                          metadata.createRange(llvm::APInt(width, bound.low), llvm::APInt(width, bound.high)));
  }
}

} // namespace loom::hls
