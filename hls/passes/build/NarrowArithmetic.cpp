//===- NarrowArithmetic.cpp - integer operations as wide as their values ---===//
// SPDX-License-Identifier: Apache-2.0
//
// An add, sub, mul, bitwise operation, select, udiv or urem whose values provably fit fewer bits
// than its type (scalar evolution's unsigned range of it, or for a division of its operands, on the
// IR as it is) becomes a node of that many bits on its operands' low bits, zero-extended for its
// users. Exact: the low k bits of a sum, difference, product or bitwise result depend only on the
// low k bits of the operands, and if the result fits k bits they are all of it; a quotient or
// remainder of operands that fit is the same. Size_t index arithmetic on work-group sizes and ids
// (bounded by BoundWorkGroupFunctions) then takes a DSP where a 64-bit product takes 16, and its
// registers and FIFOs a third of the bits. The extension is wiring, placed where its users are
// (ScheduleASAP), so the narrow value is what waits.
//===----------------------------------------------------------------------===//
#include "GraphBuilder.h"

#include "llvm/Analysis/ScalarEvolution.h"

namespace loom::hls {

unsigned GraphBuilder::valueBits(const llvm::Value &value) {
  const llvm::SCEV *evolution = scalarEvolution_->getSCEV(const_cast<llvm::Value *>(&value));
  return std::max(1u, scalarEvolution_->getUnsignedRange(evolution).getUnsignedMax().getActiveBits());
}

unsigned GraphBuilder::narrowWidth(const llvm::Instruction &inst) {
  auto *type = llvm::dyn_cast<llvm::IntegerType>(inst.getType());
  if (!type || type->getBitWidth() <= 8)
    return 0;
  // Scalar evolution's range of the result, narrowed by what the operands' ranges bound (it gives
  // up on products of loop counters, i * i).
  auto operand = [&](unsigned i) { return valueBits(*inst.getOperand(i)); };
  unsigned bits;
  switch (inst.getOpcode()) {
  case llvm::Instruction::Add: bits = std::min(valueBits(inst), std::max(operand(0), operand(1)) + 1); break;
  case llvm::Instruction::Mul: bits = std::min(valueBits(inst), operand(0) + operand(1)); break;
  case llvm::Instruction::And: bits = std::min(valueBits(inst), std::min(operand(0), operand(1))); break;
  case llvm::Instruction::Or:
  case llvm::Instruction::Xor: bits = std::min(valueBits(inst), std::max(operand(0), operand(1))); break;
  case llvm::Instruction::Select: bits = std::min(valueBits(inst), std::max(operand(1), operand(2))); break;
  case llvm::Instruction::Sub:
  case llvm::Instruction::PHI: bits = valueBits(inst); break;
  // A quotient or remainder of operands that fit is the same.
  case llvm::Instruction::UDiv:
  case llvm::Instruction::URem: bits = std::max(operand(0), operand(1)); break;
  default:
    return 0;
  }
  // A byte saved is not worth the extensions.
  return bits + 8 <= type->getBitWidth() ? bits : 0;
}

NodeId GraphBuilder::lowBits(NodeId value, unsigned bits, const llvm::Instruction &user) {
  // A constant (static: left without consumers, it is not emitted) as a constant of that many bits.
  const Node &node = result_.graph[value];
  if (node.kind == OpKind::Constant)
    return constantNode(bits, node.constant & llvm::maskTrailingOnes<uint64_t>(bits));
  return add(Node{OpKind::Trunc, bits}, user, {value});
}

void GraphBuilder::narrowFactors(const llvm::Instruction &mul, std::vector<NodeId> &factors) {
  if (!mul.getType()->isIntegerTy())
    return;
  const unsigned width = mul.getType()->getIntegerBitWidth();
  for (unsigned i = 0; i < 2; ++i)
    if (const unsigned bits = valueBits(*mul.getOperand(i));
        bits + 8 <= width && result_.graph[factors[i]].kind != OpKind::Constant)
      factors[i] = add(Node{OpKind::ZExt, width}, mul, {lowBits(factors[i], bits, mul)});
}

void GraphBuilder::narrowComparison(const llvm::ICmpInst &compare, Node &node, std::vector<NodeId> &operands) {
  auto *type = llvm::dyn_cast<llvm::IntegerType>(compare.getOperand(0)->getType());
  if (!type)
    return;
  const unsigned bits = std::max(valueBits(*compare.getOperand(0)), valueBits(*compare.getOperand(1)));
  if (bits + 8 > type->getBitWidth())
    return;
  // Both below 2^bits, so not negative either.
  node.predicate = compare.getUnsignedPredicate();
  for (NodeId &operand : operands)
    operand = lowBits(operand, bits, compare);
}

void GraphBuilder::detachUnusedExtensions() {
  for (NodeId id = 0; id < boost::num_vertices(result_.graph); ++id) {
    Node &n = result_.graph[id];
    if ((n.kind == OpKind::ZExt || n.kind == OpKind::SExt) && !n.isStatic &&
        boost::out_degree(id, result_.graph) == 0) {
      boost::clear_in_edges(id, result_.graph);
      n.isStatic = true;
      home_.erase(id);
    }
  }
}

} // namespace loom::hls
