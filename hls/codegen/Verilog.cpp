//===- Verilog.cpp - Build and print the Verilog syntax tree --------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/hls/Verilog.h"

#include "llvm/Support/FormatVariadic.h"

#include <cassert>

namespace loom::hls::verilog {
namespace {

ExprRef make(Expr expr) { return std::make_shared<const Expr>(std::move(expr)); }

std::string declarationRange(unsigned width) {
  return width == 1 ? "" : llvm::formatv("[{0}:0] ", width - 1).str();
}

} // namespace

ExprRef ref(std::string name) { return make(Expr{Expr::Kind::Ref, std::move(name)}); }

ExprRef slice(ExprRef base, unsigned hi, unsigned lo) {
  assert(hi >= lo && "inverted slice");
  Expr e{Expr::Kind::Slice};
  e.hi = hi;
  e.lo = lo;
  e.operands = {std::move(base)};
  return make(std::move(e));
}

ExprRef bit(ExprRef base, unsigned index) { return slice(std::move(base), index, index); }

ExprRef constant(unsigned width, uint64_t value) {
  assert(width >= 1);
  Expr e{Expr::Kind::Constant};
  e.width = width;
  e.value = width >= 64 ? value : value & ((uint64_t(1) << width) - 1); // wider: zero-extended
  return make(std::move(e));
}

ExprRef unary(std::string op, ExprRef operand) {
  Expr e{Expr::Kind::Unary, std::move(op)};
  e.operands = {std::move(operand)};
  return make(std::move(e));
}

ExprRef binary(std::string op, ExprRef lhs, ExprRef rhs) {
  Expr e{Expr::Kind::Binary, std::move(op)};
  e.operands = {std::move(lhs), std::move(rhs)};
  return make(std::move(e));
}

ExprRef ternary(ExprRef condition, ExprRef whenTrue, ExprRef whenFalse) {
  Expr e{Expr::Kind::Ternary};
  e.operands = {std::move(condition), std::move(whenTrue), std::move(whenFalse)};
  return make(std::move(e));
}

ExprRef concat(std::vector<ExprRef> parts) {
  assert(!parts.empty());
  if (parts.size() == 1)
    return parts.front();
  Expr e{Expr::Kind::Concat};
  e.operands = std::move(parts);
  return make(std::move(e));
}

ExprRef replicate(unsigned count, ExprRef part) {
  assert(count >= 1);
  Expr e{Expr::Kind::Replicate};
  e.width = count;
  e.operands = {std::move(part)};
  return make(std::move(e));
}

ExprRef asSigned(ExprRef operand) {
  Expr e{Expr::Kind::Signed};
  e.operands = {std::move(operand)};
  return make(std::move(e));
}

std::string print(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Ref:
    return e.text;
  case Expr::Kind::Slice: {
    // Verilog cannot slice an expression, only a name; codegen slices names only.
    std::string base = print(*e.operands[0]);
    if (e.hi == e.lo)
      return llvm::formatv("{0}[{1}]", base, e.hi);
    return llvm::formatv("{0}[{1}:{2}]", base, e.hi, e.lo);
  }
  case Expr::Kind::Constant:
    return llvm::formatv("{0}'h{1:x-}", e.width, e.value);
  case Expr::Kind::Unary:
    return "(" + e.text + print(*e.operands[0]) + ")";
  case Expr::Kind::Binary:
    return "(" + print(*e.operands[0]) + " " + e.text + " " + print(*e.operands[1]) + ")";
  case Expr::Kind::Ternary:
    return "(" + print(*e.operands[0]) + " ? " + print(*e.operands[1]) + " : " +
           print(*e.operands[2]) + ")";
  case Expr::Kind::Concat: {
    // Verilator refuses a line of more than 40,000 tokens: a long concatenation takes many lines.
    constexpr size_t PartsPerLine = 16;
    std::string out = "{";
    for (size_t i = 0; i < e.operands.size(); ++i)
      out += (i == 0 ? "" : i % PartsPerLine ? ", " : ",\n    ") + print(*e.operands[i]);
    return out + "}";
  }
  case Expr::Kind::Replicate:
    return llvm::formatv("{{{0}{{{1}}}", e.width, print(*e.operands[0]));
  case Expr::Kind::Signed:
    return "$signed(" + print(*e.operands[0]) + ")";
  }
  return "";
}

void Module::addPort(Direction direction, std::string name, unsigned width) {
  ports_.push_back(Port{direction, std::move(name), width});
}

ExprRef Module::wire(std::string name, unsigned width) {
  Item item{Item::Kind::Wire, name};
  item.width = width;
  items_.push_back(std::move(item));
  return ref(std::move(name));
}

ExprRef Module::wire(std::string name, unsigned width, ExprRef value) {
  auto w = wire(std::move(name), width);
  assign(w, std::move(value));
  return w;
}

void Module::assign(ExprRef lhs, ExprRef rhs) {
  Item item{Item::Kind::Assign};
  item.lhs = std::move(lhs);
  item.rhs = std::move(rhs);
  items_.push_back(std::move(item));
}

void Module::instance(std::string module, std::string name,
                      std::vector<std::pair<std::string, int64_t>> parameters,
                      std::vector<std::pair<std::string, ExprRef>> connections,
                      std::vector<std::pair<std::string, ExprRef>> valueParameters) {
  Item item{Item::Kind::Instance, std::move(name)};
  item.module = std::move(module);
  item.parameters = std::move(parameters);
  item.valueParameters = std::move(valueParameters);
  item.connections = std::move(connections);
  items_.push_back(std::move(item));
}

void Module::comment(std::string text) { items_.push_back(Item{Item::Kind::Comment, std::move(text)}); }
void Module::lintOff(std::string rule) { items_.push_back(Item{Item::Kind::LintOff, std::move(rule)}); }
void Module::lintOn(std::string rule) { items_.push_back(Item{Item::Kind::LintOn, std::move(rule)}); }

std::string Module::print() const {
  std::string out = "module " + name_ + " (\n";
  for (size_t i = 0; i < ports_.size(); ++i) {
    const auto &p = ports_[i];
    out += llvm::formatv("  {0} wire {1}{2}{3}\n", p.direction == Direction::Input ? "input " : "output",
                         declarationRange(p.width), p.name, i + 1 < ports_.size() ? "," : "");
  }
  out += ");\n";
  for (const auto &item : items_) {
    switch (item.kind) {
    case Item::Kind::Wire:
      out += llvm::formatv("  wire {0}{1};\n", declarationRange(item.width), item.name);
      break;
    case Item::Kind::Assign:
      out += "  assign " + verilog::print(*item.lhs) + " = " + verilog::print(*item.rhs) + ";\n";
      break;
    case Item::Kind::Comment:
      out += "  // " + item.name + "\n";
      break;
    case Item::Kind::LintOff:
      out += "  /* verilator lint_off " + item.name + " */\n";
      break;
    case Item::Kind::LintOn:
      out += "  /* verilator lint_on " + item.name + " */\n";
      break;
    case Item::Kind::Instance: {
      out += "  " + item.module;
      if (!item.parameters.empty() || !item.valueParameters.empty()) {
        out += " #(";
        const char *separator = "";
        for (const auto &[name, value] : item.parameters) {
          out += llvm::formatv("{0}.{1}({2})", separator, name, value);
          separator = ", ";
        }
        for (const auto &[name, value] : item.valueParameters) {
          out += llvm::formatv("{0}.{1}({2})", separator, name, verilog::print(*value));
          separator = ", ";
        }
        out += ")";
      }
      out += " " + item.name + " (\n";
      for (size_t i = 0; i < item.connections.size(); ++i) {
        const auto &c = item.connections[i];
        out += llvm::formatv("    .{0}({1}){2}\n", c.first, c.second ? verilog::print(*c.second) : "",
                             i + 1 < item.connections.size() ? "," : "");
      }
      out += "  );\n";
      break;
    }
    }
  }
  return out + "endmodule\n";
}

} // namespace loom::hls::verilog
