// SPDX-License-Identifier: Apache-2.0
// clBuildProgram from source on the simulated board, through the ICD loader: the offline flow runs
// in-process, the build log shows its progress, the result is cached on disk (a second build loads
// the cached binary) and its binary (CL_PROGRAM_BINARIES) loads again. Failures give the spec's
// error codes and a log with file:line:col, `double` among them: neither device has double precision.
#include "DifferentialSupport.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace e2e;

namespace {

/// A cache directory of the test's own, empty at the start.
void freshCache() {
  const char *directory = std::getenv("LOOM_CACHE_DIR");
  REQUIRE(directory != nullptr);
  REQUIRE_FALSE(llvm::sys::fs::remove_directories(directory));
}

/// Status and log of building `source` with `options` on the board.
std::pair<cl_int, std::string> buildOnBoard(Setup &cl, const char *source, const char *options = "") {
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_int built = clBuildProgram(program, 1, &cl.device, options, nullptr, nullptr);
  std::string log = buildLog(program, cl.device);
  clReleaseProgram(program);
  return {built, log};
}

/// Runs vector_add of `program` on 1000 floats; true when c == a + b.
bool addsVectors(Setup &cl, cl_program program) {
  const size_t n = 1000;
  std::vector<float> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = 3.0f - float(i);
    want[i] = a[i] + b[i];
  }
  cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem db = buffer(cl, b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dc = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr, nullptr);
  cl_kernel kernel = kernelNamed(program, "vector_add");
  setArg(kernel, 0, da);
  setArg(kernel, 1, db);
  setArg(kernel, 2, dc);
  clReleaseEvent(launch(cl, kernel, {{n}}));
  const bool same = firstMismatch(readBack<float>(cl, dc, n), want) == -1;
  clReleaseKernel(kernel);
  for (cl_mem mem : {da, db, dc})
    clReleaseMemObject(mem);
  return same;
}

} // namespace

TEST_CASE("clBuildProgram on the board runs the hardware flow, caches it, and its binary reloads",
          "[e2e][board][build]") {
  freshCache();
  cl_device_id board = boardDevice();
  cl_bool compiler = CL_FALSE;
  REQUIRE(clGetDeviceInfo(board, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, nullptr) == CL_SUCCESS);
  CHECK(compiler == CL_TRUE);

  Setup cl(board);
  cl_program program = cl.build(VectorAdd);
  const std::string log = buildLog(program, board);
  INFO(log);
  CHECK(log.find("loom: building for board 'default'") != std::string::npos);
  CHECK(log.find("verilating") != std::string::npos);
  CHECK(log.find("loom: cached as ") != std::string::npos);
  CHECK(log.find("kernel vector_add: II 1") != std::string::npos);
  CHECK(log.find("port 2: store of 4-byte elements in 64-byte lines at program.cl:4:8") != std::string::npos);
  CHECK(addsVectors(cl, program));

  // The binary is a .loom that loads like loomc's.
  const std::string binary = programBinary(program);
  CHECK(binary.compare(0, 4, "\x7f" "ELF") == 0);
  cl_program reloaded = cl.load(binary);
  CHECK(addsVectors(cl, reloaded));

  // The same source and options again: the cached binary, nothing rebuilt.
  auto [again, cachedLog] = buildOnBoard(cl, VectorAdd);
  CHECK(again == CL_SUCCESS);
  CHECK(cachedLog.find("loom: cached build ") != std::string::npos);
  CHECK(cachedLog.find("verilating") == std::string::npos);
  // Other options are another program.
  auto [other, otherLog] = buildOnBoard(cl, VectorAdd, "-DUNUSED=1");
  CHECK(other == CL_SUCCESS);
  CHECK(otherLog.find("loom: building for board") != std::string::npos);

  for (cl_program p : {program, reloaded})
    clReleaseProgram(p);
}

TEST_CASE("a program without kernels builds on both devices, has none, and its binary reloads",
          "[e2e][board][build]") {
  freshCache();
  // Helper functions only, as a program whose kernels need a feature the device lacks leaves it.
  const char *helpers = "int twice(int x) { return 2 * x; }\n"
                        "#ifdef cl_khr_fp64\n__kernel void k(__global double *a) { a[0] = 1.0; }\n#endif\n";
  for (cl_device_id device : {boardDevice(), cpuDevice()}) {
    INFO(deviceString(device, CL_DEVICE_NAME));
    Setup cl(device);
    cl_program program = cl.build(helpers);
    if (device == boardDevice()) {
      const std::string log = buildLog(program, device);
      INFO(log);
      CHECK(log.find("warning: the program has no kernels") != std::string::npos);
      CHECK(log.find("verilating") == std::string::npos);
    }
    const std::string binary = programBinary(program);
    cl_program reloaded = cl.load(binary);
    for (cl_program p : {program, reloaded}) {
      size_t count = ~size_t(0);
      CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr) == CL_SUCCESS);
      CHECK(count == 0);
      cl_uint created = ~cl_uint(0);
      CHECK(clCreateKernelsInProgram(p, 0, nullptr, &created) == CL_SUCCESS);
      CHECK(created == 0);
      cl_int err = CL_SUCCESS;
      CHECK(clCreateKernel(p, "k", &err) == nullptr);
      CHECK(err == CL_INVALID_KERNEL_NAME);
      clReleaseProgram(p);
    }
  }
}

TEST_CASE("a source build that fails on the board says where and why", "[e2e][board][build][errors]") {
  freshCache();
  Setup cl(boardDevice());
  SECTION("a syntax error") {
    auto [status, log] = buildOnBoard(cl, "__kernel void k(__global int *a) {\n  a[0] = 1\n}\n");
    CHECK(status == CL_BUILD_PROGRAM_FAILURE);
    CHECK(log.find("program.cl:2:11: error: expected ';'") != std::string::npos);
  }
  SECTION("a construct the hardware flow does not build") {
    auto [status, log] = buildOnBoard(cl, "typedef struct { int v[4]; } quad;\n"
                                          "__kernel void k(__global int *o, quad q) {\n  o[0] = q.v[o[1] & 3];\n}\n");
    CHECK(status == CL_BUILD_PROGRAM_FAILURE);
    INFO(log);
    CHECK(log.find("program.cl:3:") != std::string::npos);
    CHECK(log.find("error: struct argument 'q' is read at an offset known only at run time") != std::string::npos);
  }
  SECTION("double precision, which neither device has") {
    for (cl_device_id device : {boardDevice(), cpuDevice()}) {
      INFO(deviceString(device, CL_DEVICE_NAME));
      cl_device_fp_config fp64 = ~cl_device_fp_config(0);
      REQUIRE(clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, nullptr) == CL_SUCCESS);
      CHECK(fp64 == 0);
      CHECK(deviceString(device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") == std::string::npos);
    }
    auto [status, log] = buildOnBoard(cl, "__kernel void k(__global float *o) {\n  double d = o[0];\n  o[0] = d;\n}\n");
    CHECK(status == CL_BUILD_PROGRAM_FAILURE);
    INFO(log);
    CHECK(log.find("program.cl:2:3: error: use of type 'double' requires cl_khr_fp64 support") != std::string::npos);
  }
  SECTION("an unknown build option") {
    auto [status, log] = buildOnBoard(cl, VectorAdd, "-fno-such-option");
    CHECK(status == CL_INVALID_BUILD_OPTIONS);
    CHECK(log.find("-fno-such-option") != std::string::npos);
  }
  // Nothing that failed was cached.
  std::error_code ec;
  llvm::sys::fs::directory_iterator entry(std::getenv("LOOM_CACHE_DIR"), ec);
  CHECK((ec || entry == llvm::sys::fs::directory_iterator()));
}
