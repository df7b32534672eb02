//===- BarrierRegions.cpp - Cut a work-item function at its barriers -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Each barrier call ends its block with `ret i32 k`; the code after it becomes a block the new entry
// switch jumps to when resuming at k. A work-group function is cut the same way, its operands stored
// before the cut and its result loaded after it. That switch makes paths that skip a value's definition, so
// exactly the values live across a barrier lose dominance over a use: those are demoted to allocas
// (LLVM's reg2mem helpers), which the back end then makes persistent per work-item, or, for a value
// the same in every work-item, keeps private and saved per group at the cuts (UniformValue). A
// pointer into one array is kept as its offset into the array, and rebuilt from the array after the
// barrier, so that its accesses still name their array.
//===----------------------------------------------------------------------===//
#include "loom/frontend/SourceLocation.h"
#include "loom/lowering/ArrayOffsets.h"
#include "loom/lowering/BarrierRegions.h"
#include "loom/lowering/WorkGroupUniformity.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

namespace loom::lowering {
namespace {

using namespace llvm;

Error regionError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Moves every alloca into `entry` (inlined helpers may have left them elsewhere). Allocas of
/// run-time size cannot be, and OpenCL C has no way to write one.
Error gatherAllocas(Function &function, BasicBlock &entry) {
  SmallVector<AllocaInst *, 16> allocas;
  for (Instruction &instruction : instructions(function))
    if (auto *alloca = dyn_cast<AllocaInst>(&instruction))
      allocas.push_back(alloca);
  for (AllocaInst *alloca : allocas) {
    if (!isa<ConstantInt>(alloca->getArraySize()))
      return regionError(frontend::diagnosticPrefix(*alloca) + "error: kernel '" + function.getName() +
                         "' allocates private memory of a run-time size, which a kernel with "
                         "barriers cannot keep per work-item");
    alloca->moveBefore(entry.getTerminator());
  }
  return Error::success();
}

/// Lifetime markers say storage is dead between regions; persistent storage must not be.
void dropLifetimeMarkers(Value &pointer) {
  SmallVector<User *, 8> users(pointer.users());
  for (User *user : users) {
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(user);
        intrinsic && intrinsic->isLifetimeStartOrEnd()) {
      intrinsic->eraseFromParent();
    } else if (isa<BitCastInst>(user) || (isa<GetElementPtrInst>(user) &&
                                          cast<GetElementPtrInst>(user)->hasAllZeroIndices())) {
      dropLifetimeMarkers(*user);
    }
  }
}

/// Moves into `entry` every computation on the function's arguments and constants alone (the
/// work-item ids and sizes, __local addresses, ...): every region then recomputes them instead of
/// keeping a copy per work-item, and they need no storage.
void hoistArgumentComputations(Function &function, BasicBlock &entry) {
  auto available = [&](const Value *operand) {
    if (isa<Constant>(operand) || isa<Argument>(operand))
      return true;
    const auto *instruction = dyn_cast<Instruction>(operand);
    return instruction && instruction->getParent() == &entry;
  };
  for (bool moved = true; moved;) {
    moved = false;
    for (BasicBlock &block : function) {
      if (&block == &entry)
        continue;
      for (Instruction &instruction : make_early_inc_range(block)) {
        if (isa<PHINode>(instruction) || isa<CallBase>(instruction) || instruction.isTerminator() ||
            instruction.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&instruction) ||
            !all_of(instruction.operands(), available))
          continue;
        instruction.moveBefore(entry.getTerminator());
        moved = true;
      }
    }
  }
}

/// A pointer into one array (a private or __local array, or a buffer argument) that is used after a
/// barrier is kept as its byte offset from the array, and rebuilt from the array where it is used.
/// Kept as a pointer, it would come back as a load from the work-item's storage that no analysis
/// can trace to its array: the hardware flow needs each access to name its array, and alias
/// analysis to know which arrays a region touches (Rodinia's hotspot keeps &temp[S][tx] so).
/// A phi or a select counts when every pointer it chooses from is in the same array (Clang's
/// simplifications merge the paths that compute one &events[1], say).
void keepPointersAsOffsets(Function &function, const DominatorTree &dominators, DenseSet<const Value *> &uniform) {
  const DataLayout &layout = function.getParent()->getDataLayout();
  auto arrayOf = [](Instruction &pointer) -> Value * {
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(&pointer, objects, /*LI=*/nullptr, /*MaxLookup=*/0);
    if (objects.size() != 1 || objects[0] == &pointer ||
        !(isa<AllocaInst>(objects[0]) || isa<GlobalVariable>(objects[0]) || isa<Argument>(objects[0])) ||
        objects[0]->getType()->getPointerAddressSpace() != pointer.getType()->getPointerAddressSpace())
      return nullptr;
    return const_cast<Value *>(objects[0]);
  };
  SmallVector<std::pair<Instruction *, Value *>, 16> pointers;
  for (Instruction &instruction : instructions(function)) {
    if (!instruction.getType()->isPointerTy() || isa<AllocaInst>(instruction) ||
        !dominators.isReachableFromEntry(instruction.getParent()))
      continue;
    if (any_of(instruction.uses(), [&](const Use &use) { return !dominators.dominates(&instruction, use); }))
      if (Value *object = arrayOf(instruction))
        pointers.emplace_back(&instruction, object);
  }
  for (auto [pointer, object] : pointers) {
    IRBuilder<> atDefinition(pointer->getParent(), isa<PHINode>(pointer)
                                                       ? pointer->getParent()->getFirstInsertionPt()
                                                       : std::next(pointer->getIterator()));
    Type *address = layout.getIntPtrType(pointer->getType());
    Value *offset = atDefinition.CreateSub(atDefinition.CreatePtrToInt(pointer, address),
                                           atDefinition.CreatePtrToInt(object, address), pointer->getName() + ".offset");
    if (uniform.contains(pointer))
      uniform.insert(offset);
    for (Use &use : make_early_inc_range(pointer->uses())) {
      if (dominators.dominates(pointer, use))
        continue;
      auto *user = cast<Instruction>(use.getUser());
      auto *phi = dyn_cast<PHINode>(user);
      IRBuilder<> atUse(phi ? phi->getIncomingBlock(use)->getTerminator() : user);
      use.set(pointerAtOffset(atUse, object, offset, pointer->getType(), pointer->getName()));
    }
  }
}

/// The collective an Itanium-mangled work-group or sub-group function computes
/// ("_Z21work_group_reduce_addi", "_Z20sub_group_reduce_addf"), without its storage; none for any
/// other name.
std::optional<Collective> collectiveNamed(StringRef mangled) {
  unsigned length = 0;
  if (!mangled.consume_front("_Z") || mangled.consumeInteger(10, length) || mangled.size() <= length)
    return std::nullopt;
  StringRef name = mangled.take_front(length), parameters = mangled.drop_front(length);
  Scope scope = Scope::WorkGroup;
  if (name.consume_front("sub_group_"))
    scope = Scope::SubGroup;
  else if (!name.consume_front("work_group_"))
    return std::nullopt;
  using Kind = Collective::Kind;
  using Operation = Collective::Operation;
  std::optional<std::pair<Kind, Operation>> form =
      StringSwitch<std::optional<std::pair<Kind, Operation>>>(name)
          .Case("all", std::pair(Kind::All, Operation::None))
          .Case("any", std::pair(Kind::Any, Operation::None))
          .Case("broadcast", std::pair(Kind::Broadcast, Operation::None))
          .Case("reduce_add", std::pair(Kind::Reduce, Operation::Add))
          .Case("reduce_min", std::pair(Kind::Reduce, Operation::Min))
          .Case("reduce_max", std::pair(Kind::Reduce, Operation::Max))
          .Case("scan_inclusive_add", std::pair(Kind::ScanInclusive, Operation::Add))
          .Case("scan_inclusive_min", std::pair(Kind::ScanInclusive, Operation::Min))
          .Case("scan_inclusive_max", std::pair(Kind::ScanInclusive, Operation::Max))
          .Case("scan_exclusive_add", std::pair(Kind::ScanExclusive, Operation::Add))
          .Case("scan_exclusive_min", std::pair(Kind::ScanExclusive, Operation::Min))
          .Case("scan_exclusive_max", std::pair(Kind::ScanExclusive, Operation::Max))
          .Default(std::nullopt);
  if (!form || parameters.empty())
    return std::nullopt;
  Collective collective;
  collective.scope = scope;
  collective.kind = form->first;
  collective.operation = form->second;
  // The first parameter's type: int, long | uint, ulong | float, double, half.
  switch (parameters.front()) {
  case 'i':
  case 'l':
    collective.element = Collective::Element::Signed;
    break;
  case 'j':
  case 'm':
    collective.element = Collective::Element::Unsigned;
    break;
  case 'f':
  case 'd':
    collective.element = Collective::Element::Float;
    break;
  default:
    if (!parameters.startswith("Dh"))
      return std::nullopt;
    collective.element = Collective::Element::Float;
  }
  return collective;
}

/// Storage in `entry` (before its terminator) holding `value` where `at` is.
AllocaInst *storeInSlot(Value *value, Instruction *at, BasicBlock &entry, const Twine &name) {
  auto *slot = new AllocaInst(value->getType(), 0, name, entry.getTerminator());
  new StoreInst(value, slot, at);
  return slot;
}

} // namespace

bool isCollectiveFunction(StringRef functionName) { return collectiveNamed(functionName).has_value(); }

bool isSubGroupBarrier(StringRef functionName) { return functionName.startswith("_Z17sub_group_barrierj"); }

std::optional<Scope> cutScope(StringRef functionName) {
  if (isWorkGroupBarrier(functionName))
    return Scope::WorkGroup;
  if (isSubGroupBarrier(functionName))
    return Scope::SubGroup;
  if (functionName == YieldFunction)
    return Scope::WorkItem;
  if (std::optional<Collective> collective = collectiveNamed(functionName))
    return collective->scope;
  return std::nullopt;
}

bool isWorkGroupBarrier(StringRef functionName) {
  // barrier(cl_mem_fence_flags); work_group_barrier(flags) and (flags, memory_scope);
  // wait_group_events(int, event_t *), whatever the pointer's address space.
  return functionName == "_Z7barrierj" || functionName.startswith("_Z18work_group_barrierj") ||
         functionName.startswith("_Z17wait_group_eventsi");
}

Expected<BarrierRegions> formBarrierRegions(Function &function, Argument &resume,
                                            ArrayRef<const Argument *> perWorkItem) {
  // The cuts: barriers, and work-group and sub-group functions with what they compute.
  struct Cut {
    CallInst *call;
    Scope scope;
    std::optional<Collective> collective;
  };
  SmallVector<Cut, 8> cuts;
  for (Instruction &instruction : instructions(function))
    if (auto *call = dyn_cast<CallInst>(&instruction))
      if (Function *callee = call->getCalledFunction()) {
        if (auto collective = collectiveNamed(callee->getName()))
          cuts.push_back({call, collective->scope, collective});
        else if (std::optional<Scope> scope = cutScope(callee->getName()))
          cuts.push_back({call, *scope, std::nullopt});
      }
  BarrierRegions result;
  if (cuts.empty())
    return result;
  result.regions = cuts.size() + 1;
  const bool inStep = all_of(cuts, [](const Cut &cut) { return cut.scope == Scope::WorkGroup; });
  // Decided on the function as the user wrote it, before the cuts add paths that skip definitions.
  DenseSet<const Value *> uniform =
      perWorkItem.empty() || !inStep ? DenseSet<const Value *>() : workGroupUniformValues(function, perWorkItem);

  LLVMContext &context = function.getContext();
  Type *i32 = Type::getInt32Ty(context);
  BasicBlock *body = &function.getEntryBlock();
  BasicBlock *entry = BasicBlock::Create(context, "regions.entry", &function, body);
  SwitchInst *dispatch = SwitchInst::Create(&resume, body, cuts.size(), entry);
  if (Error error = gatherAllocas(function, *entry))
    return std::move(error);
  hoistArgumentComputations(function, *entry);

  for (unsigned k = 1; k <= cuts.size(); ++k) {
    auto &[call, scope, collective] = cuts[k - 1];
    result.cutScopes.push_back(scope);
    if (collective) {
      collective->region = k;
      collective->operand = storeInSlot(call->getArgOperand(0), call, *entry, "collective.operand");
      for (unsigned i = 1; i < call->arg_size(); ++i)
        collective->source.push_back(storeInSlot(call->getArgOperand(i), call, *entry, "broadcast.source"));
      collective->result = new AllocaInst(call->getType(), 0, "collective.result", entry->getTerminator());
    }
    BasicBlock *before = call->getParent();
    BasicBlock *after = before->splitBasicBlock(call, "region" + Twine(k));
    before->getTerminator()->eraseFromParent();
    ReturnInst::Create(context, ConstantInt::get(i32, k), before);
    dispatch->addCase(ConstantInt::get(cast<IntegerType>(i32), k), after);
    if (collective) {
      call->replaceAllUsesWith(new LoadInst(call->getType(), collective->result, call->getName(), call));
      result.collectives.push_back(*collective);
    }
    call->eraseFromParent();
  }

  // Values a resumed region uses without having computed them: live across a barrier. A demoted
  // phi is reloaded where it stood, and that reload may itself be used after the barrier: repeat
  // until every use is dominated (the CFG, and so the dominator tree, no longer changes).
  // A reload of a uniform value's storage is as uniform as the value.
  SmallPtrSet<AllocaInst *, 16> uniformStorage;
  auto isUniform = [&](Instruction *value) {
    if (auto *load = dyn_cast<LoadInst>(value))
      if (auto *storage = dyn_cast<AllocaInst>(load->getPointerOperand()))
        return uniformStorage.contains(storage);
    return uniform.contains(value);
  };
  DominatorTree dominators(function);
  keepPointersAsOffsets(function, dominators, uniform);
  for (;;) {
    SmallVector<Instruction *, 16> values;
    SmallVector<PHINode *, 16> phis;
    for (Instruction &instruction : instructions(function)) {
      if (isa<AllocaInst>(instruction) || !dominators.isReachableFromEntry(instruction.getParent()))
        continue;
      if (all_of(instruction.uses(), [&](const Use &use) { return dominators.dominates(&instruction, use); }))
        continue;
      if (auto *phi = dyn_cast<PHINode>(&instruction))
        phis.push_back(phi);
      else
        values.push_back(&instruction);
    }
    if (values.empty() && phis.empty())
      break;
    // Values first: demoting them rewrites the phis' incoming values into loads (as reg2mem does).
    for (Instruction *value : values) {
      const bool same = isUniform(value);
      AllocaInst *storage = DemoteRegToStack(*value, false, dispatch);
      if (same)
        uniformStorage.insert(storage);
    }
    for (PHINode *phi : phis) {
      const bool same = isUniform(phi);
      AllocaInst *storage = DemotePHIToStack(phi, dispatch);
      if (same)
        uniformStorage.insert(storage);
    }
  }

  SmallVector<AllocaInst *, 16> allocas;
  for (Instruction &instruction : *entry)
    if (auto *alloca = dyn_cast<AllocaInst>(&instruction))
      allocas.push_back(alloca);
  for (AllocaInst *alloca : allocas) {
    dropLifetimeMarkers(*alloca);
    if (!uniformStorage.contains(alloca)) {
      result.liveAcrossBarriers.push_back(alloca);
      continue;
    }
    // Private storage the region works on, loaded when any region starts, and saved as soon as it
    // is written rather than at the cuts: in hardware, a work-item's saved copy at a cut after an
    // inner loop would make the next work-item wait for it to leave that loop.
    Type *type = alloca->getAllocatedType();
    UniformValue saved;
    saved.atEntry = new AllocaInst(type, 0, nullptr, alloca->getAlign(), alloca->getName() + ".at.entry", dispatch);
    saved.atExit = new AllocaInst(type, 0, nullptr, alloca->getAlign(), alloca->getName() + ".at.exit", dispatch);
    new StoreInst(new LoadInst(type, saved.atEntry, "", dispatch), alloca, dispatch);
    SmallVector<StoreInst *, 8> writes;
    for (User *user : alloca->users())
      if (auto *store = dyn_cast<StoreInst>(user); store && store->getPointerOperand() == alloca)
        writes.push_back(store);
    for (StoreInst *write : writes)
      new StoreInst(write->getValueOperand(), saved.atExit, write->getNextNode());
    result.uniformAcrossBarriers.push_back(saved);
  }
  return result;
}

} // namespace loom::lowering
