// SPDX-License-Identifier: Apache-2.0
// Kernel interfaces from Clang's metadata on both targets and from SPIR-V, and their JSON form.
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "../TestSupport.h"

#include "LLVMSPIRVLib.h"

#include <sstream>

using namespace loom::frontend;

namespace {

const char *Kernels = R"(
typedef struct { float x; int n; long d; } Params;

__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *restrict c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void scale(__global float *data, __constant float *factors, __local float *scratch,
                    uint n, float4 offset, Params params) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = data[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n)
    data[i] = scratch[get_local_id(0)] * factors[0] + offset.x + params.x;
}

__attribute__((work_group_size_hint(8, 8, 1))) __attribute__((vec_type_hint(float4)))
__kernel void hinted(__global int *out) { out[0] = 1; }
)";

const KernelInfo *find(const std::vector<KernelInfo> &kernels, llvm::StringRef name) {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

void checkKernels(const std::vector<KernelInfo> &kernels, bool fromSpirv) {
  const KernelInfo *add = find(kernels, "vector_add");
  REQUIRE(add);
  REQUIRE(add->args.size() == 3);
  CHECK(add->args[0].name == "a");
  CHECK(add->args[1].name == "b");
  CHECK(add->args[2].name == "c");
  CHECK(add->args[0].typeName == "float*");
  if (!fromSpirv) // SPIR-V has no "const" on kernel pointer arguments.
    CHECK(add->args[0].typeQualifiers == "const");
  CHECK(add->args[2].typeQualifiers == "restrict");
  for (const KernelArg &arg : add->args) {
    CHECK(arg.addressSpace == AddressSpace::Global);
    CHECK(arg.access == AccessQualifier::None);
    CHECK(arg.isPointer);
    CHECK(arg.size == 8);
  }
  CHECK(add->reqdWorkGroupSize == std::array<uint32_t, 3>{0, 0, 0});
  CHECK(add->attributes.empty());

  const KernelInfo *scale = find(kernels, "scale");
  REQUIRE(scale);
  REQUIRE(scale->args.size() == 6);
  CHECK(scale->args[0].addressSpace == AddressSpace::Global);
  CHECK(scale->args[1].addressSpace == AddressSpace::Constant);
  CHECK(scale->args[1].size == 8);
  CHECK(scale->args[2].addressSpace == AddressSpace::Local);
  CHECK(scale->args[2].isPointer);
  CHECK(scale->args[2].size == 8);
  CHECK(scale->args[3].name == "n");
  CHECK(scale->args[3].typeName == "uint");
  CHECK(scale->args[3].addressSpace == AddressSpace::Private);
  CHECK_FALSE(scale->args[3].isPointer);
  CHECK(scale->args[3].size == 4);
  CHECK(scale->args[4].typeName == "float4");
  CHECK(scale->args[4].size == 16);
  CHECK(scale->args[5].name == "params");
  CHECK(scale->args[5].size == 16);
  CHECK_FALSE(scale->args[5].isPointer);
  CHECK(scale->reqdWorkGroupSize == std::array<uint32_t, 3>{64, 1, 1});
  CHECK(scale->attributes == "reqd_work_group_size(64,1,1)");

  const KernelInfo *hinted = find(kernels, "hinted");
  REQUIRE(hinted);
  CHECK(hinted->attributes == "work_group_size_hint(8,8,1) vec_type_hint(float4)");
}

/// The kernels of `source` compiled for `target`.
std::vector<KernelInfo> kernelsOf(const char *source, Target target) {
  llvm::LLVMContext context;
  auto compiled = compileOpenCL(context, SourceInput{source, "kernels.cl", ""}, target);
  REQUIRE_OK(compiled);
  auto kernels = extractKernels(*compiled->module);
  REQUIRE_OK(kernels);
  return std::move(*kernels);
}

} // namespace

TEST_CASE("kernel metadata is read from hardware and host compiles alike") {
  for (Target target : {Target::Hardware, Target::Host}) {
    INFO((target == Target::Hardware ? "hardware" : "host"));
    auto kernels = kernelsOf(Kernels, target);
    CHECK(kernels.size() == 3);
    checkKernels(kernels, /*fromSpirv=*/false);
  }
}

TEST_CASE("private memory: arrays left in memory, through the deepest chain of calls") {
  // order[] is indexed at run time, so it stays an array; the helpers' arrays add the larger one.
  const char *source = R"(
__attribute__((noinline)) int small(__global const int *a, int k) {
  int t[4];
  for (int j = 0; j < 4; ++j) t[j] = a[j];
  return t[k & 3];
}
__attribute__((noinline)) int large(__global const int *a, int k) {
  int t[32];
  for (int j = 0; j < 32; ++j) t[j] = a[j] * j;
  return t[k & 31];
}
__kernel void sorted(__global const int *a, __global int *out, int k) {
  int order[16];
  for (int j = 0; j < 16; ++j) order[j] = a[j];
  out[get_global_id(0)] = order[k & 15] + small(a, k) + large(a, k);
}
__kernel void plain(__global int *out) { out[get_global_id(0)] = 1; }
)";
  for (Target target : {Target::Hardware, Target::Host}) {
    INFO((target == Target::Hardware ? "hardware" : "host"));
    auto kernels = kernelsOf(source, target);
    CHECK(find(kernels, "sorted")->privateBytes == (16 + 32) * 4);
    CHECK(find(kernels, "plain")->privateBytes == 0);
  }
}

TEST_CASE("image and sampler arguments carry access qualifiers and handle sizes") {
  const char *source = R"(
__kernel void copy(read_only image2d_t in, write_only image2d_t out, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, read_imagef(in, s, p));
}
)";
  llvm::LLVMContext context;
  auto compiled = compileOpenCL(context, SourceInput{source, "image.cl", ""}, Target::Hardware);
  REQUIRE_OK(compiled);
  auto kernels = extractKernels(*compiled->module);
  REQUIRE_OK(kernels);
  REQUIRE(kernels->size() == 1);
  const KernelInfo &copy = kernels->front();
  REQUIRE(copy.args.size() == 3);
  CHECK(copy.args[0].access == AccessQualifier::ReadOnly);
  CHECK(copy.args[1].access == AccessQualifier::WriteOnly);
  CHECK(copy.args[0].typeName == "image2d_t");
  CHECK(copy.args[2].typeName == "sampler_t");
  for (const KernelArg &arg : copy.args)
    CHECK(arg.size == 8);
}

TEST_CASE("SPIR-V written from a compiled module reads back with the same kernels") {
  llvm::LLVMContext context;
  auto compiled = compileOpenCL(context, SourceInput{Kernels, "kernels.cl", ""}, Target::Hardware);
  REQUIRE_OK(compiled);
  std::ostringstream spirvStream;
  std::string message;
  SPIRV::TranslatorOpts options;
  options.setPreserveOCLKernelArgTypeMetadataThroughString(true);
  REQUIRE(llvm::writeSpirv(compiled->module.get(), options, spirvStream, message));
  std::string spirv = spirvStream.str();
  CHECK(isSpirv(spirv));
  CHECK_FALSE(isSpirv("\x7f" "ELF...."));
  CHECK_FALSE(isSpirv(""));

  llvm::LLVMContext readContext;
  auto module = readSpirv(readContext, spirv);
  REQUIRE_OK(module);
  CHECK(llvm::StringRef((*module)->getTargetTriple()).startswith("spir64"));
  auto kernels = extractKernels(**module);
  REQUIRE_OK(kernels);
  CHECK(kernels->size() == 3);
  checkKernels(*kernels, /*fromSpirv=*/true);
}

TEST_CASE("invalid SPIR-V is an error") {
  llvm::LLVMContext context;
  auto notSpirv = readSpirv(context, "hello world!");
  CHECK(errorMessage(notSpirv).find("not a SPIR-V binary") != std::string::npos);

  std::string truncated("\x03\x02\x23\x07\x00\x00\x01\x00", 8);
  auto shortModule = readSpirv(context, truncated);
  CHECK(errorMessage(shortModule).find("invalid SPIR-V") != std::string::npos);

  std::string garbage("\x03\x02\x23\x07", 4);
  for (int i = 0; i < 60; ++i)
    garbage.push_back(static_cast<char>(i * 37 + 11));
  auto garbageModule = readSpirv(context, garbage);
  CHECK(errorMessage(garbageModule).find("invalid SPIR-V") != std::string::npos);

  // A valid header followed by an unknown instruction: the translator exits or aborts on such
  // input; readSpirv isolates it, so this process survives and gets an error.
  std::string header("\x03\x02\x23\x07\x00\x00\x01\x00\0\0\0\0\x10\0\0\0\0\0\0\0", 20);
  auto unknownOp = readSpirv(context, header + std::string(8, '\xff'));
  CHECK(errorMessage(unknownOp).find("invalid SPIR-V") != std::string::npos);

  // The process is still usable: a valid module still reads.
  auto compiled = compileOpenCL(context, SourceInput{Kernels, "kernels.cl", ""}, Target::Hardware);
  REQUIRE_OK(compiled);
  std::ostringstream spirvStream;
  std::string message;
  REQUIRE(llvm::writeSpirv(compiled->module.get(), spirvStream, message));
  llvm::LLVMContext readContext;
  auto module = readSpirv(readContext, spirvStream.str());
  REQUIRE_OK(module);
}

TEST_CASE("KernelInfo round-trips through JSON") {
  KernelInfo kernel;
  kernel.name = "scale";
  kernel.reqdWorkGroupSize = {64, 2, 1};
  kernel.attributes = "reqd_work_group_size(64,2,1)";
  kernel.localVariableBytes = 768;
  kernel.privateBytes = 96;
  KernelArg data;
  data.name = "data";
  data.typeName = "float*";
  data.typeQualifiers = "const restrict";
  data.addressSpace = AddressSpace::Constant;
  data.isPointer = true;
  data.size = 8;
  KernelArg image;
  image.name = "img";
  image.typeName = "image2d_t";
  image.addressSpace = AddressSpace::Global;
  image.access = AccessQualifier::ReadWrite;
  image.size = 8;
  KernelArg n;
  n.name = "n";
  n.typeName = "uint";
  n.size = 4;
  kernel.args = {data, image, n};

  std::string text = llvm::formatv("{0}", toJSON(kernel)).str();
  auto parsed = llvm::json::parse(text);
  REQUIRE_OK(parsed);
  KernelInfo back;
  llvm::json::Path::Root root;
  REQUIRE(fromJSON(*parsed, back, root));
  CHECK(back.name == kernel.name);
  CHECK(back.reqdWorkGroupSize == kernel.reqdWorkGroupSize);
  CHECK(back.attributes == kernel.attributes);
  CHECK(back.localVariableBytes == 768);
  CHECK(back.privateBytes == 96);
  REQUIRE(back.args.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(back.args[i].name == kernel.args[i].name);
    CHECK(back.args[i].typeName == kernel.args[i].typeName);
    CHECK(back.args[i].typeQualifiers == kernel.args[i].typeQualifiers);
    CHECK(back.args[i].addressSpace == kernel.args[i].addressSpace);
    CHECK(back.args[i].access == kernel.args[i].access);
    CHECK(back.args[i].isPointer == kernel.args[i].isPointer);
    CHECK(back.args[i].size == kernel.args[i].size);
  }

  auto bad = llvm::json::parse(R"({"name":"k","attributes":"","reqdWorkGroupSize":[0,0,0],)"
                               R"("args":[{"name":"a","type":"int","qualifiers":"",)"
                               R"("addressSpace":"shared","access":"none","pointer":false,"size":4}]})");
  REQUIRE_OK(bad);
  llvm::json::Path::Root badRoot;
  CHECK_FALSE(fromJSON(*bad, back, badRoot));
  CHECK(llvm::toString(badRoot.getError()).find("addressSpace") != std::string::npos);
}
