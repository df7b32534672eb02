//===- EnqueueKernel.cpp - clEnqueueNDRangeKernel and clEnqueueTask --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Checks the launch against the spec (a kernel built as OpenCL C 2.0 or later may have a last, partial
// work-group; a 1.x one needs a local size that divides the global size), picks a local size when
// none is given, snapshots the arguments and queues
// a Device::launch. A __local argument larger than the device can give fails the call with
// CL_OUT_OF_RESOURCES; a launch error completes the event with it. Either diagnosis goes to the
// context's callback and, with LOOM_DEBUG, to stderr.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include "loom/lowering/Printf.h"

#include "llvm/Support/Error.h"

#include <cstdio>

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

/// The largest divisor of `global` not above `limit`.
uint64_t largestDivisor(uint64_t global, uint64_t limit) {
  for (uint64_t d = std::min(global, limit); d > 1; --d)
    if (global % d == 0)
      return d;
  return 1;
}

} // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t *global_work_offset,
                                          const size_t *global_work_size,
                                          const size_t *local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  Kernel *object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  Program &program = *object->program;
  LOOM_CHECK(program.context.get() == queue->context.get(), CL_INVALID_CONTEXT,
             "the kernel and the command queue belong to different contexts");
  int kernelIndex = program.kernelIndex(queue->device, object->info.name);
  LOOM_CHECK(kernelIndex >= 0, CL_INVALID_PROGRAM_EXECUTABLE,
             "the program is not built for the queue's device '" + queue->device.info().name + "'");
  LOOM_CHECK(object->allArgsSet(), CL_INVALID_KERNEL_ARGS,
             "not every argument of kernel '" + object->info.name + "' was set with clSetKernelArg");
  const std::string conflict = object->argumentConflict();
  LOOM_CHECK(conflict.empty(), CL_INVALID_KERNEL_ARGS, conflict);
  LOOM_CHECK(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION, "work_dim must be 1, 2 or 3");
  LOOM_CHECK(global_work_size, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");

  const DeviceInfo &info = queue->device.info();
  const auto &reqd = object->info.reqdWorkGroupSize;
  const uint64_t maxGroup = object->maxWorkGroupSize(queue->device);
  const bool hasReqd = reqd[0] || reqd[1] || reqd[2];
  const bool uniform = object->info.uniformWorkGroups;
  // A dimension the launch leaves out has one work-item a group: the kernel's required size there
  // must be 1 too (both devices build the kernel for exactly that size).
  for (cl_uint d = work_dim; d < 3 && hasReqd; ++d)
    LOOM_CHECK(reqd[d] == 1, CL_INVALID_WORK_GROUP_SIZE,
               "kernel '" + object->info.name + "' has reqd_work_group_size(" + std::to_string(reqd[0]) + ", " +
                   std::to_string(reqd[1]) + ", " + std::to_string(reqd[2]) + ") but the launch has " +
                   std::to_string(work_dim) + " dimension(s), whose groups have 1 work-item in dimension " +
                   std::to_string(d));
  NDRange range;
  range.dims = work_dim;
  for (cl_uint d = 0; d < work_dim; ++d) {
    LOOM_CHECK(global_work_size[d] > 0, CL_INVALID_GLOBAL_WORK_SIZE,
               "global_work_size[" + std::to_string(d) + "] is 0");
    LOOM_CHECK(d < object->info.maxGlobalWorkDim || global_work_size[d] == 1, CL_INVALID_GLOBAL_WORK_SIZE,
               object->info.maxGlobalWorkDim == 0
                   ? "kernel '" + object->info.name + "' is a single work-item kernel (max_global_work_dim(0)): "
                                                      "launch it with clEnqueueTask or a global size of 1"
                   : "kernel '" + object->info.name + "' has max_global_work_dim(" +
                         std::to_string(object->info.maxGlobalWorkDim) + "): global_work_size[" +
                         std::to_string(d) + "] must be 1");
    range.global[d] = global_work_size[d];
    range.offset[d] = global_work_offset ? global_work_offset[d] : 0;
    LOOM_CHECK(range.offset[d] <= SIZE_MAX - range.global[d], CL_INVALID_GLOBAL_OFFSET,
               "global_work_offset + global_work_size overflows size_t");
  }
  if (local_work_size) {
    uint64_t total = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      LOOM_CHECK(local_work_size[d] > 0, CL_INVALID_WORK_GROUP_SIZE,
                 "local_work_size[" + std::to_string(d) + "] is 0");
      LOOM_CHECK(local_work_size[d] <= info.maxWorkItemSizes[d], CL_INVALID_WORK_ITEM_SIZE,
                 "local_work_size[" + std::to_string(d) + "] exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
      LOOM_CHECK(!hasReqd || local_work_size[d] == reqd[d], CL_INVALID_WORK_GROUP_SIZE,
                 "local_work_size does not match the kernel's reqd_work_group_size");
      LOOM_CHECK(!uniform || range.global[d] % local_work_size[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
                 "local_work_size[" + std::to_string(d) + "] does not divide global_work_size, and kernel '" +
                     object->info.name +
                     "' needs uniform work-groups (built as OpenCL C 1.x or with -cl-uniform-work-group-size)");
      range.local[d] = local_work_size[d];
      total *= local_work_size[d];
    }
    LOOM_CHECK(total <= maxGroup, CL_INVALID_WORK_GROUP_SIZE,
               "the work-group has " + std::to_string(total) + " work-items, more than " +
                   std::to_string(maxGroup) +
                   (maxGroup < info.maxWorkGroupSize ? " (the kernel's max_work_group_size)" : ""));
  } else if (hasReqd) {
    for (cl_uint d = 0; d < work_dim; ++d) {
      LOOM_CHECK(!uniform || range.global[d] % reqd[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
                 "the kernel's reqd_work_group_size does not divide global_work_size");
      range.local[d] = reqd[d];
    }
  } else {
    // Largest divisors, dimension 0 first, within the device's limits: few, large work-groups. A
    // kernel that allows a partial last group gets the limit instead when no divisor comes near it
    // (a prime global size would otherwise run groups of one work-item).
    uint64_t budget = maxGroup;
    for (cl_uint d = 0; d < work_dim; ++d) {
      const uint64_t limit = std::min<uint64_t>({budget, info.maxWorkItemSizes[d], range.global[d]});
      const uint64_t divisor = largestDivisor(range.global[d], limit);
      range.local[d] = !uniform && divisor < limit / 2 ? limit : divisor;
      budget /= range.local[d];
    }
  }

  std::vector<Ref<Event>> waitList;
  if (cl_int error = collectWaitList(entryPoint, queue->context.get(), num_events_in_wait_list,
                                     event_wait_list, waitList))
    return error;

  DeviceProgram *deviceProgram = program.find(&queue->device)->program.get();
  Ref<Kernel> keep(object); // Keeps the program, hence deviceProgram, alive.
  auto snapshot = std::make_shared<Kernel::Snapshot>(object->snapshot());
  // Too much __local memory fails the call, as the spec names it, rather than the command: a failed
  // command would fail every command queued after it.
  for (size_t i = 0; i < snapshot->args.size(); ++i) {
    if (snapshot->args[i].kind != ArgValue::Kind::Local)
      continue;
    if (llvm::Error err =
            deviceProgram->checkLocalArgument(unsigned(kernelIndex), unsigned(i), snapshot->args[i].localBytes)) {
      queue->context->report(std::string(entryPoint) + ": " + llvm::toString(std::move(err)));
      return CL_OUT_OF_RESOURCES;
    }
  }
  PlatformDevice *device = &queue->device;
  return submit(
      entryPoint, *queue, CL_COMMAND_NDRANGE_KERNEL, std::move(waitList),
      [keep, snapshot, deviceProgram, device, kernelIndex, range] {
        CommandOutcome outcome;
        auto launched = device->device.launch(*deviceProgram, unsigned(kernelIndex), snapshot->args, range);
        if (!launched) {
          outcome.status = CL_OUT_OF_RESOURCES;
          outcome.diagnosis = "kernel '" + keep->info.name + "' failed on " + device->info().name + ": " +
                              llvm::toString(launched.takeError());
          return outcome;
        }
        // printf's output reaches stdout when the command completes, before its event says so.
        std::fwrite(launched->printed.data(), 1, launched->printed.size(), stdout);
        std::fflush(stdout);
        if (launched->printfBufferFull)
          std::fprintf(stderr, "loom: kernel '%s': the printf buffer (%u bytes) was full: some printf calls "
                               "printed nothing and returned -1\n",
                       keep->info.name.c_str(), loom::lowering::PrintfBufferBytes);
        outcome.deviceNs = launched->deviceNs;
        outcome.hasDeviceTime = true;
        return outcome;
      },
      event, false);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
  const size_t one = 1;
  return clEnqueueNDRangeKernel(command_queue, kernel, 1, nullptr, &one, &one,
                                num_events_in_wait_list, event_wait_list, event);
}
