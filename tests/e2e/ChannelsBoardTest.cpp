// SPDX-License-Identifier: Apache-2.0
// Intel's channels and Xilinx's program-scope pipes on both devices, through the ICD loader, and the
// forms of aoc's that Clang rejects:
// kernels/channels.cl on the board (loomc's binary) and on the CPU device (the same source), each
// checked against a host reference. The kernels name their FIFOs themselves: the runtime binds
// them, one pipe per FIFO and program, and the application sets only the kernels' own arguments.
#include "PipeSupport.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace e2e;

namespace {

const Sources ChannelPrograms{LOOM_E2E_CHANNELS_LOOM, LOOM_E2E_CHANNELS_CL, LOOM_E2E_CHANNELS_OPTIONS};

cl_uint argumentCount(cl_kernel kernel) {
  cl_uint count = 0;
  REQUIRE(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr) == CL_SUCCESS);
  return count;
}

/// The tasks `producer(src, n)` and `consumer(dst, n)` run together: what the consumer wrote to its
/// `outputs` elements.
template <typename Out, typename In>
std::vector<Out> runTaskPair(PipeRun &run, const char *producer, const char *consumer, const std::vector<In> &input,
                             size_t outputs, int n) {
  cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dst = buffer(run.cl, std::vector<Out>(outputs, Out(-1)), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  cl_kernel produce = run.kernel(producer), consume = run.kernel(consumer);
  setArgs(produce, src, n);
  setArgs(consume, dst, n);
  run.runTogether({{produce, 1}, {consume, 1}});
  std::vector<Out> output = readBack<Out>(run.cl, dst, outputs);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  return output;
}

} // namespace

TEST_CASE("a task pair moves every packet in order through a channel of depth 4, twice, on both devices",
          "[e2e][channels][board]") {
  const int n = 2000;
  std::vector<int> input(n), expected(n);
  std::iota(input.begin(), input.end(), -700);
  std::transform(input.begin(), input.end(), expected.begin(), [](int v) { return v * 3; });
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, ChannelPrograms);
      cl_kernel produce = run.kernel("produce_numbers"), consume = run.kernel("consume_numbers");
      // The channel is no argument of theirs: the application sees and sets two each.
      CHECK(argumentCount(produce) == 2);
      CHECK(argumentCount(consume) == 2);
      const int unused = 0;
      CHECK(clSetKernelArg(produce, 2, sizeof unused, &unused) == CL_INVALID_ARG_INDEX);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(n, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      setArgs(produce, src, n);
      setArgs(consume, dst, n);
      // The second run finds the channel as the first left it: empty.
      for (int round = 0; round < 2; ++round) {
        run.runTogether({{produce, 1}, {consume, 1}});
        CHECK(readBack<int>(run.cl, dst, n) == expected);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}

TEST_CASE("NDRange kernels move a float4 each through a channel of the default depth, on both devices",
          "[e2e][channels][board]") {
  const size_t items = 512;
  std::vector<float> input(items * 4), expected(items * 4);
  for (size_t i = 0; i < input.size(); ++i) {
    input[i] = float(i) * 0.5f - 100.0f;
    expected[i] = input[i] * 2.0f + float(i % 4 + 1);
  }
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, ChannelPrograms);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<float>(input.size(), -1.0f), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel produce = run.kernel("produce_vectors"), consume = run.kernel("consume_vectors");
      setArgs(produce, src);
      setArgs(consume, dst);
      run.runTogether({{produce, items}, {consume, items}});
      // Each work-item reads some packet: the set of vectors is the reference's.
      std::vector<float> got = readBack<float>(run.cl, dst, input.size());
      auto vectors = [](const std::vector<float> &flat) {
        std::vector<std::array<float, 4>> out(flat.size() / 4);
        for (size_t v = 0; v < out.size(); ++v)
          std::copy_n(flat.begin() + long(v * 4), 4, out[v].begin());
        std::sort(out.begin(), out.end());
        return out;
      };
      CHECK(vectors(got) == vectors(expected));
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}

TEST_CASE("a struct channel written from a helper function, and a channel array indexed by unrolled loops, "
          "on both devices",
          "[e2e][channels][board]") {
  const int n = 600;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, ChannelPrograms);
      SECTION("samples") {
        std::vector<float> input(n), expected(n);
        for (int i = 0; i < n; ++i) {
          input[size_t(i)] = float(i) * 1.25f;
          expected[size_t(i)] = input[size_t(i)] * 0.5f;
        }
        CHECK(runTaskPair<float>(run, "produce_samples", "consume_samples", input, n, n) == expected);
      }
      SECTION("lanes") {
        std::vector<int> input(size_t(n) * 4), expected(n);
        std::iota(input.begin(), input.end(), 3);
        for (int i = 0; i < n; ++i) {
          expected[size_t(i)] = 0;
          for (int l = 0; l < 4; ++l)
            expected[size_t(i)] += (input[size_t(i * 4 + l)] + l) * (l + 1);
        }
        CHECK(runTaskPair<int>(run, "scatter_lanes", "gather_lanes", input, n, n) == expected);
      }
    }
}

TEST_CASE("non-blocking channel reads and writes move every packet once, on both devices", "[e2e][channels][board]") {
  const int n = 1500;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), 40);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, ChannelPrograms);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(n, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_mem failures = buffer(run.cl, std::vector<int>{-1, -1}, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel produce = run.kernel("produce_trying"), consume = run.kernel("consume_trying");
      setArgs(produce, src, n, failures);
      setArgs(consume, dst, n, failures);
      run.runTogether({{produce, 1}, {consume, 1}});
      CHECK(readBack<int>(run.cl, dst, n) == input);
      const std::vector<int> failed = readBack<int>(run.cl, failures, 2);
      CHECK(failed[0] >= 0);
      CHECK(failed[1] >= 0);
      for (cl_mem object : {src, dst, failures})
        clReleaseMemObject(object);
    }
}

TEST_CASE("a Vitis dataflow of three kernels over program-scope pipes, on both devices and either kind of queue",
          "[e2e][channels][board]") {
  const int n = 1000;
  std::vector<int> input(n), expected(n);
  std::iota(input.begin(), input.end(), -500);
  std::transform(input.begin(), input.end(), expected.begin(), [](int v) { return v * v + 1; });
  const bool outOfOrder = GENERATE(false, true);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name << (outOfOrder ? ", one out-of-order queue" : ", three queues")) {
      PipeRun run(target, ChannelPrograms, outOfOrder);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(n, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel read = run.kernel("xilinx_read"), compute = run.kernel("xilinx_compute"),
                write = run.kernel("xilinx_write");
      CHECK(argumentCount(compute) == 1);
      setArgs(read, src, n);
      setArgs(compute, n);
      setArgs(write, dst, n);
      run.runTogether({{read, 1}, {compute, 1}, {write, 1}}, outOfOrder);
      CHECK(readBack<int>(run.cl, dst, n) == expected);
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}

TEST_CASE("aoc's __local array in a helper function and unroll hint on a labelled loop, on both devices",
          "[e2e][channels][board]") {
  const size_t group = 64, items = group * 6;
  std::vector<float> input(items), expected(items);
  for (size_t i = 0; i < items; ++i)
    input[i] = float(i % 37) * 0.25f - 3.0f;
  for (size_t g = 0; g < items; g += group) {
    float sum = 0.0f;
    for (size_t i = 0; i < group; ++i)
      sum += input[g + i];
    for (size_t i = 0; i < group; ++i)
      expected[g + i] = sum - input[g + i];
  }
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      Setup cl(target.device());
      cl_program program = programFor(cl, target, ChannelPrograms);
      cl_kernel sums = kernelNamed(program, "group_sums");
      cl_mem src = buffer(cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(cl, std::vector<float>(items, -1.0f), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      setArg(sums, 0, src);
      setArg(sums, 1, dst);
      clReleaseEvent(launch(cl, sums, Range{{items}, {group}}));
      CHECK(readBack<float>(cl, dst, items) == expected);
      for (cl_mem object : {src, dst})
        clReleaseMemObject(object);
      clReleaseKernel(sums);
      clReleaseProgram(program);
    }
}

TEST_CASE("a kernel waiting on a channel no one writes fails with a diagnosis naming it, on both devices",
          "[e2e][channels][board]") {
  const std::string source = readFile(LOOM_E2E_CHANNELS_CL);
  const size_t call = source.find("read_channel_intel", source.find("__kernel void starve_channel"));
  const auto line = std::count(source.begin(), source.begin() + long(call), '\n') + 1;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, ChannelPrograms);
      cl_mem dst = buffer(run.cl, std::vector<int>(1), CL_MEM_READ_WRITE);
      cl_kernel starve = run.kernel("starve_channel");
      setArgs(starve, dst);
      const size_t one = 1;
      cl_event event = nullptr;
      REQUIRE(clEnqueueNDRangeKernel(run.cl.queue, starve, 1, nullptr, &one, nullptr, 0, nullptr, &event) ==
              CL_SUCCESS);
      CHECK(clWaitForEvents(1, &event) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      cl_int status = CL_COMPLETE;
      REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
      CHECK(status < 0);
      const std::string diagnosis = run.cl.diagnosis();
      INFO(diagnosis);
      CHECK(diagnosis.find("deadlock") != std::string::npos);
      CHECK(diagnosis.find("starve_channel") != std::string::npos);
      CHECK(diagnosis.find("unfed") != std::string::npos);
      // The CPU device names the source program.cl.
      CHECK(diagnosis.find(".cl:" + std::to_string(line) + ":") != std::string::npos);
      clReleaseEvent(event);
      clReleaseMemObject(dst);
    }
}
