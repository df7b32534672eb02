//===- WorkItemLoops.h - Kernels to work-group functions with work-item loops -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU device runs a kernel one work-group per call. For each kernel this transformation adds
//   void <kernel>.loom_wg(i8** args, const i64* info, i8* localScratch, i8* context)
// that loads the arguments from `args`, then loops over the local ids (dimension 0 innermost) around
// an always-inlined clone of the kernel in which the work-item builtins (get_global_id, ...) are
// values computed from the loop variables and `info` (see WorkGroupInfo). This is PoCL's
// "work-item loops"; after inlining, the innermost loop is the kernel body, which the O3 loop
// vectoriser turns into SIMD code for simple kernels. A kernel with barriers is cut into regions
// (loom/lowering/BarrierRegions.h): each region gets loops of its own, run one after the other in
// the order the barriers reached give, and what a work-item keeps across a barrier lives in
// `context`, one array per value over the group's work-items.
//
// Before: define void @vector_add(float* %a, float* %b, float* %c) { %i = call i64 @_Z13get_global_idj(i32 0) ... }
// After:  the same, plus @vector_add.loom_wi(%a, %b, %c, <work-item values>, i32 %resume, i8* %context)
//         (internal, alwaysinline, returning the next region) and @vector_add.loom_wg(...) with the
//         z/y/x loops.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/KernelInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace loom::runtime::cpu {

/// The `info` array a work-group function reads: what the work-item builtins return.
namespace WorkGroupInfo {
enum : unsigned {
  GroupId = 0,      ///< [3] this work-group's id.
  GlobalSize = 3,   ///< [3]
  EnqueuedLocalSize = 6, ///< [3] the launch's; a last, partial group is smaller (the function computes it)
  GlobalOffset = 9, ///< [3]
  NumGroups = 12,   ///< [3]
  WorkDim = 15,     ///< [1]
  PrintfBuffer = 16, ///< [1] the launch's printf buffer (lowering/Printf.h), for a kernel that prints.
  /// [1] the bytes of the thread's __local scratch; [2] the first byte and the end of the thread's
  /// stack and of its context: where to_local and to_private look (AddressSpaceQueries.h).
  LocalBytes = 17,
  StackBounds = 18,
  ContextBounds = 20,
  Count = 22,
};
} // namespace WorkGroupInfo

/// The CPU device's sub-groups: runs of this many work-items in local linear id order (the last of a
/// group may be shorter). Eight floats are one AVX register.
constexpr unsigned SubGroupSize = 8;

/// The signature of a generated work-group function. `context` holds what the group's work-items
/// keep across barriers: contextBytesPerItem for each work-item of the group.
using WorkGroupFn = void (*)(void **args, const uint64_t *info, uint8_t *localScratch, uint8_t *context);

struct WorkGroupFunction {
  std::string kernel; ///< The kernel's name.
  std::string symbol; ///< The work-group function's symbol.
  uint64_t staticLocalBytes = 0; ///< __local variables declared in the kernel, at the scratch start.
  uint64_t contextBytesPerItem = 0; ///< Private storage live across barriers, per work-item.
  bool prints = false; ///< The kernel calls printf: its launches need a printf buffer.
};

/// Checks the module for what the CPU device cannot run yet (builtins it does not provide), with file:line:col when the module has line tables. `isDefined` says whether the
/// process provides a symbol.
llvm::Error checkSupported(const llvm::Module &module, bool (*isDefined)(llvm::StringRef symbol));

/// Adds one work-group function per kernel (in `kernels` order) and makes the kernels themselves
/// internal so the optimiser may drop them.
llvm::Expected<std::vector<WorkGroupFunction>>
addWorkGroupFunctions(llvm::Module &module, llvm::ArrayRef<frontend::KernelInfo> kernels);

} // namespace loom::runtime::cpu
