//===- Intrinsics.cpp - LLVM intrinsics as dataflow nodes -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). The builtin library (frontend/builtins/) reaches
// the hardware flow as LLVM's canonical intrinsics after -O2: sqrt, fabs, copysign, fmin/fmax
// (minnum/maxnum), integer min/max/abs, and a mad the options allowed (fmuladd). Each becomes a
// float unit or a few integer nodes; bit-level ones (fabs, copysign) are masks on the float's bits.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"

namespace loom::hls {

NodeId GraphBuilder::constantNode(unsigned width, uint64_t value) {
  Node n{OpKind::Constant, width, true};
  n.constant = value;
  return result_.addNode(n);
}

llvm::Optional<llvm::Error> GraphBuilder::intrinsic(const llvm::CallInst &call) {
  using llvm::CmpInst;
  const llvm::Intrinsic::ID id = call.getIntrinsicID();
  if (id == llvm::Intrinsic::not_intrinsic)
    return llvm::None;
  const bool isFloat = call.getType()->isFloatTy();
  const bool isInteger = call.getType()->isIntegerTy() && call.getType()->getIntegerBitWidth() <= 64;
  if (!isFloat && !isInteger)
    return llvm::None; // Vectors and other types: reported as an unsupported call.
  const unsigned width = isFloat ? 32 : call.getType()->getIntegerBitWidth();
  std::vector<NodeId> ops;
  for (const llvm::Use &arg : call.args()) {
    if (!arg->getType()->isIntegerTy() && !arg->getType()->isFloatTy())
      return llvm::None;
    auto op = valueOf(arg.get(), call);
    if (!op)
      return op.takeError();
    ops.push_back(*op);
  }
  auto node = [&](OpKind kind, unsigned bits, std::vector<NodeId> operands, unsigned predicate = 0) {
    Node n{kind, bits};
    n.predicate = predicate;
    return add(n, call, std::move(operands));
  };
  // a if `takeA` else b.
  auto pick = [&](NodeId takeA, NodeId a, NodeId b) { return node(OpKind::Select, width, {takeA, a, b}); };
  const uint64_t signBit = 1ull << 31, magnitude = signBit - 1;
  NodeId result;
  switch (id) {
  case llvm::Intrinsic::fmuladd:
    // Two roundings, as the board's units do: the intrinsic leaves fusing to the implementation.
    if (!isFloat)
      return llvm::None;
    result = node(OpKind::FAdd, 32, {node(OpKind::FMul, 32, {ops[0], ops[1]}), ops[2]});
    break;
  case llvm::Intrinsic::sqrt:
    result = node(OpKind::FSqrt, 32, {ops[0]});
    break;
  case llvm::Intrinsic::fabs:
    result = node(OpKind::And, 32, {ops[0], constantNode(32, magnitude)});
    break;
  case llvm::Intrinsic::copysign:
    result = node(OpKind::Or, 32,
                  {node(OpKind::And, 32, {ops[0], constantNode(32, magnitude)}),
                   node(OpKind::And, 32, {ops[1], constantNode(32, signBit)})});
    break;
  case llvm::Intrinsic::minnum:
  case llvm::Intrinsic::maxnum: {
    // The smaller (larger) operand, or the other one when one is a NaN.
    const unsigned order = id == llvm::Intrinsic::minnum ? CmpInst::FCMP_OLT : CmpInst::FCMP_OGT;
    NodeId bIsNaN = node(OpKind::FCmp, 1, {ops[1], ops[1]}, CmpInst::FCMP_UNO);
    NodeId ordered = node(OpKind::FCmp, 1, {ops[0], ops[1]}, order);
    result = pick(node(OpKind::Or, 1, {bIsNaN, ordered}), ops[0], ops[1]);
    break;
  }
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::umin: {
    const unsigned predicate = id == llvm::Intrinsic::smax   ? CmpInst::ICMP_SGT
                               : id == llvm::Intrinsic::smin ? CmpInst::ICMP_SLT
                               : id == llvm::Intrinsic::umax ? CmpInst::ICMP_UGT
                                                             : CmpInst::ICMP_ULT;
    result = pick(node(OpKind::ICmp, 1, {ops[0], ops[1]}, predicate), ops[0], ops[1]);
    break;
  }
  case llvm::Intrinsic::abs: {
    // The minimum value stays itself (two's complement), which is what abs's unsigned result is.
    NodeId zero = constantNode(width, 0);
    NodeId negative = node(OpKind::ICmp, 1, {ops[0], zero}, CmpInst::ICMP_SLT);
    result = pick(negative, node(OpKind::Sub, width, {zero, ops[0]}), ops[0]);
    break;
  }
  default:
    return llvm::None;
  }
  values_[&call] = result;
  return llvm::Error::success();
}

} // namespace loom::hls
