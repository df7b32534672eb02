// SPDX-License-Identifier: Apache-2.0
// lowerPrintfCalls on spir64 IR as Clang emits it (the table, the record code, the errors) and
// formatPrintfRecords on buffers written by hand (every conversion, vectors, a full buffer), and the
// table's JSON form.
#include "loom/lowering/Printf.h"
#include "loom/lowering/WorkItemFunction.h"

#include "ParseIR.h"
#include "TestSupport.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace loom::lowering;

namespace {

/// A spir64 kernel calling printf with `format` (a constant of `formatBytes` bytes, the NUL
/// included) and the arguments `args` (IR text, after the format).
std::string kernelCalling(const std::string &format, size_t formatBytes, const std::string &args) {
  return "target triple = \"spir64-unknown-unknown\"\n"
         "@.str = private unnamed_addr addrspace(2) constant [" + std::to_string(formatBytes) + " x i8] c\"" + format +
         "\", align 1\n"
         "@.s = private unnamed_addr addrspace(2) constant [3 x i8] c\"ok\\00\", align 1\n"
         "declare i32 @printf(i8 addrspace(2)*, ...)\n"
         "define spir_kernel void @k(i32 addrspace(1)* %out, i32 %i, float %f, <4 x i8> %c, i8 addrspace(2)* %p) {\n"
         "  %r = call i32 (i8 addrspace(2)*, ...) @printf(i8 addrspace(2)* getelementptr inbounds ([" +
         std::to_string(formatBytes) + " x i8], [" + std::to_string(formatBytes) +
         " x i8] addrspace(2)* @.str, i64 0, i64 0)" + args + ")\n"
         "  store i32 %r, i32 addrspace(1)* %out\n"
         "  ret void\n"
         "}\n";
}

/// A printf buffer holding `records` (32-bit words each) one after the other.
std::vector<uint8_t> bufferWith(const std::vector<std::vector<uint32_t>> &records, size_t bytes = 4096) {
  std::vector<uint8_t> buffer(bytes, 0);
  uint32_t at = PrintfHeaderBytes;
  for (const auto &record : records) {
    std::memcpy(buffer.data() + at, record.data(), record.size() * 4);
    at += uint32_t(record.size() * 4);
  }
  std::memcpy(buffer.data(), &at, 4);
  return buffer;
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

PrintfArgument integer(unsigned lanes = 1, unsigned words = 1) { return {PrintfArgument::Kind::Integer, lanes, words, ""}; }

} // namespace

TEST_CASE("printf lowering: table and record code", "[unit][lowering][printf]") {
  llvm::LLVMContext context;
  auto module = parseIR(context, kernelCalling("%d %f %v4hhd %s\\00", 16,
                                             ", i32 %i, double 1.5, <4 x i8> %c, i8 addrspace(2)* getelementptr "
                                             "inbounds ([3 x i8], [3 x i8] addrspace(2)* @.s, i64 0, i64 0)"));
  auto calls = lowerPrintfCalls(*module);
  REQUIRE_OK(calls);
  REQUIRE(calls->size() == 1);
  const PrintfCall &call = (*calls)[0];
  CHECK(call.format == "%d %f %v4hhd %s");
  REQUIRE(call.arguments.size() == 4);
  CHECK(call.arguments[0].kind == PrintfArgument::Kind::Integer);
  CHECK(call.arguments[1].kind == PrintfArgument::Kind::Float); // the double constant, as a float
  CHECK(call.arguments[2].lanes == 4);
  CHECK(call.arguments[3].kind == PrintfArgument::Kind::String);
  CHECK(call.arguments[3].text == "ok");
  CHECK(call.recordBytes() == 4 * (1 + 1 + 1 + 4)); // the string takes no word

  llvm::Function &kernel = *module->getFunction("k");
  CHECK_FALSE(module->getFunction("printf"));
  CHECK(callsFunction(kernel, PrintfBufferFunction));
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  INFO(stream.str());
  CHECK_FALSE(llvm::verifyFunction(kernel, &stream));
  unsigned atomics = 0, stores = 0;
  for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
    if (auto *add = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
      ++atomics;
      CHECK(add->getPointerAddressSpace() == 1); // global memory
      CHECK(llvm::cast<llvm::ConstantInt>(add->getValOperand())->getZExtValue() == call.recordBytes());
    }
    stores += llvm::isa<llvm::StoreInst>(instruction);
  }
  CHECK(atomics == 1);
  CHECK(stores == 7 + 1); // the record's words, and the kernel's own store of the result
}

TEST_CASE("printf lowering: arguments past the format's conversions keep no words", "[unit][lowering][printf]") {
  // The CTS's printf("", "foo") and printf("%d", i, f, p): only the converted arguments are stored.
  llvm::LLVMContext context;
  auto module = parseIR(context, kernelCalling("%d\\00", 3, ", i32 %i, float %f, i8 addrspace(2)* %p"));
  auto calls = lowerPrintfCalls(*module);
  REQUIRE_OK(calls);
  REQUIRE(calls->size() == 1);
  CHECK((*calls)[0].arguments.size() == 1);
  CHECK((*calls)[0].recordBytes() == 4 * 2);
  auto empty = parseIR(context, kernelCalling("\\00", 1, ", i8 addrspace(2)* getelementptr inbounds ([3 x i8], [3 x i8] "
                                                       "addrspace(2)* @.s, i64 0, i64 0)"));
  auto emptyCalls = lowerPrintfCalls(*empty);
  REQUIRE_OK(emptyCalls);
  CHECK((*emptyCalls)[0].arguments.empty());
  CHECK((*emptyCalls)[0].recordBytes() == 4);
  for (llvm::Instruction &instruction : llvm::instructions(*empty->getFunction("k")))
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      CHECK_FALSE(store->getValueOperand()->getType()->isPointerTy()); // the string's address is not kept
}

TEST_CASE("printf lowering: errors name the call", "[unit][lowering][printf]") {
  llvm::LLVMContext context;
  SECTION("a %s argument that is not a literal") {
    auto module = parseIR(context, kernelCalling("%s\\00", 3, ", i8 addrspace(2)* %p"));
    auto calls = lowerPrintfCalls(*module);
    CHECK_THAT(errorMessage(calls), Catch::Contains("%s must be a string literal"));
  }
  SECTION("a format that is not a literal") {
    std::string text = kernelCalling("%d\\00", 3, ", i32 %i");
    text.replace(text.find("getelementptr inbounds ([3 x i8], [3 x i8] addrspace(2)* @.str, i64 0, i64 0)"),
                 std::strlen("getelementptr inbounds ([3 x i8], [3 x i8] addrspace(2)* @.str, i64 0, i64 0)"), "%p");
    auto module = parseIR(context, text);
    auto calls = lowerPrintfCalls(*module);
    CHECK_THAT(errorMessage(calls), Catch::Contains("format must be a string literal"));
  }
}

TEST_CASE("printf records: every conversion", "[unit][lowering][printf]") {
  std::vector<PrintfCall> calls = {
      {"int %d %5i|%-3u|%x %#o %c%%\n", {integer(), integer(), integer(), integer(), integer(), integer()}},
      {"long %ld %lu %lx\n", {integer(1, 2), integer(1, 2), integer(1, 2)}},
      {"short %hd %hhd %hu %hhu\n", {integer(), integer(), integer(), integer()}},
      {"float %f %.3e %g %a %s %p\n",
       {{PrintfArgument::Kind::Float, 1, 1, ""}, {PrintfArgument::Kind::Float, 1, 1, ""},
        {PrintfArgument::Kind::Float, 1, 1, ""}, {PrintfArgument::Kind::Float, 1, 1, ""},
        {PrintfArgument::Kind::String, 1, 0, "text"}, {PrintfArgument::Kind::Pointer, 1, 2, ""}}},
  };
  const uint64_t big = 0x123456789aULL;
  auto buffer = bufferWith({
      {1, uint32_t(-7), 42, 3, 255, 8, 'Z'},
      {2, uint32_t(-5), 0xffffffff, uint32_t(big), uint32_t(big >> 32), uint32_t(big), uint32_t(big >> 32)},
      {3, 0x18000, uint32_t(-1), 0x18000, 0x1ff},
      {4, bitsOf(1.5f), bitsOf(-1234.25f), bitsOf(1e-3f), bitsOf(1.0f), 0x1000, 0},
  });
  bool lost = true;
  char pointer[32];
  std::snprintf(pointer, sizeof pointer, "%p", reinterpret_cast<void *>(uintptr_t(0x1000)));
  CHECK(formatPrintfRecords(calls, buffer, lost) ==
        "int -7    42|3  |ff 010 Z%\n"
        "long -5 78187493530 123456789a\n"
        "short -32768 -1 32768 255\n"
        "float 1.500000 -1.234e+03 0.001 0x1p+0 text " +
            std::string(pointer) + "\n");
  CHECK_FALSE(lost);
}

TEST_CASE("printf records: vectors and lanes", "[unit][lowering][printf]") {
  std::vector<PrintfCall> calls = {
      {"%v4hld|%v2hhx|%v3f|%v2d\n",
       {integer(4), integer(2), {PrintfArgument::Kind::Float, 4, 1, ""}, integer(1)}},
  };
  auto buffer = bufferWith({{1, 1, uint32_t(-2), 3, 4, uint32_t(-1), 0x10, bitsOf(0.5f), bitsOf(1), bitsOf(2),
                             bitsOf(99), 7}});
  bool lost = true;
  // A 3-lane vector prints 3 of the 4 lanes it occupies; a scalar under %v2 prints its one lane.
  CHECK(formatPrintfRecords(calls, buffer, lost) == "1,-2,3,4|ff,10|0.500000,1.000000,2.000000|7\n");
}

TEST_CASE("printf records: a full buffer", "[unit][lowering][printf]") {
  std::vector<PrintfCall> calls = {{"%d\n", {integer()}}};
  // Three records fit in 4 + 3 * 8 = 28 bytes; the fourth call found the buffer full.
  auto buffer = bufferWith({{1, 10}, {1, 11}, {1, 12}}, 28);
  const uint32_t pastTheEnd = 36;
  std::memcpy(buffer.data(), &pastTheEnd, 4);
  bool lost = false;
  CHECK(formatPrintfRecords(calls, buffer, lost) == "10\n11\n12\n");
  CHECK(lost);
  // A record that was reserved but not written (its tag is still 0) ends the output.
  auto partial = bufferWith({{1, 10}, {0, 0}, {1, 12}});
  CHECK(formatPrintfRecords(calls, partial, lost) == "10\n");
  // A tag beyond the table (a damaged buffer) ends it too.
  auto damaged = bufferWith({{1, 10}, {9, 0}});
  CHECK(formatPrintfRecords(calls, damaged, lost) == "10\n");
}

TEST_CASE("printf table: JSON round trip and bad input", "[unit][lowering][printf]") {
  PrintfCall call{"%s %v2hld\n", {{PrintfArgument::Kind::String, 1, 0, "hi"}, integer(2)}};
  llvm::json::Value value = toJSON(call);
  PrintfCall back;
  llvm::json::Path::Root root;
  REQUIRE(fromJSON(value, back, root));
  CHECK(back.format == call.format);
  REQUIRE(back.arguments.size() == 2);
  CHECK(back.arguments[0].text == "hi");
  CHECK(back.arguments[1].lanes == 2);
  CHECK(back.recordBytes() == call.recordBytes());

  value.getAsObject()->getArray("arguments")->front().getAsObject()->find("kind")->second = "complex";
  llvm::json::Path::Root badKind;
  CHECK_FALSE(fromJSON(value, back, badKind));
  llvm::json::Value noFormat = llvm::json::Object{{"arguments", llvm::json::Array{}}};
  llvm::json::Path::Root missing;
  CHECK_FALSE(fromJSON(noFormat, back, missing));
}
