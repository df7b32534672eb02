// SPDX-License-Identifier: Apache-2.0
// OpenCL C compiles in-process for both targets: typed pointers, line tables, build logs with
// file:line:col and carets, -cl-std and -D handling, contraction only with -cl-mad-enable, bad options
// as errors, the builtin library linked and inlined (every gentype, both targets, -O2 and
// -cl-opt-disable), concurrent builds.
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/frontend/OpenCLSupport.h"

#include "../TestSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <set>
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

/// Calls the builtins on scalars and on float4 / int4.
const char *BuiltinCalls = R"(__kernel void builtins(__global float *f, __global float4 *f4, __global int *i,
                       __global int4 *i4, __global uint *u, __global uint4 *u4) {
  size_t g = get_global_id(0);
  float x = f[g], y = f[g + 1], z = f[g + 2];
  f[g] = sqrt(x) + fabs(y) + fmin(x, y) + fmax(x, z) + copysign(x, y) + mad(x, y, z) + clamp(x, y, z) +
         min(x, y) + max(x, z) + select(x, y, i[g]);
  float4 a = f4[g], b = f4[g + 1], c = f4[g + 2];
  f4[g] = sqrt(a) + fabs(b) + fmin(a, b) + fmax(a, 2.0f) + copysign(a, b) + mad(a, b, c) +
          clamp(a, 0.0f, 1.0f) + select(a, b, i4[g]);
  int p = i[g], q = i[g + 1], r = i[g + 2];
  i[g] = min(p, q) + max(p, r) + clamp(p, q, r) + mul24(p, q) + mad24(p, q, r) + select(p, q, u[g]);
  u[g] = abs(p);
  int4 v = i4[g], w = i4[g + 1];
  i4[g] = min(v, w) + max(v, 3) + clamp(v, -1, 1) + mul24(v, w) + mad24(v, w, v) + select(v, w, u4[g]);
  u4[g] = abs(v);
}
)";

/// The OpenCL C name of a mangled function: "get_global_id" for "_Z13get_global_idj", else "".
std::string demangledName(llvm::StringRef mangled) {
  size_t length = 0;
  if (!mangled.consume_front("_Z") || mangled.consumeInteger(10, length) || mangled.size() < length)
    return "";
  return mangled.take_front(length).str();
}

/// What the builtin library should have resolved and inlined: functions other than the kernels that
/// are defined, declared with a mangled name other than a work-item function's (get_*), or called
/// (other than intrinsics and work-item functions). Empty when the library did its job.
std::set<std::string> unresolvedBuiltins(const llvm::Module &module) {
  std::set<std::string> left;
  auto isWorkItemFunction = [](const llvm::Function &f) {
    return llvm::StringRef(demangledName(f.getName())).startswith("get_");
  };
  for (const llvm::Function &f : module) {
    if (f.isIntrinsic() || isWorkItemFunction(f))
      continue;
    if (f.isDeclaration() ? f.getName().startswith("_Z") : f.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
      left.insert(f.getName().str());
    for (const llvm::BasicBlock &block : f)
      for (const llvm::Instruction &inst : block)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
          const llvm::Function *callee = call->getCalledFunction();
          if (!callee || (!callee->isIntrinsic() && !isWorkItemFunction(*callee)))
            left.insert("call to " + (callee ? callee->getName().str() : "an indirect callee"));
        }
  }
  return left;
}

/// A compile that succeeded silently into a valid module with every builtin call resolved.
void checkLinked(llvm::Expected<CompiledModule> &compiled) {
  REQUIRE_OK(compiled);
  CHECK(compiled->log.empty());
  CHECK_FALSE(llvm::verifyModule(*compiled->module, &llvm::errs()));
  std::set<std::string> left = unresolvedBuiltins(*compiled->module);
  for (const std::string &name : left)
    UNSCOPED_INFO("left: " << name);
  CHECK(left.empty());
}

/// The intrinsics a module calls, by name (llvm.sqrt.f32).
std::set<std::string> intrinsicsCalled(const llvm::Module &module) {
  std::set<std::string> names;
  for (const llvm::Function &f : module)
    if (f.isIntrinsic() && !f.use_empty())
      names.insert(f.getName().str());
  return names;
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

TEST_CASE("OpenCL C 2.0 has the builtins with pointer operands and generic pointers") {
  // Clang declares vloadn, fract, sincos, ... for 2.0 with generic pointers only: the macro of the
  // generic address space stays defined there.
  const std::string source = "float twice(const float *p) { return 2.0f * *p; }\n"
                             "__kernel void k(__global const float *in, __global float *out) {\n"
                             "  __local float tile[4];\n"
                             "  size_t i = get_global_id(0);\n"
                             "  vstore4(vload4(i, in), i, out);\n"
                             "  vstore4(vload4(0, in), 0, tile);\n"
                             "  float whole, c;\n"
                             "  out[i] += fract(in[i], &whole) + sincos(tile[i % 4], &c) + whole + c;\n"
                             "  out[i] += twice(in + i) + twice(tile);\n"
                             "}\n";
  for (Target target : {Target::Hardware, Target::Host}) {
    INFO((target == Target::Host ? "host" : "hardware"));
    llvm::LLVMContext context;
    auto compiled = compile(context, source, "-cl-std=CL2.0", target);
    REQUIRE_OK(compiled);
    CHECK(compiled->module->getFunction("k"));
  }
}

TEST_CASE("each target defines exactly its device's extension and feature macros") {
  // Names Clang 15 defines by itself for some target or version (its -cl-ext defaults, and its
  // header's macros for every SPIR target and every OpenCL C 2.0 compile), and the supported ones.
  // No device has images: __IMAGE_SUPPORT__, which Clang defines for SPIR, is not defined either.
  std::set<std::string> names = {
      "__IMAGE_SUPPORT__",
      "cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups", "cl_khr_subgroup_ballot", "cl_khr_subgroup_shuffle",
      "cl_khr_integer_dot_product", "cl_khr_extended_bit_ops", "cl_ext_float_atomics", "cl_khr_3d_image_writes",
      "cl_khr_int64_base_atomics", "cl_khr_global_int32_base_atomics", "cl_khr_byte_addressable_store",
      "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
      "__opencl_c_read_write_images", "__opencl_c_generic_address_space", "__opencl_c_pipes", "__opencl_c_images",
      "__opencl_c_fp64", "__opencl_c_subgroups", "__opencl_c_program_scope_global_variables",
      "__opencl_c_device_enqueue", "__opencl_c_3d_image_writes", "__opencl_c_ext_fp32_global_atomic_add",
      "__opencl_c_int64"};
  for (Target target : {Target::Hardware, Target::Host}) {
    const OpenCLSupport &support = openclSupport(target);
    for (const NamedVersion &entry : support.extensions)
      names.insert(entry.name.str());
    for (const NamedVersion &entry : support.features)
      names.insert(entry.name.str());
  }
  for (Target target : {Target::Hardware, Target::Host}) {
    const OpenCLSupport &support = openclSupport(target);
    auto supported = [&](const std::string &name) {
      return llvm::any_of(support.extensions, [&](const NamedVersion &e) { return e.name == name; }) ||
             support.hasFeature(name);
    };
    for (const char *std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
      const bool cl30 = std == std::string("-cl-std=CL3.0");
      // Unsupported: never defined, but for the generic address space in 2.0, which has it in its
      // core. Supported extensions: always. Supported features: in 3.0 (they are 3.0's macros; Clang
      // defines some, __opencl_c_int64, in every version).
      const bool cl20 = std == std::string("-cl-std=CL2.0");
      std::string source = "#if __OPENCL_VERSION__ != 300\n#error __OPENCL_VERSION__\n#endif\n";
      for (const std::string &name : names) {
        bool feature = llvm::StringRef(name).startswith("__opencl_c_");
        if (cl20 && name == "__opencl_c_generic_address_space")
          source += "#ifndef " + name + "\n#error missing " + name + "\n#endif\n";
        else if (!supported(name))
          source += "#ifdef " + name + "\n#error defined " + name + "\n#endif\n";
        else if (!feature || cl30)
          source += "#ifndef " + name + "\n#error missing " + name + "\n#endif\n";
      }
      source += "__kernel void k(__global int *out) { out[0] = 1; }\n";
      INFO((target == Target::Host ? "host " : "hardware ") << std);
      llvm::LLVMContext context;
      auto compiled = compile(context, source, std, target);
      REQUIRE_OK(compiled);
    }
  }
  // A feature's builtins are declared exactly where it is supported (Clang declares them only where
  // the macro is defined): the work-group and sub-group functions on both devices, in OpenCL C 2.0
  // and 3.0, not 1.2.
  const std::string collectives = "__kernel void k(__global int *o) {\n"
                                  "  o[0] = work_group_reduce_add(o[1]) + sub_group_reduce_add(o[2]);\n}\n";
  for (Target target : {Target::Hardware, Target::Host}) {
    CHECK(openclSupport(target).hasFeature("__opencl_c_subgroups"));
    llvm::LLVMContext context;
    REQUIRE_OK(compile(context, collectives, "-cl-std=CL3.0", target));
    REQUIRE_OK(compile(context, collectives, "-cl-std=CL2.0", target));
    auto cl12 = compile(context, collectives, "-cl-std=CL1.2", target);
    CHECK(errorMessage(cl12).find("vector_add.cl:2:10: error: use of undeclared identifier 'work_group_reduce_add'") !=
          std::string::npos);
  }
  // Neither device has double precision, so `double` is an error at its line, as on any device
  // without cl_khr_fp64.
  for (Target target : {Target::Hardware, Target::Host}) {
    llvm::LLVMContext context;
    auto compiled = compile(context, "__kernel void k(__global float *out) {\n  double d = out[0];\n  out[0] = d;\n}\n",
                            "", target, "fp64.cl");
    std::string message = errorMessage(compiled);
    INFO(message);
    CHECK(message.find("fp64.cl:2:3: error:") != std::string::npos);
    CHECK(message.find("cl_khr_fp64") != std::string::npos);
  }
}

TEST_CASE("a struct or union printf argument is an error at it, not a compiler crash") {
  // Clang 15's typed-pointer code generation segfaults on such a call, which would take the host
  // application down with clBuildProgram.
  for (Target target : {Target::Hardware, Target::Host}) {
    for (const char *kind : {"struct", "union"}) {
      INFO(kind);
      llvm::LLVMContext context;
      const std::string source = std::string("typedef ") + kind + " { int a; float b; } S;\n" +
                                 "__kernel void k(__global int *out, S s) {\n"
                                 "  printf(\"%d %d\\n\", out[0], s);\n"
                                 "}\n";
      auto compiled = compile(context, source, "", target, "print.cl");
      std::string message = errorMessage(compiled);
      INFO(message);
      CHECK(message.find(std::string("print.cl:3:29: error: printf cannot print a ") + kind + " ('S')") !=
            std::string::npos);
    }
    // Its fields, and vectors, print.
    llvm::LLVMContext context;
    REQUIRE_OK(compile(context,
                       "typedef struct { int a; float b; } S;\n"
                       "__kernel void k(__global int *out, S s) { printf(\"%d %f %v2d\\n\", s.a, s.b, (int2)(1, 2)); }\n",
                       "", target));
  }
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
                              "-DVALUE=42 -cl-denorms-are-zero -cl-no-subgroup-ifp -cl-single-precision-constant",
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

TEST_CASE("builtin calls are linked from the library and inlined, for both targets") {
  for (Target target : {Target::Hardware, Target::Host}) {
    for (const char *options : {"", "-cl-opt-disable", "-cl-std=CL3.0 -cl-fast-relaxed-math"}) {
      INFO((target == Target::Hardware ? "hardware " : "host ") << options);
      llvm::LLVMContext context;
      auto compiled = compile(context, BuiltinCalls, options, target, "builtins.cl");
      REQUIRE_OK(compiled);
      const llvm::Module &module = *compiled->module;
      CHECK(compiled->log.empty()); // Also: the library's triple and data layout are the kernel's.
      CHECK_FALSE(llvm::verifyModule(module, &llvm::errs()));
      CHECK(unresolvedBuiltins(module).empty());
      for (const std::string &name : unresolvedBuiltins(module))
        UNSCOPED_INFO("left: " << name);
      REQUIRE(module.getFunction("builtins"));
      CHECK(hasDebugLocations(*module.getFunction("builtins")));
      // The library's own metadata does not stay: one OpenCL C version, the kernel's.
      const llvm::NamedMDNode *version = module.getNamedMetadata("opencl.ocl.version");
      REQUIRE(version);
      CHECK(version->getNumOperands() == 1);
      auto *major = llvm::mdconst::extract<llvm::ConstantInt>(version->getOperand(0)->getOperand(0));
      CHECK(major->getZExtValue() == (llvm::StringRef(options).contains("CL3.0") ? 3u : 1u));

      std::set<std::string> intrinsics = intrinsicsCalled(module);
      for (const char *name : {"llvm.sqrt.f32", "llvm.fabs.f32", "llvm.copysign.f32", "llvm.minnum.f32",
                               "llvm.maxnum.f32", "llvm.abs.i32", "llvm.abs.v4i32"}) {
        INFO(name);
        CHECK(intrinsics.count(name));
      }
      CHECK((intrinsics.count("llvm.smax.i32") || intrinsics.count("llvm.smin.i32")));
      CHECK((intrinsics.count("llvm.smax.v4i32") || intrinsics.count("llvm.smin.v4i32")));
    }
  }
}

TEST_CASE("every gentype of every library builtin links, for both targets") {
  // One kernel per gentype calling each builtin the spec gives it: scalars and 2, 3, 4, 8 and 16
  // lanes of the integer types (abs, min, max, clamp, select; mul24 and mad24 on int and uint) and of
  // float (sqrt, fabs, copysign, fmin, fmax, mad, min, max, clamp, select), with the scalar-operand
  // forms of vectors. 16-lane vectors on the host are also where Clang warns about the AVX ABI.
  struct Scalar {
    const char *name, *signedName, *unsignedName;
  };
  const Scalar scalars[] = {{"char", "char", "uchar"},    {"uchar", "char", "uchar"}, {"short", "short", "ushort"},
                            {"ushort", "short", "ushort"}, {"int", "int", "uint"},     {"uint", "int", "uint"},
                            {"long", "long", "ulong"},    {"ulong", "long", "ulong"}, {"float", "int", "uint"}};
  std::string source;
  for (const Scalar &scalar : scalars)
    for (const std::string width : {"", "2", "3", "4", "8", "16"}) {
      const std::string s = scalar.name, t = s + width, i = scalar.signedName + width,
                        u = scalar.unsignedName + width;
      std::string body = "  " + t + " x = p[0], y = p[1], z = p[2];\n" +
                         "  " + s + " k = q[0];\n" +
                         "  p[3] = min(x, y) + max(x, y) + clamp(x, y, z) + select(x, y, (" + i + ")0) + " +
                         "select(x, y, (" + u + ")0);\n";
      if (!width.empty())
        body += "  p[4] = min(x, k) + max(x, k) + clamp(x, k, k);\n";
      if (s == "float") {
        body += "  p[5] = sqrt(x) + fabs(x) + copysign(x, y) + fmin(x, y) + fmax(x, y) + mad(x, y, z);\n";
        if (!width.empty())
          body += "  p[6] = fmin(x, k) + fmax(x, k);\n";
      } else {
        body += "  ((__global " + u + " *)p)[7] = abs(x);\n";
        if (s == "int" || s == "uint")
          body += "  p[8] = mul24(x, y) + mad24(x, y, z);\n";
      }
      source += "__kernel void k_" + t + "(__global " + t + " *p, __global " + s + " *q) {\n" + body + "}\n";
    }
  for (Target target : {Target::Hardware, Target::Host}) {
    for (const char *options : {"", "-cl-opt-disable"}) {
      INFO((target == Target::Hardware ? "hardware " : "host ") << options);
      llvm::LLVMContext context;
      auto compiled = compile(context, source, options, target, "gentypes.cl");
      checkLinked(compiled);
      CHECK(compiled->module->getFunction("k_ulong16"));
    }
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
      const bool builtins = i % 2; // Each compile has the builtin library in its own file system.
      auto compiled = compile(context, builtins ? BuiltinCalls : VectorAdd, "-DUNUSED=" + std::to_string(i), target);
      if (!compiled) {
        llvm::consumeError(compiled.takeError());
        ++failures;
      } else if (!compiled->module->getFunction(builtins ? "builtins" : "vector_add") ||
                 !unresolvedBuiltins(*compiled->module).empty()) {
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

TEST_CASE("every atomic builtin links on both targets and becomes an atomicrmw or cmpxchg") {
  // The OpenCL 1.1 atomic_* functions on int and uint, the atom_* ones on int, uint, long and ulong,
  // on __global and __local pointers, and atomic_xchg on float.
  std::string source = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                       "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n";
  const std::pair<const char *, const char *> families[] = {
      {"atomic_", "int"}, {"atomic_", "uint"}, {"atom_", "int"},
      {"atom_", "uint"},  {"atom_", "long"},   {"atom_", "ulong"}};
  unsigned kernel = 0;
  for (const auto &[prefix, type] : families)
    for (const std::string space : {"__global", "__local"}) {
      const std::string p = std::string(prefix), t = type;
      std::string body = space == "__local" ? "  __local " + t + " cell[1];\n  volatile __local " + t + " *a = cell;\n"
                                            : "  volatile __global " + t + " *a = g;\n";
      body += "  " + t + " v = (" + t + ")g[1];\n  g[2] = ";
      for (const char *op : {"add", "sub", "xchg", "min", "max", "and", "or", "xor"})
        body += p + op + "(a, v) + ";
      body += p + "inc(a) + " + p + "dec(a) + " + p + "cmpxchg(a, v, v + 1);\n";
      source += "__kernel void k" + std::to_string(kernel++) + "(volatile __global " + t + " *g) {\n" + body + "}\n";
    }
  source += "__kernel void kf(volatile __global float *g) { g[1] = atomic_xchg(g, g[2]); }\n";
  for (Target target : {Target::Hardware, Target::Host}) {
    INFO((target == Target::Hardware ? "hardware" : "host"));
    llvm::LLVMContext context;
    auto compiled = compile(context, source, "", target, "atomics.cl");
    checkLinked(compiled);
    unsigned rmw = 0, cmpxchg = 0;
    for (const llvm::Function &function : *compiled->module)
      for (const llvm::BasicBlock &block : function)
        for (const llvm::Instruction &inst : block) {
          rmw += llvm::isa<llvm::AtomicRMWInst>(inst);
          cmpxchg += llvm::isa<llvm::AtomicCmpXchgInst>(inst);
        }
    // 12 kernels of 10 read-modify-writes (inc and dec included) and a cmpxchg each (64-bit min and
    // max too: atomic64.spir64.ll on spir64), and the float exchange.
    CHECK(rmw == 12 * 10 + 1);
    CHECK(cmpxchg == 12);
  }
}
