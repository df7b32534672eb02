//===- InlineIntoKernels.cpp - Helper functions inlined into their kernels ---===//
// SPDX-License-Identifier: Apache-2.0
//
// See InlineIntoKernels.h.
//===----------------------------------------------------------------------===//
#include "InlineIntoKernels.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace loom::frontend {

using namespace llvm;

bool isKernel(const Function &function) {
  return !function.isDeclaration() &&
         (function.getCallingConv() == CallingConv::SPIR_KERNEL || function.getMetadata("kernel_arg_addr_space"));
}

SmallVector<CallInst *, 8> callsOf(Function &function, ArrayRef<StringRef> callees) {
  SmallVector<CallInst *, 8> calls;
  for (Instruction &instruction : instructions(function))
    if (auto *call = dyn_cast<CallInst>(&instruction))
      if (const Function *callee = call->getCalledFunction(); callee && is_contained(callees, callee->getName()))
        calls.push_back(call);
  return calls;
}

void inlineIntoKernels(Module &module, ArrayRef<StringRef> callees) {
  SetVector<Function *> helpers;
  for (Function &function : module)
    if (!function.isDeclaration() && !isKernel(function) && !callsOf(function, callees).empty())
      helpers.insert(&function);
  for (size_t i = 0; i < helpers.size(); ++i)
    for (User *user : helpers[i]->users())
      if (auto *call = dyn_cast<CallBase>(user); call && !isKernel(*call->getFunction()))
        helpers.insert(call->getFunction());
  bool inlined = true;
  while (inlined) {
    inlined = false;
    for (Function *helper : helpers)
      for (User *user : make_early_inc_range(helper->users()))
        if (auto *call = dyn_cast<CallBase>(user); call && isKernel(*call->getFunction())) {
          InlineFunctionInfo info;
          inlined |= InlineFunction(*call, info).isSuccess();
        }
  }
  for (Function *helper : helpers)
    helper->deleteBody();
}

} // namespace loom::frontend
