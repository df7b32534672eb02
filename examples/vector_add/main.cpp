// vector_add host program: runs the kernel on Loom's simulated board and on its CPU device.
// SPDX-License-Identifier: Apache-2.0
//
// usage: vector_add KERNEL.loom KERNEL.cl [N]
// Finds the Loom platform through the system ICD loader, loads the offline-compiled binary on the
// board (an accelerator device), runs c = a + b on N floats (default 1,000,000), checks every result
// and prints simulated cycles, cycles per work-item, simulated time, wall time and simulation speed.
// Then builds the same kernel from source for the CPU device, runs and checks it too.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const char *what, cl_int code) {
  std::fprintf(stderr, "vector_add: %s failed with OpenCL error %d\n", what, code);
  std::exit(1);
}

void check(cl_int code, const char *what) {
  if (code != CL_SUCCESS)
    fail(what, code);
}

std::string readFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "vector_add: cannot read %s\n", path);
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

cl_platform_id findLoom() {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (auto p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::strcmp(name, "Loom") == 0)
      return p;
  }
  std::fprintf(stderr, "vector_add: no Loom platform found (is loom.icd visible to the ICD loader? "
                       "set OCL_ICD_VENDORS to the build's loom.icd)\n");
  std::exit(1);
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  return log;
}

struct Timing {
  cl_ulong deviceNs;
  double wallSeconds;
};

/// Runs vector_add with `program` on `device` `launches` times; checks every element and returns
/// the last launch's times.
Timing run(cl_device_id device, cl_context context, cl_program program, const std::vector<float> &a,
           const std::vector<float> &b, unsigned launches) {
  cl_int err;
  const size_t n = a.size(), bytes = n * sizeof(float);
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)a.data(), &err);
  check(err, "clCreateBuffer(a)");
  cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)b.data(), &err);
  check(err, "clCreateBuffer(b)");
  cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  check(err, "clCreateBuffer(c)");
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  check(err, "clCreateKernel");
  check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da), "clSetKernelArg(0)");
  check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db), "clSetKernelArg(1)");
  check(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc), "clSetKernelArg(2)");

  cl_event done;
  double wall = 0;
  for (unsigned launch = 0; launch < launches; ++launch) {
    if (launch > 0)
      clReleaseEvent(done);
    auto start = std::chrono::steady_clock::now();
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &done),
          "clEnqueueNDRangeKernel");
    check(clWaitForEvents(1, &done), "clWaitForEvents");
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  cl_int status;
  check(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
        "clGetEventInfo");
  if (status != CL_COMPLETE)
    fail("the kernel", status);
  cl_ulong begin = 0, end = 0;
  check(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof begin, &begin, nullptr),
        "clGetEventProfilingInfo");
  check(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
        "clGetEventProfilingInfo");

  std::vector<float> c(n);
  check(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i] && wrong++ < 5)
      std::fprintf(stderr, "  c[%zu] = %g, expected %g\n", i, c[i], a[i] + b[i]);
  if (wrong) {
    std::fprintf(stderr, "vector_add: %zu of %zu results are wrong\n", wrong, n);
    std::exit(1);
  }
  clReleaseEvent(done);
  clReleaseKernel(kernel);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseCommandQueue(queue);
  return {end - begin, wall};
}

cl_device_id deviceOfType(cl_platform_id platform, cl_device_type type) {
  cl_device_id device;
  check(clGetDeviceIDs(platform, type, 1, &device, nullptr), "clGetDeviceIDs");
  return device;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s KERNEL.loom KERNEL.cl [N]\n", argv[0]);
    return 2;
  }
  const size_t n = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1000000;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = 0.5f * float(i % 1000) + 1.0f;
    b[i] = float(i % 77) * 0.25f - 3.0f;
  }
  cl_platform_id platform = findLoom();
  cl_int err;

  // The simulated board: the binary from loomc reprograms it.
  {
    cl_device_id board = deviceOfType(platform, CL_DEVICE_TYPE_ACCELERATOR);
    char name[256] = {};
    cl_uint clockMHz = 0;
    clGetDeviceInfo(board, CL_DEVICE_NAME, sizeof name, name, nullptr);
    clGetDeviceInfo(board, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clockMHz, &clockMHz, nullptr);
    cl_context context = clCreateContext(nullptr, 1, &board, nullptr, nullptr, &err);
    check(err, "clCreateContext(board)");
    std::string binary = readFile(argv[1]);
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(binary.data());
    size_t size = binary.size();
    cl_int binaryStatus;
    cl_program program = clCreateProgramWithBinary(context, 1, &board, &size, &bytes, &binaryStatus, &err);
    if (err != CL_SUCCESS) {
      std::fprintf(stderr, "%s", program ? buildLog(program, board).c_str() : "");
      fail("clCreateProgramWithBinary", err);
    }
    if (clBuildProgram(program, 1, &board, "", nullptr, nullptr) != CL_SUCCESS) {
      std::fprintf(stderr, "%s", buildLog(program, board).c_str());
      fail("clBuildProgram(board)", CL_BUILD_PROGRAM_FAILURE);
    }
    Timing t = run(board, context, program, a, b, 1);
    double cycles = double(t.deviceNs) * clockMHz / 1000.0;
    std::printf("%s: vector_add of %zu floats correct\n", name, n);
    std::printf("  simulated cycles      %.0f\n", cycles);
    std::printf("  cycles per work-item  %.3f\n", cycles / double(n));
    std::printf("  simulated time        %.3f ms at %u MHz\n", double(t.deviceNs) / 1e6, clockMHz);
    std::printf("  wall time             %.3f s\n", t.wallSeconds);
    std::printf("  simulation speed      %.0f cycles/s\n", cycles / t.wallSeconds);
    clReleaseProgram(program);
    clReleaseContext(context);
  }

  // The CPU device: the same kernel, built from source.
  {
    cl_device_id cpu = deviceOfType(platform, CL_DEVICE_TYPE_CPU);
    char name[256] = {};
    clGetDeviceInfo(cpu, CL_DEVICE_NAME, sizeof name, name, nullptr);
    cl_context context = clCreateContext(nullptr, 1, &cpu, nullptr, nullptr, &err);
    check(err, "clCreateContext(cpu)");
    std::string source = readFile(argv[2]);
    const char *text = source.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    if (clBuildProgram(program, 1, &cpu, "", nullptr, nullptr) != CL_SUCCESS) {
      std::fprintf(stderr, "%s", buildLog(program, cpu).c_str());
      fail("clBuildProgram(cpu)", CL_BUILD_PROGRAM_FAILURE);
    }
    // The first launch pays for first touches of the buffers' pages; the second shows the device.
    Timing t = run(cpu, context, program, a, b, 2);
    std::printf("%s: vector_add of %zu floats correct\n", name, n);
    std::printf("  kernel time           %.3f ms (%.2f GB/s, second launch)\n", double(t.deviceNs) / 1e6,
                3.0 * double(n) * sizeof(float) / double(t.deviceNs));
    clReleaseProgram(program);
    clReleaseContext(context);
  }
  return 0;
}
