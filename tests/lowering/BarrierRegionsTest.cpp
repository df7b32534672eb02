// SPDX-License-Identifier: Apache-2.0
// formBarrierRegions on small work-item functions: the regions and their entry switch, which values
// go through storage (only those used after a barrier they were computed before), computations on
// arguments recomputed instead, a barrier in a loop, no change without barriers, the error; values
// the same in every work-item kept once per group (WorkGroupUniformity), and what is not.
#include "loom/lowering/BarrierRegions.h"
#include "loom/lowering/WorkGroupUniformity.h"

#include "ParseIR.h"
#include "TestSupport.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace loom::lowering;

namespace {

/// Runs formBarrierRegions on @wi, whose last argument is `resume`, and requires valid IR after it.
BarrierRegions cut(llvm::Module &module) {
  llvm::Function &function = *module.getFunction("wi");
  auto regions = formBarrierRegions(function, *function.getArg(function.arg_size() - 1));
  REQUIRE_OK(regions);
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  bool broken = llvm::verifyFunction(function, &stream);
  INFO(stream.str());
  CHECK_FALSE(broken);
  return *regions;
}

unsigned countCalls(llvm::Function &function, llvm::StringRef callee) {
  unsigned calls = 0;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      calls += call->getCalledFunction() && call->getCalledFunction()->getName() == callee;
  return calls;
}

} // namespace

TEST_CASE("barrier names, every overload", "[unit][lowering]") {
  CHECK(isWorkGroupBarrier("_Z7barrierj"));
  CHECK(isWorkGroupBarrier("_Z18work_group_barrierj"));
  CHECK(isWorkGroupBarrier("_Z18work_group_barrierj12memory_scope"));
  CHECK(isWorkGroupBarrier("_Z17wait_group_eventsiPU9CLgeneric9ocl_event"));
  CHECK(isWorkGroupBarrier("_Z17wait_group_eventsiP9ocl_event"));
  CHECK_FALSE(isWorkGroupBarrier("_Z17sub_group_barrierj"));
  CHECK_FALSE(isWorkGroupBarrier("_Z9mem_fencej"));
}

TEST_CASE("work-group and sub-group function names", "[unit][lowering]") {
  CHECK(isCollectiveFunction("_Z21work_group_reduce_addi"));
  CHECK(isCollectiveFunction("_Z29work_group_scan_exclusive_maxm"));
  CHECK(isCollectiveFunction("_Z20work_group_broadcastfmmm"));
  CHECK(isCollectiveFunction("_Z14work_group_alli"));
  CHECK(isCollectiveFunction("_Z20sub_group_reduce_addf"));
  CHECK(isCollectiveFunction("_Z19sub_group_broadcastjj"));
  CHECK_FALSE(isCollectiveFunction("_Z21work_group_reduce_addDv4_i")); // No vector forms in the spec.
  CHECK_FALSE(isCollectiveFunction("_Z3maxii"));
  CHECK_FALSE(isCollectiveFunction("_Z18my_group_reduce_addi"));
  CHECK_FALSE(isCollectiveFunction("work_group_reduce_add"));
  CHECK(isSubGroupBarrier("_Z17sub_group_barrierj"));
  CHECK(isSubGroupBarrier("_Z17sub_group_barrierj12memory_scope"));
  CHECK_FALSE(isSubGroupBarrier("_Z7barrierj"));
}

TEST_CASE("work-group and sub-group functions cut like barriers: operand stored before, result loaded after", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, R"(
declare i32 @_Z29work_group_scan_inclusive_minj(i32)
declare float @_Z20work_group_broadcastfmm(float, i64, i64)
declare void @_Z17sub_group_barrierj(i32)
declare i64 @_Z20sub_group_reduce_maxl(i64)
define i32 @wi(i32* %p, float* %f, i64* %q, i64 %lid, i32 %resume) {
entry:
  %x = load i32, i32* %p
  %scan = call i32 @_Z29work_group_scan_inclusive_minj(i32 %x)
  store i32 %scan, i32* %p
  %y = load float, float* %f
  %b = call float @_Z20work_group_broadcastfmm(float %y, i64 %lid, i64 3)
  store float %b, float* %f
  call void @_Z17sub_group_barrierj(i32 1)
  %z = load i64, i64* %q
  %m = call i64 @_Z20sub_group_reduce_maxl(i64 %z)
  store i64 %m, i64* %q
  ret i32 0
}
)");
  BarrierRegions regions = cut(*module);
  CHECK(regions.regions == 5);
  CHECK(regions.cutScopes == std::vector<Scope>{Scope::WorkGroup, Scope::WorkGroup, Scope::SubGroup, Scope::SubGroup});
  CHECK(regions.hasSubGroupCuts());
  REQUIRE(regions.collectives.size() == 3);
  CHECK(regions.collectives[2].scope == Scope::SubGroup);
  CHECK(regions.collectives[2].element == Collective::Element::Signed);
  CHECK(regions.collectives[2].region == 4);
  const Collective &scan = regions.collectives[0];
  CHECK(scan.kind == Collective::Kind::ScanInclusive);
  CHECK(scan.operation == Collective::Operation::Min);
  CHECK(scan.element == Collective::Element::Unsigned);
  CHECK(scan.region == 1);
  REQUIRE(scan.operand);
  REQUIRE(scan.result);
  CHECK(scan.source.empty());
  const Collective &broadcast = regions.collectives[1];
  CHECK(broadcast.kind == Collective::Kind::Broadcast);
  CHECK(broadcast.element == Collective::Element::Float);
  CHECK(broadcast.region == 2);
  CHECK(broadcast.source.size() == 2);
  // Operands, results and sources are storage the back end keeps per work-item.
  for (llvm::AllocaInst *slot : {scan.operand, scan.result, broadcast.operand, broadcast.result})
    CHECK(llvm::is_contained(regions.liveAcrossBarriers, slot));
  // The result is read where the call was.
  bool resultLoaded = false;
  for (llvm::User *user : scan.result->users())
    resultLoaded |= llvm::isa<llvm::LoadInst>(user);
  CHECK(resultLoaded);
  CHECK(countCalls(*module->getFunction("wi"), "_Z29work_group_scan_inclusive_minj") == 0);
}

TEST_CASE("a barrier cuts the function; only values used after it go through storage", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, R"(
declare void @_Z7barrierj(i32)
define i32 @wi(i32* %p, i64 %lid, i32 %resume) {
entry:
  %array = alloca [4 x i32]
  %twice = mul i64 %lid, 2
  %v = load i32, i32* %p
  %w = add i32 %v, 1
  %before = add i32 %v, 2
  store i32 %before, i32* %p
  call void @_Z7barrierj(i32 1)
  %q = getelementptr i32, i32* %p, i64 %twice
  store i32 %w, i32* %q
  ret i32 0
}
)");
  llvm::Function &function = *module->getFunction("wi");
  BarrierRegions regions = cut(*module);
  CHECK(regions.regions == 2);
  CHECK(countCalls(function, "_Z7barrierj") == 0);
  // The private array and %w, nothing else: %v and %before are not used after the barrier, and the
  // address computation on %lid is recomputed by every region.
  CHECK(regions.liveAcrossBarriers.size() == 2);
  llvm::BasicBlock &entry = function.getEntryBlock();
  auto *dispatch = llvm::dyn_cast<llvm::SwitchInst>(entry.getTerminator());
  REQUIRE(dispatch);
  CHECK(dispatch->getCondition() == function.getArg(2));
  REQUIRE(dispatch->getNumCases() == 1);
  CHECK(dispatch->case_begin()->getCaseValue()->getZExtValue() == 1);
  bool twiceInEntry = false;
  for (llvm::Instruction &instruction : entry)
    twiceInEntry |= instruction.getName() == "twice";
  CHECK(twiceInEntry);
  // The region before the barrier returns its number.
  unsigned returnsOne = 0;
  for (llvm::BasicBlock &block : function)
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()))
      if (auto *value = llvm::dyn_cast<llvm::ConstantInt>(ret->getReturnValue()))
        returnsOne += value->getZExtValue() == 1;
  CHECK(returnsOne == 1);
}

TEST_CASE("a barrier in a loop: the loop's phis cross it", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, R"(
declare void @_Z18work_group_barrierj(i32)
define i32 @wi(i32* %p, i32 %n, i32 %resume) {
entry:
  br label %header
header:
  %i = phi i32 [0, %entry], [%next, %latch]
  %sum = phi i32 [0, %entry], [%sum.next, %latch]
  call void @_Z18work_group_barrierj(i32 1)
  %x = load i32, i32* %p
  %sum.next = add i32 %sum, %x
  br label %latch
latch:
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %header, label %exit
exit:
  store i32 %sum.next, i32* %p
  ret i32 0
}
)");
  BarrierRegions regions = cut(*module);
  CHECK(regions.regions == 2);
  // %i and %sum (the phis) are used after the barrier; their incoming values reach them through the
  // phis' storage.
  CHECK(regions.liveAcrossBarriers.size() >= 2);
  CHECK(countCalls(*module->getFunction("wi"), "_Z18work_group_barrierj") == 0);
}

TEST_CASE("without barriers nothing changes", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, R"(
define i32 @wi(i32* %p, i32 %resume) {
entry:
  %a = alloca i32
  store i32 1, i32* %p
  ret i32 0
}
)");
  llvm::Function &function = *module->getFunction("wi");
  size_t before = function.getInstructionCount();
  BarrierRegions regions = cut(*module);
  CHECK(regions.regions == 1);
  CHECK(regions.liveAcrossBarriers.empty());
  CHECK(function.getInstructionCount() == before);
}

TEST_CASE("private storage of a run-time size is an error with barriers", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, R"(
declare void @_Z7barrierj(i32)
define i32 @wi(i32 %n, i32 %resume) {
entry:
  %a = alloca i32, i32 %n
  call void @_Z7barrierj(i32 1)
  store i32 1, i32* %a
  ret i32 0
}
)");
  llvm::Function &function = *module->getFunction("wi");
  auto regions = formBarrierRegions(function, *function.getArg(1));
  CHECK_THAT(errorMessage(regions), Catch::Contains("private memory of a run-time size"));
}

namespace {
/// A tree reduction's shape: %s halves from %n (an argument) in a loop with a barrier; %l is the
/// local id; %v is loaded, so differs per work-item; %t counts a loop whose trip count is %l.
constexpr const char *ReductionIR = R"(
declare void @_Z7barrierj(i32)
declare void @_Z17sub_group_barrierj(i32)
declare void @__loom_yield()
define i32 @wi(float* %p, i64 %n, i64 %l, i32 %resume) {
entry:
  %v = load float, float* %p
  br label %header
header:
  %s = phi i64 [%n, %entry], [%s.next, %body]
  %more = icmp ugt i64 %s, 0
  br i1 %more, label %body, label %count
body:
  call void @_Z7barrierj(i32 1)
  %s.next = lshr i64 %s, 1
  br label %header
count:
  %t = phi i64 [0, %header], [%t.next, %count]
  %t.next = add i64 %t, 1
  %again = icmp ult i64 %t.next, %l
  br i1 %again, label %count, label %exit
exit:
  call void @_Z7barrierj(i32 1)
  %sum = fadd float %v, 1.0
  store float %sum, float* %p
  %tf = uitofp i64 %t.next to float
  store float %tf, float* %p
  ret i32 0
}
)";
} // namespace

TEST_CASE("uniformity: loop counters from arguments yes, ids, loads, divergent loop exits no", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, ReductionIR);
  llvm::Function &function = *module->getFunction("wi");
  auto uniform = workGroupUniformValues(function, {function.getArg(2)});
  auto isUniform = [&](const llvm::DenseSet<const llvm::Value *> &values, llvm::StringRef name) {
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (instruction.getName() == name)
        return values.contains(&instruction);
    FAIL("no value " << name.str());
    return false;
  };
  CHECK(isUniform(uniform, "s"));
  CHECK(isUniform(uniform, "s.next"));
  CHECK_FALSE(isUniform(uniform, "v"));      // loaded
  CHECK_FALSE(isUniform(uniform, "t.next")); // leaves a loop whose trip count is the local id
  CHECK_FALSE(isUniform(uniform, "again"));
  // With %n the per-work-item argument instead, the roles swap.
  auto swapped = workGroupUniformValues(function, {function.getArg(1)});
  CHECK_FALSE(isUniform(swapped, "s"));
  CHECK(isUniform(swapped, "t.next"));
}

TEST_CASE("uniform values cross barriers once per group: loaded at entry, saved as written", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, ReductionIR);
  llvm::Function &function = *module->getFunction("wi");
  auto regions = formBarrierRegions(function, *function.getArg(3), {function.getArg(2)});
  REQUIRE_OK(regions);
  CHECK_FALSE(llvm::verifyFunction(function, &llvm::errs()));
  // %s (its phi and the reload) is uniform; %v and %t.next are each work-item's own.
  REQUIRE(regions->uniformAcrossBarriers.size() >= 1);
  CHECK(regions->liveAcrossBarriers.size() >= 2);
  for (const UniformValue &value : regions->uniformAcrossBarriers) {
    CHECK_FALSE(llvm::is_contained(regions->liveAcrossBarriers, value.atEntry));
    // Loaded once (in the entry block, before the region switch) into the work-item's own copy.
    CHECK(value.atEntry->getNumUses() == 1);
    CHECK(llvm::cast<llvm::Instruction>(*value.atEntry->user_begin())->getParent() == &function.getEntryBlock());
    // Saved right after each write of that copy (the load from atEntry's included), not at the cuts.
    REQUIRE(value.atExit->getNumUses() >= 2);
    const llvm::Value *own = nullptr;
    for (const llvm::User *user : value.atExit->users()) {
      const auto *save = llvm::cast<llvm::StoreInst>(user);
      const auto *write = llvm::dyn_cast_or_null<llvm::StoreInst>(save->getPrevNode());
      REQUIRE(write);
      CHECK(write->getValueOperand() == save->getValueOperand());
      CHECK((!own || own == write->getPointerOperand()));
      own = write->getPointerOperand();
    }
    CHECK(llvm::count_if(own->users(), [](const llvm::User *user) { return llvm::isa<llvm::StoreInst>(user); }) ==
          long(value.atExit->getNumUses()));
  }
}

TEST_CASE("no uniform values without per-work-item arguments, or with sub-group cuts or yields", "[unit][lowering]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, ReductionIR);
  BarrierRegions regions = cut(*module);
  CHECK(regions.uniformAcrossBarriers.empty());

  // Work-items run regions at different times: a value the same in all of them is still each one's.
  for (auto [call, scope] : {std::pair{"call void @_Z17sub_group_barrierj(i32 1)", Scope::SubGroup},
                             std::pair{"call void @__loom_yield()", Scope::WorkItem}}) {
    INFO(call);
    std::string source = ReductionIR;
    const std::string barrier = "call void @_Z7barrierj(i32 1)\n  %sum";
    source.replace(source.find(barrier), barrier.size(), std::string(call) + "\n  %sum");
    llvm::LLVMContext otherContext;
    auto other = parseIR(otherContext, source);
    llvm::Function &function = *other->getFunction("wi");
    auto otherRegions = formBarrierRegions(function, *function.getArg(3), {function.getArg(2)});
    REQUIRE_OK(otherRegions);
    CHECK(otherRegions->uniformAcrossBarriers.empty());
    CHECK(otherRegions->cutScopes == std::vector<Scope>{Scope::WorkGroup, scope});
    CHECK(otherRegions->hasYields() == (scope == Scope::WorkItem));
    CHECK(countCalls(function, YieldFunction) == 0);
  }
}

TEST_CASE("a pointer into one array used after a barrier is rebuilt from the array, a phi's too", "[unit][lowering]") {
  // %slot chooses between two computations of &events[1] (as Clang's jump threading leaves
  // async_work_group_copy's event slot); the store after the barrier must still name the array.
  llvm::LLVMContext context;
  auto module = parseIR(context, R"(
declare void @_Z7barrierj(i32)
define i32 @wi(i32* %p, i1 %c, i32 %resume) {
entry:
  %events = alloca [2 x i32*]
  br i1 %c, label %left, label %right
left:
  %a = getelementptr [2 x i32*], [2 x i32*]* %events, i64 0, i64 1
  store i32* null, i32** %a
  br label %join
right:
  %b = getelementptr [2 x i32*], [2 x i32*]* %events, i64 0, i64 1
  store i32* %p, i32** %b
  br label %join
join:
  %slot = phi i32** [ %a, %left ], [ %b, %right ]
  call void @_Z7barrierj(i32 1)
  store i32* null, i32** %slot
  ret i32 0
}
)");
  cut(*module);
  llvm::Function &function = *module->getFunction("wi");
  const llvm::Value *events = nullptr;
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (instruction.getName() == "events")
      events = &instruction;
  REQUIRE(events);
  unsigned stores = 0;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    // No pointer goes through storage: only the slot's byte offset does.
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      CHECK((alloca == events || !alloca->getAllocatedType()->isPointerTy()));
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
        store && store->getValueOperand()->getType()->isPointerTy()) {
      ++stores;
      CHECK(llvm::getUnderlyingObject(store->getPointerOperand(), /*MaxLookup=*/0) == events);
    }
  }
  CHECK(stores == 3);
}
