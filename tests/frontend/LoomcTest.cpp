// SPDX-License-Identifier: Apache-2.0
// The loomc tool as a user runs it: boards listed, a kernel compiled to a .loom (with -D, the Verilog,
// the report and progress), SPIR-V input, --rtl, --dump-after, and the failures: a syntax error, a kernel
// the hardware flow cannot build, an unknown board and a missing file exit non-zero with a readable
// message and write no output.
#include "TestSupport.h"

#include "loom/board/Board.h"
#include "loom/frontend/Binary.h"
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/hls/Pipeline.h"

#include "LLVMSPIRVLib.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace {

/// A scratch directory, removed with everything in it: in the system's temporary directory, or in
/// `parent`.
struct ScratchDir {
  llvm::SmallString<128> path;
  explicit ScratchDir(llvm::StringRef parent = "") {
    // A relative prefix lands in the temporary directory.
    llvm::SmallString<128> prefix(parent);
    llvm::sys::path::append(prefix, "loomc-test");
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory(prefix, path));
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> full(path);
    llvm::sys::path::append(full, name);
    return full.str().str();
  }
  std::string write(llvm::StringRef name, llvm::StringRef contents) const {
    std::string full = file(name);
    std::ofstream(full, std::ios::binary) << contents.str();
    return full;
  }
};

std::string readAll(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

struct Run {
  int exitCode;
  std::string out, err;
};

/// Runs loomc with `args`, capturing its standard output and error.
Run loomc(const ScratchDir &dir, std::vector<std::string> args) {
  args.insert(args.begin(), LOOMC_EXECUTABLE);
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(out), llvm::StringRef(err)};
  std::string message;
  int code = llvm::sys::ExecuteAndWait(LOOMC_EXECUTABLE, argv, llvm::None, redirects, 120, 0, &message);
  INFO(message);
  REQUIRE(code >= 0);
  return {code, readAll(out), readAll(err)};
}

const char *ScaleKernel = R"(__kernel void scale(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * SCALE;
}
)";

} // namespace

TEST_CASE("loomc --list-boards names every board") {
  ScratchDir dir;
  Run run = loomc(dir, {"--list-boards"});
  CHECK(run.exitCode == 0);
  CHECK(std::regex_search(run.out, std::regex("^default +300 MHz", std::regex::multiline)));
  CHECK(std::regex_search(run.out, std::regex("\nunit ")));
}

TEST_CASE("loomc compiles a kernel into a .loom binary, with the Verilog and the report") {
  // Beside the working directory: the source's path shares a prefix with it, which Clang's debug
  // info splits off; the report must still name the file.
  llvm::SmallString<128> cwd;
  REQUIRE_FALSE(llvm::sys::fs::current_path(cwd));
  ScratchDir dir(llvm::sys::path::parent_path(cwd));
  std::string source = dir.write("scale.cl", ScaleKernel);
  std::string output = dir.file("scale.loom"), verilog = dir.file("scale.v");
  Run run = loomc(dir, {source, "-o", output, "--board", "unit", "-DSCALE=3.0f", "--emit-verilog", verilog,
                        "--report"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  // Progress on the slow steps, with elapsed times.
  CHECK(std::regex_search(run.err, std::regex(R"(loomc: \[ *[0-9.]+s\] verilating)")));
  CHECK_THAT(run.err, Catch::Contains("for board 'unit'"));
  CHECK_THAT(run.out, Catch::Contains("kernel scale: II 1"));
  std::smatch load;
  REQUIRE(std::regex_search(run.out, load, std::regex(R"(load of 4-byte elements in 8-byte lines at (\S+scale\.cl):3:[0-9]+)")));
  CHECK(llvm::sys::fs::exists(load[1].str()));
  CHECK_THAT(readAll(verilog), Catch::Contains("module loom_kernel_scale ("));

  auto binary = loom::frontend::readBinary(readAll(output));
  REQUIRE_OK(binary);
  CHECK(binary->board() == "unit");
  CHECK_FALSE(binary->model.empty());
  CHECK_FALSE(binary->cpuBitcode.empty());
  CHECK(binary->verilog == readAll(verilog));
  const auto *kernels = binary->meta.getArray("kernels");
  REQUIRE(kernels);
  REQUIRE(kernels->size() == 1);
  CHECK((*kernels)[0].getAsObject()->getString("name") == llvm::StringRef("scale"));
  CHECK((*kernels)[0].getAsObject()->getObject("hardware") != nullptr);
}

TEST_CASE("loomc prints the warnings of what it accepts but does not do, and the loops' latency") {
  ScratchDir dir;
  std::string source = dir.write("loops.cl", R"(__attribute__((max_global_work_dim(0)))
__kernel void twice(__global int *restrict a, int n) {
  #pragma ivdep safelen(4)
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
  #pragma ii 4
  for (int i = 0; i < n; ++i)
    a[i] += 1;
}
)");
  Run run = loomc(dir, {source, "--rtl", "--report", "--board", "unit"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  // safelen(4) is done, not ignored: the loop's memory order is kept 4 iterations apart.
  CHECK(run.err.find("safelen") == std::string::npos);
  CHECK(std::regex_search(run.err, std::regex(R"(loops\.cl:7: warning: '#pragma ii 4' is ignored: the loop runs at II 1)")));
  // Each loop's latency: a load, a multiply or add, and a store, so more than a few cycles.
  std::smatch latency;
  REQUIRE(std::regex_search(run.out, latency, std::regex(R"(loop at \S+loops\.cl:4 .*, latency ([0-9]+) cycles)")));
  CHECK(std::stoul(latency[1].str()) > 3);
  CHECK(std::regex_search(run.out, std::regex(R"(loop at \S+loops\.cl:7 .*#pragma ii 4 ignored)")));
  // -q: nothing but errors (in a scratch directory of its own: ExecuteAndWait rewrites the redirected
  // files without truncating them).
  ScratchDir quietDir;
  Run quiet = loomc(quietDir, {source, "--rtl", "-q", "--board", "unit", "-o", quietDir.file("loops.v")});
  CHECK(quiet.exitCode == 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("loomc's report names the unrolling that fills the memory's width for a streaming loop") {
  ScratchDir dir;
  std::string source = dir.write("stream.cl", R"(__attribute__((max_global_work_dim(0)))
__kernel void triad(__global const float *restrict b, __global const float *restrict c,
                    __global float *restrict a, float s, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}
__attribute__((max_global_work_dim(0)))
__kernel void unrolled(__global const float *restrict b, __global float *restrict a, int n) {
  #pragma unroll 16
  for (int i = 0; i < n * 16; ++i)
    a[i] = b[i] * 2.0f;
}
__attribute__((max_global_work_dim(0)))
__kernel void gather(__global const float *restrict b, __global float *restrict a, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = b[(i * 37) & 4095];
}
)");
  Run run = loomc(dir, {source, "--rtl", "--report"});
  INFO(run.out);
  REQUIRE(run.exitCode == 0);
  // 12 bytes an iteration of the default board's 128 a cycle.
  CHECK(std::regex_search(run.out, std::regex(R"(loop at \S+stream\.cl:4 .*memory width: the loop moves 12 of the 128 )"
                                              R"(bytes a cycle the board's memory can \(9%\): '#pragma unroll 16' would )"
                                              R"(move up to 128)")));
  // Unrolled, and a gather (each load a whole beat): nothing to advise.
  CHECK(std::regex_search(run.out, std::regex(R"(loop at \S+stream\.cl:10 )")));
  CHECK(std::regex_search(run.out, std::regex(R"(loop at \S+stream\.cl:15 )")));
  CHECK_FALSE(std::regex_search(run.out, std::regex(R"(loop at \S+stream\.cl:(10|15) .*memory width)")));
}

TEST_CASE("loomc builds a program without kernels, with a warning that says why there are none") {
  ScratchDir dir;
  std::string source = dir.write("fp64.cl", R"(#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void twice(__global double *a) { a[get_global_id(0)] *= 2.0; }
#endif
)");
  const std::string output = dir.file("fp64.loom");
  Run run = loomc(dir, {source, "-o", output});
  INFO(run.err);
  CHECK(run.exitCode == 0);
  CHECK_THAT(run.err, Catch::Contains("warning: the program has no kernels: no __kernel function is left after "
                                      "preprocessing for board 'default' (code under '#ifdef cl_khr_fp64' is left "
                                      "out: the board has no double precision)\n"));
  CHECK(run.err.find("verilating") == std::string::npos);
  auto binary = loom::frontend::readBinary(readAll(output));
  REQUIRE_OK(binary);
  CHECK(binary->model.empty());
  REQUIRE(binary->meta.getArray("kernels"));
  CHECK(binary->meta.getArray("kernels")->empty());
}

TEST_CASE("loomc reads SPIR-V") {
  ScratchDir dir;
  llvm::LLVMContext context;
  auto compiled = loom::frontend::compileOpenCL(context, {ScaleKernel, "scale.cl", "-DSCALE=2.0f"},
                                                loom::frontend::Target::Hardware);
  REQUIRE_OK(compiled);
  std::ostringstream spirv;
  std::string message;
  REQUIRE(llvm::writeSpirv(compiled->module.get(), SPIRV::TranslatorOpts(), spirv, message));
  std::string input = dir.write("scale.spv", spirv.str()), output = dir.file("scale.loom");
  Run run = loomc(dir, {input, "-o", output, "--board", "unit", "-q"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(run.err.empty()); // -q
  auto binary = loom::frontend::readBinary(readAll(output));
  REQUIRE_OK(binary);
  CHECK_FALSE(binary->model.empty());
  CHECK(binary->cpuBitcode.empty()); // SPIR-V carries no CPU code.
  CHECK_THAT(binary->verilog, Catch::Contains("module loom_kernel_scale ("));
}

TEST_CASE("loomc --rtl stops after the Verilog and the report") {
  ScratchDir dir;
  std::string source = dir.write("scale.cl", ScaleKernel);
  Run run = loomc(dir, {source, "--rtl", "--report", "--board", "unit", "-DSCALE=2.0f"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(readAll(dir.file("scale.v")), Catch::Contains("module loom_kernel_scale ("));
  CHECK_THAT(run.out, Catch::Contains("kernel scale: II 1"));
  CHECK_THAT(run.err, Catch::Contains("wrote " + dir.file("scale.v")));
  CHECK_THAT(run.err, !Catch::Contains("verilating")); // no simulation model
  CHECK_FALSE(llvm::sys::fs::exists(dir.file("scale.loom")));
}

TEST_CASE("loomc --dump-after=all prints the graph after every hardware pass") {
  ScratchDir dir;
  std::string source = dir.write("scale.cl", ScaleKernel);
  Run run = loomc(dir, {source, "--rtl", "--board", "unit", "-DSCALE=2.0f", "--dump-after=all", "-q"});
  REQUIRE(run.exitCode == 0);
  for (const std::string &pass : loom::hls::passNames())
    CHECK_THAT(run.out, Catch::Contains("// ----- after " + pass + " (scale)"));
}

TEST_CASE("loomc --dump-after=prepared-ir prints the LLVM IR the graph is built from, and no graph") {
  ScratchDir dir;
  std::string source = dir.write("scale.cl", ScaleKernel);
  Run run = loomc(dir, {source, "--rtl", "--board", "unit", "-DSCALE=2.0f", "--dump-after=prepared-ir", "-q"});
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("// ----- after prepared-ir (scale)"));
  CHECK_THAT(run.out, Catch::Contains("define dso_local spir_kernel void @scale("));
  CHECK_THAT(run.out, !Catch::Contains("after build-dataflow"));
}

TEST_CASE("loomc --report names the two accesses of a loop's memory recurrence") {
  ScratchDir dir;
  std::string source = dir.write("shift.cl", "__kernel void shift(__global int *restrict a, __global const int "
                                             "*restrict from, int n) {\n"
                                             "  for (int i = 1; i < n; ++i)\n"
                                             "    a[i] = a[from[i]] * 3 + a[2 * from[i]];\n"
                                             "}\n");
  Run run = loomc(dir, {source, "--rtl", "--report"});
  REQUIRE(run.exitCode == 0);
  INFO(run.out);
  CHECK(std::regex_search(run.out, std::regex("set by the recurrence of 'memory order of a' at [^ ]*shift\\.cl:3:[0-9]+ "
                                              "\\(load\\) and [^ ]*shift\\.cl:3:[0-9]+ \\(store\\)")));
}

TEST_CASE("loomc: a memory recurrence 4 iterations apart takes half the II of one 2 apart") {
  // Loads 2 (or 4) and 7 back: not adjacent, so they stay two accesses of one size.
  ScratchDir dir;
  auto iiOf = [&](int nearest) {
    std::string source = dir.write("lag.cl", "__kernel void lag(__global int *restrict a, __global const int "
                                             "*restrict b, int n) {\n"
                                             "  for (int i = 7; i < n; ++i)\n"
                                             "    a[i] = a[i - " + std::to_string(nearest) + "] * b[i] + a[i - 7];\n"
                                             "}\n");
    Run run = loomc(dir, {source, "--rtl", "--report", "-q"});
    REQUIRE(run.exitCode == 0);
    INFO(run.out);
    std::smatch ii;
    REQUIRE(std::regex_search(run.out, ii, std::regex("loop at [^ ]*lag\\.cl:2 \\(depth 1\\): II ([0-9]+), set by the "
                                                      "recurrence of 'memory order of a'")));
    CHECK(run.out.find(", " + std::to_string(nearest) + " iterations apart") != std::string::npos);
    return std::stoul(ii[1]);
  };
  const unsigned long two = iiOf(2), four = iiOf(4);
  CHECK(two > 20);
  CHECK(four >= two / 2 - 2);
  CHECK(four <= two / 2 + 2);
}

TEST_CASE("loomc: a dependence carried only by the outer loop leaves the inner loop at II 1") {
  // Row r reads rows r - 2 at a column the analysis cannot follow ('*' in the inner loop): within
  // one row the accesses never meet, and the outer loop keeps the rows' memory order.
  ScratchDir dir;
  std::string source = dir.write("rows.cl", "__kernel void rows(__global int (*restrict g)[16], int n) {\n"
                                            "  for (int r = 2; r < n; ++r)\n"
                                            "    for (int c = 0; c < 16; ++c)\n"
                                            "      g[r][c] = g[r - 2][c] + (g[r - 2][(c + 1) & 15] >> 1);\n"
                                            "}\n");
  Run run = loomc(dir, {source, "--rtl", "--report", "-q"});
  REQUIRE(run.exitCode == 0);
  INFO(run.out);
  CHECK(std::regex_search(run.out, std::regex("loop at [^ ]*rows\\.cl:3 \\(depth 2\\): II 1, set by the recurrence of "
                                              "'the exit condition'")));
  CHECK(std::regex_search(run.out, std::regex("loop at [^ ]*rows\\.cl:2 \\(depth 1\\): .*an iteration enters its "
                                              "inner loops when the previous one has left them: its iterations' "
                                              "memory accesses may depend on each other")));
}

TEST_CASE("loomc failures exit non-zero with a readable message and write nothing") {
  ScratchDir dir;
  std::string output = dir.file("out.loom");
  SECTION("a syntax error gives file:line:col") {
    std::string source = dir.write("broken.cl", "__kernel void k(__global int *p) {\n  p[0] = 1\n}\n");
    Run run = loomc(dir, {source, "-o", output});
    CHECK(run.exitCode == 1);
    CHECK(std::regex_search(run.err, std::regex(std::regex_replace(source, std::regex(R"([.+])"), R"(\$&)") +
                                                ":2:[0-9]+: error:")));
    CHECK_THAT(run.err, Catch::Contains("loomc: compilation failed"));
  }
  SECTION("an undefined macro is a compile error, not a crash") {
    std::string source = dir.write("scale.cl", ScaleKernel);
    Run run = loomc(dir, {source, "-o", output});
    CHECK(run.exitCode == 1);
    CHECK_THAT(run.err, Catch::Contains("use of undeclared identifier 'SCALE'"));
  }
  SECTION("a kernel the hardware flow cannot build names the place") {
    std::string source = dir.write("pair.cl", "typedef struct { int a[4]; int b; } Pair;\n"
                                              "__kernel void k(__global int *p, Pair s) {\n"
                                              "  p[s.b] = s.a[p[0] & 3];\n"
                                              "}\n");
    Run run = loomc(dir, {source, "-o", output, "--board", "unit"});
    CHECK(run.exitCode == 1);
    CHECK_THAT(run.err, Catch::Contains("pair.cl:3:"));
    CHECK_THAT(run.err, Catch::Contains("struct argument 's' is read at an offset known only at run time"));
  }
  SECTION("an unknown board lists the known ones") {
    std::string source = dir.write("scale.cl", ScaleKernel);
    Run run = loomc(dir, {source, "-o", output, "--board", "no-such-board"});
    CHECK(run.exitCode == 1);
    CHECK_THAT(run.err, Catch::Contains("no-such-board"));
    CHECK_THAT(run.err, Catch::Contains("unit"));
  }
  SECTION("a missing input file") {
    Run run = loomc(dir, {dir.file("missing.cl"), "-o", output});
    CHECK(run.exitCode == 1);
    CHECK_THAT(run.err, Catch::Contains("cannot read"));
  }
  CHECK_FALSE(llvm::sys::fs::exists(output));
}

TEST_CASE("the report names autorun kernels and counts each channel's FIFO in the program's area") {
  llvm::LLVMContext context;
  auto compiled = loom::frontend::compileOpenCL(context, {R"(#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float4 c __attribute__((depth(64)));
channel float4 d;
__attribute__((max_global_work_dim(0)))
__kernel void producer(__global const float4 *src, int n) {
  for (int i = 0; i < n; ++i)
    write_channel_intel(c, src[i]);
}
__attribute__((autorun)) __attribute__((max_global_work_dim(0)))
__kernel void relay() { write_channel_intel(d, read_channel_intel(c) * 2.0f); }
__attribute__((max_global_work_dim(0)))
__kernel void consumer(__global float4 *dst, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = read_channel_intel(d);
}
)",
                                                          "channels.cl", ""},
                                                loom::frontend::Target::Hardware);
  REQUIRE_OK(compiled);
  auto board = loom::board::loadBoard("unit");
  REQUIRE_OK(board);
  auto program = loom::hls::synthesizeProgram(*compiled->module, *board);
  REQUIRE_OK(program);
  INFO(program->report);
  CHECK_THAT(program->report, Catch::Contains("kernel relay (autorun): II 1"));
  CHECK_THAT(program->report, Catch::Contains("kernel producer: II 1"));
  // 64 x 128 bits: 8 Kbit, a block RAM's worth; the default depth 2: registers.
  CHECK_THAT(program->report, Catch::Contains("channel 'c': 64 packets of 16 bytes, written by producer, read by "
                                              "relay: estimated 0 LUTs, 142 FFs, 2 RAM blocks"));
  CHECK_THAT(program->report, Catch::Contains("channel 'd': 2 packets of 16 bytes, written by relay, read by "
                                              "consumer: estimated 0 LUTs, 256 FFs, 0 RAM blocks"));
  // The program's RAM blocks are the channel's.
  CHECK_THAT(program->report, Catch::Contains("2 RAM blocks ("));
}

TEST_CASE("loomc names the place and the reason of a misused FPGA attribute or autorun kernel or channel") {
  // Each source breaks one rule: loomc exits 1 with the message and writes no Verilog (in a directory
  // of its own: ExecuteAndWait does not truncate the files it redirects to).
  auto fails = [](const char *name, const std::string &source) {
    ScratchDir dir;
    Run run = loomc(dir, {dir.write(name, source), "--rtl", "--board", "unit", "-o", dir.file("out.v")});
    CHECK(run.exitCode == 1);
    CHECK_FALSE(llvm::sys::fs::exists(dir.file("out.v")));
    return run.err;
  };
  SECTION("a banking attribute's negative argument") {
    CHECK_THAT(fails("negative.cl", "__kernel void k(__global int *a) {\n"
                                    "  int t[8] __attribute__((numbanks(-2)));\n"
                                    "  t[a[0] & 7] = 1;\n  a[1] = t[a[2] & 7];\n}\n"),
               Catch::Contains("negative.cl:2:27: error: argument 1 of 'numbanks' must be a non-negative integer "
                               "constant"));
  }
  SECTION("banks of an array of 3-byte elements") {
    const std::pair<const char *, const char *> cases[] = {
        {"numbanks(2)", "rgb.cl:3:27: error: 'numbanks' needs bankwidth on an array of 3-byte elements"},
        {"xcl_array_partition(cyclic, 2, 1)",
         "rgb.cl:3:27: error: 'xcl_array_partition' needs elements of a power-of-two size, not 3 bytes"}};
    for (const auto &[banks, expected] : cases)
      CHECK_THAT(fails("rgb.cl", std::string("typedef struct { char c[3]; } Rgb;\n"
                                             "__kernel void k(__global Rgb *a) {\n  Rgb t[8] __attribute__((") +
                                     banks + "));\n  t[a[0].c[0] & 7] = a[1];\n  a[2] = t[a[0].c[1] & 7];\n}\n"),
                 Catch::Contains(expected));
  }
  SECTION("an autorun kernel that takes arguments") {
    CHECK_THAT(fails("arguments.cl", "__attribute__((autorun)) __attribute__((max_global_work_dim(0)))\n"
                                     "__kernel void relay(__global int *a) { a[0] = 1; }\n"),
               Catch::Contains("arguments.cl:1:16: error: 'autorun' kernel 'relay' takes arguments"));
  }
  SECTION("an autorun kernel without a range of its own") {
    CHECK_THAT(fails("range.cl", "__attribute__((autorun))\n__kernel void relay() {}\n"),
               Catch::Contains("range.cl:1:16: error: 'autorun' kernel 'relay' needs max_global_work_dim(0) or "
                               "reqd_work_group_size"));
  }
  SECTION("an autorun kernel that prints") {
    CHECK_THAT(fails("prints.cl", "__attribute__((autorun)) __attribute__((max_global_work_dim(0)))\n"
                                  "__kernel void relay() {\n  printf(\"%d\\n\", 1);\n}\n"),
               Catch::Contains("prints.cl:3:3: error: autorun kernel 'relay' calls printf"));
  }
  SECTION("get_compute_id in a kernel with compute units that is not autorun") {
    CHECK_THAT(fails("unit.cl", "__attribute__((num_compute_units(2)))\n"
                                "__kernel void k(__global int *a) {\n  a[get_global_id(0)] = get_compute_id(0);\n}\n"),
               Catch::Contains("unit.cl:3:25: error: get_compute_id in kernel 'k', which is not autorun"));
  }
  SECTION("a channel used other than by the channel functions") {
    CHECK_THAT(fails("address.cl", "#pragma OPENCL EXTENSION cl_intel_channels : enable\nchannel int c;\n"
                                   "__kernel void k(__global ulong *a) { a[0] = (ulong)&c; }\n"),
               Catch::Contains("address.cl:3:43: error: channel or pipe 'c' is used other than by the channel and "
                               "pipe functions"));
  }
}

TEST_CASE("loomc: a recursive helper in a kernel with barriers is an error at the call, not a hang") {
  ScratchDir dir;
  std::string source = dir.write("fib.cl", "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
                                           "__kernel void k(__global int *a, __local int *t) {\n"
                                           "  t[get_local_id(0)] = fib(a[get_global_id(0)]);\n"
                                           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                           "  a[get_global_id(0)] = t[0];\n"
                                           "}\n");
  Run run = loomc(dir, {source, "--rtl"});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("fib.cl:1:37: error: 'fib' is called recursively from kernel 'k', which "
                                      "OpenCL C forbids"));
}
