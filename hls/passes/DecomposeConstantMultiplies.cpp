//===- DecomposeConstantMultiplies.cpp - x * 10 as (x << 3) + (x << 1) ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: an integer multiply by a constant is a multiplier (DSP blocks, the board's int_mul
// latency). After: a multiply by a constant of at most three nonzero digits in its canonical signed
// digit form (10 = 8 + 2, 7 = 8 - 1, 100 = 128 - 32 + 4) is the sum of the operand shifted by each
// digit's position: shifts by a constant are wiring, so it costs one or two adders and no DSP, as
// FPGA synthesis tools and HLS compilers implement such products. Other multiplies stay.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace loom::hls {
namespace {

/// One nonzero digit of a canonical signed digit form: +-2^position.
struct Digit {
  unsigned position;
  bool negative;
};

/// The non-adjacent form of `value` as a `width`-bit number, least significant digit first: digits
/// at positions of `width` and above are multiples of 2^width, which the product's width drops.
std::vector<Digit> signedDigits(uint64_t value, unsigned width) {
  std::vector<Digit> digits;
  unsigned __int128 rest = value;
  for (unsigned position = 0; rest != 0 && position < width; ++position, rest >>= 1) {
    if (!(rest & 1))
      continue;
    const bool negative = (rest & 3) == 3;
    digits.push_back({position, negative});
    if (negative)
      rest += 1;
    else
      rest -= 1;
  }
  return digits;
}

constexpr size_t MaxDigits = 3;

} // namespace

void decomposeConstantMultiplies(KernelGraph &kernel) {
  const size_t nodes = boost::num_vertices(kernel.graph);
  for (NodeId mul = 0; mul < nodes; ++mul) {
    const Node product = kernel.graph[mul];
    if (product.kind != OpKind::Mul || product.width == 0 || product.width > 64)
      continue;
    const std::vector<NodeId> operands = kernel.operands(mul);
    if (operands.size() != 2)
      continue;
    const bool constantFirst = kernel.graph[operands[0]].kind == OpKind::Constant;
    const NodeId factor = operands[constantFirst ? 1 : 0], constant = operands[constantFirst ? 0 : 1];
    if (kernel.graph[constant].kind != OpKind::Constant || kernel.graph[factor].kind == OpKind::Constant)
      continue;
    const uint64_t mask = product.width == 64 ? ~uint64_t(0) : (uint64_t(1) << product.width) - 1;
    std::vector<Digit> digits = signedDigits(kernel.graph[constant].constant & mask, product.width);
    // The first term is added, so one digit at least must be.
    llvm::stable_sort(digits, [](const Digit &a, const Digit &b) { return !a.negative && b.negative; });
    if (digits.empty() || digits.size() > MaxDigits || digits.front().negative)
      continue;

    // The factor shifted to a digit's position (the factor itself at position 0).
    auto term = [&](const Digit &digit) -> NodeId {
      if (digit.position == 0)
        return factor;
      Node amount{OpKind::Constant, product.width, true};
      amount.constant = digit.position;
      Node shift{OpKind::Shl, product.width, product.isStatic};
      shift.loop = product.loop;
      shift.location = product.location;
      shift.name = product.name + "_shl" + std::to_string(digit.position);
      const NodeId id = kernel.addNode(shift);
      kernel.connect(factor, id, 0);
      kernel.connect(kernel.addNode(amount), id, 1);
      return id;
    };
    boost::clear_in_edges(mul, kernel.graph);
    if (digits.size() == 1) {
      // A power of two: the product is the shift itself, a wire.
      Node &node = kernel.graph[mul];
      node.kind = OpKind::Shl;
      kernel.connect(factor, mul, 0);
      Node amount{OpKind::Constant, product.width, true};
      amount.constant = digits.front().position;
      kernel.connect(kernel.addNode(amount), mul, 1);
      continue;
    }
    // Partial sums before the last digit are new adders; the last one is the multiply's node, so
    // its consumers stay as they are.
    NodeId sum = term(digits[0]);
    for (size_t d = 1; d + 1 < digits.size(); ++d) {
      Node partial{digits[d].negative ? OpKind::Sub : OpKind::Add, product.width, product.isStatic};
      partial.loop = product.loop;
      partial.location = product.location;
      partial.name = product.name + "_partial" + std::to_string(d);
      const NodeId id = kernel.addNode(partial);
      kernel.connect(sum, id, 0);
      kernel.connect(term(digits[d]), id, 1);
      sum = id;
    }
    const NodeId last = term(digits.back());
    kernel.graph[mul].kind = digits.back().negative ? OpKind::Sub : OpKind::Add;
    kernel.connect(sum, mul, 0);
    kernel.connect(last, mul, 1);
  }
}

} // namespace loom::hls
