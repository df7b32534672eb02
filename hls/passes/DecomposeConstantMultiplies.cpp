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

    // A node beside the multiply (same width, loop and source line), and a shift amount.
    auto beside = [&](OpKind kind, const std::string &suffix) {
      Node node{kind, product.width, product.isStatic};
      node.loop = product.loop;
      node.location = product.location;
      node.name = product.name + suffix;
      return kernel.addNode(node);
    };
    auto amount = [&](unsigned position) {
      Node node{OpKind::Constant, product.width, true};
      node.constant = position;
      return kernel.addNode(node);
    };
    // The factor shifted to a digit's position (the factor itself at position 0).
    auto term = [&](const Digit &digit) -> NodeId {
      if (digit.position == 0)
        return factor;
      const NodeId shift = beside(OpKind::Shl, "_shl" + std::to_string(digit.position));
      kernel.connect(factor, shift, 0);
      kernel.connect(amount(digit.position), shift, 1);
      return shift;
    };
    boost::clear_in_edges(mul, kernel.graph);
    // The multiply's node becomes the last operation, so its consumers stay as they are: the shift
    // of a power of two (a wire), else the last digit's adder after those of the others.
    if (digits.size() == 1) {
      kernel.graph[mul].kind = OpKind::Shl;
      kernel.connect(factor, mul, 0);
      kernel.connect(amount(digits.front().position), mul, 1);
      continue;
    }
    NodeId sum = term(digits[0]);
    for (size_t d = 1; d + 1 < digits.size(); ++d) {
      const NodeId partial = beside(digits[d].negative ? OpKind::Sub : OpKind::Add, "_partial" + std::to_string(d));
      kernel.connect(sum, partial, 0);
      kernel.connect(term(digits[d]), partial, 1);
      sum = partial;
    }
    kernel.graph[mul].kind = digits.back().negative ? OpKind::Sub : OpKind::Add;
    kernel.connect(sum, mul, 0);
    kernel.connect(term(digits.back()), mul, 1);
  }
}

} // namespace loom::hls
