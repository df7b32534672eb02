//===- WorkItemLoops.cpp - Work-group functions with loops over the local ids ===//
// SPDX-License-Identifier: Apache-2.0
//
// For each kernel: the shared lowering's work-item function (loom/lowering/WorkItemFunction.h: the
// kernel cloned with the work-item values as parameters, everything it calls inlined), its __local
// variables moved into the per-thread scratch buffer, cut at its barriers, what crosses them placed
// in the group's context buffer; then a work-group function of z/y/x loops calling it. See
// WorkItemLoops.h for the before/after.
//===----------------------------------------------------------------------===//
#include "devices/cpu/WorkItemLoops.h"
#include "devices/cpu/AddressSpaceQueries.h"
#include "devices/cpu/GroupCollectives.h"
#include "devices/cpu/InnerLoopBarriers.h"
#include "devices/cpu/PlainLocalAtomics.h"
#include "devices/cpu/SpinLoopYields.h"

#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/SourceLocation.h"
#include "loom/lowering/AddressSpaceQueries.h"
#include "loom/lowering/BarrierRegions.h"
#include "loom/lowering/Printf.h"
#include "loom/lowering/WorkItemFunction.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <array>
#include <optional>

namespace loom::runtime::cpu {
namespace {

using namespace llvm;

Error transformError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The first instruction that calls or references `function`, looking through constant casts.
const Instruction *firstUse(const Value &value) {
  for (const User *user : value.users()) {
    if (const auto *instruction = dyn_cast<Instruction>(user))
      return instruction;
    if (isa<Constant>(user))
      if (const Instruction *nested = firstUse(*user))
        return nested;
  }
  return nullptr;
}

/// The source-level name of a (possibly mangled) function: "_Z3sinf" -> "sin".
std::string sourceName(StringRef symbol) {
  std::string demangled = demangle(symbol.str());
  return demangled.substr(0, demangled.find('('));
}

/// Collects the globals of `targets` that `value` refers to through constant expressions.
void collectGlobals(const Value *value, const SmallPtrSetImpl<GlobalVariable *> &targets,
                    SmallPtrSetImpl<GlobalVariable *> &found) {
  if (auto *variable = dyn_cast<GlobalVariable>(value)) {
    if (targets.count(const_cast<GlobalVariable *>(variable)))
      found.insert(const_cast<GlobalVariable *>(variable));
    return;
  }
  if (const auto *expression = dyn_cast<ConstantExpr>(value))
    for (const Use &operand : expression->operands())
      collectGlobals(operand.get(), targets, found);
}

bool refersTo(const Constant *constant, const GlobalVariable *variable) {
  if (constant == variable)
    return true;
  if (const auto *expression = dyn_cast<ConstantExpr>(constant))
    for (const Use &operand : expression->operands())
      if (refersTo(cast<Constant>(operand.get()), variable))
        return true;
  return false;
}

/// Rebuilds constant expression `constant` as instructions before `insertBefore`, with `variable`
/// replaced by `replacement`.
Value *materialize(Constant *constant, GlobalVariable *variable, Value *replacement,
                   Instruction *insertBefore) {
  if (constant == variable)
    return replacement;
  auto *expression = dyn_cast<ConstantExpr>(constant);
  if (!expression || !refersTo(expression, variable))
    return constant;
  Instruction *instruction = expression->getAsInstruction(insertBefore);
  for (unsigned i = 0; i < instruction->getNumOperands(); ++i)
    if (auto *operand = dyn_cast<Constant>(instruction->getOperand(i)))
      instruction->setOperand(i, materialize(operand, variable, replacement, instruction));
  return instruction;
}

/// Replaces every use of `variable` inside `function`, including uses inside constant expressions.
void replaceInFunction(GlobalVariable *variable, Value *replacement, Function &function) {
  for (Instruction &instruction : instructions(function)) {
    if (&instruction == replacement)
      continue;
    for (unsigned i = 0; i < instruction.getNumOperands(); ++i) {
      auto *operand = dyn_cast<Constant>(instruction.getOperand(i));
      if (!operand || !refersTo(operand, variable))
        continue;
      Instruction *insertBefore = &instruction;
      if (auto *phi = dyn_cast<PHINode>(&instruction))
        insertBefore = phi->getIncomingBlock(i)->getTerminator();
      instruction.setOperand(i, materialize(operand, variable, replacement, insertBefore));
    }
  }
}

/// The work-item function's parameters (lowering::WorkItemParam), with the CPU's own after them.
using namespace lowering::WorkItemParam;
enum : unsigned {
  Scratch = BackEnd,          ///< The group's __local variables and arguments.
  Context = BackEnd + 1,      ///< The group's storage that survives barriers.
  PrintfBuffer = BackEnd + 2, ///< The launch's printf buffer.
  Uniform = BackEnd + 3,      ///< The group's values the same in every work-item (placeUniformValues).
  Info = BackEnd + 4,         ///< The work-group function's `info` (WorkGroupInfo).
  ExtraCount = BackEnd + 5,
};

/// The alignment of the group's uniform storage (a cache line).
constexpr uint64_t UniformAlignment = 64;

/// Where placeContextSlots put each piece of storage, and the bytes a work-item needs.
struct ContextLayout {
  uint64_t bytesPerItem = 0;
  DenseMap<const AllocaInst *, ContextSlot> slots;
};

/// The bytes a piece of storage takes in the context buffer, padded to its alignment.
uint64_t slotBytes(const AllocaInst &slot, const DataLayout &layout) {
  return alignTo(*slot.getAllocationSizeInBits(layout) / 8, slot.getAlign());
}

/// Gives every work-item its own copy of the storage live across barriers, in the group's context
/// buffer: one array per slot, so that a region's loop over the work-items reads consecutive
/// addresses and vectorises. Slot j of work-item `linear` is at
/// context + groupItems * offset_j + linear * bytes_j.
ContextLayout placeContextSlots(Function &workItem, unsigned firstExtra, ArrayRef<AllocaInst *> storage) {
  ContextLayout placed;
  if (storage.empty())
    return placed;
  const DataLayout &layout = workItem.getParent()->getDataLayout();
  auto param = [&](unsigned extra) -> Value * { return workItem.getArg(firstExtra + extra); };
  SmallVector<AllocaInst *, 16> slots(storage.begin(), storage.end());
  // Larger alignments first: every offset is then a multiple of its slot's alignment.
  llvm::stable_sort(slots, [](AllocaInst *a, AllocaInst *b) { return a->getAlign() > b->getAlign(); });

  IRBuilder<> b(&*workItem.getEntryBlock().getFirstInsertionPt());
  Value *groupItems = lowering::emitGroupItems(b, workItem, firstExtra);
  Value *linear = lowering::emitLocalLinearId(b, workItem, firstExtra);
  uint64_t offset = 0;
  for (AllocaInst *slot : slots) {
    uint64_t bytes = slotBytes(*slot, layout);
    Value *start = b.CreateMul(groupItems, b.getInt64(offset));
    Value *address = b.CreateInBoundsGEP(b.getInt8Ty(), param(Context),
                                         b.CreateAdd(start, b.CreateMul(linear, b.getInt64(bytes))));
    slot->replaceAllUsesWith(b.CreateBitCast(address, slot->getType(), slot->getName()));
    placed.slots[slot] = {offset, bytes, slot->getAllocatedType()};
    offset += bytes;
  }
  // Erased last: the builder inserts before the first of them.
  for (AllocaInst *slot : slots)
    slot->eraseFromParent();
  placed.bytesPerItem = offset;
  return placed;
}

/// Places the storage of the values the same in every work-item (lowering::UniformValue) in the
/// group's uniform storage (the Uniform parameter): every atEntry copy in its first half, every
/// atExit copy at the same offset in its second half, which the work-group function copies onto the
/// first before each region after the first. Returns the bytes of one half. The work-group function
/// keeps that storage in its own frame, not in the context buffer: a loop over the work-items that
/// stores a uniform value (the counter of a loop cut by InnerLoopBarriers) then stores to memory
/// nothing else reaches, which the optimiser moves out of the loop, so the loop vectorises.
uint64_t placeUniformValues(Function &workItem, unsigned firstExtra, ArrayRef<lowering::UniformValue> values) {
  if (values.empty())
    return 0;
  const DataLayout &layout = workItem.getParent()->getDataLayout();
  SmallVector<lowering::UniformValue, 16> ordered(values.begin(), values.end());
  // Larger alignments first: every offset is then a multiple of its value's alignment.
  llvm::stable_sort(ordered, [](const lowering::UniformValue &a, const lowering::UniformValue &b) {
    return a.atEntry->getAlign() > b.atEntry->getAlign();
  });
  SmallVector<uint64_t, 16> offsets;
  uint64_t half = 0;
  for (const lowering::UniformValue &value : ordered) {
    offsets.push_back(half);
    half += slotBytes(*value.atEntry, layout);
  }
  half = alignTo(half, UniformAlignment);

  IRBuilder<> b(&*workItem.getEntryBlock().getFirstInsertionPt());
  Value *part = workItem.getArg(firstExtra + Uniform);
  auto place = [&](AllocaInst &copy, uint64_t offset) {
    Value *address = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), part, offset);
    copy.replaceAllUsesWith(b.CreateBitCast(address, copy.getType(), copy.getName()));
  };
  for (auto [value, offset] : llvm::zip(ordered, offsets)) {
    place(*value.atEntry, offset);
    place(*value.atExit, half + offset);
  }
  for (const lowering::UniformValue &value : ordered) {
    value.atEntry->eraseFromParent();
    value.atExit->eraseFromParent();
  }
  return half;
}

/// The kernel clone taking the work-item values, cut at its barriers.
struct WorkItemFunction {
  Function *function = nullptr;
  unsigned regions = 1;
  uint64_t staticLocalBytes = 0;
  uint64_t contextBytesPerItem = 0;
  uint64_t uniformBytes = 0; ///< One half of the group's uniform storage (placeUniformValues).
  bool prints = false;
  std::vector<GroupCollective> collectives; ///< Run before the regions they precede.
  std::vector<lowering::Scope> cutScopes;   ///< [k - 1]: the scope of the cut before region k.
};

Expected<WorkItemFunction>
makeWorkItemFunction(Function &kernel, const frontend::KernelInfo &info,
                     const SmallPtrSetImpl<GlobalVariable *> &localVariables) {
  Module &module = *kernel.getParent();
  Type *i8 = Type::getInt8Ty(module.getContext());
  Type *i8p = Type::getInt8PtrTy(module.getContext());
  auto cloned = lowering::cloneWorkItemFunction(kernel, SubGroupSize, {i8p, i8p, i8p, i8p, i8p});
  if (!cloned)
    return cloned.takeError();
  Function *clone = *cloned;
  const unsigned firstExtra = kernel.arg_size();
  const bool prints = lowering::callsFunction(*clone, lowering::PrintfBufferFunction);
  if (Function *printfBuffer = module.getFunction(lowering::PrintfBufferFunction))
    for (User *user : make_early_inc_range(printfBuffer->users()))
      if (auto *call = dyn_cast<CallInst>(user); call && call->getFunction() == clone) {
        call->replaceAllUsesWith(clone->getArg(firstExtra + PrintfBuffer));
        call->eraseFromParent();
      }
  answerAddressSpaceQueries(*clone, clone->getArg(firstExtra + Scratch), clone->getArg(firstExtra + Info));

  // __local variables this kernel uses move to the scratch buffer, one region each.
  SmallPtrSet<GlobalVariable *, 8> used;
  for (Instruction &instruction : instructions(*clone))
    for (const Use &operand : instruction.operands())
      collectGlobals(operand.get(), localVariables, used);
  uint64_t staticBytes = 0;
  if (!used.empty()) {
    const DataLayout &layout = module.getDataLayout();
    IRBuilder<> b(&*clone->getEntryBlock().getFirstInsertionPt());
    Value *scratch = clone->getArg(firstExtra + Scratch);
    // Module order keeps the layout deterministic.
    for (GlobalVariable &variable : module.globals()) {
      if (!used.count(&variable))
        continue;
      uint64_t align = std::max<uint64_t>(variable.getAlign().valueOrOne().value(), 16);
      staticBytes = alignTo(staticBytes, align);
      Value *address = b.CreateBitCast(b.CreateConstInBoundsGEP1_64(i8, scratch, staticBytes),
                                       variable.getType(), variable.getName());
      replaceInFunction(&variable, address, *clone);
      staticBytes += layout.getTypeAllocSize(variable.getValueType());
    }
  }
  const Argument *localIds[] = {clone->getArg(firstExtra + LocalId), clone->getArg(firstExtra + LocalId + 1),
                                clone->getArg(firstExtra + LocalId + 2)};
  if (!addSpinLoopYields(*clone))
    addInnerLoopBarriers(*clone, localIds);
  // After the yields, which find the loops that wait on an atomic read.
  SmallVector<const Value *, 4> localMemory{clone->getArg(firstExtra + Scratch)};
  for (unsigned i = 0; i < firstExtra && i < info.args.size(); ++i)
    if (info.args[i].isPointer && info.args[i].addressSpace == frontend::AddressSpace::Local)
      localMemory.push_back(clone->getArg(i));
  makeLocalAtomicsPlain(*clone, localMemory);
  auto regions = lowering::formBarrierRegions(*clone, *clone->getArg(firstExtra + Resume), localIds);
  if (!regions)
    return regions.takeError();
  ContextLayout layout = placeContextSlots(*clone, firstExtra, regions->liveAcrossBarriers);
  const uint64_t uniformBytes = placeUniformValues(*clone, firstExtra, regions->uniformAcrossBarriers);
  // The erased allocas' addresses still key their slots (they are compared, never dereferenced).
  std::vector<GroupCollective> collectives;
  for (const lowering::Collective &collective : regions->collectives) {
    GroupCollective placed{collective, layout.slots.lookup(collective.operand),
                           layout.slots.lookup(collective.result), {}};
    placed.form.operand = placed.form.result = nullptr;
    placed.form.source.clear();
    for (const AllocaInst *source : collective.source)
      placed.source.push_back(layout.slots.lookup(source));
    collectives.push_back(std::move(placed));
  }
  return WorkItemFunction{clone,  regions->regions,        staticBytes,          layout.bytesPerItem, uniformBytes,
                          prints, std::move(collectives), regions->cutScopes};
}

/// Emits `for (linear = first; linear < end; ++linear) body(linear)` (the range not empty), leaving
/// `b` after the loop. `body` may add blocks.
void emitForEachItem(IRBuilder<> &b, Value *first, Value *end, const Twine &name,
                     function_ref<void(Value *linear)> body) {
  Function *group = b.GetInsertBlock()->getParent();
  BasicBlock *before = b.GetInsertBlock();
  auto *loop = BasicBlock::Create(b.getContext(), name + ".items", group);
  auto *done = BasicBlock::Create(b.getContext(), name + ".done", group);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  PHINode *linear = b.CreatePHI(b.getInt64Ty(), 2, "linear");
  linear->addIncoming(first, before);
  body(linear);
  Value *next = b.CreateAdd(linear, b.getInt64(1), "linear.next", /*HasNUW=*/true);
  linear->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpULT(next, end), loop, done);
  b.SetInsertPoint(done);
}

/// Calls the work-item function for the work-item of local linear id `linear`, resuming at `region`.
CallInst *emitLinearItemCall(IRBuilder<> &b, Function &kernel, Function &workItem, ArrayRef<Value *> callArgs,
                             MutableArrayRef<Value *> values, Value *linear, Value *region) {
  Value *sizeX = values[LocalSize], *sizeY = values[LocalSize + 1];
  Value *rest = b.CreateUDiv(linear, sizeX);
  return lowering::emitWorkItemCall(b, kernel, workItem, callArgs, values,
                                    {b.CreateURem(linear, sizeX), b.CreateURem(rest, sizeY), b.CreateUDiv(rest, sizeY)},
                                    region);
}

/// Emits a loop over the work-items of local linear ids [first, end) (not empty) calling the
/// work-item function, resuming at `region`. Leaves `b` after the loop and returns the last
/// work-item's next region.
Value *emitLinearItemLoop(IRBuilder<> &b, Function &kernel, Function &workItem, ArrayRef<Value *> callArgs,
                          MutableArrayRef<Value *> values, unsigned region, Value *first, Value *end) {
  Value *reached = nullptr;
  emitForEachItem(b, first, end, "r" + Twine(region), [&](Value *linear) {
    reached = emitLinearItemCall(b, kernel, workItem, callArgs, values, linear, b.getInt32(region));
  });
  return reached;
}

/// Runs the group's work-group and sub-group functions that precede `region`, over the work-items
/// [first, first + count).
void emitCollectivesBefore(IRBuilder<> &b, const WorkItemFunction &workItemFunction, ArrayRef<Value *> values,
                           unsigned region, Value *first, Value *count) {
  for (const GroupCollective &collective : workItemFunction.collectives)
    if (collective.form.region == region)
      emitGroupCollective(b, collective, values[Context],
                          {values[LocalSize], values[LocalSize + 1], values[LocalSize + 2]}, first, count);
}

/// A walk over a group's sub-groups, one after the other: `start` (a block of its own) begins the
/// one numbered `index`, its work-items the local linear ids [first, end); emitNext goes on to the
/// next one or, after the last, to `after`. restart() begins again from the first.
struct SubGroupWalk {
  AllocaInst *current = nullptr;
  Value *groupItems = nullptr, *subGroups = nullptr;
  BasicBlock *start = nullptr;
  Value *index = nullptr, *first = nullptr, *end = nullptr;

  SubGroupWalk(IRBuilder<> &b, ArrayRef<Value *> values) {
    Function *group = b.GetInsertBlock()->getParent();
    groupItems = b.CreateMul(b.CreateMul(values[LocalSize], values[LocalSize + 1]), values[LocalSize + 2]);
    subGroups = b.CreateUDiv(b.CreateAdd(groupItems, b.getInt64(SubGroupSize - 1)), b.getInt64(SubGroupSize));
    current = b.CreateAlloca(b.getInt64Ty(), nullptr, "subgroup");
    BasicBlock *before = b.GetInsertBlock();
    start = BasicBlock::Create(b.getContext(), "subgroup.start", group);
    b.SetInsertPoint(start);
    index = b.CreateLoad(b.getInt64Ty(), current, "s");
    first = b.CreateMul(index, b.getInt64(SubGroupSize), "first");
    end = b.CreateBinaryIntrinsic(Intrinsic::umin, b.CreateAdd(first, b.getInt64(SubGroupSize)), groupItems);
    b.SetInsertPoint(before);
  }
  void restart(IRBuilder<> &b) const {
    b.CreateStore(b.getInt64(0), current);
    b.CreateBr(start);
  }
  void emitNext(IRBuilder<> &b, BasicBlock *after) const {
    Value *next = b.CreateAdd(index, b.getInt64(1));
    b.CreateStore(next, current);
    b.CreateCondBr(b.CreateICmpULT(next, subGroups), start, after);
  }
};

/// The regions of a kernel with sub-group cuts: each sub-group in turn runs from the group's region
/// through its own sub-group cuts (its sub-group functions computed over its work-items) until it
/// reaches a work-group cut; once every sub-group has, the group's work-group function runs and all
/// go on from there. Sub-groups may so take different paths between two work-group cuts, as the spec
/// allows. The states live in allocas that O3 promotes.
void emitSubGroupSchedule(IRBuilder<> &b, Function &kernel, const WorkItemFunction &workItemFunction,
                          ArrayRef<Value *> callArgs, MutableArrayRef<Value *> values) {
  LLVMContext &context = b.getContext();
  Function *group = b.GetInsertBlock()->getParent();
  Type *i32 = b.getInt32Ty();
  auto block = [&](const Twine &name) { return BasicBlock::Create(context, name, group); };
  const SubGroupWalk walk(b, values);
  Value *groupItems = walk.groupItems, *first = walk.first, *end = walk.end;
  AllocaInst *groupRegion = b.CreateAlloca(i32, nullptr, "group.region");
  AllocaInst *subGroupRegion = b.CreateAlloca(i32, nullptr, "subgroup.region");
  AllocaInst *reached = b.CreateAlloca(i32, nullptr, "reached");
  b.CreateStore(b.getInt32(0), groupRegion);

  BasicBlock *groupStep = block("group.step"), *subGroupDispatch = block("subgroup.dispatch"),
             *subGroupReached = block("subgroup.reached"), *subGroupDone = block("subgroup.done"),
             *groupReached = block("group.reached"), *exit = block("exit");
  b.CreateBr(groupStep);
  b.SetInsertPoint(groupStep);
  walk.restart(b);

  b.SetInsertPoint(walk.start);
  Value *count = b.CreateSub(end, first, "count");
  b.CreateStore(b.CreateLoad(i32, groupRegion), subGroupRegion);
  b.CreateBr(subGroupDispatch);

  // The sub-group runs its current region, then goes on past sub-group cuts.
  b.SetInsertPoint(subGroupDispatch);
  SwitchInst *byRegion = b.CreateSwitch(b.CreateLoad(i32, subGroupRegion), exit, workItemFunction.regions);
  for (unsigned region = 0; region < workItemFunction.regions; ++region) {
    BasicBlock *run = block("subgroup.run" + Twine(region));
    byRegion->addCase(b.getInt32(region), run);
    b.SetInsertPoint(run);
    b.CreateStore(emitLinearItemLoop(b, kernel, *workItemFunction.function, callArgs, values, region, first, end), reached);
    b.CreateBr(subGroupReached);
  }
  b.SetInsertPoint(subGroupReached);
  SwitchInst *subGroupCut = b.CreateSwitch(b.CreateLoad(i32, reached), subGroupDone);
  for (unsigned region = 1; region < workItemFunction.regions; ++region) {
    if (workItemFunction.cutScopes[region - 1] != lowering::Scope::SubGroup)
      continue;
    BasicBlock *cut = block("subgroup.cut" + Twine(region));
    subGroupCut->addCase(b.getInt32(region), cut);
    b.SetInsertPoint(cut);
    emitCollectivesBefore(b, workItemFunction, values, region, first, count);
    b.CreateStore(b.getInt32(region), subGroupRegion);
    b.CreateBr(subGroupDispatch);
  }

  // At a work-group cut (or finished): the next sub-group, or the group goes on.
  b.SetInsertPoint(subGroupDone);
  walk.emitNext(b, groupReached);
  b.SetInsertPoint(groupReached);
  SwitchInst *groupCut = b.CreateSwitch(b.CreateLoad(i32, reached), exit);
  for (unsigned region = 1; region < workItemFunction.regions; ++region) {
    if (workItemFunction.cutScopes[region - 1] != lowering::Scope::WorkGroup)
      continue;
    BasicBlock *cut = block("group.cut" + Twine(region));
    groupCut->addCase(b.getInt32(region), cut);
    b.SetInsertPoint(cut);
    emitCollectivesBefore(b, workItemFunction, values, region, b.getInt64(0), groupItems);
    b.CreateStore(b.getInt32(region), groupRegion);
    b.CreateBr(groupStep);
  }
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
}

/// The regions of a kernel with yields (SpinLoopYields.h), where work-items of one group may be
/// anywhere in the kernel at once. Each work-item keeps a state: the region it runs next, or the cut
/// it waits at, or finished. In rounds, each sub-group in turn runs each of its work-items that can
/// run, once, up to its next cut: a yield leaves it free to run in the next round, a barrier or a
/// collective makes it wait. A sub-group whose work-items all wait at one sub-group cut goes on past
/// it at once; when all of the group's wait at one work-group cut, the group does. A round in which
/// nothing ran ends the group: its work-items wait at different barriers, which the spec leaves
/// undefined, and hanging the device is the one wrong answer.
void emitIndependentSchedule(IRBuilder<> &b, Function &kernel, const WorkItemFunction &workItemFunction,
                             ArrayRef<Value *> callArgs, MutableArrayRef<Value *> values) {
  LLVMContext &context = b.getContext();
  Function *group = b.GetInsertBlock()->getParent();
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  auto block = [&](const Twine &name) { return BasicBlock::Create(context, name, group); };
  const unsigned regions = workItemFunction.regions;
  constexpr uint32_t Waiting = 1u << 31, Finished = ~0u;
  auto scopeBefore = [&](unsigned region) { return workItemFunction.cutScopes[region - 1]; };
  // What a work-item's state becomes when it returns region r.
  std::vector<uint32_t> onReturn = {Finished};
  for (unsigned region = 1; region < regions; ++region)
    onReturn.push_back(scopeBefore(region) == lowering::Scope::WorkItem ? region : region | Waiting);
  auto *stateAfter = new GlobalVariable(*group->getParent(), ArrayType::get(i32, regions), /*isConstant=*/true,
                                        GlobalValue::PrivateLinkage, ConstantDataArray::get(context, onReturn),
                                        group->getName() + ".state.after");
  stateAfter->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);

  const SubGroupWalk walk(b, values);
  Value *groupItems = walk.groupItems, *first = walk.first, *end = walk.end;
  AllocaInst *states = b.CreateAlloca(i32, groupItems, "states");
  AllocaInst *ran = b.CreateAlloca(b.getInt1Ty(), nullptr, "ran");
  AllocaInst *same = b.CreateAlloca(b.getInt1Ty(), nullptr, "same");
  b.CreateMemSet(states, b.getInt8(0), b.CreateMul(groupItems, b.getInt64(4)), Align(4));
  auto stateOf = [&](Value *linear) { return b.CreateInBoundsGEP(i32, states, linear); };
  // Whether every work-item in [first, end) is in `state`.
  auto allIn = [&](Value *first, Value *end, Value *state, const Twine &name) {
    b.CreateStore(b.getTrue(), same);
    emitForEachItem(b, first, end, name, [&](Value *linear) {
      Value *equal = b.CreateICmpEQ(b.CreateLoad(i32, stateOf(linear)), state);
      b.CreateStore(b.CreateAnd(b.CreateLoad(b.getInt1Ty(), same), equal), same);
    });
    return b.CreateLoad(b.getInt1Ty(), same);
  };
  // For each cut of `scope`, a case of `at` (on the state of the first of [first, end)): when all of
  // them wait there, the scope's collectives run and they go on, to `next`; else to `otherwise`.
  auto addReleases = [&](SwitchInst *at, lowering::Scope scope, Value *first, Value *end, BasicBlock *next,
                         BasicBlock *otherwise, const Twine &name) {
    for (unsigned region = 1; region < regions; ++region) {
      if (scopeBefore(region) != scope)
        continue;
      BasicBlock *cut = block(name + ".cut" + Twine(region)), *go = block(name + ".go" + Twine(region));
      at->addCase(b.getInt32(region | Waiting), cut);
      b.SetInsertPoint(cut);
      b.CreateCondBr(allIn(first, end, at->getCondition(), name + ".at" + Twine(region)), go, otherwise);
      b.SetInsertPoint(go);
      emitCollectivesBefore(b, workItemFunction, values, region, first, b.CreateSub(end, first));
      emitForEachItem(b, first, end, name + ".release" + Twine(region),
                      [&](Value *linear) { b.CreateStore(b.getInt32(region), stateOf(linear)); });
      b.CreateStore(b.getTrue(), ran);
      b.CreateBr(next);
    }
  };

  BasicBlock *round = block("round"), *subGroupRun = block("subgroup.run"), *subGroupDone = block("subgroup.done"),
             *groupCheck = block("group.check"), *stalled = block("stalled"), *exit = block("exit");
  b.CreateBr(round);
  b.SetInsertPoint(round);
  b.CreateStore(b.getFalse(), ran);
  walk.restart(b);

  b.SetInsertPoint(walk.start);
  b.CreateBr(subGroupRun);

  // Each work-item of the sub-group that can run runs to its next cut.
  b.SetInsertPoint(subGroupRun);
  emitForEachItem(b, first, end, "item", [&](Value *linear) {
    BasicBlock *run = block("item.run"), *next = block("item.next");
    Value *state = b.CreateLoad(i32, stateOf(linear), "state");
    b.CreateCondBr(b.CreateICmpULT(state, b.getInt32(regions)), run, next);
    b.SetInsertPoint(run);
    Value *reached = emitLinearItemCall(b, kernel, *workItemFunction.function, callArgs, values, linear, state);
    Value *after = b.CreateLoad(
        i32, b.CreateInBoundsGEP(stateAfter->getValueType(), stateAfter, {b.getInt64(0), b.CreateZExt(reached, i64)}));
    b.CreateStore(after, stateOf(linear));
    b.CreateStore(b.getTrue(), ran);
    b.CreateBr(next);
    b.SetInsertPoint(next);
  });
  SwitchInst *atSubGroupCut = b.CreateSwitch(b.CreateLoad(i32, stateOf(first), "leader"), subGroupDone);
  addReleases(atSubGroupCut, lowering::Scope::SubGroup, first, end, subGroupRun, subGroupDone, "subgroup");

  b.SetInsertPoint(subGroupDone);
  walk.emitNext(b, groupCheck);

  // After a round: the group goes on past a work-group cut all have reached, or has finished.
  b.SetInsertPoint(groupCheck);
  Value *groupLeader = b.CreateLoad(i32, stateOf(b.getInt64(0)), "group.leader");
  SwitchInst *atGroupCut = b.CreateSwitch(groupLeader, stalled);
  BasicBlock *finished = block("finished");
  atGroupCut->addCase(b.getInt32(Finished), finished);
  b.SetInsertPoint(finished);
  b.CreateCondBr(allIn(b.getInt64(0), groupItems, groupLeader, "finished"), exit, stalled);
  addReleases(atGroupCut, lowering::Scope::WorkGroup, b.getInt64(0), groupItems, round, stalled, "group");
  b.SetInsertPoint(stalled);
  b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), ran), round, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
}

/// The work-group function: loads the arguments, then runs the work-item function's regions, each
/// for every work-item of the group in z/y/x loops, in the order the barriers reached give.
Function *makeWorkGroupFunction(Function &kernel, const WorkItemFunction &workItemFunction) {
  Function &workItem = *workItemFunction.function;
  const unsigned regions = workItemFunction.regions;
  Module &module = *kernel.getParent();
  LLVMContext &context = module.getContext();
  Type *i64 = Type::getInt64Ty(context);
  Type *i32 = Type::getInt32Ty(context);
  Type *i8p = Type::getInt8PtrTy(context);
  const DataLayout &layout = module.getDataLayout();
  auto *type = FunctionType::get(Type::getVoidTy(context),
                                 {i8p->getPointerTo(), i64->getPointerTo(), i8p, i8p}, false);
  Function *group = Function::Create(type, GlobalValue::ExternalLinkage, kernel.getName() + ".loom_wg", module);
  group->addFnAttr(Attribute::NoUnwind);
  for (unsigned i = 0; i < 4; ++i)
    group->addParamAttr(i, Attribute::NoAlias);
  group->addParamAttr(1, Attribute::ReadOnly);
  Argument *args = group->getArg(0), *info = group->getArg(1), *scratch = group->getArg(2),
           *workItemContext = group->getArg(3);
  args->setName("args");
  info->setName("info");
  scratch->setName("scratch");
  workItemContext->setName("context");

  auto *entry = BasicBlock::Create(context, "entry", group);
  IRBuilder<> b(entry);
  SmallVector<Value *, 32> callArgs;
  for (Argument &argument : kernel.args()) {
    Value *slot = b.CreateLoad(i8p, b.CreateConstInBoundsGEP1_64(i8p, args, argument.getArgNo()));
    Type *argType = argument.getType();
    // The slot points at the value's bytes as clSetKernelArg kept them, aligned for no particular
    // type: a short16 read with its natural 32-byte alignment would be an aligned vector load that
    // faults. A byval aggregate is passed by address, so its bytes are copied to storage aligned as
    // the callee assumes.
    if (argument.hasByValAttr()) {
      Type *aggregate = argument.getParamByValType();
      const Align align = argument.getParamAlign().valueOrOne();
      AllocaInst *copy = b.CreateAlloca(aggregate, nullptr, argument.getName() + ".byval");
      copy->setAlignment(std::max(copy->getAlign(), align));
      b.CreateMemCpy(copy, copy->getAlign(), slot, Align(1), layout.getTypeAllocSize(aggregate));
      callArgs.push_back(b.CreateBitCast(copy, argType));
    } else {
      callArgs.push_back(b.CreateAlignedLoad(argType, b.CreateBitCast(slot, argType->getPointerTo()), Align(1),
                                             argument.getName()));
    }
  }
  auto infoAt = [&](unsigned index) {
    return b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, info, index));
  };
  Value *values[ExtraCount] = {};
  // The launch enforces both: reqd_work_group_size makes the loops over a group's work-items run
  // constant trip counts, which the vectorizer and the unroller know; uniform groups all have the
  // enqueued size.
  const Optional<std::array<uint64_t, 3>> required = lowering::requiredGroupSize(kernel);
  const bool uniform = lowering::hasUniformWorkGroups(kernel);
  for (unsigned d = 0; d < 3; ++d) {
    values[GroupId + d] = infoAt(WorkGroupInfo::GroupId + d);
    values[GlobalSize + d] = infoAt(WorkGroupInfo::GlobalSize + d);
    values[EnqueuedLocalSize + d] =
        required ? static_cast<Value *>(b.getInt64((*required)[d])) : infoAt(WorkGroupInfo::EnqueuedLocalSize + d);
    values[NumGroups + d] = infoAt(WorkGroupInfo::NumGroups + d);
    values[LocalSize + d] =
        uniform ? values[EnqueuedLocalSize + d]
                : lowering::emitGroupSize(b, values[GroupId + d], values[NumGroups + d], values[EnqueuedLocalSize + d],
                                          lowering::emitLastGroupSize(b, values[NumGroups + d],
                                                                      values[EnqueuedLocalSize + d],
                                                                      values[GlobalSize + d]));
    values[GlobalOffset + d] = infoAt(WorkGroupInfo::GlobalOffset + d);
  }
  values[WorkDim] = b.CreateTrunc(infoAt(WorkGroupInfo::WorkDim), i32);
  values[Scratch] = scratch;
  values[Context] = workItemContext;
  values[PrintfBuffer] = b.CreateIntToPtr(infoAt(WorkGroupInfo::PrintfBuffer), i8p, "printf.buffer");
  values[Info] = b.CreateBitCast(info, i8p);
  if (const uint64_t half = workItemFunction.uniformBytes) {
    AllocaInst *uniform = b.CreateAlloca(ArrayType::get(b.getInt8Ty(), 2 * half), nullptr, "uniform");
    uniform->setAlignment(Align(UniformAlignment));
    values[Uniform] = b.CreateBitCast(uniform, i8p);
  } else {
    values[Uniform] = ConstantPointerNull::get(cast<PointerType>(i8p));
  }

  if (regions == 1) {
    lowering::emitWorkItemLoops(b, kernel, workItem, callArgs, values, b.getInt32(0), "r0.");
    b.CreateRetVoid();
    return group;
  }
  if (llvm::is_contained(workItemFunction.cutScopes, lowering::Scope::WorkItem)) {
    emitIndependentSchedule(b, kernel, workItemFunction, callArgs, values);
    return group;
  }
  if (llvm::is_contained(workItemFunction.cutScopes, lowering::Scope::SubGroup)) {
    emitSubGroupSchedule(b, kernel, workItemFunction, callArgs, values);
    return group;
  }
  // Region 0 first; then `dispatch` runs the region after the barrier the work-items stopped at
  // (all of a group reach the same one), until they finish. A region after a work-group function
  // starts with that function's loop over the work-items.
  auto *dispatch = BasicBlock::Create(context, "dispatch", group);
  auto *exit = BasicBlock::Create(context, "exit", group);
  PHINode *next = PHINode::Create(i32, regions, "next.region", dispatch);
  SwitchInst *select = SwitchInst::Create(next, exit, regions - 1, dispatch);
  for (unsigned region = 0; region < regions; ++region) {
    if (region > 0) {
      auto *start = BasicBlock::Create(context, "region" + Twine(region), group);
      select->addCase(b.getInt32(region), start);
      b.SetInsertPoint(start);
      if (const uint64_t half = workItemFunction.uniformBytes)
        b.CreateMemCpy(values[Uniform], Align(UniformAlignment),
                       b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), values[Uniform], half), Align(UniformAlignment),
                       half);
      emitCollectivesBefore(b, workItemFunction, values, region, b.getInt64(0),
                            b.CreateMul(b.CreateMul(values[LocalSize], values[LocalSize + 1]), values[LocalSize + 2]));
    }
    Value *reached =
        lowering::emitWorkItemLoops(b, kernel, workItem, callArgs, values, b.getInt32(region), "r" + Twine(region) + ".")
            .call;
    next->addIncoming(reached, b.GetInsertBlock());
    b.CreateBr(dispatch);
  }
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
  return group;
}

} // namespace

Error checkSupported(const Module &module, bool (*isDefined)(StringRef symbol)) {
  for (const Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty())
      continue;
    StringRef symbol = function.getName();
    if (lowering::isWorkItemBuiltin(symbol) || lowering::isWorkGroupBarrier(symbol) || lowering::isSubGroupBarrier(symbol) ||
        lowering::isCollectiveFunction(symbol) || lowering::addressSpaceQueryNamed(symbol))
      continue;
    std::string name = sourceName(symbol);
    const Instruction *use = firstUse(function);
    std::string where = use ? frontend::diagnosticPrefix(*use) : "";
    std::string caller = use ? use->getFunction()->getName().str() : "?";
    if (!isDefined(symbol))
      return transformError(where + "error: undefined function '" + name + "' (symbol '" + symbol +
                            "') called from '" + caller +
                            "': the CPU device does not provide this OpenCL builtin yet");
  }
  return Error::success();
}

Expected<std::vector<WorkGroupFunction>>
addWorkGroupFunctions(Module &module, ArrayRef<frontend::KernelInfo> kernels) {
  // Line tables served the diagnostics above; the generated functions have no debug scope.
  StripDebugInfo(module);
  SmallPtrSet<GlobalVariable *, 8> localVariables;
  for (GlobalVariable &variable : module.globals())
    if (frontend::isLocalVariable(variable))
      localVariables.insert(&variable);

  std::vector<WorkGroupFunction> result;
  for (const frontend::KernelInfo &info : kernels) {
    Function *kernel = module.getFunction(info.name);
    if (!kernel || kernel->isDeclaration())
      return transformError("kernel '" + info.name + "' has no definition in the CPU module");
    if (kernel->arg_size() != info.args.size())
      return transformError("kernel '" + info.name + "' has " + Twine(info.args.size()) +
                            " arguments but the host ABI passes " + Twine(kernel->arg_size()) +
                            " values: struct arguments split into registers are not supported on "
                            "the CPU device yet");
    auto workItem = makeWorkItemFunction(*kernel, info, localVariables);
    if (!workItem)
      return workItem.takeError();
    Function *group = makeWorkGroupFunction(*kernel, *workItem);
    result.push_back({info.name, group->getName().str(), workItem->staticLocalBytes,
                      workItem->contextBytesPerItem, workItem->prints});
  }
  // Clang marks every OpenCL C function and call convergent (work-items run them in lockstep on a
  // GPU). Here every work-item is now an iteration of a loop and every barrier a loop boundary: nothing
  // is convergent any more, and the mark would keep the vectoriser from loops that call a function
  // with a vector version (libmvec's expf).
  for (Function &function : module) {
    function.removeFnAttr(Attribute::Convergent);
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<CallBase>(&instruction))
        call->removeFnAttr(Attribute::Convergent);
  }
  // The kernels, and the helpers they call, are now only reachable through the clones (which have
  // them inlined); let the optimiser drop them. A helper that prints still calls the printf buffer
  // function only the clones bind.
  for (Function &function : module)
    if (!function.isDeclaration() && !llvm::any_of(result, [&](const WorkGroupFunction &group) {
          return group.symbol == function.getName();
        }))
      function.setLinkage(GlobalValue::InternalLinkage);
  return result;
}

} // namespace loom::runtime::cpu
