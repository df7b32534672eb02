//===- Support.cpp - Failure logging, info copy-out, wait lists, submission ===//
// SPDX-License-Identifier: Apache-2.0
//
// The shared mechanics of the entry points, so each cl* function reads as its list of checks.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

namespace loom::runtime::api {

const char *errorName(cl_int code) {
  switch (code) {
#define LOOM_CODE(name)                                                                              \
  case name:                                                                                         \
    return #name;
    LOOM_CODE(CL_SUCCESS)
    LOOM_CODE(CL_DEVICE_NOT_FOUND)
    LOOM_CODE(CL_DEVICE_NOT_AVAILABLE)
    LOOM_CODE(CL_COMPILER_NOT_AVAILABLE)
    LOOM_CODE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    LOOM_CODE(CL_OUT_OF_RESOURCES)
    LOOM_CODE(CL_OUT_OF_HOST_MEMORY)
    LOOM_CODE(CL_PROFILING_INFO_NOT_AVAILABLE)
    LOOM_CODE(CL_MEM_COPY_OVERLAP)
    LOOM_CODE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    LOOM_CODE(CL_BUILD_PROGRAM_FAILURE)
    LOOM_CODE(CL_MAP_FAILURE)
    LOOM_CODE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    LOOM_CODE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    LOOM_CODE(CL_INVALID_VALUE)
    LOOM_CODE(CL_INVALID_DEVICE_TYPE)
    LOOM_CODE(CL_INVALID_PLATFORM)
    LOOM_CODE(CL_INVALID_DEVICE)
    LOOM_CODE(CL_INVALID_CONTEXT)
    LOOM_CODE(CL_INVALID_QUEUE_PROPERTIES)
    LOOM_CODE(CL_INVALID_COMMAND_QUEUE)
    LOOM_CODE(CL_INVALID_HOST_PTR)
    LOOM_CODE(CL_INVALID_MEM_OBJECT)
    LOOM_CODE(CL_INVALID_BINARY)
    LOOM_CODE(CL_INVALID_BUILD_OPTIONS)
    LOOM_CODE(CL_INVALID_PROGRAM)
    LOOM_CODE(CL_INVALID_PROGRAM_EXECUTABLE)
    LOOM_CODE(CL_INVALID_KERNEL_NAME)
    LOOM_CODE(CL_INVALID_KERNEL_DEFINITION)
    LOOM_CODE(CL_INVALID_KERNEL)
    LOOM_CODE(CL_INVALID_ARG_INDEX)
    LOOM_CODE(CL_INVALID_ARG_VALUE)
    LOOM_CODE(CL_INVALID_ARG_SIZE)
    LOOM_CODE(CL_INVALID_KERNEL_ARGS)
    LOOM_CODE(CL_INVALID_WORK_DIMENSION)
    LOOM_CODE(CL_INVALID_WORK_GROUP_SIZE)
    LOOM_CODE(CL_INVALID_WORK_ITEM_SIZE)
    LOOM_CODE(CL_INVALID_GLOBAL_OFFSET)
    LOOM_CODE(CL_INVALID_EVENT_WAIT_LIST)
    LOOM_CODE(CL_INVALID_EVENT)
    LOOM_CODE(CL_INVALID_OPERATION)
    LOOM_CODE(CL_INVALID_BUFFER_SIZE)
    LOOM_CODE(CL_INVALID_PIPE_SIZE)
    LOOM_CODE(CL_INVALID_GLOBAL_WORK_SIZE)
    LOOM_CODE(CL_INVALID_PROPERTY)
#undef LOOM_CODE
  default:
    return "CL_<unknown error>";
  }
}

cl_int fail(const char *entryPoint, cl_int code, const std::string &message) {
  if (Platform::debugEnabled())
    Platform::debugLog(std::string(entryPoint) + ": " + message + " -> " + errorName(code));
  return code;
}

cl_int copyInfo(const char *entryPoint, size_t valueSize, void *value, size_t *sizeRet,
                const void *data, size_t size) {
  LOOM_CHECK(!value || valueSize >= size, CL_INVALID_VALUE,
             "param_value_size " + std::to_string(valueSize) + " is smaller than the " +
                 std::to_string(size) + " bytes of the value");
  if (value && size)
    std::memcpy(value, data, size);
  if (sizeRet)
    *sizeRet = size;
  return CL_SUCCESS;
}

cl_int collectWaitList(const char *entryPoint, const Context *context, cl_uint count,
                       const cl_event *list, std::vector<Ref<Event>> &out) {
  LOOM_CHECK(!(list == nullptr && count > 0), CL_INVALID_EVENT_WAIT_LIST,
             "event_wait_list is NULL but num_events_in_wait_list is not 0");
  LOOM_CHECK(!(list != nullptr && count == 0), CL_INVALID_EVENT_WAIT_LIST,
             "event_wait_list is not NULL but num_events_in_wait_list is 0");
  for (cl_uint i = 0; i < count; ++i) {
    Event *event = lookup<Event>(list[i]);
    LOOM_CHECK(event, CL_INVALID_EVENT_WAIT_LIST,
               "event_wait_list[" + std::to_string(i) + "] is not a valid event");
    LOOM_CHECK(!context || event->context.get() == context, CL_INVALID_CONTEXT,
               "event_wait_list[" + std::to_string(i) + "] belongs to another context");
    out.emplace_back(event);
  }
  return CL_SUCCESS;
}

cl_int submit(const char *entryPoint, Queue &queue, cl_command_type type,
              std::vector<Ref<Event>> waitList, std::function<CommandOutcome()> run, cl_event *event,
              bool blocking, Command::Sync sync) {
  Event *created = Object::create<Event>(*queue.context, &queue, type, queue.profiling);
  Ref<Event> keep(created);
  queue.submit(Command{keep, std::move(waitList), std::move(run), sync});
  if (event)
    *event = handleOf(created);
  else if (created->releaseUser())
    created->retire();
  if (blocking) {
    int32_t status = queue.wait(*keep);
    LOOM_CHECK(status >= 0, status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                                ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                                : status,
               "the blocking command failed (status " + std::to_string(status) + ")");
  }
  return CL_SUCCESS;
}

} // namespace loom::runtime::api
