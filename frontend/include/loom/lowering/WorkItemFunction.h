//===- WorkItemFunction.h - A kernel as a function of one work-item -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The part of the kernel-lowering stage both back ends use to run a work-group as loops over its
// work-items: the kernel cloned into a work-item function whose work-item values (ids, sizes) are
// parameters, and the z/y/x loops that call it for every work-item of a group. The CPU device wraps
// them in a work-group function it calls per group (runtime/devices/cpu/WorkItemLoops); the hardware
// flow makes them the body of a kernel that runs once per group (hls/passes/FormWorkGroupLoops).
//
//   define internal i32 @k.loom_wi(<k's parameters>, i64 x18 <WorkItemParam values>, i32 %work_dim,
//                                  i32 %resume, <the back end's parameters>)
//
// returns lowering::FinishedRegion once cut by formBarrierRegions (BarrierRegions.h), which the
// back end calls on it with its `resume` parameter.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Error.h"

#include <array>

namespace loom::lowering {

/// The work-item function's parameters after the kernel's own, as offsets from the first of them.
namespace WorkItemParam {
enum : unsigned {
  LocalId = 0,            ///< [3] i64
  GroupId = 3,            ///< [3] i64
  GlobalSize = 6,         ///< [3] i64
  LocalSize = 9,          ///< [3] i64: this group's (smaller than enqueued for a last, partial group)
  EnqueuedLocalSize = 12, ///< [3] i64: the launch's, which every group but a partial last one has
  GlobalOffset = 15,      ///< [3] i64
  NumGroups = 18,         ///< [3] i64
  WorkDim = 21,           ///< i32
  Resume = 22,            ///< i32: the region to run (BarrierRegions.h)
  BackEnd = 23,           ///< The back end's own parameters, in the order it gave them.
};
} // namespace WorkItemParam

/// OpenCL 2.0's non-uniform work-groups along one dimension, where the launch's groups are
/// `enqueued` work-items: the last of `groups` takes what is left of the NDRange's `global` work-items
/// (emitLastGroupSize), and group `group` has emitGroupSize. Only a compare and a select depend on
/// the group: in hardware the rest is the launch's, computed once.
llvm::Value *emitLastGroupSize(llvm::IRBuilder<> &b, llvm::Value *groups, llvm::Value *enqueued, llvm::Value *global);
llvm::Value *emitGroupSize(llvm::IRBuilder<> &b, llvm::Value *group, llvm::Value *groups, llvm::Value *enqueued,
                           llvm::Value *lastSize);

/// Whether every work-group of a launch of `kernel` has the enqueued size: OpenCL C 1.x, SPIR-V
/// (which keeps 1.x's rule), or -cl-uniform-work-group-size. The launch refuses a partial group
/// then, so a back end may take a group's size to be the enqueued one.
bool hasUniformWorkGroups(const llvm::Function &kernel);

/// reqd_work_group_size(X, Y, Z) of `kernel`, if given (the launch enforces it).
llvm::Optional<std::array<uint64_t, 3>> requiredGroupSize(const llvm::Function &kernel);

/// True when `function` calls the function named `callee` (a back end's question about a kernel
/// after inlining: does it print, does it run work-groups).
bool callsFunction(const llvm::Function &function, llvm::StringRef callee);

/// True for the work-item functions the work-item function takes as parameters (get_global_id, ...,
/// and the sub-group ones), by mangled name.
bool isWorkItemBuiltin(llvm::StringRef functionName);
/// True for the sub-group ones among them (get_sub_group_id, get_max_sub_group_size, ...).
bool isSubGroupBuiltin(llvm::StringRef functionName);

/// Clones `kernel` into `<kernel>.loom_wi` (internal, always inline) with every function it calls
/// inlined and its work-item builtins replaced by the parameters above. Sub-groups are runs of
/// `subGroupSize` work-items in local linear id order (the last may be shorter); 0 leaves the
/// sub-group builtins as calls (a back end without sub-groups). Its returns return FinishedRegion.
/// Errors: recursion, a callee that cannot be inlined.
llvm::Expected<llvm::Function *> cloneWorkItemFunction(llvm::Function &kernel, unsigned subGroupSize,
                                                       llvm::ArrayRef<llvm::Type *> backEndParams);

/// The work-item's local linear id (x + lx * (y + ly * z)) and its group's work-items (lx * ly * lz),
/// computed at `b` from the parameters of `workItem`, whose first WorkItemParam is `firstExtra`.
llvm::Value *emitLocalLinearId(llvm::IRBuilder<> &b, llvm::Function &workItem, unsigned firstExtra);
llvm::Value *emitGroupItems(llvm::IRBuilder<> &b, llvm::Function &workItem, unsigned firstExtra);

/// The z/y/x loops emitWorkItemLoops made: the call in the innermost, and each loop's latch branch
/// (x, y, z), for the back end's loop metadata.
struct WorkItemLoopNest {
  llvm::CallInst *call = nullptr;
  std::array<llvm::BranchInst *, 3> latches{};
};

/// Emits do { do { do { call } while (++x < lx) } while (++y < ly) } while (++z < lz) (sizes >= 1)
/// from `b`'s block, the call to `workItem` taking `callArgs` (the kernel's arguments), then
/// `values` (indexed by WorkItemParam; the local ids and resume are set here) resuming at `resume`.
/// The loops run to `bounds` (x, y, z) when given, else to the group's local sizes in `values`.
/// Leaves `b` in the block after the loops; the call's result is the last work-item's next region.
WorkItemLoopNest emitWorkItemLoops(llvm::IRBuilder<> &b, llvm::Function &kernel, llvm::Function &workItem,
                                   llvm::ArrayRef<llvm::Value *> callArgs, llvm::MutableArrayRef<llvm::Value *> values,
                                   llvm::Value *resume, const llvm::Twine &prefix,
                                   llvm::ArrayRef<llvm::Value *> bounds = {});

/// Calls `workItem` for the work-item at `localId`, resuming at `resume` (sets those in `values`).
llvm::CallInst *emitWorkItemCall(llvm::IRBuilder<> &b, llvm::Function &kernel, llvm::Function &workItem,
                                 llvm::ArrayRef<llvm::Value *> callArgs, llvm::MutableArrayRef<llvm::Value *> values,
                                 std::array<llvm::Value *, 3> localId, llvm::Value *resume);

} // namespace loom::lowering
