// SPDX-License-Identifier: Apache-2.0
// Benchmark: the precision of the single-argument float math builtins on the Loom CPU device, as the
// device computes them (a kernel applying one function to an array, so loops the vectoriser handles,
// libmvec's vector versions included): every float input (or every `step`-th bit pattern), against
// a double-precision reference, with the largest error in ULPs, the input where it occurs, and the
// bound of the OpenCL C specification (3.0, section 7.4, table "ULP values for single precision
// built-in math functions"): the references and bounds of tests/FloatMath.h, which the board's
// library is measured against too. Exhaustive takes some 30 s per function here.
// usage: bench_math_ulp [step] [function...]   (OCL_ICD_VENDORS must list Loom)
#include "BenchSupport.h"
#include "FloatMath.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>

using namespace bench;
using loom::test::floatmath::Unary;
using loom::test::floatmath::UnaryFunctions;

namespace {

struct Worst {
  double ulps = 0;
  float input = 0;
};

/// The worst error of `results` (the device's, for the inputs with bit patterns first, first + step,
/// ...) over the two host threads.
Worst compare(const Unary &function, const std::vector<float> &inputs, const std::vector<float> &results) {
  Worst halves[2];
  auto scan = [&](size_t begin, size_t end, Worst &worst) {
    for (size_t i = begin; i < end; ++i) {
      double error = loom::test::ulpError(results[i], function.reference(double(inputs[i])));
      if (error > worst.ulps || std::isnan(error)) {
        worst.ulps = std::isnan(error) ? INFINITY : error;
        worst.input = inputs[i];
      }
    }
  };
  std::thread other(scan, inputs.size() / 2, inputs.size(), std::ref(halves[1]));
  scan(0, inputs.size() / 2, halves[0]);
  other.join();
  return halves[1].ulps > halves[0].ulps ? halves[1] : halves[0];
}

} // namespace

int main(int argc, char **argv) {
  const uint64_t step = argc > 1 ? std::max<uint64_t>(1, std::strtoull(argv[1], nullptr, 10)) : 1;
  std::vector<std::string> only(argv + std::min(argc, 2), argv + argc);
  cl_platform_id platform = findPlatform("Loom");
  if (!platform) {
    std::fprintf(stderr, "bench: no Loom platform (OCL_ICD_VENDORS)\n");
    return 1;
  }
  Session session(platform);
  cl_int err;
  const uint64_t total = (uint64_t(1) << 32) / step, chunk = std::min<uint64_t>(total, uint64_t(1) << 24);
  std::vector<float> inputs(chunk), results(chunk);
  cl_mem in = clCreateBuffer(session.context, CL_MEM_READ_ONLY, chunk * sizeof(float), nullptr, &err);
  check(err, "clCreateBuffer");
  cl_mem out = clCreateBuffer(session.context, CL_MEM_WRITE_ONLY, chunk * sizeof(float), nullptr, &err);
  check(err, "clCreateBuffer");
  std::printf("math precision on the Loom CPU device: %llu inputs per function (%s), against double\n",
              (unsigned long long)total, step == 1 ? "every float" : "every step-th bit pattern");
  unsigned failed = 0;
  for (const Unary &function : UnaryFunctions) {
    if (!only.empty() && std::find(only.begin(), only.end(), function.name) == only.end())
      continue;
    const std::string source = std::string("__kernel void apply(__global const float *x, __global float *y) {\n"
                                           "  size_t i = get_global_id(0);\n  y[i] = ") +
                               function.name + "(x[i]);\n}\n";
    cl_program program = session.build(source);
    cl_kernel kernel = clCreateKernel(program, "apply", &err);
    check(err, "clCreateKernel");
    check(clSetKernelArg(kernel, 0, sizeof in, &in), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof out, &out), "clSetKernelArg");
    Worst worst;
    for (uint64_t first = 0; first < total; first += chunk) {
      const size_t count = size_t(std::min(chunk, total - first));
      for (size_t i = 0; i < count; ++i) {
        const uint32_t bits = uint32_t((first + i) * step);
        std::memcpy(&inputs[i], &bits, sizeof bits);
      }
      check(clEnqueueWriteBuffer(session.queue, in, CL_FALSE, 0, count * sizeof(float), inputs.data(), 0, nullptr, nullptr),
            "write");
      check(clEnqueueNDRangeKernel(session.queue, kernel, 1, nullptr, &count, nullptr, 0, nullptr, nullptr), "enqueue");
      check(clEnqueueReadBuffer(session.queue, out, CL_TRUE, 0, count * sizeof(float), results.data(), 0, nullptr, nullptr),
            "read");
      inputs.resize(count);
      results.resize(count);
      Worst part = compare(function, inputs, results);
      if (part.ulps > worst.ulps)
        worst = part;
      inputs.resize(chunk);
      results.resize(chunk);
    }
    const bool within = worst.ulps <= function.bound;
    failed += !within;
    std::printf("ulp %-7s max %8.3f ULP at %-16a bound %4g  %s\n", function.name, worst.ulps, double(worst.input),
                function.bound, within ? "ok" : "OVER");
    std::fflush(stdout);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  std::printf("ulp functions over their bound: %u\n", failed);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  return 0;
}
