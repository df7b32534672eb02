// SPDX-License-Identifier: Apache-2.0
// Intel's autorun kernels on both devices, through the ICD loader: kernels/autorun.cl on the board
// (loomc's binary) and on the CPU device (the same source). They start when the program is built,
// serve every launch of the host's kernels for as long as the program lives (keeping their state),
// and are no kernels of the host's: it can neither create nor enqueue them.
#include "PipeSupport.h"

#include <algorithm>
#include <numeric>

using namespace e2e;

namespace {

const Sources AutorunPrograms{LOOM_E2E_AUTORUN_LOOM, LOOM_E2E_AUTORUN_CL, LOOM_E2E_AUTORUN_OPTIONS};

std::string programInfo(cl_program program, cl_program_info name) {
  size_t size = 0;
  REQUIRE(clGetProgramInfo(program, name, 0, nullptr, &size) == CL_SUCCESS);
  std::string value(size, '\0');
  REQUIRE(clGetProgramInfo(program, name, size, value.data(), nullptr) == CL_SUCCESS);
  return value.c_str();
}

/// `input` on the device, and `outputs` ints all -1 for the results.
std::pair<cl_mem, cl_mem> inputAndOutput(PipeRun &run, const std::vector<int> &input, size_t outputs) {
  return {buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR),
          buffer(run.cl, std::vector<int>(outputs, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR)};
}

} // namespace

TEST_CASE("four autorun compute units each serve the channels their compute id names, for every launch, on both "
          "devices",
          "[e2e][autorun][board]") {
  const int n = 400;
  const std::vector<int> input = randomInts(n, -100000, 100000, 7);
  std::vector<int> expected(n);
  for (int i = 0; i < n; ++i)
    expected[i] = input[i] * 10 + i % 4;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, AutorunPrograms);
      // The host sees its own kernels only.
      CHECK(programInfo(run.program, CL_PROGRAM_KERNEL_NAMES) == "deal;collect;add_up;squares");
      size_t count = 0;
      REQUIRE(clGetProgramInfo(run.program, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr) == CL_SUCCESS);
      CHECK(count == 4);
      cl_int err = CL_SUCCESS;
      CHECK(clCreateKernel(run.program, "worker_cu0", &err) == nullptr);
      CHECK(err == CL_INVALID_KERNEL_NAME);
      cl_uint created = 0;
      REQUIRE(clCreateKernelsInProgram(run.program, 0, nullptr, &created) == CL_SUCCESS);
      CHECK(created == 4);

      auto [src, dst] = inputAndOutput(run, input, n);
      cl_kernel deal = run.kernel("deal"), collect = run.kernel("collect");
      setArgs(deal, src, n);
      setArgs(collect, dst, n);
      // The workers run between the two launches, and on after them for the next pair.
      for (int round = 0; round < 2; ++round) {
        run.runTogether({{deal, 1}, {collect, 1}});
        CHECK(readBack<int>(run.cl, dst, n) == expected);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}

TEST_CASE("an autorun kernel that never finishes keeps its state from one host launch to the next, on both devices",
          "[e2e][autorun][board]") {
  const int n = 300;
  const std::vector<int> input = randomInts(2 * n, -1000, 1000, 11);
  std::vector<int> totals(2 * n);
  std::partial_sum(input.begin(), input.end(), totals.begin());
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, AutorunPrograms);
      cl_kernel addUp = run.kernel("add_up");
      for (int half = 0; half < 2; ++half) {
        const std::vector<int> part(input.begin() + half * n, input.begin() + (half + 1) * n);
        auto [src, dst] = inputAndOutput(run, part, n);
        setArgs(addUp, src, dst, n);
        clReleaseEvent(launch(run.cl, addUp, Range{{1}}));
        CHECK(readBack<int>(run.cl, dst, n) == std::vector<int>(totals.begin() + half * n, totals.begin() + (half + 1) * n));
        clReleaseMemObject(src);
        clReleaseMemObject(dst);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
    }
}

TEST_CASE("a host kernel waiting on autorun kernels that wait on it fails with a diagnosis naming all of them, "
          "and the autorun kernels serve the next launch, on both devices",
          "[e2e][autorun][board]") {
  const int n = 8;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), 1);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, AutorunPrograms);
      auto [src, dst] = inputAndOutput(run, input, n);
      cl_kernel collect = run.kernel("collect");
      setArgs(collect, dst, n);
      // Nothing deals: the workers wait for numbers, the collector for their answers.
      const size_t one = 1;
      cl_event event = nullptr;
      cl_int err = CL_SUCCESS;
      REQUIRE(clEnqueueNDRangeKernel(run.cl.queue, collect, 1, nullptr, &one, nullptr, 0, nullptr, &event) ==
              CL_SUCCESS);
      CHECK(clWaitForEvents(1, &event) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      clReleaseEvent(event);
      const std::string diagnosis = run.cl.diagnosis();
      INFO(diagnosis);
      CHECK(diagnosis.find("deadlock") != std::string::npos);
      CHECK(diagnosis.find("'collect'") != std::string::npos);
      CHECK(diagnosis.find("'worker_cu0'") != std::string::npos);
      CHECK(diagnosis.find("to_workers[3]") != std::string::npos);
      // The workers still wait; dealing and collecting together works (on a new queue: the
      // in-order queue fails what follows its failed command).
      run.cl.notes.clear();
      REQUIRE(clReleaseCommandQueue(run.cl.queue) == CL_SUCCESS);
      run.cl.queue = clCreateCommandQueue(run.cl.context, run.cl.device, 0, &err);
      REQUIRE(err == CL_SUCCESS);
      cl_kernel deal = run.kernel("deal");
      setArgs(deal, src, n);
      run.runTogether({{deal, 1}, {collect, 1}});
      std::vector<int> expected(n);
      for (int i = 0; i < n; ++i)
        expected[i] = input[i] * 10 + i % 4;
      CHECK(readBack<int>(run.cl, dst, n) == expected);
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}

TEST_CASE("an autorun kernel with reqd_work_group_size runs one work-group each time, on both devices",
          "[e2e][autorun][board]") {
  const int n = 64;
  const std::vector<int> input = randomInts(n, -3000, 3000, 5);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, AutorunPrograms);
      auto [src, dst] = inputAndOutput(run, input, n);
      cl_kernel squares = run.kernel("squares");
      setArgs(squares, src, dst, n);
      clReleaseEvent(launch(run.cl, squares, Range{{1}}));
      // The group's work-items take the four packets of a round in any order among them.
      std::vector<int> got = readBack<int>(run.cl, dst, n);
      for (int i = 0; i < n; i += 4) {
        std::vector<int> expected(input.begin() + i, input.begin() + i + 4), round(got.begin() + i, got.begin() + i + 4);
        for (int &v : expected)
          v *= v;
        std::sort(expected.begin(), expected.end());
        std::sort(round.begin(), round.end());
        CHECK(round == expected);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}
