//===- InferAddressSpaces.cpp - Generic pointers to the memory they point into ===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel whose accesses may go through OpenCL C 2.0 generic pointers (address space 4):
// a helper taking `float *`, the library's generic vloadn, fract, sincos, after inlining; and
// to_global, to_local or to_private of such a pointer. The board's memories are separate (global
// ports, on-chip RAMs), so the hardware needs each access's named address space. After: every
// generic pointer that provably comes from one named space is rewritten in it (LLVM's
// InferAddressSpaces, told that SPIR's generic space is the flat one; volatile accesses too), and each to_global,
// to_local and to_private is answered from that space (through a select, on each of its arms): the
// pointer, or null, and a comparison of the answer with null by whether it is in that space. An
// access left generic is the graph builder's error at its line; a question
// about a pointer whose space is not known at compile time is this pass's. Runs on the IR, first
// (before FormWorkGroupLoops).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "loom/lowering/AddressSpaceQueries.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Operator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"

namespace loom::hls {
namespace {

constexpr unsigned SpirGenericAddressSpace = 4;
constexpr unsigned SpirGlobalAddressSpace = 1;
constexpr unsigned SpirLocalAddressSpace = 3;
constexpr unsigned SpirPrivateAddressSpace = 0;

/// A to_global/to_local/to_private's answer: the pointer in the named space (or null), and whether
/// it is not null. The hardware's on-chip memories start at address 0, so a comparison of an answer
/// with null must not look at the address: it becomes `inSpace`.
struct Answer {
  llvm::Value *pointer;
  llvm::Value *inSpace;
};

/// The answer for `pointer` (generic) and `space`; None when it cannot be known at compile time.
llvm::Optional<Answer> answer(llvm::IRBuilder<> &b, llvm::Value *pointer, unsigned space, llvm::PointerType *type) {
  llvm::Value *source = pointer->stripPointerCasts();
  const Answer none{llvm::ConstantPointerNull::get(type), b.getFalse()};
  if (llvm::isa<llvm::ConstantPointerNull>(source))
    return none;
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(source)) {
    auto ifTrue = answer(b, select->getTrueValue(), space, type);
    auto ifFalse = ifTrue ? answer(b, select->getFalseValue(), space, type) : llvm::None;
    if (!ifFalse)
      return llvm::None;
    llvm::Value *condition = select->getCondition();
    return Answer{b.CreateSelect(condition, ifTrue->pointer, ifFalse->pointer),
                  b.CreateSelect(condition, ifTrue->inSpace, ifFalse->inSpace)};
  }
  const unsigned from = source->getType()->getPointerAddressSpace();
  if (from == SpirGenericAddressSpace)
    return llvm::None;
  if (from != space)
    return none;
  // A __local or private object is never null; a global pointer may be (a null buffer argument).
  llvm::Value *inSpace = space == SpirGlobalAddressSpace
                             ? b.CreateICmpNE(source, llvm::ConstantPointerNull::get(
                                                          llvm::cast<llvm::PointerType>(source->getType())))
                             : b.getTrue();
  return Answer{b.CreatePointerBitCastOrAddrSpaceCast(source, type), inSpace};
}

llvm::Error answerAddressSpaceQueries(llvm::Function &kernel) {
  for (auto [call, query] : lowering::addressSpaceQueries(kernel)) {
    const unsigned space = query == lowering::AddressSpaceQuery::Global ? SpirGlobalAddressSpace
                           : query == lowering::AddressSpaceQuery::Local ? SpirLocalAddressSpace
                                                                         : SpirPrivateAddressSpace;
    llvm::IRBuilder<> b(call);
    auto found = answer(b, call->getArgOperand(0), space, llvm::cast<llvm::PointerType>(call->getType()));
    if (!found)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          locationOf(*call, kernel) + ": error: " + call->getCalledFunction()->getName().drop_front(2).str() +
              " of a generic pointer whose address space is not known at compile time: the hardware flow "
              "keeps each memory separate, so it must see where the pointer comes from");
    for (llvm::User *user : llvm::make_early_inc_range(call->users())) {
      auto *compare = llvm::dyn_cast<llvm::ICmpInst>(user);
      if (!compare || !compare->isEquality() ||
          !llvm::isa<llvm::ConstantPointerNull>(compare->getOperand(compare->getOperand(0) == call ? 1 : 0)))
        continue;
      llvm::IRBuilder<> at(compare);
      compare->replaceAllUsesWith(compare->getPredicate() == llvm::CmpInst::ICMP_NE ? found->inSpace
                                                                                   : at.CreateNot(found->inSpace));
      compare->eraseFromParent();
    }
    call->replaceAllUsesWith(found->pointer);
    call->eraseFromParent();
  }
  return llvm::Error::success();
}

/// InferAddressSpaces leaves a volatile access generic, with the named pointer it found cast back
/// (a target may lack volatile accesses in its named spaces); the board's ports and RAMs serve
/// volatile accesses as any other, so such an access takes the named pointer (OpenCL C 2.0's
/// atomic_init on a __global object is a volatile store through a generic pointer).
void accessVolatilesInTheirSpace(llvm::Function &kernel) {
  for (llvm::Instruction &inst : llvm::instructions(kernel)) {
    const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
    const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
    if (!(load && load->isVolatile()) && !(store && store->isVolatile()))
      continue;
    const unsigned operand = load ? load->getPointerOperandIndex() : store->getPointerOperandIndex();
    auto *generic = llvm::cast<llvm::PointerType>(inst.getOperand(operand)->getType());
    auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastOperator>(inst.getOperand(operand));
    if (generic->getAddressSpace() != SpirGenericAddressSpace || !cast)
      continue;
    llvm::Value *named = cast->getPointerOperand();
    llvm::IRBuilder<> b(&inst);
    inst.setOperand(operand, b.CreateBitCast(named, llvm::PointerType::getWithSamePointeeType(
                                                        generic, named->getType()->getPointerAddressSpace())));
  }
}

} // namespace

llvm::Error inferAddressSpaces(llvm::Function &kernel) {
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder().registerFunctionAnalyses(analyses);
  llvm::InferAddressSpacesPass(SpirGenericAddressSpace).run(kernel, analyses);
  accessVolatilesInTheirSpace(kernel);
  return answerAddressSpaceQueries(kernel);
}

} // namespace loom::hls
