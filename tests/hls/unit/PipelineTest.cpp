// SPDX-License-Identifier: Apache-2.0
// The hardware flow on hand-written LLVM IR: graph shape after each pass, FIFO insertion, memory
// ordering, clear errors for what is unsupported, and generated Verilog that Verilator's lint and
// Yosys accept.
#include "loom/hls/Dataflow.h"
#include "loom/hls/Pipeline.h"
#include "loom/hls/Verilog.h"
#include "passes/Passes.h"

#include "../../TestSupport.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace loom;

namespace {

const char *Header = R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func i64 @_Z15get_global_sizej(i32)
)";

const char *VectorAdd = R"(
define spir_kernel void @vector_add(float addrspace(1)* %a, float addrspace(1)* %b, float addrspace(1)* %c) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid
  %va = load float, float addrspace(1)* %pa, align 4
  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %gid
  %vb = load float, float addrspace(1)* %pb, align 4
  %sum = fadd float %va, %vb
  %pc = getelementptr inbounds float, float addrspace(1)* %c, i64 %gid
  store float %sum, float addrspace(1)* %pc, align 4
  ret void
}
)";

struct Compiled {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
};

std::unique_ptr<Compiled> parse(const std::string &body) {
  auto result = std::make_unique<Compiled>();
  llvm::SMDiagnostic diag;
  result->module = llvm::parseAssemblyString(std::string(Header) + body, diag, result->context);
  if (!result->module)
    FAIL("test IR does not parse: " << diag.getMessage().str());
  return result;
}

board::Board unitBoard() {
  auto board = board::loadBoard("unit");
  REQUIRE_OK(board);
  return *board;
}

/// Runs the flow and keeps each pass's dump.
llvm::Expected<hls::SynthesizedProgram> synthesize(llvm::Module &module,
                                                   std::map<std::string, std::string> &dumps) {
  hls::HlsOptions options;
  options.dump = [&](llvm::StringRef pass, llvm::StringRef, llvm::StringRef text) {
    dumps[pass.str()] += text.str();
  };
  return hls::synthesizeProgram(module, unitBoard(), options);
}

/// Runs the flow on `body`, which must build, keeping each pass's dump.
hls::SynthesizedProgram synthesizeOk(const std::string &body, std::map<std::string, std::string> &dumps) {
  auto ir = parse(body);
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  return std::move(*program);
}

/// The error message the flow gives for `body` (empty when it succeeds).
std::string synthesisError(const std::string &body) {
  auto ir = parse(body);
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  return errorMessage(program);
}

/// `body` with debug info as Clang gives it: its kernel (`!dbg !5`) in `file`, its instructions marked
/// `!dbg !9` at line 4, column 3, so an error there names `file`:4:3.
std::string withDebugInfo(const std::string &body, const std::string &file = "kernel.cl") {
  return body + R"(
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: ")" + file + R"(", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "kernel", scope: !1, file: !1, line: 1, type: !6, unit: !0,
                            spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!9 = !DILocation(line: 4, column: 3, scope: !5)
)";
}

/// The error message the flow gives for `body` with debug info (withDebugInfo).
std::string synthesisErrorAt(const std::string &body, const std::string &file = "kernel.cl") {
  return synthesisError(withDebugInfo(body, file));
}

/// `text` with its line `line` (with its newline) replaced by `lines`.
std::string withLineReplaced(std::string text, const std::string &line, const std::string &lines) {
  const size_t at = text.find(line);
  REQUIRE(at != std::string::npos);
  return text.replace(at, line.size(), lines);
}

/// Runs a tool on the Verilog written to <top>.v in a temp dir (Verilator wants the file named after
/// its first module); returns exit code and output.
std::pair<int, std::string> runTool(llvm::StringRef program, std::vector<std::string> args,
                                    const std::string &verilog, const std::string &top) {
  llvm::SmallString<128> dir, source, output;
  llvm::sys::fs::createUniqueDirectory("loom-hls", dir);
  source = dir;
  llvm::sys::path::append(source, top + ".v");
  output = dir;
  llvm::sys::path::append(output, "tool.log");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(source, ec);
    os << verilog;
  }
  std::vector<llvm::StringRef> argv{program};
  for (auto &a : args)
    argv.push_back(a == "$SRC" ? llvm::StringRef(source) : llvm::StringRef(a));
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(output), llvm::StringRef(output)};
  int rc = llvm::sys::ExecuteAndWait(program, argv, llvm::None, redirects);
  auto text = llvm::MemoryBuffer::getFile(output);
  std::string log = text ? (*text)->getBuffer().str() : "";
  llvm::sys::fs::remove_directories(dir);
  return {rc, log};
}

/// Verilator's lint with every warning on passes `verilog` (top module `top`) silently.
void checkLintClean(const std::string &verilog, const std::string &top) {
  // A program of several kernels has several top modules in one file: only `top`'s name matches it.
  auto [rc, log] = runTool(VERILATOR_EXECUTABLE, {"--lint-only", "-Wall", "-Wno-DECLFILENAME", "--top-module", top, "$SRC"},
                           verilog, top);
  INFO(log);
  CHECK(rc == 0);
  CHECK(log.empty());
}

} // namespace

TEST_CASE("vector_add becomes a balanced dataflow graph with three memory ports") {
  auto ir = parse(VectorAdd);
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  REQUIRE(program->kernels.size() == 1);
  const auto &hw = program->kernels[0];
  CHECK(hw.kernelName == "vector_add");
  CHECK(hw.topModule == "loom_kernel_vector_add");
  CHECK(hw.numArgs == 3);
  REQUIRE(hw.ports.size() == 3);
  CHECK(hw.ports[0].kind == hls::MemoryPort::Kind::Load);
  CHECK(hw.ports[2].kind == hls::MemoryPort::Kind::Store);
  // Consecutive work-items access consecutive floats: line ports of the unit board's 8-byte width.
  for (const auto &port : hw.ports) {
    CHECK(port.lines());
    CHECK(port.bytes == 8);
    CHECK(port.elementBytes == 4);
  }
  CHECK(hw.initiationInterval == 1);

  // Every pass printed the graph.
  for (const auto &pass : hls::passNames())
    CHECK(dumps.count(pass) == 1);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= workitems") == 1);
  CHECK(count(built, "= load i32") == 2);
  CHECK(count(built, "= store") == 1);
  CHECK(count(built, "= fadd i32") == 1);
  CHECK(count(built, "= static address") == 0); // addresses depend on the work-item id
  // Loads feed the store's data, so ordering adds no tokens: the store has its address and data only.
  auto storeLine = built.substr(built.find("= store"));
  CHECK(count(storeLine.substr(0, storeLine.find('\n')), "%") == 2);
  // The address path reaches the store long before the sum: balance-paths buffers it.
  CHECK(count(dumps["balance-paths"], "= fifo") >= 1);
  // Only the completion waits for the store: its token leaves at once, and the kernel is done when
  // the memory acknowledged it. Unit board: work-items 1, address 1, loads 2+2 cycles, fadd 3, then
  // the store's 4 and 2 elements gathering in its line (the completion waits alongside).
  const auto &posted = dumps["post-completion-stores"];
  CHECK(count(posted, " posted") == 1);
  CHECK(count(posted.substr(posted.find("= store")), " posted") == 1);
  CHECK(program->verilog.find(".POSTED(1)") != std::string::npos);
  CHECK(hw.pipelineDepth == 1 + 1 + 4 + 3 + 4 + 2);
}

TEST_CASE("the consumers of one value share a delay line: a chain of FIFOs in order of their slack") {
  std::map<std::string, std::string> dumps;
  // %v meets the multiply chain 2, 4 and 6 cycles after it came (unit board: fmul 2 cycles), twice at 6.
  synthesizeOk(R"(
define spir_kernel void @powers(float addrspace(1)* noalias %a, float addrspace(1)* noalias %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid
  %v = load float, float addrspace(1)* %pa, align 4
  %m1 = fmul float %v, %v
  %m2 = fmul float %m1, %v
  %m3 = fmul float %m2, %v
  %p = fmul float %m3, %v
  %q = fmul float %m3, %v
  %s = fadd float %p, %q
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %s, float addrspace(1)* %po, align 4
  ret void
}
)",
               dumps);
  const std::string &balanced = dumps["balance-paths"];
  // The load's node and the FIFOs named after it.
  std::smatch load;
  REQUIRE(std::regex_search(balanced, load, std::regex("(%[0-9]+) = load")));
  std::vector<std::string> chain{load[1]};
  for (std::smatch fifo; std::regex_search(balanced, fifo, std::regex("(%[0-9]+) = fifo i32 depth=4 \\(" + chain.back() + "\\) lat=2"));)
    chain.push_back(fifo[1]);
  // Three FIFOs of 2 cycles one after another, not FIFOs of 2, 4, 6 and 6 cycles side by side.
  CHECK(chain.size() == 4);
  CHECK(count(balanced, "= fifo i32 depth=6") == 0);
  CHECK(count(balanced, "= fifo i32 depth=8") == 0);
  // The two multiplies at 6 cycles both take the last FIFO's value; the one at 4 and the last FIFO
  // take the middle one's.
  auto uses = [&](const std::string &node) { return count(balanced, node + ")") + count(balanced, node + ","); };
  CHECK(uses(chain[3]) == 2);
  CHECK(uses(chain[2]) == 2);
}

TEST_CASE("generated Verilog passes verilator lint -Wall and yosys synthesis") {
  auto ir = parse(VectorAdd);
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  checkLintClean(program->verilog, "loom_kernel_vector_add");
  auto [synthRc, synthLog] =
      runTool(YOSYS_EXECUTABLE, {"-q", "-p", "synth -top loom_kernel_vector_add", "$SRC"}, program->verilog,
              "loom_kernel_vector_add");
  INFO(synthLog);
  CHECK(synthRc == 0);
}

TEST_CASE("integer kernels with static operands, selects and widths lint cleanly") {
  auto ir = parse(R"(
define spir_kernel void @scale(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %k, i16 %unused) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %n = call spir_func i64 @_Z15get_global_sizej(i32 0)
  %last = add i64 %n, -1
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %m = mul i32 %v, %k
  %s = ashr i32 %m, 3
  %isLast = icmp eq i64 %gid, %last
  %r = select i1 %isLast, i32 0, i32 %s
  %t = trunc i64 %gid to i32
  %r2 = xor i32 %r, %t
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %r2, i32 addrspace(1)* %q, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  CHECK(count(dumps["build-dataflow"], "static add i64") == 1); // get_global_size(0) - 1 is a wire
  checkLintClean(program->verilog, "loom_kernel_scale");
}

TEST_CASE("a multiply by a constant of few signed digits is shifts and adders, not a DSP") {
  auto ir = parse(R"(
define spir_kernel void @scale(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %ten = mul i32 %v, 10
  %seven = mul i32 %v, 7
  %hundred = mul i32 %v, 100
  %many = mul i32 %v, 1431655765
  %a = add i32 %ten, %seven
  %b = xor i32 %hundred, %many
  %r = add i32 %a, %b
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %r, i32 addrspace(1)* %q, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  CHECK(count(dumps["build-dataflow"], "= mul i32") == 4);
  const auto &decomposed = dumps["decompose-constant-multiplies"];
  // 10 = 8 + 2 and 7 = 8 - 1: an adder each; 100 = 128 - 32 + 4: two; 0x55555555 has 16 digits.
  CHECK(count(decomposed, "= mul i32") == 1);
  CHECK(count(decomposed, "= shl i32") == 2 + 1 + 3);
  CHECK(count(decomposed, "= sub i32") == 2);
  // The multiplier left is the only one using DSPs: a 32-bit product takes 4.
  CHECK(program->kernels[0].area.dsps == 4);
  checkLintClean(program->verilog, "loom_kernel_scale");
}

TEST_CASE("float operations on static operands, and mads, run in float units per work-item") {
  auto ir = parse(R"(
declare float @llvm.fmuladd.f32(float, float, float)
define spir_kernel void @scaled(float addrspace(1)* %out, float %a, float %b) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %ab = fmul float %a, %b
  %p = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  %v = load float, float addrspace(1)* %p, align 4
  %r = call float @llvm.fmuladd.f32(float %v, float %ab, float %a)
  store float %r, float addrspace(1)* %p, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "static fmul") == 0); // a float unit, not a wire expression
  // a * b waits for the work-item token: its operands are the two arguments and the work-items node.
  auto product = built.substr(built.find("= fmul i32"));
  product = product.substr(0, product.find('\n'));
  CHECK(count(product, "%") == 3);
  // The mad is a multiply and an add: two fmul units and one fadd in all.
  CHECK(count(built, "= fmul i32") == 2);
  CHECK(count(built, "= fadd i32") == 1);
  CHECK(count(program->verilog, "loom_fmul #(.LATENCY(") == 2); // instances, not the definition
  checkLintClean(program->verilog, "loom_kernel_scaled");
}

TEST_CASE("arithmetic on work-group sizes and ids is as wide as the board's largest group needs") {
  auto ir = parse(R"(
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z14get_local_sizej(i32)
define spir_kernel void @sizes(i64 addrspace(1)* %out, i64 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %sx = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %sy = call spir_func i64 @_Z14get_local_sizej(i32 1)
  %area = mul i64 %sx, %sy
  %slot = mul i64 %area, %lid
  %wrapped = urem i64 %slot, %sx
  %far = mul i64 %gid, %n
  %scaled = mul i64 %gid, %sx
  br label %loop
loop:
  %j = phi i64 [ 0, %entry ], [ %next, %loop ]
  %sum = phi i64 [ %wrapped, %entry ], [ %added, %loop ]
  %square = mul i64 %j, %j
  %added = add i64 %sum, %square
  %next = add i64 %j, 1
  %more = icmp ult i64 %next, %sx
  br i1 %more, label %loop, label %done
done:
  %both = add i64 %far, %scaled
  %r = add i64 %added, %both
  %p = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %gid
  store i64 %r, i64 addrspace(1)* %p, align 8
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  // Sizes of at most 1024 work-items are 11 bits: their product 21 (both static: a static product),
  // times an id below 1024 30, and so the remainder.
  CHECK(count(built, "= static mul i21") == 1);
  CHECK(count(built, "= mul i30") == 1);
  CHECK(count(built, "= urem i30") == 1);
  // The loop's counter stays below a size, 10 bits, and goes round its ring in them: its square 20.
  CHECK(count(built, "= loop_mux i10") == 1);
  CHECK(count(built, "= mul i20") == 1);
  // Its exit test compares 11 bits: the next count and the size.
  CHECK(count(built, "= trunc i11") == 2);
  // A global id is unbounded: its products stay 64 bits, and so does every sum with them; a
  // size factor is its 11 bits zero-extended.
  CHECK(count(built, "= mul i64") == 2);
  CHECK(count(built, "= zext i64") >= 1);
  REQUIRE(program->kernels.size() == 1);
  // 18-bit multipliers: 16 DSPs for the 64-bit product, 4 for each of 19 to 36 bits, 4 for 64 by 11
  // bits; without narrowing each would take 16.
  CHECK(program->kernels[0].area.dsps == 16 + 4 + 4 + 4);
  checkLintClean(program->verilog, "loom_kernel_sizes");
}

TEST_CASE("integer divisions run in pipelined loom_idiv units, on static operands too") {
  auto ir = parse(R"(
define spir_kernel void @divide(i32 addrspace(1)* %a, i64 addrspace(1)* %b, i32 %n, i64 %m) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %q = sdiv i32 %v, %n
  store i32 %q, i32 addrspace(1)* %p, align 4
  %r = urem i64 %gid, %m
  %s = udiv i64 %m, 3
  %t = add i64 %r, %s
  %pb = getelementptr inbounds i64, i64 addrspace(1)* %b, i64 %gid
  store i64 %t, i64 addrspace(1)* %pb, align 8
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "static udiv") == 0); // m / 3 is a unit started by the work-item token
  const std::string &v = program->verilog;
  CHECK(count(v, "loom_idiv #(.WIDTH(32), .SIGNED(1), .REMAINDER(0), .LATENCY(1))") == 1);
  CHECK(count(v, "loom_idiv #(.WIDTH(64), .SIGNED(0), .REMAINDER(1), .LATENCY(1))") == 1);
  CHECK(count(v, "loom_idiv #(.WIDTH(64), .SIGNED(0), .REMAINDER(0), .LATENCY(1))") == 1);
  // Each divider's subtract-and-select per quotient bit: 2 * WIDTH^2 LUTs beyond its result bits.
  REQUIRE(program->kernels.size() == 1);
  CHECK(program->kernels[0].area.luts > 2 * (32 * 32 + 2 * 64 * 64));
  checkLintClean(v, "loom_kernel_divide");
}

TEST_CASE("a load after a store to memory waits for the store") {
  auto ir = parse(R"(
define spir_kernel void @rmw(i32 addrspace(1)* %a, i32 addrspace(1)* %b) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  store i32 7, i32 addrspace(1)* %p, align 4
  %q = getelementptr inbounds i32, i32 addrspace(1)* %b, i64 %gid
  %v = load i32, i32 addrspace(1)* %q, align 4
  store i32 %v, i32 addrspace(1)* %p, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &ordered = dumps["build-dataflow"];
  // The load gains the first store's token as a second operand.
  CHECK(ordered.find("= load i32 port=1") != std::string::npos);
  auto loadLine = ordered.substr(ordered.find("= load i32"));
  loadLine = loadLine.substr(0, loadLine.find('\n'));
  CHECK(count(loadLine, "%") == 2);
  CHECK(count(dumps["add-completion"], "= completion") == 1);
  // The first store's acknowledge orders the load: its token waits for it. Only the completion
  // waits for the second's.
  const auto &posted = dumps["post-completion-stores"];
  CHECK(count(posted, "= store") == 2);
  CHECK(count(posted, " posted") == 1);
}

TEST_CASE("accesses that cannot alias do not wait for each other: a vector's lanes travel together") {
  auto ir = parse(R"(
define spir_kernel void @lanes(<4 x i32> addrspace(1)* noalias %a, <4 x i32> addrspace(1)* noalias %out, <2 x i32> %k) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %a, i64 %gid
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %p, align 16
  %k0 = extractelement <2 x i32> %k, i32 1
  %splat = insertelement <4 x i32> undef, i32 %k0, i32 0
  %ks = shufflevector <4 x i32> %splat, <4 x i32> undef, <4 x i32> zeroinitializer
  %r = mul <4 x i32> %v, %ks
  %q = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %out, i64 %gid
  store <4 x i32> %r, <4 x i32> addrspace(1)* %q, align 16
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  // The vector is one wide access each way; its lanes are slices, multiplied side by side.
  CHECK(count(built, "= load i128") == 1);
  CHECK(count(built, "= mul i32") == 4);
  CHECK(count(built, "static trunc i32 from=32") == 1); // lane 1 of the int2 argument's port
  CHECK(count(built, "= insert_lane i128") == 4);
  // The store waits for its data only (restrict arguments): address and data.
  REQUIRE(count(built, "= store") == 1);
  const size_t at = built.find("= store");
  CHECK(count(built.substr(at, built.find('\n', at) - at), "%") == 2);
  checkLintClean(program->verilog, "loom_kernel_lanes");
}

/// A straight run of `pairs` copies src[i] -> dst[i] of `type` (`bytes` each) through pointers that
/// may alias.
std::string copyRun(unsigned pairs, const std::string &type = "i32", unsigned bytes = 4) {
  std::string body = llvm::formatv("define spir_kernel void @copy_run({0} addrspace(1)* %src, {0} addrspace(1)* %dst) "
                                   "{{\nentry:\n",
                                   type);
  for (unsigned i = 0; i < pairs; ++i)
    body += llvm::formatv("  %p{0} = getelementptr inbounds {1}, {1} addrspace(1)* %src, i64 {0}\n"
                          "  %v{0} = load {1}, {1} addrspace(1)* %p{0}, align {2}\n"
                          "  %q{0} = getelementptr inbounds {1}, {1} addrspace(1)* %dst, i64 {0}\n"
                          "  store {1} %v{0}, {1} addrspace(1)* %q{0}, align {2}\n",
                          i, type, bytes)
                .str();
  return body + "  ret void\n}\n";
}

TEST_CASE("a straight run of accesses that may alias waits in a chain, not on every earlier store") {
  // OpenCL-CTS vector_creation: hundreds of vector stores, each after loads of the same buffers.
  constexpr unsigned Pairs = 24;
  std::map<std::string, std::string> dumps;
  const auto program = synthesizeOk(copyRun(Pairs), dumps);
  const std::string &built = dumps["build-dataflow"];
  REQUIRE(count(built, "= load i32") == Pairs);
  // Each load waits for the store before it, which stands for all earlier ones: the address and
  // one token (the work-item's, for the first).
  for (size_t at = built.find("= load i32"); at != std::string::npos; at = built.find("= load i32", at + 1)) {
    const std::string line = built.substr(at, built.find('\n', at) - at);
    CHECK(count(line, "%") == 2);
  }
  // So the buffers that balance the paths grow with the run, not with its square.
  CHECK(count(dumps["balance-paths"], "= fifo") <= 2 * Pairs);
  REQUIRE(program.kernels.size() == 1);
  CHECK(program.kernels[0].area.rams <= 2 * Pairs);
}

TEST_CASE("ports of work-items that move more than the memory's peak a cycle take credits for their rate") {
  auto board = board::loadBoard("default");
  REQUIRE_OK(board);
  auto firstLoadCredits = [&](const std::string &type, unsigned bytes) {
    auto ir = parse(copyRun(8, type, bytes));
    std::string dump;
    hls::HlsOptions options;
    options.dump = [&](llvm::StringRef pass, llvm::StringRef, llvm::StringRef text) {
      if (pass == "assign-latencies")
        dump += text.str();
    };
    REQUIRE_OK(hls::synthesizeProgram(*ir->module, *board, options));
    const size_t at = dump.find("credits=", dump.find("= load"));
    REQUIRE(at != std::string::npos);
    return std::stoul(dump.substr(at + 8));
  };
  // 8 copies of 4 bytes, 64 bytes a work-item: the memory can take one every cycle, and the ports
  // keep a request a cycle in flight over the memory's latency.
  const unsigned everyCycle = firstLoadCredits("i32", 4);
  CHECK(everyCycle > board->memory.latencyCycles);
  // Of 64 bytes each, 1 KiB a work-item: at most an eighth of one a cycle, a quarter with the margin.
  const unsigned eighth = firstLoadCredits("<16 x i32>", 64);
  CHECK(eighth < everyCycle / 3);
  CHECK(eighth >= board->memory.latencyCycles / 4);
}

TEST_CASE("a long concatenation spans lines: Verilator takes at most 40,000 tokens a line") {
  hls::verilog::Module module("wide");
  std::vector<hls::verilog::ExprRef> parts;
  for (unsigned i = 0; i < 100; ++i)
    parts.push_back(module.wire("w" + std::to_string(i)));
  module.wire("all", 100, hls::verilog::concat(parts));
  const std::string text = module.print();
  const size_t at = text.find("{w0");
  REQUIRE(at != std::string::npos);
  const std::string statement = text.substr(at, text.find(';', at) - at);
  CHECK(count(statement, "\n") == 100 / 16);
  CHECK(count(statement, "w") == 100);
}

TEST_CASE("a vector wider than a port moves as a port's worth of lanes a request") {
  auto ir = parse(R"(
define spir_kernel void @copy(<32 x i32> addrspace(1)* noalias %a, <32 x i32> addrspace(1)* noalias %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds <32 x i32>, <32 x i32> addrspace(1)* %a, i64 %gid
  %v = load <32 x i32>, <32 x i32> addrspace(1)* %p, align 128
  %q = getelementptr inbounds <32 x i32>, <32 x i32> addrspace(1)* %out, i64 %gid
  store <32 x i32> %v, <32 x i32> addrspace(1)* %q, align 128
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  // 128 bytes: two 64-byte requests each way, not one per lane.
  REQUIRE(program->kernels.size() == 1);
  const auto &ports = program->kernels[0].ports;
  REQUIRE(ports.size() == 4);
  for (const hls::MemoryPort &port : ports)
    CHECK(port.bytes == 64);
  checkLintClean(program->verilog, "loom_kernel_copy");
}

TEST_CASE("a private array indexed at run time becomes an on-chip memory with a copy per work-item in flight") {
  auto ir = parse(R"(
define spir_kernel void @reverse(i32 addrspace(1)* %a, i32 addrspace(1)* %out) {
entry:
  %buf = alloca [8 x i32], align 4
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %i = and i64 %gid, 7
  %slot = getelementptr inbounds [8 x i32], [8 x i32]* %buf, i64 0, i64 %i
  store i32 %v, i32* %slot, align 4
  %j = xor i64 %i, 7
  %other = getelementptr inbounds [8 x i32], [8 x i32]* %buf, i64 0, i64 %j
  %w = load i32, i32* %other, align 4
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %w, i32 addrspace(1)* %q, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK_THAT(built, Catch::Contains("ram buf: 512 x 4 bytes, 1 read and 1 write ports"));
  CHECK_THAT(built, Catch::Contains("work-items in flight: at most 64\n"));
  CHECK_THAT(built, Catch::Contains("buf: 64 copies, one per work-item slot"));
  CHECK(count(built, "= ram_store ram=buf") == 1);
  CHECK(count(built, "= ram_load i32 ram=buf") == 1);
  // The read may alias the write: it waits for the write's token.
  auto loadLine = built.substr(built.find("= ram_load"));
  CHECK(count(loadLine.substr(0, loadLine.find('\n')), "%") == 2);
  REQUIRE(program->kernels.size() == 1);
  CHECK(program->kernels[0].ports.size() == 2); // the array takes no global memory port
  CHECK(program->kernels[0].area.rams == 1);
  CHECK_THAT(program->report, Catch::Contains("on-chip array 'buf' at "));
  CHECK_THAT(program->report, Catch::Contains(": 8 x 4 bytes x 64 copies, 1 read and 1 write ports"));
  CHECK_THAT(program->report, Catch::Contains("work-items in flight: at most 64, each with its own copy"));
  // The generator hands out 64 slots; the completion gives them back.
  CHECK_THAT(program->verilog, Catch::Contains("loom_workitems #(.LIMIT(64), .SLOT_BITS(6)"));
  checkLintClean(program->verilog, "loom_kernel_reverse");
}

TEST_CASE("a bool in memory moves as its byte; an array of structs copied whole moves a field at a time") {
  // As Rodinia's kernels have them: a bool array (or a bool the barrier lowering keeps per
  // work-item) of i1, and a struct of 4-byte fields memcpy'd into a __local array.
  auto ir = parse(R"(
%struct.P = type { i32, float, i32, i32 }
@shared = internal addrspace(3) global [8 x %struct.P] undef, align 4
declare void @llvm.memcpy.p3i8.p1i8.i64(i8 addrspace(3)*, i8 addrspace(1)*, i64, i1)

define spir_kernel void @flags(%struct.P addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %flags = alloca [8 x i1], align 1
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %slot = and i64 %gid, 7
  %dst = getelementptr inbounds [8 x %struct.P], [8 x %struct.P] addrspace(3)* @shared, i64 0, i64 %slot
  %src = getelementptr inbounds %struct.P, %struct.P addrspace(1)* %in, i64 %gid
  %dst8 = bitcast %struct.P addrspace(3)* %dst to i8 addrspace(3)*
  %src8 = bitcast %struct.P addrspace(1)* %src to i8 addrspace(1)*
  call void @llvm.memcpy.p3i8.p1i8.i64(i8 addrspace(3)* align 4 %dst8, i8 addrspace(1)* align 4 %src8, i64 16, i1 false)
  %field = getelementptr inbounds %struct.P, %struct.P addrspace(3)* %dst, i64 0, i32 2
  %v = load i32, i32 addrspace(3)* %field, align 4
  %flag = getelementptr inbounds [8 x i1], [8 x i1]* %flags, i64 0, i64 %slot
  %positive = icmp sgt i32 %v, 0
  store i1 %positive, i1* %flag, align 1
  %back = load i1, i1* %flag, align 1
  %r = select i1 %back, i32 %v, i32 0
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %r, i32 addrspace(1)* %q, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK_THAT(built, Catch::Contains("= ram_store ram=flags"));
  CHECK_THAT(built, Catch::Contains("= ram_load i8 ram=flags"));
  CHECK_THAT(program->report, Catch::Contains("on-chip array 'flags' at "));
  CHECK_THAT(program->report, Catch::Matches("[\\s\\S]*'flags' at [^\\n]*: 8 x 1 bytes[\\s\\S]*"));
  // The copy is a loop of 4 words a struct; the field read is one of them.
  CHECK_THAT(built, Catch::Contains("= ram_load i32 ram=shared"));
  CHECK_THAT(program->report, Catch::Matches("[\\s\\S]*'shared' at [^\\n]*: 32 x 4 bytes[\\s\\S]*"));
  CHECK(program->kernels[0].ports.size() == 2); // the struct's words and the output
  checkLintClean(program->verilog, "loom_kernel_flags");
}

TEST_CASE("an on-chip array accessed in two element sizes is one of the narrower; wide accesses move in pieces") {
  // As Xilinx's vision examples have them: a union of a wide word and its bytes in private memory,
  // and a __local buffer of shorts refilled through a char pointer.
  auto ir = parse(R"(
@punned.line = internal addrspace(3) global [16 x i16] undef, align 2
define spir_kernel void @punned(i32 addrspace(1)* %in, i8 addrspace(1)* %out) {
entry:
  %word = alloca [2 x i32], align 4
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %slot = and i64 %gid, 1
  %w = getelementptr inbounds [2 x i32], [2 x i32]* %word, i64 0, i64 %slot
  store i32 %v, i32* %w, align 4
  %bytes = bitcast [2 x i32]* %word to i8*
  %third = getelementptr inbounds i8, i8* %bytes, i64 2
  %b = load i8, i8* %third, align 1
  %cell = and i64 %gid, 15
  %s = getelementptr inbounds [16 x i16], [16 x i16] addrspace(3)* @punned.line, i64 0, i64 %cell
  %wide = trunc i32 %v to i16
  store i16 %wide, i16 addrspace(3)* %s, align 2
  %line8 = bitcast [16 x i16] addrspace(3)* @punned.line to i8 addrspace(3)*
  %c = getelementptr inbounds i8, i8 addrspace(3)* %line8, i64 %gid
  %low = load i8, i8 addrspace(3)* %c, align 1
  %sum = add i8 %b, %low
  %q = getelementptr inbounds i8, i8 addrspace(1)* %out, i64 %gid
  store i8 %sum, i8 addrspace(1)* %q, align 1
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  CHECK_THAT(program->report, Catch::Matches("[\\s\\S]*'word' at [^\\n]*: 8 x 1 bytes[\\s\\S]*"));
  CHECK_THAT(program->report, Catch::Matches("[\\s\\S]*'line' at [^\\n]*: 32 x 1 bytes[\\s\\S]*"));
  const auto &built = dumps["build-dataflow"];
  // The int store is four byte stores, the short store two; no access of the arrays is wider.
  auto count = [&](const std::string &text) {
    size_t n = 0;
    for (size_t at = built.find(text); at != std::string::npos; at = built.find(text, at + 1))
      ++n;
    return n;
  };
  CHECK(count("= ram_store ram=word") == 4);
  CHECK(count("= ram_store ram=line") == 2);
  CHECK(count("= ram_load i8 ram=word") == 1);
  CHECK(count("= ram_load i8 ram=line") == 1);
  CHECK(built.find("ram_load i32") == std::string::npos);
  checkLintClean(program->verilog, "loom_kernel_punned");
}

TEST_CASE("reads of a memory whose copies would not fit the board take turns at its ports") {
  // A 128 KiB __local array (29 of the unit board's 100 RAM blocks a copy) read three times in a
  // loop and four times after it: a copy per two reads would be 4 x 29 blocks.
  auto ir = parse(R"(
@shared.line = internal addrspace(3) global [32768 x i32] undef, align 4
define spir_kernel void @shared(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i64 %n) {
entry:
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %i
  %v = load i32, i32 addrspace(1)* %p, align 4
  %l = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %i
  store i32 %v, i32 addrspace(3)* %l, align 4
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %fill, label %sum
sum:
  %j = phi i64 [ 0, %fill ], [ %j.next, %sum ]
  %l0 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %j
  %x0 = load i32, i32 addrspace(3)* %l0, align 4
  %j7 = add nuw nsw i64 %j, 7
  %l1 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %j7
  %x1 = load i32, i32 addrspace(3)* %l1, align 4
  %j2 = shl nuw nsw i64 %j, 1
  %l2 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %j2
  %x2 = load i32, i32 addrspace(3)* %l2, align 4
  %s01 = add i32 %x0, %x1
  %s = add i32 %s01, %x2
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %j
  store i32 %s, i32 addrspace(1)* %q, align 4
  %j.next = add nuw nsw i64 %j, 1
  %again = icmp ult i64 %j.next, %n
  br i1 %again, label %sum, label %tail
tail:
  %t0 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %n
  %y0 = load i32, i32 addrspace(3)* %t0, align 4
  %n2 = shl i64 %n, 2
  %t1 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %n2
  %y1 = load i32, i32 addrspace(3)* %t1, align 4
  %n3 = shl i64 %n, 3
  %t2 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %n3
  %y2 = load i32, i32 addrspace(3)* %t2, align 4
  %n4 = shl i64 %n, 4
  %t3 = getelementptr inbounds [32768 x i32], [32768 x i32] addrspace(3)* @shared.line, i64 0, i64 %n4
  %y3 = load i32, i32 addrspace(3)* %t3, align 4
  %z01 = add i32 %y0, %y1
  %z23 = add i32 %y2, %y3
  %z = add i32 %z01, %z23
  %r = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %n
  store i32 %z, i32 addrspace(1)* %r, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  // Two copies fit: four ports, as many as the reads after the loop; the loop's three reads each
  // have one.
  CHECK_THAT(program->report, Catch::Contains("4 read and 1 write ports (its reads take turns at them"));
  CHECK(program->kernels[0].loops.at(1).ii == 1);
  const std::string &shared = dumps["share-ram-read-ports"];
  CHECK(count(shared, "shared-port=0") == 2);
  CHECK(count(shared, "shared-port=3") == 1);
  checkLintClean(program->verilog, "loom_kernel_shared");

  // One copy fits: two ports, at which the loop's three reads take two turns.
  board::Board tight = unitBoard();
  tight.resources.brams = 40;
  auto oneCopy = hls::synthesizeProgram(*ir->module, tight);
  REQUIRE_OK(oneCopy);
  CHECK_THAT(oneCopy->report, Catch::Contains("'line' at") && Catch::Contains("2 read and 1 write ports (its reads "
                                                                            "take turns at them"));
  const hls::HardwareKernel &kernel = oneCopy->kernels[0];
  REQUIRE(kernel.loops.size() == 2);
  CHECK(kernel.loops[0].ii == 1);
  CHECK(kernel.loops[1].ii == 2);
  CHECK(kernel.loops[1].sharedPortReads == 2);
  CHECK(kernel.loops[1].boundBy == "line");
  CHECK_THAT(oneCopy->report, Catch::Contains("II 2, set by 2 reads of 'line'"));
  CHECK(kernel.area.rams <= 40);
  checkLintClean(oneCopy->verilog, "loom_kernel_shared");

  // With room for the copies, every read keeps a port of its own.
  board::Board roomy = unitBoard();
  roomy.resources.brams = 1000;
  auto copied = hls::synthesizeProgram(*ir->module, roomy);
  REQUIRE_OK(copied);
  CHECK_THAT(copied->report, Catch::Contains("7 read and 1 write ports"));
  CHECK(copied->kernels[0].loops[1].ii == 1);
  CHECK(copied->kernels[0].area.rams >= 4 * 29);

  // Nothing left to share: the report says what does not fit.
  board::Board tiny = unitBoard();
  tiny.resources.brams = 20;
  CHECK_THAT(errorMessage(hls::synthesizeProgram(*ir->module, tiny)),
             Catch::Contains("does not fit the board") && Catch::Contains("RAM blocks where board 'unit' has 20"));
}

TEST_CASE("an access through a pointer chosen between arrays becomes one access per array") {
  // As SimplifyCFG leaves an if/else that stores one value to two __local arrays (Rodinia's
  // leukocyte): one store through a phi of the two addresses; a load through a select of that phi
  // and another address; a load through a phi of two addresses in one array.
  auto ir = parse(R"(
@choice.buffer = internal addrspace(3) global [64 x i32] undef, align 4
@choice.matrix = internal addrspace(3) global [256 x i32] undef, align 4
define spir_kernel void @choice(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %slot = and i64 %gid, 63
  %small = icmp slt i32 %v, 100
  br i1 %small, label %then, label %else
then:
  %inBuffer = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @choice.buffer, i64 0, i64 %slot
  br label %join
else:
  %cell = and i64 %gid, 255
  %inMatrix = getelementptr inbounds [256 x i32], [256 x i32] addrspace(3)* @choice.matrix, i64 0, i64 %cell
  %first = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @choice.buffer, i64 0, i64 0
  br label %join
join:
  %target = phi i32 addrspace(3)* [ %inBuffer, %then ], [ %inMatrix, %else ]
  store i32 %v, i32 addrspace(3)* %target, align 4
  %other = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @choice.buffer, i64 0, i64 %slot
  %source = select i1 %small, i32 addrspace(3)* %target, i32 addrspace(3)* %other
  %w = load i32, i32 addrspace(3)* %source, align 4
  %same = phi i32 addrspace(3)* [ %inBuffer, %then ], [ %first, %else ]
  %u = load i32, i32 addrspace(3)* %same, align 4
  %wu = add i32 %w, %u
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %wu, i32 addrspace(1)* %q, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= ram_store ram=buffer") == 1);
  CHECK(count(built, "= ram_store ram=matrix") == 1);
  // The select reaches buffer either way, or matrix through the phi it chose from; the last phi
  // chooses within buffer: a read of buffer at the chosen offset.
  CHECK(count(built, "= ram_load i32 ram=buffer") == 2);
  CHECK(count(built, "= ram_load i32 ram=matrix") == 1);
  checkLintClean(program->verilog, "loom_kernel_choice");
}

TEST_CASE("a struct argument passed by value is one wide argument whose fields are slices") {
  const std::string kernel = R"(
%struct.S = type { i32, i16, i64, [4 x i32] }
define spir_kernel void @fields(i32 addrspace(1)* %out, %struct.S* byval(%struct.S) align 8 %s) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds %struct.S, %struct.S* %s, i64 0, i32 0
  %a = load i32, i32* %pa, align 8
  %pb = getelementptr inbounds %struct.S, %struct.S* %s, i64 0, i32 2
  %b = load i64, i64* %pb, align 8
  %bt = trunc i64 %b to i32
  %pc = getelementptr inbounds %struct.S, %struct.S* %s, i64 0, i32 3, i64 INDEX
  %c = load i32, i32* %pc, align 4
  %ab = add i32 %a, %bt
  %sum = add i32 %ab, %c
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %sum, i32 addrspace(1)* %q, align 4
  ret void
}
)";
  auto withIndex = [&](const std::string &index) {
    return std::regex_replace(kernel, std::regex("INDEX"), index);
  };
  SECTION("fields at constant offsets") {
    auto ir = parse(withIndex("3"));
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    REQUIRE_OK(program);
    REQUIRE(program->kernels.size() == 1);
    // 32 bytes, as clSetKernelArg passes them: four argument words.
    CHECK(program->kernels[0].wideArgBytes == std::map<unsigned, unsigned>{{1, 32}});
    CHECK(program->kernels[0].ports.size() == 1); // the output: the struct takes no memory port
    CHECK_THAT(program->verilog, Catch::Contains("[255:0]"));
    checkLintClean(program->verilog, "loom_kernel_fields");
  }
  SECTION("an array inside it indexed at run time is an error") {
    auto ir = parse(withIndex("%gid"));
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    CHECK_THAT(errorMessage(program),
               Catch::Contains("struct argument 's' is read at an offset known only at run time"));
  }
  SECTION("a store to one of its fields is an error at the store") {
    // As Clang leaves `s.a = 5;`: the kernel's struct is the argument's own memory.
    const std::string message = synthesisErrorAt(R"(
%struct.S = type { i32, i32 }
define spir_kernel void @assign(i32 addrspace(1)* %out, %struct.S* byval(%struct.S) align 4 %s) !dbg !5 {
entry:
  %pa = getelementptr inbounds %struct.S, %struct.S* %s, i64 0, i32 0
  store i32 5, i32* %pa, align 4, !dbg !9
  %v = load i32, i32* %pa, align 4
  store i32 %v, i32 addrspace(1)* %out, align 4
  ret void
}
)");
    CHECK_THAT(message, Catch::Contains("kernel.cl:4:3: error: a store to struct argument 's', which the hardware "
                                        "takes as a constant"));
  }
}

namespace {

/// A private array in banks (its metadata as the frontend leaves it): stores at a run-time index and
/// at a constant one, a load whose index has known low bits.
std::string bankedKernel(const std::string &attributes) {
  return R"(
define spir_kernel void @banked(i32 addrspace(1)* %a, i32 addrspace(1)* %out) {
entry:
  %buf = alloca [16 x i32], align 4, !loom.vendor_attributes !0
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %i = and i64 %gid, 15
  %slot = getelementptr inbounds [16 x i32], [16 x i32]* %buf, i64 0, i64 %i
  store i32 %v, i32* %slot, align 4
  %fifth = getelementptr inbounds [16 x i32], [16 x i32]* %buf, i64 0, i64 5
  store i32 7, i32* %fifth, align 4
  %high = and i64 %gid, 12
  %j = or i64 %high, 2
  %other = getelementptr inbounds [16 x i32], [16 x i32]* %buf, i64 0, i64 %j
  %w = load i32, i32* %other, align 4
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %w, i32 addrspace(1)* %q, align 4
  ret void
}
!0 = !{)" + attributes + R"(}
)";
}

} // namespace

TEST_CASE("a __local pointer argument is an on-chip memory of its local_mem_size") {
  auto ir = parse(R"(
define spir_kernel void @scatter(i32 addrspace(1)* %a, i32 addrspace(3)* "loom.local_mem_size"="1024" %tile,
                                 i32 addrspace(3)* %plain) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %i = and i64 %gid, 255
  %slot = getelementptr inbounds i32, i32 addrspace(3)* %tile, i64 %i
  store i32 %v, i32 addrspace(3)* %slot, align 4
  %other = getelementptr inbounds i32, i32 addrspace(3)* %plain, i64 %i
  store i32 %v, i32 addrspace(3)* %other, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  CHECK_THAT(dumps["build-dataflow"], Catch::Contains("ram tile: 256 x 4 bytes, 0 read and 1 write ports"));
  CHECK_THAT(dumps["build-dataflow"], Catch::Contains("ram plain: 4096 x 4 bytes, 0 read and 1 write ports"));
  const hls::HardwareKernel &kernel = program->kernels[0];
  CHECK(kernel.localArgBytes == std::map<unsigned, uint64_t>{{1, 1024}, {2, hls::DefaultLocalArgumentBytes}});
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(kernel), back, root));
  CHECK(back.localArgBytes == kernel.localArgBytes);
  llvm::json::Value bad = hls::toJSON(kernel);
  (*bad.getAsObject())["local_args"] = llvm::json::Array{llvm::json::Array{7, 16}};
  llvm::json::Path::Root badRoot;
  CHECK_FALSE(hls::fromJSON(bad, back, badRoot));
}

TEST_CASE("a kernel with barriers has a copy of its __local arrays per work-group in flight") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(R"(
declare spir_func void @_Z7barrierj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
@kept = internal addrspace(3) global [64 x i32] undef, align 4
define spir_kernel void @swap(i32 addrspace(1)* %a, i32 addrspace(3)* "loom.local_mem_size"="1024" %tile) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %i = and i64 %lid, 63
  %slot = getelementptr inbounds i32, i32 addrspace(3)* %tile, i64 %i
  store i32 %v, i32 addrspace(3)* %slot, align 4
  %k = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @kept, i64 0, i64 %i
  store i32 %v, i32 addrspace(3)* %k, align 4
  call spir_func void @_Z7barrierj(i32 1)
  %j = xor i64 %i, 1
  %other = getelementptr inbounds i32, i32 addrspace(3)* %tile, i64 %j
  %w = load i32, i32 addrspace(3)* %other, align 4
  %l = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @kept, i64 0, i64 %j
  %x = load i32, i32 addrspace(3)* %l, align 4
  %sum = add i32 %w, %x
  store i32 %sum, i32 addrspace(1)* %p, align 4
  ret void
}
)", dumps);
  // Every work-group invocation in flight has its own copy: groups need not take turns.
  CHECK_THAT(dumps["build-dataflow"], Catch::Contains("tile: 64 copies, one per work-item slot"));
  CHECK_THAT(dumps["build-dataflow"], Catch::Contains("kept: 64 copies, one per work-item slot"));
  CHECK_THAT(program.report, Catch::Contains("work-groups in flight: at most 64"));
  // The launch still sees the argument's own size, not its copies'.
  CHECK(program.kernels[0].localArgBytes == std::map<unsigned, uint64_t>{{1, 1024}});
}

TEST_CASE("a banked array is a memory per bank; an access reaches one bank when its bank bits are known") {
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(bankedKernel(R"md(!"bank_bits(2,3)", !"private_copies(4)", !"doublepump()")md"), dumps);
  const auto &built = dumps["build-dataflow"];
  // Address bits 2 and 3 of 4-byte elements: index bits 0 and 1. private_copies(4): 4 copies, not 64.
  CHECK_THAT(built, Catch::Contains("ram buf: 64 x 4 bytes, 4 banks by index bits 0,1, bank 0: 0 read and 1 write "
                                    "ports, bank 1: 0 read and 2 write ports, bank 2: 1 read and 1 write ports, "
                                    "bank 3: 0 read and 1 write ports"));
  CHECK_THAT(built, Catch::Contains("work-items in flight: at most 4\n"));
  CHECK(count(built, "= ram_store ram=buf bank=all") == 1);
  CHECK(count(built, "= ram_store ram=buf bank=1") == 1); // element 5
  CHECK(count(built, "= ram_load i32 ram=buf bank=2") == 1); // (gid & 12) | 2
  CHECK_THAT(program.report, Catch::Contains(": 16 x 4 bytes x 4 copies in 4 banks, double-pumped, bank 0: 0 read"));
  // One loom_ram per bank, 16 words each (4 copies of 4), and lint-clean selection between them.
  CHECK(count(program.verilog, "loom_ram #(.WIDTH(32), .DEPTH(16), .ADDR_WIDTH(4)") == 4);
  CHECK_THAT(program.verilog, Catch::Contains("ram0b3_buf"));
  checkLintClean(program.verilog, "loom_kernel_banked");

  // Without banks, the same accesses share one memory's ports.
  dumps.clear();
  synthesizeOk(bankedKernel(R"md(!"private_copies(0)")md"), dumps);
  CHECK_THAT(dumps["build-dataflow"], Catch::Contains("ram buf: 1024 x 4 bytes, 1 read and 2 write ports ;"));

  // A bank bit inside an element is an error.
  CHECK_THAT(synthesisError(bankedKernel(R"md(!"bank_bits(1)")md")),
             Catch::Contains("array 'buf' is accessed as 4-byte elements: its bank bits (address bit 1) must select "
                             "whole elements within the array"));
}

TEST_CASE("the report gives the board's share; a program that does not fit is an error") {
  auto ir = parse(R"(
define spir_kernel void @square(i64 addrspace(1)* %a) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i64, i64 addrspace(1)* %a, i64 %gid
  %v = load i64, i64 addrspace(1)* %p, align 8
  %s = mul i64 %v, %v
  store i64 %s, i64 addrspace(1)* %p, align 8
  ret void
}
)");
  board::Board board = unitBoard();
  auto fits = hls::synthesizeProgram(*ir->module, board);
  REQUIRE_OK(fits);
  // A 64 x 64-bit multiply takes 16 of the unit board's 100 DSPs.
  CHECK_THAT(fits->report, Catch::Contains("16 DSPs (16.0% of 100)"));
  board.resources.dsps = 8;
  auto tooBig = hls::synthesizeProgram(*ir->module, board);
  CHECK_THAT(errorMessage(tooBig), Catch::Contains("does not fit the board: it needs an estimated 16 DSPs "
                                                   "where board 'unit' has 8"));
}

TEST_CASE("branches become predicates: guarded accesses, phis as selects, joins unpredicated") {
  auto ir = parse(R"(
define spir_kernel void @branchy(i32 addrspace(1)* %a, i32 addrspace(1)* %out, i64 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %n
  br i1 %inside, label %body, label %done
body:
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %positive = icmp sgt i32 %v, 0
  br i1 %positive, label %then, label %join
then:
  %doubled = shl i32 %v, 1
  br label %join
join:
  %r = phi i32 [ %doubled, %then ], [ 7, %body ]
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %r, i32 addrspace(1)* %q, align 4
  br label %done
done:
  %last = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 0
  store i32 1, i32 addrspace(1)* %last, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  // The load and the store in `join` happen only inside the range; the store in `done`, which every
  // work-item reaches, is not predicated.
  CHECK(count(built, "= load i32 port=0 credits=0 predicated") == 1);
  CHECK(count(built, "= store port=1 credits=0 predicated") == 1);
  CHECK(count(built, "= store port=2 credits=0 stream (") == 1); // out[0]: the same line for all
  CHECK(count(built, "= select i32") == 1); // the phi
  CHECK(count(program->verilog, "loom_skip_merge #(.DW") == 2); // instances, not the definition
  checkLintClean(program->verilog, "loom_kernel_branchy");
}

TEST_CASE("work-group functions read four work-group arguments after the kernel's own") {
  auto ir = parse(R"(
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z12get_group_idj(i32)
define spir_kernel void @groups(i64 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %grp = call spir_func i64 @_Z12get_group_idj(i32 0)
  %sum = add i64 %lid, %grp
  %p = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %gid
  store i64 %sum, i64 addrspace(1)* %p, align 8
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &hw = program->kernels[0];
  CHECK(hw.workGroupArgs);
  CHECK(hw.numArgs == 1 + hls::WorkGroupArgs);
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(fromJSON(hls::toJSON(hw), back, root));
  CHECK(back.workGroupArgs);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= urem i64") == 1); // local id: position % local size
  CHECK(count(built, "= udiv i64") == 1); // group id: position / local size
  checkLintClean(program->verilog, "loom_kernel_groups");
}

namespace {

/// Each work-item's product s * i over a loop of n iterations; `loopAttribute`, when not empty, is
/// an attribute node of the loop's metadata.
std::string loopyKernel(const std::string &loopAttribute = "") {
  return std::string(R"(
define spir_kernel void @loopy(i32 addrspace(1)* %a, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %sum, %loop ]
  %sum = mul i32 %s, %i
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done)") +
         (loopAttribute.empty() ? "" : ", !llvm.loop !0") + R"(
done:
  store i32 %sum, i32 addrspace(1)* %p, align 4
  ret void
}
)" + (loopAttribute.empty() ? "" : "!0 = distinct !{!0, !1}\n!1 = " + loopAttribute + "\n");
}

} // namespace

TEST_CASE("a loop becomes rings: a control, a mux per carried value, steers and back-edge FIFOs") {
  auto ir = parse(loopyKernel());
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= loop_control") == 1);
  // i and s are phis; the store's address is carried through the loop, because work-items leave it
  // in any order.
  CHECK(count(built, "= loop_mux i32") == 2);
  CHECK(count(built, "= loop_mux i64") == 1);
  CHECK(count(built, "= steer") >= 4);
  CHECK(count(built, "back %") == 5); // three rings, the control's ring and its exit count
  CHECK(count(dumps["add-completion"], "= completion") == 1);
  // The counter's increment and exit test chain into its ring's register: one cycle per iteration.
  const auto &latencies = dumps["assign-latencies"];
  auto addLine = latencies.substr(latencies.find("= add i32"));
  CHECK(addLine.substr(0, addLine.find('\n')).find("lat=0") != std::string::npos);
  // The report: the counter alone would allow II 1; the product s * i (a 1-cycle multiply on the
  // unit board, plus the ring's register) is the recurrence that sets the II.
  REQUIRE(program->kernels[0].loops.size() == 1);
  const hls::LoopReport &loop = program->kernels[0].loops[0];
  CHECK(loop.boundBy == "s");
  CHECK(loop.ii == 1 + 1);
  CHECK_FALSE(loop.ivdep); // No memory accesses, but no #pragma ivdep either.
  CHECK(program->report.find("II 2, set by the recurrence of 's'") != std::string::npos);
  checkLintClean(program->verilog, "loom_kernel_loopy");
}

TEST_CASE("#pragma max_interleaving N admits at most N work-items into its loop") {
  auto interleaving = [](int limit) {
    return loopyKernel("!{!\"loom.loop.max_interleaving\", i32 " + std::to_string(limit) + "}");
  };
  std::map<std::string, std::string> dumps;
  auto two = parse(interleaving(2));
  auto program = synthesize(*two->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= loop_control i1 limit=2") == 1);
  CHECK(count(built, "limit=32") == 0);
  // The rings keep their depth: a fast ring still runs ahead of a slow one.
  CHECK(count(built, "= fifo") == count(built, "depth=33"));
  REQUIRE(program->kernels[0].loops.size() == 1);
  const hls::LoopReport &loop = program->kernels[0].loops[0];
  CHECK(loop.maxInterleaving == 2);
  CHECK(program->report.find(", at most 2 invocations inside at once (#pragma max_interleaving)") !=
        std::string::npos);
  CHECK(program->verilog.find("loom_loop_control #(.LIMIT(2))") != std::string::npos);
  checkLintClean(program->verilog, "loom_kernel_loopy");
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(program->kernels[0]), back, root));
  REQUIRE(back.loops.size() == 1);
  CHECK(back.loops[0].maxInterleaving == 2);

  // 0 is the vendors' "as the compiler sees fit": the default.
  auto zero = parse(interleaving(0));
  auto free = synthesize(*zero->module, dumps);
  REQUIRE_OK(free);
  CHECK(count(dumps["build-dataflow"], "= loop_control i1 limit=32") == 1);
  CHECK(free->kernels[0].loops[0].maxInterleaving == 0);
  CHECK(free->report.find("max_interleaving") == std::string::npos);
}

TEST_CASE("a loop whose ring is longer than the default admits as many work-items as it takes cycles") {
  // Each work-item adds into a[j] every iteration; a and idx may overlap, so the next iteration's
  // load waits for this one's store: a ring through memory.
  const char *body = R"(
define spir_kernel void @scatter(float addrspace(1)* %a, i32 addrspace(1)* %idx, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %q = getelementptr inbounds i32, i32 addrspace(1)* %idx, i32 %i
  %j = load i32, i32 addrspace(1)* %q, align 4
  %p = getelementptr inbounds float, float addrspace(1)* %a, i32 %j
  %v = load float, float addrspace(1)* %p, align 4
  %w = fadd float %v, 1.0
  store float %w, float addrspace(1)* %p, align 4
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)";
  auto synthesizeFor = [&](unsigned latency, std::map<std::string, std::string> &dumps) {
    board::Board board = unitBoard();
    board.memory.latencyCycles = latency;
    hls::HlsOptions options;
    options.dump = [&](llvm::StringRef pass, llvm::StringRef, llvm::StringRef text) { dumps[pass.str()] += text.str(); };
    auto ir = parse(body);
    auto program = hls::synthesizeProgram(*ir->module, board, options);
    REQUIRE_OK(program);
    REQUIRE(program->kernels[0].loops.size() == 1);
    return std::move(*program);
  };
  // Memory 2 cycles away: the ring is shorter than the default, which stays.
  std::map<std::string, std::string> nearDumps;
  const hls::SynthesizedProgram near = synthesizeFor(2, nearDumps);
  CHECK(near.kernels[0].loops[0].ii < hls::DefaultLoopWorkItems);
  CHECK(near.kernels[0].loops[0].workItemsInside == 0);
  CHECK(count(nearDumps["size-loop-controls"], "limit=32") == 1);

  // 60 cycles away: the loop admits a work-item for each cycle of its ring, and its back-edge FIFOs
  // hold them all.
  std::map<std::string, std::string> farDumps;
  const hls::SynthesizedProgram far = synthesizeFor(60, farDumps);
  const hls::LoopReport &loop = far.kernels[0].loops[0];
  CHECK(loop.boundBy == "memory order");
  REQUIRE(loop.ii > 2 * 60);
  REQUIRE(loop.ii <= hls::MaxLoopWorkItems);
  CHECK(loop.workItemsInside == loop.ii);
  const std::string &sized = farDumps["size-loop-controls"];
  CHECK(count(sized, "= loop_control i1 limit=" + std::to_string(loop.ii)) == 1);
  CHECK(count(sized, "depth=" + std::to_string(loop.ii + 1)) >= 2);
  CHECK(count(sized, "depth=33") == 0);
  CHECK_THAT(far.report, Catch::Contains(llvm::formatv(", {0} work-items inside at once to cover it", loop.ii).str()));
  CHECK(far.verilog.find(llvm::formatv("loom_loop_control #(.LIMIT({0}))", loop.ii).str()) != std::string::npos);
  checkLintClean(far.verilog, "loom_kernel_scatter");
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(far.kernels[0]), back, root));
  CHECK(back.loops[0].workItemsInside == loop.ii);
  // An iteration reads memory 60 cycles away and writes it: its latency holds that round trip.
  CHECK(loop.latency >= 60);
  CHECK(back.loops[0].latency == loop.latency);
  CHECK_THAT(far.report, Catch::Contains(llvm::formatv(", latency {0} cycles", loop.latency).str()));

  // Farther still: at most MaxLoopWorkItems.
  std::map<std::string, std::string> farthestDumps;
  const hls::SynthesizedProgram farthest = synthesizeFor(400, farthestDumps);
  CHECK(farthest.kernels[0].loops[0].workItemsInside == hls::MaxLoopWorkItems);
}

TEST_CASE("a ring's arithmetic waits for the loaded value it meets, so the load's latency stays off the ring") {
  // s = s * f + a[k]: the multiply comes first and the add waits for the load.
  auto ir = parse(R"(
define spir_kernel void @fold(i32 addrspace(1)* noalias %a, i32 addrspace(1)* noalias %out, i32 %m, i32 %f) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %sum, %loop ]
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %k
  %x = load i32, i32 addrspace(1)* %p, align 4
  %times = mul i32 %s, %f
  %sum = add i32 %times, %x
  %next = add i32 %k, 1
  %more = icmp slt i32 %next, %m
  br i1 %more, label %loop, label %done
done:
  store i32 %sum, i32 addrspace(1)* %out, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const std::string &scheduled = dumps["schedule"];
  auto field = [&](const std::string &op, const std::string &name) {
    const size_t line = scheduled.find(op);
    REQUIRE(line != std::string::npos);
    const size_t at = scheduled.find(" " + name + "=", line);
    REQUIRE(at < scheduled.find('\n', line));
    return std::stoul(scheduled.substr(at + name.size() + 2));
  };
  // The multiply's result is due when the load's is, not a memory round trip early.
  CHECK(field("= mul i32", "start") + field("= mul i32", "lat") == field("= load i32", "start") + field("= load i32", "lat"));
  // The first i32 mux is s's: it waits too, while k's runs ahead feeding the loads.
  CHECK(field("= loop_mux i32", "start") >= field("= load i32", "start"));
}

TEST_CASE("a shift register's back-edge FIFOs hold the values its late muxes have not taken yet") {
  // w0..w3 shift by one each iteration; the chain of adds meets w0, the window's end, last, so its
  // mux (which feeds nothing else) starts late while the value fed back to it is ready early. With
  // two-entry back-edge FIFOs, such a loop stepped once in 3.5 cycles (a 130-wide sliding-window
  // stencil).
  auto ir = parse(R"(
define spir_kernel void @window(float addrspace(1)* noalias %a, float addrspace(1)* noalias %out, i32 %m) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %loop ]
  %w0 = phi float [ 0.0, %entry ], [ %w1, %loop ]
  %w1 = phi float [ 0.0, %entry ], [ %w2, %loop ]
  %w2 = phi float [ 0.0, %entry ], [ %w3, %loop ]
  %w3 = phi float [ 0.0, %entry ], [ %x, %loop ]
  %p = getelementptr inbounds float, float addrspace(1)* %a, i32 %k
  %x = load float, float addrspace(1)* %p, align 4
  %s32 = fadd float %w3, %w2
  %s321 = fadd float %s32, %w1
  %s = fadd float %s321, %w0
  %q = getelementptr inbounds float, float addrspace(1)* %out, i32 %k
  store float %s, float addrspace(1)* %q, align 4
  %next = add i32 %k, 1
  %more = icmp slt i32 %next, %m
  br i1 %more, label %loop, label %done
done:
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const std::string &sized = dumps["size-loop-controls"];
  auto field = [&](size_t line, const std::string &name) {
    const size_t at = sized.find(" " + name + "=", line);
    REQUIRE(at < sized.find('\n', line));
    return unsigned(std::stoul(sized.substr(at + name.size() + 2)));
  };
  unsigned lateMuxes = 0;
  for (size_t mux = sized.find("= loop_mux i32"); mux != std::string::npos;
       mux = sized.find("= loop_mux i32", mux + 1)) {
    const size_t back = sized.find("back %", mux);
    const std::string fifoId = sized.substr(back + 5, sized.find(')', back) - back - 5);
    const size_t fifo = sized.find("  " + fifoId + " = fifo");
    REQUIRE(fifo != std::string::npos);
    const unsigned ready = field(fifo, "start") + field(fifo, "lat"), taken = field(mux, "start") + 1;
    const unsigned slack = taken > ready ? taken - ready : 0;
    lateMuxes += slack > 0;
    // One invocation inside at a time: two entries, and one more per cycle the mux takes it late.
    CHECK(field(fifo, "depth") == 2 + slack);
  }
  CHECK(lateMuxes == 1);
}

namespace {

/// A graph dump's nodes by id ("%12"): their operands without back edges, and their loop.
struct DumpedNode {
  std::vector<std::string> operands;
  unsigned loop = 0;
};
std::map<std::string, DumpedNode> dumpedNodes(const std::string &dump) {
  std::map<std::string, DumpedNode> nodes;
  std::istringstream lines(dump);
  for (std::string line; std::getline(lines, line);) {
    const size_t equals = line.find(" = "), open = line.find(" ("), close = line.find(')', open);
    if (line.rfind("  %", 0) != 0 || equals == std::string::npos || open == std::string::npos)
      continue;
    DumpedNode &node = nodes[line.substr(2, equals - 2)];
    std::istringstream operands(line.substr(open + 2, close - open - 2));
    for (std::string operand; std::getline(operands, operand, ',');)
      if (operand.find("back") == std::string::npos)
        node.operands.push_back(operand.substr(operand.find('%')));
    if (const size_t loop = line.find(" loop=", close); loop != std::string::npos)
      node.loop = std::stoul(line.substr(loop + 6));
  }
  return nodes;
}

/// Whether a node of loop `loop` computes `id` (back edges not followed).
bool computedIn(const std::map<std::string, DumpedNode> &nodes, const std::string &id, unsigned loop) {
  const auto it = nodes.find(id);
  if (it == nodes.end())
    return false;
  return it->second.loop == loop || llvm::any_of(it->second.operands, [&](const std::string &operand) {
           return computedIn(nodes, operand, loop);
         });
}

/// The ids of loop `loop`'s back-edge FIFOs.
std::vector<std::string> ringRegisters(const std::map<std::string, DumpedNode> &nodes, const std::string &dump,
                                       unsigned loop) {
  std::vector<std::string> fifos;
  for (const auto &[id, node] : nodes)
    if (node.loop == loop && dump.find("  " + id + " = fifo") != std::string::npos)
      fifos.push_back(id);
  return fifos;
}

/// Rows of m values folded by s = s * 3 + a[r * m + k] in a single work-item nest, and the running
/// total of the rows stored after each; `chained`: each row's fold starts from the total instead of
/// 0, so the next row's inner loop needs the previous row's result.
std::string rowsKernel(bool chained) {
  return std::string(R"(
define spir_kernel void @rows(i32 addrspace(1)* noalias %a, i32 addrspace(1)* noalias %out, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %r = phi i32 [ 0, %entry ], [ %rnext, %tail ]
  %total = phi i32 [ 0, %entry ], [ %newtotal, %tail ]
  %base = mul i32 %r, %m
  br label %inner
inner:
  %k = phi i32 [ 0, %outer ], [ %knext, %inner ]
  %s = phi i32 [ )") + (chained ? "%total" : "0") + R"(, %outer ], [ %sum, %inner ]
  %index = add i32 %base, %k
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %index
  %x = load i32, i32 addrspace(1)* %p, align 4
  %times = mul i32 %s, 3
  %sum = add i32 %times, %x
  %knext = add i32 %k, 1
  %kmore = icmp slt i32 %knext, %m
  br i1 %kmore, label %inner, label %tail
tail:
  %newtotal = )" + (chained ? "or i32 %sum, 0" : "add i32 %total, %sum") + R"(
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i32 %r
  store i32 %newtotal, i32 addrspace(1)* %q, align 4
  %rnext = add i32 %r, 1
  %rmore = icmp slt i32 %rnext, %n
  br i1 %rmore, label %outer, label %done
done:
  ret void
}
)";
}

} // namespace

TEST_CASE("an outer iteration enters the inner loop while earlier ones are inside, unless it needs their results") {
  std::map<std::string, std::string> dumps;
  auto rows = parse(rowsKernel(false));
  auto program = synthesize(*rows->module, dumps);
  REQUIRE_OK(program);
  // The outer loop (1) computes its next row and exit test before the inner loop (2), and the
  // running total's ring starts after it: only that ring's register is fed from the inner loop.
  auto built = dumps["build-dataflow"];
  auto nodes = dumpedNodes(built);
  auto outerRings = ringRegisters(nodes, built, 1);
  CHECK(outerRings.size() == 3); // r, the total and the control.
  CHECK(llvm::count_if(outerRings, [&](const std::string &fifo) { return computedIn(nodes, fifo, 2); }) == 1);
  REQUIRE(program->kernels[0].loops.size() == 2);
  const hls::LoopReport &outer = program->kernels[0].loops[0], &inner = program->kernels[0].loops[1];
  CHECK(outer.overlapsFrom == inner.location);
  CHECK(outer.innerLoopsWaitFor.empty());
  CHECK(inner.overlapsFrom.empty()); // It has no inner loop.
  CHECK(inner.innerLoopsWaitFor.empty());
  CHECK(program->report.find(", an iteration enters the inner loop at " + inner.location +
                             " while earlier ones are still inside") != std::string::npos);
  checkLintClean(program->verilog, "loom_kernel_rows");

  // A row's fold starts from the previous rows' total: rows take turns in the inner loop, and the
  // report says why.
  auto chained = parse(rowsKernel(true));
  auto serial = synthesize(*chained->module, dumps);
  REQUIRE_OK(serial);
  built = dumps["build-dataflow"];
  nodes = dumpedNodes(built);
  outerRings = ringRegisters(nodes, built, 1);
  CHECK(llvm::all_of(outerRings, [&](const std::string &fifo) { return computedIn(nodes, fifo, 2); }));
  const hls::LoopReport &waiting = serial->kernels[0].loops[0];
  CHECK(waiting.overlapsFrom.empty());
  CHECK(waiting.innerLoopsWaitFor == "the next value of 'total' is known only after them");
  CHECK(serial->report.find(", an iteration enters its inner loops when the previous one has left them: the next "
                            "value of 'total' is known only after them") != std::string::npos);
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(serial->kernels[0]), back, root));
  CHECK(back.loops[0].innerLoopsWaitFor == waiting.innerLoopsWaitFor);
  REQUIRE(hls::fromJSON(hls::toJSON(program->kernels[0]), back, root));
  CHECK(back.loops[0].overlapsFrom == inner.location);
}

TEST_CASE("an innermost loop whose rings close in a cycle holds one invocation at a time") {
  // s += a[k]: every ring of the inner loop closes in a cycle, so one row inside at a time already
  // finishes an iteration a cycle, and its loads stay one stream of consecutive elements, which its
  // line port serves from few lines. Interleaved rows would make it fetch a line for nearly every
  // element (and buffer a line per credit).
  std::map<std::string, std::string> dumps;
  auto summing = parse(withLineReplaced(rowsKernel(false), "  %times = mul i32 %s, 3\n  %sum = add i32 %times, %x",
                                        "  %sum = add i32 %s, %x"));
  auto summed = synthesize(*summing->module, dumps);
  REQUIRE_OK(summed);
  REQUIRE(summed->kernels[0].loops.size() == 2);
  const hls::LoopReport &outer = summed->kernels[0].loops[0], &inner = summed->kernels[0].loops[1];
  CHECK_FALSE(outer.innermost);
  CHECK(inner.innermost);
  CHECK(inner.ii == 1);
  CHECK(inner.workItemsInside == 1);
  CHECK(outer.workItemsInside != 1); // Rows still enter the inner loop while earlier ones are inside.
  CHECK(outer.overlapsFrom == inner.location);
  CHECK_THAT(summed->report, Catch::Contains(", one invocation inside at a time (its rings close in a cycle"));
  CHECK(count(summed->verilog, "loom_loop_control #(.LIMIT(1))") == 1);
  // Each ring register of the inner loop holds that invocation's next value and one more, not a
  // value per work-item it could admit (33).
  const std::string &sized = dumps["size-loop-controls"];
  const std::regex backEdge(R"(back (%\d+))");
  unsigned innerRings = 0;
  std::istringstream lines(sized);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(" loop=2") == std::string::npos)
      continue;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), backEdge); it != std::sregex_iterator(); ++it) {
      const size_t at = sized.find("  " + (*it)[1].str() + " = fifo");
      if (at == std::string::npos)
        continue; // the loop control's exit, not a ring
      CHECK_THAT(sized.substr(at, sized.find('\n', at) - at), Catch::Contains(" depth=2 "));
      ++innerRings;
    }
  }
  CHECK(innerRings >= 3); // k, s and the control
  const auto linesOf = [](const std::string &verilog) {
    const size_t at = verilog.find(".LINES(");
    REQUIRE(at != std::string::npos);
    return std::stoul(verilog.substr(at + 7));
  };
  const unsigned long streamLines = linesOf(summed->verilog);
  checkLintClean(summed->verilog, "loom_kernel_rows");
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(summed->kernels[0]), back, root));
  CHECK_FALSE(back.loops[0].innermost);
  CHECK(back.loops[1].innermost);

  // s = s * a[k] + a[k]: a ring through a multiplier; rows interleave to cover it.
  auto folding = parse(withLineReplaced(rowsKernel(false), "%times = mul i32 %s, 3", "%times = mul i32 %s, %x"));
  auto folded = synthesize(*folding->module, dumps);
  REQUIRE_OK(folded);
  CHECK(folded->kernels[0].loops[1].ii > 1);
  CHECK(folded->kernels[0].loops[1].workItemsInside != 1);
  CHECK(count(folded->verilog, "loom_loop_control #(.LIMIT(1))") == 0);
  CHECK(linesOf(folded->verilog) > streamLines);
}

TEST_CASE("an outer iteration waits for the inner loop when work-items do not all run it alike") {
  // Each work-item's inner loop runs as many steps as its id: work-items overtake each other inside,
  // so every ring of the outer loop goes through the inner loop with its work-item (the running
  // total's too: it cannot start after the inner loop, where the order differs from the last time).
  std::string source = rowsKernel(false);
  for (auto [from, to] : {std::pair<std::string, std::string>{"entry:\n", "entry:\n  %id = call i64 @_Z13get_global_idj(i32 0)\n"
                                                                          "  %bound = trunc i64 %id to i32\n"},
                          {"icmp slt i32 %knext, %m", "icmp slt i32 %knext, %bound"}}) {
    const size_t at = source.find(from);
    REQUIRE(at != std::string::npos);
    source.replace(at, from.size(), to);
  }
  std::map<std::string, std::string> dumps;
  auto module = parse(source);
  auto program = synthesize(*module->module, dumps);
  REQUIRE_OK(program);
  const auto built = dumps["build-dataflow"];
  const auto nodes = dumpedNodes(built);
  const auto outerRings = ringRegisters(nodes, built, 1);
  CHECK(!outerRings.empty());
  CHECK(llvm::all_of(outerRings, [&](const std::string &fifo) { return computedIn(nodes, fifo, 2); }));
  REQUIRE(program->kernels[0].loops.size() == 2);
  const hls::LoopReport &outer = program->kernels[0].loops[0];
  CHECK(outer.overlapsFrom.empty());
  CHECK(outer.innerLoopsWaitFor == "the next value of 'total' is known only after them");
}

TEST_CASE("outer iterations share an inner loop whose exit test is the same for all, trip count or not") {
  // The rows kernel with its line `line` replaced by `lines`, synthesised: its outer loop's report.
  std::map<std::string, std::string> dumps;
  auto outerLoopWith = [&](const std::string &line, const std::string &lines) {
    auto changed = parse(withLineReplaced(rowsKernel(false), line, lines));
    auto program = synthesize(*changed->module, dumps);
    REQUIRE_OK(program);
    REQUIRE(program->kernels[0].loops.size() == 2);
    checkLintClean(program->verilog, "loom_kernel_rows");
    return std::make_pair(program->kernels[0].loops[0], program->kernels[0].loops[1].location);
  };
  // k steps by n: scalar evolution computes no trip count for a run-time stride, but k starts at 0 and
  // steps by the same n in every row, so every row runs the inner loop alike and rows still enter it
  // while earlier ones are inside (a work-group's rounds over a count of items, as the async copies).
  const auto [strided, inner] = outerLoopWith("  %knext = add i32 %k, 1", "  %knext = add i32 %k, %n");
  CHECK(strided.overlapsFrom == inner);
  CHECK(strided.innerLoopsWaitFor.empty());
  // k steps by the row's number, or the test is on a value loaded in the loop: rows run the inner
  // loop different numbers of times, so they take turns there, and the running total's ring goes
  // through it with its row (as when work-items do not all run it alike, above).
  const std::string turns = "the next value of 'total' is known only after them";
  const auto byRow = outerLoopWith("  %knext = add i32 %k, 1", "  %stride = add i32 %r, 1\n  %knext = add i32 %k, %stride");
  CHECK(byRow.first.overlapsFrom.empty());
  CHECK(byRow.first.innerLoopsWaitFor == turns);
  const auto loaded = outerLoopWith("  %kmore = icmp slt i32 %knext, %m", "  %kmore = icmp slt i32 %knext, %x");
  CHECK(loaded.first.overlapsFrom.empty());
  CHECK(loaded.first.innerLoopsWaitFor == turns);
}

/// A loop that counts down from a value loaded just before it, folding the count into t, loading
/// from `address`: in[gid] in an NDRange kernel, in[0] in a single work-item one.
std::string loadThenLoop(const std::string &address) {
  return R"(
define spir_kernel void @late(i32 addrspace(1)* noalias %in, i32 addrspace(1)* noalias %out, i32 %m) {
entry:
)" + address + R"(
  %x = load i32, i32 addrspace(1)* %p, align 4
  br label %count
count:
  %n = phi i32 [ %x, %entry ], [ %less, %count ]
  %t = phi i32 [ %m, %entry ], [ %folded, %count ]
  %folded = xor i32 %t, %n
  %less = sub i32 %n, 1
  %left = icmp sgt i32 %less, 0
  br i1 %left, label %count, label %done
done:
  store i32 %folded, i32 addrspace(1)* %p, align 4
  ret void
}
)";
}

/// The id of the first node whose dump line contains `needle`.
std::string nodeWith(const std::string &dump, const std::string &needle) {
  const size_t at = dump.find(needle);
  REQUIRE(at != std::string::npos);
  const size_t start = dump.rfind("  %", at) + 2;
  return dump.substr(start, dump.find(' ', start) - start);
}

TEST_CASE("a loop admits a work-item once the values it enters with are there") {
  // Admitted at once, the work-item's mux would wait for the load, and every iteration of the other
  // work-items inside behind it.
  std::map<std::string, std::string> dumps;
  synthesizeOk(loadThenLoop("  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
                            "  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid"),
               dumps);
  std::string dump = dumps["join-loop-entries"];
  auto nodes = dumpedNodes(dump);
  const std::string entry = nodes.at(nodeWith(dump, "= loop_control")).operands.at(0);
  CHECK(dump.find("  " + entry + " = join") != std::string::npos);
  CHECK(llvm::is_contained(nodes.at(entry).operands, nodeWith(dump, "= load i32")));
  // In a single work-item kernel the outermost loop holds one invocation: nothing waits behind it.
  dumps.clear();
  synthesizeOk(loadThenLoop("  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 0"), dumps);
  dump = dumps["join-loop-entries"];
  nodes = dumpedNodes(dump);
  CHECK(nodes.at(nodeWith(dump, "= loop_control")).operands.at(0) == nodeWith(dump, "= join"));
  CHECK(nodes.at(nodeWith(dump, "= join")).operands.size() == 1); // The work-item token alone.
}

TEST_CASE("division, square root, min/max/abs and switch become units, selects and branches") {
  auto ir = parse(R"(
declare float @llvm.sqrt.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.copysign.f32(float, float)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
define spir_kernel void @mixed(float addrspace(1)* %a, i32 addrspace(1)* %b, i32 %k) {
entry:
  %x = load float, float addrspace(1)* %a, align 4
  %n = load i32, i32 addrspace(1)* %b, align 4
  switch i32 %k, label %other [ i32 0, label %divide
                                i32 1, label %root ]
divide:
  %q = fdiv float %x, 3.0
  br label %done
root:
  %r = call float @llvm.sqrt.f32(float %x)
  %s = call float @llvm.copysign.f32(float %r, float -1.0)
  br label %done
other:
  %m = call float @llvm.minnum.f32(float %x, float 1.0)
  br label %done
done:
  %f = phi float [ %q, %divide ], [ %s, %root ], [ %m, %other ]
  %big = call i32 @llvm.smax.i32(i32 %n, i32 %k)
  %pos = call i32 @llvm.abs.i32(i32 %big, i1 false)
  store float %f, float addrspace(1)* %a, align 4
  store i32 %pos, i32 addrspace(1)* %b, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const std::string &graph = dumps["balance-paths"];
  CHECK(count(graph, "= fdiv ") == 1);
  CHECK(count(graph, "= fsqrt ") == 1);
  CHECK(count(graph, "= fcmp ") == 2); // minnum: the order and the NaN test
  CHECK(count(graph, "pred=38") == 1); // smax: icmp sgt
  CHECK(count(graph, "= sub i32") == 1); // abs: 0 - x where x < 0
  checkLintClean(program->verilog, "loom_kernel_mixed");
}

TEST_CASE("vector reductions become their lanes' operations, in lane order for float sums") {
  // As LLVM's SLP vectorizer leaves a sum of eight neighbours (Xilinx's convolve example).
  auto ir = parse(R"(
declare i32 @llvm.vector.reduce.add.v8i32(<8 x i32>)
declare i32 @llvm.vector.reduce.smax.v4i32(<4 x i32>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
define spir_kernel void @reduce(<8 x i32> addrspace(1)* %a, <4 x float> addrspace(1)* %f, i32 addrspace(1)* %out,
                                float addrspace(1)* %fout) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds <8 x i32>, <8 x i32> addrspace(1)* %a, i64 %gid
  %v = load <8 x i32>, <8 x i32> addrspace(1)* %pa, align 32
  %sum = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %v)
  %low = shufflevector <8 x i32> %v, <8 x i32> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %max = call i32 @llvm.vector.reduce.smax.v4i32(<4 x i32> %low)
  %both = add i32 %sum, %max
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %both, i32 addrspace(1)* %q, align 4
  %pf = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %f, i64 %gid
  %w = load <4 x float>, <4 x float> addrspace(1)* %pf, align 16
  %fsum = call float @llvm.vector.reduce.fadd.v4f32(float 1.0, <4 x float> %w)
  %qf = getelementptr inbounds float, float addrspace(1)* %fout, i64 %gid
  store float %fsum, float addrspace(1)* %qf, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= add i32") == 8); // 7 of the tree, 1 of the kernel
  CHECK(count(built, "= fadd") == 4);    // 1.0 + w0, + w1, + w2, + w3: lane order
  checkLintClean(program->verilog, "loom_kernel_reduce");
}

TEST_CASE("bit counts, funnel shifts and saturating arithmetic become compare-and-select stages") {
  auto ir = parse(R"(
declare i32 @llvm.ctlz.i32(i32, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare i16 @llvm.ctpop.i16(i16)
declare i8 @llvm.fshl.i8(i8, i8, i8)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i16 @llvm.usub.sat.i16(i16, i16)
define spir_kernel void @bits(i32 addrspace(1)* %a, i64 addrspace(1)* %b) {
entry:
  %x = load i32, i32 addrspace(1)* %a, align 4
  %w = load i64, i64 addrspace(1)* %b, align 8
  %lz = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %tz = call i64 @llvm.cttz.i64(i64 %w, i1 false)
  %h = trunc i32 %x to i16
  %ones = call i16 @llvm.ctpop.i16(i16 %h)
  %c = trunc i32 %x to i8
  %rot = call i8 @llvm.fshl.i8(i8 %c, i8 %c, i8 3)
  %shr = call i32 @llvm.fshr.i32(i32 %x, i32 %lz, i32 %x)
  %sum = call i32 @llvm.sadd.sat.i32(i32 %shr, i32 %x)
  %diff = call i16 @llvm.usub.sat.i16(i16 %ones, i16 %h)
  %r8 = zext i8 %rot to i32
  %d16 = zext i16 %diff to i32
  %t32 = trunc i64 %tz to i32
  %r1 = add i32 %sum, %r8
  %r2 = add i32 %r1, %d16
  %r3 = add i32 %r2, %t32
  store i32 %r3, i32 addrspace(1)* %a, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  const std::string &graph = dumps["balance-paths"];
  CHECK(graph.find("call") == std::string::npos);
  // ctlz i32: 5 halving stages and the last bit, each choosing a count and (but the last) a value.
  CHECK(count(graph, "= select i32") >= 11);
  CHECK(count(graph, "= select i64") >= 13); // cttz i64: 6 stages, the last bit
  CHECK(count(graph, "= and i16") >= 4);     // ctpop: pairs, nibbles (two masks) and bytes
  checkLintClean(program->verilog, "loom_kernel_bits");
}

TEST_CASE("unsupported kernels fail with the source location and what is missing") {
  SECTION("irreducible control flow") {
    auto ir = parse(R"(
define spir_kernel void @tangle(i32 addrspace(1)* %a, i1 %c) {
entry:
  br i1 %c, label %left, label %right
left:
  %l = load i32, i32 addrspace(1)* %a, align 4
  %lz = icmp eq i32 %l, 0
  br i1 %lz, label %right, label %done
right:
  %r = load i32, i32 addrspace(1)* %a, align 4
  %rz = icmp eq i32 %r, 0
  br i1 %rz, label %left, label %done
done:
  ret void
}
)");
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    CHECK(errorMessage(program).find("irreducible control flow is not supported") != std::string::npos);
  }
  SECTION("double precision") {
    auto ir = parse(R"(
define spir_kernel void @twice(double addrspace(1)* %a) {
entry:
  %v = load double, double addrspace(1)* %a, align 8
  %d = fmul double %v, 2.0
  store double %d, double addrspace(1)* %a, align 8
  ret void
}
)");
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    CHECK(errorMessage(program).find("the board has no double-precision floating point") != std::string::npos);
    // A double argument (only SPIR-V can bring one) is reported where the kernel first uses it.
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @scaled(float addrspace(1)* %out, double %d) !dbg !5 {
entry:
  %f = fptrunc double %d to float, !dbg !9
  store float %f, float addrspace(1)* %out, align 4
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: argument 'd' of kernel 'scaled': the board has no "
                               "double-precision floating point"));
  }
  SECTION("unknown builtins") {
    auto ir = parse(R"(
declare spir_func float @_Z3expf(float)
define spir_kernel void @power(float addrspace(1)* %a) {
entry:
  %v = load float, float addrspace(1)* %a, align 4
  %r = call spir_func float @_Z3expf(float %v)
  store float %r, float addrspace(1)* %a, align 4
  ret void
}
)");
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    CHECK(errorMessage(program).find("call to 'exp(float)' is not supported") != std::string::npos);
  }
  SECTION("an access through a pointer to one of two private arrays, loaded from memory") {
    auto ir = parse(R"(
define spir_kernel void @pick(i32 addrspace(1)* %out, i1 %c) {
entry:
  %x = alloca [4 x i32], align 4
  %y = alloca [4 x i32], align 4
  %slots = alloca [2 x i32*], align 8
  %px = getelementptr inbounds [4 x i32], [4 x i32]* %x, i64 0, i64 1
  %py = getelementptr inbounds [4 x i32], [4 x i32]* %y, i64 0, i64 2
  %first = getelementptr inbounds [2 x i32*], [2 x i32*]* %slots, i64 0, i64 0
  store i32* %px, i32** %first, align 8
  %second = getelementptr inbounds [2 x i32*], [2 x i32*]* %slots, i64 0, i64 1
  store i32* %py, i32** %second, align 8
  %which = zext i1 %c to i64
  %slot = getelementptr inbounds [2 x i32*], [2 x i32*]* %slots, i64 0, i64 %which
  %p = load i32*, i32** %slot, align 8
  store i32 1, i32* %p, align 4
  ret void
}
)");
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    CHECK_THAT(errorMessage(program),
               Catch::Contains("may reach more than one private or __local array"));
  }
  SECTION("an on-chip array accessed atomically in elements wider than its others") {
    auto ir = parse(R"(
@mixed.x = internal addrspace(3) global [4 x i32] undef, align 4
define spir_kernel void @mixed(i32 addrspace(1)* %out, i64 %i) {
entry:
  %slot = getelementptr inbounds [4 x i32], [4 x i32] addrspace(3)* @mixed.x, i64 0, i64 %i
  %old = atomicrmw add i32 addrspace(3)* %slot, i32 1 seq_cst
  %bytes = bitcast [4 x i32] addrspace(3)* @mixed.x to i8 addrspace(3)*
  %b = getelementptr inbounds i8, i8 addrspace(3)* %bytes, i64 %i
  %v = load i8, i8 addrspace(3)* %b, align 1
  %w = zext i8 %v to i32
  %sum = add i32 %w, %old
  store i32 %sum, i32 addrspace(1)* %out, align 4
  ret void
}
)");
    std::map<std::string, std::string> dumps;
    auto program = synthesize(*ir->module, dumps);
    CHECK_THAT(errorMessage(program),
               Catch::Contains("array 'x' is accessed as 4-byte and as 1-byte elements: an atomic access"));
  }
  // The rest name the offending line and column (withDebugInfo's kernel.cl:4:3).
  SECTION("control flow other than branches and returns") {
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @jump(i32 addrspace(1)* %a, i1 %c) !dbg !5 {
entry:
  %target = select i1 %c, i8* blockaddress(@jump, %one), i8* blockaddress(@jump, %two)
  indirectbr i8* %target, [label %one, label %two], !dbg !9
one:
  store i32 1, i32 addrspace(1)* %a, align 4
  ret void
two:
  store i32 2, i32 addrspace(1)* %a, align 4
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: 'indirectbr' control flow is not supported"));
  }
  SECTION("a type the hardware does not carry, or an access of a width other than a power of two bytes") {
    const std::pair<const char *, const char *> cases[] = {
        {"i128", "type 'i128' is not supported by the hardware flow yet"},
        {"i24", "memory accesses of 24 bits are not supported"}};
    for (const auto &[type, reason] : cases) {
      INFO(type);
      CHECK_THAT(synthesisErrorAt(std::regex_replace(R"(
define spir_kernel void @copy(T addrspace(1)* %in, T addrspace(1)* %out) !dbg !5 {
entry:
  %v = load T, T addrspace(1)* %in, align 1, !dbg !9
  store T %v, T addrspace(1)* %out, align 1
  ret void
}
)", std::regex(R"(\bT\b)"), type)),
                 Catch::Contains(std::string("kernel.cl:4:3: error: ") + reason));
    }
  }
  SECTION("a conversion between an integer and a type other than float") {
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @halve(i32 addrspace(1)* %in, i16 addrspace(1)* %out) !dbg !5 {
entry:
  %v = load i32, i32 addrspace(1)* %in, align 4
  %h = sitofp i32 %v to half, !dbg !9
  %bits = bitcast half %h to i16
  store i16 %bits, i16 addrspace(1)* %out, align 2
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: operation 'sitofp' is supported between float and integers "
                               "of up to 64 bits only"));
  }
  SECTION("an instruction the graph has no operation for") {
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @fenced(i32 addrspace(1)* %out) !dbg !5 {
entry:
  store i32 1, i32 addrspace(1)* %out, align 4
  fence seq_cst, !dbg !9
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: operation 'fence' is not supported by the hardware flow yet"));
  }
  SECTION("a vector constant with a lane known only at link time") {
    CHECK_THAT(synthesisErrorAt(R"(
@g = addrspace(1) global i32 0, align 4
define spir_kernel void @linked(<2 x i64> addrspace(1)* %out) !dbg !5 {
entry:
  store <2 x i64> <i64 add (i64 ptrtoint (i32 addrspace(1)* @g to i64), i64 1), i64 1>, <2 x i64> addrspace(1)* %out, align 16, !dbg !9
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: this vector constant is not supported by the hardware flow yet"));
  }
  SECTION("a function's address as an operand") {
    CHECK_THAT(synthesisErrorAt(R"(
define void @helper() {
  ret void
}
define spir_kernel void @address(i64 addrspace(1)* %out) !dbg !5 {
entry:
  store i64 ptrtoint (void ()* @helper to i64), i64 addrspace(1)* %out, align 8, !dbg !9
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: operand kind is not supported by the hardware flow yet"));
  }
  SECTION("a program-scope variable") {
    // The board has no memory for one: its program-scope variables are off.
    CHECK_THAT(synthesisErrorAt(R"(
@counter = addrspace(1) global i32 5, align 4
define spir_kernel void @count(i32 addrspace(1)* %out) !dbg !5 {
entry:
  %v = load i32, i32 addrspace(1)* @counter, align 4, !dbg !9
  store i32 %v, i32 addrspace(1)* %out, align 4
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: program-scope variable 'counter' is not supported"));
  }
  SECTION("a __constant array the board cannot make a ROM of: defined elsewhere, or stored to") {
    const std::array<const char *, 3> cases[] = {
        {"external addrspace(2) constant [4 x i32]", "", "__constant array 'table' is not supported"},
        {"internal addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]",
         "store i32 7, i32 addrspace(2)* %slot, align 4, !dbg !9\n", "a store to constant table 'table'"}};
    for (const auto &[table, store, reason] : cases) {
      INFO(table);
      CHECK_THAT(synthesisErrorAt(std::string("@table = ") + table + R"(, align 4
define spir_kernel void @lookup(i32 addrspace(1)* %out, i64 %i) !dbg !5 {
entry:
  %slot = getelementptr inbounds [4 x i32], [4 x i32] addrspace(2)* @table, i64 0, i64 %i, !dbg !9
  )" + store + R"(  %v = load i32, i32 addrspace(2)* %slot, align 4
  store i32 %v, i32 addrspace(1)* %out, align 4
  ret void
}
)"),
                 Catch::Contains(std::string("kernel.cl:4:3: error: ") + reason));
    }
  }
  SECTION("a loop that never exits and carries a constant") {
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @forever(i32 addrspace(1)* %a) !dbg !5 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ 7, %loop ], !dbg !9
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %x
  store i32 1, i32 addrspace(1)* %p, align 4
  br label %loop
}
)"),
               Catch::Contains("kernel.cl:4:3: error: a loop that never exits and carries a constant"));
  }
  SECTION("a private array of a run-time size") {
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @sized(i32 addrspace(1)* %out, i64 %n) !dbg !5 {
entry:
  %buf = alloca i32, i64 %n, align 4
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %slot = getelementptr inbounds i32, i32* %buf, i64 %gid
  store i32 1, i32* %slot, align 4, !dbg !9
  %v = load i32, i32* %buf, align 4
  store i32 %v, i32 addrspace(1)* %out, align 4
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: private array 'buf' has a size known only at run time"));
  }
  SECTION("a constant table of pointers") {
    // `__constant int *__constant rows[2] = {a, b};`
    CHECK_THAT(synthesisErrorAt(R"(
@a = internal addrspace(2) constant [2 x i32] [i32 1, i32 2], align 4
@b = internal addrspace(2) constant [2 x i32] [i32 3, i32 4], align 4
@rows = internal addrspace(2) constant [2 x i32 addrspace(2)*] [
  i32 addrspace(2)* getelementptr inbounds ([2 x i32], [2 x i32] addrspace(2)* @a, i64 0, i64 0),
  i32 addrspace(2)* getelementptr inbounds ([2 x i32], [2 x i32] addrspace(2)* @b, i64 0, i64 0)], align 8
define spir_kernel void @lookup_row(i32 addrspace(1)* %out, i64 %i) !dbg !5 {
entry:
  %slot = getelementptr inbounds [2 x i32 addrspace(2)*], [2 x i32 addrspace(2)*] addrspace(2)* @rows, i64 0, i64 %i
  %row = load i32 addrspace(2)*, i32 addrspace(2)* addrspace(2)* %slot, align 8, !dbg !9
  %v = load i32, i32 addrspace(2)* %row, align 4
  store i32 %v, i32 addrspace(1)* %out, align 4
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: the contents of constant table 'rows' are not supported"));
  }
  SECTION("a field of an aggregate other than a cmpxchg's pair") {
    CHECK_THAT(synthesisErrorAt(R"(
define spir_kernel void @field(i32 addrspace(1)* %out) !dbg !5 {
entry:
  %x = extractvalue { i32, i32 } { i32 1, i32 2 }, 1, !dbg !9
  store i32 %x, i32 addrspace(1)* %out, align 4
  ret void
}
)"),
               Catch::Contains("kernel.cl:4:3: error: extractvalue is supported by the hardware flow only on a "
                               "cmpxchg's result"));
  }
  SECTION("a vector element index known only at run time: lanes selected; the graph builder alone refuses it") {
    const std::string kernel = withDebugInfo(R"(
define spir_kernel void @pick(<4 x float> %v, float addrspace(1)* %out, i32 %i) !dbg !5 {
entry:
  %x = extractelement <4 x float> %v, i32 %i, !dbg !9
  store float %x, float addrspace(1)* %out, align 4
  ret void
}
)");
    std::map<std::string, std::string> dumps;
    synthesizeOk(kernel, dumps);
    CHECK(count(dumps["build-dataflow"], "select i32") == 4); // ScalarizeVectors: a select per lane
    auto ir = parse(kernel);
    CHECK_THAT(errorMessage(hls::buildDataflowGraph(*ir->module->getFunction("pick"))),
               Catch::Contains("kernel.cl:4:3: error: a vector element index must be a constant in hardware"));
  }
}

TEST_CASE("a binary's hardware interfaces read back; a kernel without one is named") {
  hls::HardwareKernel kernel;
  kernel.kernelName = "k";
  kernel.topModule = "loom_kernel_k";
  kernel.numArgs = 2;
  llvm::json::Object meta{{"kernels", llvm::json::Array{llvm::json::Object{{"name", "k"}, {"hardware", hls::toJSON(kernel)}}}}};
  auto read = hls::hardwareKernelsOf(meta);
  REQUIRE_OK(read);
  REQUIRE(read->size() == 1);
  CHECK((*read)[0].topModule == "loom_kernel_k");
  CHECK((*read)[0].numArgs == 2);

  llvm::json::Object cpuOnly{{"kernels", llvm::json::Array{llvm::json::Object{{"name", "k"}}}}};
  auto missing = hls::hardwareKernelsOf(cpuOnly);
  CHECK_THAT(errorMessage(missing), Catch::Contains("kernel 'k' has no hardware interface"));
  auto none = hls::hardwareKernelsOf(llvm::json::Object{});
  CHECK_THAT(errorMessage(none), Catch::Contains("lists no kernels"));
}

namespace {

/// A single work-item loop `a[index[i]] += 1`: without `#pragma ivdep`, each iteration's
/// read-modify-write of `a` waits for the previous one's store. `loopAttributes` are extra
/// operands of the loop's metadata; `group` puts the loop's accesses in access group !2.
std::string scatterLoop(const std::string &loopAttributes, bool group) {
  const std::string access = group ? ", !llvm.access.group !2" : "";
  return R"(
define spir_kernel void @scatter(i32 addrspace(1)* %a, i32 addrspace(1)* %index, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %pi = getelementptr inbounds i32, i32 addrspace(1)* %index, i32 %i
  %k = load i32, i32 addrspace(1)* %pi, align 4)" + access + R"(
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %k
  %v = load i32, i32 addrspace(1)* %pa, align 4)" + access + R"(
  %w = add i32 %v, 1
  store i32 %w, i32 addrspace(1)* %pa, align 4)" + access + R"(
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !0
done:
  ret void
}
!0 = distinct !{!0)" + loopAttributes + R"(}
!1 = !{!"llvm.loop.parallel_accesses", !2}
!2 = distinct !{}
!3 = !{!"llvm.loop.pipeline.initiationinterval", i32 1}
!4 = !{!"llvm.loop.pipeline.initiationinterval", i32 8}
)";
}

/// A float accumulation whose add (3 cycles on the unit board) recurs every iteration.
std::string accumulation(int ii) {
  return R"(
define spir_kernel void @accumulate(float addrspace(1)* %a, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %p = getelementptr inbounds float, float addrspace(1)* %a, i32 %i
  %v = load float, float addrspace(1)* %p, align 4
  %sum = fadd float %s, %v
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !0
done:
  store float %sum, float addrspace(1)* %a, align 4
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.pipeline.initiationinterval", i32 )" + std::to_string(ii) + R"(}
)";
}

} // namespace

TEST_CASE("a program without kernels is no hardware, with a warning that says why") {
  // Helper functions only: a valid OpenCL program, which the board loads without a model.
  auto ir = parse("define void @helper() {\n  ret void\n}\n");
  std::map<std::string, std::string> dumps;
  auto program = synthesize(*ir->module, dumps);
  REQUIRE_OK(program);
  CHECK(program->kernels.empty());
  CHECK(program->verilog.empty());
  CHECK_THAT(program->warnings, Catch::Contains("warning: the program has no kernels: no __kernel function is left "
                                                "after preprocessing for board 'unit'"));
}

TEST_CASE("#pragma ivdep (parallel accesses) drops the loop's carried memory order") {
  std::map<std::string, std::string> dumps;
  auto ordered = parse(scatterLoop("", false));
  auto withOrder = synthesize(*ordered->module, dumps);
  REQUIRE_OK(withOrder);
  REQUIRE(withOrder->kernels[0].loops.size() == 1);
  const hls::LoopReport &kept = withOrder->kernels[0].loops[0];
  CHECK(kept.boundBy == "memory order");
  CHECK_FALSE(kept.ivdep);
  CHECK(withOrder->report.find(" (the kernel's pointers that are not restrict share one memory order: declare "
                               "those that never overlap restrict, or use #pragma ivdep)\n") != std::string::npos);

  // Accesses outside the parallel group keep the order: the annotation must cover all of them.
  dumps.clear();
  auto partial = parse(scatterLoop(", !1", false));
  auto partialProgram = synthesize(*partial->module, dumps);
  REQUIRE_OK(partialProgram);
  CHECK(partialProgram->kernels[0].loops[0].boundBy == "memory order");

  dumps.clear();
  auto parallel = parse(scatterLoop(", !1", true));
  auto program = synthesize(*parallel->module, dumps);
  REQUIRE_OK(program);
  const hls::LoopReport &dropped = program->kernels[0].loops[0];
  CHECK(dropped.ivdep);
  CHECK(dropped.boundBy != "memory order");
  CHECK(dropped.ii < kept.ii);
  CHECK(program->report.find("#pragma ivdep: no memory order between iterations") != std::string::npos);
  CHECK(program->report.find("share one memory order") == std::string::npos);
  checkLintClean(program->verilog, "loom_kernel_scatter");
}

TEST_CASE("#pragma ivdep array(x) drops the memory order of the accesses to x only") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram kept = synthesizeOk(scatterLoop("", false), dumps);
  auto withIvdepArray = [&](const std::string &array, unsigned safelen) {
    dumps.clear();
    return synthesizeOk(scatterLoop(llvm::formatv(R"(, !{{!"loom.loop.ivdep_array", !"{0}", i32 {1}})", array, safelen),
                                    false),
                        dumps);
  };
  // a[index[i]] += 1 under array(a): every pair of accesses that may meet involves a.
  const hls::SynthesizedProgram dropped = withIvdepArray("a", 0);
  const hls::LoopReport &loop = dropped.kernels[0].loops[0];
  CHECK(loop.boundBy != "memory order");
  CHECK(loop.ii < kept.kernels[0].loops[0].ii);
  CHECK(loop.ivdepArrays == std::vector<std::string>{"array(a)"});
  CHECK(dropped.report.find(", #pragma ivdep array(a)") != std::string::npos);
  checkLintClean(dropped.verilog, "loom_kernel_scatter");
  // array(a) safelen(4): iterations wait for the one 4 before them (more than 2 apart: the round
  // trip shared by more than two iterations).
  const hls::SynthesizedProgram apart = withIvdepArray("a", 4);
  CHECK(apart.kernels[0].loops[0].boundBy == "memory order");
  CHECK(apart.kernels[0].loops[0].ii * 2 < kept.kernels[0].loops[0].ii);
  CHECK(apart.report.find(", 4 iterations apart") != std::string::npos);
  CHECK(apart.report.find(", #pragma ivdep array(a) safelen(4)") != std::string::npos);
  // array(index): the read-modify-write of a keeps its order.
  const hls::SynthesizedProgram other = withIvdepArray("index", 0);
  CHECK(other.kernels[0].loops[0].boundBy == "memory order");
  CHECK(other.kernels[0].loops[0].ii == kept.kernels[0].loops[0].ii);
}

namespace {

/// A single work-item loop `a[i] += b[i + offset]` over `noalias` arguments; `offset` is IR (a
/// constant, or the argument %k).
std::string inPlaceLoop(const std::string &offset) {
  return R"(
define spir_kernel void @in_place(i32 addrspace(1)* noalias %a, i32 addrspace(1)* noalias %b, i32 %k, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %j = add nsw i32 %i, )" + offset + R"(
  %pb = getelementptr inbounds i32, i32 addrspace(1)* %b, i32 %i
  %x = load i32, i32 addrspace(1)* %pb, align 4
  %pl = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %j
  %v = load i32, i32 addrspace(1)* %pl, align 4
  %w = add i32 %v, %x
  %ps = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %i
  store i32 %w, i32 addrspace(1)* %ps, align 4
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)";
}

} // namespace

TEST_CASE("dependence analysis drops the memory order of a loop whose accesses meet only within an iteration") {
  std::map<std::string, std::string> dumps;
  // a[i] += b[i]: the load and the store of a[i] meet in the same iteration only.
  const hls::SynthesizedProgram same = synthesizeOk(inPlaceLoop("0"), dumps);
  CHECK(same.kernels[0].loops[0].ii == 1);
  CHECK(same.kernels[0].loops[0].boundBy != "memory order of a");
  checkLintClean(same.verilog, "loom_kernel_in_place");
  CHECK(count(dumps["build-dataflow"], "store_address") == 0);
  // a[i] = a[i + 1] + b[i]: iteration i + 1 writes what iteration i read, and a[i] = a[i + k] + b[i]:
  // a distance known only at run time. Both carry a dependence, which the store's queue serves.
  for (const char *offset : {"1", "%k"}) {
    dumps.clear();
    const hls::SynthesizedProgram carried = synthesizeOk(inPlaceLoop(offset), dumps);
    INFO(offset);
    CHECK(carried.kernels[0].ports[1].forwardsFrom == 2);
    CHECK(carried.kernels[0].loops[0].boundBy != "memory order of a");
  }
}

TEST_CASE("a read-modify-write at data-dependent addresses forwards from its store's queue instead of a ring") {
  // hist[index[i]] += 1 (when index[i] >= 0): the class of `hist` has one load and one store in
  // the loop, the load first.
  const std::string histogram = R"(
define spir_kernel void @histogram(i32 addrspace(1)* %hist, i32 addrspace(1)* noalias %index, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %pi = getelementptr inbounds i32, i32 addrspace(1)* %index, i32 %i
  %k = load i32, i32 addrspace(1)* %pi, align 4
  %valid = icmp sge i32 %k, 0
  br i1 %valid, label %count, label %latch
count:
  %ph = getelementptr inbounds i32, i32 addrspace(1)* %hist, i32 %k
  %v = load i32, i32 addrspace(1)* %ph, align 4
  %w = add i32 %v, 1
  store i32 %w, i32 addrspace(1)* %ph, align 4
  br label %latch
latch:
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)";
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(histogram, dumps);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= store_address port=2 predicated") == 1);
  CHECK(count(built, "forwards_from=2") == 1);
  CHECK(count(built, "= loop_mux (") == 0); // No data-less ring: no memory order.
  REQUIRE(program.kernels[0].ports.size() == 3);
  CHECK(program.kernels[0].ports[1].forwardsFrom == 2);
  CHECK(program.kernels[0].loops[0].ii == 1);
  CHECK(program.report.find("port 1: load of 4 bytes at ") != std::string::npos);
  CHECK(program.report.find(", forwarding from port 2's stores") != std::string::npos);
  CHECK(count(program.verilog, "loom_forward_queue #(.DW(32)") == 1);
  checkLintClean(program.verilog, "loom_kernel_histogram");

  // The pairing reads back from JSON; one naming a load port, or no port at all, does not.
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(program.kernels[0]), back, root));
  CHECK(back.ports[1].forwardsFrom == 2);
  CHECK_FALSE(back.ports[2].forwards());
  for (int64_t wrong : {0, 7}) {
    llvm::json::Value json = hls::toJSON(program.kernels[0]);
    (*(*json.getAsObject()->getArray("ports"))[1].getAsObject())["forwards_from"] = wrong;
    llvm::json::Path::Root bad;
    CHECK_FALSE(hls::fromJSON(json, back, bad));
    CHECK_THAT(llvm::toString(bad.getError()), Catch::Contains("forwards_from"));
  }

  // A store before the load (the iteration's load must see it), or a second load of the class:
  // the ring stays.
  std::string storeFirst = histogram;
  storeFirst.replace(storeFirst.find("  %v = load"), 0, "  store i32 0, i32 addrspace(1)* %hist, align 4\n");
  dumps.clear();
  const hls::SynthesizedProgram ringed = synthesizeOk(storeFirst, dumps);
  CHECK(ringed.kernels[0].loops[0].boundBy == "memory order");
  CHECK(count(dumps["build-dataflow"], "store_address") == 0);
}

TEST_CASE("constant vectors become static wires of all their lanes, wide ones zero with lanes inserted") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(R"(
define spir_kernel void @fill(<8 x i32> addrspace(1)* noalias %wide, <4 x i16> addrspace(1)* noalias %narrow) {
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pw = getelementptr inbounds <8 x i32>, <8 x i32> addrspace(1)* %wide, i64 %id
  store <8 x i32> <i32 1, i32 0, i32 3, i32 undef, i32 0, i32 0, i32 0, i32 8>, <8 x i32> addrspace(1)* %pw, align 32
  %pn = getelementptr inbounds <4 x i16>, <4 x i16> addrspace(1)* %narrow, i64 %id
  store <4 x i16> <i16 1, i16 2, i16 3, i16 4>, <4 x i16> addrspace(1)* %pn, align 8
  ret void
}
)",
                                                       dumps);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= static const i256 0 ()") == 1);
  CHECK(count(built, "= static insert_lane i256") == 3); // Lanes 0, 2 and 7: zeros and undef stay.
  CHECK(count(built, "= static insert_lane i256 at=224") == 1);
  CHECK(count(built, "= static const i64 1125912791875585 ()") == 1); // 0x0004000300020001
  checkLintClean(program.verilog, "loom_kernel_fill");
}

TEST_CASE("a fact stated with __builtin_assume is no circuit") {
  const std::string increment = R"(
declare void @llvm.assume(i1)
define spir_kernel void @inc(i32 addrspace(1)* noalias %a) {
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %id
  %x = load i32, i32 addrspace(1)* %p, align 4
  %small = icmp ult i32 %x, 100
  call void @llvm.assume(i1 %small)
  %y = add i32 %x, 1
  store i32 %y, i32 addrspace(1)* %p, align 4
  ret void
}
)";
  std::map<std::string, std::string> assumed, plain;
  const hls::SynthesizedProgram program = synthesizeOk(increment, assumed);
  synthesizeOk(withLineReplaced(withLineReplaced(increment, "  %small = icmp ult i32 %x, 100\n", ""),
                                "  call void @llvm.assume(i1 %small)\n", ""),
               plain);
  CHECK(assumed["build-dataflow"] == plain["build-dataflow"]);
  checkLintClean(program.verilog, "loom_kernel_inc");
}

TEST_CASE("a loop entered under a condition computed at run time keeps II 1") {
  // The second loop is entered when a[0] > 0, read after the first loop: its exit condition joins
  // that predicate, which arrives after the loop's control would otherwise start.
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(R"(
define spir_kernel void @two(i32 addrspace(1)* noalias %a, i32 addrspace(1)* noalias %b, i32 %n) {
entry:
  br label %first
first:
  %i = phi i32 [ 0, %entry ], [ %i1, %first ]
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %i
  %x = load i32, i32 addrspace(1)* %pa, align 4
  %pb = getelementptr inbounds i32, i32 addrspace(1)* %b, i32 %i
  store i32 %x, i32 addrspace(1)* %pb, align 4
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %first, label %between
between:
  %m = load i32, i32 addrspace(1)* %a, align 4
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %second, label %done
second:
  %j = phi i32 [ 0, %between ], [ %j1, %second ]
  %pj = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %j
  %y = load i32, i32 addrspace(1)* %pj, align 4
  %z = add i32 %y, 1
  store i32 %z, i32 addrspace(1)* %pj, align 4
  %j1 = add nsw i32 %j, 1
  %d = icmp slt i32 %j1, %m
  br i1 %d, label %second, label %done
done:
  ret void
}
)",
                                                       dumps);
  REQUIRE(program.kernels[0].loops.size() == 2);
  CHECK(program.kernels[0].loops[0].ii == 1);
  CHECK(program.kernels[0].loops[1].ii == 1);
  checkLintClean(program.verilog, "loom_kernel_two");
}

TEST_CASE("a chain of one associative operation becomes a tree; a loop's running value joins last") {
  // As Clang leaves an unrolled 8-tap dot product: seven adds one after another; and a product
  // carried by a loop, `s = s * x * k * n`, with the running value deepest in the chain.
  auto ir = parse(R"(
define spir_kernel void @dot(i32 addrspace(1)* %a, i32 addrspace(1)* %out, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %gid, 3
  %i0 = add i64 %base, 0
  %p0 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i0
  %x0 = load i32, i32 addrspace(1)* %p0, align 4
  %i1 = add i64 %base, 1
  %p1 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i1
  %x1 = load i32, i32 addrspace(1)* %p1, align 4
  %i2 = add i64 %base, 2
  %p2 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i2
  %x2 = load i32, i32 addrspace(1)* %p2, align 4
  %i3 = add i64 %base, 3
  %p3 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i3
  %x3 = load i32, i32 addrspace(1)* %p3, align 4
  %i4 = add i64 %base, 4
  %p4 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i4
  %x4 = load i32, i32 addrspace(1)* %p4, align 4
  %i5 = add i64 %base, 5
  %p5 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i5
  %x5 = load i32, i32 addrspace(1)* %p5, align 4
  %i6 = add i64 %base, 6
  %p6 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i6
  %x6 = load i32, i32 addrspace(1)* %p6, align 4
  %i7 = add i64 %base, 7
  %p7 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %i7
  %x7 = load i32, i32 addrspace(1)* %p7, align 4
  %m0 = mul i32 %x0, 3
  %m1 = mul i32 %x1, %n
  %m2 = mul i32 %x2, %x0
  %m3 = mul i32 %x3, %x1
  %m4 = mul i32 %x4, %x2
  %m5 = mul i32 %x5, %x3
  %m6 = mul i32 %x6, %x4
  %m7 = mul i32 %x7, %x5
  %s1 = add nsw i32 %m0, %m1
  %s2 = add nsw i32 %s1, %m2
  %s3 = add nsw i32 %s2, %m3
  %s4 = add nsw i32 %s3, %m4
  %s5 = add nsw i32 %s4, %m5
  %s6 = add nsw i32 %s5, %m6
  %s7 = add nsw i32 %s6, %m7
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %s7, i32 addrspace(1)* %q, align 4
  ret void
}

define spir_kernel void @product(i32 addrspace(1)* %a, i32 addrspace(1)* %out, i32 %n) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 1, %entry ], [ %s3, %loop ]
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i32 %k
  %x = load i32, i32 addrspace(1)* %p, align 4
  %s1 = mul i32 %s, %x
  %s2 = mul i32 %s1, %k
  %s3 = mul i32 %s2, %n
  %next = add i32 %k, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  store i32 %s3, i32 addrspace(1)* %out, align 4
  ret void
}
)");
  std::map<std::string, std::string> dumps;
  hls::HlsOptions options;
  options.dump = [&](llvm::StringRef pass, llvm::StringRef kernel, llvm::StringRef text) {
    dumps[(pass + " " + kernel).str()] = text.str();
  };
  auto program = hls::synthesizeProgram(*ir->module, unitBoard(), options);
  REQUIRE_OK(program);
  // The longest run of adds from a product to the sum: log2(8) = 3, not 7.
  const std::string &dot = dumps["build-dataflow dot"];
  std::map<std::string, std::vector<std::string>> adds;
  const std::regex add(R"((%\d+) = add i32 \((%\d+), (%\d+)\))");
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), add); it != std::sregex_iterator(); ++it)
    adds[(*it)[1]] = {(*it)[2], (*it)[3]};
  REQUIRE(adds.size() == 7);
  std::function<int(const std::string &)> depth = [&](const std::string &node) {
    auto found = adds.find(node);
    return found == adds.end() ? 0 : 1 + std::max(depth(found->second[0]), depth(found->second[1]));
  };
  int deepest = 0;
  for (const auto &[node, operands] : adds)
    deepest = std::max(deepest, depth(node));
  CHECK(deepest == 3);
  // The loop's ring is one multiply (and its register), not three.
  REQUIRE(program->kernels.size() == 2);
  REQUIRE(program->kernels[1].loops.size() == 1);
  CHECK(program->kernels[1].loops[0].ii == 1 + 1);
  checkLintClean(program->verilog, "loom_kernel_dot");
}

TEST_CASE("#pragma ii N is checked against the loop's recurrences, and a longer one is ignored with a warning") {
  std::map<std::string, std::string> dumps;
  auto met = parse(accumulation(8));
  auto program = synthesize(*met->module, dumps);
  REQUIRE_OK(program);
  const hls::LoopReport &loop = program->kernels[0].loops[0];
  CHECK(loop.requestedII == 8);
  CHECK(loop.ii == 3 + 1);
  CHECK(program->report.find("II 4, set by the recurrence of 's'") != std::string::npos);
  // A longer II than the loop needs is not applied, with a warning that says why.
  CHECK(program->report.find("#pragma ii 8 ignored") != std::string::npos);
  CHECK_THAT(program->warnings, Catch::Contains("warning: '#pragma ii 8' is ignored: the loop runs at II 4"));

  auto exact = parse(accumulation(4));
  program = synthesize(*exact->module, dumps);
  REQUIRE_OK(program);
  CHECK(program->report.find("#pragma ii 4 met") != std::string::npos);
  CHECK(program->warnings.empty());

  auto unmet = parse(accumulation(1));
  auto failed = synthesize(*unmet->module, dumps);
  const std::string message = errorMessage(failed);
  CHECK(message.find("error: '#pragma ii 1' cannot be met: the loop's II is 4, set by the recurrence of 's'") !=
        std::string::npos);
}

namespace {

/// `sum += a[i]` in a single work-item kernel (or, `ndrange`, one per work-item), with the fast-math
/// flags `flags` on the add.
std::string floatSum(const std::string &flags, bool ndrange) {
  return std::string(R"(
define spir_kernel void @fsum(float addrspace(1)* %a, float addrspace(1)* %out, i32 %n) {
entry:
)") + (ndrange ? "  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
                 "  %o = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid\n"
               : "  %o = getelementptr inbounds float, float addrspace(1)* %out, i64 0\n") +
         R"(  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %p = getelementptr inbounds float, float addrspace(1)* %a, i32 %i
  %v = load float, float addrspace(1)* %p, align 4
  %sum = fadd )" + flags + R"( float %s, %v
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  %result = phi float [ 0.0, %entry ], [ %sum, %loop ]
  store float %result, float addrspace(1)* %o, align 4
  ret void
}
)";
}

} // namespace

TEST_CASE("a single work-item float reduction with fast math becomes interleaved partial sums") {
  std::map<std::string, std::string> dumps;
  auto fast = parse(floatSum("fast", false));
  auto program = synthesize(*fast->module, dumps);
  REQUIRE_OK(program);
  // The unit board's float add takes 3 cycles, plus the ring's register: 4 partial sums, each
  // iteration of the main loop takes 4 elements, in one 16-byte load (CombineAdjacentAccesses); a
  // remainder loop takes the rest.
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= load i128") == 1);
  CHECK(count(built, "= load i32") == 1);
  CHECK(count(built, "= fadd") >= 4 + 3 + 1);
  const auto &loops = program->kernels[0].loops;
  REQUIRE(loops.size() == 2);
  CHECK(loops[0].interleaved * loops[1].interleaved == 4);
  CHECK(program->report.find("4 elements an iteration (interleaved partial sums)") != std::string::npos);
  checkLintClean(program->verilog, "loom_kernel_fsum");

  // Without reassociation the sum keeps its order, and in an NDRange kernel other work-items fill
  // the ring: both stay one loop with one adder.
  for (auto [flags, ndrange] : {std::pair{"", false}, std::pair{"fast", true}}) {
    dumps.clear();
    auto kept = parse(floatSum(flags, ndrange));
    auto unchanged = synthesize(*kept->module, dumps);
    REQUIRE_OK(unchanged);
    CHECK(count(dumps["build-dataflow"], "= fadd") == 1);
    CHECK(unchanged->kernels[0].loops.size() == 1);
  }
}

TEST_CASE("atomics on global memory become atomic ports: operation, operands, old value, memory order") {
  std::map<std::string, std::string> dumps;
  const auto program = synthesizeOk(R"(
define spir_kernel void @atomics(i32 addrspace(1)* %bins, i64 addrspace(1)* %wide, i32 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %bin = and i64 %gid, 15
  %p = getelementptr inbounds i32, i32 addrspace(1)* %bins, i64 %bin
  %old = atomicrmw add i32 addrspace(1)* %p, i32 1 seq_cst, align 4
  %v = trunc i64 %gid to i32
  %min = atomicrmw umin i32 addrspace(1)* %bins, i32 %v monotonic, align 4
  %pair = cmpxchg i32 addrspace(1)* %bins, i32 %old, i32 %min seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  %big = atomicrmw max i64 addrspace(1)* %wide, i64 %gid monotonic, align 8
  %big32 = trunc i64 %big to i32
  %sum = add i32 %seen, %big32
  %r = select i1 %ok, i32 %sum, i32 0
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %r, i32 addrspace(1)* %q, align 4
  ret void
}
)",
                                    dumps);
  const auto &hw = program.kernels[0];
  REQUIRE(hw.ports.size() == 5);
  using Kind = hls::MemoryPort::Kind;
  using Op = hls::MemoryPort::AtomicOp;
  const std::pair<Op, unsigned> want[] = {{Op::Add, 4}, {Op::UMin, 4}, {Op::CmpXchg, 4}, {Op::Max, 8}};
  for (unsigned p = 0; p < 4; ++p) {
    CHECK(hw.ports[p].kind == Kind::Atomic);
    CHECK(hw.ports[p].op == want[p].first);
    CHECK(hw.ports[p].bytes == want[p].second);
  }
  CHECK(hw.ports[4].kind == Kind::Store);
  CHECK(hw.ports[2].comparesData());
  CHECK_FALSE(hw.ports[0].comparesData());

  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= atomic i32 add port=0") == 1);
  CHECK(count(built, "= atomic i32 cmpxchg port=2") == 1);
  CHECK(count(built, "= atomic i64 max port=3") == 1);
  // The cmpxchg's success flag is its old value compared with the expected one.
  CHECK(count(built, "= icmp i1 pred=32") == 1);
  // Memory order: each atomic may touch what the one before it wrote, so it waits for it (a token
  // operand beyond the address and operands); the umin waits for the add through a token.
  auto line = [&](const std::string &needle) {
    auto at = built.substr(built.find(needle));
    return at.substr(0, at.find('\n'));
  };
  CHECK(count(line("= atomic i32 umin"), "%") == 3);

  // The ports of the contract, and a clean lint.
  const auto &v = program.verilog;
  CHECK(v.find("m2_req_cmp") != std::string::npos);
  CHECK(v.find("m0_req_cmp") == std::string::npos);
  CHECK(v.find("m3_resp_rdata") != std::string::npos);
  CHECK(v.find("m0_req_wdata") != std::string::npos);
  checkLintClean(v, "loom_kernel_atomics");

  // The interface reads back from JSON with its operations.
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(hw), back, root));
  REQUIRE(back.ports.size() == 5);
  CHECK(back.ports[2].kind == Kind::Atomic);
  CHECK(back.ports[2].op == Op::CmpXchg);
  CHECK(back.ports[3].op == Op::Max);
  // An atomic port needs a known operation.
  for (const char *op : {"nand", ""}) {
    llvm::json::Value json = hls::toJSON(hw);
    auto &port = (*json.getAsObject()->getArray("ports"))[0];
    if (*op)
      (*port.getAsObject())["op"] = op;
    else
      port.getAsObject()->erase("op");
    llvm::json::Path::Root bad;
    CHECK_FALSE(hls::fromJSON(json, back, bad));
    CHECK_THAT(llvm::toString(bad.getError()), Catch::Contains("op"));
  }
}

TEST_CASE("an atomic port's operations on W-bit values") {
  using Op = hls::MemoryPort::AtomicOp;
  CHECK(hls::applyAtomic(Op::Add, 4, 0xffffffff, 1, 0) == 0);
  CHECK(hls::applyAtomic(Op::Sub, 8, 0, 1, 0) == ~uint64_t(0));
  CHECK(hls::applyAtomic(Op::Min, 4, 5, 0xfffffffe, 0) == 0xfffffffe); // -2 < 5
  CHECK(hls::applyAtomic(Op::UMin, 4, 5, 0xfffffffe, 0) == 5);
  CHECK(hls::applyAtomic(Op::Max, 2, 0x7fff, 0x8000, 0) == 0x7fff);
  CHECK(hls::applyAtomic(Op::UMax, 2, 0x7fff, 0x8000, 0) == 0x8000);
  CHECK(hls::applyAtomic(Op::Xchg, 1, 1, 0x1ff, 0) == 0xff);
  CHECK(hls::applyAtomic(Op::CmpXchg, 4, 7, 9, 7) == 9);
  CHECK(hls::applyAtomic(Op::CmpXchg, 4, 7, 9, 8) == 7);
  CHECK(hls::applyAtomic(Op::And, 4, 6, 3, 0) == 2);
  CHECK(hls::applyAtomic(Op::Or, 4, 6, 3, 0) == 7);
  CHECK(hls::applyAtomic(Op::Xor, 4, 6, 3, 0) == 5);
}

TEST_CASE("atomics on on-chip arrays are a read, the operation and a write of the array") {
  std::map<std::string, std::string> dumps;
  const auto program = synthesizeOk(R"(
@atomics_local.counts = internal addrspace(3) global [16 x i32] undef, align 4
define spir_kernel void @atomics_local(i32 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %bin = and i64 %gid, 15
  %p = getelementptr inbounds [16 x i32], [16 x i32] addrspace(3)* @atomics_local.counts, i64 0, i64 %bin
  %old = atomicrmw add i32 addrspace(3)* %p, i32 1 seq_cst, align 4
  %cell = alloca i32, align 4
  store i32 %old, i32* %cell, align 4
  %pair = cmpxchg i32* %cell, i32 0, i32 1 seq_cst seq_cst, align 4
  %v = extractvalue { i32, i1 } %pair, 0
  %q = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %v, i32 addrspace(1)* %q, align 4
  ret void
}
)",
                                    dumps);
  const auto &hw = program.kernels[0];
  REQUIRE(hw.ports.size() == 1); // The global store only.
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= ram_load i32 ram=counts") == 1);
  CHECK(count(built, "= ram_store ram=counts") == 1);
  CHECK(count(built, "= add i32") == 1);
  // The cmpxchg: old == compare chooses the new value.
  CHECK(count(built, "= icmp i1 pred=32") == 1);
  CHECK(count(built, "= select i32") == 1);
  CHECK(count(built, "work-items in flight: at most 1") == 1);
  checkLintClean(program.verilog, "loom_kernel_atomics_local");
}

TEST_CASE("in a loop, a lone global atomic carries no memory order; an on-chip one recurs through its array") {
  // One loop: an atomic add to a global counter (its only access of global memory but for the
  // restrict input) and an atomic add to a __local array.
  std::map<std::string, std::string> dumps;
  const auto program = synthesizeOk(R"(
@loops.bins = internal addrspace(3) global [4 x i32] undef, align 4
define spir_kernel void @loops(i32 addrspace(1)* noalias %in, i32 addrspace(1)* %counter, i32 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %k
  %v = load i32, i32 addrspace(1)* %p, align 4
  %g = atomicrmw add i32 addrspace(1)* %counter, i32 %v monotonic, align 4
  %bin = and i64 %k, 3
  %q = getelementptr inbounds [4 x i32], [4 x i32] addrspace(3)* @loops.bins, i64 0, i64 %bin
  %l = atomicrmw add i32 addrspace(3)* %q, i32 %v monotonic, align 4
  %next = add i64 %k, 1
  %n64 = zext i32 %n to i64
  %more = icmp slt i64 %next, %n64
  br i1 %more, label %loop, label %done
done:
  ret void
}
)",
                                    dumps);
  const auto &built = dumps["build-dataflow"];
  CHECK(count(built, "= atomic i32 add port=1") == 1);
  // One memory-order ring: the __local array's. The global atomic's port serves its requests in
  // order, so it needs none.
  CHECK(count(built, "= loop_mux (") == 1); // A data-less ring: memory order.
  REQUIRE(program.kernels[0].loops.size() == 1);
  CHECK(program.kernels[0].loops[0].boundBy == "memory order of bins");
  checkLintClean(program.verilog, "loom_kernel_loops");
}

TEST_CASE("unsupported atomics fail at their location") {
  SECTION("on __constant memory") {
    const std::string message = synthesisErrorAt(R"(
define spir_kernel void @atomics_constant(i32 addrspace(2)* %table, i32 addrspace(1)* %out) !dbg !5 {
entry:
  %old = atomicrmw add i32 addrspace(2)* %table, i32 1 seq_cst, align 4, !dbg !9
  store i32 %old, i32 addrspace(1)* %out, align 4
  ret void
}
)", "constant.cl");
    CHECK_THAT(message, Catch::Contains("constant.cl:4:3"));
    CHECK_THAT(message, Catch::Contains("atomics on __constant memory are not supported"));
  }
  SECTION("on a constant table") {
    const std::string message = synthesisErrorAt(R"(
@table = internal addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
define spir_kernel void @atomics_table(i32 addrspace(1)* %out) !dbg !5 {
entry:
  %slot = getelementptr inbounds [4 x i32], [4 x i32] addrspace(2)* @table, i64 0, i64 1
  %old = atomicrmw add i32 addrspace(2)* %slot, i32 1 seq_cst, align 4, !dbg !9
  store i32 %old, i32 addrspace(1)* %out, align 4
  ret void
}
)");
    CHECK_THAT(message, Catch::Contains("kernel.cl:4:3: error: an atomic on constant table 'table'"));
  }
  SECTION("a float add") {
    const std::string message = synthesisError(R"(
define spir_kernel void @atomics_fadd(float addrspace(1)* %out) {
entry:
  %old = atomicrmw fadd float addrspace(1)* %out, float 1.0 seq_cst, align 4
  ret void
}
)");
    CHECK_THAT(message, Catch::Contains("atomic operation 'fadd' is not supported"));
  }
}

TEST_CASE("streams become line ports where that is safe; gathers, loads after stores and awaited stores do not") {
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
define spir_kernel void @gather(float addrspace(1)* %a, i32 addrspace(1)* %idx, float addrspace(1)* %b,
                                float addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid
  %va = load float, float addrspace(1)* %pa, align 4
  %pi = getelementptr inbounds i32, i32 addrspace(1)* %idx, i64 %gid
  %i = load i32, i32 addrspace(1)* %pi, align 4
  %iw = sext i32 %i to i64
  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %iw
  %vb = load float, float addrspace(1)* %pb, align 4
  %sum = fadd float %va, %vb
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %sum, float addrspace(1)* %po, align 4
  ret void
}
define spir_kernel void @update(float addrspace(1)* %a, float addrspace(1)* %b) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid
  store float 1.0, float addrspace(1)* %pa, align 4
  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %gid
  %vb = load float, float addrspace(1)* %pb, align 4
  %pc = getelementptr inbounds float, float addrspace(1)* %a, i64 1
  store float %vb, float addrspace(1)* %pc, align 4
  ret void
}
define spir_kernel void @copy_loop(i32 addrspace(1)* noalias %in, i32 addrspace(1)* noalias %out, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %iw = zext i32 %i to i64
  %pin = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %iw
  %v = load i32, i32 addrspace(1)* %pin, align 4
  %pout = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %iw
  store i32 %v, i32 addrspace(1)* %pout, align 4
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
define spir_kernel void @guarded_store(i32 addrspace(1)* noalias %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %ready = icmp sge i32 %i, 15
  br i1 %ready, label %put, label %latch
put:
  %j = add nsw i32 %i, -15
  %jw = zext i32 %j to i64
  %pout = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %jw
  store i32 %i, i32 addrspace(1)* %pout, align 4
  br label %latch
latch:
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
define spir_kernel void @poll(i32 addrspace(1)* %flag, i32 addrspace(1)* noalias %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %f = load volatile i32, i32 addrspace(1)* %flag, align 4
  %iw = zext i32 %i to i64
  %pout = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %iw
  store volatile i32 %f, i32 addrspace(1)* %pout, align 4
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)",
                              dumps);
  REQUIRE(program.kernels.size() == 5);
  const auto &gather = program.kernels[0].ports;
  REQUIRE(gather.size() == 4);
  CHECK(gather[0].lines());  // a[gid]
  CHECK(gather[1].lines());  // idx[gid]
  CHECK(!gather[2].lines()); // b[idx[gid]]: a gather
  CHECK(gather[2].bytes == 4);
  CHECK(gather[3].lines());  // out[gid]: nothing waits for it
  CHECK(gather[3].strobes());
  CHECK(hls::describeKind(gather[0]) == "load of 4-byte elements in 8-byte lines");
  // b may alias a: the load waits for the work-item's store to a, which it would otherwise read
  // around through a line fetched earlier; the store to a[gid] is awaited by that load.
  const auto &update = program.kernels[1].ports;
  REQUIRE(update.size() == 3);
  CHECK(!update[0].lines());
  CHECK(!update[1].lines());
  CHECK(update[2].lines()); // a[1]: every work-item stores to the same line, which one write serves
  const auto &loop = program.kernels[2].ports;
  REQUIRE(loop.size() == 2);
  CHECK(loop[0].lines()); // consecutive iterations, restrict arguments
  CHECK(loop[1].lines());
  // out[i - 15] once i >= 15 (a FIR's output): Clang's zero extension of a recurrence from -15,
  // which LLVM cannot fold into a recurrence of the extended index, is consecutive still.
  REQUIRE(program.kernels[3].ports.size() == 1);
  CHECK(program.kernels[3].ports[0].lines());
  // Volatile accesses are requests of their own every time: another kernel or the host may change
  // *flag between two polls, which a line kept in the port would hide.
  REQUIRE(program.kernels[4].ports.size() == 2);
  CHECK(!program.kernels[4].ports[0].lines());
  CHECK(!program.kernels[4].ports[1].lines());
  CHECK(dumps["coalesce-memory-lines"].find("stream lines=8") != std::string::npos);
  CHECK(dumps["build-dataflow"].find("lines=") == std::string::npos);

  // The line ports' JSON form travels in the binary and reads back.
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(program.kernels[0]), back, root));
  REQUIRE(back.ports.size() == 4);
  CHECK(back.ports[0].lines());
  CHECK(back.ports[0].elementBytes == 4);
  CHECK(!back.ports[2].lines());
  checkLintClean(program.verilog, "loom_kernel_gather");
  checkLintClean(program.verilog, "loom_kernel_copy_loop");
}

TEST_CASE("a vector of global memory is one wide port; a private vector array is accessed per lane") {
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
define spir_kernel void @scale4(<4 x float> addrspace(1)* %in, <4 x float> addrspace(1)* %out, float %k) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pin = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %in, i64 %gid
  %v = load <4 x float>, <4 x float> addrspace(1)* %pin, align 16
  %ks = insertelement <4 x float> undef, float %k, i32 0
  %kv = shufflevector <4 x float> %ks, <4 x float> undef, <4 x i32> zeroinitializer
  %r = fmul <4 x float> %v, %kv
  %pout = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %out, i64 %gid
  store <4 x float> %r, <4 x float> addrspace(1)* %pout, align 16
  ret void
}
define spir_kernel void @three(<3 x i32> addrspace(1)* %io) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds <3 x i32>, <3 x i32> addrspace(1)* %io, i64 %gid
  %v = load <3 x i32>, <3 x i32> addrspace(1)* %p, align 16
  %r = add <3 x i32> %v, <i32 1, i32 2, i32 3>
  store <3 x i32> %r, <3 x i32> addrspace(1)* %p, align 16
  ret void
}
)",
                              dumps);
  REQUIRE(program.kernels.size() == 2);
  const auto &wide = program.kernels[0].ports;
  REQUIRE(wide.size() == 2);
  CHECK(wide[0].bytes == 16);
  CHECK(wide[1].bytes == 16);
  CHECK(!wide[0].lines()); // already wider than the unit board's 8-byte line
  CHECK(count(dumps["build-dataflow"], "= load i128") == 1);
  CHECK(count(dumps["build-dataflow"], "= fmul i32") == 4);
  CHECK(count(dumps["build-dataflow"], "= insert_lane i128") == 4);
  // Three lanes are no power-of-two access: one port per lane, 16 bytes apart from one work-item to
  // the next (a float3 takes 16), so no stream.
  const auto &lanes = program.kernels[1].ports;
  REQUIRE(lanes.size() == 6);
  for (const auto &port : lanes) {
    CHECK(port.bytes == 4);
    CHECK(!port.lines());
  }
  checkLintClean(program.verilog, "loom_kernel_scale4");
}

TEST_CASE("neighbouring scalar accesses combine into one wide access; a store between loads keeps them apart, "
          "a private one does not") {
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
define spir_kernel void @unrolled(float addrspace(1)* noalias %in, float addrspace(1)* noalias %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %gid, 2
  %i1 = or i64 %base, 1
  %i2 = or i64 %base, 2
  %i3 = or i64 %base, 3
  %p1 = getelementptr inbounds float, float addrspace(1)* %in, i64 %i1
  %v1 = load float, float addrspace(1)* %p1, align 4
  %p0 = getelementptr inbounds float, float addrspace(1)* %in, i64 %base
  %v0 = load float, float addrspace(1)* %p0, align 16
  %p3 = getelementptr inbounds float, float addrspace(1)* %in, i64 %i3
  %v3 = load float, float addrspace(1)* %p3, align 4
  %p2 = getelementptr inbounds float, float addrspace(1)* %in, i64 %i2
  %v2 = load float, float addrspace(1)* %p2, align 8
  %s0 = fadd float %v0, %v1
  %s1 = fadd float %v2, %v3
  %q0 = getelementptr inbounds float, float addrspace(1)* %out, i64 %base
  store float %s0, float addrspace(1)* %q0, align 16
  %q1 = getelementptr inbounds float, float addrspace(1)* %out, i64 %i1
  store float %s1, float addrspace(1)* %q1, align 4
  ret void
}
define spir_kernel void @apart(float addrspace(1)* %in, float addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %gid, 1
  %i1 = or i64 %base, 1
  %p0 = getelementptr inbounds float, float addrspace(1)* %in, i64 %base
  %v0 = load float, float addrspace(1)* %p0, align 8
  %q = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %v0, float addrspace(1)* %q, align 4
  %p1 = getelementptr inbounds float, float addrspace(1)* %in, i64 %i1
  %v1 = load float, float addrspace(1)* %p1, align 4
  store float %v1, float addrspace(1)* %q, align 4
  ret void
}
define spir_kernel void @staged(float addrspace(1)* noalias %in, float addrspace(1)* noalias %out) {
entry:
  %stage = alloca [2 x float], align 4
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %gid, 1
  %i1 = or i64 %base, 1
  %p0 = getelementptr inbounds float, float addrspace(1)* %in, i64 %base
  %v0 = load float, float addrspace(1)* %p0, align 8
  %s0 = getelementptr inbounds [2 x float], [2 x float]* %stage, i64 0, i64 0
  store float %v0, float* %s0, align 4
  call void @llvm.experimental.noalias.scope.decl(metadata !0)
  %p1 = getelementptr inbounds float, float addrspace(1)* %in, i64 %i1
  %v1 = load float, float addrspace(1)* %p1, align 4
  %s1 = getelementptr inbounds [2 x float], [2 x float]* %stage, i64 0, i64 1
  store float %v1, float* %s1, align 4
  %w0 = load float, float* %s0, align 4
  %w1 = load float, float* %s1, align 4
  %sum = fadd float %w0, %w1
  %q = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %sum, float addrspace(1)* %q, align 4
  ret void
}
declare void @llvm.experimental.noalias.scope.decl(metadata)
!0 = !{!1}
!1 = distinct !{!1, !2}
!2 = distinct !{!2}
)",
                              dumps);
  REQUIRE(program.kernels.size() == 3);
  const auto &unrolled = program.kernels[0].ports;
  REQUIRE(unrolled.size() == 2);
  CHECK(unrolled[0].kind == hls::MemoryPort::Kind::Load);
  CHECK(unrolled[0].bytes == 16); // in[4 gid .. 4 gid + 3], loaded in any order
  CHECK(unrolled[1].kind == hls::MemoryPort::Kind::Store);
  CHECK(unrolled[1].bytes == 8); // out[4 gid], out[4 gid + 1]
  // `out` may alias `in`: the store between the loads could change in[2 gid + 1].
  CHECK(program.kernels[1].ports.size() == 4);
  // Private stores and an alias scope's declaration touch no global memory: the loads of `in` still
  // combine past them.
  const auto &staged = program.kernels[2].ports;
  REQUIRE(staged.size() == 2);
  CHECK(staged[0].bytes == 8);
  checkLintClean(program.verilog, "loom_kernel_unrolled");
}

TEST_CASE("a constant table's neighbouring or vector reads stay reads of its elements") {
  // Four neighbours at a variable base once combined into one 16-byte ROM word (its contents are
  // words of at most 8 bytes: the high half ORed into the low one, tbl[4] | tbl[6] for base 4); a
  // vector read of the table's rows gave it two element sizes.
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
@tbl = internal addrspace(2) constant [8 x i32] [i32 1, i32 2, i32 4, i32 8, i32 16, i32 32, i32 64, i32 128], align 16
define spir_kernel void @neighbours(i32 addrspace(1)* noalias %w, i32 addrspace(1)* noalias %out) {
entry:
  %base = load i32, i32 addrspace(1)* %w, align 4
  %i0 = sext i32 %base to i64
  %i1 = add nsw i64 %i0, 1
  %i2 = add nsw i64 %i0, 2
  %i3 = add nsw i64 %i0, 3
  %p0 = getelementptr inbounds [8 x i32], [8 x i32] addrspace(2)* @tbl, i64 0, i64 %i0
  %v0 = load i32, i32 addrspace(2)* %p0, align 4
  %p1 = getelementptr inbounds [8 x i32], [8 x i32] addrspace(2)* @tbl, i64 0, i64 %i1
  %v1 = load i32, i32 addrspace(2)* %p1, align 4
  %p2 = getelementptr inbounds [8 x i32], [8 x i32] addrspace(2)* @tbl, i64 0, i64 %i2
  %v2 = load i32, i32 addrspace(2)* %p2, align 4
  %p3 = getelementptr inbounds [8 x i32], [8 x i32] addrspace(2)* @tbl, i64 0, i64 %i3
  %v3 = load i32, i32 addrspace(2)* %p3, align 4
  %s01 = or i32 %v0, %v1
  %s23 = or i32 %v2, %v3
  %s = or i32 %s01, %s23
  store i32 %s, i32 addrspace(1)* %out, align 4
  ret void
}
define spir_kernel void @rows(i32 addrspace(1)* noalias %w, <4 x i32> addrspace(1)* noalias %out) {
entry:
  %row = load i32, i32 addrspace(1)* %w, align 4
  %r = sext i32 %row to i64
  %e = shl nsw i64 %r, 2
  %scalar = getelementptr inbounds [8 x i32], [8 x i32] addrspace(2)* @tbl, i64 0, i64 %r
  %first = load i32, i32 addrspace(2)* %scalar, align 4
  %element = getelementptr inbounds [8 x i32], [8 x i32] addrspace(2)* @tbl, i64 0, i64 %e
  %p = bitcast i32 addrspace(2)* %element to <4 x i32> addrspace(2)*
  %v = load <4 x i32>, <4 x i32> addrspace(2)* %p, align 16
  %splat = insertelement <4 x i32> undef, i32 %first, i32 0
  %sum = add <4 x i32> %v, %splat
  store <4 x i32> %sum, <4 x i32> addrspace(1)* %out, align 16
  ret void
}
)",
                              dumps);
  REQUIRE(program.kernels.size() == 2);
  const auto &built = dumps["build-dataflow"];
  CHECK_THAT(built, Catch::Contains("rom tbl: 8 x 4 bytes"));
  CHECK(count(built, "= ram_load i32 ram=tbl") == 4 + 5);
  CHECK(count(built, "= ram_load i128") == 0);
  for (const auto &kernel : program.kernels)
    CHECK(kernel.ports.size() == 2); // the table takes no global memory port
  checkLintClean(program.verilog, "loom_kernel_neighbours");
  checkLintClean(program.verilog, "loom_kernel_rows");
}

TEST_CASE("num_simd_work_items: lanes of consecutive work-items, unordered, their accesses combined") {
  // a[i] = b[i] * 3 + get_local_id(0), with pointers that may alias: within a work-item the store
  // waits for the load, but the lanes are different work-items, so their loads combine (and their
  // stores) into one wide access each.
  const std::string kernel = R"(
declare spir_func i64 @_Z12get_local_idj(i32)
define spir_kernel void @lanes(i32 addrspace(1)* %b, i32 addrspace(1)* %a) !loom.vendor_attributes !0 {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %pb = getelementptr inbounds i32, i32 addrspace(1)* %b, i64 %gid
  %vb = load i32, i32 addrspace(1)* %pb, align 4
  %times = mul i32 %vb, 3
  %lid32 = trunc i64 %lid to i32
  %v = add i32 %times, %lid32
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  store i32 %v, i32 addrspace(1)* %pa, align 4
  ret void
}
)";
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(kernel + "!0 = !{!\"num_simd_work_items(4)\"}\n", dumps);
  const auto &ports = program.kernels[0].ports;
  REQUIRE(ports.size() == 2);
  CHECK(ports[0].kind == hls::MemoryPort::Kind::Load);
  CHECK(ports[0].bytes == 16);
  CHECK(ports[1].kind == hls::MemoryPort::Kind::Store);
  CHECK(ports[1].bytes == 16);
  CHECK(dumps["build-dataflow"].find("work-items a token: 4 consecutive along dimension 0") != std::string::npos);
  // The generator and the completion count step dimension 0 by the lanes.
  CHECK(program.verilog.find("loom_workitems #(.LIMIT(0), .SLOT_BITS(1), .STEP0(4), .INTERLEAVED(0))") != std::string::npos);
  CHECK(program.verilog.find("loom_completion #(.STEP0(4))") != std::string::npos);
  checkLintClean(program.verilog, "loom_kernel_lanes");

  // One lane: one work-item a token, scalar ports.
  std::map<std::string, std::string> scalarDumps;
  auto scalar = synthesizeOk(kernel + "!0 = !{!\"num_simd_work_items(1)\"}\n", scalarDumps);
  REQUIRE(scalar.kernels[0].ports.size() == 2);
  CHECK(scalar.kernels[0].ports[0].elementBytes == 4); // a stream of 4-byte elements
  CHECK(scalarDumps["build-dataflow"].find("work-items a token") == std::string::npos);
}

TEST_CASE("num_compute_units: copies of the kernel's hardware, each with its ports and its part of the range") {
  // out[gid] = a[gid] + get_global_size(0), over a private array indexed at run time.
  const std::string kernel = R"(
define spir_kernel void @units(i32 addrspace(1)* noalias %a, i32 addrspace(1)* noalias %out) !loom.vendor_attributes !0 {
entry:
  %copy = alloca [4 x i32], align 4
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %size = call spir_func i64 @_Z15get_global_sizej(i32 0)
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %va = load i32, i32 addrspace(1)* %pa, align 4
  %slot = and i64 %gid, 3
  %pc = getelementptr inbounds [4 x i32], [4 x i32]* %copy, i64 0, i64 %slot
  store i32 %va, i32* %pc, align 4
  %back = load i32, i32* %pc, align 4
  %size32 = trunc i64 %size to i32
  %v = add i32 %back, %size32
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %v, i32 addrspace(1)* %po, align 4
  ret void
}
)";
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(kernel + "!0 = !{!\"num_compute_units(3)\"}\n", dumps);
  REQUIRE(program.kernels.size() == 1);
  const hls::HardwareKernel &units = program.kernels[0];
  CHECK(units.computeUnits == 3);
  CHECK(units.numArgs == 2 + 3 * hls::ComputeUnitShareArgs);
  REQUIRE(units.ports.size() == 6); // unit u's load and store are ports 2u and 2u + 1
  for (unsigned u = 0; u < 3; ++u) {
    CHECK(units.ports[2 * u].kind == hls::MemoryPort::Kind::Load);
    CHECK(units.ports[2 * u + 1].kind == hls::MemoryPort::Kind::Store);
  }
  CHECK(dumps["build-dataflow"].find("compute units: 3 copies of this graph") != std::string::npos);
  CHECK(program.report.find("in 3 compute units") != std::string::npos);
  CHECK(program.report.find("unit u's port p is port 2 * u + p") != std::string::npos);
  // The unit's generator and completion count its part; get_global_size reads the NDRange.
  CHECK(program.verilog.find("module loom_kernel_units_unit") != std::string::npos);
  CHECK(program.verilog.find(".offset0(unit_offset_0)") != std::string::npos);
  CHECK(program.verilog.find(".size0(unit_size_0)") != std::string::npos);
  CHECK(program.verilog.find("loom_kernel_units_unit unit2") != std::string::npos);
  // Unit 2's size_2 and skip_0: arguments 2 + 12 * 2 + 3 * field + d.
  CHECK(program.verilog.find(".unit_size_2(arg_31)") != std::string::npos);
  CHECK(program.verilog.find(".unit_skip_0(arg_35)") != std::string::npos);
  // The units take turns at the work-groups: the generator skips the others' blocks.
  CHECK(program.verilog.find(".INTERLEAVED(1)") != std::string::npos);
  CHECK(program.verilog.find(".block0(unit_block_0)") != std::string::npos);
  CHECK(program.verilog.find(".skip1(unit_skip_1)") != std::string::npos);
  CHECK(program.verilog.find(".m1_req_valid(m5_req_valid)") != std::string::npos);
  checkLintClean(program.verilog, "loom_kernel_units");

  // The JSON form keeps the units, and refuses ports the units cannot share.
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(units), back, root));
  CHECK(back.computeUnits == 3);
  llvm::json::Value odd = hls::toJSON(units);
  (*odd.getAsObject())["compute_units"] = 4;
  CHECK_FALSE(hls::fromJSON(odd, back, root));

  // One unit: the kernel's own module, no share arguments.
  auto single = synthesizeOk(kernel + "!0 = !{!\"num_compute_units(1)\"}\n", dumps);
  CHECK(single.kernels[0].computeUnits == 1);
  CHECK(single.kernels[0].numArgs == 2);
  CHECK(single.verilog.find("loom_kernel_units_unit") == std::string::npos);
}

namespace {
/// The global ids unit `u` of a launch runs, as loom_workitems (INTERLEAVED) enumerates its share.
std::vector<std::array<uint64_t, 3>> unitWorkItems(const std::vector<uint64_t> &shares, unsigned u) {
  const uint64_t *share = shares.data() + hls::ComputeUnitShareArgs * u;
  auto dimension = [&](unsigned d) {
    std::vector<uint64_t> ids;
    for (uint64_t k = 0, gid = share[d]; k < share[3 + d]; ++k, ++gid) {
      ids.push_back(gid);
      if ((k + 1) % share[6 + d] == 0)
        gid += share[9 + d];
    }
    return ids;
  };
  std::vector<std::array<uint64_t, 3>> items;
  for (uint64_t z : dimension(2))
    for (uint64_t y : dimension(1))
      for (uint64_t x : dimension(0))
        items.push_back({x, y, z});
  return items;
}
} // namespace

TEST_CASE("computeUnitShares deals out the work-groups in turns") {
  auto shares = [](unsigned units, unsigned dims, std::array<uint64_t, 3> offset, std::array<uint64_t, 3> global,
                   std::array<uint64_t, 3> local) {
    const std::vector<uint64_t> args = hls::computeUnitShares(units, dims, offset, global, local);
    // Whatever the layout: every work-item of the range once, whole work-groups to a unit.
    std::map<std::array<uint64_t, 3>, unsigned> owner;
    for (unsigned u = 0; u < units && !args.empty(); ++u)
      for (const auto &gid : unitWorkItems(args, u)) {
        CHECK(owner.count(gid) == 0);
        owner[gid] = u;
      }
    if (!args.empty()) {
      CHECK(owner.size() == global[0] * global[1] * global[2]);
      for (const auto &[gid, unit] : owner)
        for (unsigned d = 0; d < 3; ++d) {
          CHECK(gid[d] >= offset[d]);
          CHECK(gid[d] < offset[d] + global[d]);
          auto groupStart = gid;
          groupStart[d] -= (gid[d] - offset[d]) % local[d];
          CHECK(owner[groupStart] == unit);
        }
    }
    return args;
  };
  CHECK(shares(1, 1, {0, 0, 0}, {100, 1, 1}, {10, 1, 1}).empty());
  // 1D: 20 groups of 50 for 3 units, in turns: 7, 7, 6 groups; unused dimensions offset 0, size 1.
  // A unit: offset_0..2, size_0..2, block_0..2, skip_0..2.
  const std::vector<uint64_t> unit0{5, 0, 0, 350, 1, 1, 50, 1, 1, 100, 0, 0};
  const std::vector<uint64_t> evenly = shares(3, 1, {5, 0, 0}, {1000, 1, 1}, {50, 1, 1});
  CHECK(std::vector<uint64_t>(evenly.begin(), evenly.begin() + 12) == unit0);
  CHECK(evenly[12] == 55);
  CHECK(evenly[15] == 350);
  CHECK(evenly[24] == 105);
  CHECK(evenly[27] == 300);
  // A partial last group (21 groups, the last of 10 work-items), which unit 2 gets.
  const std::vector<uint64_t> partial = shares(3, 1, {0, 0, 0}, {1010, 1, 1}, {50, 1, 1});
  CHECK(partial[27] == 310);
  CHECK(unitWorkItems(partial, 2).back() == std::array<uint64_t, 3>{1009, 0, 0});
  // 2D: 5 x 6 groups: dimension 1 splits, rows of groups in turns; dimension 0 stays whole.
  CHECK(shares(2, 2, {3, 2, 0}, {40, 24, 1}, {8, 4, 1}) ==
        std::vector<uint64_t>{3, 2, 0, 40, 12, 1, 40, 4, 1, 0, 4, 0, 3, 6, 0, 40, 12, 1, 40, 4, 1, 0, 4, 0});
  // Small groups along dimension 0 take turns in blocks of 16 work-items: 4 groups of 4.
  const std::vector<uint64_t> small = shares(2, 1, {0, 0, 0}, {256, 1, 1}, {4, 1, 1});
  CHECK(small[6] == 16);
  CHECK(small[9] == 16);
  CHECK(small[3] == 128);
  // Unless the units would not all get one: 12 groups of one (a kernel with barriers) for 3 units.
  const std::vector<uint64_t> few = shares(3, 1, {0, 0, 0}, {12, 1, 1}, {1, 1, 1});
  CHECK(few[6] == 4);
  CHECK(few[3] == 4);
  // More units than groups: the last ones get nothing.
  const std::vector<uint64_t> idle = shares(4, 1, {0, 0, 0}, {16, 1, 1}, {8, 1, 1});
  CHECK(idle[3] == 8);
  CHECK(idle[15] == 8);
  CHECK(idle[27] == 0);
  CHECK(idle[39] == 0);
}

TEST_CASE("OpenCL C 2.0 generic pointers become the memory they point into; to_global is answered from it") {
  // A global pointer cast to generic (a helper's `float *` parameter, inlined) is a global port; one
  // that may point into two spaces stays generic, an error at its access.
  const std::string kernel = R"(
define spir_kernel void @generic(float addrspace(1)* %a, float addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid
  %generic = addrspacecast float addrspace(1)* %pa to float addrspace(4)*
  %v = load float, float addrspace(4)* %generic, align 4
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  %to = addrspacecast float addrspace(1)* %po to float addrspace(4)*
  store float %v, float addrspace(4)* %to, align 4
  ret void
}
)";
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(kernel, dumps);
  REQUIRE(program.kernels[0].ports.size() == 2);
  CHECK(program.kernels[0].ports[0].kind == hls::MemoryPort::Kind::Load);
  CHECK(program.kernels[0].ports[1].kind == hls::MemoryPort::Kind::Store);
  // Volatile accesses too, which LLVM's pass leaves generic (atomic_init on a __global object is a
  // volatile store through a generic pointer).
  const std::string volatiles =
      withLineReplaced(withLineReplaced(kernel, "  %v = load float, float addrspace(4)* %generic, align 4\n",
                                        "  %v = load volatile float, float addrspace(4)* %generic, align 4\n"),
                       "  store float %v, float addrspace(4)* %to, align 4\n",
                       "  store volatile float %v, float addrspace(4)* %to, align 4\n");
  program = synthesizeOk(volatiles, dumps);
  REQUIRE(program.kernels[0].ports.size() == 2);
  CHECK(program.kernels[0].ports[0].kind == hls::MemoryPort::Kind::Load);
  CHECK(program.kernels[0].ports[1].kind == hls::MemoryPort::Kind::Store);

  const std::string either =
      withLineReplaced(kernel, "  %generic = addrspacecast float addrspace(1)* %pa to float addrspace(4)*\n",
                       "  %g1 = addrspacecast float addrspace(1)* %pa to float addrspace(4)*\n"
                       "  %private = alloca float, align 4\n"
                       "  store float 1.0, float* %private, align 4\n"
                       "  %g0 = addrspacecast float* %private to float addrspace(4)*\n"
                       "  %odd = trunc i64 %gid to i1\n"
                       "  %generic = select i1 %odd, float addrspace(4)* %g1, float addrspace(4)* %g0\n");
  CHECK_THAT(synthesisError(either), Catch::Contains("address space is not supported"));

  // to_global (Clang's call takes and gives i8 pointers) is answered from the space the pointer comes
  // from: through its answer, the global pointer is a store port. A pointer a loop chooses is known
  // only at run time: an error at the question.
  const std::string asked = withLineReplaced(
      kernel + "declare spir_func i8 addrspace(1)* @__to_global(i8 addrspace(4)*)\n",
      "  %to = addrspacecast float addrspace(1)* %po to float addrspace(4)*\n",
      "  %bytes = bitcast float addrspace(1)* %po to i8 addrspace(1)*\n"
      "  %asked = addrspacecast i8 addrspace(1)* %bytes to i8 addrspace(4)*\n"
      "  %global = call spir_func i8 addrspace(1)* @__to_global(i8 addrspace(4)* %asked)\n"
      "  %back = bitcast i8 addrspace(1)* %global to float addrspace(1)*\n"
      "  %to = addrspacecast float addrspace(1)* %back to float addrspace(4)*\n");
  program = synthesizeOk(asked, dumps);
  REQUIRE(program.kernels[0].ports.size() == 2);
  CHECK(program.kernels[0].ports[1].kind == hls::MemoryPort::Kind::Store);
  const std::string chosen =
      withLineReplaced(asked, "  %asked = addrspacecast i8 addrspace(1)* %bytes to i8 addrspace(4)*\n",
                       "  %start = addrspacecast i8 addrspace(1)* %bytes to i8 addrspace(4)*\n"
                       "  %slot = alloca i8, align 1\n"
                       "  %own = addrspacecast i8* %slot to i8 addrspace(4)*\n"
                       "  br label %loop\n"
                       "loop:\n"
                       "  %asked = phi i8 addrspace(4)* [ %start, %entry ], [ %own, %loop ]\n"
                       "  %k = phi i64 [ 0, %entry ], [ %next, %loop ]\n"
                       "  %next = add i64 %k, 1\n"
                       "  %again = icmp ult i64 %next, %gid\n"
                       "  br i1 %again, label %loop, label %done\n"
                       "done:\n");
  CHECK_THAT(synthesisError(chosen),
             Catch::Contains("error: to_global of a generic pointer whose address space is not known at compile time"));
}

TEST_CASE("a kernel with barriers runs whole work-groups: region loops, per-work-item storage") {
  const std::string kernel = R"(
declare spir_func void @_Z7barrierj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
@tile = internal addrspace(3) global [64 x i32] undef, align 4
define spir_kernel void @reverse(i32 addrspace(1)* %a, i32 addrspace(1)* %out) REQD {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %pa, align 4
  %twice = shl i32 %v, 1
  %slot = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @tile, i64 0, i64 %lid
  store i32 %v, i32 addrspace(3)* %slot, align 4
  call spir_func void @_Z7barrierj(i32 1)
  %mirror = sub i64 63, %lid
  %other = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @tile, i64 0, i64 %mirror
  %w = load i32, i32 addrspace(3)* %other, align 4
  %sum = add i32 %w, %twice
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %sum, i32 addrspace(1)* %po, align 4
  ret void
}
)";
  auto withSize = [&](const std::string &reqd) {
    std::string body = kernel;
    body.replace(body.find("REQD"), 4, reqd);
    return body;
  };
  SECTION("any group size up to the default, the value kept across the barrier in an array of them") {
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(withSize(""), dumps);
    const auto &hw = program.kernels[0];
    CHECK(hw.workGroupLoops);
    CHECK(hw.maxGroupItems == hls::MaxWorkGroupLoopItems);
    CHECK(hw.workGroupArgs); // the real local sizes
    hls::HardwareKernel back;
    llvm::json::Path::Root root;
    REQUIRE(fromJSON(hls::toJSON(hw), back, root));
    CHECK(back.workGroupLoops);
    CHECK(back.maxGroupItems == hw.maxGroupItems);
    CHECK(program.report.find("barriers: runs a work-group of up to 256 work-items per invocation") != std::string::npos);
    // The region loop and the loops over the local ids; the region loop keeps memory order.
    const auto &built = dumps["build-dataflow"];
    CHECK(count(built, "= loop_control") >= 2);
    bool regionLoopOrdered = false, itemLoopParallel = false;
    for (const auto &loop : hw.loops) {
      if (loop.depth == 1)
        regionLoopOrdered = !loop.ivdep && loop.innerLoopsWaitFor.find("memory") != std::string::npos;
      if (loop.depth > 1)
        itemLoopParallel = itemLoopParallel || loop.ivdep;
    }
    CHECK(regionLoopOrdered);
    CHECK(itemLoopParallel);
    CHECK(hw.pipelineDepth < 1000); // the region loop's values pass through the item loops
    checkLintClean(program.verilog, "loom_kernel_reverse");
  }
  SECTION("restrict arguments keep the work-items of a region unordered") {
    // Inlining a function with noalias arguments declares their scopes in the loop over the work-items.
    std::string body = withSize("");
    for (const std::string argument : {"%a,", "%out)"})
      body.replace(body.find("* " + argument), 2, "* noalias ");
    REQUIRE(count(body, "noalias %") == 2);
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(body, dumps);
    for (const auto &loop : program.kernels[0].loops) {
      CHECK(loop.overWorkItems == (loop.depth > 1));
      if (loop.depth > 1) {
        CHECK(loop.ivdep);
        CHECK(loop.ii == 1);
      }
    }
    CHECK(program.report.find("work-items between barriers: no memory order between them") != std::string::npos);
    CHECK(program.report.find("#pragma ivdep") == std::string::npos);
    hls::HardwareKernel back;
    llvm::json::Path::Root root;
    REQUIRE(fromJSON(hls::toJSON(program.kernels[0]), back, root));
    CHECK(back.loops.back().overWorkItems);
  }
  SECTION("a work-item's neighbouring loads combine; the work-items stay unordered") {
    // A pair of neighbours a work-item (one 8-byte access after combine-adjacent-accesses), which
    // must keep the access group that makes the loops over the work-items parallel.
    std::string body = withSize("");
    const std::string single = "  %v = load i32, i32 addrspace(1)* %pa, align 4\n";
    REQUIRE(body.find(single) != std::string::npos);
    body.replace(body.find(single), single.size(),
                 "  %pb = getelementptr inbounds i32, i32 addrspace(1)* %pa, i64 1\n"
                 "  %pair = getelementptr inbounds i32, i32 addrspace(1)* %pa, i64 %gid\n"
                 "  %e = load i32, i32 addrspace(1)* %pair, align 4\n"
                 "  %pairb = getelementptr inbounds i32, i32 addrspace(1)* %pb, i64 %gid\n"
                 "  %o = load i32, i32 addrspace(1)* %pairb, align 4\n"
                 "  %v = add i32 %e, %o\n");
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(body, dumps);
    const auto &hw = program.kernels[0];
    CHECK(llvm::any_of(hw.ports, [](const hls::MemoryPort &port) {
      return port.kind == hls::MemoryPort::Kind::Load && port.bytes == 8;
    }));
    for (const auto &loop : hw.loops)
      if (loop.depth > 1)
        CHECK(loop.ivdep);
  }
  SECTION("compute units each run a share of the work-groups") {
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(withSize("!loom.vendor_attributes !1") + "!1 = !{!\"num_compute_units(2)\"}\n", dumps);
    const auto &hw = program.kernels[0];
    CHECK(hw.workGroupLoops);
    CHECK(hw.computeUnits == 2);
    checkLintClean(program.verilog, "loom_kernel_reverse");
  }
  SECTION("num_simd_work_items: lanes in the loops over the work-items, one invocation a token") {
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(withSize("!loom.vendor_attributes !1") + "!1 = !{!\"num_simd_work_items(4)\"}\n", dumps);
    CHECK(program.kernels[0].workGroupLoops);
    CHECK_THAT(program.report, Catch::Contains("as loops over its work-items, 4 an iteration (num_simd_work_items)"));
    // The work-item generator still steps by one invocation.
    CHECK_THAT(dumps["build-dataflow"], !Catch::Contains("work-items a token"));
    // The lanes share the per-work-item storage: one array for the value kept across the barrier.
    CHECK(count(dumps["build-dataflow"], "ram ") == 2);
    checkLintClean(program.verilog, "loom_kernel_reverse");
  }
  SECTION("reqd_work_group_size sizes the storage and the loops") {
    const std::string reqd = "!reqd_work_group_size !0";
    const std::string sizes = "!0 = !{i32 64, i32 1, i32 1}\n";
    // OpenCL C 1.x: every group is whole, so the loops' bounds are constants and the launch passes no
    // sizes; the next group's loops overlap this one's.
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(withSize(reqd) + sizes, dumps);
    CHECK(program.kernels[0].maxGroupItems == 64);
    CHECK_FALSE(program.kernels[0].workGroupArgs);
    auto differ = [](const hls::HardwareKernel &hw) {
      return llvm::any_of(hw.loops, [](const hls::LoopReport &loop) {
        return loop.innerLoopsWaitFor.find("may differ between them") != std::string::npos;
      });
    };
    CHECK_FALSE(differ(program.kernels[0]));
    hls::HardwareKernel back;
    llvm::json::Path::Root root;
    CHECK(fromJSON(hls::toJSON(program.kernels[0]), back, root));
    CHECK(back.maxGroupItems == 64);
    // OpenCL C 2.0 without -cl-uniform-work-group-size: a partial last group's size is the launch's,
    // but its loops run the enqueued size all the same, skipping the work-items it lacks, so the
    // groups' loops still overlap.
    std::map<std::string, std::string> partialDumps;
    auto partial = synthesizeOk(withSize("#0 " + reqd) + sizes + "attributes #0 = { \"uniform-work-group-size\"=\"false\" }\n",
                                partialDumps);
    CHECK(partial.kernels[0].workGroupArgs);
    CHECK_FALSE(differ(partial.kernels[0]));
    checkLintClean(partial.verilog, "loom_kernel_reverse");
  }
  SECTION("a bad JSON: work-group loops without a group size") {
    hls::HardwareKernel hw;
    hw.kernelName = hw.topModule = "k";
    hw.workGroupLoops = true;
    hw.maxGroupItems = 0;
    hls::HardwareKernel back;
    llvm::json::Path::Root root;
    CHECK_FALSE(fromJSON(hls::toJSON(hw), back, root));
  }
}

TEST_CASE("a value the same in every work-item stays in registers across barriers") {
  // The loop counter is the same in every work-item of the group: kept once per invocation, not in
  // an array over its work-items as w is.
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
declare spir_func void @_Z7barrierj(i32)
define spir_kernel void @rounds(i32 addrspace(1)* noalias %a, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %partner = xor i64 %gid, 1
  %q = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %partner
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %v = load i32, i32 addrspace(1)* %p, align 4
  %w = add i32 %v, %i
  call spir_func void @_Z7barrierj(i32 2)
  store i32 %w, i32 addrspace(1)* %q, align 4
  call spir_func void @_Z7barrierj(i32 2)
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)", dumps);
  CHECK(program.kernels[0].workGroupLoops);
  CHECK(count(dumps["build-dataflow"], "ram ") == 1);
  CHECK_THAT(dumps["build-dataflow"], Catch::Contains("ram w"));
  checkLintClean(program.verilog, "loom_kernel_rounds");
}

TEST_CASE("a work-group function is one more pass of the work-items") {
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
declare spir_func i32 @_Z21work_group_reduce_addi(i32)
define spir_kernel void @sum(i32 addrspace(1)* %a) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %v = load i32, i32 addrspace(1)* %p, align 4
  %s = call spir_func i32 @_Z21work_group_reduce_addi(i32 %v)
  store i32 %s, i32 addrspace(1)* %p, align 4
  ret void
}
)", dumps);
  const auto &hw = program.kernels[0];
  CHECK(hw.workGroupLoops);
  // Each work-item's operand waits in on-chip memory for the pass that folds it; the total is a
  // register carried through the loops, which every work-item then reads: no copy per work-item.
  CHECK(count(dumps["build-dataflow"], "= ram_store") == 1);
  // A value carried through a loop nest is a recurrence of the outer loops too: the scheduler does
  // not push the nest ever later for it, and no FIFO grows to thousands of entries.
  CHECK(hw.pipelineDepth < 1000);
  checkLintClean(program.verilog, "loom_kernel_sum");
}

TEST_CASE("the work-items of a region that runs a loop overlap in it") {
  // Region 0 copies n elements a work-item; region 1 does not loop. Region 0 has loops over the
  // work-items of its own, which only its work-items enter: all of them run the copy loop, so a
  // work-item starts it while earlier ones are still inside. In one nest shared with region 1, some
  // iterations of the loop over the work-items would skip the copy loop, and each would wait for the
  // one before to leave it.
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
declare spir_func void @_Z7barrierj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
@tile = internal addrspace(3) global [1024 x i32] undef, align 4
define spir_kernel void @stage(i32 addrspace(1)* noalias %a, i32 addrspace(1)* noalias %out, i64 %n) !reqd_work_group_size !0 {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %base = mul i64 %gid, %n
  %lbase = shl i64 %lid, 4
  %any = icmp ugt i64 %n, 0
  br i1 %any, label %copy, label %copied
copy:
  %k = phi i64 [ 0, %entry ], [ %k.next, %copy ]
  %src = add i64 %base, %k
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %src
  %v = load i32, i32 addrspace(1)* %pa, align 4
  %dst = add i64 %lbase, %k
  %slot = getelementptr inbounds [1024 x i32], [1024 x i32] addrspace(3)* @tile, i64 0, i64 %dst
  store i32 %v, i32 addrspace(3)* %slot, align 4
  %k.next = add nuw nsw i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %copy, label %copied
copied:
  call spir_func void @_Z7barrierj(i32 1)
  %mirror = sub i64 1023, %lid
  %other = getelementptr inbounds [1024 x i32], [1024 x i32] addrspace(3)* @tile, i64 0, i64 %mirror
  %w = load i32, i32 addrspace(3)* %other, align 4
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %w, i32 addrspace(1)* %po, align 4
  ret void
}
!0 = !{i32 64, i32 1, i32 1}
)", dumps);
  const auto &hw = program.kernels[0];
  REQUIRE(hw.workGroupLoops);
  // Region 0's loop over the work-items (the only one with a loop inside) and region 1's.
  int overlapping = 0, innermostOverWorkItems = 0;
  for (const auto &loop : hw.loops) {
    CAPTURE(loop.location, loop.depth, loop.innerLoopsWaitFor);
    if (!loop.overWorkItems)
      continue;
    if (loop.innermost)
      ++innermostOverWorkItems;
    else if (!loop.overlapsFrom.empty())
      ++overlapping;
    CHECK(loop.innerLoopsWaitFor.find("skip") == std::string::npos);
  }
  CHECK(overlapping == 1);
  CHECK(innermostOverWorkItems == 1);
  checkLintClean(program.verilog, "loom_kernel_stage");
}

TEST_CASE("a kernel that only asks its sub-group sizes runs work-groups, partial ones too") {
  // No barrier and no collective: one region, which the work-item loops still call with the region to
  // resume (OpenCL-CTS sub_group_info_core crashed the compiler here, in OpenCL C 2.0's partial groups).
  for (const std::string uniform : {"true", "false"}) {
    CAPTURE(uniform);
    std::map<std::string, std::string> dumps;
    auto program = synthesizeOk(R"(
declare spir_func i32 @_Z22get_max_sub_group_sizev()
declare spir_func i32 @_Z18get_num_sub_groupsv()
define spir_kernel void @query(i32 addrspace(1)* %out) #0 {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %max = call spir_func i32 @_Z22get_max_sub_group_sizev()
  %count = call spir_func i32 @_Z18get_num_sub_groupsv()
  %sum = add i32 %max, %count
  %p = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %sum, i32 addrspace(1)* %p, align 4
  ret void
}
attributes #0 = { "uniform-work-group-size"=")" + uniform + R"(" }
)", dumps);
    CHECK(program.kernels[0].workGroupLoops);
    checkLintClean(program.verilog, "loom_kernel_query");
  }
}

TEST_CASE("the board's sub-groups are runs of work-items, each keeping the cut it waits at") {
  const std::string kernel = R"(
declare spir_func i64 @_Z22get_sub_group_local_idv()
declare spir_func i64 @_Z18get_num_sub_groupsv()
declare spir_func void @_Z17sub_group_barrierj(i32)
declare spir_func i32 @_Z20sub_group_reduce_addi(i32)
define spir_kernel void @ids(i32 addrspace(1)* %a) REQUIRED {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %local = call spir_func i64 @_Z22get_sub_group_local_idv()
  %groups = call spir_func i64 @_Z18get_num_sub_groupsv()
  %sum = add i64 %local, %groups
  %v = trunc i64 %sum to i32
  call spir_func void @_Z17sub_group_barrierj(i32 1)
  %s = call spir_func i32 @_Z20sub_group_reduce_addi(i32 %v)
  store i32 %s, i32 addrspace(1)* %p, align 4
  ret void
}
!0 = !{i32 64, i32 1, i32 1}
)";
  auto withGroup = [&](const std::string &required) {
    std::string text = kernel;
    text.replace(text.find("REQUIRED"), 8, required);
    return text;
  };
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(withGroup(""), dumps);
  CHECK(program.kernels[0].workGroupLoops);
  CHECK(program.kernels[0].maxGroupItems == hls::MaxWorkGroupLoopItems);
  // Groups of up to 256 have several sub-groups, which may stop at different cuts: each work-item
  // keeps its own in on-chip memory, read at the start and written once at the end of each pass.
  const std::string &graph = dumps["build-dataflow"];
  const size_t waits = graph.find("ram waits: ");
  REQUIRE(waits != std::string::npos);
  CHECK_THAT(graph.substr(waits, graph.find('\n', waits) - waits), Catch::Contains("1 read and 1 write ports"));
  checkLintClean(program.verilog, "loom_kernel_ids");
  // A group of 64 is one sub-group, whose cuts all its work-items reach together.
  dumps.clear();
  auto one = synthesizeOk(withGroup("!reqd_work_group_size !0"), dumps);
  CHECK(one.kernels[0].maxGroupItems == hls::SubGroupItems);
  CHECK_THAT(dumps["build-dataflow"], !Catch::Contains("ram waits"));
  // A kernel that only asks its sub-group local id runs a group at a time too.
  auto idsOnly = synthesizeOk(R"(
declare spir_func i64 @_Z22get_sub_group_local_idv()
define spir_kernel void @ids(i64 addrspace(1)* %a) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i64, i64 addrspace(1)* %a, i64 %gid
  %local = call spir_func i64 @_Z22get_sub_group_local_idv()
  store i64 %local, i64 addrspace(1)* %p, align 8
  ret void
}
)", dumps);
  CHECK(idsOnly.kernels[0].workGroupLoops);
}

TEST_CASE("a compare-exchange retry loop whose pair crosses the back edge") {
  // What loop rotation leaves of `while (!atomic_compare_exchange_weak(p, &e, e + v));`: a phi of
  // the cmpxchg's { old, success } pair, which the graph carries field by field.
  std::map<std::string, std::string> dumps;
  auto program = synthesizeOk(R"(
define spir_kernel void @sum(i32 addrspace(1)* %p, i32 %v) {
entry:
  %seen = atomicrmw or i32 addrspace(1)* %p, i32 0 seq_cst, align 4
  %want = add i32 %seen, %v
  %first = cmpxchg i32 addrspace(1)* %p, i32 %seen, i32 %want seq_cst seq_cst, align 4
  %done = extractvalue { i32, i1 } %first, 1
  br i1 %done, label %exit, label %retry
retry:
  %pair = phi { i32, i1 } [ %next, %retry ], [ %first, %entry ]
  %old = extractvalue { i32, i1 } %pair, 0
  %sum = add i32 %old, %v
  %next = cmpxchg i32 addrspace(1)* %p, i32 %old, i32 %sum seq_cst seq_cst, align 4
  %ok = extractvalue { i32, i1 } %next, 1
  br i1 %ok, label %exit, label %retry
exit:
  ret void
}
)", dumps);
  CHECK(count(dumps["build-dataflow"], "= loop_control") == 1);
  checkLintClean(program.verilog, "loom_kernel_sum");
}

/// Clang's pipe types and the pipe functions the pipe tests call.
const std::string PipeDeclarations = R"(
%opencl.pipe_ro_t = type opaque
%opencl.pipe_wo_t = type opaque
%opencl.reserve_id_t = type opaque
declare spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)*, i8 addrspace(4)*, i32, i32)
declare spir_func i32 @__write_pipe_2(%opencl.pipe_wo_t addrspace(1)*, i8 addrspace(4)*, i32, i32)
declare spir_func %opencl.reserve_id_t* @__reserve_read_pipe(%opencl.pipe_ro_t addrspace(1)*, i32, i32, i32)
declare spir_func %opencl.reserve_id_t* @__reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)*, i32, i32, i32)
declare spir_func i32 @__read_pipe_4(%opencl.pipe_ro_t addrspace(1)*, %opencl.reserve_id_t*, i32, i8 addrspace(4)*, i32, i32)
declare spir_func i32 @__write_pipe_4(%opencl.pipe_wo_t addrspace(1)*, %opencl.reserve_id_t*, i32, i8 addrspace(4)*, i32, i32)
declare spir_func void @__commit_read_pipe(%opencl.pipe_ro_t addrspace(1)*, %opencl.reserve_id_t*, i32, i32)
declare spir_func void @__commit_write_pipe(%opencl.pipe_wo_t addrspace(1)*, %opencl.reserve_id_t*, i32, i32)
declare spir_func zeroext i1 @_Z19is_valid_reserve_id13ocl_reserveid(%opencl.reserve_id_t*)
declare spir_func i32 @__get_pipe_num_packets_wo(%opencl.pipe_wo_t addrspace(1)*, i32, i32)
declare spir_func i32 @__get_pipe_max_packets_wo(%opencl.pipe_wo_t addrspace(1)*, i32, i32)
)";

TEST_CASE("read_pipe and write_pipe become stream ports: a retry loop waits at the FIFO, a single call tries") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @relay(%opencl.pipe_ro_t addrspace(1)* %in, %opencl.pipe_wo_t addrspace(1)* %out, float addrspace(1)* %status) {
entry:
  %v = alloca float, align 4
  %raw = bitcast float* %v to i8*
  %generic = addrspacecast i8* %raw to i8 addrspace(4)*
  br label %wait
wait:
  %read = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 4, i32 4)
  %empty = icmp ne i32 %read, 0
  br i1 %empty, label %wait, label %got
got:
  %x = load float, float* %v, align 4
  %y = fmul float %x, 2.0
  store float %y, float* %v, align 4
  %wrote = call spir_func i32 @__write_pipe_2(%opencl.pipe_wo_t addrspace(1)* %out, i8 addrspace(4)* %generic, i32 4, i32 4)
  %f = sitofp i32 %wrote to float
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds float, float addrspace(1)* %status, i64 %gid
  store float %f, float addrspace(1)* %p, align 4
  ret void
}
)", dumps);
  const std::string &graph = dumps["build-dataflow"];
  INFO(graph);
  // The retry loop is gone: a read that waits, no loop; the write reports whether it went in.
  CHECK(count(graph, "pipe_read i32 pipe=0 arg=0 waits") == 1);
  CHECK(count(graph, "pipe_write i1 pipe=1 arg=1 tries") == 1);
  CHECK(count(graph, "loop_control") == 0);
  CHECK(count(graph, "ram_") == 0); // the private packet is a register
  const hls::HardwareKernel &kernel = program.kernels[0];
  REQUIRE(kernel.pipePorts.size() == 2);
  CHECK(kernel.pipePorts[0].arg == 0);
  CHECK_FALSE(kernel.pipePorts[0].writes);
  CHECK(kernel.pipePorts[1].arg == 1);
  CHECK(kernel.pipePorts[1].writes);
  CHECK(kernel.pipePorts[1].packetBytes == 4);
  CHECK(program.report.find("waits for a packet") != std::string::npos);
  CHECK(program.verilog.find("input  wire s0_valid") != std::string::npos);
  CHECK(program.verilog.find("output wire s1_push") != std::string::npos);
  checkLintClean(program.verilog, "loom_kernel_relay");
}

TEST_CASE("a read_pipe that may fail keeps the packet's memory when the pipe is empty") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @poll(%opencl.pipe_ro_t addrspace(1)* %in, i64 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %gid
  %raw = bitcast i64 addrspace(1)* %p to i8 addrspace(1)*
  %generic = addrspacecast i8 addrspace(1)* %raw to i8 addrspace(4)*
  %odd = and i64 %gid, 1
  %tries = icmp eq i64 %odd, 1
  br i1 %tries, label %try, label %done
try:
  %read = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 8, i32 8)
  br label %done
done:
  ret void
}
)", dumps);
  const std::string &graph = dumps["build-dataflow"];
  INFO(graph);
  // Odd work-items try: {read, packet}; the store to out[gid] happens only when a packet came.
  CHECK(count(graph, "pipe_read i65 pipe=0 arg=0 tries predicated") == 1);
  CHECK(count(graph, "store") == 1);
  CHECK(count(graph, "predicated") >= 2);
  checkLintClean(program.verilog, "loom_kernel_poll");
}

TEST_CASE("several calls on one pipe take turns at its port, a work-item's in order") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @twice(%opencl.pipe_ro_t addrspace(1)* %in, i32 addrspace(1)* %out) {
  %raw = bitcast i32 addrspace(1)* %out to i8 addrspace(1)*
  %generic = addrspacecast i8 addrspace(1)* %raw to i8 addrspace(4)*
  %next = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 1
  %rawNext = bitcast i32 addrspace(1)* %next to i8 addrspace(1)*
  %genericNext = addrspacecast i8 addrspace(1)* %rawNext to i8 addrspace(4)*
  %a = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 4, i32 4)
  %b = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %genericNext, i32 4, i32 4)
  ret void
}
)", dumps);
  const std::string &graph = dumps["build-dataflow"];
  INFO(graph);
  CHECK(count(graph, "pipe_read i33 pipe=0 arg=0 tries") == 2);
  REQUIRE(program.kernels[0].pipePorts.size() == 1);
  // The first call yields to the second (an older work-item's), which comes after it in its own.
  CHECK(count(program.verilog, "_yields = ") == 1);
  CHECK(count(program.verilog, "_request = ") == 1);
  checkLintClean(program.verilog, "loom_kernel_twice");
}

TEST_CASE("pipe functions and packets the hardware flow does not take yet are errors at their line") {
  const std::string wide = synthesisError(PipeDeclarations + R"(
define spir_kernel void @wide(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(1)* %out) {
  %generic = addrspacecast i8 addrspace(1)* %out to i8 addrspace(4)*
  %a = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 2048, i32 128)
  ret void
}
)");
  CHECK(wide.find("2048-byte packets are not supported") != std::string::npos);
  // A reservation and a read_pipe with two arguments on one pipe: the FIFO takes one or the other.
  const std::string mixed = synthesisError(PipeDeclarations + R"(
define spir_kernel void @mixed(%opencl.pipe_ro_t addrspace(1)* %in, i32 addrspace(1)* %out) {
  %raw = bitcast i32 addrspace(1)* %out to i8 addrspace(1)*
  %generic = addrspacecast i8 addrspace(1)* %raw to i8 addrspace(4)*
  %a = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 4, i32 4)
  %r = call spir_func %opencl.reserve_id_t* @__reserve_read_pipe(%opencl.pipe_ro_t addrspace(1)* %in, i32 2, i32 4, i32 4)
  ret void
}
)");
  CHECK(mixed.find("two arguments and reservations on one pipe ('in'") != std::string::npos);
  // Lanes or compute units would each need the pipe's port.
  for (const char *copies : {"num_simd_work_items(4)", "num_compute_units(2)"}) {
    INFO(copies);
    const std::string copied = synthesisErrorAt(PipeDeclarations + R"(
define spir_kernel void @copied(%opencl.pipe_ro_t addrspace(1)* %in, i32 addrspace(1)* %out) !dbg !5 !loom.vendor_attributes !20 {
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  %raw = bitcast i32 addrspace(1)* %p to i8 addrspace(1)*
  %generic = addrspacecast i8 addrspace(1)* %raw to i8 addrspace(4)*
  %a = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 4, i32 4), !dbg !9
  ret void
}
!20 = !{!")" + copies + "\"}\n");
    CHECK_THAT(copied, Catch::Contains("kernel.cl:4:3: error: pipe 'in' in a kernel with num_simd_work_items or "
                                       "num_compute_units"));
  }
}

TEST_CASE("a call on a pipe chosen at run time becomes a call per pipe under a branch") {
  // SimplifyCFG sinks the pipe calls of an if/else into one call on a select, and those of a switch
  // into one on a phi; a reservation and its commit on one chosen pipe split on the same choice.
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @chosen(%opencl.pipe_ro_t addrspace(1)* %a, %opencl.pipe_ro_t addrspace(1)* %b, %opencl.pipe_wo_t addrspace(1)* %x, %opencl.pipe_wo_t addrspace(1)* %y, %opencl.pipe_wo_t addrspace(1)* %z, i32 addrspace(1)* %out, i32 %c) {
entry:
  %raw = bitcast i32 addrspace(1)* %out to i8 addrspace(1)*
  %generic = addrspacecast i8 addrspace(1)* %raw to i8 addrspace(4)*
  %odd = trunc i32 %c to i1
  %in = select i1 %odd, %opencl.pipe_ro_t addrspace(1)* %a, %opencl.pipe_ro_t addrspace(1)* %b
  %r = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 4, i32 4)
  switch i32 %c, label %other [ i32 0, label %zero
                                i32 1, label %one ]
zero:
  br label %join
one:
  br label %join
other:
  br label %join
join:
  %to = phi %opencl.pipe_wo_t addrspace(1)* [ %x, %zero ], [ %y, %one ], [ %z, %other ]
  %id = call spir_func %opencl.reserve_id_t* @__reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)* %to, i32 1, i32 4, i32 4)
  %w = call spir_func i32 @__write_pipe_4(%opencl.pipe_wo_t addrspace(1)* %to, %opencl.reserve_id_t* %id, i32 0, i8 addrspace(4)* %generic, i32 4, i32 4)
  call spir_func void @__commit_write_pipe(%opencl.pipe_wo_t addrspace(1)* %to, %opencl.reserve_id_t* %id, i32 4, i32 4)
  ret void
}
)", dumps);
  const hls::HardwareKernel &kernel = program.kernels[0];
  INFO(program.report);
  std::set<unsigned> read, written;
  for (const auto &port : kernel.pipePorts)
    (port.writes ? written : read).insert(port.arg);
  CHECK(read == std::set<unsigned>{0, 1});
  CHECK(written == std::set<unsigned>{2, 3, 4});
}

TEST_CASE("a reservation's packets are written by position into the FIFO and committed after them") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @reserve(i32 addrspace(1)* %src, %opencl.pipe_wo_t addrspace(1)* %out, i32 addrspace(1)* %fill) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %r = call spir_func %opencl.reserve_id_t* @__reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)* %out, i32 2, i32 4, i32 4)
  %ok = call spir_func i1 @_Z19is_valid_reserve_id13ocl_reserveid(%opencl.reserve_id_t* %r)
  br i1 %ok, label %write, label %done
write:
  %p = getelementptr inbounds i32, i32 addrspace(1)* %src, i64 %gid
  %raw = bitcast i32 addrspace(1)* %p to i8 addrspace(1)*
  %generic = addrspacecast i8 addrspace(1)* %raw to i8 addrspace(4)*
  %a = call spir_func i32 @__write_pipe_4(%opencl.pipe_wo_t addrspace(1)* %out, %opencl.reserve_id_t* %r, i32 1, i8 addrspace(4)* %generic, i32 4, i32 4)
  call spir_func void @__commit_write_pipe(%opencl.pipe_wo_t addrspace(1)* %out, %opencl.reserve_id_t* %r, i32 4, i32 4)
  br label %done
done:
  %n = call spir_func i32 @__get_pipe_num_packets_wo(%opencl.pipe_wo_t addrspace(1)* %out, i32 4, i32 4)
  %m = call spir_func i32 @__get_pipe_max_packets_wo(%opencl.pipe_wo_t addrspace(1)* %out, i32 4, i32 4)
  %q = getelementptr inbounds i32, i32 addrspace(1)* %fill, i64 %gid
  %sum = add i32 %n, %m
  store i32 %sum, i32 addrspace(1)* %q, align 4
  ret void
}
)", dumps);
  const std::string &graph = dumps["build-dataflow"];
  INFO(graph);
  CHECK(count(graph, "pipe_reserve i64 pipe=0 arg=1") == 1);
  CHECK(count(graph, "pipe_slot_write pipe=0 arg=1 predicated") == 1);
  CHECK(count(graph, "pipe_commit pipe=0 arg=1 predicated") == 1);
  CHECK(count(graph, "pipe_query i32 pipe=0 arg=1 packets") == 1);
  CHECK(count(graph, "pipe_query i32 pipe=0 arg=1 capacity") == 1);
  const hls::HardwareKernel &kernel = program.kernels[0];
  REQUIRE(kernel.pipePorts.size() == 1);
  const hls::PipePort &port = kernel.pipePorts[0];
  CHECK(port.writes);
  CHECK((port.reserves && port.slots && port.commits && port.queries));
  CHECK_FALSE(port.transfers);
  // The port's operations survive the binary's JSON.
  hls::PipePort parsed;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(port), parsed, root));
  CHECK((parsed.reserves && parsed.slots && parsed.commits && parsed.queries && !parsed.transfers));
  CHECK(program.report.find("reserves packets at once") != std::string::npos);
  for (const char *signal : {"input  wire [31:0] s0_reservable", "output wire s0_reserve", "output wire [31:0] s0_slot",
                             "output wire [31:0] s0_slot_wdata", "output wire s0_commit", "input  wire [31:0] s0_capacity"})
    CHECK(program.verilog.find(signal) != std::string::npos);
  CHECK(program.verilog.find("s0_push") == std::string::npos);
  checkLintClean(program.verilog, "loom_kernel_reserve");
}

TEST_CASE("a retry loop that goes back through an outer loop's latch waits at the FIFO too") {
  // Clang's -O2 form of `for (int i = 0; i < n; ++i) while (write_pipe(out, &i) != 0);`.
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @produce(%opencl.pipe_wo_t addrspace(1)* %out, i32 %n) {
entry:
  %i = alloca i32, align 4
  %raw = bitcast i32* %i to i8*
  store i32 0, i32* %i, align 4
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %preheader, label %done
preheader:
  %generic = addrspacecast i8* %raw to i8 addrspace(4)*
  br label %try
done:
  ret void
try:
  %wrote = call spir_func i32 @__write_pipe_2(%opencl.pipe_wo_t addrspace(1)* %out, i8 addrspace(4)* %generic, i32 4, i32 4)
  %ok = icmp eq i32 %wrote, 0
  br i1 %ok, label %next, label %latch
latch:
  br label %try
next:
  %old = load i32, i32* %i, align 4
  %inc = add nsw i32 %old, 1
  store i32 %inc, i32* %i, align 4
  %more = icmp slt i32 %inc, %n
  br i1 %more, label %latch, label %done
}
)", dumps);
  const std::string &graph = dumps["build-dataflow"];
  INFO(graph);
  CHECK(count(graph, "pipe_write pipe=0 arg=0 waits") == 1);
  CHECK(count(graph, "loop_control") == 1); // the for loop only
  CHECK(count(graph, "ram_") == 0);
  REQUIRE(program.kernels[0].loops.size() == 1);
  CHECK(program.kernels[0].loops[0].ii == 1);
}

TEST_CASE("a packet wider than a register travels whole: a float4 read into global memory is one wide store") {
  std::map<std::string, std::string> dumps;
  const hls::SynthesizedProgram program = synthesizeOk(PipeDeclarations + R"(
define spir_kernel void @scale(%opencl.pipe_ro_t addrspace(1)* %in, %opencl.pipe_wo_t addrspace(1)* %out, <4 x float> addrspace(1)* %copy) {
entry:
  %v = alloca <4 x float>, align 16
  %raw = bitcast <4 x float>* %v to i8*
  %generic = addrspacecast i8* %raw to i8 addrspace(4)*
  br label %wait
wait:
  %read = call spir_func i32 @__read_pipe_2(%opencl.pipe_ro_t addrspace(1)* %in, i8 addrspace(4)* %generic, i32 16, i32 16)
  %empty = icmp ne i32 %read, 0
  br i1 %empty, label %wait, label %got
got:
  %x = load <4 x float>, <4 x float>* %v, align 16
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %copy, i64 %gid
  store <4 x float> %x, <4 x float> addrspace(1)* %p, align 16
  %y = fmul <4 x float> %x, <float 2.0, float 2.0, float 2.0, float 2.0>
  store <4 x float> %y, <4 x float>* %v, align 16
  %wrote = call spir_func i32 @__write_pipe_2(%opencl.pipe_wo_t addrspace(1)* %out, i8 addrspace(4)* %generic, i32 16, i32 16)
  ret void
}
)", dumps);
  const std::string &graph = dumps["build-dataflow"];
  INFO(graph);
  CHECK(count(graph, "pipe_read i128 pipe=0 arg=0 waits") == 1);
  CHECK(count(graph, "pipe_write i1 pipe=1 arg=1 tries") == 1);
  CHECK(count(graph, "fmul") == 4); // lane by lane
  CHECK(count(graph, "ram_") == 0);
  REQUIRE(program.kernels[0].pipePorts.size() == 2);
  CHECK(program.kernels[0].pipePorts[0].packetBytes == 16);
  REQUIRE(program.kernels[0].ports.size() == 1);
  CHECK(program.kernels[0].ports[0].bytes == 16); // the copy: one wide store
  checkLintClean(program.verilog, "loom_kernel_scale");
}

TEST_CASE("the report bounds a loop's and a work-item's rate by the memory bandwidth their accesses need") {
  auto ir = parse(R"(
define spir_kernel void @triad16(<16 x float> addrspace(1)* noalias %a, <16 x float> addrspace(1)* noalias %b,
                                 <16 x float> addrspace(1)* noalias %c, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %iw = zext i32 %i to i64
  %pb = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %b, i64 %iw
  %vb = load <16 x float>, <16 x float> addrspace(1)* %pb, align 64
  %pc = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %c, i64 %iw
  %vc = load <16 x float>, <16 x float> addrspace(1)* %pc, align 64
  %s = fadd <16 x float> %vb, %vc
  %pa = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %a, i64 %iw
  store <16 x float> %s, <16 x float> addrspace(1)* %pa, align 64
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
define spir_kernel void @gathers(i32 addrspace(1)* noalias %idx, i32 addrspace(1)* noalias %a,
                                 i32 addrspace(1)* noalias %b, i32 addrspace(1)* noalias %c,
                                 i32 addrspace(1)* noalias %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds i32, i32 addrspace(1)* %idx, i64 %gid
  %i = load i32, i32 addrspace(1)* %pi, align 4
  %iw = sext i32 %i to i64
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %iw
  %va = load i32, i32 addrspace(1)* %pa, align 4
  %pb = getelementptr inbounds i32, i32 addrspace(1)* %b, i64 %iw
  %vb = load i32, i32 addrspace(1)* %pb, align 4
  %pc = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 %iw
  %vc = load i32, i32 addrspace(1)* %pc, align 4
  %ab = add i32 %va, %vb
  %abc = add i32 %ab, %vc
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %abc, i32 addrspace(1)* %po, align 4
  ret void
}
define spir_kernel void @guarded_gather(i32 addrspace(1)* noalias %idx, i32 addrspace(1)* noalias %a,
                                        i32 addrspace(1)* noalias %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds i32, i32 addrspace(1)* %idx, i64 %gid
  %i = load i32, i32 addrspace(1)* %pi, align 4
  %some = icmp sgt i32 %i, 0
  br i1 %some, label %gather, label %done
gather:
  %iw = sext i32 %i to i64
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %iw
  %va = load i32, i32 addrspace(1)* %pa, align 4
  br label %done
done:
  %v = phi i32 [ %va, %gather ], [ 0, %entry ]
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %v, i32 addrspace(1)* %po, align 4
  ret void
}
define spir_kernel void @window_sums(float addrspace(1)* noalias %in, float addrspace(1)* noalias %out, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %first = trunc i64 %gid to i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %add, %loop ]
  %k = add nsw i32 %first, %i
  %kw = sext i32 %k to i64
  %p = getelementptr inbounds float, float addrspace(1)* %in, i64 %kw
  %v = load float, float addrspace(1)* %p, align 4
  %add = fadd float %sum, %v
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %add, float addrspace(1)* %po, align 4
  ret void
}
)");
  // The default board: 128 bytes a cycle over two banks of 64-byte beats.
  auto board = board::loadBoard("default");
  REQUIRE_OK(board);
  auto program = hls::synthesizeProgram(*ir->module, *board, {});
  REQUIRE_OK(program);
  REQUIRE(program->kernels.size() == 4);
  const hls::HardwareKernel &triad = program->kernels[0], &gathers = program->kernels[1],
                            &guarded = program->kernels[2], &windows = program->kernels[3];
  // Three 64-byte streams an iteration: the schedule's II is 1, the memory allows two in three cycles.
  REQUIRE(triad.loops.size() == 1);
  CHECK(triad.loops[0].ii == 1);
  CHECK(triad.loops[0].globalBytes == 192);
  CHECK_THAT(program->report, Catch::Contains(", memory bandwidth: 192 bytes of global memory per iteration if all its "
                                              "accesses happen, so at most 0.67 iterations a cycle at the board's peak "
                                              "of 128 bytes a cycle"));
  // A gather costs a whole beat, a stream's element only its own bytes: 3 x 64 + 4 + 4.
  CHECK(gathers.globalBytes == 200);
  CHECK_THAT(program->report, Catch::Contains("memory bandwidth: 200 bytes of global memory per work-item if all its "
                                              "accesses happen, so at most 0.64 work-items a cycle"));
  // An access under a condition counts as if it happened: a gather and two streams.
  CHECK(guarded.globalBytes == 72);
  // A 4-byte stream at II 5 (the float add's recurrence) is far from the bound: nothing is said.
  REQUIRE(windows.loops.size() == 1);
  CHECK(windows.loops[0].globalBytes == 4);
  CHECK(count(program->report, "memory bandwidth") == 2);
  // The figures travel in the binary.
  hls::HardwareKernel back;
  llvm::json::Path::Root root;
  REQUIRE(hls::fromJSON(hls::toJSON(triad), back, root));
  CHECK(back.loops[0].globalBytes == 192);
  REQUIRE(hls::fromJSON(hls::toJSON(gathers), back, root));
  CHECK(back.globalBytes == 200);

  // The window loop holds many work-items' iterations, so its line load buffers a line per credit,
  // which synthesis puts in block RAM (8 blocks of 72 bits for a 512-bit line), not flip-flops.
  REQUIRE(windows.ports[0].lines());
  CHECK(windows.area.rams >= 8);
  CHECK(windows.area.ffs < 16 * 512);
}
