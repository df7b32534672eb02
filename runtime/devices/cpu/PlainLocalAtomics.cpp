//===- PlainLocalAtomics.cpp - Atomics on __local memory as plain accesses ----===//
// SPDX-License-Identifier: Apache-2.0
#include "devices/cpu/PlainLocalAtomics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

namespace loom::runtime::cpu {

using namespace llvm;

unsigned makeLocalAtomicsPlain(Function &workItem, ArrayRef<const Value *> localMemory) {
  auto isLocal = [&](const Value *pointer) { return is_contained(localMemory, getUnderlyingObject(pointer)); };
  SmallVector<Instruction *, 8> atomics;
  for (Instruction &inst : instructions(workItem))
    if (auto *update = dyn_cast<AtomicRMWInst>(&inst); update && isLocal(update->getPointerOperand()))
      atomics.push_back(update);
    else if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&inst); exchange && isLocal(exchange->getPointerOperand()))
      atomics.push_back(exchange);
  for (Instruction *atomic : atomics)
    if (auto *update = dyn_cast<AtomicRMWInst>(atomic))
      lowerAtomicRMWInst(update);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(atomic));
  return atomics.size();
}

} // namespace loom::runtime::cpu
