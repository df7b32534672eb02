//===- Queue.cpp - Command queues, clFlush/clFinish, markers and barriers ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Queues are in order, or out of order (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE: each command runs
// once its wait list is done, core/Queue.h); CL_QUEUE_PROFILING_ENABLE is supported. In an in-order
// queue a marker or barrier waits for everything before it simply by being executed in order.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <system_error>

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

cl_command_queue createQueue(const char *entryPoint, cl_context context, cl_device_id device,
                             cl_command_queue_properties properties, std::vector<intptr_t> raw,
                             cl_int *errcode_ret) {
  cl_command_queue result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    PlatformDevice *target = lookup<PlatformDevice>(device);
    LOOM_CHECK(target && owner->hasDevice(target), CL_INVALID_DEVICE,
               "device is not valid or not in the context");
    constexpr cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                  CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                                  CL_QUEUE_ON_DEVICE_DEFAULT;
    LOOM_CHECK(!(properties & ~known), CL_INVALID_VALUE, "unknown command-queue property bits");
    LOOM_CHECK(!(properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)),
               CL_INVALID_QUEUE_PROPERTIES, "device-side queues are not supported");
    Queue *queue = nullptr;
    try {
      queue = Object::create<Queue>(*owner, *target, properties, (properties & CL_QUEUE_PROFILING_ENABLE) != 0,
                                    (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0,
                                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } catch (const std::system_error &) {
      // No exception crosses the C API: the process has no thread left for an in-order queue's worker.
    }
    LOOM_CHECK(queue, CL_OUT_OF_RESOURCES, "cannot start the queue's worker thread: the process has no thread left");
    queue->rawProperties = std::move(raw);
    result = handleOf(queue);
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

} // namespace

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int *errcode_ret) {
  LOOM_ENTRY();
  return createQueue(entryPoint, context, device, properties, {}, errcode_ret);
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context,
                                                                cl_device_id device,
                                                                const cl_queue_properties *properties,
                                                                cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_command_queue_properties bits = 0;
  std::vector<intptr_t> raw;
  if (properties) {
    const cl_queue_properties *p = properties;
    for (; *p; p += 2) {
      if (p[0] == CL_QUEUE_PROPERTIES) {
        bits = p[1];
      } else {
        // CL_QUEUE_SIZE only applies to device queues, which Loom does not have.
        setError(errcode_ret, fail(entryPoint, p[0] == CL_QUEUE_SIZE ? CL_INVALID_QUEUE_PROPERTIES
                                                                     : CL_INVALID_VALUE,
                                   "queue property " + std::to_string(p[0]) + " is not supported"));
        return nullptr;
      }
    }
    raw.assign(properties, p + 1);
  }
  return createQueue(entryPoint, context, device, bits, std::move(raw), errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  LOOM_ENTRY();
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  queue->retainUser();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  LOOM_ENTRY();
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  if (queue->releaseUser()) {
    // The implicit flush: queued commands still run, then the worker stops.
    queue->shutdown();
    queue->retire();
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  InfoValue value;
  switch (param_name) {
  case CL_QUEUE_CONTEXT:
    value = InfoValue::of(handleOf(queue->context.get()));
    break;
  case CL_QUEUE_DEVICE:
    value = InfoValue::of(handleOf(&queue->device));
    break;
  case CL_QUEUE_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(queue->userReferenceCount());
    break;
  case CL_QUEUE_PROPERTIES:
    value = InfoValue::of<cl_command_queue_properties>(queue->properties);
    break;
  case CL_QUEUE_PROPERTIES_ARRAY:
    value = InfoValue::array(queue->rawProperties);
    break;
  case CL_QUEUE_DEVICE_DEFAULT: // No device-side queues.
    value = InfoValue::of<cl_command_queue>(nullptr);
    break;
  case CL_QUEUE_SIZE:
    return fail(entryPoint, CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE is only for device-side queues");
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  LOOM_ENTRY();
  LOOM_CHECK(lookup<Queue>(command_queue), CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  return CL_SUCCESS; // Commands reach the worker when enqueued.
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  LOOM_ENTRY();
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  queue->finish();
  return CL_SUCCESS;
}

namespace {

cl_int enqueueSync(const char *entryPoint, cl_command_queue command_queue, cl_command_type type,
                   cl_uint num_events, const cl_event *event_wait_list, cl_event *event) {
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  std::vector<Ref<Event>> waitList;
  if (cl_int error = collectWaitList(entryPoint, queue->context.get(), num_events, event_wait_list, waitList))
    return error;
  return submit(entryPoint, *queue, type, std::move(waitList), nullptr, event, false,
                type == CL_COMMAND_BARRIER ? Command::Sync::Barrier : Command::Sync::Marker);
}

} // namespace

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  return enqueueSync(entryPoint, command_queue, CL_COMMAND_MARKER, num_events_in_wait_list,
                     event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  return enqueueSync(entryPoint, command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list,
                     event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  LOOM_ENTRY();
  LOOM_CHECK(event, CL_INVALID_VALUE, "event is NULL");
  return enqueueSync(entryPoint, command_queue, CL_COMMAND_MARKER, 0, nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  LOOM_ENTRY();
  return enqueueSync(entryPoint, command_queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event *event_list) {
  LOOM_ENTRY();
  LOOM_CHECK(num_events && event_list, CL_INVALID_VALUE, "num_events is 0 or event_list is NULL");
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  std::vector<Ref<Event>> waitList;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event *event = lookup<Event>(event_list[i]);
    LOOM_CHECK(event, CL_INVALID_EVENT, "event_list[" + std::to_string(i) + "] is not valid");
    LOOM_CHECK(event->context.get() == queue->context.get(), CL_INVALID_CONTEXT,
               "event_list[" + std::to_string(i) + "] belongs to another context");
    waitList.emplace_back(event);
  }
  return submit(entryPoint, *queue, CL_COMMAND_BARRIER, std::move(waitList), nullptr, nullptr, false);
}
