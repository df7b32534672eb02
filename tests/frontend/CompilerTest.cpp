// SPDX-License-Identifier: Apache-2.0
// OpenCL C compiles in-process for both targets: typed pointers, line tables, build logs with
// file:line:col and carets, -cl-std and -D handling, contraction only with -cl-mad-enable, bad options
// as errors, concurrent builds.
#include "loom/frontend/OpenCLCompiler.h"

#include "../TestSupport.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <thread>

using namespace loom::frontend;

namespace {

const char *VectorAdd = R"(__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

llvm::Expected<CompiledModule> compile(llvm::LLVMContext &context, const std::string &source,
                                       const std::string &options = "",
                                       Target target = Target::Hardware,
                                       const std::string &file = "vector_add.cl") {
  return compileOpenCL(context, SourceInput{source, file, options}, target);
}

bool hasDebugLocations(const llvm::Function &f) {
  for (const llvm::BasicBlock &block : f)
    for (const llvm::Instruction &inst : block)
      if (inst.getDebugLoc() && inst.getDebugLoc().getLine() > 0)
        return true;
  return false;
}

} // namespace

TEST_CASE("vector_add compiles for the hardware target with typed spir64 pointers") {
  llvm::LLVMContext context;
  auto compiled = compile(context, VectorAdd);
  REQUIRE_OK(compiled);
  llvm::Module &module = *compiled->module;
  CHECK(module.getTargetTriple() == "spir64-unknown-unknown");
  CHECK_FALSE(llvm::verifyModule(module, &llvm::errs()));

  llvm::Function *kernel = module.getFunction("vector_add");
  REQUIRE(kernel);
  CHECK(kernel->getCallingConv() == llvm::CallingConv::SPIR_KERNEL);
  REQUIRE(kernel->arg_size() == 3);
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(kernel->getArg(0)->getType());
  REQUIRE(pointer);
  CHECK_FALSE(pointer->isOpaque());
  CHECK(pointer->getAddressSpace() == 1);
  std::string typeText;
  llvm::raw_string_ostream(typeText) << *kernel->getArg(2)->getType();
  CHECK(typeText == "float addrspace(1)*");

  CHECK(hasDebugLocations(*kernel));
  CHECK(kernel->getMetadata("kernel_arg_name"));
  CHECK(kernel->getMetadata("kernel_arg_addr_space"));
}

TEST_CASE("vector_add compiles for the host target with flat address spaces") {
  llvm::LLVMContext context;
  auto compiled = compile(context, VectorAdd, "", Target::Host);
  REQUIRE_OK(compiled);
  llvm::Module &module = *compiled->module;
  CHECK(module.getTargetTriple() == llvm::sys::getProcessTriple());
  CHECK_FALSE(llvm::verifyModule(module, &llvm::errs()));
  llvm::Function *kernel = module.getFunction("vector_add");
  REQUIRE(kernel);
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(kernel->getArg(0)->getType());
  REQUIRE(pointer);
  CHECK_FALSE(pointer->isOpaque());
  CHECK(pointer->getAddressSpace() == 0);
  CHECK(hasDebugLocations(*kernel));
  CHECK(kernel->getMetadata("kernel_arg_addr_space"));
}

TEST_CASE("syntax errors produce a clang-style build log") {
  llvm::LLVMContext context;
  const std::string source = "__kernel void bad(__global int *out) {\n"
                             "  out[0] = 1;\n"
                             "  out[1] = x;\n"
                             "}\n";
  auto compiled = compile(context, source, "", Target::Hardware, "bad.cl");
  std::string log = errorMessage(compiled);
  INFO(log);
  CHECK(log.find("bad.cl:3:12: error: use of undeclared identifier 'x'") != std::string::npos);
  CHECK(log.find("  out[1] = x;\n") != std::string::npos);
  CHECK(log.find("           ^") != std::string::npos);
  CHECK(log.find("1 error generated.") != std::string::npos);
}

TEST_CASE("warnings are logged, -w silences them and -Werror makes them fatal") {
  const std::string source = "__kernel void k(__global int *out, int n) {\n"
                             "  out[0] = 1;\n"
                             "  if (n = 2) out[1] = n;\n"
                             "}\n";
  llvm::LLVMContext context;
  auto plain = compile(context, source, "", Target::Hardware, "warn.cl");
  REQUIRE_OK(plain);
  CHECK(plain->log.find("warn.cl:3:9: warning: using the result of an assignment as a condition") !=
        std::string::npos);

  auto quiet = compile(context, source, "-w", Target::Hardware, "warn.cl");
  REQUIRE_OK(quiet);
  CHECK(quiet->log.empty());

  auto strict = compile(context, source, "-Werror", Target::Hardware, "warn.cl");
  std::string log = errorMessage(strict);
  CHECK(log.find("warn.cl:3:") != std::string::npos);
  CHECK(log.find("error:") != std::string::npos);
}

TEST_CASE("OpenCL C 2.0 and 3.0 are accepted, other versions are clear errors") {
  const std::string source = "__kernel void k(__global int *out) {\n"
                             "#if __OPENCL_C_VERSION__ >= 200\n"
                             "  out[0] = __OPENCL_C_VERSION__;\n"
                             "#else\n"
                             "  out[0] = 120;\n"
                             "#endif\n"
                             "}\n";
  for (Target target : {Target::Hardware, Target::Host}) {
    for (const char *std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
      INFO(std);
      llvm::LLVMContext context;
      auto compiled = compile(context, source, std, target);
      REQUIRE_OK(compiled);
      CHECK(compiled->module->getFunction("k"));
    }
  }

  llvm::LLVMContext context;
  auto bad = compile(context, source, "-cl-std=CL4.2");
  std::string message = errorMessage(bad);
  CHECK(message.find("-cl-std=CL4.2") != std::string::npos);
  CHECK(message.find("CL1.2") != std::string::npos);
}

TEST_CASE("bad build options are errors, not crashes") {
  llvm::LLVMContext context;
  for (const char *options : {"-cl-no-such-flag", "-fsanitize=address", "-D", "-I", "--foo",
                              "-cl-std=", "-cl-std=cl1.2x"}) {
    INFO(options);
    auto compiled = compile(context, VectorAdd, options);
    std::string message = errorMessage(compiled);
    CHECK_FALSE(message.empty());
  }
  auto unknown = compile(context, VectorAdd, "-cl-no-such-flag");
  CHECK(errorMessage(unknown).find("-cl-no-such-flag") != std::string::npos);
}

TEST_CASE("-D, -cl-opt-disable and -cl-* options reach the compiler") {
  const std::string source = "__kernel void k(__global int *out) { out[0] = VALUE; }\n";
  llvm::LLVMContext context;
  auto missing = compile(context, source);
  CHECK(errorMessage(missing).find("use of undeclared identifier 'VALUE'") != std::string::npos);

  for (const char *options : {"-DVALUE=42", "-D VALUE=42", "-D \"VALUE=(40 + 2)\"",
                              "-DVALUE=42 -cl-mad-enable -cl-fast-relaxed-math",
                              "-DVALUE=42 -cl-opt-disable"}) {
    INFO(options);
    auto compiled = compile(context, source, options);
    REQUIRE_OK(compiled);
    llvm::Function *kernel = compiled->module->getFunction("k");
    REQUIRE(kernel);
    CHECK_FALSE(kernel->hasFnAttribute(llvm::Attribute::OptimizeNone));
    bool storesConstant = false;
    for (const llvm::BasicBlock &block : *kernel)
      for (const llvm::Instruction &inst : block)
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
          if (auto *value = llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand()))
            storesConstant |= value->getSExtValue() == 42;
    if (llvm::StringRef(options).contains("-cl-opt-disable"))
      CHECK(kernel->size() >= 1); // -O0 keeps allocas; the value may be stored through them.
    else
      CHECK(storesConstant);
  }
}

TEST_CASE("a * b + c is contracted only when the options allow a mad") {
  const std::string source = "__kernel void k(__global float *p, float a) { p[0] = a * p[1] + p[2]; }\n";
  auto hasMad = [&](const std::string &options, Target target) {
    llvm::LLVMContext context;
    auto compiled = compile(context, source, options, target);
    REQUIRE_OK(compiled);
    return compiled->module->getFunction("llvm.fmuladd.f32") != nullptr;
  };
  for (Target target : {Target::Hardware, Target::Host}) {
    CHECK_FALSE(hasMad("", target));
    CHECK(hasMad("-cl-mad-enable", target));
    CHECK(hasMad("-cl-fast-relaxed-math", target));
  }
}

TEST_CASE("-I finds headers next to the program") {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("loom-frontend-include", dir));
  llvm::SmallString<128> header(dir);
  llvm::sys::path::append(header, "scale.h");
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(header, ec);
    REQUIRE_FALSE(ec);
    out << "#define SCALE 3\n";
  }
  const std::string source = "#include \"scale.h\"\n"
                             "__kernel void k(__global int *out) { out[0] = SCALE; }\n";
  llvm::LLVMContext context;
  auto missing = compile(context, source, "", Target::Hardware, "inc.cl");
  std::string log = errorMessage(missing);
  CHECK(log.find("inc.cl:1:10: fatal error: 'scale.h' file not found") != std::string::npos);
  auto found = compile(context, source, "-I " + dir.str().str(), Target::Hardware, "inc.cl");
  REQUIRE_OK(found);
  llvm::sys::fs::remove(header);
  llvm::sys::fs::remove(dir);
}

TEST_CASE("compiles run concurrently and repeatedly on separate contexts") {
  std::atomic<int> failures{0};
  auto worker = [&](Target target) {
    for (int i = 0; i < 6; ++i) {
      llvm::LLVMContext context;
      auto compiled = compile(context, VectorAdd, "-DUNUSED=" + std::to_string(i), target);
      if (!compiled) {
        llvm::consumeError(compiled.takeError());
        ++failures;
      } else if (!compiled->module->getFunction("vector_add")) {
        ++failures;
      }
    }
  };
  std::thread a(worker, Target::Hardware);
  std::thread b(worker, Target::Host);
  a.join();
  b.join();
  CHECK(failures == 0);
}
