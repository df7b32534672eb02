//===- WorkItemFunctions.cpp - The passes' questions about work-item functions -===//
// SPDX-License-Identifier: Apache-2.0
//
// The IR passes read and add calls to OpenCL C's work-item functions (get_global_id and kin) by
// their mangled names, declared the way Clang declares them so that the dataflow builder and
// LLVM's own passes treat an added call like one the kernel wrote.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace loom::hls {

bool usesWorkItemIds(const llvm::Function &kernel) {
  for (const llvm::BasicBlock &block : kernel)
    for (const llvm::Instruction &inst : block)
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (const llvm::Function *callee = call->getCalledFunction()) {
          llvm::StringRef name = callee->getName();
          for (const char *id : {"get_global_id", "get_local_id", "get_group_id", "get_global_linear_id",
                                 "get_local_linear_id"})
            if (name.contains(id))
              return true;
        }
  return false;
}

llvm::Value *askWorkItem(llvm::IRBuilder<> &b, llvm::StringRef name, int dimension, llvm::Type *result) {
  llvm::Module &module = *b.GetInsertBlock()->getModule();
  llvm::SmallVector<llvm::Type *, 1> params;
  llvm::SmallVector<llvm::Value *, 1> args;
  if (dimension >= 0) {
    params.push_back(b.getInt32Ty());
    args.push_back(b.getInt32(dimension));
  }
  llvm::FunctionCallee callee = module.getOrInsertFunction(name, llvm::FunctionType::get(result, params, false));
  // What Clang declares them with: the answers unused get deleted.
  if (auto *function = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    function->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    function->setDoesNotAccessMemory();
    function->setDoesNotThrow();
    function->addFnAttr(llvm::Attribute::WillReturn);
  }
  llvm::CallInst *call = b.CreateCall(callee, args);
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

} // namespace loom::hls
