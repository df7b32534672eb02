//===- FormWorkGroupLoops.cpp - Barriers: a kernel that runs a work-group at a time ===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: an NDRange kernel calling barrier / work_group_barrier (or wait_group_events) or a
// work-group function (work_group_reduce_add, ...) somewhere, which no pipeline of independent
// work-items can honour. After: the same kernel (name, arguments, metadata) whose body runs one
// whole work-group: the shared lowering's work-item function (loom/lowering/WorkItemFunction.h),
// cut at its barriers (BarrierRegions.h), called in z/y/x loops over the group's local ids, region
// after region:
//
//   region = 0; do { for z, y, x: next = k.loom_wi(args, ids, sizes, resume = region); region = next; }
//   while (region != FinishedRegion)
//
// A region whose work-items run a loop has a z/y/x nest of its own, behind a switch on the region,
// so that they all enter that loop and may overlap in it; the other regions share one nest.
// Simplification often turns the region loop into straight code, one nest after another.
// The barrier is the end of a region's loops: the next region's work-items start once the loops
// have run every work-item of the group. Inside a region the work-items stream through the loop at
// up to one a cycle; the loop carries no memory order between them (llvm.loop.parallel_accesses)
// unless the kernel uses atomics, since OpenCL work-items of one region do not race. What a
// work-item keeps across a barrier (every alloca of the cut function) becomes an array of one
// element per work-item of the largest group, indexed by the local linear id: an on-chip RAM; a
// value the same in every work-item (the shared lowering's UniformValue: a loop counter bounded by an
// argument) is kept once per invocation instead, in registers. A
// work-group function is one more pass of the work-items (streamCollectives, below). With
// num_simd_work_items(N) the loop over the x ids takes N work-items an iteration (addLanes), which
// share the invocation's storage. A sub-group is a run of SubGroupItems work-items in local linear
// id order, and a sub-group function keeps a total per sub-group. As sub-groups may take different
// paths between work-group cuts, a group of several keeps each work-item's cut and runs passes of
// the work-items waiting at sub-group cuts until all wait at one work-group cut (scheduleSubGroups).
// The hardware then runs one invocation per work-group (HardwareKernel::workGroupLoops),
// several in flight (loom.work_group_invocation: its __local arrays are the invocation's): the launch
// gives the number of groups as the NDRange and the real local sizes as the work-group arguments, so
// get_global_id(d) - get_global_offset(d) here is the group id and get_global_size(d) the number of
// groups. The kernel is then cleaned up as Clang's -O2 would (inlining, SROA, loop canonical form).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "loom/lowering/BarrierRegions.h"
#include "loom/lowering/Collectives.h"
#include "loom/lowering/SimplifyFunction.h"
#include "loom/lowering/WorkItemFunction.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace loom::hls {
namespace {

using namespace llvm;
namespace Param = lowering::WorkItemParam;

Error passError(const Twine &message) { return createStringError(inconvertibleErrorCode(), message); }

/// The calls `function` makes, and those of the functions it calls (Clang may leave helpers).
void collectCalls(Function &function, SmallPtrSetImpl<Function *> &seen, std::vector<CallInst *> &calls) {
  if (!seen.insert(&function).second)
    return;
  for (Instruction &instruction : instructions(function))
    if (auto *call = dyn_cast<CallInst>(&instruction)) {
      calls.push_back(call);
      if (Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
        collectCalls(*callee, seen, calls);
    }
}

/// The first call of `kernel` (or of a function it calls) that needs the kernel to run a work-group
/// at a time: a barrier, a work-group or sub-group function, a sub-group builtin (sub-groups are runs
/// of the group's work-items); null if none.
CallInst *firstGroupCall(Function &kernel) {
  SmallPtrSet<Function *, 8> seen;
  std::vector<CallInst *> calls;
  collectCalls(kernel, seen, calls);
  for (CallInst *call : calls)
    if (Function *callee = call->getCalledFunction();
        callee && (lowering::cutScope(callee->getName()) || lowering::isSubGroupBuiltin(callee->getName())))
      return call;
  return nullptr;
}

/// The `ret i32 region` of `function`: where a work-item stops before the cut of that region.
ReturnInst *returnTo(Function &function, unsigned region) {
  for (BasicBlock &block : function)
    if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator()))
      if (auto *value = dyn_cast<ConstantInt>(ret->getReturnValue()); value && value->equalsInt(region))
        return ret;
  return nullptr;
}

/// The resume value of the step of the `index`-th collective (streamCollectives): past the regions.
unsigned collectiveStep(const lowering::BarrierRegions &regions, size_t index) { return regions.regions + index; }

/// Work-group functions as one more pass of the group's work-items through the pipeline, in local
/// linear id order, between the region that gives the operands and the one that uses the results:
/// a work-item stopping at collective k goes to its step (a new resume value past the regions),
/// which folds its operand into a total the group (a sub-group function's: the sub-group) shares and
/// then returns k. Reductions, all, any and broadcast leave their result in that total, which every
/// work-item of region k reads; scans store each work-item's running value in its own result. The
/// shared total is one private scalar of the work-group invocation, a register carried from
/// work-item to work-item, which a sub-group function also leaves in a small array, an element a
/// sub-group.
void streamCollectives(Function &workItem, unsigned firstExtra, lowering::BarrierRegions &regions, uint64_t items) {
  if (regions.collectives.empty())
    return;
  auto *dispatch = cast<SwitchInst>(workItem.getEntryBlock().getTerminator());
  LLVMContext &context = workItem.getContext();
  unsigned step = collectiveStep(regions, 0);
  for (lowering::Collective &collective : regions.collectives) {
    ReturnInst *stop = returnTo(workItem, collective.region);
    stop->setOperand(0, ConstantInt::get(Type::getInt32Ty(context), step));
    auto *block = BasicBlock::Create(context, "collective" + Twine(collective.region) + ".step", &workItem);
    dispatch->addCase(ConstantInt::get(Type::getInt32Ty(context), step++), block);

    Type *operandType = collective.operand->getAllocatedType();
    Type *resultType = collective.result->getAllocatedType();
    const bool scan = collective.kind == lowering::Collective::Kind::ScanInclusive ||
                      collective.kind == lowering::Collective::Kind::ScanExclusive;
    // The total runs in a register from work-item to work-item. A sub-group function of a group with
    // several sub-groups starts it afresh at each sub-group's first work-item and, but for a scan,
    // also leaves it in the element of its sub-group of a small array, which region k reads: a write
    // only, so the next work-item need not wait for a read of the array.
    const bool perSubGroup = collective.scope == lowering::Scope::SubGroup && items > SubGroupItems;
    Type *totalType = scan ? operandType : resultType;
    IRBuilder<> entry(dispatch);
    AllocaInst *running = entry.CreateAlloca(totalType, nullptr, "collective.total");
    Value *total = running;
    if (perSubGroup && !scan) {
      auto *totals = entry.CreateAlloca(ArrayType::get(totalType, (items + SubGroupItems - 1) / SubGroupItems),
                                        nullptr, "collective.totals");
      Value *subGroup = entry.CreateUDiv(lowering::emitLocalLinearId(entry, workItem, firstExtra),
                                         entry.getInt64(SubGroupItems));
      total = entry.CreateInBoundsGEP(totals->getAllocatedType(), totals, {entry.getInt64(0), subGroup},
                                      "collective.subgroup.total");
    }
    IRBuilder<> b(block);
    Value *linear = lowering::emitLocalLinearId(b, workItem, firstExtra);
    // The work-item's place in the run the total covers: its sub-group's, or the group's.
    Value *place = perSubGroup ? b.CreateURem(linear, b.getInt64(SubGroupItems)) : linear;
    Value *operand = b.CreateLoad(operandType, collective.operand);
    Value *sofar = b.CreateLoad(totalType, running);
    auto keep = [&](Value *next) {
      b.CreateStore(next, running);
      if (total != running)
        b.CreateStore(next, total);
    };
    if (collective.kind == lowering::Collective::Kind::Broadcast) {
      Value *ids[3] = {b.getInt64(0), b.getInt64(0), b.getInt64(0)};
      for (unsigned d = 0; d < collective.source.size(); ++d)
        ids[d] = b.CreateZExtOrTrunc(b.CreateLoad(collective.source[d]->getAllocatedType(), collective.source[d]),
                                     b.getInt64Ty());
      Value *sizeX = workItem.getArg(firstExtra + Param::LocalSize);
      Value *sizeY = workItem.getArg(firstExtra + Param::LocalSize + 1);
      Value *source = b.CreateAdd(ids[0], b.CreateMul(sizeX, b.CreateAdd(ids[1], b.CreateMul(sizeY, ids[2]))));
      keep(b.CreateSelect(b.CreateICmpEQ(place, source), operand, sofar));
    } else {
      // All and any keep their total as the int result, folded as i1.
      Value *accumulated = scan || collective.kind == lowering::Collective::Kind::Reduce
                               ? sofar
                               : b.CreateIsNotNull(sofar);
      accumulated = b.CreateSelect(b.CreateICmpEQ(place, b.getInt64(0)),
                                   lowering::collectiveIdentity(collective, operandType), accumulated);
      Value *next = lowering::emitCollectiveCombine(b, collective, accumulated, operand);
      keep(scan ? next : lowering::emitCollectiveResult(b, collective, next, resultType));
      if (scan)
        b.CreateStore(collective.kind == lowering::Collective::Kind::ScanInclusive ? next : accumulated,
                      collective.result);
    }
    b.CreateRet(b.getInt32(collective.region));
    if (!scan) { // Everyone's result is the total: no per-work-item copy.
      llvm::erase_value(regions.liveAcrossBarriers, collective.result);
      collective.result->replaceAllUsesWith(total);
      collective.result->eraseFromParent();
      collective.result = nullptr;
    }
  }
}

/// What the work-item function takes and returns once scheduleSubGroups has made it keep each
/// work-item's place: the pass the kernel runs, and (returned by the pass's last work-item) the next.
/// Returned as bits, some work-item left (1) and some waiting at a sub-group cut (2): a select would
/// have jump threading copy the end of the work-item function, and its store, to every path.
namespace Pass {
constexpr unsigned Start = 0;     ///< The first: every work-item runs region 0.
constexpr unsigned Finished = 0;  ///< Returned when every work-item has finished.
constexpr unsigned Everyone = 1;  ///< Every work-item goes on: all wait at one work-group cut.
constexpr unsigned Skip = 2;      ///< A lane past the end of a partial group (addLanes).
constexpr unsigned SubGroups = 3; ///< Only the work-items waiting at a sub-group cut go on.
} // namespace Pass

/// Sub-groups that take different paths: with several sub-groups in a group and a sub-group cut
/// somewhere, the work-items of one pass through the loops may stop at different cuts (only sub-group
/// 0 reaching a sub_group_barrier, say), so the last work-item's stop cannot be everyone's next region.
/// Each work-item then keeps the cut it waits at in an array of the invocation (`items` elements,
/// indexed by the local linear id), and the work-item function takes a Pass instead of a region: in a
/// SubGroups pass the work-items waiting at a sub-group cut run to their next cut, the others only
/// stream through; in an Everyone pass all do. A pass is SubGroups while any work-item waits at a
/// sub-group cut (a sub-group's work-items all reach its cut in the pass before, as they stream in
/// local linear id order), so the work-items at a work-group cut go on only once every one of the
/// group has reached it. Two flags the work-items carry from one to the next, as the collectives
/// carry their totals, give the last one the next pass. Returns the Skip resume value.
ConstantInt *scheduleSubGroups(Function &workItem, unsigned firstExtra, const lowering::BarrierRegions &regions,
                               uint64_t items, unsigned lanes) {
  LLVMContext &context = workItem.getContext();
  BasicBlock &entry = workItem.getEntryBlock();
  auto *regionSwitch = cast<SwitchInst>(entry.getTerminator());
  std::vector<unsigned> subGroupStops;
  for (unsigned region = 1; region < regions.regions; ++region)
    if (regions.cutScopes[region - 1] == lowering::Scope::SubGroup)
      subGroupStops.push_back(region);
  for (size_t index = 0; index < regions.collectives.size(); ++index)
    if (regions.collectives[index].scope == lowering::Scope::SubGroup)
      subGroupStops.push_back(collectiveStep(regions, index));
  std::vector<ReturnInst *> returns;
  for (BasicBlock &block : workItem)
    if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator()))
      returns.push_back(ret);

  IRBuilder<> b(&*entry.getFirstInsertionPt());
  Type *i1 = b.getInt1Ty(), *i32 = b.getInt32Ty();
  const unsigned stops = collectiveStep(regions, regions.collectives.size());
  Type *stopType = b.getIntNTy(std::max(8u, unsigned(PowerOf2Ceil(Log2_32_Ceil(stops)))));
  // With lanes, one more element: where a lane past the group's end writes, so the one store needs
  // no condition (jump threading would copy a conditional one to every path, each a write port).
  AllocaInst *waitsAt = b.CreateAlloca(ArrayType::get(stopType, items + (lanes > 1)), nullptr, "waits.at.items");
  AllocaInst *anySubGroup = b.CreateAlloca(i1, nullptr, "pass.any.subgroup");
  AllocaInst *anyLeft = b.CreateAlloca(i1, nullptr, "pass.any.left");

  auto *schedule = BasicBlock::Create(context, "schedule", &workItem, entry.getNextNode());
  auto *dispatch = BasicBlock::Create(context, "dispatch", &workItem, schedule->getNextNode());
  auto *leave = BasicBlock::Create(context, "leave", &workItem);
  regionSwitch->removeFromParent();
  BranchInst::Create(schedule, &entry);

  b.SetInsertPoint(schedule);
  Value *pass = regionSwitch->getCondition();
  Value *linear = lowering::emitLocalLinearId(b, workItem, firstExtra);
  Value *first = b.CreateICmpEQ(linear, b.getInt64(0), "pass.first");
  Value *subGroupSoFar = b.CreateSelect(first, b.getFalse(), b.CreateLoad(i1, anySubGroup));
  Value *leftSoFar = b.CreateSelect(first, b.getFalse(), b.CreateLoad(i1, anyLeft));
  // Only lanes resume at Skip.
  Value *skip = lanes > 1 ? b.CreateICmpEQ(pass, b.getInt32(Pass::Skip)) : nullptr;
  Value *slot = b.CreateInBoundsGEP(waitsAt->getAllocatedType(), waitsAt,
                                    {b.getInt64(0), skip ? b.CreateSelect(skip, b.getInt64(items), linear) : linear},
                                    "waits.at");
  auto isSubGroupStop = [&](Value *stop) {
    Value *any = b.getFalse();
    for (unsigned value : subGroupStops)
      any = b.CreateOr(any, b.CreateICmpEQ(stop, ConstantInt::get(stop->getType(), value)));
    return any;
  };
  PHINode *subGroupOut = PHINode::Create(i1, returns.size() + 2, "pass.any.subgroup.out", leave);
  PHINode *leftOut = PHINode::Create(i1, returns.size() + 2, "pass.any.left.out", leave);
  PHINode *stopOut = PHINode::Create(stopType, returns.size() + 2, "waits.at.next", leave);
  auto leaveWith = [&](Value *stop) {
    stopOut->addIncoming(stop, b.GetInsertBlock());
    subGroupOut->addIncoming(b.CreateOr(subGroupSoFar, isSubGroupStop(stop)), b.GetInsertBlock());
    leftOut->addIncoming(b.CreateOr(leftSoFar, b.CreateIsNotNull(stop)), b.GetInsertBlock());
    b.CreateBr(leave);
  };

  // A lane past the group's end leaves the flags as they are.
  auto *lane = BasicBlock::Create(context, "lane", &workItem, dispatch);
  auto *stays = BasicBlock::Create(context, "stays", &workItem, dispatch);
  if (skip) {
    auto *skipped = BasicBlock::Create(context, "skipped", &workItem, dispatch);
    b.CreateCondBr(skip, skipped, lane);
    b.SetInsertPoint(skipped);
    stopOut->addIncoming(ConstantInt::get(stopType, 0), skipped);
    subGroupOut->addIncoming(subGroupSoFar, skipped);
    leftOut->addIncoming(leftSoFar, skipped);
    b.CreateBr(leave);
  } else {
    b.CreateBr(lane);
  }

  b.SetInsertPoint(lane);
  Value *start = b.CreateICmpEQ(pass, b.getInt32(Pass::Start));
  Value *stop = b.CreateSelect(start, ConstantInt::get(stopType, 0), b.CreateLoad(stopType, slot), "waits.at.now");
  Value *goesOn = b.CreateOr(start, b.CreateAnd(b.CreateIsNotNull(stop),
                                                b.CreateOr(b.CreateICmpEQ(pass, b.getInt32(Pass::Everyone)),
                                                           isSubGroupStop(stop))));
  b.CreateCondBr(goesOn, dispatch, stays);
  b.SetInsertPoint(stays);
  leaveWith(stop);

  b.SetInsertPoint(dispatch);
  regionSwitch->setCondition(b.CreateZExt(stop, i32));
  dispatch->getInstList().push_back(regionSwitch);
  for (ReturnInst *ret : returns) {
    b.SetInsertPoint(ret);
    leaveWith(b.CreateTrunc(ret->getReturnValue(), stopType));
    ret->eraseFromParent();
  }

  // One store of the work-item's cut, whichever way it left: one write port.
  b.SetInsertPoint(leave);
  b.CreateStore(subGroupOut, anySubGroup);
  b.CreateStore(leftOut, anyLeft);
  b.CreateStore(stopOut, slot);
  // Waiting at a sub-group cut implies being left.
  b.CreateRet(b.CreateOr(b.CreateZExt(leftOut, i32), b.CreateShl(b.CreateZExt(subGroupOut, i32), 1)));
  return b.getInt32(Pass::Skip);
}

/// Gives each piece of storage a work-item keeps across barriers an element per work-item of the
/// group: `items` of them, indexed by the local linear id.
void placePerWorkItem(Function &workItem, unsigned firstExtra, ArrayRef<AllocaInst *> storage, uint64_t items) {
  if (storage.empty())
    return;
  IRBuilder<> b(&*workItem.getEntryBlock().getFirstInsertionPt());
  Value *linear = lowering::emitLocalLinearId(b, workItem, firstExtra);
  for (AllocaInst *slot : storage) {
    auto *arrayType = ArrayType::get(slot->getAllocatedType(), items);
    AllocaInst *array = b.CreateAlloca(arrayType, slot->getType()->getAddressSpace(), nullptr,
                                       slot->getName() + ".items");
    array->setAlignment(slot->getAlign());
    Value *element = b.CreateInBoundsGEP(arrayType, array, {b.getInt64(0), linear}, slot->getName());
    slot->replaceAllUsesWith(element);
  }
  // Erased last: the builder inserts before the first of them.
  for (AllocaInst *slot : storage)
    slot->eraseFromParent();
}

bool usesAtomics(const Function &function) {
  for (const Instruction &instruction : instructions(function))
    if (isa<AtomicRMWInst>(instruction) || isa<AtomicCmpXchgInst>(instruction))
      return true;
  return false;
}

/// Loop metadata: never unrolled (each copy of a work-item's body would be hardware); a loop over
/// the work-items is marked (WorkItemLoopAttribute) and, with `parallel`, has iterations without
/// memory order among the accesses of that access group.
MDNode *loopMetadata(LLVMContext &context, bool overWorkItems, MDNode *parallel) {
  SmallVector<Metadata *, 4> operands{nullptr, MDNode::get(context, MDString::get(context, "llvm.loop.unroll.disable"))};
  if (overWorkItems)
    operands.push_back(MDNode::get(context, MDString::get(context, WorkItemLoopAttribute)));
  if (parallel)
    operands.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.parallel_accesses"), parallel}));
  MDNode *loop = MDNode::getDistinct(context, operands);
  loop->replaceOperandWith(0, loop);
  return loop;
}

/// Whether the work-item loop whose latch is `latch` runs once: its bound a required group size of 1,
/// or the lanes of num_simd_work_items. Simplification deletes such a loop and moves its latch's
/// metadata onto the branches before it, which may belong to the loop over the regions: it must
/// carry none.
bool runsOnce(const BranchInst &latch) {
  const auto *test = cast<ICmpInst>(latch.getCondition());
  const auto *next = cast<BinaryOperator>(test->getOperand(0));
  const auto *bound = dyn_cast<ConstantInt>(test->getOperand(1));
  const auto *step = dyn_cast<ConstantInt>(next->getOperand(1));
  return bound && step && bound->getZExtValue() <= step->getZExtValue();
}

/// Marks the storage of the values the same in every work-item of a group (UniformValue), which the
/// invocation keeps once, in registers, instead of an array over its work-items: copy k's entry and
/// exit allocas carry UniformCopyMetadata {k, 0} and {k, 1} through inlining.
constexpr StringLiteral UniformCopyMetadata = "loom.uniform_copy";
void markUniformValues(ArrayRef<lowering::UniformValue> values) {
  for (size_t k = 0; k < values.size(); ++k)
    for (unsigned exit : {0u, 1u}) {
      AllocaInst *copy = exit ? values[k].atExit : values[k].atEntry;
      Type *i32 = Type::getInt32Ty(copy->getContext());
      copy->setMetadata(UniformCopyMetadata,
                        MDNode::get(copy->getContext(), {ConstantAsMetadata::get(ConstantInt::get(i32, k)),
                                                         ConstantAsMetadata::get(ConstantInt::get(i32, exit))}));
    }
}

/// Each uniform value's exit copy (what the last region's work-items saved) becomes its entry copy
/// when the next region starts: one copy would let a work-item read what an earlier one of the same
/// region saved. `count` values were marked by markUniformValues.
void copyUniformValuesBetweenRegions(Function &kernel, BasicBlock &regionStart, size_t count) {
  std::vector<std::array<AllocaInst *, 2>> copies(count);
  for (Instruction &instruction : kernel.getEntryBlock())
    if (const MDNode *mark = instruction.getMetadata(UniformCopyMetadata)) {
      const auto k = mdconst::extract<ConstantInt>(mark->getOperand(0))->getZExtValue();
      const auto exit = mdconst::extract<ConstantInt>(mark->getOperand(1))->getZExtValue();
      copies[k][exit] = cast<AllocaInst>(&instruction);
      instruction.setMetadata(UniformCopyMetadata, nullptr);
    }
  IRBuilder<> b(&*regionStart.getFirstInsertionPt());
  for (auto [entry, exit] : copies)
    if (entry && exit) // an unused one was not inlined
      b.CreateStore(b.CreateLoad(exit->getAllocatedType(), exit), entry);
}

/// The switch on `resume` that starts `workItem` at its region. A function without cuts (a kernel
/// that only asks its sub-group sizes) has one region and no switch yet: it gets one with none but
/// region 0, after the entry block's allocas, which must stay there to be hoisted when inlined.
SwitchInst &regionDispatch(Function &workItem, Argument &resume) {
  BasicBlock &entry = workItem.getEntryBlock();
  if (auto *dispatch = dyn_cast<SwitchInst>(entry.getTerminator()))
    return *dispatch;
  Instruction *firstOther = nullptr;
  for (Instruction &instruction : make_early_inc_range(entry)) {
    auto *alloca = dyn_cast<AllocaInst>(&instruction);
    if (!alloca || !alloca->isStaticAlloca())
      firstOther = firstOther ? firstOther : &instruction;
    else if (firstOther)
      alloca->moveBefore(firstOther);
  }
  BasicBlock *body = entry.splitBasicBlock(firstOther, "region0");
  entry.getTerminator()->eraseFromParent();
  return *SwitchInst::Create(&resume, body, 1, &entry);
}

/// The places a pass starts (the cases of the work-item function's `dispatch`: regions, collectives'
/// steps; region 0 is its default) from which the work-items run a loop before they stop.
std::vector<ConstantInt *> startsRunningLoops(Function &workItem, SwitchInst &dispatch) {
  DominatorTree dominators(workItem);
  LoopInfo loops(dominators);
  auto runsLoop = [&](BasicBlock *start) {
    SmallPtrSet<BasicBlock *, 32> seen;
    SmallVector<BasicBlock *, 32> work{start};
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (loops.getLoopFor(block))
        return true;
      if (seen.insert(block).second)
        append_range(work, successors(block));
    }
    return false;
  };
  std::vector<ConstantInt *> starts;
  if (runsLoop(dispatch.getDefaultDest()))
    starts.push_back(ConstantInt::get(cast<IntegerType>(dispatch.getCondition()->getType()), 0));
  for (const auto &start : dispatch.cases())
    if (runsLoop(start.getCaseSuccessor()))
      starts.push_back(start.getCaseValue());
  return starts;
}

/// A copy of `workItem` in which the `excluded` starts of its `dispatch` lead nowhere, so that
/// inlining it leaves out their code: the work-item function of the nest the other starts share.
Function &startingElsewhere(Function &workItem, SwitchInst &dispatch, ArrayRef<ConstantInt *> excluded) {
  ValueToValueMapTy copied;
  Function *copy = CloneFunction(&workItem, copied);
  auto *copyDispatch = cast<SwitchInst>(copied[&dispatch]);
  auto *nowhere = BasicBlock::Create(workItem.getContext(), "elsewhere", copy);
  new UnreachableInst(workItem.getContext(), nowhere);
  for (ConstantInt *start : excluded)
    if (auto found = copyDispatch->findCaseValue(start); found == copyDispatch->case_default())
      copyDispatch->setDefaultDest(nowhere);
    else
      found->setSuccessor(nowhere);
  return *copy;
}

/// A resume value at which `workItem` returns at once: a lane past the end of a partial group.
ConstantInt *addSkipCase(Function &workItem, Argument &resume) {
  SwitchInst *dispatch = &regionDispatch(workItem, resume);
  uint64_t last = 0;
  for (const auto &existing : dispatch->cases())
    last = std::max(last, existing.getCaseValue()->getZExtValue());
  auto *skip = ConstantInt::get(cast<IntegerType>(dispatch->getCondition()->getType()), last + 1);
  auto *block = BasicBlock::Create(workItem.getContext(), "lane.skip", &workItem);
  ReturnInst::Create(workItem.getContext(), ConstantInt::get(workItem.getReturnType(), lowering::FinishedRegion),
                     block);
  dispatch->addCase(skip, block);
  return skip;
}

/// OpenCL C 2.0's partial last group, with loops that run the enqueued size in every group (so one
/// group's loops overlap the next's, as under uniform groups): the work-items a group lacks come
/// first, resuming at `skip`, and the rest are its work-items in order, so the last iteration, whose
/// result is the next region, is always one of them. `values` holds the group's sizes. A local id
/// is kept to the bits of the largest group's (`maxItems`): a missing work-item's wraps below zero,
/// unused, and the arithmetic on the ids stays as narrow as theirs (NarrowArithmetic).
void skipMissingWorkItems(const lowering::WorkItemLoopNest &nest, ArrayRef<Value *> values, unsigned firstExtra,
                          ConstantInt *skip, uint64_t maxItems) {
  CallInst *call = nest.call;
  IRBuilder<> b(call);
  Value *present = b.getTrue();
  Type *idBits = b.getIntNTy(std::max(1u, Log2_64_Ceil(maxItems)));
  for (unsigned d = 0; d < 3; ++d) {
    Value *index = call->getArgOperand(firstExtra + Param::LocalId + d);
    Value *missing = b.CreateSub(values[Param::EnqueuedLocalSize + d], values[Param::LocalSize + d], "missing");
    present = b.CreateAnd(present, b.CreateICmpUGE(index, missing));
    call->setArgOperand(firstExtra + Param::LocalId + d,
                        b.CreateZExt(b.CreateTrunc(b.CreateSub(index, missing), idBits), index->getType(), "local.id"));
  }
  Value *region = call->getArgOperand(firstExtra + Param::Resume);
  call->setArgOperand(firstExtra + Param::Resume, b.CreateSelect(present, region, skip));
}

/// num_simd_work_items(N): the loop over the local x ids steps by N and calls N work-items an
/// iteration, lane k the work-item x + k, or resuming at `skip` when the group has no such work-item
/// (a partial group's last lanes). A select, not a branch: lanes branching on the same region would
/// let jump threading merge their paths into phis of pointers. Returns the calls, lane 0's (the
/// nest's) first; `firstExtra` is the call's first work-item operand.
std::vector<CallInst *> addLanes(const lowering::WorkItemLoopNest &nest, unsigned lanes, Value *sizeX,
                                 unsigned firstExtra, ConstantInt *skip) {
  std::vector<CallInst *> calls{nest.call};
  auto *next = cast<BinaryOperator>(cast<ICmpInst>(nest.latches[0]->getCondition())->getOperand(0));
  auto *x = cast<PHINode>(next->getOperand(0));
  next->setOperand(1, ConstantInt::get(x->getType(), lanes));
  Value *region = nest.call->getArgOperand(firstExtra + Param::Resume);
  for (unsigned lane = 1; lane < lanes; ++lane) {
    IRBuilder<> b(next);
    Value *id = b.CreateAdd(x, b.getInt64(lane), "x.lane", /*HasNUW=*/true);
    auto *call = cast<CallInst>(nest.call->clone());
    call->setArgOperand(firstExtra + Param::LocalId, id);
    call->setArgOperand(firstExtra + Param::Resume, b.CreateSelect(b.CreateICmpULT(id, sizeX), region, skip));
    call->insertBefore(next);
    calls.push_back(call);
  }
  return calls;
}

} // namespace

Expected<WorkGroupLoops> formWorkGroupLoops(Function &kernel) {
  CallInst *first = firstGroupCall(kernel);
  if (!first)
    return WorkGroupLoops{};
  const unsigned lanes = simdWorkItemsOf(kernel); // 1 once the kernel is marked below
  auto cloned = lowering::cloneWorkItemFunction(kernel, SubGroupItems, {});
  if (!cloned)
    return cloned.takeError();
  Function &workItem = **cloned;
  const unsigned firstExtra = kernel.arg_size();
  const Argument *localIds[] = {workItem.getArg(firstExtra + Param::LocalId),
                                workItem.getArg(firstExtra + Param::LocalId + 1),
                                workItem.getArg(firstExtra + Param::LocalId + 2)};
  Argument &resume = *workItem.getArg(firstExtra + Param::Resume);
  auto regions = lowering::formBarrierRegions(workItem, resume, localIds);
  if (!regions)
    return regions.takeError();
  markUniformValues(regions->uniformAcrossBarriers);
  const Optional<std::array<uint64_t, 3>> required = lowering::requiredGroupSize(kernel);
  const uint64_t items = required ? (*required)[0] * (*required)[1] * (*required)[2] : MaxWorkGroupLoopItems;
  streamCollectives(workItem, firstExtra, *regions, items);
  ConstantInt *passSkip = regions->hasSubGroupCuts() && items > SubGroupItems
                              ? scheduleSubGroups(workItem, firstExtra, *regions, items, lanes)
                              : nullptr;
  placePerWorkItem(workItem, firstExtra, regions->liveAcrossBarriers, items);

  // The kernel's new body; its old one lives on in the work-item function.
  LLVMContext &context = kernel.getContext();
  DISubprogram *subprogram = kernel.getSubprogram();
  std::vector<BasicBlock *> old;
  for (BasicBlock &block : kernel)
    old.push_back(&block);
  for (BasicBlock *block : old)
    block->dropAllReferences();
  for (BasicBlock *block : old)
    block->eraseFromParent();
  auto *entry = BasicBlock::Create(context, "entry", &kernel);
  IRBuilder<> b(entry);
  if (subprogram) // Calls to inlinable functions need a location in a function with debug info.
    b.SetCurrentDebugLocation(DILocation::get(context, subprogram->getLine(), 0, subprogram));
  Type *i64 = b.getInt64Ty();
  Value *values[Param::BackEnd] = {};
  // With uniform groups the loops over a group's work-items run the same count in every group, so
  // one group's loops overlap the next's (LoopRings' every-work-item rule); see skipMissingWorkItems
  // for non-uniform ones.
  const bool uniform = lowering::hasUniformWorkGroups(kernel);
  for (unsigned d = 0; d < 3; ++d) {
    Value *offset = askWorkItem(b, "_Z17get_global_offsetj", d, i64);
    Value *enqueued =
        required ? b.getInt64((*required)[d]) : askWorkItem(b, "_Z23get_enqueued_local_sizej", d, i64);
    Value *groups = askWorkItem(b, "_Z15get_global_sizej", d, i64);
    Value *lastSize = uniform ? enqueued : askWorkItem(b, LastGroupSize, d, i64);
    values[Param::GroupId + d] = b.CreateSub(askWorkItem(b, "_Z13get_global_idj", d, i64), offset, "group.id");
    values[Param::GlobalOffset + d] = offset;
    values[Param::NumGroups + d] = groups;
    values[Param::EnqueuedLocalSize + d] = enqueued;
    values[Param::LocalSize + d] =
        uniform ? enqueued : lowering::emitGroupSize(b, values[Param::GroupId + d], groups, enqueued, lastSize);
    values[Param::GlobalSize + d] =
        b.CreateAdd(b.CreateMul(b.CreateSub(groups, b.getInt64(1)), enqueued), lastSize, "global.size");
  }
  values[Param::WorkDim] = askWorkItem(b, "_Z12get_work_dimv", -1, b.getInt32Ty());
  SmallVector<Value *, 16> callArgs;
  for (Argument &argument : kernel.args())
    callArgs.push_back(&argument);

  auto *regionLoop = BasicBlock::Create(context, "region", &kernel);
  b.CreateBr(regionLoop);
  b.SetInsertPoint(regionLoop);
  PHINode *region = b.CreatePHI(b.getInt32Ty(), 2, "region");
  region->addIncoming(b.getInt32(0), entry);
  // Partial groups run the enqueued size too, skipping what they lack: but for lanes, which skip
  // past the group's end (addLanes), and sub-group passes, whose last work-item tells the next.
  const bool skipsMissing = !uniform && lanes == 1 && !passSkip;
  const ArrayRef<Value *> bounds =
      skipsMissing ? ArrayRef<Value *>(values).slice(Param::EnqueuedLocalSize, 3) : ArrayRef<Value *>{};
  // A region whose work-items run a loop before they stop has its loop nest over them, entered only
  // when the group runs that region: its work-items all take the path into that loop, and so may
  // overlap in it (LoopRings' reorderingIn). The other regions share one nest, whose work-item
  // function starts at the region, as do sub-group passes, whose work-items each resume at a cut of
  // their own (one more nest a region costs its loop counters and id arithmetic).
  SwitchInst &starts = regionDispatch(workItem, resume);
  const std::vector<ConstantInt *> ownNests = passSkip ? std::vector<ConstantInt *>{} : startsRunningLoops(workItem, starts);
  const bool othersShare = ownNests.size() < starts.getNumCases() + 1; // region 0 is the default
  ConstantInt *skip = passSkip ? passSkip : skipsMissing || lanes > 1 ? addSkipCase(workItem, resume) : nullptr;
  Function *shared = ownNests.empty() ? &workItem : othersShare ? &startingElsewhere(workItem, starts, ownNests) : nullptr;
  auto *next = BasicBlock::Create(context, "region.next", &kernel);
  PHINode *following = PHINode::Create(b.getInt32Ty(), 1, "region.following", next);
  std::vector<lowering::WorkItemLoopNest> nests;
  auto emitNest = [&](Function &callee, Value *start, const Twine &prefix) {
    nests.push_back(lowering::emitWorkItemLoops(b, kernel, callee, callArgs, values, start, prefix, bounds));
    following->addIncoming(nests.back().call, b.GetInsertBlock());
    b.CreateBr(next);
  };
  SwitchInst *dispatch = ownNests.empty() ? nullptr : b.CreateSwitch(region, next, unsigned(ownNests.size()));
  for (ConstantInt *start : ownNests) {
    const std::string number = std::to_string(start->getZExtValue());
    auto *block = BasicBlock::Create(context, "region." + number, &kernel);
    if (start == ownNests.back() && !shared)
      dispatch->setDefaultDest(block);
    else
      dispatch->addCase(start, block);
    b.SetInsertPoint(block);
    emitNest(workItem, start, "items." + number + ".");
  }
  if (shared) {
    if (dispatch) {
      auto *block = BasicBlock::Create(context, "region.others", &kernel);
      dispatch->setDefaultDest(block);
      b.SetInsertPoint(block);
    }
    emitNest(*shared, region, "items.");
  }
  b.SetInsertPoint(next);
  region->addIncoming(following, next);
  auto *exit = BasicBlock::Create(context, "exit", &kernel);
  b.CreateCondBr(b.CreateICmpNE(following, b.getInt32(lowering::FinishedRegion)), regionLoop, exit)
      ->setMetadata(LLVMContext::MD_loop, loopMetadata(context, /*overWorkItems=*/false, nullptr));
  b.SetInsertPoint(exit);
  b.CreateRetVoid();

  std::vector<CallInst *> calls;
  for (const lowering::WorkItemLoopNest &nest : nests) {
    if (skipsMissing)
      skipMissingWorkItems(nest, values, firstExtra, skip, items);
    const std::vector<CallInst *> own =
        lanes > 1 ? addLanes(nest, lanes, values[Param::LocalSize], firstExtra, skip) : std::vector<CallInst *>{nest.call};
    // A pass's last work-item tells the next pass (scheduleSubGroups): the last lane's.
    if (passSkip)
      nest.call->replaceUsesOutsideBlock(own.back(), nest.call->getParent());
    calls.insert(calls.end(), own.begin(), own.end());
  }

  // Work-items of one region are unordered: the inliner gives the call's access group to every
  // access it inlines, and each loop of the nest names that group.
  MDNode *group = usesAtomics(workItem) ? nullptr : MDNode::getDistinct(context, {});
  if (group)
    for (CallInst *call : calls)
      call->setMetadata(LLVMContext::MD_access_group, group);
  for (const lowering::WorkItemLoopNest &nest : nests)
    for (BranchInst *latch : nest.latches)
      if (!runsOnce(*latch))
        latch->setMetadata(LLVMContext::MD_loop, loopMetadata(context, /*overWorkItems=*/true, group));

  // No lifetime markers: the per-work-item storage lives from one region (one pass through the
  // loops) to the next, which markers around each call would declare dead.
  std::vector<AllocaInst *> storage;
  for (CallInst *call : calls) {
    InlineFunctionInfo info;
    if (InlineResult inlined = InlineFunction(*call, info, /*CalleeAAR=*/nullptr, /*InsertLifetime=*/false);
        !inlined.isSuccess())
      return passError("cannot inline the work-item function of kernel '" + kernel.getName() +
                       "': " + inlined.getFailureReason());
    // The invocation's storage is one: the lanes share lane 0's (the per-work-item arrays are
    // indexed by the local linear id; a work-group function's total is the group's).
    if (storage.empty())
      storage.assign(info.StaticAllocas.begin(), info.StaticAllocas.end());
    for (auto [copy, shared] : llvm::zip(info.StaticAllocas, storage))
      if (copy != shared) {
        copy->replaceAllUsesWith(shared);
        copy->eraseFromParent();
      }
  }
  if (shared && shared != &workItem)
    shared->eraseFromParent();
  workItem.eraseFromParent();
  copyUniformValuesBetweenRegions(kernel, *regionLoop, regions->uniformAcrossBarriers.size());
  // The inliner declares the scopes of the work-item function's noalias (restrict) arguments in the
  // loop; a declaration counts as a memory access, so without the group the loop would not be
  // parallel, and each work-item would wait for the previous one's accesses.
  if (group)
    for (Instruction &instruction : instructions(kernel))
      if (isa<NoAliasScopeDeclInst>(instruction))
        instruction.setMetadata(LLVMContext::MD_access_group, group);
  // Clang's -O2 function simplification on the rebuilt kernel, so hls/ sees the IR it expects.
  lowering::simplifyFunction(kernel);
  kernel.addFnAttr(WorkGroupInvocationAttribute);
  return WorkGroupLoops{unsigned(items), lanes};
}

} // namespace loom::hls
