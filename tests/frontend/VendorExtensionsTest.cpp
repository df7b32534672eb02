// SPDX-License-Identifier: Apache-2.0
// Intel's and Xilinx's FPGA attributes and pragmas: what Loom honours reaches KernelInfo or the
// loop metadata, what it does not is a warning at file:line:col with the reason, never silence;
// misuse is an error.
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "../TestSupport.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <fstream>
#include <regex>

using namespace loom::frontend;

namespace {

llvm::Expected<CompiledModule> compile(llvm::LLVMContext &context, const std::string &source,
                                       Target target = Target::Hardware) {
  return compileOpenCL(context, SourceInput{source, "vendor.cl", ""}, target);
}

/// Compiles `source` for `target`, which must succeed without a warning.
CompiledModule compileSilently(llvm::LLVMContext &context, const std::string &source, Target target) {
  auto compiled = compile(context, source, target);
  REQUIRE_OK(compiled);
  INFO(compiled->log);
  CHECK(compiled->log.find("warning") == std::string::npos);
  return std::move(*compiled);
}

/// The loop metadata of the one loop of `kernel`'s function.
const llvm::MDNode *loopIdOf(const llvm::Module &module, llvm::StringRef kernel) {
  const llvm::Function *f = module.getFunction(kernel);
  REQUIRE(f);
  for (const llvm::BasicBlock &block : *f)
    if (const llvm::MDNode *id = block.getTerminator()->getMetadata("llvm.loop"))
      return id;
  FAIL("kernel " << kernel.str() << " has no loop metadata");
  return nullptr;
}

/// Whether `id` (or a follow-up node inside it) holds the attribute `name`.
bool hasLoopAttribute(const llvm::MDNode *id, llvm::StringRef name) {
  for (const llvm::MDOperand &op : id->operands()) {
    const auto *attribute = llvm::dyn_cast_or_null<llvm::MDNode>(op.get());
    if (!attribute || attribute == id || attribute->getNumOperands() == 0)
      continue;
    const auto *key = llvm::dyn_cast<llvm::MDString>(attribute->getOperand(0));
    if (key && key->getString() == name)
      return true;
  }
  return false;
}

} // namespace

TEST_CASE("honoured kernel attributes reach KernelInfo and CL_KERNEL_ATTRIBUTES, silently") {
  const char *source = R"(
__attribute__((max_global_work_dim(0)))
__kernel void task(__global int *a) { a[0] = 1; }

__attribute__((max_work_group_size(64, 2, 1)))
__kernel void bounded(__global int *a) { a[get_global_id(0)] = 1; }

__attribute__((xcl_max_work_group_size(32, 1, 1)))
__kernel void xilinx(__global int *a) { a[get_global_id(0)] = 1; }

__kernel void plain(__global int *a) { a[get_global_id(0)] = 1; }
)";
  for (Target target : {Target::Hardware, Target::Host}) {
    llvm::LLVMContext context;
    auto compiled = compileSilently(context, source, target);
    // Kernel metadata, not annotations: those would keep the kernels alive beside the CPU device's
    // work-group functions.
    CHECK(compiled.module->getNamedGlobal("llvm.global.annotations") == nullptr);
    auto kernels = extractKernels(*compiled.module);
    REQUIRE_OK(kernels);
    REQUIRE(kernels->size() == 4);
    const KernelInfo &task = (*kernels)[0], &bounded = (*kernels)[1], &xilinx = (*kernels)[2],
                     &plain = (*kernels)[3];
    CHECK(task.maxGlobalWorkDim == 0);
    CHECK(task.attributes == "max_global_work_dim(0)");
    CHECK(bounded.maxWorkGroupSize == 128);
    CHECK(bounded.attributes == "max_work_group_size(64,2,1)");
    CHECK(xilinx.maxWorkGroupSize == 32);
    CHECK(plain.maxGlobalWorkDim == 3);
    CHECK(plain.maxWorkGroupSize == 0);
    CHECK(plain.attributes.empty());

    // They travel in the binary's JSON.
    KernelInfo back;
    llvm::json::Path::Root root;
    REQUIRE(fromJSON(toJSON(task), back, root));
    CHECK(back.maxGlobalWorkDim == 0);
    REQUIRE(fromJSON(toJSON(bounded), back, root));
    CHECK(back.maxWorkGroupSize == 128);
  }
}

TEST_CASE("ignored attributes and pragmas warn at their line with the reason") {
  const char *source = R"(__attribute__((num_compute_units(2))) __attribute__((max_global_work_dim(0)))
__attribute__((xcl_dataflow))
__kernel void k(__global int *a, int n) {
  __local int tile[64] __attribute__((simple_dual_port, max_replicates(2)));
  int priv[8] __attribute__((xcl_array_reshape(complete, 1)));
  #pragma loop_coalesce 2
  for (int i = 0; i < n; ++i) tile[i & 63] = a[i];
  #pragma max_concurrency 1
  for (int i = 0; i < 8; ++i) priv[i] = tile[i];
  #pragma ivdep array(priv) safelen
  for (int i = 0; i < n; ++i) a[i] += priv[i & 7];
  __attribute__((xcl_dependence(type="inter", direction="RAW", dependent="false")))
  for (int i = 1; i < n; ++i) a[i] += a[i - 1];
}
)";
  llvm::LLVMContext context;
  auto compiled = compile(context, source);
  REQUIRE_OK(compiled);
  const std::string &log = compiled->log;
  INFO(log);
  CHECK(log.find("unknown attribute") == std::string::npos);
  CHECK(log.find("vendor.cl:1:16: warning: 'num_compute_units' ignored on a single work-item kernel that is not "
                 "autorun: its copies would differ only by get_compute_id") != std::string::npos);
  CHECK(log.find("vendor.cl:2:16: warning: 'xcl_dataflow' ignored:") != std::string::npos);
  CHECK(log.find("vendor.cl:4:39: warning: 'simple_dual_port' ignored: Loom gives every access") != std::string::npos);
  CHECK(log.find("'max_replicates' ignored") != std::string::npos);
  CHECK(log.find("vendor.cl:5:30: warning: 'xcl_array_reshape' ignored") != std::string::npos);
  CHECK(log.find("vendor.cl:6:11: warning: '#pragma loop_coalesce' ignored:") != std::string::npos);
  CHECK(log.find("vendor.cl:8:11: warning: '#pragma max_concurrency' ignored:") != std::string::npos);
  CHECK(log.find("vendor.cl:10:11: warning: '#pragma ivdep array(priv) safelen' ignored: Loom takes '#pragma "
                 "ivdep', optionally with 'safelen(N)'") != std::string::npos);
  // Vitis's keyword arguments parse (Clang would take `type` for an undeclared variable).
  CHECK(log.find("vendor.cl:12:18: warning: 'xcl_dependence' ignored: Loom orders a loop's memory accesses by "
                 "its own dependence analysis") != std::string::npos);
}

TEST_CASE("#pragma ii and #pragma ivdep become the loop's metadata") {
  const char *source = R"(
__kernel void ii(__global float *a, int n) {
  float s = 0;
  #pragma ii 6
  for (int i = 0; i < n; ++i) s += a[i];
  a[0] = s;
}
__kernel void ivdep(__global int *a, __global const int *index, int n) {
  #pragma ivdep
  for (int i = 0; i < n; ++i) a[index[i]] += 1;
}
__kernel void both(__global int *a, __global const int *index, int n) {
  #pragma ivdep
  #pragma ii 2
  for (int i = 0; i < n; ++i) a[index[i]] += 1;
}
)";
  llvm::LLVMContext context;
  auto compiled = compileSilently(context, source, Target::Hardware);
  llvm::Module &module = *compiled.module;
  CHECK(hasLoopAttribute(loopIdOf(module, "ii"), "llvm.loop.pipeline.initiationinterval"));
  CHECK_FALSE(hasLoopAttribute(loopIdOf(module, "ii"), "llvm.loop.parallel_accesses"));

  // ivdep: every memory access of the loop is in the loop's parallel access group, and the
  // hardware target's vectorizer left the loop alone.
  for (const char *name : {"ivdep", "both"}) {
    llvm::Function &f = *module.getFunction(name);
    llvm::DominatorTree dominators(f);
    llvm::LoopInfo loops(dominators);
    REQUIRE(loops.getTopLevelLoops().size() == 1);
    CHECK(loops.getTopLevelLoops()[0]->isAnnotatedParallel());
    for (const llvm::BasicBlock &block : f)
      for (const llvm::Instruction &inst : block)
        CHECK_FALSE(inst.getType()->isVectorTy());
  }
}

/// The loop attributes `name` of `id` with `operands` operands, the name included.
std::vector<const llvm::MDNode *> loopAttributes(const llvm::MDNode *id, llvm::StringRef name, unsigned operands) {
  std::vector<const llvm::MDNode *> found;
  for (const llvm::MDOperand &op : id->operands()) {
    const auto *attribute = llvm::dyn_cast_or_null<llvm::MDNode>(op.get());
    const auto *key = attribute && attribute != id && attribute->getNumOperands() == operands
                          ? llvm::dyn_cast<llvm::MDString>(attribute->getOperand(0))
                          : nullptr;
    if (key && key->getString() == name)
      found.push_back(attribute);
  }
  return found;
}

/// The integer operand `at` of `attribute`.
uint64_t integerOperand(const llvm::MDNode *attribute, unsigned at) {
  return llvm::mdconst::extract<llvm::ConstantInt>(attribute->getOperand(at))->getZExtValue();
}

/// The value of loop attribute `name` in `id` (None: absent).
llvm::Optional<uint64_t> loopAttributeValue(const llvm::MDNode *id, llvm::StringRef name) {
  const auto found = loopAttributes(id, name, 2);
  return found.empty() ? llvm::None : llvm::Optional<uint64_t>(integerOperand(found.front(), 1));
}

TEST_CASE("#pragma ivdep safelen(N) becomes loom.loop.ivdep_safelen, not parallel accesses") {
  const char *source = R"(
__kernel void safe(__global int *a, __global const int *index, int n) {
  #pragma ivdep safelen(6)
  for (int i = 0; i < n; ++i) a[index[i]] += a[i];
}
)";
  llvm::LLVMContext context;
  auto compiled = compileSilently(context, source, Target::Hardware);
  const llvm::MDNode *id = loopIdOf(*compiled.module, "safe");
  CHECK(loopAttributeValue(id, "loom.loop.ivdep_safelen") == uint64_t(6));
  CHECK_FALSE(hasLoopAttribute(id, "llvm.loop.parallel_accesses"));
}

/// The variables and values of the `name` attributes of `id` that name one ({"x", N} each).
std::map<std::string, uint64_t> loopVariableAttributes(const llvm::MDNode *id, llvm::StringRef name) {
  std::map<std::string, uint64_t> values;
  for (const llvm::MDNode *attribute : loopAttributes(id, name, 3))
    values[llvm::cast<llvm::MDString>(attribute->getOperand(1))->getString().str()] = integerOperand(attribute, 2);
  return values;
}

TEST_CASE("#pragma ivdep array(x) [safelen(N)] becomes loom.loop.ivdep_array per variable") {
  const char *source = R"(
__kernel void arrays(__global int *a, __global int *b, __global const int *index, int n) {
  __local int tile[64];
  #pragma ivdep array(a)
  #pragma ivdep safelen(3) array(tile)
  #pragma ivdep array(b) safelen(8)
  #pragma ivdep array(b) safelen(5)
  for (int i = 0; i < n; ++i) {
    a[index[i]] += tile[index[i] & 63];
    tile[i & 63] = b[index[i]]++;
  }
}
__kernel void unused(__global int *a, int n) {
  #pragma ivdep array(missing)
  for (int i = 0; i < n; ++i) a[i] *= 3;
}
)";
  llvm::LLVMContext context;
  auto compiled = compile(context, source, Target::Hardware);
  REQUIRE_OK(compiled);
  INFO(compiled->log);
  // The only warning: the other pragmas are taken.
  CHECK(compiled->log.find("vendor.cl:14:11: warning: the loop after this pragma does not use 'missing': the "
                           "pragma has no effect") != std::string::npos);
  CHECK(compiled->log.find(": warning:") == compiled->log.rfind(": warning:"));
  const llvm::MDNode *id = loopIdOf(*compiled->module, "arrays");
  // A later pragma on the same variable replaces the earlier one.
  CHECK(loopVariableAttributes(id, "loom.loop.ivdep_array") ==
        std::map<std::string, uint64_t>{{"a", 0}, {"b", 5}, {"tile", 3}});
  CHECK_FALSE(hasLoopAttribute(id, "llvm.loop.parallel_accesses"));
  CHECK_FALSE(loopAttributeValue(id, "loom.loop.ivdep_safelen"));
}

/// `function` is one loop nest of two loops, the inner one under `#pragma max_interleaving limit`.
void checkInnerMaxInterleaving(llvm::Function &function, uint64_t limit) {
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  REQUIRE(loops.getTopLevelLoops().size() == 1);
  const llvm::Loop &outer = *loops.getTopLevelLoops()[0];
  REQUIRE(outer.getSubLoops().size() == 1);
  CHECK(loopAttributeValue(outer.getSubLoops()[0]->getLoopID(), "loom.loop.max_interleaving") == limit);
  CHECK_FALSE(loopAttributeValue(outer.getLoopID(), "loom.loop.max_interleaving"));
}

TEST_CASE("#pragma max_interleaving reaches the loop that follows it, and only that loop") {
  const char *source = R"(
__kernel void nest(__global int *a, int n) {
  for (int j = 0; j < n; ++j) {
    int s = 0;
    // Comments, other pragmas and blank lines may come between.
    #pragma max_interleaving 1

    #pragma nounroll
    for (int i = 0; i < j; ++i)
      s += a[i] * i;
    a[j] = s;
  }
}
__kernel void later(__global int *a, int n) {
  #pragma max_interleaving 4
  #pragma max_interleaving 2
  while (n > 0) { a[n] = n; --n; }
}
__kernel void stray(__global int *a, int n) {
  #pragma max_interleaving 1
  a[0] = n;
  for (int i = 0; i < n; ++i) a[i] = i;
}
)";
  llvm::LLVMContext context;
  auto compiled = compile(context, source);
  REQUIRE_OK(compiled);
  llvm::Module &module = *compiled->module;
  const std::string &log = compiled->log;
  INFO(log);
  checkInnerMaxInterleaving(*module.getFunction("nest"), 1);
  // The last of two pragmas wins.
  CHECK(loopAttributeValue(loopIdOf(module, "later"), "loom.loop.max_interleaving") == uint64_t(2));
  // A pragma before another statement binds nothing, and says so.
  CHECK(log.find("vendor.cl:20:11: warning: '#pragma max_interleaving' ignored: no loop follows it") !=
        std::string::npos);
  CHECK_FALSE(loopAttributeValue(loopIdOf(module, "stray"), "loom.loop.max_interleaving"));
  CHECK(log.find("warning:") == log.rfind("warning:"));
}

TEST_CASE("#pragma max_interleaving reaches a loop in an included file") {
  // Under the compile's directory, debug information names the file relative to it, while the
  // source manager names it as the include search found it: here, absolute.
  llvm::SmallString<128> directory;
  REQUIRE_FALSE(llvm::sys::fs::current_path(directory));
  directory += "/loom-pragma-" + std::to_string(llvm::sys::Process::getProcessId());
  REQUIRE_FALSE(llvm::sys::fs::create_directory(directory));
  const std::string header = (directory + "/fold.h").str();
  {
    std::ofstream out(header);
    out << "int fold(__global const int *a, int n) {\n  int s = 0;\n  #pragma max_interleaving 3\n"
           "  for (int i = 0; i < n; ++i)\n    s = s * 3 + a[i];\n  return s;\n}\n";
  }
  llvm::LLVMContext context;
  auto compiled = compileOpenCL(context,
                                SourceInput{"#include \"fold.h\"\n__kernel void k(__global int *a, int n) {\n"
                                            "  for (int j = 0; j < n; ++j) a[j] = fold(a + j, j);\n}\n",
                                            "vendor.cl", "-I " + directory.str().str()},
                                Target::Hardware);
  llvm::sys::fs::remove(header);
  llvm::sys::fs::remove(directory);
  REQUIRE_OK(compiled);
  INFO(compiled->log);
  CHECK(compiled->log.find("warning") == std::string::npos);
  checkInnerMaxInterleaving(*compiled->module->getFunction("k"), 3);
}

TEST_CASE("misused vendor attributes and pragmas are errors at their line") {
  struct Case {
    const char *source;
    const char *expected;
  };
  const Case cases[] = {
      {"__kernel void k(__global int *a) {\n  int x __attribute__((max_global_work_dim(0))) = 1;\n  a[0] = x;\n}\n",
       "vendor.cl:2:24: error: 'max_global_work_dim' applies to kernel functions only"},
      {"__attribute__((numbanks(2)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'numbanks' applies to variables and struct fields only"},
      {"__attribute__((max_global_work_dim(0, 1)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'max_global_work_dim' takes 1 integer arguments"},
      {"__kernel void k(__global int *a, int n) {\n  #pragma ii fast\n  for (int i = 0; i < n; ++i) a[i] = i;\n}\n",
       "vendor.cl:2:11: error: '#pragma ii' takes one positive integer, the loop's initiation interval, not 'fast'"},
      {"__kernel void k(__global int *a, int n) {\n  #pragma ivdep\n  a[0] = n;\n}\n",
       "error: expected a for, while, or do-while loop"},
      {"__kernel void k(__global int *a, int n) {\n  #pragma max_interleaving 33\n  for (int i = 0; i < n; ++i) "
       "a[i] = i;\n}\n",
       "vendor.cl:2:11: error: '#pragma max_interleaving' takes an integer from 0 (the default) to 32, the loop's "
       "invocations in flight at once, not '33'"},
      {"__kernel void k(__global int *a, int n) {\n  #pragma max_interleaving\n  for (int i = 0; i < n; ++i) "
       "a[i] = i;\n}\n",
       "vendor.cl:2:11: error: '#pragma max_interleaving' takes an integer"},
      // The hardware takes N work-items of one work-group a cycle.
      {"__attribute__((num_simd_work_items(4)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'num_simd_work_items(4)' needs reqd_work_group_size with a first size that 4 "
       "divides: the hardware takes 4 consecutive work-items of one work-group each cycle"},
      {"__kernel __attribute__((num_simd_work_items(8))) __attribute__((reqd_work_group_size(12, 1, 1)))\n"
       "void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:25: error: 'num_simd_work_items(8)' needs reqd_work_group_size with a first size that 8 "
       "divides (it is 12)"},
      {"__attribute__((reqd_work_group_size(12, 1, 1))) __attribute__((num_simd_work_items(3)))\n"
       "__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:64: error: 'num_simd_work_items' takes a power of two up to 16"},
      {"__attribute__((num_compute_units(0)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'num_compute_units' asks for no compute units: Loom builds 1 to 16"},
      {"__attribute__((num_compute_units(4, 4, 2)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'num_compute_units' asks for 32 compute units: Loom builds 1 to 16"},
      // The product goes past the limit before the last factor: still named in full.
      {"__attribute__((num_compute_units(8, 4, 2)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'num_compute_units' asks for 64 compute units: Loom builds 1 to 16"},
      {"__attribute__((num_compute_units(2, 2, 2, 2)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: 'num_compute_units' takes 1 to 3 integer arguments"},
      // A macro the build options were to define (rodinia_fpga's CUSIZE).
      {"__attribute__((num_compute_units(CUSIZE)))\n__kernel void k(__global int *a) { a[0] = 1; }\n",
       "vendor.cl:1:16: error: argument 1 of 'num_compute_units' is 'CUSIZE', which is not defined: write the "
       "number, or define it in the build options (-DCUSIZE=N)"},
      // Banking needs an array, bits inside it, and one vendor's words for it.
      {"__kernel void k(__global int *a) {\n  int x __attribute__((numbanks(2))) = a[1];\n  a[0] = x;\n}\n",
       "vendor.cl:2:24: error: 'numbanks' applies to arrays: 'x' is not an array"},
      {"__kernel void k(__global int *a) {\n  __local int t[16] __attribute__((numbanks(3)));\n  t[a[0]] = 1;\n}\n",
       "vendor.cl:2:36: error: 'numbanks' takes a power of two up to 256"},
      {"__kernel void k(__global int *a) {\n  __local int t[4] __attribute__((numbanks(8)));\n  t[a[0]] = 1;\n}\n",
       "vendor.cl:2:35: error: 'numbanks' puts the banks of 't' on address bit 4, beyond its 16 bytes"},
      {"__kernel void k(__global int *a) {\n  __local int t[64] __attribute__((numbanks(4), bank_bits(2)));\n"
       "  t[a[0]] = 1;\n}\n",
       "vendor.cl:2:36: error: 'numbanks(4)' disagrees with bank_bits, whose 1 bits select 2 banks"},
      {"__kernel void k(__global int *a) {\n  __local int t[64] __attribute__((bankwidth(8), bank_bits(2, 4)));\n"
       "  t[a[0]] = 1;\n}\n",
       "vendor.cl:2:50: error: 'bank_bits' takes distinct address bits above the bank's 8-byte words, not 2"},
      {"__kernel void k(__global int *a) {\n  int t[8][4] __attribute__((xcl_array_partition(cyclic, 2, 3)));\n"
       "  t[a[0]][a[1]] = 1;\n  a[2] = t[a[3]][0];\n}\n",
       "vendor.cl:2:30: error: 'xcl_array_partition' names dimension 3 of an array of 2 dimensions"},
      {"__kernel void k(__global int *a) {\n  int t[8] __attribute__((xcl_array_partition(cyclic, 16, 1)));\n"
       "  t[a[0]] = 1;\n  a[2] = t[a[3]];\n}\n",
       "vendor.cl:2:27: error: 'xcl_array_partition' needs a power-of-two factor up to the dimension's size 8, not 16"},
      {"__kernel void k(__global int *a) {\n  int t[8] __attribute__((xcl_array_partition(sideways, 2, 1)));\n"
       "  t[a[0]] = 1;\n  a[2] = t[a[3]];\n}\n",
       "vendor.cl:2:27: error: 'xcl_array_partition' takes (cyclic, FACTOR, DIMENSION), (block, FACTOR, DIMENSION) "
       "or (complete, DIMENSION)"},
      {"__kernel void k(__global int *a) {\n  int t[8] __attribute__((numbanks(2), xcl_array_partition(complete, 1)));"
       "\n  t[a[0]] = 1;\n  a[2] = t[a[3]];\n}\n",
       "vendor.cl:2:40: error: 'xcl_array_partition' cannot be combined with Intel's numbanks, bankwidth or "
       "bank_bits on 't'"},
      {"__kernel void k(__global int *a) {\n  int t[8] __attribute__((register, numbanks(2)));"
       "\n  t[a[0]] = 1;\n  a[2] = t[a[3]];\n}\n",
       "vendor.cl:2:27: error: 'register' cannot be combined with banks on 't': it makes every element a register"},
      {"__kernel void k(__global int *a) {\n  int t[300] __attribute__((register));"
       "\n  t[a[0]] = 1;\n  a[2] = t[a[3]];\n}\n",
       "vendor.cl:2:29: error: 'register' keeps at most 256 elements of a power-of-two size in registers: 't' has "
       "300 of 4 bytes"},
  };
  for (const Case &c : cases) {
    llvm::LLVMContext context;
    auto compiled = compile(context, c.source);
    const std::string log = errorMessage(compiled);
    INFO(log);
    CHECK(log.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("vendors' statement attributes warn with Loom's reason, not as unknown attributes") {
  const char *source = R"(__kernel void k(__global int *a, int n) {
  __attribute__((xcl_pipeline_loop(1)))
  for (int i = 0; i < n; ++i) a[i] = i;
  __attribute__((xcl_pipeline_loop))
  for (int i = 0; i < n; ++i) a[i] += i;
  __attribute__((xcl_pipeline_workitems)) {
    a[get_global_id(0)] += 1;
  }
  __attribute__((not_a_vendor_attribute))
  for (int i = 0; i < n; ++i) a[i] -= 1;
  __attribute__((xcl_loop_tripcount(16, 64)))
  for (int i = 0; i < n; ++i) a[i] *= 3;
}
)";
  llvm::LLVMContext context;
  auto compiled = compile(context, source);
  REQUIRE_OK(compiled);
  const std::string &log = compiled->log;
  INFO(log);
  CHECK(log.find("vendor.cl:2:18: warning: 'xcl_pipeline_loop' ignored: Loom pipelines every loop at the lowest II") !=
        std::string::npos);
  CHECK(log.find("vendor.cl:4:18: warning: 'xcl_pipeline_loop' ignored:") != std::string::npos);
  CHECK(log.find("vendor.cl:6:18: warning: 'xcl_pipeline_workitems' ignored: Loom always pipelines") !=
        std::string::npos);
  CHECK(log.find("vendor.cl:11:18: warning: 'xcl_loop_tripcount' ignored: it only feeds Vitis's estimates") !=
        std::string::npos);
  // Other unknown attributes keep Clang's own warning; the count covers all five.
  CHECK(log.find("vendor.cl:9:18: warning: unknown attribute 'not_a_vendor_attribute' ignored") != std::string::npos);
  CHECK(log.find("unknown attribute 'xcl_") == std::string::npos);
  CHECK(log.find("5 warnings generated") != std::string::npos);
}

TEST_CASE("honoured kernel attributes reach the kernel's metadata without a warning") {
  struct Case {
    const char *source, *attribute, *attributes;
  };
  const Case cases[] = {
      {"__attribute__((num_compute_units(2, 3)))\n__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n",
       "num_compute_units", "num_compute_units(2,3)"},
      // num_simd_work_items with a reqd_work_group_size it divides.
      {"__attribute__((num_simd_work_items(16))) __attribute__((reqd_work_group_size(64, 2, 1)))\n"
       "__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n",
       "num_simd_work_items", "num_simd_work_items(16) reqd_work_group_size(64,2,1)"},
  };
  for (const Case &c : cases) {
    llvm::LLVMContext context;
    auto compiled = compile(context, c.source);
    REQUIRE_OK(compiled);
    INFO(compiled->log);
    CHECK(compiled->log.find(c.attribute) == std::string::npos);
    auto kernels = extractKernels(*compiled->module);
    REQUIRE_OK(kernels);
    REQUIRE(kernels->size() == 1);
    CHECK(kernels->front().attributes == c.attributes);
  }
}

namespace {

/// The vendor attributes the frontend left on the private array (alloca) or __local array (global)
/// named `name`, joined by spaces; empty when it has none.
std::string arrayAttributes(const llvm::Module &module, llvm::StringRef name) {
  const llvm::MDNode *attributes = nullptr;
  for (const llvm::GlobalVariable &global : module.globals())
    if (global.getName().endswith("." + name.str()))
      attributes = global.getMetadata("loom.vendor_attributes");
  for (const llvm::Function &function : module)
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &inst : block)
        if (llvm::isa<llvm::AllocaInst>(inst) && inst.getName() == name)
          attributes = inst.getMetadata("loom.vendor_attributes");
  std::string joined;
  for (const llvm::MDOperand &operand : attributes ? attributes->operands() : llvm::ArrayRef<llvm::MDOperand>{})
    joined += (joined.empty() ? "" : " ") + llvm::cast<llvm::MDString>(operand.get())->getString().str();
  return joined;
}

} // namespace

TEST_CASE("xcl_array_partition of shapes that are not powers of two, as Vitis examples have them") {
  const char *source = R"(__kernel void k(__global int *a) {
  int taps[11] __attribute__((xcl_array_partition(complete, 0)));
  int window[3][3] __attribute__((xcl_array_partition(complete, 0)));
  int rows[6][4] __attribute__((xcl_array_partition(cyclic, 2, 1)));
  int columns[4][6] __attribute__((xcl_array_partition(complete, 2)));
  int lines[3][256] __attribute__((xcl_array_partition(complete, 0)));
  taps[a[0] % 11] = 1; window[a[1] % 3][a[2] % 3] = 2; rows[a[3] % 6][a[4] & 3] = 3; columns[a[5] & 3][a[6] % 6] = 4;
  lines[a[12] % 3][a[13] & 255] = 5;
  a[7] = taps[a[8] % 11] + window[a[9] % 3][0] + rows[a[10] % 6][1] + columns[2][a[11] % 6] + lines[1][a[14] & 255];
}
)";
  llvm::LLVMContext context;
  auto compiled = compile(context, source);
  REQUIRE_OK(compiled);
  const std::string &log = compiled->log;
  INFO(log);
  // Each of the 11 taps and of the 9 window elements a bank: 16 banks, element-index bits 0-3.
  CHECK(arrayAttributes(*compiled->module, "taps") == "bank_bits(2,3,4,5)");
  CHECK(arrayAttributes(*compiled->module, "window") == "bank_bits(2,3,4,5)");
  // The outermost dimension's index is the element index's bits from 2 up, whatever its size.
  CHECK(arrayAttributes(*compiled->module, "rows") == "bank_bits(4)");
  // An inner dimension of 6: no run of bits picks its banks. Ignored, and said so.
  CHECK(arrayAttributes(*compiled->module, "columns").empty());
  CHECK(log.find("vendor.cl:5:36: warning: 'xcl_array_partition' on dimension 2 ignored: dimension 2 has 6 "
                 "elements, not a power of two") != std::string::npos);
  // More banks than the hardware builds: ignored, and said so.
  CHECK(arrayAttributes(*compiled->module, "lines").empty());
  CHECK(log.find("vendor.cl:6:36: warning: 'xcl_array_partition' ignored: it splits 'lines' into 1024 banks, and "
                 "Loom builds at most 256") != std::string::npos);
  CHECK(log.find("error") == std::string::npos);
}

TEST_CASE("banking attributes become the array's bank bits, private_copies its copies, silently") {
  const char *source = R"(__kernel void k(__global int *a, int n) {
  __local int tile[64] __attribute__((numbanks(4), bankwidth(8)));
  __local float4 quads[16] __attribute__((numbanks(2)));
  int grid[4][16] __attribute__((xcl_array_partition(cyclic, 4, 2), xcl_array_partition(block, 2, 1)));
  short whole[8] __attribute__((xcl_array_partition(complete, 0)));
  int picked[32] __attribute__((bank_bits(5, 2)));
  int copies[8] __attribute__((private_copies(4), __annotate__("user's own")));
  int plain[8];
  int regs[6] __attribute__((register));
  __local int pumped[64] __attribute__((doublepump));
  regs[a[16] % 6] = n; pumped[a[17] & 63] = n;
  tile[a[0] & 63] = n; quads[a[1] & 15] = (float4)(n); grid[a[2] & 3][a[3] & 15] = n;
  whole[a[4] & 7] = (short)n; picked[a[5] & 31] = n; copies[a[6] & 7] = n; plain[a[7] & 7] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[0] = tile[a[8] & 63] + (int)quads[a[9] & 15].x + grid[a[10] & 3][a[11] & 15] + whole[a[12] & 7] +
         picked[a[13] & 31] + copies[a[14] & 7] + plain[a[15] & 7] + regs[a[18] % 6] + pumped[a[19] & 63];
}
)";
  for (Target target : {Target::Hardware, Target::Host}) {
    llvm::LLVMContext context;
    const auto compiled = compileSilently(context, source, target);
    const llvm::Module &module = *compiled.module;
    // Banks of 8-byte words: byte-address bits 3 and 4.
    CHECK(arrayAttributes(module, "tile") == "bank_bits(3,4)");
    // bankwidth defaults to the element: a float4's 16 bytes.
    CHECK(arrayAttributes(module, "quads") == "bank_bits(4)");
    // Dimension 2 (16 ints: address bits 2-5) cyclic by 4: bits 2, 3; dimension 1 (bits 6, 7) in 2 blocks: bit 7.
    CHECK(arrayAttributes(module, "grid") == "bank_bits(2,3,7)");
    CHECK(arrayAttributes(module, "whole") == "bank_bits(1,2,3)");
    CHECK(arrayAttributes(module, "picked") == "bank_bits(2,5)");
    CHECK(arrayAttributes(module, "copies") == "private_copies(4)");
    CHECK(arrayAttributes(module, "plain").empty());
    // register: each of the 6 elements a bank of its own (3 index bits).
    CHECK(arrayAttributes(module, "regs") == "bank_bits(2,3,4)");
    CHECK(arrayAttributes(module, "pumped") == "doublepump()");
    // The user's own annotation stays an annotation; Loom's leave no llvm.var.annotation behind.
    unsigned annotations = 0;
    if (const llvm::Function *intrinsic = module.getFunction("llvm.var.annotation"))
      annotations = intrinsic->getNumUses();
    CHECK(annotations == 1);
  }
}

TEST_CASE("memory attributes on a struct field warn that they are ignored") {
  const char *source = R"(typedef struct { int v[8] __attribute__((numbanks(2))); } Box;
__kernel void k(__global Box *b) { b->v[0] = 1; }
)";
  llvm::LLVMContext context;
  auto compiled = compile(context, source);
  REQUIRE_OK(compiled);
  CHECK(compiled->log.find("vendor.cl:1:42: warning: 'numbanks' ignored on a struct field: Loom banks and copies "
                           "arrays declared as variables") != std::string::npos);
}

TEST_CASE("local_mem_size becomes the __local argument's attribute, silently") {
  const std::string source = R"(__kernel void k(__global int *out, __local int *__attribute__((local_mem_size(512))) tile,
                __local float *plain) {
  tile[get_local_id(0)] = out[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[0] + (int)plain[1];
}
)";
  for (Target target : {Target::Hardware, Target::Host}) {
    llvm::LLVMContext context;
    CompiledModule compiled = compileSilently(context, source, target);
    const llvm::Function *kernel = compiled.module->getFunction("k");
    REQUIRE(kernel != nullptr);
    const llvm::AttributeList attributes = kernel->getAttributes();
    CHECK(attributes.getParamAttr(1, "loom.local_mem_size").getValueAsString() == "512");
    CHECK_FALSE(attributes.getParamAttr(2, "loom.local_mem_size").isValid());
    // The argument's copy, which only held the annotation, is gone.
    for (const llvm::Instruction &inst : llvm::instructions(*kernel))
      CHECK_FALSE(llvm::isa<llvm::AllocaInst>(inst));
  }
  llvm::LLVMContext context;
  const std::pair<const char *, const char *> misuses[] = {
      {"__kernel void k(__global int *__attribute__((local_mem_size(512))) p) {}",
       "vendor.cl:1:46: error: 'local_mem_size' applies to __local pointer arguments only"},
      {"__kernel void k(__local int *__attribute__((local_mem_size(500))) p) {}",
       "vendor.cl:1:45: error: 'local_mem_size' takes a power of two up to 16777216"}};
  for (const auto &[misuse, error] : misuses) {
    auto failed = compile(context, misuse);
    CHECK_THAT(errorMessage(failed), Catch::Contains(error));
  }
}

TEST_CASE("opencl_unroll_hint before a labelled loop reaches the loop, as aoc takes it, keeping lines") {
  const char *source = "__kernel void before(__global int *a, int n) {\n"
                       "  __attribute__((opencl_unroll_hint(4)))\n"
                       "  outer: for (int i = 0; i < n; ++i) a[i] = i;\n"
                       "}\n"
                       "__kernel void after(__global int *a, int n) {\n"
                       "  inner: __attribute__((opencl_unroll_hint(2))) for (int i = 0; i < n; ++i) a[i] = i;\n"
                       "  int late = undeclared;\n"
                       "}\n"
                       "__kernel void stacked(__global int *a, int n) {\n" // as Vitis examples write it
                       "  __attribute__((opencl_unroll_hint(2)))\n"
                       "  __attribute__((xcl_pipeline_loop(1)))\n"
                       "  __attribute__((xcl_loop_tripcount(16, (16))))\n"
                       "  vadd: for (int i = 0; i < n; ++i) a[i] = i;\n"
                       "}\n";
  for (Target target : {Target::Hardware, Target::Host}) {
    llvm::LLVMContext context;
    // The undeclared name is an error at its own line: the rewrite moved no line.
    auto failed = compileOpenCL(context, SourceInput{source, "vendor.cl", "-cl-opt-disable"}, target);
    REQUIRE_FALSE(bool(failed));
    const std::string log = llvm::toString(failed.takeError());
    CHECK_THAT(log, Catch::Contains("vendor.cl:7:14: error: use of undeclared identifier 'undeclared'"));
    CHECK_THAT(log, !Catch::Contains("'opencl_unroll_hint' attribute cannot be applied"));
    const std::string fixed = std::regex_replace(source, std::regex("undeclared"), "n");
    auto compiled = compileOpenCL(context, SourceInput{fixed, "vendor.cl", "-cl-opt-disable"}, target);
    REQUIRE_OK(compiled);
    for (const char *kernel : {"before", "after", "stacked"})
      CHECK(hasLoopAttribute(loopIdOf(*compiled->module, kernel), "llvm.loop.unroll.count"));
  }
}

TEST_CASE("aoc's __local array in a helper function becomes each calling kernel's own, lines kept") {
  const char *source = "float total(float v) {\n"
                       "  __local float partial\n"
                       "      [2][32];\n"
                       "  partial[get_local_id(0) / 32][get_local_id(0) % 32] = v;\n"
                       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                       "  return partial[1][31] + partial[0][0];\n"
                       "}\n"
                       "__kernel void first(__global float *a) { a[get_global_id(0)] = total(a[0]); }\n"
                       "__kernel void second(__global float *a) {\n"
                       "  __local int own[4];\n"
                       "  own[get_local_id(0) % 4] = 1;\n"
                       "  a[0] = total(a[1]) + own[3];\n"
                       "}\n";
  for (Target target : {Target::Hardware, Target::Host}) {
    llvm::LLVMContext context;
    auto compiled = compileSilently(context, source, target);
    auto kernels = extractKernels(*compiled.module);
    REQUIRE_OK(kernels);
    REQUIRE(kernels->size() == 2);
    CHECK((*kernels)[0].localVariableBytes == 256);
    CHECK((*kernels)[1].localVariableBytes == 256 + 16);
    for (const char *name : {"first.partial", "second.partial"}) {
      const llvm::GlobalVariable *array = compiled.module->getNamedGlobal(name);
      REQUIRE(array);
      CHECK(isLocalVariable(*array));
    }
    // An error after the declaration is at its own line.
    const std::string broken = std::regex_replace(source, std::regex("return partial"), "return missing");
    auto failed = compile(context, broken, target);
    REQUIRE_FALSE(bool(failed));
    CHECK_THAT(llvm::toString(failed.takeError()), Catch::Contains("vendor.cl:6:10: error: use of undeclared identifier 'missing'"));
  }
}
