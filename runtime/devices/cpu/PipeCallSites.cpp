//===- PipeCallSites.cpp - Where a kernel's pipe calls are in its source --===//
// SPDX-License-Identifier: Apache-2.0
//
// See PipeCallSites.h.
//===----------------------------------------------------------------------===//
#include "devices/cpu/PipeCallSites.h"
#include "devices/cpu/PipeOperations.h"

#include "loom/frontend/SourceLocation.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

namespace loom::runtime::cpu {

std::vector<std::string> numberPipeCallSites(llvm::Module &module) {
  std::vector<std::string> sites;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || !isWaitingPipeOperation(function.getName()))
      continue;
    for (llvm::User *user : function.users())
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == &function) {
        sites.push_back(frontend::sourceLocation(*call));
        const unsigned last = call->arg_size() - 1;
        call->setArgOperand(last, llvm::ConstantInt::get(call->getArgOperand(last)->getType(), sites.size()));
      }
  }
  return sites;
}

} // namespace loom::runtime::cpu
