// SPDX-License-Identifier: Apache-2.0
// Programs of many kernels and helper functions, built from source with clBuildProgram on both
// devices through the ICD loader: kernels that call kernels as plain functions (OpenCL C allows it),
// and a generated program of 4,000 lines (hundreds of helpers calling one another, several kernels)
// whose every kernel matches the host's evaluation of the same helpers. The board builds its
// hardware from the whole program; its kernels reach a few helpers each, so the simulation model
// builds in seconds.
#include "DifferentialSupport.h"

#include <numeric>

using namespace e2e;

namespace {

/// Kernels calling kernels: square_plus calls square, square_plus_square calls both, each call
/// reading what the one before stored.
const char *KernelCalls = R"(
__kernel void square(__global int *data) {
  size_t i = get_global_id(0);
  data[i] = data[i] * data[i];
}
__kernel void square_plus(__global int *data, int addend) {
  square(data);
  data[get_global_id(0)] += addend;
}
__kernel void square_plus_square(__global int *data, int addend) {
  square_plus(data, addend);
  square(data);
}
)";

/// A kernel with __local memory and barriers, called by another that passes its own __local
/// argument: scaled_group_sum's work-groups are group_sum's.
const char *GroupKernelCalls = R"(
__kernel void group_sum(__global const int *in, __global int *sums, __local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
  }
  if (lid == 0)
    sums[get_group_id(0)] = scratch[0];
}
__kernel void scaled_group_sum(__global const int *in, __global int *sums, __local int *scratch, int factor) {
  group_sum(in, sums, scratch);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] *= factor;
}
)";

/// Runs `kernel` (its other arguments set) on one work-item per element of `data`, its argument 0,
/// which it reads and writes in place; returns what the kernel left there.
std::vector<int> runInPlace(Setup &cl, cl_kernel kernel, const std::vector<int> &data) {
  cl_mem mem = buffer(cl, data, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(kernel, 0, mem);
  clReleaseEvent(launch(cl, kernel, {{data.size()}}));
  std::vector<int> out = readBack<int>(cl, mem, data.size());
  clReleaseMemObject(mem);
  return out;
}

// --- The generated program ---------------------------------------------------------------------

/// How a generated helper mixes its input before it maybe calls the next helper of its chain.
enum class Mix { MultiplyShift, Rotate, Clamp };

/// One generated helper, `uint helper_<i>(uint x, uint salt)`: `mix` with `constant` and `shift`
/// makes t; then, if it has a callee, t is the callee's result for (t, salt + i) when t & 3 is
/// `branch`, else t + `addend`.
struct Helper {
  Mix mix;
  uint32_t constant, shift, branch, addend;
  long callee; ///< -1: none.
};

/// The shape of a generated program: `helpers` helpers in chains of `depth`, `kernels` of them
/// interleaved in each block of kernels * depth helpers (helper i calls helper i - kernels of its
/// block). Kernel k calls the last block's helper `helpers - 1 - k`, so it reaches `depth` helpers; the
/// other blocks are helpers no kernel reaches, as in a library.
struct Shape {
  size_t helpers, kernels, depth;
};

/// A generated program's source, and its helpers as the host evaluates them.
struct GeneratedProgram {
  std::string source;
  std::vector<Helper> helpers;
  size_t kernels = 0;

  /// What helper `i` returns for (x, salt), as the kernel computes it in 32-bit unsigned arithmetic.
  uint32_t evaluate(size_t i, uint32_t x, uint32_t salt) const {
    const Helper &h = helpers[i];
    uint32_t t = 0;
    switch (h.mix) {
    case Mix::MultiplyShift:
      t = x * h.constant + salt;
      t ^= t >> h.shift;
      break;
    case Mix::Rotate:
      t = x + salt;
      for (uint32_t k = 0; k < 3; ++k)
        t = ((t << h.shift) | (t >> (32 - h.shift))) + k * h.constant;
      break;
    case Mix::Clamp:
      t = std::min(x ^ salt, h.constant) + ((x ^ salt) >> h.shift);
      break;
    }
    if (h.callee < 0)
      return t;
    return (t & 3u) == h.branch ? evaluate(size_t(h.callee), t, salt + uint32_t(i)) : t + h.addend;
  }
  /// Kernel k's output for input x at work-item `item` with argument `salt`.
  uint32_t kernelResult(size_t k, uint32_t x, uint32_t item, uint32_t salt) const {
    return evaluate(helpers.size() - 1 - k, x, salt ^ item);
  }
};

/// The same program for a shape, every run: prototypes first, then the helpers last to first (each
/// calls one defined after it), then the kernels.
GeneratedProgram generate(const Shape &shape) {
  REQUIRE(shape.helpers % (shape.kernels * shape.depth) == 0);
  const size_t block = shape.kernels * shape.depth;
  GeneratedProgram program;
  program.kernels = shape.kernels;
  std::mt19937 random(2024);
  for (size_t i = 0; i < shape.helpers; ++i) {
    const bool calls = i % block >= shape.kernels;
    program.helpers.push_back({Mix(i % 3), uint32_t(random()) | 1u, 1 + uint32_t(random() % 31), uint32_t(random() % 4),
                               uint32_t(random() % 1000000), calls ? long(i - shape.kernels) : -1});
  }
  std::string &s = program.source;
  s += "// Generated: " + std::to_string(shape.helpers) + " helpers, " + std::to_string(shape.kernels) + " kernels.\n";
  for (size_t i = 0; i < shape.helpers; ++i)
    s += "uint helper_" + std::to_string(i) + "(uint x, uint salt);\n";
  for (size_t i = shape.helpers; i-- > 0;) {
    const Helper &h = program.helpers[i];
    const std::string constant = std::to_string(h.constant) + "u", shift = std::to_string(h.shift) + "u";
    s += "\n// Helper " + std::to_string(i) + ".\nuint helper_" + std::to_string(i) + "(uint x, uint salt) {\n";
    switch (h.mix) {
    case Mix::MultiplyShift:
      s += "  uint t = x * " + constant + " + salt;\n  t ^= t >> " + shift + ";\n";
      break;
    case Mix::Rotate:
      s += "  uint t = x + salt;\n  for (uint k = 0; k < 3u; ++k)\n    t = rotate(t, " + shift + ") + k * " +
           constant + ";\n";
      break;
    case Mix::Clamp:
      s += "  uint t = min(x ^ salt, " + constant + ") + ((x ^ salt) >> " + shift + ");\n";
      break;
    }
    if (h.callee >= 0)
      s += "  if ((t & 3u) == " + std::to_string(h.branch) + "u)\n    t = helper_" + std::to_string(h.callee) +
           "(t, salt + " + std::to_string(i) + "u);\n  else\n    t += " + std::to_string(h.addend) + "u;\n";
    s += "  return t;\n}\n";
  }
  for (size_t k = 0; k < shape.kernels; ++k)
    s += "\n__kernel void kernel_" + std::to_string(k) +
         "(__global const uint *in, __global uint *out, uint salt) {\n  size_t i = get_global_id(0);\n"
         "  out[i] = helper_" + std::to_string(shape.helpers - 1 - k) + "(in[i], salt ^ (uint)i);\n}\n";
  return program;
}

size_t lineCount(const std::string &text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

/// Builds `program` on `device` with clBuildProgram and runs each kernel on `items` work-items;
/// checks the kernels the program lists and every output against the host.
void checkGeneratedProgram(cl_device_id device, const GeneratedProgram &program, size_t items) {
  Setup cl(device);
  cl_program built = cl.build(program.source);
  size_t kernels = 0;
  REQUIRE(clGetProgramInfo(built, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) == CL_SUCCESS);
  CHECK(kernels == program.kernels);
  std::vector<uint32_t> in(items), unwritten(items, 0xffffffffu);
  std::mt19937 random(7);
  std::generate(in.begin(), in.end(), [&] { return uint32_t(random()); });
  cl_mem din = buffer(cl, in, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  for (size_t k = 0; k < program.kernels; ++k) {
    INFO("kernel_" << k);
    cl_kernel kernel = kernelNamed(built, ("kernel_" + std::to_string(k)).c_str());
    cl_mem dout = buffer(cl, unwritten, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
    const uint32_t salt = 0x9e3779b9u + uint32_t(k);
    setArg(kernel, 0, din);
    setArg(kernel, 1, dout);
    setArg(kernel, 2, salt);
    clReleaseEvent(launch(cl, kernel, {{items}}));
    std::vector<uint32_t> want(items);
    for (size_t i = 0; i < items; ++i)
      want[i] = program.kernelResult(k, in[i], uint32_t(i), salt);
    CHECK(firstMismatch(readBack<uint32_t>(cl, dout, items), want) == -1);
    clReleaseMemObject(dout);
    clReleaseKernel(kernel);
  }
  clReleaseMemObject(din);
  clReleaseProgram(built);
}

} // namespace

TEST_CASE("kernels call kernels as functions", "[e2e][board][functions]") {
  std::vector<int> data(1000); // Small enough that (x * x + 7) squared fits an int.
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = int(i % 301) - 150;
  const int addend = 7;
  auto expected = [&](auto f) {
    std::vector<int> want(data.size());
    std::transform(data.begin(), data.end(), want.begin(), f);
    return want;
  };
  auto squarePlus = [&](int x) { return x * x + addend; };
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Setup cl(target.device());
    cl_program program = cl.build(KernelCalls);
    // A called kernel is still a kernel of its own, with its own arguments.
    CHECK(programString(program, CL_PROGRAM_KERNEL_NAMES) == "square;square_plus;square_plus_square");
    cl_kernel square = kernelNamed(program, "square"), once = kernelNamed(program, "square_plus"),
              twice = kernelNamed(program, "square_plus_square");
    CHECK(clSetKernelArg(square, 1, sizeof addend, &addend) == CL_INVALID_ARG_INDEX);
    setArg(once, 1, addend);
    setArg(twice, 1, addend);
    CHECK(firstMismatch(runInPlace(cl, square, data), expected([](int x) { return x * x; })) == -1);
    CHECK(firstMismatch(runInPlace(cl, once, data), expected(squarePlus)) == -1);
    CHECK(firstMismatch(runInPlace(cl, twice, data), expected([&](int x) { return squarePlus(x) * squarePlus(x); })) ==
          -1);
    for (cl_kernel kernel : {square, once, twice})
      clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
}

TEST_CASE("a kernel calls a kernel with __local memory and barriers", "[e2e][board][functions]") {
  const size_t items = 1024, local = 64, groups = items / local;
  const std::vector<int> in = randomInts(items, -100000, 100000, 3);
  const int factor = -3;
  std::vector<int> want(groups);
  for (size_t g = 0; g < groups; ++g)
    want[g] = factor * std::accumulate(in.begin() + long(g * local), in.begin() + long((g + 1) * local), 0);
  for (const Target &target : Targets) DYNAMIC_SECTION("device: " << target.name) {
    Setup cl(target.device());
    cl_program program = cl.build(GroupKernelCalls);
    cl_kernel kernel = kernelNamed(program, "scaled_group_sum");
    cl_mem din = buffer(cl, in, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    cl_mem dsums = buffer(cl, want, CL_MEM_WRITE_ONLY);
    setArg(kernel, 0, din);
    setArg(kernel, 1, dsums);
    REQUIRE(clSetKernelArg(kernel, 2, local * sizeof(int), nullptr) == CL_SUCCESS);
    setArg(kernel, 3, factor);
    clReleaseEvent(launch(cl, kernel, {{items}, {local}}));
    CHECK(firstMismatch(readBack<int>(cl, dsums, groups), want) == -1);
    for (cl_mem mem : {din, dsums})
      clReleaseMemObject(mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
}

TEST_CASE("a generated program of 4,000 lines builds and runs on the CPU device", "[e2e][functions]") {
  // 400 helpers in 8 chains of 50: every helper is some kernel's.
  const GeneratedProgram program = generate({400, 8, 50});
  CHECK(lineCount(program.source) >= 4000);
  checkGeneratedProgram(cpuDevice(), program, 4096);
}

TEST_CASE("a generated program of 4,000 lines builds from source and runs on the board", "[e2e][board][functions]") {
  // 400 helpers again, in chains of 4: 4 kernels reach 16 of them, little enough hardware to build in
  // seconds; the other 384 are compiled and left out.
  const GeneratedProgram program = generate({400, 4, 4});
  CHECK(lineCount(program.source) >= 4000);
  checkGeneratedProgram(boardDevice(), program, 256);
}
