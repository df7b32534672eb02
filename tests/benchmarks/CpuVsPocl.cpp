// SPDX-License-Identifier: Apache-2.0
// Benchmark: Loom's CPU device against PoCL's, same process, same run, on kernels of three kinds:
// vector_add (streaming, no barrier), a work-group tree reduction (a barrier in a loop, __local
// memory) and a matrix multiply over __local tiles (two barriers in a loop). For each it prints the
// rate of each platform (best and median of 20 launches after a first one, kernel time from
// profiling events) and the ratio of the medians: on a shared machine the median is the steadier
// figure. Results are checked against a host reference on both platforms.
// usage: bench_cpu_vs_pocl vector_add.cl [N]   (OCL_ICD_VENDORS must list both ICDs)
#include "BenchSupport.h"

#include <algorithm>
#include <functional>

using namespace bench;

namespace {

struct Rates {
  double best, median; ///< `unit` per second
};

/// One kernel to time: its buffers (inputs filled, outputs checked), scalar arguments and range.
struct Workload {
  std::string name, source, kernel, unit;
  double workPerLaunch; ///< in `unit`s (bytes for GB/s, flops for GFLOP/s)
  size_t global[2], local[2]; ///< local {0, 0}: the platform picks
  unsigned dims;
  std::vector<std::vector<float>> inputs; ///< Buffers the kernel reads, in argument order first.
  std::vector<size_t> outputFloats;       ///< Then the buffers it writes.
  std::vector<size_t> localBytes;         ///< Then __local arguments.
  std::vector<int> scalars;               ///< Then int arguments.
  std::function<bool(const std::vector<std::vector<float>> &outputs)> correct;
};

Rates measure(cl_platform_id platform, const Workload &work) {
  cl_int err;
  cl_device_id device;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr), "clGetDeviceIDs(CPU)");
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  const char *text = work.source.c_str();
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, work.kernel.c_str(), &err);
  check(err, "clCreateKernel");

  std::vector<cl_mem> buffers;
  cl_uint arg = 0;
  for (const std::vector<float> &input : work.inputs) {
    buffers.push_back(clCreateBuffer(context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY,
                                     input.size() * sizeof(float), const_cast<float *>(input.data()), &err));
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &buffers.back()), "clSetKernelArg");
  }
  for (size_t floats : work.outputFloats) {
    buffers.push_back(clCreateBuffer(context, CL_MEM_WRITE_ONLY, floats * sizeof(float), nullptr, &err));
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &buffers.back()), "clSetKernelArg");
  }
  for (size_t bytes : work.localBytes)
    check(clSetKernelArg(kernel, arg++, bytes, nullptr), "clSetKernelArg(__local)");
  for (int scalar : work.scalars)
    check(clSetKernelArg(kernel, arg++, sizeof scalar, &scalar), "clSetKernelArg(int)");

  std::vector<cl_ulong> times;
  for (int run = 0; run < 21; ++run) {
    cl_event event;
    const size_t *local = work.local[0] ? work.local : nullptr; // 0: the platform picks.
    check(clEnqueueNDRangeKernel(queue, kernel, work.dims, nullptr, work.global, local, 0, nullptr, &event),
          "enqueue");
    check(clWaitForEvents(1, &event), "clWaitForEvents");
    if (run > 0) // the first launch pays for JIT and page faults
      times.push_back(eventNs(event));
    clReleaseEvent(event);
  }
  std::vector<std::vector<float>> outputs;
  for (size_t i = 0; i < work.outputFloats.size(); ++i) {
    outputs.emplace_back(work.outputFloats[i]);
    check(clEnqueueReadBuffer(queue, buffers[work.inputs.size() + i], CL_TRUE, 0,
                              outputs.back().size() * sizeof(float), outputs.back().data(), 0, nullptr, nullptr),
          "read");
  }
  if (!work.correct(outputs)) {
    std::fprintf(stderr, "bench: wrong %s result on %s\n", work.name.c_str(), platformName(platform).c_str());
    std::exit(1);
  }
  for (cl_mem buffer : buffers)
    clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  std::sort(times.begin(), times.end());
  return {work.workPerLaunch / double(times.front()), work.workPerLaunch / double(times[times.size() / 2])};
}

Workload vectorAdd(const std::string &source, size_t n) {
  Workload work{"vector_add", source, "vector_add", "GB/s", 3.0 * double(n * sizeof(float)), {n, 1}, {0, 0}, 1};
  work.inputs = {std::vector<float>(n, 1.5f), std::vector<float>(n, 2.25f)};
  work.outputFloats = {n};
  work.correct = [](const auto &out) {
    return std::all_of(out[0].begin(), out[0].end(), [](float c) { return c == 3.75f; });
  };
  return work;
}

Workload reduction(size_t n) {
  const size_t local = 256;
  Workload work{"reduction", R"(
__kernel void reduce(__global const float *in, __global float *out, __local float *partial) {
  size_t l = get_local_id(0);
  partial[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      partial[l] += partial[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = partial[0];
})", "reduce", "GB/s", double(n * sizeof(float)), {n, 1}, {local, 1}, 1};
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(i % 17); // Small integers: every order of the additions gives the exact sum.
  work.inputs = {in};
  work.outputFloats = {n / local};
  work.localBytes = {local * sizeof(float)};
  work.correct = [in, local](const auto &out) {
    for (size_t g = 0; g < out[0].size(); ++g) {
      float sum = 0;
      for (size_t i = 0; i < local; ++i)
        sum += in[g * local + i];
      if (out[0][g] != sum)
        return false;
    }
    return true;
  };
  return work;
}

Workload tiledMatrixMultiply(size_t n) {
  Workload work{"tiled_sgemm", R"(
#define TILE 16
__kernel void sgemm(__global const float *a, __global const float *b, __global float *c, int n) {
  __local float ta[TILE][TILE], tb[TILE][TILE];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    ta[ly][lx] = a[row * n + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      sum += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
})", "sgemm", "GFLOP/s", 2.0 * double(n) * double(n) * double(n), {n, n}, {16, 16}, 2};
  std::vector<float> a(n * n), b(n * n);
  for (size_t i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = float(i % 5) - 2.0f;
  }
  work.inputs = {a, b};
  work.outputFloats = {n * n};
  work.scalars = {int(n)};
  work.correct = [a, b, n](const auto &out) {
    for (size_t row = 0; row < n; row += 37) // A sample of rows, every column: exact small integers.
      for (size_t col = 0; col < n; ++col) {
        float sum = 0;
        for (size_t k = 0; k < n; ++k)
          sum += a[row * n + k] * b[k * n + col];
        if (out[0][row * n + col] != sum)
          return false;
      }
    return true;
  };
  return work;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s vector_add.cl [N]\n", argv[0]);
    return 2;
  }
  size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (16u << 20);
  cl_platform_id loom = findPlatform("Loom"), pocl = findPlatform("Portable Computing Language");
  if (!loom || !pocl) {
    std::fprintf(stderr, "bench: need both the Loom and the PoCL platforms (found %s, %s)\n",
                 loom ? "Loom" : "-", pocl ? "PoCL" : "-");
    return 1;
  }
  const Workload workloads[] = {vectorAdd(readFile(argv[1]), n), reduction(n / 256 * 256), tiledMatrixMultiply(512)};
  for (const Workload &work : workloads) {
    Rates loomRates = measure(loom, work), poclRates = measure(pocl, work);
    std::printf("cpu %-12s Loom CPU %7.2f %s (best %7.2f), PoCL %7.2f %s (best %7.2f), Loom/PoCL %.2fx (medians)\n",
                work.name.c_str(), loomRates.median, work.unit.c_str(), loomRates.best, poclRates.median,
                work.unit.c_str(), poclRates.best, loomRates.median / poclRates.median);
  }
  return 0;
}
