//===- InterleaveReductions.cpp - Float reductions as interleaved partial sums ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a loop of a single work-item kernel that accumulates floats (`sum += a[i]`), with the
// reassociation the options allow (-cl-fast-relaxed-math, -cl-unsafe-math-optimizations). Its ring
// recurs at the float unit's latency plus the ring's register, and no other work-item fills it, so
// it starts an element every 6 cycles on the default board. After: LLVM's loop vectorizer at width
// 1, interleaving K partial sums (K: the ring's latency, rounded up to a power of two so the trip
// count splits with a mask, not a divider); each iteration takes K elements, one per partial sum,
// and the partial sums are added after the loop (a remainder loop takes the last n mod K). The
// loop then takes an element per cycle. Without reassociation, or in an NDRange kernel (whose other
// work-items already hide the ring), nothing changes. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Analysis/IVDescriptors.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Vectorize/LoopVectorize.h"

namespace loom::hls {
namespace {

/// The latency of the loop's slowest reassociable float reduction's ring, or 0 when it has none.
unsigned reductionRing(llvm::Loop &loop, const board::Board &board, llvm::DominatorTree &dominators,
                       llvm::ScalarEvolution &evolution) {
  unsigned ring = 0;
  for (llvm::PHINode &phi : loop.getHeader()->phis()) {
    llvm::RecurrenceDescriptor reduction;
    if (!phi.getType()->isFloatTy() ||
        !llvm::RecurrenceDescriptor::isReductionPHI(&phi, &loop, reduction, nullptr, nullptr, &dominators,
                                                    &evolution) ||
        reduction.isOrdered() || !reduction.getFastMathFlags().allowReassoc())
      continue;
    const auto kind = reduction.getRecurrenceKind();
    const char *unit = kind == llvm::RecurKind::FAdd   ? "float_add"
                       : kind == llvm::RecurKind::FMul ? "float_mul"
                                                       : "float_compare";
    auto latency = board.operatorLatency.find(unit);
    if (latency != board.operatorLatency.end())
      ring = std::max(ring, latency->second + 1); // The unit, then the ring's register.
  }
  return ring;
}

/// Asks the vectorizer, through the loop's metadata, for width 1 and `count` interleaved copies.
void requestInterleaving(llvm::Loop &loop, unsigned count) {
  llvm::LLVMContext &context = loop.getHeader()->getContext();
  auto attribute = [&](const char *name, llvm::Constant *value) {
    return llvm::MDNode::get(context, {llvm::MDString::get(context, name), llvm::ConstantAsMetadata::get(value)});
  };
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::SmallVector<llvm::Metadata *, 8> operands{nullptr};
  if (llvm::MDNode *id = loop.getLoopID())
    for (unsigned i = 1; i < id->getNumOperands(); ++i)
      operands.push_back(id->getOperand(i));
  operands.push_back(attribute("llvm.loop.vectorize.enable", llvm::ConstantInt::getTrue(context)));
  operands.push_back(attribute("llvm.loop.vectorize.width", llvm::ConstantInt::get(i32, 1)));
  operands.push_back(attribute("llvm.loop.interleave.count", llvm::ConstantInt::get(i32, count)));
  // The interleaved loop says so, for the report (hls's own attribute; marked vectorized, as the
  // vectorizer would mark it without a follow-up).
  operands.push_back(llvm::MDNode::get(
      context, {llvm::MDString::get(context, "llvm.loop.vectorize.followup_vectorized"),
                attribute(InterleavedLoopAttribute, llvm::ConstantInt::get(i32, count)),
                attribute("llvm.loop.isvectorized", llvm::ConstantInt::get(i32, 1))}));
  llvm::MDNode *id = llvm::MDNode::getDistinct(context, operands);
  id->replaceOperandWith(0, id);
  loop.setLoopID(id);
}

} // namespace

void interleaveReductions(llvm::Function &kernel, const board::Board &board) {
  const bool floatPhis = llvm::any_of(kernel, [](const llvm::BasicBlock &block) {
    return llvm::any_of(block.phis(), [](const llvm::PHINode &phi) { return phi.getType()->isFloatTy(); });
  });
  if (!floatPhis || usesWorkItemIds(kernel))
    return;
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
  // Reductions are recognised, and vectorised, in loops with a preheader, in LCSSA form.
  llvm::FunctionPassManager canonicalize;
  canonicalize.addPass(llvm::LoopSimplifyPass());
  canonicalize.addPass(llvm::LCSSAPass());
  canonicalize.run(kernel, functionAnalyses);

  auto &loops = functionAnalyses.getResult<llvm::LoopAnalysis>(kernel);
  auto &dominators = functionAnalyses.getResult<llvm::DominatorTreeAnalysis>(kernel);
  auto &evolution = functionAnalyses.getResult<llvm::ScalarEvolutionAnalysis>(kernel);
  bool requested = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    // The vectorizer takes innermost loops; one it made, or one `#pragma ivdep` left at width 1
    // and interleave 1, it leaves alone.
    if (!loop->isInnermost() || llvm::findStringMetadataForLoop(loop, "llvm.loop.isvectorized"))
      continue;
    if (unsigned ring = reductionRing(*loop, board, dominators, evolution); ring > 1) {
      requestInterleaving(*loop, unsigned(llvm::PowerOf2Ceil(ring)));
      requested = true;
    }
  }
  if (!requested)
    return;
  llvm::FunctionPassManager interleave;
  interleave.addPass(llvm::LoopVectorizePass());
  interleave.run(kernel, functionAnalyses);
}

} // namespace loom::hls
