//===- SplitArrayChoices.cpp - an access through a choice of arrays, per array ===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel where a load or store goes through a pointer chosen between different arrays, at
// least one of them on-chip: `store v, phi [&buffer[t], %then], [&matrix[k], %else]`, as LLVM's
// SimplifyCFG leaves two stores of one value it sank out of an if/else (Rodinia's leukocyte), or a
// select of such pointers, offset or not after the choice. In hardware every on-chip array is a
// memory of its own, so no one access can reach two of them. After: one access per array. Each
// array's access has a condition (which way the choices went: phis of flags, selects of the
// conditions) and a byte offset into that array (0 where the choices went elsewhere), the array
// plus that offset its pointer: a store is made under its condition; a load reads every array and
// selects the chosen value. An access through a phi of pointers into one on-chip array (a pointer
// stepped in a loop, or chosen in the barrier lowering's copies) goes through the array plus the
// chosen offset, so that it names its array. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "loom/lowering/ArrayOffsets.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <map>

namespace loom::hls {
namespace {

using namespace llvm;

/// An array the hardware knows at compile time: an on-chip one, a buffer argument, a global.
bool isIdentified(const Value *array) {
  return isOnChipArray(array) || isa<Argument>(array) || isa<GlobalVariable>(array);
}

/// Per array a pointer may reach: whether it does, and its byte offset into the array when it does.
struct Alternative {
  Value *taken = nullptr;
  Value *offset = nullptr;
};
using Alternatives = MapVector<const Value *, Alternative>;

/// The alternatives of pointers, found through the phis, selects, GEPs and casts that choose and
/// offset them; none when a choice reaches something else (a pointer stepped in a loop, or loaded).
/// What it builds and no split uses is left dead.
class Choices {
public:
  explicit Choices(const DataLayout &layout) : layout_(layout) {}

  const Alternatives &of(Value *pointer) {
    if (auto it = found_.find(pointer); it != found_.end())
      return it->second;
    found_[pointer]; // A phi reached again through its own operands (a loop) has none.
    Alternatives alternatives = compute(pointer);
    return found_[pointer] = std::move(alternatives);
  }

private:
  Alternatives compute(Value *pointer) {
    Alternatives result;
    Type *offsetType = layout_.getIntPtrType(pointer->getType());
    Constant *zero = ConstantInt::get(offsetType, 0);
    if (isIdentified(pointer)) {
      result[pointer] = {ConstantInt::getTrue(pointer->getContext()), zero};
      return result;
    }
    auto *inst = dyn_cast<Instruction>(pointer);
    if (inst && isa<CastInst>(inst)) {
      result = of(inst->getOperand(0));
    } else if (auto *gep = dyn_cast_or_null<GetElementPtrInst>(inst)) {
      const Alternatives bases = of(gep->getPointerOperand());
      IRBuilder<> b(gep);
      Value *step = EmitGEPOffset(&b, layout_, gep, /*NoAssumptions=*/true);
      for (const auto &[array, base] : bases)
        result[array] = {base.taken, b.CreateAdd(base.offset, step)};
    } else if (auto *select = dyn_cast_or_null<SelectInst>(inst)) {
      const Alternatives sides[] = {of(select->getTrueValue()), of(select->getFalseValue())};
      if (sides[0].empty() || sides[1].empty())
        return result;
      IRBuilder<> b(select);
      for (const Alternatives &side : sides)
        for (const auto &entry : side) {
          const Value *array = entry.first;
          if (result.count(array))
            continue;
          Value *taken[2], *offset[2];
          for (int s = 0; s < 2; ++s) {
            auto it = sides[s].find(array);
            taken[s] = it == sides[s].end() ? b.getFalse() : it->second.taken;
            offset[s] = it == sides[s].end() ? zero : it->second.offset;
          }
          Value *condition = select->getCondition();
          result[array] = {b.CreateSelect(condition, taken[0], taken[1]), b.CreateSelect(condition, offset[0], offset[1])};
        }
    } else if (auto *phi = dyn_cast_or_null<PHINode>(inst)) {
      SmallVector<const Value *, 4> arrays;
      getUnderlyingObjects(phi, arrays, /*LI=*/nullptr, /*MaxLookup=*/0);
      if (arrays.empty() || !all_of(arrays, isIdentified))
        return result;
      // The phis first, so that a loop's choices reach back to them (an offset stepped in the loop).
      IRBuilder<> b(phi);
      Alternatives &building = found_[phi];
      for (const Value *array : arrays) {
        PHINode *taken = b.CreatePHI(b.getInt1Ty(), phi->getNumIncomingValues(), phi->getName() + ".taken");
        PHINode *offset = b.CreatePHI(offsetType, phi->getNumIncomingValues(), phi->getName() + ".offset");
        phis_.emplace_back(taken);
        phis_.emplace_back(offset);
        building[array] = {taken, offset};
      }
      bool complete = true;
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
        const Alternatives from = of(phi->getIncomingValue(i));
        complete &= !from.empty();
        for (auto &[array, alternative] : building) {
          auto it = from.find(array);
          const bool reaches = it != from.end();
          cast<PHINode>(alternative.taken)->addIncoming(reaches ? it->second.taken : b.getFalse(),
                                                        phi->getIncomingBlock(i));
          cast<PHINode>(alternative.offset)->addIncoming(reaches ? it->second.offset : zero, phi->getIncomingBlock(i));
        }
      }
      if (complete)
        result = building;
    }
    return result;
  }

  const DataLayout &layout_;
  std::map<Value *, Alternatives> found_; ///< Node-based: references stay valid as it grows.
  std::vector<WeakTrackingVH> phis_;

public:
  /// The phis built that no split uses (cycles of them too).
  void removeUnused() {
    for (WeakTrackingVH &phi : phis_)
      if (phi.pointsToAliveValue())
        RecursivelyDeleteDeadPHINode(cast<PHINode>(&*phi));
  }
};

/// `array` plus `offset` bytes, as a pointer of `type`, at `b`.
Value *into(IRBuilder<> &b, const Value *array, Value *offset, Type *type) {
  return lowering::pointerAtOffset(b, const_cast<Value *>(array), offset, type);
}

void split(Instruction &access, const Alternatives &alternatives) {
  Type *pointerType = getLoadStorePointerOperand(&access)->getType();
  if (auto *load = dyn_cast<LoadInst>(&access)) {
    // Reads of on-chip memory have no effect: each array is read, the chosen value kept.
    IRBuilder<> b(load);
    Value *value = nullptr;
    for (const auto &[array, alternative] : alternatives) {
      LoadInst *read = b.CreateAlignedLoad(load->getType(), into(b, array, alternative.offset, pointerType),
                                           load->getAlign(), load->isVolatile(), load->getName());
      read->copyMetadata(*load);
      value = value ? b.CreateSelect(alternative.taken, read, value) : read;
    }
    load->replaceAllUsesWith(value);
  } else {
    auto &store = cast<StoreInst>(access);
    for (const auto &[array, alternative] : alternatives) {
      Instruction *then = SplitBlockAndInsertIfThen(alternative.taken, &store, /*Unreachable=*/false);
      IRBuilder<> b(then);
      b.CreateAlignedStore(store.getValueOperand(), into(b, array, alternative.offset, pointerType),
                           store.getAlign(), store.isVolatile())
          ->copyMetadata(store);
    }
  }
  access.eraseFromParent();
}

/// Whether `pointer` goes through a phi or select (its alternatives are then worth finding).
bool isChosen(Value *pointer) {
  for (Value *step = pointer;;) {
    if (isa<PHINode>(step) || isa<SelectInst>(step))
      return true;
    if (!isa<CastInst>(step) && !isa<GetElementPtrInst>(step))
      return false;
    step = cast<Instruction>(step)->getOperand(0);
  }
}

} // namespace

void splitArrayChoices(Function &kernel) {
  SmallVector<Instruction *, 4> accesses;
  for (Instruction &inst : instructions(kernel))
    if ((isa<LoadInst>(inst) || isa<StoreInst>(inst)) && isChosen(getLoadStorePointerOperand(&inst)))
      accesses.push_back(&inst);
  if (accesses.empty())
    return;
  Choices alternativesOf(kernel.getParent()->getDataLayout());
  for (Instruction *access : accesses) {
    const Alternatives &alternatives = alternativesOf.of(getLoadStorePointerOperand(access));
    // Split when the access may reach several arrays, at least one of them on-chip.
    if (alternatives.size() > 1 &&
        any_of(alternatives, [](const auto &alternative) { return isOnChipArray(alternative.first); })) {
      split(*access, alternatives);
    } else if (alternatives.size() == 1 && isOnChipArray(alternatives.front().first) &&
               getUnderlyingObject(getLoadStorePointerOperand(access), /*MaxLookup=*/0) != alternatives.front().first) {
      // One array, chosen among its elements through a phi: the array plus the chosen offset, so
      // that the access names its array.
      IRBuilder<> b(access);
      Use &pointer = access->getOperandUse(isa<LoadInst>(access) ? LoadInst::getPointerOperandIndex()
                                                                 : StoreInst::getPointerOperandIndex());
      pointer.set(into(b, alternatives.front().first, alternatives.front().second.offset, pointer->getType()));
    }
  }
  // The choices no access uses any more, and the alternatives no split used.
  alternativesOf.removeUnused();
  for (bool erased = true; erased;) {
    erased = false;
    for (Instruction &inst : make_early_inc_range(instructions(kernel)))
      if (isInstructionTriviallyDead(&inst)) {
        inst.eraseFromParent();
        erased = true;
      }
  }
}

} // namespace loom::hls
