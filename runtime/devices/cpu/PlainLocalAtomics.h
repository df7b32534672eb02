//===- PlainLocalAtomics.h - Atomics on __local memory as plain accesses -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU device runs a work-group on one thread, and its __local memory is that thread's scratch:
// no other thread reads or writes it while the group runs. An atomic read-modify-write there (the
// bins of a __local histogram, a work-group's counter) needs no locked instruction, which costs some
// twenty cycles where a plain one costs one: it becomes a load, the operation and a store
// (LLVM's LowerAtomic), and a compare-exchange a load, a compare and a store. Work-items that take
// turns on the thread (sub-groups at a yield, regions between barriers) never stop inside one.
// It runs after SpinLoopYields, which finds the loops that wait on an atomic read: their yields keep
// the now plain read in the loop.
//
// Before: %old = atomicrmw add i32* %bin, i32 1 monotonic      (%bin in __local memory)
// After:  %old = load i32, i32* %bin; %new = add i32 %old, 1; store i32 %new, i32* %bin
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Function.h"

namespace loom::runtime::cpu {

/// Makes the atomics of `workItem` whose object is one of `localMemory` (the __local arguments and
/// the scratch the __local variables live in) plain accesses; returns how many it changed.
unsigned makeLocalAtomicsPlain(llvm::Function &workItem, llvm::ArrayRef<const llvm::Value *> localMemory);

} // namespace loom::runtime::cpu
