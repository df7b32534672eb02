//===- CombineGroupAtomics.h - A work-group's relaxed atomic updates, combined -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A histogram kernel, `atomic_inc(&bins[in[get_global_id(0)] & 255])`, issues one locked add per
// work-item, and the device's threads contend for the same few cache lines: that is as fast as PoCL
// runs it, and no faster. OpenCL 1.x atomics are relaxed (atomic.cl makes them monotonic on the
// host): they order nothing, so a work-group whose work-items' updates of one location all happen
// at once, back to back, is one of the executions the program allows. The CPU device runs that
// execution: a work-group function keeps the group's updates in a private table, one entry per
// location, and applies each entry with one atomic when the group ends.
//
// Two steps, because only the kernel shows what one work-item does and only the optimised
// work-group function shows the loop over the group's work-items:
//  - before the work-group functions are made (markCombinableAtomics), a kernel's atomic update is
//    marked combinable when it is relaxed, its old value unused, its object a kernel argument or a
//    program-scope variable, and nothing the work-item may do after it touches memory the update
//    may touch, except further updates of that object by the same operation: the work-item cannot
//    see that its update was held back, and nothing it does later can tell another work-item that
//    it happened;
//  - after O3 (combineGroupAtomics), a work-group function's marked updates `atomicrmw OP
//    (gep base, index), v` whose base is the same for the whole group and whose index lies in a
//    range of at most MaxCombinedEntries become `table[index - low] OP= v`; the table starts as
//    OP's identity, and before the function returns each entry that is not the identity is applied
//    with one relaxed atomic `atomicrmw OP (gep base, low + i), table[i]`.
// add and sub, and, or, xor, and the four kinds of min and max combine; exchanges and
// compare-exchanges, whose old values are what they are for, do not.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/KernelInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>

namespace loom::runtime::cpu {

/// The largest table of one combined object, in entries: the group flushes every entry, so a table
/// far larger than the group's work-items would cost more than the atomics it saves.
constexpr uint64_t MaxCombinedEntries = 1024;

/// Marks the atomic updates of `kernels` that a work-group may combine; returns how many it marked.
unsigned markCombinableAtomics(llvm::Module &module, llvm::ArrayRef<frontend::KernelInfo> kernels);

/// Combines the marked updates of the optimised work-group functions `symbols`; returns how many
/// updates it combined.
unsigned combineGroupAtomics(llvm::Module &module, llvm::ArrayRef<std::string> symbols);

} // namespace loom::runtime::cpu
