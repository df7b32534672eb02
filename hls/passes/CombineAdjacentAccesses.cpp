//===- CombineAdjacentAccesses.cpp - Neighbouring accesses to one wide access -===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a block may load (or store) neighbouring elements of global memory one by one: an unrolled
// loop's a[i], a[i+1], ..., the partial sums of an interleaved reduction, a table's c[0..15]. Each
// becomes a port of its own, and every request of each port costs a beat of the memory. After: a run
// of 2, 4, 8 or 16 such scalar accesses (same type, consecutive addresses by scalar evolution, at
// most 64 bytes) is one vector access, which ScalarizeVectors keeps whole for one wide port; the
// elements are its lanes. Loads combine when no write that may touch their object comes between them
// (they move to the first of them), stores when no access that may touch theirs does (they move to
// the last); distinct `restrict` arguments are known apart, and so are the lanes of a
// num_simd_work_items kernel (scoped alias metadata, see VectorizeWorkItems).
// Runs on the IR, before scalarize-vectors.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace loom::hls {
namespace {

/// A scalar load or store of global or constant memory that may join a wide access (not of a
/// constant table: a ROM whose words are its elements).
bool combinable(const llvm::Instruction &inst) {
  llvm::Type *type = nullptr;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst); load && load->isSimple())
    type = load->getType();
  else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst); store && store->isSimple())
    type = store->getValueOperand()->getType();
  if (!type || !(type->isIntegerTy() || type->isFloatTy()) || type->getPrimitiveSizeInBits() % 8)
    return false;
  const llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  return (space == 1 || space == 2) && !constantTable(llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0));
}

/// Whether `inst` touches no global or constant memory, the memory accesses combine in: a
/// declaration of an alias scope (inlining leaves one per `restrict` argument and lane), or an
/// access of private or __local memory (address spaces 0 and 3; OpenCL C's named address spaces are
/// disjoint). A barrier kernel's `tile[lid] = a[gid]` lanes then combine their loads of `a` past
/// the lanes' stores to `tile`.
bool offGlobalMemory(const llvm::Instruction &inst) {
  if (llvm::isa<llvm::NoAliasScopeDeclInst>(inst))
    return true;
  const llvm::Value *pointer = pointerOperand(inst);
  if (!pointer)
    return false;
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  return space == 0 || space == 3;
}

/// Whether accesses of objects `a` and `b` (null: any memory) may touch the same bytes: unless they
/// are different `restrict` arguments.
bool mayMeet(const llvm::Value *a, const llvm::Value *b) {
  const auto *first = llvm::dyn_cast_or_null<llvm::Argument>(a);
  const auto *second = llvm::dyn_cast_or_null<llvm::Argument>(b);
  return !(first && second && first != second && first->hasNoAliasAttr() && second->hasNoAliasAttr());
}

llvm::Type *accessType(const llvm::Instruction &inst) {
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->getType();
  return llvm::cast<llvm::StoreInst>(inst).getValueOperand()->getType();
}

class Combiner {
public:
  Combiner(llvm::Function &kernel)
      : kernel_(kernel), layout_(kernel.getParent()->getDataLayout()), dominators_(kernel), loops_(dominators_),
        libraryInfoImpl_(llvm::Triple(kernel.getParent()->getTargetTriple())), libraryInfo_(libraryInfoImpl_),
        assumptions_(kernel), evolution_(kernel, libraryInfo_, assumptions_, dominators_, loops_) {}

  void run() {
    for (llvm::BasicBlock &block : kernel_) {
      // Candidates by the object they access. A load joins its bucket only if it may move up past
      // the writes that came since the bucket's first load; a store's bucket ends at an access its
      // stores cannot move down past. Otherwise the bucket is combined and starts again.
      struct Bucket {
        std::vector<llvm::Instruction *> members;
        std::vector<llvm::Instruction *> writesSince; // loads only
      };
      llvm::MapVector<const llvm::Value *, Bucket> loads, stores;
      auto flush = [&](Bucket &bucket, bool areLoads) {
        combine(bucket.members, areLoads);
        bucket = Bucket();
      };
      for (llvm::Instruction &inst : block) {
        if (!inst.mayReadOrWriteMemory() || offGlobalMemory(inst))
          continue;
        const bool simple = combinable(inst);
        const llvm::Value *object =
            simple ? llvm::getUnderlyingObject(llvm::getLoadStorePointerOperand(&inst), /*MaxLookup=*/0) : nullptr;
        const bool isLoad = llvm::isa<llvm::LoadInst>(inst);
        if (inst.mayWriteToMemory())
          for (auto &[other, bucket] : loads)
            if (!bucket.members.empty() && mayMeet(other, object))
              bucket.writesSince.push_back(&inst);
        // Stores wait for a store of their object only where they may overlap, for any other access
        // where it may touch their object.
        for (auto &[other, bucket] : stores)
          if (llvm::any_of(bucket.members, [&](llvm::Instruction *member) {
                if (apart(member, &inst))
                  return false;
                if (simple && !isLoad && other == object)
                  return overlaps(member, &inst);
                return mayMeet(other, object);
              }))
            flush(bucket, false);
        if (!simple)
          continue;
        if (!isLoad) {
          stores[object].members.push_back(&inst);
          continue;
        }
        Bucket &bucket = loads[object];
        if (llvm::any_of(bucket.writesSince, [&](llvm::Instruction *write) { return !apart(write, &inst); }))
          flush(bucket, true);
        bucket.members.push_back(&inst);
      }
      for (auto &[object, bucket] : loads)
        combine(bucket.members, true);
      for (auto &[object, bucket] : stores)
        combine(bucket.members, false);
    }
    for (llvm::Instruction *inst : erased_)
      inst->eraseFromParent();
  }

private:
  /// The byte distance from `from`'s address to `to`'s, when scalar evolution proves it constant.
  llvm::Optional<int64_t> distance(llvm::Instruction *from, llvm::Instruction *to) {
    const llvm::SCEV *difference = evolution_.getMinusSCEV(evolution_.getSCEV(llvm::getLoadStorePointerOperand(to)),
                                                           evolution_.getSCEV(llvm::getLoadStorePointerOperand(from)));
    if (const auto *constant = llvm::dyn_cast<llvm::SCEVConstant>(difference))
      return constant->getAPInt().getSExtValue();
    return llvm::None;
  }

  /// Whether store `later` may write bytes `earlier` writes (their distance not provably at least
  /// an element).
  bool overlaps(llvm::Instruction *earlier, llvm::Instruction *later) {
    const int64_t bytes = int64_t(layout_.getTypeStoreSize(accessType(*later)));
    const llvm::Optional<int64_t> gap = distance(earlier, later);
    return !gap || std::abs(*gap) < std::max(bytes, int64_t(layout_.getTypeStoreSize(accessType(*earlier))));
  }

  /// Whether scoped alias metadata proves that `a` and `b` never touch the same memory: accesses of
  /// different lanes of a num_simd_work_items kernel (VectorizeWorkItems).
  bool apart(llvm::Instruction *a, llvm::Instruction *b) {
    const llvm::Optional<llvm::MemoryLocation> first = llvm::MemoryLocation::getOrNone(a),
                                                second = llvm::MemoryLocation::getOrNone(b);
    llvm::SimpleAAQueryInfo query;
    return first && second && scopes_.alias(*first, *second, query) == llvm::AliasResult::NoAlias;
  }

  /// Combines runs of neighbours among `accesses` (program order, no barrier between them).
  void combine(const std::vector<llvm::Instruction *> &accesses, bool loads) {
    std::vector<bool> taken(accesses.size(), false);
    for (size_t first = 0; first < accesses.size(); ++first) {
      if (taken[first])
        continue;
      llvm::Type *type = accessType(*accesses[first]);
      const unsigned bytes = unsigned(layout_.getTypeStoreSize(type));
      // The neighbours at element offsets 0, 1, ... from `first`; a lower neighbour starts its own run.
      std::map<int64_t, size_t> byOffset{{0, first}};
      bool lowest = true;
      for (size_t other = 0; other < accesses.size() && lowest; ++other) {
        if (other == first || taken[other] || accessType(*accesses[other]) != type)
          continue;
        const llvm::Optional<int64_t> gap = distance(accesses[first], accesses[other]);
        if (!gap || *gap % bytes)
          continue;
        if (*gap < 0 && -*gap / bytes < 16)
          lowest = false;
        else if (*gap > 0 && *gap / bytes < 16)
          byOffset.emplace(*gap / bytes, other);
      }
      if (!lowest)
        continue;
      unsigned run = 1;
      while (byOffset.count(run))
        ++run;
      unsigned lanes = 1;
      while (lanes * 2 <= run && lanes * 2 * bytes <= MaxPortBytes)
        lanes *= 2;
      if (lanes < 2)
        continue;
      std::vector<llvm::Instruction *> members;
      for (unsigned lane = 0; lane < lanes; ++lane) {
        members.push_back(accesses[byOffset[lane]]);
        taken[byOffset[lane]] = true;
      }
      loads ? combineLoads(members, type) : combineStores(members, type);
    }
  }

  /// The vector's address, computed beside `at` from `at`'s own address: element `lane` of the vector.
  llvm::Value *vectorAddress(llvm::IRBuilder<> &builder, llvm::Instruction *at, unsigned lane, unsigned bytes,
                             llvm::FixedVectorType *vector) {
    llvm::Value *pointer = llvm::getLoadStorePointerOperand(at);
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    llvm::Value *base = builder.CreateBitCast(pointer, builder.getInt8PtrTy(space));
    if (lane)
      base = builder.CreateConstGEP1_64(builder.getInt8Ty(), base, -int64_t(lane) * bytes);
    return builder.CreateBitCast(base, vector->getPointerTo(space));
  }

  /// What the members' metadata says of all of them holds for the wide access: their access group
  /// (a loop over work-items stays parallel), the alias scopes they are known apart from, TBAA.
  static void keepMetadata(llvm::Instruction *wide, const std::vector<llvm::Instruction *> &members) {
    llvm::propagateMetadata(wide, llvm::SmallVector<llvm::Value *, 16>(members.begin(), members.end()));
    // LLVM 15's propagateMetadata intersects the groups with the new access's own (none): a group
    // every member has is kept here.
    llvm::MDNode *group = members.front()->getMetadata(llvm::LLVMContext::MD_access_group);
    if (llvm::all_of(members, [&](auto *member) { return member->getMetadata(llvm::LLVMContext::MD_access_group) == group; }))
      wide->setMetadata(llvm::LLVMContext::MD_access_group, group);
  }

  /// `members[lane]` loads lane `lane`: one vector load where the first of them in program order was.
  void combineLoads(const std::vector<llvm::Instruction *> &members, llvm::Type *type) {
    llvm::Instruction *earliest = *std::min_element(members.begin(), members.end(), [](auto *a, auto *b) { return a->comesBefore(b); });
    const unsigned lanes = unsigned(members.size()), bytes = unsigned(layout_.getTypeStoreSize(type));
    auto *vector = llvm::FixedVectorType::get(type, lanes);
    llvm::IRBuilder<> builder(earliest);
    const unsigned earliestLane = unsigned(llvm::find(members, earliest) - members.begin());
    llvm::Value *address = vectorAddress(builder, earliest, earliestLane, bytes, vector);
    llvm::LoadInst *wide =
        builder.CreateAlignedLoad(vector, address, llvm::cast<llvm::LoadInst>(members[0])->getAlign(), "wide");
    keepMetadata(wide, members);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      members[lane]->replaceAllUsesWith(builder.CreateExtractElement(wide, lane));
      erased_.push_back(members[lane]);
    }
  }

  /// `members[lane]` stores lane `lane`: one vector store where the last of them was.
  void combineStores(const std::vector<llvm::Instruction *> &members, llvm::Type *type) {
    llvm::Instruction *latest = *std::max_element(members.begin(), members.end(), [](auto *a, auto *b) { return a->comesBefore(b); });
    const unsigned lanes = unsigned(members.size()), bytes = unsigned(layout_.getTypeStoreSize(type));
    auto *vector = llvm::FixedVectorType::get(type, lanes);
    llvm::IRBuilder<> builder(latest);
    llvm::Value *value = llvm::PoisonValue::get(vector);
    for (unsigned lane = 0; lane < lanes; ++lane)
      value = builder.CreateInsertElement(value, llvm::cast<llvm::StoreInst>(members[lane])->getValueOperand(), lane);
    const unsigned latestLane = unsigned(llvm::find(members, latest) - members.begin());
    llvm::Value *address = vectorAddress(builder, latest, latestLane, bytes, vector);
    keepMetadata(builder.CreateAlignedStore(value, address, llvm::cast<llvm::StoreInst>(members[0])->getAlign()),
                 members);
    for (llvm::Instruction *member : members)
      erased_.push_back(member);
  }

  llvm::Function &kernel_;
  const llvm::DataLayout &layout_;
  llvm::DominatorTree dominators_;
  llvm::LoopInfo loops_;
  llvm::TargetLibraryInfoImpl libraryInfoImpl_;
  llvm::TargetLibraryInfo libraryInfo_;
  llvm::AssumptionCache assumptions_;
  llvm::ScalarEvolution evolution_;
  llvm::ScopedNoAliasAAResult scopes_;
  std::vector<llvm::Instruction *> erased_;
};

} // namespace

void combineAdjacentAccesses(llvm::Function &kernel) { Combiner(kernel).run(); }

} // namespace loom::hls
