//===- VectorizeWorkItems.cpp - num_simd_work_items: N work-items a cycle ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: an NDRange kernel with Intel's num_simd_work_items(N) describes one work-item, and its
// pipeline takes one work-item a cycle: a scalar STREAM triad moves 12 bytes a cycle of a memory
// that serves 128. After: the kernel's body is N lanes in a row, lane k being the work-item k
// places further along dimension 0 (get_global_id(0) + k, get_local_id(0) + k; the frontend checked
// that N divides the work-group's first size, so the lanes share a work-group and everything else
// they ask), and the work-item generator steps dimension 0 by N (simdWorkItemsOf). OpenCL leaves
// work-items unordered, so each lane's memory accesses carry scoped alias metadata saying they never
// meet another lane's: nothing but data orders the lanes, and combine-adjacent-accesses joins their
// neighbouring accesses into one wide access (the triad's three streams, 64 bytes a cycle each).
// Runs on the IR, first.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace loom::hls {
namespace {

/// The work-item functions a lane offsets, by their mangled names: the ids along dimension 0.
constexpr llvm::StringLiteral LaneFunctions[] = {"_Z13get_global_idj", "_Z12get_local_idj"};

/// The call's work-item function among LaneFunctions asked about dimension 0, or -1.
int laneFunctionOf(const llvm::Instruction &inst) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || call->arg_size() != 1)
    return -1;
  const auto *dimension = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
  if (!dimension || !dimension->isZero())
    return -1;
  for (unsigned f = 0; f < std::size(LaneFunctions); ++f)
    if (callee->getName() == LaneFunctions[f])
      return int(f);
  return -1;
}

/// Marks a lane's memory accesses until the lanes are inlined (inlining copies the scoped alias
/// metadata of what it inlines, so the scopes are attached afterwards).
constexpr llvm::StringLiteral LaneMetadata = "loom.lane";

/// Lane `lane` of the kernel: its body as a function that takes the kernel's arguments and then the
/// first lane's value of each LaneFunctions entry, with its memory accesses marked LaneMetadata.
llvm::Function *cloneLane(llvm::Function &kernel, unsigned lane) {
  llvm::LLVMContext &context = kernel.getContext();
  llvm::Type *id = llvm::Type::getInt64Ty(context);
  std::vector<llvm::Type *> parameters(kernel.getFunctionType()->param_begin(),
                                       kernel.getFunctionType()->param_end());
  parameters.insert(parameters.end(), std::size(LaneFunctions), id);
  auto *clone = llvm::Function::Create(llvm::FunctionType::get(kernel.getReturnType(), parameters, false),
                                       llvm::GlobalValue::InternalLinkage,
                                       kernel.getName() + ".lane" + llvm::Twine(lane), kernel.getParent());
  llvm::ValueToValueMapTy map;
  for (llvm::Argument &arg : kernel.args()) {
    clone->getArg(arg.getArgNo())->setName(arg.getName());
    map[&arg] = clone->getArg(arg.getArgNo());
  }
  llvm::SmallVector<llvm::ReturnInst *, 4> returns;
  llvm::CloneFunctionInto(clone, &kernel, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  clone->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  // A struct passed by value stays the kernel's argument (inlining would copy it for each lane); a
  // restrict argument stays the kernel's to say so.
  for (unsigned i = 0; i < kernel.arg_size(); ++i) {
    clone->removeParamAttr(i, llvm::Attribute::ByVal);
    clone->removeParamAttr(i, llvm::Attribute::NoAlias);
  }

  // The lane's ids, made in the entry block at their first use.
  llvm::Value *ids[std::size(LaneFunctions)] = {};
  for (llvm::BasicBlock &block : *clone)
    for (llvm::Instruction &inst : llvm::make_early_inc_range(block)) {
      if (const int f = laneFunctionOf(inst); f >= 0) {
        if (!ids[f])
          ids[f] = llvm::IRBuilder<>(&*clone->getEntryBlock().getFirstInsertionPt()).CreateAdd(clone->getArg(kernel.arg_size() + f),
                                                        llvm::ConstantInt::get(id, lane), inst.getName() + ".lane");
        llvm::IRBuilder<> builder(&inst);
        inst.replaceAllUsesWith(builder.CreateZExtOrTrunc(ids[f], inst.getType()));
        inst.eraseFromParent();
      } else if (inst.mayReadOrWriteMemory()) {
        inst.setMetadata(LaneMetadata, llvm::MDNode::get(context, llvm::ConstantAsMetadata::get(
                                                                       llvm::ConstantInt::get(id, lane))));
      }
    }
  return clone;
}

} // namespace

void vectorizeWorkItems(llvm::Function &kernel) {
  const unsigned lanes = simdWorkItemsOf(kernel);
  if (lanes <= 1)
    return;
  // The lane functions the kernel calls (only those: get_local_id makes the launch pass local sizes).
  llvm::Function *used[std::size(LaneFunctions)] = {};
  for (llvm::BasicBlock &block : kernel)
    for (llvm::Instruction &inst : block)
      if (const int f = laneFunctionOf(inst); f >= 0)
        used[f] = llvm::cast<llvm::CallInst>(inst).getCalledFunction();
  llvm::LLVMContext &context = kernel.getContext();
  std::vector<llvm::Function *> laneFunctions;
  for (unsigned lane = 0; lane < lanes; ++lane)
    laneFunctions.push_back(cloneLane(kernel, lane));

  // The kernel's new body asks for the first lane's ids, then runs the lanes in a row.
  for (llvm::BasicBlock &block : kernel)
    block.dropAllReferences();
  while (!kernel.empty())
    kernel.begin()->eraseFromParent();
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "lanes", &kernel));
  if (llvm::DISubprogram *subprogram = kernel.getSubprogram())
    builder.SetCurrentDebugLocation(llvm::DILocation::get(context, subprogram->getLine(), 0, subprogram));
  std::vector<llvm::Value *> arguments;
  for (llvm::Argument &arg : kernel.args())
    arguments.push_back(&arg);
  for (unsigned f = 0; f < std::size(LaneFunctions); ++f)
    arguments.push_back(used[f] ? static_cast<llvm::Value *>(builder.CreateCall(used[f], {builder.getInt32(0)}))
                                : llvm::PoisonValue::get(builder.getInt64Ty()));
  std::vector<llvm::CallInst *> calls;
  for (llvm::Function *lane : laneFunctions)
    calls.push_back(builder.CreateCall(lane, arguments));
  builder.CreateRetVoid();
  // A lane that cannot be inlined stays a call, which build-dataflow reports at its line.
  for (llvm::CallInst *call : calls) {
    llvm::InlineFunctionInfo info;
    llvm::InlineFunction(*call, info);
  }
  for (llvm::Function *lane : laneFunctions)
    if (lane->use_empty())
      lane->eraseFromParent();

  // Each lane's accesses in a scope of their own, apart from the other lanes'.
  llvm::MDBuilder metadata(context);
  llvm::MDNode *domain = metadata.createAnonymousAliasScopeDomain("loom.simd_work_items");
  std::vector<llvm::Metadata *> scopes;
  for (unsigned lane = 0; lane < lanes; ++lane)
    scopes.push_back(metadata.createAnonymousAliasScope(domain, ("lane " + llvm::Twine(lane)).str()));
  for (llvm::BasicBlock &block : kernel)
    for (llvm::Instruction &inst : block) {
      const llvm::MDNode *mark = inst.getMetadata(LaneMetadata);
      if (!mark)
        continue;
      const uint64_t lane = llvm::mdconst::extract<llvm::ConstantInt>(mark->getOperand(0))->getZExtValue();
      std::vector<llvm::Metadata *> others = scopes;
      others.erase(others.begin() + lane);
      inst.setMetadata(llvm::LLVMContext::MD_alias_scope,
                       llvm::MDNode::concatenate(inst.getMetadata(llvm::LLVMContext::MD_alias_scope),
                                                 llvm::MDNode::get(context, scopes[lane])));
      inst.setMetadata(llvm::LLVMContext::MD_noalias,
                       llvm::MDNode::concatenate(inst.getMetadata(llvm::LLVMContext::MD_noalias),
                                                 llvm::MDNode::get(context, others)));
      inst.setMetadata(LaneMetadata, nullptr);
    }
}

} // namespace loom::hls
