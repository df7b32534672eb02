// SPDX-License-Identifier: Apache-2.0
// Helpers for the end-to-end tests: the Loom platform and its CPU device through the ICD loader, and
// building a program from source with its log.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace e2e {

inline std::string platformString(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  REQUIRE(clGetPlatformInfo(platform, what, 0, nullptr, &size) == CL_SUCCESS);
  std::string text(size, '\0');
  REQUIRE(clGetPlatformInfo(platform, what, size, text.data(), nullptr) == CL_SUCCESS);
  text.resize(size ? size - 1 : 0);
  return text;
}

inline std::string deviceString(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, what, 0, nullptr, &size) == CL_SUCCESS);
  std::string text(size, '\0');
  REQUIRE(clGetDeviceInfo(device, what, size, text.data(), nullptr) == CL_SUCCESS);
  text.resize(size ? size - 1 : 0);
  return text;
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

inline std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  REQUIRE(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) == CL_SUCCESS);
  std::string log(size, '\0');
  REQUIRE(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) == CL_SUCCESS);
  log.resize(size ? size - 1 : 0);
  return log;
}

/// A context with the CPU device, a queue and the program built from `source`.
struct CpuSetup {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

  explicit CpuSetup(cl_command_queue_properties properties = 0) {
    device = cpuDevice();
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueue(context, device, properties, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~CpuSetup() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
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
};

inline const char *VectorAdd = R"(
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

} // namespace e2e
