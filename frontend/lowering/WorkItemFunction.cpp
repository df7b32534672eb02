//===- WorkItemFunction.cpp - A kernel as a function of one work-item -----===//
// SPDX-License-Identifier: Apache-2.0
//
// See WorkItemFunction.h. The work-item builtins become arithmetic on the parameters (a global id is
// group * local size + local id + offset), so after inlining each back end sees plain loops.
//===----------------------------------------------------------------------===//
#include "loom/lowering/WorkItemFunction.h"
#include "loom/lowering/BarrierRegions.h"
#include "loom/frontend/SourceLocation.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <functional>
#include <optional>
#include <vector>

namespace loom::lowering {
namespace {

using namespace llvm;
namespace Param = WorkItemParam;

Error loweringError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

enum class Builtin {
  GlobalId,
  LocalId,
  GroupId,
  GlobalSize,
  LocalSize,
  EnqueuedLocalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
  SubGroupSize,
  MaxSubGroupSize,
  NumSubGroups,
  EnqueuedNumSubGroups,
  SubGroupId,
  SubGroupLocalId,
};

std::optional<Builtin> workItemBuiltin(StringRef name) {
  return StringSwitch<std::optional<Builtin>>(name)
      .Case("_Z13get_global_idj", Builtin::GlobalId)
      .Case("_Z12get_local_idj", Builtin::LocalId)
      .Case("_Z12get_group_idj", Builtin::GroupId)
      .Case("_Z15get_global_sizej", Builtin::GlobalSize)
      .Case("_Z14get_local_sizej", Builtin::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", Builtin::EnqueuedLocalSize)
      .Case("_Z14get_num_groupsj", Builtin::NumGroups)
      .Case("_Z17get_global_offsetj", Builtin::GlobalOffset)
      .Case("_Z12get_work_dimv", Builtin::WorkDim)
      .Case("_Z20get_global_linear_idv", Builtin::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", Builtin::LocalLinearId)
      .Case("_Z18get_sub_group_sizev", Builtin::SubGroupSize)
      .Case("_Z22get_max_sub_group_sizev", Builtin::MaxSubGroupSize)
      .Case("_Z18get_num_sub_groupsv", Builtin::NumSubGroups)
      .Case("_Z27get_enqueued_num_sub_groupsv", Builtin::EnqueuedNumSubGroups)
      .Case("_Z16get_sub_group_idv", Builtin::SubGroupId)
      .Case("_Z22get_sub_group_local_idv", Builtin::SubGroupLocalId)
      .Default(std::nullopt);
}

/// A call reachable from `function` to a function already on the call stack (recursion, which
/// OpenCL C forbids but Clang accepts), or null. Inlining such a call would never end.
const CallBase *recursiveCall(const Function &function) {
  SmallVector<const Function *, 8> stack;
  DenseSet<const Function *> visited{&function};
  std::function<const CallBase *(const Function &)> visit = [&](const Function &caller) -> const CallBase * {
    stack.push_back(&caller);
    for (const Instruction &instruction : instructions(caller))
      if (const auto *call = dyn_cast<CallBase>(&instruction))
        if (const Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration()) {
          if (is_contained(stack, callee))
            return call;
          if (visited.insert(callee).second)
            if (const CallBase *found = visit(*callee))
              return found;
        }
    stack.pop_back();
    return nullptr;
  };
  return visit(function);
}

/// Inlines every call to a defined function, so work-item builtins in helpers become visible.
Error inlineCallees(Function &function, StringRef kernelName) {
  if (const CallBase *call = recursiveCall(function))
    return loweringError(frontend::diagnosticPrefix(*call) + "error: '" + call->getCalledFunction()->getName() +
                         "' is called recursively from kernel '" + kernelName + "', which OpenCL C forbids");
  // Without recursion inlining ends; the bound only stops a call tree that doubles at every level.
  for (unsigned round = 0; round < 100000; ++round) {
    CallBase *call = nullptr;
    for (Instruction &instruction : instructions(function))
      if (auto *candidate = dyn_cast<CallBase>(&instruction))
        if (Function *callee = candidate->getCalledFunction())
          if (!callee->isDeclaration() && callee != &function) {
            call = candidate;
            break;
          }
    if (!call)
      return Error::success();
    const std::string at = frontend::diagnosticPrefix(*call);
    std::string calleeName = call->getCalledFunction()->getName().str();
    InlineFunctionInfo info;
    InlineResult result = InlineFunction(*call, info);
    if (!result.isSuccess())
      return loweringError(at + "error: cannot inline '" + calleeName + "' into kernel '" + kernelName +
                           "': " + result.getFailureReason());
  }
  return loweringError("kernel '" + kernelName + "' makes more than 100000 calls once its helpers are inlined");
}

/// Replaces the work-item builtin calls in `function` by its extra parameters (the sub-group ones
/// only for a `subGroupSize` above 0).
void replaceBuiltins(Function &function, unsigned firstExtra, uint64_t subGroupSize) {
  LLVMContext &context = function.getContext();
  Type *i64 = Type::getInt64Ty(context);
  auto param = [&](unsigned extra) -> Value * { return function.getArg(firstExtra + extra); };

  std::vector<std::pair<CallInst *, Builtin>> calls;
  for (Instruction &instruction : instructions(function))
    if (auto *call = dyn_cast<CallInst>(&instruction))
      if (Function *callee = call->getCalledFunction())
        if (auto builtin = workItemBuiltin(callee->getName());
            builtin && (subGroupSize || *builtin < Builtin::SubGroupSize))
          calls.emplace_back(call, *builtin);

  for (auto &[call, builtin] : calls) {
    IRBuilder<> b(call);
    // One value per dimension, and what the builtin returns for a dimension out of range.
    auto perDim = [&](auto valueOf, uint64_t outOfRange) -> Value * {
      Value *dim = call->getArgOperand(0);
      if (auto *constant = dyn_cast<ConstantInt>(dim)) {
        uint64_t d = constant->getZExtValue();
        return d < 3 ? valueOf(unsigned(d)) : ConstantInt::get(i64, outOfRange);
      }
      Value *result = ConstantInt::get(i64, outOfRange);
      for (int d = 2; d >= 0; --d)
        result = b.CreateSelect(b.CreateICmpEQ(dim, ConstantInt::get(dim->getType(), d)),
                                valueOf(unsigned(d)), result);
      return result;
    };
    auto localLinearId = [&] { return emitLocalLinearId(b, function, firstExtra); };
    auto groupItems = [&] { return emitGroupItems(b, function, firstExtra); };
    auto enqueuedItems = [&] {
      return b.CreateMul(b.CreateMul(param(Param::EnqueuedLocalSize), param(Param::EnqueuedLocalSize + 1)),
                         param(Param::EnqueuedLocalSize + 2));
    };
    auto globalId = [&](unsigned d) {
      return b.CreateAdd(b.CreateAdd(b.CreateMul(param(Param::GroupId + d), param(Param::EnqueuedLocalSize + d)),
                                     param(Param::LocalId + d)),
                         param(Param::GlobalOffset + d));
    };
    Value *value = nullptr;
    switch (builtin) {
    case Builtin::GlobalId:
      value = perDim(globalId, 0);
      break;
    case Builtin::LocalId:
      value = perDim([&](unsigned d) { return param(Param::LocalId + d); }, 0);
      break;
    case Builtin::GroupId:
      value = perDim([&](unsigned d) { return param(Param::GroupId + d); }, 0);
      break;
    case Builtin::GlobalSize:
      value = perDim([&](unsigned d) { return param(Param::GlobalSize + d); }, 1);
      break;
    case Builtin::LocalSize:
      value = perDim([&](unsigned d) { return param(Param::LocalSize + d); }, 1);
      break;
    case Builtin::EnqueuedLocalSize:
      value = perDim([&](unsigned d) { return param(Param::EnqueuedLocalSize + d); }, 1);
      break;
    case Builtin::NumGroups:
      value = perDim([&](unsigned d) { return param(Param::NumGroups + d); }, 1);
      break;
    case Builtin::GlobalOffset:
      value = perDim([&](unsigned d) { return param(Param::GlobalOffset + d); }, 0);
      break;
    case Builtin::WorkDim:
      value = param(Param::WorkDim);
      break;
    case Builtin::GlobalLinearId: {
      auto linear = [&](unsigned d) { return b.CreateSub(globalId(d), param(Param::GlobalOffset + d)); };
      value = b.CreateAdd(linear(0),
                          b.CreateMul(param(Param::GlobalSize), b.CreateAdd(linear(1), b.CreateMul(param(Param::GlobalSize + 1), linear(2)))));
      break;
    }
    case Builtin::LocalLinearId:
      value = localLinearId();
      break;
    // Sub-groups are runs of subGroupSize work-items in local linear id order; the last may be short.
    case Builtin::SubGroupSize:
      value = b.CreateBinaryIntrinsic(Intrinsic::umin, b.getInt64(subGroupSize),
                                      b.CreateSub(groupItems(), b.CreateAnd(localLinearId(), ~(subGroupSize - 1))));
      break;
    // The dispatch's, the same in a partial group (the spec: invariant for the NDRange).
    case Builtin::MaxSubGroupSize:
      value = b.CreateBinaryIntrinsic(Intrinsic::umin, b.getInt64(subGroupSize), enqueuedItems());
      break;
    case Builtin::NumSubGroups:
      value = b.CreateUDiv(b.CreateAdd(groupItems(), b.getInt64(subGroupSize - 1)), b.getInt64(subGroupSize));
      break;
    case Builtin::EnqueuedNumSubGroups:
      value = b.CreateUDiv(b.CreateAdd(enqueuedItems(), b.getInt64(subGroupSize - 1)), b.getInt64(subGroupSize));
      break;
    case Builtin::SubGroupId:
      value = b.CreateUDiv(localLinearId(), b.getInt64(subGroupSize));
      break;
    case Builtin::SubGroupLocalId:
      value = b.CreateURem(localLinearId(), b.getInt64(subGroupSize));
      break;
    }
    call->replaceAllUsesWith(b.CreateZExtOrTrunc(value, call->getType()));
    call->eraseFromParent();
  }
}

} // namespace

Value *emitLocalLinearId(IRBuilder<> &b, Function &workItem, unsigned firstExtra) {
  auto param = [&](unsigned extra) -> Value * { return workItem.getArg(firstExtra + extra); };
  return b.CreateAdd(param(Param::LocalId),
                     b.CreateMul(param(Param::LocalSize),
                                 b.CreateAdd(param(Param::LocalId + 1),
                                             b.CreateMul(param(Param::LocalSize + 1), param(Param::LocalId + 2)))),
                     "local.linear");
}

Value *emitGroupItems(IRBuilder<> &b, Function &workItem, unsigned firstExtra) {
  auto param = [&](unsigned extra) -> Value * { return workItem.getArg(firstExtra + extra); };
  return b.CreateMul(b.CreateMul(param(Param::LocalSize), param(Param::LocalSize + 1)), param(Param::LocalSize + 2),
                     "group.items");
}

Value *emitLastGroupSize(IRBuilder<> &b, Value *groups, Value *enqueued, Value *global) {
  return b.CreateSub(global, b.CreateMul(b.CreateSub(groups, b.getInt64(1)), enqueued), "last.group.size");
}

Value *emitGroupSize(IRBuilder<> &b, Value *group, Value *groups, Value *enqueued, Value *lastSize) {
  return b.CreateSelect(b.CreateICmpEQ(group, b.CreateSub(groups, b.getInt64(1))), lastSize, enqueued, "group.size");
}

bool hasUniformWorkGroups(const Function &kernel) {
  // Clang says "false" for OpenCL C 2.0 and later without -cl-uniform-work-group-size.
  return kernel.getFnAttribute("uniform-work-group-size").getValueAsString() != "false";
}

Optional<std::array<uint64_t, 3>> requiredGroupSize(const Function &kernel) {
  const MDNode *node = kernel.getMetadata("reqd_work_group_size");
  if (!node || node->getNumOperands() != 3)
    return None;
  std::array<uint64_t, 3> sizes{};
  for (unsigned d = 0; d < 3; ++d)
    sizes[d] = mdconst::extract<ConstantInt>(node->getOperand(d))->getZExtValue();
  return sizes;
}

bool callsFunction(const Function &function, StringRef callee) {
  for (const Instruction &instruction : instructions(function))
    if (const auto *call = dyn_cast<CallInst>(&instruction))
      if (const Function *called = call->getCalledFunction(); called && called->getName() == callee)
        return true;
  return false;
}

bool isWorkItemBuiltin(StringRef functionName) { return workItemBuiltin(functionName).has_value(); }

bool isSubGroupBuiltin(StringRef functionName) {
  const std::optional<Builtin> builtin = workItemBuiltin(functionName);
  return builtin && *builtin >= Builtin::SubGroupSize;
}

Expected<Function *> cloneWorkItemFunction(Function &kernel, unsigned subGroupSize, ArrayRef<Type *> backEndParams) {
  Module &module = *kernel.getParent();
  LLVMContext &context = module.getContext();
  Type *i64 = Type::getInt64Ty(context), *i32 = Type::getInt32Ty(context);
  SmallVector<Type *, 32> params(kernel.getFunctionType()->params().begin(),
                                 kernel.getFunctionType()->params().end());
  const unsigned firstExtra = params.size();
  params.append(Param::WorkDim, i64);
  params.push_back(i32); // WorkDim
  params.push_back(i32); // Resume
  params.append(backEndParams.begin(), backEndParams.end());
  auto *type = FunctionType::get(i32, params, false);
  Function *clone = Function::Create(type, GlobalValue::InternalLinkage, kernel.getName() + ".loom_wi", module);

  ValueToValueMapTy map;
  for (Argument &argument : kernel.args()) {
    map[&argument] = clone->getArg(argument.getArgNo());
    clone->getArg(argument.getArgNo())->setName(argument.getName());
  }
  SmallVector<ReturnInst *, 4> returns;
  CloneFunctionInto(clone, &kernel, map, CloneFunctionChangeType::LocalChangesOnly, returns);
  clone->setLinkage(GlobalValue::InternalLinkage);
  clone->setCallingConv(CallingConv::C);
  clone->clearMetadata();
  clone->removeFnAttr(Attribute::NoInline);
  clone->removeFnAttr(Attribute::OptimizeNone);
  // A kernel that never returns (an autorun kernel's `while (1)`) still has regions that return.
  clone->removeFnAttr(Attribute::NoReturn);
  clone->addFnAttr(Attribute::AlwaysInline);
  for (BasicBlock &block : *clone)
    if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator())) {
      ReturnInst::Create(context, ConstantInt::get(i32, FinishedRegion), ret);
      ret->eraseFromParent();
    }
  if (Error error = inlineCallees(*clone, kernel.getName()))
    return std::move(error);
  replaceBuiltins(*clone, firstExtra, subGroupSize);
  return clone;
}

CallInst *emitWorkItemCall(IRBuilder<> &b, Function &kernel, Function &workItem, ArrayRef<Value *> callArgs,
                           MutableArrayRef<Value *> values, std::array<Value *, 3> localId, Value *resume) {
  for (unsigned d = 0; d < 3; ++d)
    values[Param::LocalId + d] = localId[d];
  values[Param::Resume] = resume;
  SmallVector<Value *, 48> all(callArgs.begin(), callArgs.end());
  all.append(values.begin(), values.end());
  CallInst *call = b.CreateCall(&workItem, all);
  call->setCallingConv(workItem.getCallingConv());
  for (Argument &argument : kernel.args())
    if (argument.hasByValAttr())
      call->addParamAttr(argument.getArgNo(),
                         Attribute::getWithByValType(b.getContext(), argument.getParamByValType()));
  return call;
}

WorkItemLoopNest emitWorkItemLoops(IRBuilder<> &b, Function &kernel, Function &workItem, ArrayRef<Value *> callArgs,
                                   MutableArrayRef<Value *> values, Value *resume, const Twine &prefix,
                                   ArrayRef<Value *> bounds) {
  if (bounds.empty())
    bounds = values.slice(Param::LocalSize, 3);
  LLVMContext &context = b.getContext();
  Function *group = b.GetInsertBlock()->getParent();
  Type *i64 = b.getInt64Ty();
  auto block = [&](const char *name) { return BasicBlock::Create(context, prefix + name, group); };
  BasicBlock *zLoop = block("z.loop"), *yLoop = block("y.loop"), *xLoop = block("x.loop"), *yLatch = block("y.latch"),
             *zLatch = block("z.latch"), *done = block("done");
  Value *zero = ConstantInt::get(i64, 0), *one = ConstantInt::get(i64, 1);
  BasicBlock *before = b.GetInsertBlock();
  b.CreateBr(zLoop);

  b.SetInsertPoint(zLoop);
  PHINode *z = b.CreatePHI(i64, 2, "z");
  z->addIncoming(zero, before);
  b.CreateBr(yLoop);

  b.SetInsertPoint(yLoop);
  PHINode *y = b.CreatePHI(i64, 2, "y");
  y->addIncoming(zero, zLoop);
  b.CreateBr(xLoop);

  b.SetInsertPoint(xLoop);
  PHINode *x = b.CreatePHI(i64, 2, "x");
  x->addIncoming(zero, yLoop);
  WorkItemLoopNest nest;
  nest.call = emitWorkItemCall(b, kernel, workItem, callArgs, values, {x, y, z}, resume);
  Value *xNext = b.CreateAdd(x, one, "x.next", /*HasNUW=*/true);
  x->addIncoming(xNext, xLoop);
  nest.latches[0] = b.CreateCondBr(b.CreateICmpULT(xNext, bounds[0]), xLoop, yLatch);

  b.SetInsertPoint(yLatch);
  Value *yNext = b.CreateAdd(y, one, "y.next", true);
  y->addIncoming(yNext, yLatch);
  nest.latches[1] = b.CreateCondBr(b.CreateICmpULT(yNext, bounds[1]), yLoop, zLatch);

  b.SetInsertPoint(zLatch);
  Value *zNext = b.CreateAdd(z, one, "z.next", true);
  z->addIncoming(zNext, zLatch);
  nest.latches[2] = b.CreateCondBr(b.CreateICmpULT(zNext, bounds[2]), zLoop, done);

  b.SetInsertPoint(done);
  return nest;
}

} // namespace loom::lowering
