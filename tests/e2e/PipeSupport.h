// SPDX-License-Identifier: Apache-2.0
// Kernels that talk through pipes, run at the same time on one device (PipesBoardTest.cpp,
// ChannelsBoardTest.cpp).
#pragma once

#include "DifferentialSupport.h"

namespace e2e {

/// Sets all of `kernel`'s arguments, in order.
template <typename... Args> void setArgs(cl_kernel kernel, const Args &...values) {
  cl_uint index = 0;
  (setArg(kernel, index++, values), ...);
}

/// A program on one device, with a queue per kernel that must run beside the
/// others (or the one out-of-order queue).
struct PipeRun {
  Setup cl;
  cl_program program;
  std::vector<cl_command_queue> queues;
  std::vector<cl_kernel> kernels;

  PipeRun(const Target &target, const Sources &sources, bool outOfOrder = false)
      : cl(target.device(), outOfOrder ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0),
        program(programFor(cl, target, sources)) {}
  ~PipeRun() {
    for (cl_kernel kernel : kernels)
      clReleaseKernel(kernel);
    for (cl_command_queue queue : queues)
      if (queue != cl.queue)
        clReleaseCommandQueue(queue);
    clReleaseProgram(program);
  }
  cl_kernel kernel(const char *name) {
    kernels.push_back(kernelNamed(program, name));
    return kernels.back();
  }
  /// A queue of its own for the kernel enqueued `k`-th; the one out-of-order queue for all.
  cl_command_queue queueFor(size_t k, bool outOfOrder) {
    if (outOfOrder || k == 0)
      return cl.queue;
    cl_int err = CL_SUCCESS;
    queues.push_back(clCreateCommandQueue(cl.context, cl.device, 0, &err));
    REQUIRE(err == CL_SUCCESS);
    return queues.back();
  }
  /// Enqueues each kernel over its work-items, the consumers first, each on a queue of its own (or
  /// all on the out-of-order one), and waits for all of them: they finish only by running together.
  void runTogether(const std::vector<std::pair<cl_kernel, size_t>> &launches, bool outOfOrder = false) {
    std::vector<cl_command_queue> used;
    for (size_t k = launches.size(); k-- > 0;) {
      cl_command_queue queue = queueFor(launches.size() - 1 - k, outOfOrder);
      REQUIRE(clEnqueueNDRangeKernel(queue, launches[k].first, 1, nullptr, &launches[k].second, nullptr, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
      REQUIRE(clFlush(queue) == CL_SUCCESS);
      used.push_back(queue);
    }
    for (cl_command_queue queue : used)
      REQUIRE(clFinish(queue) == CL_SUCCESS);
  }
};

} // namespace e2e
