//===- Event.cpp - Waiting, event queries, profiling, user events, callbacks ===//
// SPDX-License-Identifier: Apache-2.0
//
// Profiling times come from the queue worker (queued at enqueue, submitted when the worker takes
// the command, start/end around it); a kernel's END - START is the device's own time
// (LaunchResult::deviceNs: measured on the CPU, simulated on the board).
//===----------------------------------------------------------------------===//
#include "api/Support.h"

using namespace loom::runtime;
using namespace loom::runtime::api;

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  LOOM_ENTRY();
  LOOM_CHECK(num_events && event_list, CL_INVALID_VALUE, "num_events is 0 or event_list is NULL");
  std::vector<Event *> events;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event *event = lookup<Event>(event_list[i]);
    LOOM_CHECK(event, CL_INVALID_EVENT, "event_list[" + std::to_string(i) + "] is not valid");
    LOOM_CHECK(events.empty() || event->context.get() == events.front()->context.get(),
               CL_INVALID_CONTEXT, "the events belong to different contexts");
    events.push_back(event);
  }
  std::vector<Ref<Event>> keep(events.begin(), events.end()); // Survives a release by a callback.
  bool failed = false;
  for (Event *event : events) // A command's event: its queue lets this thread run it if none has.
    failed |= (event->queue() ? event->queue()->wait(*event) : event->wait()) < 0;
  LOOM_CHECK(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
             "an event in event_list failed (negative execution status)");
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Event *object = lookup<Event>(event);
  LOOM_CHECK(object, CL_INVALID_EVENT, "event is not valid");
  InfoValue value;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE:
    value = InfoValue::of(handleOf(object->queue()));
    break;
  case CL_EVENT_CONTEXT:
    value = InfoValue::of(handleOf(object->context.get()));
    break;
  case CL_EVENT_COMMAND_TYPE:
    value = InfoValue::of<cl_command_type>(object->commandType);
    break;
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    value = InfoValue::of<cl_int>(object->status());
    break;
  case CL_EVENT_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(object->userReferenceCount());
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  LOOM_ENTRY();
  Event *object = lookup<Event>(event);
  LOOM_CHECK(object, CL_INVALID_EVENT, "event is not valid");
  object->retainUser();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  LOOM_ENTRY();
  Event *object = lookup<Event>(event);
  LOOM_CHECK(object, CL_INVALID_EVENT, "event is not valid");
  if (object->releaseUser())
    object->retire();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Event *object = lookup<Event>(event);
  LOOM_CHECK(object, CL_INVALID_EVENT, "event is not valid");
  LOOM_CHECK(object->queue(), CL_PROFILING_INFO_NOT_AVAILABLE, "event is a user event");
  LOOM_CHECK(object->profiling, CL_PROFILING_INFO_NOT_AVAILABLE,
             "the queue was created without CL_QUEUE_PROFILING_ENABLE");
  LOOM_CHECK(object->status() == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE,
             "the command is not complete");
  Event::Times times = object->times();
  cl_ulong stamp = 0;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED:
    stamp = times.queued;
    break;
  case CL_PROFILING_COMMAND_SUBMIT:
    stamp = times.submitted;
    break;
  case CL_PROFILING_COMMAND_START:
    stamp = times.start;
    break;
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    stamp = times.end;
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return InfoValue::of(stamp).copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_event result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    result = handleOf(Object::create<Event>(*owner, nullptr, CL_COMMAND_USER, false));
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  LOOM_ENTRY();
  Event *object = lookup<Event>(event);
  LOOM_CHECK(object && !object->queue(), CL_INVALID_EVENT, "event is not a valid user event");
  LOOM_CHECK(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE,
             "execution_status must be CL_COMPLETE or negative");
  LOOM_CHECK(object->status() > 0, CL_INVALID_OPERATION, "the user event's status was already set");
  object->setStatus(execution_status);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                      void *user_data) {
  LOOM_ENTRY();
  Event *object = lookup<Event>(event);
  LOOM_CHECK(object, CL_INVALID_EVENT, "event is not valid");
  LOOM_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  LOOM_CHECK(command_exec_callback_type == CL_COMPLETE || command_exec_callback_type == CL_RUNNING ||
                 command_exec_callback_type == CL_SUBMITTED,
             CL_INVALID_VALUE, "command_exec_callback_type must be CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
  object->addCallback(command_exec_callback_type, [pfn_notify, event, user_data](int32_t status) {
    pfn_notify(event, status, user_data);
  });
  return CL_SUCCESS;
}
