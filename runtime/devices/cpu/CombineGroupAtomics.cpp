//===- CombineGroupAtomics.cpp - A work-group's relaxed atomic updates, combined ----===//
// SPDX-License-Identifier: Apache-2.0
#include "devices/cpu/CombineGroupAtomics.h"

#include "loom/lowering/WorkItemFunction.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace loom::runtime::cpu {

using namespace llvm;

namespace {

constexpr const char *CombinableKind = "loom.combinable";

/// An update the table can hold: integer, relaxed, not volatile, its old value unused.
bool isCombinableUpdate(const AtomicRMWInst &update) {
  switch (update.getOperation()) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::And:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::Max:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin:
    break;
  default:
    return false;
  }
  return update.getOrdering() == AtomicOrdering::Monotonic && !update.isVolatile() && update.use_empty() &&
         update.getType()->isIntegerTy();
}

/// Whether two underlying objects cannot overlap: distinct ones among private memory, variables and
/// kernel arguments, unless both are arguments and neither is restrict (one buffer may be passed twice).
bool areDisjoint(const Value *a, const Value *b) {
  auto known = [](const Value *v) { return isa<AllocaInst>(v) || isa<GlobalVariable>(v) || isa<Argument>(v); };
  auto plainArgument = [](const Value *v) {
    const auto *argument = dyn_cast<Argument>(v);
    return argument && !argument->hasNoAliasAttr();
  };
  return a != b && known(a) && known(b) && !(plainArgument(a) && plainArgument(b));
}

/// Whether `inst`, which a work-item may run after `update`, leaves alone the memory `update` may
/// touch, as far as the kernel shows.
bool leavesAlone(const Instruction &inst, const AtomicRMWInst &update, const Value *object) {
  if (!inst.mayReadOrWriteMemory() || isa<DbgInfoIntrinsic>(inst) || inst.isLifetimeStartOrEnd())
    return true;
  if (const auto *call = dyn_cast<CallBase>(&inst))
    return call->getCalledFunction() && lowering::isWorkItemBuiltin(call->getCalledFunction()->getName());
  const Value *pointer = getLoadStorePointerOperand(&inst);
  if (const auto *other = dyn_cast<AtomicRMWInst>(&inst)) {
    pointer = other->getPointerOperand();
    if (getUnderlyingObject(pointer) == object)
      return isCombinableUpdate(*other) && other->getOperation() == update.getOperation();
  }
  return pointer && areDisjoint(getUnderlyingObject(pointer), object);
}

/// Whether everything a work-item may run after `update` (up to the kernel's end, round its loops)
/// leaves alone the memory `update` may touch.
bool nothingTouchesAfter(const AtomicRMWInst &update, const Value *object) {
  SmallVector<const BasicBlock *, 16> pending;
  SmallPtrSet<const BasicBlock *, 16> seen;
  for (const Instruction *inst = update.getNextNode(); inst; inst = inst->getNextNode())
    if (!leavesAlone(*inst, update, object))
      return false;
  pending.append(succ_begin(update.getParent()), succ_end(update.getParent()));
  while (!pending.empty()) {
    const BasicBlock *block = pending.pop_back_val();
    if (!seen.insert(block).second)
      continue;
    for (const Instruction &inst : *block)
      if (&inst != &update && !leavesAlone(inst, update, object))
        return false;
    pending.append(succ_begin(block), succ_end(block));
  }
  return true;
}

/// Runs `body(b, i)` for i = 0 .. count - 1 in a loop placed just before `before`.
void emitCountedLoop(Instruction *before, uint64_t count, function_ref<void(IRBuilder<> &, Value *)> body) {
  BasicBlock *head = before->getParent();
  BasicBlock *tail = SplitBlock(head, before);
  BasicBlock *loop = BasicBlock::Create(head->getContext(), "combined.loop", head->getParent(), tail);
  head->getTerminator()->setSuccessor(0, loop);
  IRBuilder<> b(loop);
  PHINode *i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(b.getInt64(0), head);
  auto *next = cast<Instruction>(b.CreateAdd(i, b.getInt64(1)));
  BranchInst *back = b.CreateCondBr(b.CreateICmpEQ(next, b.getInt64(count)), tail, loop);
  b.SetInsertPoint(next);
  body(b, i);
  i->addIncoming(next, back->getParent());
}

/// OP's identity: what an entry no update reached holds.
Constant *identityOf(AtomicRMWInst::BinOp op, IntegerType *type) {
  const unsigned bits = type->getBitWidth();
  switch (op) {
  case AtomicRMWInst::And:
  case AtomicRMWInst::UMin:
    return ConstantInt::get(type, APInt::getAllOnes(bits));
  case AtomicRMWInst::Max:
    return ConstantInt::get(type, APInt::getSignedMinValue(bits));
  case AtomicRMWInst::Min:
    return ConstantInt::get(type, APInt::getSignedMaxValue(bits));
  default: // add, sub (the table holds what to subtract), or, xor, umax
    return ConstantInt::get(type, 0);
  }
}

/// An entry updated by `v`: sub adds up what it subtracts, the others are their own operation.
Value *accumulate(IRBuilder<> &b, AtomicRMWInst::BinOp op, Value *entry, Value *v) {
  switch (op) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
    return b.CreateAdd(entry, v);
  case AtomicRMWInst::And:
    return b.CreateAnd(entry, v);
  case AtomicRMWInst::Or:
    return b.CreateOr(entry, v);
  case AtomicRMWInst::Xor:
    return b.CreateXor(entry, v);
  case AtomicRMWInst::Max:
    return b.CreateBinaryIntrinsic(Intrinsic::smax, entry, v);
  case AtomicRMWInst::Min:
    return b.CreateBinaryIntrinsic(Intrinsic::smin, entry, v);
  case AtomicRMWInst::UMax:
    return b.CreateBinaryIntrinsic(Intrinsic::umax, entry, v);
  default:
    return b.CreateBinaryIntrinsic(Intrinsic::umin, entry, v);
  }
}

/// The marked updates of one object by one operation in a work-group function, and the range of
/// elements they reach.
struct CombinedObject {
  Value *base = nullptr;
  AtomicRMWInst::BinOp op = AtomicRMWInst::Add;
  IntegerType *type = nullptr;
  SmallVector<std::pair<AtomicRMWInst *, Value *>, 4> updates; ///< each with its element index
  APInt low, high;                                              ///< signed, 64 bits
};

/// Whether `value` is the same for the whole call of `group`.
bool isGroupInvariant(const Value *value, const Function &group) {
  if (isa<Argument>(value) || isa<Constant>(value))
    return true;
  const auto *inst = dyn_cast<Instruction>(value);
  return inst && inst->getParent() == &group.getEntryBlock();
}

/// Replaces `object`'s updates with a table and applies it before each return of `group`.
void combine(Function &group, CombinedObject &object) {
  const uint64_t entries = (object.high - object.low).getZExtValue() + 1;
  Constant *identity = identityOf(object.op, object.type);
  // The table among the entry block's allocas, which stay static; its filling after them.
  BasicBlock &entry = group.getEntryBlock();
  IRBuilder<> b(&entry, entry.getFirstInsertionPt());
  ArrayType *tableType = ArrayType::get(object.type, entries);
  AllocaInst *table = b.CreateAlloca(tableType, nullptr, "combined.table");
  auto entryAt = [&](IRBuilder<> &b, Value *i) { return b.CreateInBoundsGEP(tableType, table, {b.getInt64(0), i}); };
  Instruction *afterAllocas = table;
  while (isa<AllocaInst>(afterAllocas))
    afterAllocas = afterAllocas->getNextNode();
  emitCountedLoop(afterAllocas, entries,
                  [&](IRBuilder<> &b, Value *i) { b.CreateStore(identity, entryAt(b, i)); });

  const DebugLoc location = object.updates.front().first->getDebugLoc();
  for (auto &[update, index] : object.updates) {
    IRBuilder<> u(update);
    Value *offset = u.CreateSub(u.CreateSExtOrTrunc(index, u.getInt64Ty()), u.getInt64(object.low.getSExtValue()));
    Value *slot = entryAt(u, offset);
    Value *sum = accumulate(u, object.op, u.CreateLoad(object.type, slot), update->getValOperand());
    u.CreateStore(sum, slot);
    update->eraseFromParent();
  }

  SmallVector<ReturnInst *, 2> returns;
  for (BasicBlock &block : group)
    if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator()))
      returns.push_back(ret);
  for (ReturnInst *ret : returns)
    emitCountedLoop(ret, entries, [&](IRBuilder<> &b, Value *i) {
      Value *held = b.CreateLoad(object.type, entryAt(b, i));
      Instruction *apply = SplitBlockAndInsertIfThen(b.CreateICmpNE(held, identity), &*b.GetInsertPoint(), false);
      IRBuilder<> a(apply);
      Value *element = a.CreateGEP(object.type, object.base, a.CreateAdd(i, a.getInt64(object.low.getSExtValue())));
      a.CreateAtomicRMW(object.op, element, held, MaybeAlign(), AtomicOrdering::Monotonic)->setDebugLoc(location);
    });
}

} // namespace

unsigned markCombinableAtomics(Module &module, ArrayRef<frontend::KernelInfo> kernels) {
  MDNode *mark = MDNode::get(module.getContext(), {});
  unsigned marked = 0;
  for (const frontend::KernelInfo &kernel : kernels) {
    Function *function = module.getFunction(kernel.name);
    if (!function || function->isDeclaration())
      continue;
    for (Instruction &inst : instructions(*function)) {
      auto *update = dyn_cast<AtomicRMWInst>(&inst);
      if (!update || !isCombinableUpdate(*update))
        continue;
      const Value *object = getUnderlyingObject(update->getPointerOperand());
      if (!isa<Argument>(object) && !isa<GlobalVariable>(object))
        continue;
      if (nothingTouchesAfter(*update, object)) {
        update->setMetadata(CombinableKind, mark);
        ++marked;
      }
    }
  }
  return marked;
}

unsigned combineGroupAtomics(Module &module, ArrayRef<std::string> symbols) {
  unsigned combined = 0;
  for (const std::string &symbol : symbols) {
    Function *group = module.getFunction(symbol);
    if (!group || group->isDeclaration())
      continue;
    // Marked updates of one object are all of one operation in each work-item, and commute: those the
    // table cannot hold may stay atomic beside it, and two tables of one object may apply in either order.
    MapVector<std::pair<Value *, unsigned>, CombinedObject> objects;
    for (Instruction &inst : instructions(*group)) {
      auto *update = dyn_cast<AtomicRMWInst>(&inst);
      if (!update || !update->getMetadata(CombinableKind) || !isCombinableUpdate(*update))
        continue;
      Value *base = update->getPointerOperand();
      Value *index = ConstantInt::get(Type::getInt64Ty(module.getContext()), 0);
      if (auto *gep = dyn_cast<GEPOperator>(base);
          gep && gep->getNumIndices() == 1 && gep->getSourceElementType() == update->getType()) {
        base = gep->getPointerOperand();
        index = gep->getOperand(1);
      }
      // What the index's instructions bound it to (`and`, `urem`, ...), and what its known bits allow
      // (through the `zext` to the pointer's width, which the former does not look through).
      const ConstantRange range =
          computeConstantRange(index, /*ForSigned=*/true, true, nullptr, update)
              .intersectWith(ConstantRange::fromKnownBits(computeKnownBits(index, module.getDataLayout()), true));
      if (!isGroupInvariant(base, *group) || range.isEmptySet() ||
          (range.getSignedMax() - range.getSignedMin()).uge(MaxCombinedEntries))
        continue;
      const APInt low = range.getSignedMin().sext(64), high = range.getSignedMax().sext(64);
      CombinedObject &object = objects[{base, unsigned(update->getOperation())}];
      if (!object.base)
        object = {base, update->getOperation(), cast<IntegerType>(update->getType()), {}, low, high};
      if (object.type != update->getType())
        continue;
      object.low = APIntOps::smin(object.low, low);
      object.high = APIntOps::smax(object.high, high);
      object.updates.push_back({update, index});
    }
    for (auto &entry : objects) {
      CombinedObject &object = entry.second;
      if ((object.high - object.low).uge(MaxCombinedEntries))
        continue; // the unrolled copies' ranges together
      combined += object.updates.size();
      combine(*group, object);
    }
  }
  return combined;
}

} // namespace loom::runtime::cpu
