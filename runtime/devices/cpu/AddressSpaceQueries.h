//===- AddressSpaceQueries.h - to_global, to_local, to_private on the CPU -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// On the CPU every memory is the host's, so where a generic pointer points is a question of
// addresses: into the thread's __local scratch (its size in `info`), into the thread's stack or the
// group's context (private memory: what the work-items keep across barriers lives there), or
// elsewhere, which is global memory (buffers, program-scope variables).
//
// Before: %g = call i8* @__to_global(i8* %p)   (Clang's call for to_global; loom/lowering/AddressSpaceQueries.h)
// After:  %g = select i1 <%p is neither __local nor private>, i8* %p, i8* null
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/Function.h"

namespace loom::runtime::cpu {

/// Replaces the work-item function's to_global, to_local and to_private with tests of the pointer
/// against `scratch` and the bounds in `info` (WorkGroupInfo, as an i8 pointer).
void answerAddressSpaceQueries(llvm::Function &workItem, llvm::Value *scratch, llvm::Value *info);

} // namespace loom::runtime::cpu
