//===- Collectives.h - What a work-group or sub-group function computes -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The arithmetic of a lowering::Collective, shared by the back ends, which differ only in how they
// visit the work-items (the CPU: a loop between two regions' loops; the hardware: one more pass of
// the group's work-items through the pipeline). A reduction, all, any and a scan fold the operands
// in local linear id order, starting from collectiveIdentity, with emitCollectiveCombine. Float sums
// are taken in that order (the spec leaves it open). The identities are the spec's: 0 for add, the
// type's largest value (+inf) for min, its smallest (-inf) for max; all and any fold an i1.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/lowering/BarrierRegions.h"

#include "llvm/IR/IRBuilder.h"

namespace loom::lowering {

/// The type a collective folds its operands of `operandType` in: i1 for all and any.
llvm::Type *collectiveAccumulatorType(const Collective &collective, llvm::Type *operandType);

/// The value the fold of a reduction, scan, all or any starts from, of collectiveAccumulatorType.
llvm::Value *collectiveIdentity(const Collective &collective, llvm::Type *operandType);

/// `accumulated` combined with one work-item's `operand`, at `b`.
llvm::Value *emitCollectiveCombine(llvm::IRBuilder<> &b, const Collective &collective, llvm::Value *accumulated,
                                   llvm::Value *operand);

/// The result of a reduction, all or any from the accumulated value (all and any give an int).
llvm::Value *emitCollectiveResult(llvm::IRBuilder<> &b, const Collective &collective, llvm::Value *accumulated,
                                  llvm::Type *resultType);

} // namespace loom::lowering
