//===- ExpandLinearIds.cpp - linear ids as sums of per-dimension ids ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function that may call get_global_linear_id() or get_local_linear_id(). After:
// each call is the OpenCL C formula over the per-dimension work-item functions, which the dataflow
// builder computes and its memory analysis reads: out[get_global_linear_id()] is as contiguous as
// out[get_global_id(0)] in a 1D range. Past the range's dimensions the sizes are 1 and the ids 0, so
// one formula serves every dimension count. Runs on the IR, before build-dataflow (a kernel with
// barriers has none left: formWorkGroupLoops replaced them).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/InstIterator.h"

namespace loom::hls {

void expandLinearIds(llvm::Function &kernel) {
  std::vector<std::pair<llvm::CallInst *, bool>> calls; // {call, global}
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (const llvm::Function *callee = call->getCalledFunction()) {
        if (callee->getName() == "_Z20get_global_linear_idv")
          calls.emplace_back(call, true);
        else if (callee->getName() == "_Z19get_local_linear_idv")
          calls.emplace_back(call, false);
      }
  llvm::Type *i64 = llvm::Type::getInt64Ty(kernel.getContext());
  for (auto [call, global] : calls) {
    // The builder carries the call's debug location to the calls it adds.
    llvm::IRBuilder<> b(call);
    auto workItemFunction = [&](const char *name, int dimension) { return askWorkItem(b, name, dimension, i64); };
    // ((id2 * size1) + id1) * size0 + id0, the ids counted from the global offset.
    llvm::Value *linear = nullptr;
    for (int d = 2; d >= 0; --d) {
      llvm::Value *id = global ? b.CreateSub(workItemFunction("_Z13get_global_idj", d),
                                             workItemFunction("_Z17get_global_offsetj", d))
                               : workItemFunction("_Z12get_local_idj", d);
      linear = linear ? b.CreateAdd(b.CreateMul(linear, workItemFunction(global ? "_Z15get_global_sizej"
                                                                                : "_Z14get_local_sizej",
                                                                         d)),
                                    id)
                      : id;
    }
    call->replaceAllUsesWith(b.CreateTrunc(linear, call->getType()));
    call->eraseFromParent();
  }
}

} // namespace loom::hls
