// SPDX-License-Identifier: Apache-2.0
// expand-constant-divisions (hls/passes/ExpandConstantDivisions.cpp): each division or remainder by
// a constant is replaced by shifts, adds and multiplies, whose results, evaluated by LLVM's constant
// folder, must equal APInt's exact quotient and remainder: every 8-bit dividend and divisor, every
// 16-bit dividend for a set of divisors, sampled 32-bit dividends, and narrow known ranges.
#include "passes/Passes.h"

#include "../../TestSupport.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <random>

using namespace loom;

namespace {

const char *Opcodes[] = {"udiv", "sdiv", "urem", "srem"};

/// `@f(iN %a)`: `body` computes %x from %a, then `%r = <opcode> iN %x, <divisor>`, returned.
struct Division {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  llvm::Function *function = nullptr;

  Division(unsigned width, const std::string &opcode, const llvm::APInt &divisor, const std::string &body = "") {
    const std::string type = "i" + std::to_string(width);
    const std::string x = body.empty() ? "%a" : "%x";
    const std::string text = llvm::formatv("define {0} @f({0} %a) {{\n{1}  %r = {2} {0} {3}, {4}\n  ret {0} %r\n}\n",
                                           type, body, opcode, x, llvm::toString(divisor, 10, true));
    llvm::SMDiagnostic diag;
    module = llvm::parseAssemblyString(text, diag, context);
    if (!module)
      FAIL("test IR does not parse: " << diag.getMessage().str() << "\n" << text);
    function = module->getFunction("f");
  }

  size_t divisions() const {
    size_t n = 0;
    for (const llvm::Instruction &inst : llvm::instructions(*function))
      n += inst.isIntDivRem();
    return n;
  }

  /// The function's result for argument `a`, folding one instruction after another.
  llvm::APInt evaluate(const llvm::APInt &a) {
    llvm::DenseMap<const llvm::Value *, llvm::Constant *> values;
    values[function->getArg(0)] = llvm::ConstantInt::get(context, a);
    for (llvm::Instruction &inst : llvm::instructions(*function)) {
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&inst))
        return llvm::cast<llvm::ConstantInt>(values.lookup(ret->getReturnValue()))->getValue();
      llvm::SmallVector<llvm::Constant *, 2> operands;
      for (llvm::Value *operand : inst.operands())
        operands.push_back(llvm::isa<llvm::Constant>(operand) ? llvm::cast<llvm::Constant>(operand)
                                                               : values.lookup(operand));
      values[&inst] = llvm::ConstantFoldInstOperands(&inst, operands, module->getDataLayout());
      REQUIRE(values[&inst]);
    }
    FAIL("no return");
    return llvm::APInt();
  }
};

llvm::APInt exact(const std::string &opcode, const llvm::APInt &x, const llvm::APInt &d) {
  if (opcode == "udiv")
    return x.udiv(d);
  if (opcode == "sdiv")
    return x.sdiv(d);
  if (opcode == "urem")
    return x.urem(d);
  return x.srem(d);
}

/// Whether the quotient overflows (the one undefined signed division).
bool undefined(const std::string &opcode, const llvm::APInt &x, const llvm::APInt &d) {
  return opcode[0] == 's' && x.isMinSignedValue() && d.isAllOnes();
}

/// Expands `opcode` by `divisor` at `width` bits and checks it against APInt for each dividend
/// `a` of `arguments` (through `body`, which bounds it, as `exactX` computes on the host).
void check(unsigned width, const std::string &opcode, const llvm::APInt &divisor, const std::vector<llvm::APInt> &arguments,
           const std::string &body = "", std::function<llvm::APInt(const llvm::APInt &)> exactX = nullptr) {
  Division division(width, opcode, divisor, body);
  hls::expandConstantDivisions(*division.function);
  INFO(opcode << " i" << width << " by " << llvm::toString(divisor, 10, true));
  // A 64-bit dividend of unknown range keeps its divider.
  if (division.divisions()) {
    CHECK(width == 64);
    return;
  }
  for (const llvm::APInt &a : arguments) {
    const llvm::APInt x = exactX ? exactX(a) : a;
    if (undefined(opcode, x, divisor))
      continue;
    const llvm::APInt got = division.evaluate(a), want = exact(opcode, x, divisor);
    if (got != want)
      FAIL_CHECK(opcode << " i" << width << " " << llvm::toString(x, 10, opcode[0] == 's') << " by "
                        << llvm::toString(divisor, 10, true) << ": got " << llvm::toString(got, 10, opcode[0] == 's') << ", want "
                        << llvm::toString(want, 10, opcode[0] == 's'));
  }
}

std::vector<llvm::APInt> everyValue(unsigned width) {
  std::vector<llvm::APInt> values;
  for (uint64_t v = 0; v < (uint64_t(1) << width); ++v)
    values.emplace_back(width, v);
  return values;
}

} // namespace

TEST_CASE("divisions by constants: every 8-bit dividend by every 8-bit divisor", "[hls][divisions]") {
  const auto values = everyValue(8);
  for (const std::string opcode : Opcodes)
    for (uint64_t d = 1; d < 256; ++d)
      check(8, opcode, llvm::APInt(8, d), values);
}

TEST_CASE("divisions by constants: every 16-bit dividend by row widths, primes and powers of two", "[hls][divisions]") {
  const auto values = everyValue(16);
  for (const std::string opcode : Opcodes)
    for (int64_t d : {3, 7, 10, 130, 641, 1000, 4096, 32767, -1, -3, -130, -4096})
      check(16, opcode, llvm::APInt(16, uint64_t(d), true), values);
}

TEST_CASE("divisions by constants: 32-bit dividends, edges and random ones", "[hls][divisions]") {
  std::mt19937 random(5);
  std::vector<llvm::APInt> values;
  for (uint64_t v : {0ull, 1ull, 2ull, 129ull, 130ull, 131ull, 0x7fffffffull, 0x80000000ull, 0x80000001ull,
                     0xfffffffeull, 0xffffffffull})
    values.emplace_back(32, v);
  for (int i = 0; i < 4000; ++i)
    values.emplace_back(32, random());
  for (const std::string opcode : Opcodes)
    for (int64_t d : std::initializer_list<int64_t>{3, 5, 7, 10, 13, 25, 125, 130, 641, 1000, 65537, 0x7fffffff, 0x80000001, 0xfffffffe, 16, -3,
                      -7, -130, -16, -0x7fffffff, -0x80000000ll})
      check(32, opcode, llvm::APInt(32, uint64_t(d), true), values);
}

TEST_CASE("divisions by constants: a dividend of a narrow known range divides in fewer bits", "[hls][divisions]") {
  std::vector<llvm::APInt> arguments;
  for (const llvm::APInt &byte : everyValue(8))
    arguments.push_back(byte.zext(32));
  auto low3 = [](const llvm::APInt &a) { return a & 7; };
  auto signedByte = [](const llvm::APInt &a) { return a.trunc(8).sext(32); };
  for (const std::string opcode : Opcodes)
    for (int64_t d : {3, 5, 7, 130, 1000, -3, -130}) {
      const llvm::APInt divisor(32, uint64_t(d), true);
      check(32, opcode, divisor, arguments, "  %x = and i32 %a, 7\n", low3);
      check(32, opcode, divisor, arguments, "  %t = trunc i32 %a to i8\n  %x = sext i8 %t to i32\n", signedByte);
      // A 64-bit dividend of 32 significant bits needs no 128-bit product (an unsigned divisor of
      // more bits, a negative one's, keeps its divider).
      if (opcode[0] == 'u' && d < 0)
        continue;
      Division wide(64, opcode, llvm::APInt(64, uint64_t(d), true),
                    opcode[0] == 's' ? "  %t = trunc i64 %a to i32\n  %x = sext i32 %t to i64\n"
                                     : "  %x = and i64 %a, 4294967295\n");
      hls::expandConstantDivisions(*wide.function);
      CHECK(wide.divisions() == 0);
    }
  // 64 bits of unknown range: the divider stays, also for an unsigned divisor whose negation is a
  // power of two (2^64 - 2 is not one).
  for (uint64_t d : {uint64_t(1000), ~uint64_t(1)}) {
    Division wide(64, "udiv", llvm::APInt(64, d));
    hls::expandConstantDivisions(*wide.function);
    CHECK(wide.divisions() == 1);
  }
}
