//===- Intrinsics.cpp - LLVM intrinsics as dataflow nodes -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). The builtin library (frontend/builtins/) reaches
// the hardware flow as LLVM's canonical intrinsics after -O2: sqrt, fabs, copysign, fmin/fmax
// (minnum/maxnum), integer min/max/abs, a mad the options allowed (fmuladd), and the integer
// library's bit counts (ctlz, cttz, ctpop: clz, ctz, popcount), funnel shifts (fshl, fshr: rotate)
// and saturating adds and subtracts (add_sat, sub_sat, mad_sat). Each becomes a float unit or a few
// integer nodes; bit-level ones (fabs, copysign) are masks on the float's bits; the counts are
// log2(width) stages of compares and selects.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"

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
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz: {
    // A binary search: where the leading (trailing) half of what is left is zero, count it and
    // shift it out. A zero input counts width - 1 in the stages and one more at the end.
    if (!isInteger || !llvm::isPowerOf2_32(width) || width < 8)
      return llvm::None;
    const bool leading = id == llvm::Intrinsic::ctlz;
    NodeId value = ops[0], count = constantNode(width, 0);
    for (unsigned half = width / 2; half >= 1; half /= 2) {
      NodeId part = leading ? node(OpKind::LShr, width, {value, constantNode(width, width - half)})
                            : node(OpKind::And, width, {value, constantNode(width, (uint64_t(1) << half) - 1)});
      NodeId empty = node(OpKind::ICmp, 1, {part, constantNode(width, 0)}, CmpInst::ICMP_EQ);
      count = pick(empty, node(OpKind::Add, width, {count, constantNode(width, half)}), count);
      value = pick(empty, node(leading ? OpKind::Shl : OpKind::LShr, width, {value, constantNode(width, half)}), value);
    }
    NodeId last = leading ? node(OpKind::LShr, width, {value, constantNode(width, width - 1)})
                          : node(OpKind::And, width, {value, constantNode(width, 1)});
    NodeId zero = node(OpKind::ICmp, 1, {last, constantNode(width, 0)}, CmpInst::ICMP_EQ);
    result = pick(zero, node(OpKind::Add, width, {count, constantNode(width, 1)}), count);
    break;
  }
  case llvm::Intrinsic::ctpop: {
    // Bits summed in pairs, nibbles, bytes (masks of repeated patterns), then the bytes by a multiply
    // whose top byte collects them.
    if (!isInteger || !llvm::isPowerOf2_32(width) || width < 8)
      return llvm::None;
    auto repeated = [&](uint64_t byte) { return constantNode(width, llvm::maskTrailingOnes<uint64_t>(width) / 0xff * byte); };
    auto shifted = [&](NodeId v, unsigned by) { return node(OpKind::LShr, width, {v, constantNode(width, by)}); };
    NodeId v = node(OpKind::Sub, width, {ops[0], node(OpKind::And, width, {shifted(ops[0], 1), repeated(0x55)})});
    v = node(OpKind::Add, width,
             {node(OpKind::And, width, {v, repeated(0x33)}), node(OpKind::And, width, {shifted(v, 2), repeated(0x33)})});
    v = node(OpKind::And, width, {node(OpKind::Add, width, {v, shifted(v, 4)}), repeated(0x0f)});
    result = width == 8 ? v : shifted(node(OpKind::Mul, width, {v, repeated(0x01)}), width - 8);
    break;
  }
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr: {
    // The concatenation a:b shifted by s mod width, its high (fshl) or low (fshr) half; a shift by
    // 0 is the half itself (the other operand's shift by width is never taken).
    if (!isInteger || !llvm::isPowerOf2_32(width))
      return llvm::None;
    const bool left = id == llvm::Intrinsic::fshl;
    NodeId amount = node(OpKind::And, width, {ops[2], constantNode(width, width - 1)});
    NodeId rest = node(OpKind::Sub, width, {constantNode(width, width), amount});
    NodeId joined = node(OpKind::Or, width,
                         {node(OpKind::Shl, width, {ops[0], left ? amount : rest}),
                          node(OpKind::LShr, width, {ops[1], left ? rest : amount})});
    result = pick(node(OpKind::ICmp, 1, {amount, constantNode(width, 0)}, CmpInst::ICMP_EQ), ops[left ? 0 : 1], joined);
    break;
  }
  case llvm::Intrinsic::uadd_sat:
  case llvm::Intrinsic::usub_sat: {
    // Wrapped past the end: all ones (0 for a subtraction).
    const bool add = id == llvm::Intrinsic::uadd_sat;
    NodeId wrapped = node(add ? OpKind::Add : OpKind::Sub, width, {ops[0], ops[1]});
    NodeId overflow = add ? node(OpKind::ICmp, 1, {wrapped, ops[0]}, CmpInst::ICMP_ULT)
                          : node(OpKind::ICmp, 1, {ops[0], ops[1]}, CmpInst::ICMP_ULT);
    result = pick(overflow, constantNode(width, add ? llvm::maskTrailingOnes<uint64_t>(width) : 0), wrapped);
    break;
  }
  case llvm::Intrinsic::sadd_sat:
  case llvm::Intrinsic::ssub_sat: {
    // Overflow when the result's sign differs from a's where the operands' signs agree (add) or
    // differ (subtract); then the bound on a's side.
    const bool add = id == llvm::Intrinsic::sadd_sat;
    NodeId wrapped = node(add ? OpKind::Add : OpKind::Sub, width, {ops[0], ops[1]});
    NodeId changed = node(OpKind::Xor, width, {wrapped, ops[0]});
    NodeId other = add ? node(OpKind::Xor, width, {wrapped, ops[1]}) : node(OpKind::Xor, width, {ops[0], ops[1]});
    NodeId zero = constantNode(width, 0);
    NodeId overflow = node(OpKind::ICmp, 1, {node(OpKind::And, width, {changed, other}), zero}, CmpInst::ICMP_SLT);
    const uint64_t max = llvm::maskTrailingOnes<uint64_t>(width - 1);
    NodeId bound = pick(node(OpKind::ICmp, 1, {ops[0], zero}, CmpInst::ICMP_SLT), constantNode(width, max + 1),
                        constantNode(width, max));
    result = pick(overflow, bound, wrapped);
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
