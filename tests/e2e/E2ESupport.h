// SPDX-License-Identifier: Apache-2.0
// Helpers for the end-to-end tests: the Loom platform and its devices through the ICD loader, and
// building a program from source with its log.
#pragma once

// OpenCL 3.0 headers (sub-group queries are 2.1 API); the tests also call the 1.x entry points.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

namespace e2e {

/// The string a clGet*Info query answers: `get(size, value, sizeRet)` makes the call, its object and
/// param_name bound.
template <typename Get> std::string infoString(Get get) {
  size_t size = 0;
  REQUIRE(get(0, nullptr, &size) == CL_SUCCESS);
  std::string text(size, '\0');
  REQUIRE(get(size, text.data(), nullptr) == CL_SUCCESS);
  text.resize(size ? size - 1 : 0);
  return text;
}

inline std::string platformString(cl_platform_id platform, cl_platform_info what) {
  return infoString([&](size_t size, void *value, size_t *sizeRet) {
    return clGetPlatformInfo(platform, what, size, value, sizeRet);
  });
}

inline std::string deviceString(cl_device_id device, cl_device_info what) {
  return infoString(
      [&](size_t size, void *value, size_t *sizeRet) { return clGetDeviceInfo(device, what, size, value, sizeRet); });
}

/// A string of clGetProgramInfo, e.g. CL_PROGRAM_KERNEL_NAMES ("a;b").
inline std::string programString(cl_program program, cl_program_info what) {
  return infoString(
      [&](size_t size, void *value, size_t *sizeRet) { return clGetProgramInfo(program, what, size, value, sizeRet); });
}

/// The Loom platform (OCL_ICD_VENDORS points the loader at Loom only).
inline cl_platform_id loomPlatform() {
  cl_uint count = 0;
  REQUIRE(clGetPlatformIDs(0, nullptr, &count) == CL_SUCCESS);
  std::vector<cl_platform_id> platforms(count);
  REQUIRE(clGetPlatformIDs(count, platforms.data(), nullptr) == CL_SUCCESS);
  for (cl_platform_id platform : platforms)
    if (platformString(platform, CL_PLATFORM_NAME) == "Loom")
      return platform;
  FAIL("no Loom platform: is OCL_ICD_VENDORS set to the build's loom.icd?");
  return nullptr;
}

inline cl_device_id cpuDevice() {
  cl_device_id device = nullptr;
  REQUIRE(clGetDeviceIDs(loomPlatform(), CL_DEVICE_TYPE_CPU, 1, &device, nullptr) == CL_SUCCESS);
  return device;
}

inline cl_device_id boardDevice() {
  cl_device_id device = nullptr;
  REQUIRE(clGetDeviceIDs(loomPlatform(), CL_DEVICE_TYPE_ACCELERATOR, 1, &device, nullptr) == CL_SUCCESS);
  return device;
}

inline std::string buildLog(cl_program program, cl_device_id device) {
  return infoString([&](size_t size, void *value, size_t *sizeRet) {
    return clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, value, sizeRet);
  });
}

/// The program's binary for its one device (CL_PROGRAM_BINARIES).
inline std::string programBinary(cl_program program) {
  size_t size = 0;
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
  std::string binary(size, '\0');
  unsigned char *pointer = reinterpret_cast<unsigned char *>(binary.data());
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr) == CL_SUCCESS);
  return binary;
}

/// A context with one device, an in-order queue, and programs built from source or loaded from a
/// binary. What the runtime tells the context's pfn_notify is kept in `notes` (the runtime reports a
/// failed command before it completes the command's event).
struct Setup {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::vector<std::string> notes;

  explicit Setup(cl_device_id onDevice, cl_command_queue_properties properties = 0) : device(onDevice) {
    cl_int err = CL_SUCCESS;
    auto notify = [](const char *message, const void *, size_t, void *self) {
      static_cast<Setup *>(self)->notes.push_back(message);
    };
    context = clCreateContext(nullptr, 1, &device, notify, this, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueue(context, device, properties, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~Setup() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  Setup(const Setup &) = delete;
  Setup &operator=(const Setup &) = delete;

  /// Everything pfn_notify received, one message per line.
  std::string diagnosis() const {
    std::string text;
    for (const std::string &note : notes)
      text += note + "\n";
    return text;
  }

  cl_program build(const std::string &source, const char *options = "") {
    const char *text = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_int built = clBuildProgram(program, 1, &device, options, nullptr, nullptr);
    if (built != CL_SUCCESS)
      FAIL("clBuildProgram returned " << built << ", log:\n" << buildLog(program, device));
    return program;
  }

  /// Builds `source`, which must fail to build (CL_BUILD_PROGRAM_FAILURE); returns the build log.
  std::string failedBuild(const std::string &source, const char *options = "") {
    const char *text = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clBuildProgram(program, 1, &device, options, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
    std::string log = buildLog(program, device);
    clReleaseProgram(program);
    return log;
  }

  /// Loads and builds a program binary (a .loom file's bytes); fails the test with the log on error.
  cl_program load(const std::string &binary) {
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(binary.data());
    size_t size = binary.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &status, &err);
    if (err != CL_SUCCESS)
      FAIL("clCreateProgramWithBinary returned " << err << ", log:\n"
                                                 << (program ? buildLog(program, device) : ""));
    cl_int built = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
    if (built != CL_SUCCESS)
      FAIL("clBuildProgram returned " << built << ", log:\n" << buildLog(program, device));
    return program;
  }
};

/// The CPU device's Setup.
struct CpuSetup : Setup {
  explicit CpuSetup(cl_command_queue_properties properties = 0) : Setup(cpuDevice(), properties) {}
};

/// A whole file's bytes.
inline std::string readFile(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  REQUIRE(file != nullptr);
  std::string bytes;
  char chunk[65536];
  for (size_t got; (got = std::fread(chunk, 1, sizeof chunk, file)) > 0;)
    bytes.append(chunk, got);
  std::fclose(file);
  return bytes;
}

/// What the process wrote to stdout (printf's output of kernels included) while `body` ran.
template <typename Body> std::string capturedStdout(Body body) {
  std::fflush(stdout);
  std::FILE *file = std::tmpfile();
  REQUIRE(file != nullptr);
  const int saved = dup(1);
  REQUIRE(dup2(fileno(file), 1) == 1);
  body();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string text;
  std::rewind(file);
  char chunk[65536];
  for (size_t got; (got = std::fread(chunk, 1, sizeof chunk, file)) > 0;)
    text.append(chunk, got);
  std::fclose(file);
  return text;
}

/// `text`'s lines, sorted: the output of work-items that ran in no particular order.
inline std::vector<std::string> sortedLines(const std::string &text) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end;
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

inline const char *VectorAdd = R"(
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

} // namespace e2e
