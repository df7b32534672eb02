//===- Context.cpp - clCreateContext(FromType), clGetContextInfo, retain/release, destructor callbacks ===//
// SPDX-License-Identifier: Apache-2.0
//
// Context properties: CL_CONTEXT_PLATFORM and CL_CONTEXT_INTEROP_USER_SYNC are accepted, anything
// else is CL_INVALID_PROPERTY.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <algorithm>

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

using NotifyFn = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);

cl_int checkProperties(const char *entryPoint, const cl_context_properties *properties,
                       std::vector<intptr_t> &copy) {
  if (!properties)
    return CL_SUCCESS;
  std::vector<cl_context_properties> seen;
  const cl_context_properties *p = properties;
  for (; *p; p += 2) {
    cl_context_properties name = p[0];
    LOOM_CHECK(std::find(seen.begin(), seen.end(), name) == seen.end(), CL_INVALID_PROPERTY,
               "property " + std::to_string(name) + " is given twice");
    seen.push_back(name);
    if (name == CL_CONTEXT_PLATFORM) {
      LOOM_CHECK(lookup<Platform>(reinterpret_cast<cl_platform_id>(p[1])), CL_INVALID_PLATFORM,
                 "CL_CONTEXT_PLATFORM is not a valid platform");
    } else if (name == CL_CONTEXT_INTEROP_USER_SYNC) {
      LOOM_CHECK(p[1] == CL_TRUE || p[1] == CL_FALSE, CL_INVALID_PROPERTY,
                 "CL_CONTEXT_INTEROP_USER_SYNC must be CL_TRUE or CL_FALSE");
    } else {
      return fail(entryPoint, CL_INVALID_PROPERTY,
                  "context property " + std::to_string(name) + " is not supported");
    }
  }
  copy.assign(properties, p + 1);
  return CL_SUCCESS;
}

Context::Notify notifier(NotifyFn notify, void *userData) {
  if (!notify)
    return nullptr;
  return [notify, userData](const std::string &message) {
    notify(message.c_str(), nullptr, 0, userData);
  };
}

} // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices, NotifyFn pfn_notify,
                                       void *user_data, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_context result = nullptr;
  cl_int status = [&]() -> cl_int {
    std::vector<intptr_t> copy;
    if (cl_int error = checkProperties(entryPoint, properties, copy))
      return error;
    LOOM_CHECK(devices && num_devices, CL_INVALID_VALUE, "devices is NULL or num_devices is 0");
    LOOM_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    std::vector<PlatformDevice *> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
      PlatformDevice *device = lookup<PlatformDevice>(devices[i]);
      LOOM_CHECK(device, CL_INVALID_DEVICE, "devices[" + std::to_string(i) + "] is not valid");
      if (std::find(list.begin(), list.end(), device) == list.end()) // Duplicates are ignored.
        list.push_back(device);
    }
    result = handleOf(Object::create<Context>(std::move(list), std::move(copy), notifier(pfn_notify, user_data)));
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties,
                                               cl_device_type device_type, NotifyFn pfn_notify,
                                               void *user_data, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_context result = nullptr;
  cl_int status = [&]() -> cl_int {
    std::vector<intptr_t> copy;
    if (cl_int error = checkProperties(entryPoint, properties, copy))
      return error;
    LOOM_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                     CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    LOOM_CHECK(device_type == CL_DEVICE_TYPE_ALL || (device_type && !(device_type & ~known)),
               CL_INVALID_DEVICE_TYPE, "device_type is not a valid cl_device_type");
    std::vector<PlatformDevice *> list = devicesOfType(device_type);
    LOOM_CHECK(!list.empty(), CL_DEVICE_NOT_FOUND, "no device of the requested type");
    result = handleOf(Object::create<Context>(std::move(list), std::move(copy), notifier(pfn_notify, user_data)));
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  LOOM_ENTRY();
  Context *object = lookup<Context>(context);
  LOOM_CHECK(object, CL_INVALID_CONTEXT, "context is not valid");
  object->retainUser();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  LOOM_ENTRY();
  Context *object = lookup<Context>(context);
  LOOM_CHECK(object, CL_INVALID_CONTEXT, "context is not valid");
  if (object->releaseUser())
    object->retire();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                                  void *user_data) {
  LOOM_ENTRY();
  Context *object = lookup<Context>(context);
  LOOM_CHECK(object, CL_INVALID_CONTEXT, "context is not valid");
  LOOM_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  object->addDestructorCallback([pfn_notify, context, user_data] { pfn_notify(context, user_data); });
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Context *object = lookup<Context>(context);
  LOOM_CHECK(object, CL_INVALID_CONTEXT, "context is not valid");
  InfoValue value;
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(object->userReferenceCount());
    break;
  case CL_CONTEXT_NUM_DEVICES:
    value = InfoValue::of<cl_uint>(static_cast<cl_uint>(object->devices.size()));
    break;
  case CL_CONTEXT_DEVICES: {
    std::vector<cl_device_id> handles;
    for (PlatformDevice *device : object->devices)
      handles.push_back(handleOf(device));
    value = InfoValue::array(handles);
    break;
  }
  case CL_CONTEXT_PROPERTIES:
    value = InfoValue::array(object->properties);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}
