// SPDX-License-Identifier: Apache-2.0
// Benchmark: vector_add on Loom's CPU device and on PoCL's, same process, same run; prints GB/s of
// each (best and median of 20 launches after a first one, kernel time from profiling events) and
// the ratio of the medians: on a shared machine the median is the steadier figure.
// usage: bench_cpu_vs_pocl vector_add.cl [N]   (OCL_ICD_VENDORS must list both ICDs)
#include "BenchSupport.h"

#include <algorithm>

using namespace bench;

struct Rates {
  double best, median; ///< GB/s
};

static Rates gigabytesPerSecond(cl_platform_id platform, const std::string &source, size_t n) {
  cl_int err;
  cl_device_id device;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr), "clGetDeviceIDs(CPU)");
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  const char *text = source.c_str();
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  check(err, "clCreateKernel");
  std::vector<float> a(n, 1.5f), b(n, 2.25f);
  size_t bytes = n * sizeof(float);
  cl_mem da = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, bytes, a.data(), &err);
  cl_mem db = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, bytes, b.data(), &err);
  cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  check(err, "clCreateBuffer");
  clSetKernelArg(kernel, 0, sizeof(cl_mem), &da);
  clSetKernelArg(kernel, 1, sizeof(cl_mem), &db);
  clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc);
  std::vector<cl_ulong> times;
  for (int run = 0; run < 21; ++run) {
    cl_event event;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &event), "enqueue");
    check(clWaitForEvents(1, &event), "clWaitForEvents");
    if (run > 0) // the first launch pays for JIT and page faults
      times.push_back(eventNs(event));
    clReleaseEvent(event);
  }
  std::vector<float> c(n);
  check(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr), "read");
  if (c[0] != 3.75f || c[n - 1] != 3.75f) {
    std::fprintf(stderr, "bench: wrong result on %s\n", platformName(platform).c_str());
    std::exit(1);
  }
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  std::sort(times.begin(), times.end());
  const double moved = 3.0 * double(bytes);
  return {moved / double(times.front()), moved / double(times[times.size() / 2])};
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s vector_add.cl [N]\n", argv[0]);
    return 2;
  }
  size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (16u << 20);
  std::string source = readFile(argv[1]);
  cl_platform_id loom = findPlatform("Loom"), pocl = findPlatform("Portable Computing Language");
  if (!loom || !pocl) {
    std::fprintf(stderr, "bench: need both the Loom and the PoCL platforms (found %s, %s)\n",
                 loom ? "Loom" : "-", pocl ? "PoCL" : "-");
    return 1;
  }
  Rates loomRates = gigabytesPerSecond(loom, source, n);
  Rates poclRates = gigabytesPerSecond(pocl, source, n);
  std::printf("cpu vector_add %zu floats: Loom CPU %.2f GB/s (best %.2f), PoCL %.2f GB/s (best %.2f), "
              "Loom/PoCL %.2fx (medians)\n",
              n, loomRates.median, loomRates.best, poclRates.median, poclRates.best,
              loomRates.median / poclRates.median);
  return 0;
}
