// SPDX-License-Identifier: Apache-2.0
// Small OpenCL helpers shared by the benchmark programs (the C API, through the ICD loader).
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace bench {

inline void check(cl_int code, const char *what) {
  if (code != CL_SUCCESS) {
    std::fprintf(stderr, "bench: %s failed with OpenCL error %d\n", what, code);
    std::exit(1);
  }
}

inline std::string readFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "bench: cannot read %s\n", path);
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string platformName(cl_platform_id platform) {
  char name[256] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
  return name;
}

inline std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> result(count);
  if (count)
    clGetPlatformIDs(count, result.data(), nullptr);
  return result;
}

/// The first platform whose name contains `needle`, or nullptr.
inline cl_platform_id findPlatform(const std::string &needle) {
  for (auto p : platforms())
    if (platformName(p).find(needle) != std::string::npos)
      return p;
  return nullptr;
}

/// Kernel time in ns from a profiled event.
inline cl_ulong eventNs(cl_event event) {
  cl_ulong start = 0, end = 0;
  check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr), "profiling");
  check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), "profiling");
  return end - start;
}

/// A context and a profiling queue on a platform's first CPU device.
struct Session {
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  explicit Session(cl_platform_id platform) {
    cl_int err;
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr), "clGetDeviceIDs(CPU)");
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
  }
  ~Session() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  /// Builds `source`, exiting with a message on failure.
  cl_program build(const std::string &source) const {
    cl_int err;
    const char *text = source.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    return program;
  }
};

} // namespace bench
