// SPDX-License-Identifier: Apache-2.0
// Intel's channels and Xilinx's program-scope pipes in the frontend: the kernels using them get a
// hidden pipe argument per FIFO, which KernelInfo names with its depth and packet size, on both
// targets; what cannot be a FIFO is an error at its file:line:col.
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "../TestSupport.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace loom::frontend;

namespace {

llvm::Expected<CompiledModule> compile(llvm::LLVMContext &context, const std::string &source, Target target,
                                       const char *options = "") {
  return compileOpenCL(context, SourceInput{source, "fifos.cl", options}, target);
}

const KernelInfo &kernelNamed(const std::vector<KernelInfo> &kernels, llvm::StringRef name) {
  auto it = std::find_if(kernels.begin(), kernels.end(), [&](const KernelInfo &k) { return k.name == name; });
  REQUIRE(it != kernels.end());
  return *it;
}

/// The names of the functions `kernel` calls.
std::vector<std::string> callees(const llvm::Function &kernel) {
  std::vector<std::string> names;
  for (const llvm::Instruction &instruction : llvm::instructions(kernel))
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (const llvm::Function *callee = call->getCalledFunction())
        names.push_back(callee->getName().str());
  return names;
}

const char *const Channels = R"(#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c __attribute__((depth(16)));
channel long lanes[2][3];
// A helper's channel call is inlined into the kernel.
void put(int v) { write_channel_intel(c, v); }
__kernel void producer(__global const int *src, int n) {
  for (int i = 0; i < n; ++i)
    put(src[i]);
}
__kernel void consumer(__global long *dst) {
  dst[0] = read_channel_intel(c) + read_channel_intel(lanes[1][2]);
  bool valid;
  dst[1] = read_channel_nb_altera(lanes[0][1], &valid);
}
)";

} // namespace

TEST_CASE("each channel a kernel uses becomes a hidden pipe argument after its own, on both targets") {
  const Target target = GENERATE(Target::Hardware, Target::Host);
  llvm::LLVMContext context;
  auto compiled = compile(context, Channels, target);
  REQUIRE_OK(compiled);
  INFO(compiled->log);
  CHECK(compiled->log.find("warning") == std::string::npos);
  auto kernels = extractKernels(*compiled->module);
  REQUIRE_OK(kernels);

  const KernelInfo &producer = kernelNamed(*kernels, "producer");
  CHECK(producer.userArgCount() == 2);
  REQUIRE(producer.args.size() == 3);
  const KernelArg &out = producer.args[2];
  CHECK(out.isPipe());
  CHECK(out.access == AccessQualifier::WriteOnly);
  CHECK(out.programFifo == "c");
  CHECK(out.fifoDepth == 16);
  CHECK(out.fifoPacketBytes == 4);

  const KernelInfo &consumer = kernelNamed(*kernels, "consumer");
  CHECK(consumer.userArgCount() == 1);
  REQUIRE(consumer.args.size() == 4);
  std::vector<std::string> names;
  for (size_t i = 1; i < consumer.args.size(); ++i) {
    const KernelArg &in = consumer.args[i];
    CHECK(in.access == AccessQualifier::ReadOnly);
    names.push_back(in.programFifo);
  }
  CHECK(names == std::vector<std::string>{"c", "lanes[1][2]", "lanes[0][1]"});
  CHECK(consumer.args[2].fifoDepth == 2); // Loom's default depth.
  CHECK(consumer.args[2].fifoPacketBytes == 8);

  // The variables are gone; the kernels call the target's pipe functions.
  CHECK(compiled->module->getNamedGlobal("c") == nullptr);
  const std::string read = target == Target::Hardware ? "__read_pipe_2" : "__loom_pipe_read";
  const std::vector<std::string> called = callees(*compiled->module->getFunction("consumer"));
  CHECK(std::count(called.begin(), called.end(), read) == 3);
  // A kernel's JSON keeps the bindings (the board reads them from the binary).
  KernelInfo parsed;
  llvm::json::Path::Root root;
  REQUIRE(fromJSON(toJSON(consumer), parsed, root));
  CHECK(parsed.args[3].programFifo == "lanes[0][1]");
  CHECK(parsed.userArgCount() == 1);
}

TEST_CASE("Xilinx's program-scope pipes are FIFOs too, and 'pipe' elsewhere keeps its meaning") {
  const Target target = GENERATE(Target::Hardware, Target::Host);
  llvm::LLVMContext context;
  auto compiled = compile(context, R"(
pipe int p __attribute__((xcl_reqd_pipe_depth(32)));
__kernel void stage(__global const int *src, __write_only pipe int out) {
  int v;
  read_pipe_block(p, &v);
  write_pipe(out, &src[v]);
}
__kernel void feed(int v) { write_pipe_block(p, &v); }
)",
                          target, "-cl-std=CL2.0");
  REQUIRE_OK(compiled);
  auto kernels = extractKernels(*compiled->module);
  REQUIRE_OK(kernels);
  const KernelInfo &stage = kernelNamed(*kernels, "stage");
  REQUIRE(stage.args.size() == 3);
  CHECK(stage.userArgCount() == 2);
  CHECK(stage.args[1].programFifo.empty());
  CHECK(stage.args[2].programFifo == "p");
  CHECK(stage.args[2].fifoDepth == 32);
  CHECK(kernelNamed(*kernels, "feed").args[1].access == AccessQualifier::WriteOnly);
}

TEST_CASE("channels keep diagnostics at their columns, and 'channel' is a name where channels are off") {
  llvm::LLVMContext context;
  // The undeclared name sits after the renamed keyword on its line.
  auto bad = compile(context,
                     "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
                     "channel int c; int x = undeclared;\n",
                     Target::Hardware);
  REQUIRE_FALSE(bool(bad));
  CHECK_THAT(llvm::toString(bad.takeError()), Catch::Contains("fifos.cl:2:24: error: use of undeclared identifier"));
  auto plain = compile(context, "__constant int channel = 3;\n__kernel void k(__global int *a) { a[0] = channel; }\n",
                       Target::Hardware);
  REQUIRE_OK(plain);
}

TEST_CASE("what cannot be a FIFO, an autorun kernel or a compute id is an error at its line") {
  struct Case {
    const char *source;
    const char *expected;
  };
  const Case cases[] = {
      {"#pragma OPENCL EXTENSION cl_intel_channels : enable\nchannel int c[4];\n"
       "__kernel void k(__global int *a, int i) {\n  a[0] = read_channel_intel(c[i]);\n}\n",
       "fifos.cl:4:10: error: channel array 'c' is indexed by a value known only at run time"},
      {"#pragma OPENCL EXTENSION cl_intel_channels : enable\nchannel int c;\n"
       "__kernel void k(__global int *a) {\n  write_channel_intel(c, 1);\n  a[0] = read_channel_intel(c);\n}\n",
       "fifos.cl:5:10: error: kernel 'k' reads 'c', which it writes at fifos.cl:4:3: a kernel may only read a "
       "channel or pipe, or only write it"},
      {"__constant int d __attribute__((depth(4))) = 1;\n__kernel void k(__global int *a) { a[0] = d; }\n",
       "fifos.cl:1:33: error: 'depth' applies to program-scope channels and pipes only"},
      // Autorun kernels and compute ids.
  };
  for (const Case &c : cases) {
    INFO(c.source);
    for (Target target : {Target::Hardware, Target::Host}) {
      llvm::LLVMContext context;
      auto compiled = compile(context, c.source, target);
      REQUIRE_FALSE(bool(compiled));
      CHECK_THAT(llvm::toString(compiled.takeError()), Catch::Contains(c.expected));
    }
  }
}

TEST_CASE("an autorun kernel with compute units is one kernel per unit, each with its compute id and channels") {
  const Target target = GENERATE(Target::Hardware, Target::Host);
  llvm::LLVMContext context;
  auto compiled = compile(context, R"(#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int in[2][3];
channel int out;
uint unit(void) { return get_compute_id(1) * 10 + get_compute_id(0); }
__attribute__((autorun)) __attribute__((max_global_work_dim(0))) __attribute__((num_compute_units(2, 3)))
__kernel void work() {
  write_channel_intel(out, read_channel_intel(in[get_compute_id(0)][get_compute_id(1)]) + unit());
}
__kernel void host(__global uint *a) { a[0] = get_compute_id(0); }
)",
                          target);
  REQUIRE_OK(compiled);
  INFO(compiled->log);
  CHECK(compiled->log.find("warning") == std::string::npos);
  auto kernels = extractKernels(*compiled->module);
  REQUIRE_OK(kernels);
  CHECK(kernels->size() == 7);
  CHECK_FALSE(kernelNamed(*kernels, "host").autorun);
  for (unsigned unit = 0; unit < 6; ++unit) {
    const std::string name = "work_cu" + std::to_string(unit);
    INFO(name);
    const KernelInfo &copy = kernelNamed(*kernels, name);
    CHECK(copy.autorun);
    CHECK(copy.userArgCount() == 0);
    // Unit i is (i % 2, i / 2): its channel is in[i % 2][i / 2].
    REQUIRE(copy.args.size() == 2);
    CHECK(copy.args[0].programFifo == "in[" + std::to_string(unit % 2) + "][" + std::to_string(unit / 2) + "]");
    CHECK(copy.args[1].programFifo == "out");
    // hls/ must not copy the copies again.
    CHECK(copy.attributes.find("num_compute_units") == std::string::npos);
    KernelInfo parsed;
    llvm::json::Path::Root root;
    REQUIRE(fromJSON(toJSON(copy), parsed, root));
    CHECK(parsed.autorun);
  }
  // No compute id is left to call: each copy's is in its code (and a host kernel's is 0).
  for (const llvm::Function &function : *compiled->module)
    for (const std::string &callee : callees(function))
      CHECK(callee != "get_compute_id");
}
