//===- Verilog.h - A small Verilog syntax tree and its printer -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Codegen builds modules from these nodes instead of pasting strings, so every generated expression
// is well-formed and fully parenthesised, and widths are explicit where Verilator's -Wall checks them.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace loom::hls::verilog {

struct Expr;
using ExprRef = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind { Ref, Slice, Constant, Unary, Binary, Ternary, Concat, Replicate, Signed };
  Kind kind;
  std::string text;           ///< Ref: the name. Unary/Binary: the operator.
  unsigned width = 0;         ///< Constant: bit width. Replicate: count.
  uint64_t value = 0;         ///< Constant value.
  unsigned hi = 0, lo = 0;    ///< Slice bounds.
  std::vector<ExprRef> operands;
};

ExprRef ref(std::string name);
ExprRef slice(ExprRef base, unsigned hi, unsigned lo);
ExprRef bit(ExprRef base, unsigned index);
ExprRef constant(unsigned width, uint64_t value);
ExprRef unary(std::string op, ExprRef operand);
ExprRef binary(std::string op, ExprRef lhs, ExprRef rhs);
ExprRef ternary(ExprRef condition, ExprRef whenTrue, ExprRef whenFalse);
ExprRef concat(std::vector<ExprRef> parts);
ExprRef replicate(unsigned count, ExprRef part);
ExprRef asSigned(ExprRef operand);

std::string print(const Expr &expr);

enum class Direction { Input, Output };

struct Port {
  Direction direction;
  std::string name;
  unsigned width = 1;
};

/// A module-level item, printed in order.
struct Item {
  enum class Kind { Wire, Assign, Instance, Comment, LintOff, LintOn };
  Kind kind;
  std::string name;   ///< Wire name, instance name, comment text or lint rule.
  unsigned width = 1; ///< Wire width.
  ExprRef lhs, rhs;   ///< Assign.
  std::string module; ///< Instance: module type.
  std::vector<std::pair<std::string, int64_t>> parameters;
  std::vector<std::pair<std::string, ExprRef>> valueParameters; ///< Instance: wide constants (a ROM's words).
  std::vector<std::pair<std::string, ExprRef>> connections; ///< A null ExprRef leaves a port open.
};

class Module {
public:
  explicit Module(std::string name) : name_(std::move(name)) {}

  void addPort(Direction direction, std::string name, unsigned width = 1);
  ExprRef wire(std::string name, unsigned width = 1);
  ExprRef wire(std::string name, unsigned width, ExprRef value);
  void assign(ExprRef lhs, ExprRef rhs);
  void instance(std::string module, std::string name,
                std::vector<std::pair<std::string, int64_t>> parameters,
                std::vector<std::pair<std::string, ExprRef>> connections,
                std::vector<std::pair<std::string, ExprRef>> valueParameters = {});
  void comment(std::string text);
  /// Brackets items with `/* verilator lint_off RULE */ ... lint_on` for intentional cases.
  void lintOff(std::string rule);
  void lintOn(std::string rule);

  const std::string &name() const { return name_; }
  const std::vector<Port> &ports() const { return ports_; }
  std::string print() const;

private:
  std::string name_;
  std::vector<Port> ports_;
  std::vector<Item> items_;
};

} // namespace loom::hls::verilog
