//===- GroupCollectives.h - Work-group functions between two regions -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU device's side of a lowering::Collective: after every work-item of a group (a sub-group)
// has run the region that ends at work_group_reduce_add(x) (sub_group_reduce_add(x)) and stored x
// in its context slot, the work-group function runs one loop over those work-items in local linear
// id order that combines the operands and stores each one's result in its result slot; the next
// region loads it from there.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/lowering/BarrierRegions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <cstdint>

namespace loom::runtime::cpu {

/// Where a per-work-item value lives in a group's context: work-item i's copy at
/// context + groupItems * offset + i * bytes.
struct ContextSlot {
  uint64_t offset = 0;
  uint64_t bytes = 0;
  llvm::Type *type = nullptr;
};

/// A lowering::Collective with its storage placed in the context.
struct GroupCollective {
  lowering::Collective form; ///< What it computes; its allocas are gone, replaced by the slots below.
  ContextSlot operand, result;
  llvm::SmallVector<ContextSlot, 3> source; ///< Broadcast's local id, per dimension given.
};

/// Emits the collective at `b`'s position (in the work-group function, between its regions' loops)
/// over the `count` work-items from local linear id `first` (the group, or one sub-group), and
/// leaves `b` after it. `localSizes` are the group's three sizes.
void emitGroupCollective(llvm::IRBuilder<> &b, const GroupCollective &collective, llvm::Value *context,
                         llvm::ArrayRef<llvm::Value *> localSizes, llvm::Value *first, llvm::Value *count);

} // namespace loom::runtime::cpu
