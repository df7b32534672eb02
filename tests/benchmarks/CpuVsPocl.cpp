// SPDX-License-Identifier: Apache-2.0
// Benchmark: Loom's CPU device against PoCL's, same process, same run, on the kernels issue 6 names:
// vector_add (streaming), a naive and a __local-tiled sgemm (two barriers in a loop; again under
// reqd_work_group_size), a work-group tree reduction (a barrier in a loop), a histogram on global
// atomics, a 2D 5-point stencil, three math-heavy kernels (exp, sin and sqrt per element; log2, pow
// and tanh; log, log1p and cbrt), the launch overhead of an empty kernel, and clBuildProgram cold and cached. For each it
// prints the rate on each platform (best and median of 40 launches: two rounds of 20 after a first
// one, the platforms taking turns, so that a change in the machine's load falls on both; kernel time
// from profiling events, launch overhead from the host clock) and the ratio of the medians: on a
// shared machine the median is the steadier figure. Last, the geometric mean of the ratios. Every
// result is checked against a host reference on both platforms.
// usage: bench_cpu_vs_pocl vector_add.cl [N [case...]]   (OCL_ICD_VENDORS must list both ICDs; with
// cases named, only those kernels run, and neither the launch overhead nor the build times)
#include "BenchSupport.h"
#include "../Stencil.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>

using namespace bench;

namespace {

struct Rates {
  double best, median; ///< `unit` per second
};

/// A buffer's contents as bytes, and back.
template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}
template <typename T> std::vector<T> valuesOf(const std::vector<uint8_t> &bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

/// One kernel to time: its buffers (inputs filled, outputs checked), scalar arguments and range.
struct Workload {
  std::string name, source, kernel, unit;
  double workPerLaunch; ///< in `unit`s (bytes for GB/s, flops for GFLOP/s)
  size_t global[2], local[2]; ///< local {0, 0}: the platform picks
  unsigned dims;
  std::vector<std::vector<uint8_t>> inputs; ///< Buffers the kernel reads, in argument order first.
  std::vector<size_t> outputBytes;          ///< Then the buffers it writes (zeroed before each launch).
  std::vector<size_t> localBytes;           ///< Then __local arguments.
  std::vector<int> scalars;                 ///< Then int arguments.
  std::function<bool(const std::vector<std::vector<uint8_t>> &outputs)> correct;
};

Rates ratesOf(double work, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  return {work / seconds.front(), work / seconds[seconds.size() / 2]};
}

/// The kernel times of 20 launches of `work` after a first one.
std::vector<double> launchSeconds(cl_platform_id platform, const Workload &work) {
  Session session(platform);
  cl_int err;
  cl_program program = session.build(work.source);
  cl_kernel kernel = clCreateKernel(program, work.kernel.c_str(), &err);
  check(err, "clCreateKernel");

  std::vector<cl_mem> buffers;
  cl_uint arg = 0;
  for (const std::vector<uint8_t> &input : work.inputs) {
    buffers.push_back(clCreateBuffer(session.context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, input.size(),
                                     const_cast<uint8_t *>(input.data()), &err));
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &buffers.back()), "clSetKernelArg");
  }
  for (size_t bytes : work.outputBytes) {
    buffers.push_back(clCreateBuffer(session.context, CL_MEM_READ_WRITE, bytes, nullptr, &err));
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &buffers.back()), "clSetKernelArg");
  }
  for (size_t bytes : work.localBytes)
    check(clSetKernelArg(kernel, arg++, bytes, nullptr), "clSetKernelArg(__local)");
  for (int scalar : work.scalars)
    check(clSetKernelArg(kernel, arg++, sizeof scalar, &scalar), "clSetKernelArg(int)");

  std::vector<double> seconds;
  const uint8_t zero = 0;
  for (int run = 0; run < 21; ++run) {
    for (size_t i = 0; i < work.outputBytes.size(); ++i) // The histogram accumulates into its output.
      check(clEnqueueFillBuffer(session.queue, buffers[work.inputs.size() + i], &zero, 1, 0, work.outputBytes[i],
                                0, nullptr, nullptr),
            "clEnqueueFillBuffer");
    cl_event event;
    const size_t *local = work.local[0] ? work.local : nullptr; // 0: the platform picks.
    check(clEnqueueNDRangeKernel(session.queue, kernel, work.dims, nullptr, work.global, local, 0, nullptr, &event),
          "enqueue");
    check(clWaitForEvents(1, &event), "clWaitForEvents");
    if (run > 0) // the first launch pays for JIT and page faults
      seconds.push_back(double(eventNs(event)) * 1e-9);
    clReleaseEvent(event);
  }
  std::vector<std::vector<uint8_t>> outputs;
  for (size_t i = 0; i < work.outputBytes.size(); ++i) {
    outputs.emplace_back(work.outputBytes[i]);
    check(clEnqueueReadBuffer(session.queue, buffers[work.inputs.size() + i], CL_TRUE, 0, outputs.back().size(),
                              outputs.back().data(), 0, nullptr, nullptr),
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
  return seconds;
}

Workload vectorAdd(const std::string &source, size_t n) {
  Workload work{"vector_add", source, "vector_add", "GB/s", 3.0 * double(n * sizeof(float)) * 1e-9, {n, 1}, {0, 0}, 1};
  work.inputs = {bytesOf(std::vector<float>(n, 1.5f)), bytesOf(std::vector<float>(n, 2.25f))};
  work.outputBytes = {n * sizeof(float)};
  work.correct = [](const auto &out) {
    auto c = valuesOf<float>(out[0]);
    return std::all_of(c.begin(), c.end(), [](float value) { return value == 3.75f; });
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
})", "reduce", "GB/s", double(n * sizeof(float)) * 1e-9, {n, 1}, {local, 1}, 1};
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(i % 17); // Small integers: every order of the additions gives the exact sum.
  work.inputs = {bytesOf(in)};
  work.outputBytes = {n / local * sizeof(float)};
  work.localBytes = {local * sizeof(float)};
  work.correct = [in, local](const auto &out) {
    auto sums = valuesOf<float>(out[0]);
    for (size_t g = 0; g < sums.size(); ++g) {
      float sum = 0;
      for (size_t i = 0; i < local; ++i)
        sum += in[g * local + i];
      if (sums[g] != sum)
        return false;
    }
    return true;
  };
  return work;
}

/// Square n x n matrices of small integers, so that every order of the additions gives the exact
/// product; the check covers a sample of rows, every column.
void matrixMultiplyData(Workload &work, size_t n) {
  std::vector<float> a(n * n), b(n * n);
  for (size_t i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = float(i % 5) - 2.0f;
  }
  work.inputs = {bytesOf(a), bytesOf(b)};
  work.outputBytes = {n * n * sizeof(float)};
  work.scalars = {int(n)};
  work.correct = [a, b, n](const auto &out) {
    auto c = valuesOf<float>(out[0]);
    for (size_t row = 0; row < n; row += 37)
      for (size_t col = 0; col < n; ++col) {
        float sum = 0;
        for (size_t k = 0; k < n; ++k)
          sum += a[row * n + k] * b[k * n + col];
        if (c[row * n + col] != sum)
          return false;
      }
    return true;
  };
}

Workload naiveMatrixMultiply(size_t n) {
  Workload work{"naive_sgemm", R"(
__kernel void sgemm(__global const float *a, __global const float *b, __global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
})", "sgemm", "GFLOP/s", 2.0 * double(n) * double(n) * double(n) * 1e-9, {n, n}, {0, 0}, 2};
  matrixMultiplyData(work, n);
  return work;
}

/// With `requiredSize`, the kernel declares its 16 x 16 work-group (the FPGA vendors' style), so a
/// device can make its loops over a group's work-items constant.
Workload tiledMatrixMultiply(size_t n, bool requiredSize) {
  const std::string attribute = requiredSize ? "__attribute__((reqd_work_group_size(16, 16, 1)))\n" : "";
  Workload work{requiredSize ? "tiled_sgemm_reqd" : "tiled_sgemm", R"(
#define TILE 16
)" + attribute + R"(__kernel void sgemm(__global const float *a, __global const float *b, __global float *c, int n) {
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
})", "sgemm", "GFLOP/s", 2.0 * double(n) * double(n) * double(n) * 1e-9, {n, n}, {16, 16}, 2};
  matrixMultiplyData(work, n);
  return work;
}

Workload histogram(size_t n) {
  Workload work{"histogram", R"(
__kernel void histogram(__global const uint *in, __global uint *bins) {
  atomic_inc(&bins[in[get_global_id(0)] & 255]);
})", "histogram", "GB/s", double(n * sizeof(uint32_t)) * 1e-9, {n, 1}, {0, 0}, 1};
  std::vector<uint32_t> in(n);
  uint32_t state = 12345;
  for (uint32_t &value : in)
    value = state = state * 1664525u + 1013904223u; // LCG: every bin is hit, in no order.
  std::vector<uint32_t> expected(256, 0);
  for (uint32_t value : in)
    ++expected[value & 255];
  work.inputs = {bytesOf(in)};
  work.outputBytes = {256 * sizeof(uint32_t)};
  work.correct = [expected](const auto &out) { return valuesOf<uint32_t>(out[0]) == expected; };
  return work;
}

Workload stencil(size_t side) {
  Workload work{"stencil_2d", loom::test::StencilSource, "stencil", "GB/s",
                2.0 * double(side * side * sizeof(float)) * 1e-9, {side, side}, {0, 0}, 2};
  std::vector<float> in(side * side);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i % 29);
  work.inputs = {bytesOf(in)};
  work.outputBytes = {in.size() * sizeof(float)};
  work.scalars = {int(side)};
  work.correct = [in, side](const auto &out) {
    auto result = valuesOf<float>(out[0]);
    for (size_t y = 0; y < side; ++y)
      for (size_t x = 0; x < side; ++x)
        if (result[y * side + x] != loom::test::stencilAt(in.data(), side, side, x, y))
          return false;
    return true;
  };
  return work;
}

Workload mathHeavy(size_t n) {
  Workload work{"math_exp_sin", R"(
__kernel void waves(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = exp(-x) * sin(4.0f * x) + sqrt(x);
})", "waves", "Gelem/s", double(n) * 1e-9, {n, 1}, {0, 0}, 1};
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(i % 10000) * 1e-3f; // [0, 10)
  work.inputs = {bytesOf(in)};
  work.outputBytes = {n * sizeof(float)};
  work.correct = [in](const auto &out) {
    auto result = valuesOf<float>(out[0]);
    for (size_t i = 0; i < in.size(); ++i) {
      double x = in[i], expected = std::exp(-x) * std::sin(4.0 * x) + std::sqrt(x);
      // exp, sin and sqrt are within 4 ULP each (the spec's bounds): far below this.
      if (std::fabs(result[i] - expected) > 1e-5 * std::max(1.0, std::fabs(expected)))
        return false;
    }
    return true;
  };
  return work;
}

/// A math-heavy elementwise kernel `name` computing `expression` of x = in[i] over (0, 10], checked
/// against `reference` in double: the functions are within their ULP bounds, far below 1e-5.
Workload elementwiseMath(size_t n, const char *name, const std::string &expression, double (*reference)(double)) {
  Workload work{name,
                "__kernel void math(__global const float *in, __global float *out) {\n"
                "  size_t i = get_global_id(0);\n  float x = in[i];\n  out[i] = " + expression + ";\n}\n",
                "math", "Melem/s", double(n) * 1e-6, {n, 1}, {0, 0}, 1};
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(i % 10000 + 1) * 1e-3f; // (0, 10]
  work.inputs = {bytesOf(in)};
  work.outputBytes = {n * sizeof(float)};
  work.correct = [in, reference](const auto &out) {
    auto result = valuesOf<float>(out[0]);
    for (size_t i = 0; i < in.size(); ++i) {
      const double expected = reference(in[i]);
      if (std::fabs(result[i] - expected) > 1e-5 * std::max(1.0, std::fabs(expected)))
        return false;
    }
    return true;
  };
  return work;
}

Workload mathLogPowTanh(size_t n) {
  return elementwiseMath(n, "math_log2_pow_tanh", "log2(x) * pow(x, 0.75f) + tanh(x - 5.0f)", [](double x) {
    return std::log2(x) * std::pow(x, 0.75) + std::tanh(x - 5.0);
  });
}

Workload mathLogLog1pCbrt(size_t n) {
  return elementwiseMath(n, "math_log_log1p_cbrt", "log(x) + log1p(x) * cbrt(x - 5.0f)", [](double x) {
    return std::log(x) + std::log1p(x) * std::cbrt(x - 5.0);
  });
}

/// Launches per second of an empty one-work-item kernel, enqueue to completion on the host clock.
Rates emptyLaunches(cl_platform_id platform) {
  Session session(platform);
  cl_int err;
  cl_program program = session.build("__kernel void empty(void) {}");
  cl_kernel kernel = clCreateKernel(program, "empty", &err);
  check(err, "clCreateKernel");
  const size_t one = 1;
  std::vector<double> seconds;
  for (int run = 0; run < 201; ++run) {
    auto start = std::chrono::steady_clock::now();
    check(clEnqueueNDRangeKernel(session.queue, kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr), "enqueue");
    check(clFinish(session.queue), "clFinish");
    if (run > 0)
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return ratesOf(1.0, seconds);
}

/// Builds per second of `source`: a source no cache has seen (a kernel of a new name added: PoCL's
/// cache keys on the preprocessed source, so a comment would not do), or the same source again, each
/// in a new program object.
Rates builds(cl_platform_id platform, const std::string &source, bool cached) {
  Session session(platform);
  static unsigned unique = unsigned(std::chrono::steady_clock::now().time_since_epoch().count());
  clReleaseProgram(session.build(source)); // Warms the compiler, and the cache for `cached`.
  std::vector<double> seconds;
  for (int run = 0; run < 5; ++run) {
    std::string text = cached ? source : source + "\n__kernel void build" + std::to_string(unique++) + "(void) {}\n";
    auto start = std::chrono::steady_clock::now();
    cl_program program = session.build(text);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    clReleaseProgram(program);
  }
  return ratesOf(1.0, seconds);
}

double report(const char *name, Rates loom, Rates pocl, const char *unit) {
  double ratio = loom.median / pocl.median;
  std::printf("cpu %-16s Loom CPU %9.2f %s (best %9.2f), PoCL %9.2f %s (best %9.2f), Loom/PoCL %.2fx (medians)\n",
              name, loom.median, unit, loom.best, pocl.median, unit, pocl.best, ratio);
  std::fflush(stdout);
  return ratio;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s vector_add.cl [N]\n", argv[0]);
    return 2;
  }
  size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (16u << 20);
  n = std::max<size_t>(n / 256 * 256, 256);
  cl_platform_id loom = findPlatform("Loom"), pocl = findPlatform("Portable Computing Language");
  if (!loom || !pocl) {
    std::fprintf(stderr, "bench: need both the Loom and the PoCL platforms (found %s, %s)\n",
                 loom ? "Loom" : "-", pocl ? "PoCL" : "-");
    return 1;
  }
  std::vector<double> ratios;
  const std::string vectorAddSource = readFile(argv[1]);
  const std::vector<std::string> only(argv + std::min(argc, 3), argv + argc);
  const Workload workloads[] = {vectorAdd(vectorAddSource, n), naiveMatrixMultiply(512), tiledMatrixMultiply(512, false),
                          tiledMatrixMultiply(512, true), reduction(n), histogram(n), stencil(2048), mathHeavy(n / 4),
                          mathLogPowTanh(n / 4), mathLogLog1pCbrt(n / 4)};
  for (const Workload &work : workloads) {
    if (!only.empty() && std::find(only.begin(), only.end(), work.name) == only.end())
      continue;
    std::vector<double> loomSeconds, poclSeconds;
    for (int round = 0; round < 2; ++round) {
      for (auto [platform, seconds] : {std::pair{loom, &loomSeconds}, std::pair{pocl, &poclSeconds}}) {
        std::vector<double> more = launchSeconds(platform, work);
        seconds->insert(seconds->end(), more.begin(), more.end());
      }
    }
    ratios.push_back(report(work.name.c_str(), ratesOf(work.workPerLaunch, loomSeconds),
                            ratesOf(work.workPerLaunch, poclSeconds), work.unit.c_str()));
  }
  auto geometricMean = [](const std::vector<double> &values) {
    double logSum = 0;
    for (double value : values)
      logSum += std::log(value);
    return std::exp(logSum / double(values.size()));
  };
  const double computeMean = geometricMean(ratios);
  if (!only.empty())
    return 0;
  ratios.push_back(report("empty_launch", emptyLaunches(loom), emptyLaunches(pocl), "launch/s"));
  std::printf("cpu geometric mean Loom/PoCL: %.2fx over the %zu cases, %.2fx over the %zu kernels without the "
              "launch overhead (target: >= 1.5x, and >= 1.0x each)\n",
              geometricMean(ratios), ratios.size(), computeMean, ratios.size() - 1);
  // Build time has its own target (at or below PoCL's): the tiled sgemm's and the reduction's source in one
  // program.
  const std::string buildSource = workloads[2].source + workloads[4].source;
  report("build_cold", builds(loom, buildSource, false), builds(pocl, buildSource, false), "build/s");
  report("build_cached", builds(loom, buildSource, true), builds(pocl, buildSource, true), "build/s");
  return 0;
}
