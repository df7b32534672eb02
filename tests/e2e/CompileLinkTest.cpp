// SPDX-License-Identifier: Apache-2.0
// Separate compilation through the ICD loader, on both devices: clCompileProgram with embedded
// headers, clLinkProgram into an executable or a library, compiled objects and libraries as
// binaries (CL_PROGRAM_BINARY_TYPE, CL_PROGRAM_BINARIES, clCreateProgramWithBinary), units calling
// each other's helpers and kernels, and the spec's error codes with a log that names what is wrong.
#include "DifferentialSupport.h"

#include <numeric>

using namespace e2e;

namespace {

/// The kernel unit: calls scale(), which another unit defines, through an embedded header.
const char *KernelUnit = R"(#include "ops/scale.h"
__kernel void apply(__global int *out, __global const int *in) {
  size_t i = get_global_id(0);
  out[i] = scale(in[i]) + OFFSET;
}
)";
const char *ScaleUnit = R"(#include <ops/scale.h>
int scale(int x) { return x * FACTOR - 1; }
)";
const char *ScaleHeader = "#define FACTOR 3\nint scale(int x);\n";
const char *DecoyHeader = "#error the first header of a name is used\n";

cl_program sourceProgram(Setup &cl, const char *source) {
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return program;
}

/// clCompileProgram of `source` with the header as "ops/scale.h" (and a decoy of the same name
/// after it); fails the test with the log unless it compiles.
cl_program compiled(Setup &cl, const char *source, const char *options = "") {
  cl_program program = sourceProgram(cl, source);
  cl_program headers[] = {sourceProgram(cl, ScaleHeader), sourceProgram(cl, DecoyHeader)};
  const char *names[] = {"ops/scale.h", "ops/scale.h"};
  cl_int err = clCompileProgram(program, 1, &cl.device, options, 2, headers, names, nullptr, nullptr);
  for (cl_program header : headers)
    clReleaseProgram(header);
  if (err != CL_SUCCESS)
    FAIL("clCompileProgram returned " << err << ", log:\n" << buildLog(program, cl.device));
  return program;
}

cl_program_binary_type binaryType(cl_program program, cl_device_id device) {
  cl_program_binary_type type = 0;
  REQUIRE(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) ==
          CL_SUCCESS);
  return type;
}

cl_build_status buildStatus(cl_program program, cl_device_id device) {
  cl_build_status status = CL_BUILD_NONE;
  REQUIRE(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
          CL_SUCCESS);
  return status;
}

/// clLinkProgram of `inputs` for the one device; `err` gets the status.
cl_program linked(Setup &cl, std::vector<cl_program> inputs, const char *options, cl_int &err) {
  return clLinkProgram(cl.context, 1, &cl.device, options, static_cast<cl_uint>(inputs.size()), inputs.data(),
                       nullptr, nullptr, &err);
}

/// Runs `apply` of `program` on 256 ints; true when every output is in * 3 - 1 + 7.
bool applies(Setup &cl, cl_program program) {
  const size_t n = 256;
  std::vector<int> in(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    in[i] = int(i) * 5 - 300;
    want[i] = in[i] * 3 - 1 + 7;
  }
  cl_mem din = buffer(cl, in, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dout = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, n * sizeof(int), nullptr, nullptr);
  cl_kernel kernel = kernelNamed(program, "apply");
  setArg(kernel, 0, dout);
  setArg(kernel, 1, din);
  clReleaseEvent(launch(cl, kernel, {{n}}));
  const bool same = firstMismatch(readBack<int>(cl, dout, n), want) == -1;
  clReleaseKernel(kernel);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  return same;
}

/// A context on `target`'s device with both units compiled.
struct Units {
  Setup cl;
  cl_program kernelUnit, scaleUnit;
  explicit Units(const Target &target)
      : cl(target.device()), kernelUnit(compiled(cl, KernelUnit, "-DOFFSET=7")), scaleUnit(compiled(cl, ScaleUnit)) {}
  ~Units() {
    clReleaseProgram(kernelUnit);
    clReleaseProgram(scaleUnit);
  }
};

/// Units that call each other both ways. The first unit's kernel calls stage_b, which the second
/// defines; stage_b calls the first unit's stage_c, which reads the second's __constant table. The
/// second unit's kernel calls the first's as a function (and a third unit's, declaring it without
/// __kernel); the first's group kernel calls a helper with __local memory and barriers from a
/// library.
const char *StagesUnit = R"(int stage_b(int x);
int group_total(int value, __local int *scratch);
extern __constant int Offsets[8];
int stage_c(int x) { return x * 5 + Offsets[x & 7]; }
__kernel void staged(__global int *out, __global const int *in) {
  size_t i = get_global_id(0);
  out[i] = stage_b(in[i]);
}
__kernel void group_totals(__global int *out, __global const int *in, __local int *scratch) {
  size_t i = get_global_id(0);
  out[i] = group_total(stage_b(in[i]), scratch);
}
)";
const char *StageBUnit = R"(int stage_c(int x);
__constant int Offsets[8] = {3, 1, 4, 1, 5, 9, 2, 6};
int stage_b(int x) { return stage_c(x - 2) ^ Offsets[(x >> 3) & 7]; }
__kernel void staged(__global int *out, __global const int *in);
__kernel void staged_twice(__global int *out, __global const int *in) {
  staged(out, in);
  size_t i = get_global_id(0);
  out[i] = stage_b(out[i]);
}
)";
/// The first unit's kernel declared as a plain function, and called.
const char *PlainDeclarationUnit = R"(void staged(__global int *out, __global const int *in);
__kernel void staged_plain(__global int *out, __global const int *in) {
  staged(out, in);
}
)";
const char *GroupTotalUnit = R"(int group_total(int value, __local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = value;
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int total = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE); // Its caller may call again with the same scratch.
  return total;
}
)";

/// stage_b of StageBUnit, for the non-negative inputs the test gives it.
int stageB(int x) {
  static const int offsets[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  const int c = x - 2;
  return (c * 5 + offsets[c & 7]) ^ offsets[(x >> 3) & 7];
}

} // namespace

TEST_CASE("compile and link two units", "[e2e][link]") {
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Units units(target);
    Setup &cl = units.cl;
    cl_program kernelUnit = units.kernelUnit, scaleUnit = units.scaleUnit;
    CHECK(binaryType(kernelUnit, cl.device) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    CHECK(buildStatus(kernelUnit, cl.device) == CL_BUILD_SUCCESS);
    cl_int err = CL_SUCCESS;
    CHECK(clCreateKernel(kernelUnit, "apply", &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);

    cl_program program = linked(cl, {kernelUnit, scaleUnit}, "-cl-fast-relaxed-math", err);
    REQUIRE(program != nullptr);
    INFO(buildLog(program, cl.device));
    REQUIRE(err == CL_SUCCESS);
    CHECK(binaryType(program, cl.device) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    size_t kernels = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) == CL_SUCCESS);
    CHECK(kernels == 1);
    CHECK(applies(cl, program));

    // The executable's binary loads and runs again.
    cl_program reloaded = cl.load(programBinary(program));
    CHECK(applies(cl, reloaded));
    for (cl_program p : {reloaded, program})
      clReleaseProgram(p);
  }
}

TEST_CASE("libraries and object binaries", "[e2e][link]") {
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Units units(target);
    Setup &cl = units.cl;
    cl_program kernelUnit = units.kernelUnit, scaleUnit = units.scaleUnit;
    cl_int err = CL_SUCCESS;
    cl_program library = linked(cl, {scaleUnit}, "-create-library -enable-link-options", err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(binaryType(library, cl.device) == CL_PROGRAM_BINARY_TYPE_LIBRARY);

    // Objects and libraries go through CL_PROGRAM_BINARIES and clCreateProgramWithBinary.
    auto fromBinary = [&](cl_program program) {
      const std::string bytes = programBinary(program);
      const unsigned char *data = reinterpret_cast<const unsigned char *>(bytes.data());
      size_t size = bytes.size();
      cl_int status = CL_SUCCESS, created = CL_SUCCESS;
      cl_program copy = clCreateProgramWithBinary(cl.context, 1, &cl.device, &size, &data, &status, &created);
      REQUIRE(created == CL_SUCCESS);
      CHECK(status == CL_SUCCESS);
      return copy;
    };
    cl_program libraryCopy = fromBinary(library), objectCopy = fromBinary(kernelUnit);
    CHECK(binaryType(libraryCopy, cl.device) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    CHECK(binaryType(objectCopy, cl.device) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    // An object is linked, not built: the spec wants an executable binary for clBuildProgram.
    CHECK(clBuildProgram(objectCopy, 1, &cl.device, "", nullptr, nullptr) == CL_INVALID_BINARY);
    CHECK(buildLog(objectCopy, cl.device).find("link it with clLinkProgram") != std::string::npos);

    cl_program program = linked(cl, {objectCopy, libraryCopy}, "", err);
    REQUIRE(program != nullptr);
    INFO(buildLog(program, cl.device));
    REQUIRE(err == CL_SUCCESS);
    CHECK(applies(cl, program));
    for (cl_program p : {program, objectCopy, libraryCopy, library})
      clReleaseProgram(p);
  }
}

TEST_CASE("units call each other's helpers and kernels and share a __constant table", "[e2e][link]") {
  const size_t n = 512, local = 64;
  const std::vector<int> in = randomInts(n, 2, 100000, 31);
  std::vector<int> once(n), twice(n), totals(n);
  std::transform(in.begin(), in.end(), once.begin(), stageB);
  std::transform(once.begin(), once.end(), twice.begin(), stageB);
  for (size_t group = 0; group < n; group += local)
    std::fill_n(totals.begin() + long(group), local,
                std::accumulate(once.begin() + long(group), once.begin() + long(group + local), 0));
  for (const Target &target : Targets) DYNAMIC_SECTION("device: " << target.name) {
    Setup cl(target.device());
    cl_program stages = compiled(cl, StagesUnit), stagesB = compiled(cl, StageBUnit),
               plain = compiled(cl, PlainDeclarationUnit), groupTotal = compiled(cl, GroupTotalUnit);
    cl_int err = CL_SUCCESS;
    cl_program library = linked(cl, {groupTotal}, "-create-library", err);
    REQUIRE(err == CL_SUCCESS);
    cl_program program = linked(cl, {stages, stagesB, plain, library}, "", err);
    REQUIRE(program != nullptr);
    INFO(buildLog(program, cl.device));
    REQUIRE(err == CL_SUCCESS);
    CHECK(programString(program, CL_PROGRAM_KERNEL_NAMES) == "staged;group_totals;staged_twice;staged_plain");

    cl_mem din = buffer(cl, in, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    cl_mem dout = buffer(cl, in, CL_MEM_READ_WRITE);
    struct Run {
      const char *kernel;
      const std::vector<int> &want;
      bool grouped; ///< Takes __local scratch for groups of `local`.
    };
    for (const Run &run :
         {Run{"staged", once, false}, Run{"staged_twice", twice, false}, Run{"staged_plain", once, false},
          Run{"group_totals", totals, true}}) {
      INFO("kernel " << run.kernel);
      cl_kernel kernel = kernelNamed(program, run.kernel);
      setArg(kernel, 0, dout);
      setArg(kernel, 1, din);
      Range range{{n}};
      if (run.grouped) {
        REQUIRE(clSetKernelArg(kernel, 2, local * sizeof(int), nullptr) == CL_SUCCESS);
        range.local = {local};
      }
      clReleaseEvent(launch(cl, kernel, range));
      CHECK(firstMismatch(readBack<int>(cl, dout, n), run.want) == -1);
      clReleaseKernel(kernel);
    }
    for (cl_mem mem : {din, dout})
      clReleaseMemObject(mem);
    for (cl_program p : {program, library, stages, stagesB, plain, groupTotal})
      clReleaseProgram(p);
  }
}

TEST_CASE("link errors", "[e2e][link]") {
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Units units(target);
    Setup &cl = units.cl;
    cl_program kernelUnit = units.kernelUnit, scaleUnit = units.scaleUnit;
    cl_int err = CL_SUCCESS;

    // A function no unit defines: the program comes back, with the reason in its log.
    cl_program missing = linked(cl, {kernelUnit}, "", err);
    CHECK(err == CL_LINK_PROGRAM_FAILURE);
    REQUIRE(missing != nullptr);
    CHECK(buildStatus(missing, cl.device) == CL_BUILD_ERROR);
    const std::string log = buildLog(missing, cl.device);
    CHECK(log.find("program.cl:4:12: error: undefined function 'scale' called from 'apply'") != std::string::npos);
    clReleaseProgram(missing);

    cl_program twice = linked(cl, {kernelUnit, scaleUnit, scaleUnit}, "", err);
    CHECK(err == CL_LINK_PROGRAM_FAILURE);
    REQUIRE(twice != nullptr);
    CHECK(buildLog(twice, cl.device).find("'scale'") != std::string::npos);
    clReleaseProgram(twice);

    CHECK(linked(cl, {kernelUnit, scaleUnit}, "-O2", err) == nullptr);
    CHECK(err == CL_INVALID_LINKER_OPTIONS);
    CHECK(linked(cl, {scaleUnit}, "-enable-link-options", err) == nullptr);
    CHECK(err == CL_INVALID_LINKER_OPTIONS);
    CHECK(clLinkProgram(cl.context, 1, &cl.device, "", 0, nullptr, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    cl_program notCompiled = sourceProgram(cl, ScaleUnit);
    CHECK(linked(cl, {kernelUnit, notCompiled}, "", err) == nullptr);
    CHECK(err == CL_INVALID_OPERATION);
    CHECK(linked(cl, {kernelUnit, nullptr}, "", err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM);
    clReleaseProgram(notCompiled);
  }
}

TEST_CASE("compile errors", "[e2e][link]") {
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Setup cl(target.device());
    cl_program bad = sourceProgram(cl, "int f(int x) {\n  return x +;\n}\n");
    CHECK(clCompileProgram(bad, 1, &cl.device, "", 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_COMPILE_PROGRAM_FAILURE);
    CHECK(buildStatus(bad, cl.device) == CL_BUILD_ERROR);
    CHECK(buildLog(bad, cl.device).find("program.cl:2:13: error: expected expression") != std::string::npos);
    CHECK(clCompileProgram(bad, 1, &cl.device, "-cl-std=CL9.9", 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_INVALID_COMPILER_OPTIONS);

    // A header the source includes but is not given is an ordinary compile error.
    cl_program unit = sourceProgram(cl, KernelUnit);
    CHECK(clCompileProgram(unit, 1, &cl.device, "", 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_COMPILE_PROGRAM_FAILURE);
    CHECK(buildLog(unit, cl.device).find("'ops/scale.h' file not found") != std::string::npos);

    const char *name = "ops/scale.h";
    cl_program header = sourceProgram(cl, ScaleHeader);
    CHECK(clCompileProgram(unit, 1, &cl.device, "", 1, nullptr, &name, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clCompileProgram(unit, 1, &cl.device, "", 0, &header, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
    cl_program noProgram = nullptr;
    CHECK(clCompileProgram(unit, 1, &cl.device, "", 1, &noProgram, &name, nullptr, nullptr) == CL_INVALID_PROGRAM);
    CHECK(clCompileProgram(nullptr, 1, &cl.device, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_PROGRAM);

    // Only a program made from source compiles.
    cl_program executable = cl.build(VectorAdd);
    cl_program binary = cl.load(programBinary(executable));
    CHECK(clCompileProgram(binary, 1, &cl.device, "", 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);
    for (cl_program p : {bad, unit, header, executable, binary})
      clReleaseProgram(p);
  }
}

TEST_CASE("a CPU object on the board", "[e2e][link][board]") {
  std::string object;
  {
    CpuSetup cpu;
    cl_program unit = compiled(cpu, ScaleUnit);
    object = programBinary(unit);
    clReleaseProgram(unit);
  }
  Setup board(boardDevice());
  const unsigned char *data = reinterpret_cast<const unsigned char *>(object.data());
  size_t size = object.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(board.context, 1, &board.device, &size, &data, &status, &err);
  CHECK(err == CL_INVALID_BINARY);
  CHECK(status == CL_INVALID_BINARY);
  REQUIRE(program != nullptr);
  CHECK(buildLog(program, board.device).find("the object was compiled for the CPU device, not for board 'default'") !=
        std::string::npos);
  clReleaseProgram(program);
}
