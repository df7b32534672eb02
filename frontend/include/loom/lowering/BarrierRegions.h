//===- BarrierRegions.h - A work-item function cut at its barriers -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The kernel-lowering stage both devices share: what a work-item's code between two barriers is, and
// what a work-item must keep from one such region to the next. A back end runs region k for every
// work-item of a group before any work-item starts region k+1; that is the barrier.
//
// formBarrierRegions rewrites a work-item function (the kernel with everything it calls inlined)
// returning i32 into a resumable one. Its `resume` argument picks where it starts: region 0 is the
// kernel's entry, region k the code right after the k-th barrier. It runs until the next barrier,
// whose number it returns, or to the kernel's end, where it returns FinishedRegion (0: no barrier
// leads back to the entry). Values defined before a barrier and used after it go through private
// storage (allocas in the entry block); every alloca of a function with barriers is returned in
// `liveAcrossBarriers`, for the back end to give each work-item storage of its own that persists
// from one call to the next (the CPU: a slot per work-item in a per-group context buffer).
//
// Before:  define i32 @k.wi(...) { %v = ...; call void @_Z7barrierj(i32 1); use %v; ret i32 0 }
// After:   entry: %v.slot = alloca; switch i32 %resume, label %body [i32 1, label %region1]
//          body:  %v = ...; store %v, %v.slot; ret i32 1
//          region1: %v.reload = load %v.slot; use %v.reload; ret i32 0
// Barriers inside loops and (work-group uniform) conditionals work: a region simply ends at
// whichever barrier the work-item reaches next, and all work-items reach the same one.
//
// The work-group functions of OpenCL C 2.0 (work_group_all/any/broadcast/reduce_*/scan_*) end a
// region too: the work-item stores its operand in private storage and returns the cut's number;
// resumed there, it loads its result from private storage. Between the two the back end runs the
// Collective over all work-items' operands (in local linear id order) and stores their results.
//
// Sub-groups (cl_khr_subgroups, OpenCL 2.1): sub_group_barrier and the sub_group_ functions cut the
// same way, with Scope::SubGroup: only the work-items of one sub-group need to have reached such a
// cut before that sub-group goes on, so different sub-groups may take different paths between two
// work-group cuts. The back end decides how work-items form sub-groups.
//
// A call of YieldFunction cuts with Scope::WorkItem: it synchronises nothing, it only lets the back
// end suspend the work-item there and run others, so that one spinning on a value another sub-group
// will store gives that sub-group its turn (independent forward progress of sub-groups).
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace loom::lowering {

/// What a resumable work-item function returns when the work-item has finished.
constexpr unsigned FinishedRegion = 0;

/// True for the work-group barriers: barrier and work_group_barrier, every overload, and
/// wait_group_events (the library's async copies are done by the group's work-items, and complete
/// for all of them once each has done its part).
bool isWorkGroupBarrier(llvm::StringRef functionName);
/// True for sub_group_barrier, both overloads.
bool isSubGroupBarrier(llvm::StringRef functionName);
/// True for the work-group and sub-group functions formBarrierRegions turns into Collectives.
bool isCollectiveFunction(llvm::StringRef functionName);

/// A back end's marker (void(), no body) where a work-item may be suspended for others to run.
constexpr const char *YieldFunction = "__loom_yield";

/// Which work-items a cut synchronises: the work-group's, the sub-group's, or none but itself (a yield).
enum class Scope { WorkGroup, SubGroup, WorkItem };

/// The scope of a call of `functionName` if formBarrierRegions cuts there: the work-group barriers
/// and functions, the sub-group barrier and functions, the yield.
std::optional<Scope> cutScope(llvm::StringRef functionName);

/// A work-group or sub-group function where a region ends: what the back end computes between the
/// two regions, over the work-items of the scope.
struct Collective {
  enum class Kind { All, Any, Broadcast, Reduce, ScanInclusive, ScanExclusive };
  enum class Operation { None, Add, Min, Max };
  enum class Element { Signed, Unsigned, Float };
  Kind kind = Kind::All;
  Operation operation = Operation::None; ///< For Reduce and the scans.
  Element element = Element::Signed;
  Scope scope = Scope::WorkGroup;
  unsigned region = 0;                   ///< The region it precedes (the cut's number).
  llvm::AllocaInst *operand = nullptr;   ///< Each work-item's operand, in liveAcrossBarriers.
  llvm::AllocaInst *result = nullptr;    ///< Each work-item's result, in liveAcrossBarriers.
  /// Broadcast: the local id of the work-item whose operand everyone gets, one per dimension given
  /// (the same in all work-items; a sub-group's is its sub-group local id), in liveAcrossBarriers.
  std::vector<llvm::AllocaInst *> source;
};

/// A value live across barriers that is the same in every work-item of the group (WorkGroupUniformity.h).
/// The work-item function keeps it in private storage of its own, which it loads from `atEntry`
/// whenever it starts a region and stores to `atExit` whenever it writes its own. The back end gives
/// each of the two one copy per group, such that what the work-items stored to `atExit` in one region
/// is what they all load from `atEntry` in the next (they all store the same value): for example by
/// copying every atExit to its atEntry between two regions. One copy would not do: a work-item that
/// starts a region after another has left it must still see the value from before the region.
struct UniformValue {
  llvm::AllocaInst *atEntry = nullptr;
  llvm::AllocaInst *atExit = nullptr;
};

struct BarrierRegions {
  unsigned regions = 1; ///< 1 + the number of barriers and work-group functions.
  /// Private storage a work-item needs again after a barrier, in the entry block. The back end
  /// replaces each by an address of the work-item's own persistent copy.
  std::vector<llvm::AllocaInst *> liveAcrossBarriers;
  /// The values live across barriers that are the same in every work-item, when formBarrierRegions
  /// was told which arguments differ between work-items; in the entry block.
  std::vector<UniformValue> uniformAcrossBarriers;
  std::vector<Collective> collectives; ///< In region order.
  /// cutScopes[k - 1]: the scope of the cut before region k.
  std::vector<Scope> cutScopes;
  bool hasSubGroupCuts() const { return llvm::is_contained(cutScopes, Scope::SubGroup); }
  bool hasYields() const { return llvm::is_contained(cutScopes, Scope::WorkItem); }
};

/// Cuts `function` (returning i32, FinishedRegion at its end; nothing left to inline) at its
/// barriers and work-group and sub-group functions, as described above. `resume` is the i32 argument
/// that picks the region. A function without any is left as it is (one region). With the arguments
/// that differ between work-items in `perWorkItem` (the local ids), and no sub-group cut or yield
/// (work-items then run regions at different times), the values live across barriers that are the same in every
/// work-item go to uniformAcrossBarriers instead of liveAcrossBarriers. Errors: private storage of
/// run-time size.
llvm::Expected<BarrierRegions> formBarrierRegions(llvm::Function &function, llvm::Argument &resume,
                                                  llvm::ArrayRef<const llvm::Argument *> perWorkItem = {});

} // namespace loom::lowering
