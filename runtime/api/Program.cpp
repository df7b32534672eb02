//===- Program.cpp - Programs from source or binaries, builds, queries -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Program source compiles on both devices (diagnostics name the file "program.cl"), in one step
// (clBuildProgram) or two (clCompileProgram, then clLinkProgram: core/Program.h); the board also
// takes binaries from loomc. A bad binary gives CL_INVALID_BINARY, its
// binary_status entries, and (unlike the spec's NULL) the program object too, so the application can
// read why from CL_PROGRAM_BUILD_LOG; it must release that object.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <algorithm>

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

/// The devices of device_list, each checked to be one of `own` (clBuildProgram, clCompileProgram,
/// clLinkProgram); none listed leaves `devices` empty, which means all.
cl_int listedDevices(const char *entryPoint, const std::vector<PlatformDevice *> &own, cl_uint num_devices,
                     const cl_device_id *device_list, std::vector<PlatformDevice *> &devices) {
  LOOM_CHECK(!(device_list == nullptr && num_devices > 0), CL_INVALID_VALUE,
             "device_list is NULL but num_devices is not 0");
  LOOM_CHECK(!(device_list != nullptr && num_devices == 0), CL_INVALID_VALUE,
             "device_list is not NULL but num_devices is 0");
  for (cl_uint i = 0; i < num_devices; ++i) {
    PlatformDevice *device = lookup<PlatformDevice>(device_list[i]);
    LOOM_CHECK(device && std::find(own.begin(), own.end(), device) != own.end(), CL_INVALID_DEVICE,
               "device_list[" + std::to_string(i) + "] is not a device of the " +
                   (std::string(entryPoint) == "clLinkProgram" ? "context" : "program"));
    devices.push_back(device);
  }
  return CL_SUCCESS;
}

/// The CL code of a failed build, compile or link (`step`), with its message.
cl_int reportFailure(const char *entryPoint, BuildFailure failure, cl_int invalidOptions, cl_int failed,
                     const std::string &step) {
  switch (failure) {
  case BuildFailure::None:
    return CL_SUCCESS;
  case BuildFailure::CompilerNotAvailable:
    return fail(entryPoint, CL_COMPILER_NOT_AVAILABLE,
                "a device has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is false): load a "
                "loomc binary with clCreateProgramWithBinary");
  case BuildFailure::InvalidOptions:
    return fail(entryPoint, invalidOptions, "the " + step + " options are not valid (see the build log)");
  case BuildFailure::BuildFailed:
    break;
  }
  return fail(entryPoint, failed, "the " + step + " failed (see CL_PROGRAM_BUILD_LOG)");
}

} // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_program result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    LOOM_CHECK(count && strings, CL_INVALID_VALUE, "count is 0 or strings is NULL");
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      LOOM_CHECK(strings[i], CL_INVALID_VALUE, "strings[" + std::to_string(i) + "] is NULL");
      if (lengths && lengths[i])
        source.append(strings[i], lengths[i]);
      else
        source.append(strings[i]);
    }
    result = handleOf(Object::create<Program>(*owner, std::move(source)));
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_program result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    LOOM_CHECK(device_list && num_devices, CL_INVALID_VALUE, "device_list is NULL or num_devices is 0");
    std::vector<PlatformDevice *> devices;
    for (cl_uint i = 0; i < num_devices; ++i) {
      PlatformDevice *device = lookup<PlatformDevice>(device_list[i]);
      LOOM_CHECK(device && owner->hasDevice(device), CL_INVALID_DEVICE,
                 "device_list[" + std::to_string(i) + "] is not a device of the context");
      devices.push_back(device);
    }
    LOOM_CHECK(lengths && binaries, CL_INVALID_VALUE, "lengths or binaries is NULL");
    bool missing = false;
    for (cl_uint i = 0; i < num_devices; ++i) {
      bool empty = !binaries[i] || !lengths[i];
      if (binary_status)
        binary_status[i] = empty ? CL_INVALID_VALUE : CL_SUCCESS;
      missing |= empty;
    }
    LOOM_CHECK(!missing, CL_INVALID_VALUE, "a binary is NULL or has length 0");
    std::vector<std::string> copies;
    for (cl_uint i = 0; i < num_devices; ++i)
      copies.emplace_back(reinterpret_cast<const char *>(binaries[i]), lengths[i]);
    Program *program = Object::create<Program>(*owner, std::move(devices), std::move(copies));
    std::vector<std::string> errors = program->loadBinaries();
    result = handleOf(program);
    bool invalid = false;
    for (cl_uint i = 0; i < num_devices; ++i) {
      if (binary_status)
        binary_status[i] = errors[i].empty() ? CL_SUCCESS : CL_INVALID_BINARY;
      if (!errors[i].empty()) {
        invalid = true;
        fail(entryPoint, CL_INVALID_BINARY, "device_list[" + std::to_string(i) + "]: " + errors[i]);
      }
    }
    return invalid ? CL_INVALID_BINARY : CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *device_list,
                                                         const char *kernel_names,
                                                         cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    LOOM_CHECK(device_list && num_devices && kernel_names, CL_INVALID_VALUE,
               "device_list or kernel_names is NULL, or num_devices is 0");
    for (cl_uint i = 0; i < num_devices; ++i) {
      PlatformDevice *device = lookup<PlatformDevice>(device_list[i]);
      LOOM_CHECK(device && owner->hasDevice(device), CL_INVALID_DEVICE,
                 "device_list[" + std::to_string(i) + "] is not a device of the context");
    }
    return fail(entryPoint, CL_INVALID_VALUE,
                "'" + std::string(kernel_names) + "' is not a built-in kernel: Loom devices have none");
  }();
  setError(errcode_ret, status);
  return nullptr;
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  object->retainUser();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  if (object->releaseUser())
    object->retire();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *options,
                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  LOOM_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
  std::vector<PlatformDevice *> devices;
  if (cl_int status = listedDevices(entryPoint, object->devices(), num_devices, device_list, devices))
    return status;
  LOOM_CHECK(object->attachedKernels.load() == 0, CL_INVALID_OPERATION,
             "kernel objects are attached to the program");
  BuildFailure failure = object->build(devices, options ? options : "");
  if (pfn_notify)
    pfn_notify(program, user_data);
  LOOM_CHECK(failure != BuildFailure::BuildFailed || object->fromSource, CL_INVALID_BINARY,
             "a device has no valid binary loaded");
  return reportFailure(entryPoint, failure, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE, "build");
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, cl_uint num_input_headers,
                                    const cl_program *input_headers, const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  LOOM_CHECK(num_input_headers ? input_headers && header_include_names : !input_headers && !header_include_names,
             CL_INVALID_VALUE,
             num_input_headers ? "input_headers or header_include_names is NULL"
                               : "num_input_headers is 0 but input_headers or header_include_names is not NULL");
  LOOM_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
  std::vector<PlatformDevice *> devices;
  if (cl_int status = listedDevices(entryPoint, object->devices(), num_devices, device_list, devices))
    return status;
  std::vector<loom::frontend::EmbeddedHeader> headers;
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    Program *header = lookup<Program>(input_headers[i]);
    LOOM_CHECK(header && header->fromSource, CL_INVALID_PROGRAM,
               "input_headers[" + std::to_string(i) + "] is not a program created with clCreateProgramWithSource");
    LOOM_CHECK(header_include_names[i], CL_INVALID_VALUE, "header_include_names[" + std::to_string(i) + "] is NULL");
    headers.push_back({header_include_names[i], header->source});
  }
  LOOM_CHECK(object->fromSource, CL_INVALID_OPERATION,
             "the program was not created with clCreateProgramWithSource: it has no source to compile");
  LOOM_CHECK(object->attachedKernels.load() == 0, CL_INVALID_OPERATION,
             "kernel objects are attached to the program");
  BuildFailure failure = object->compile(devices, options ? options : "", headers);
  if (pfn_notify)
    pfn_notify(program, user_data);
  return reportFailure(entryPoint, failure, CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE, "compile");
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                     const char *options, cl_uint num_input_programs,
                                     const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_program result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    std::vector<PlatformDevice *> devices;
    if (cl_int status = listedDevices(entryPoint, owner->devices, num_devices, device_list, devices))
      return status;
    if (devices.empty())
      devices = owner->devices;
    LOOM_CHECK(num_input_programs && input_programs, CL_INVALID_VALUE,
               "num_input_programs is 0 or input_programs is NULL");
    std::vector<Program *> inputs;
    for (cl_uint i = 0; i < num_input_programs; ++i) {
      Program *input = lookup<Program>(input_programs[i]);
      LOOM_CHECK(input && input->context.get() == owner, CL_INVALID_PROGRAM,
                 "input_programs[" + std::to_string(i) + "] is not a program of the context");
      inputs.push_back(input);
    }
    LOOM_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    auto linkOptions = loom::frontend::parseLinkOptions(options ? options : "");
    if (!linkOptions)
      return fail(entryPoint, CL_INVALID_LINKER_OPTIONS, llvm::toString(linkOptions.takeError()));
    // Per device, all inputs have a compiled object or library for it, or none has.
    for (PlatformDevice *device : devices) {
      size_t having = 0;
      for (Program *input : inputs) {
        std::lock_guard<std::mutex> lock(input->mutex);
        Program::PerDevice *entry = input->find(device);
        LOOM_CHECK(!entry || entry->status != BuildStatus::InProgress, CL_INVALID_OPERATION,
                   "an input program is being built");
        having += entry && entry->object ? 1 : 0;
      }
      LOOM_CHECK(having == 0 || having == inputs.size(), CL_INVALID_OPERATION,
                 "some input programs have a compiled object or library for " + device->info().name +
                     " and some do not (compile them all with clCompileProgram)");
    }
    Program *linked = Object::create<Program>(*owner, std::move(devices));
    result = handleOf(linked);
    BuildFailure failure = linked->link(inputs, *linkOptions);
    if (pfn_notify)
      pfn_notify(result, user_data);
    return reportFailure(entryPoint, failure, CL_INVALID_LINKER_OPTIONS, CL_LINK_PROGRAM_FAILURE, "link");
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  std::lock_guard<std::mutex> lock(object->mutex);
  const auto &entries = object->entries();
  InfoValue value;
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(object->userReferenceCount());
    break;
  case CL_PROGRAM_CONTEXT:
    value = InfoValue::of(handleOf(object->context.get()));
    break;
  case CL_PROGRAM_NUM_DEVICES:
    value = InfoValue::of<cl_uint>(static_cast<cl_uint>(entries.size()));
    break;
  case CL_PROGRAM_DEVICES: {
    std::vector<cl_device_id> handles;
    for (const auto &entry : entries)
      handles.push_back(handleOf(entry.device));
    value = InfoValue::array(handles);
    break;
  }
  case CL_PROGRAM_SOURCE:
    value = InfoValue::string(object->source);
    break;
  case CL_PROGRAM_BINARY_SIZES: {
    std::vector<size_t> sizes;
    for (const auto &entry : entries)
      sizes.push_back(entry.binary().size());
    value = InfoValue::array(sizes);
    break;
  }
  case CL_PROGRAM_BINARIES: {
    // An array of pointers the application allocated; a NULL entry skips that device.
    size_t size = entries.size() * sizeof(unsigned char *);
    LOOM_CHECK(!param_value || param_value_size >= size, CL_INVALID_VALUE,
               "param_value_size is smaller than one pointer per device");
    if (param_value) {
      auto **out = static_cast<unsigned char **>(param_value);
      for (size_t i = 0; i < entries.size(); ++i)
        if (out[i]) {
          std::string bytes = entries[i].binary();
          std::memcpy(out[i], bytes.data(), bytes.size());
        }
    }
    if (param_value_size_ret)
      *param_value_size_ret = size;
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    LOOM_CHECK(object->kernels(), CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built for any device");
    const auto kernels = object->hostKernels();
    if (param_name == CL_PROGRAM_NUM_KERNELS) {
      value = InfoValue::of<size_t>(kernels.size());
    } else {
      std::string names;
      for (const auto *kernel : kernels)
        names += (names.empty() ? "" : ";") + kernel->name;
      value = InfoValue::string(names);
    }
    break;
  }
  case CL_PROGRAM_IL: // No program is created from IL (clCreateProgramWithIL is not supported).
    value = InfoValue::array(std::vector<char>{});
    break;
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT: // OpenCL C has no global constructors.
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    value = InfoValue::of<cl_bool>(CL_FALSE);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  PlatformDevice *target = lookup<PlatformDevice>(device);
  std::lock_guard<std::mutex> lock(object->mutex);
  Program::PerDevice *entry = target ? object->find(target) : nullptr;
  LOOM_CHECK(entry, CL_INVALID_DEVICE, "device is not a device of the program");
  InfoValue value;
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS: {
    cl_build_status status = CL_BUILD_NONE;
    switch (entry->status) {
    case BuildStatus::None: status = CL_BUILD_NONE; break;
    case BuildStatus::Error: status = CL_BUILD_ERROR; break;
    case BuildStatus::Success: status = CL_BUILD_SUCCESS; break;
    case BuildStatus::InProgress: status = CL_BUILD_IN_PROGRESS; break;
    }
    value = InfoValue::of(status);
    break;
  }
  case CL_PROGRAM_BUILD_OPTIONS:
    value = InfoValue::string(entry->options);
    break;
  case CL_PROGRAM_BUILD_LOG:
    value = InfoValue::string(entry->log);
    break;
  case CL_PROGRAM_BINARY_TYPE:
  {
    // Indexed by BinaryType.
    const cl_program_binary_type types[] = {CL_PROGRAM_BINARY_TYPE_NONE, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
                                            CL_PROGRAM_BINARY_TYPE_LIBRARY, CL_PROGRAM_BINARY_TYPE_EXECUTABLE};
    value = InfoValue::of(types[static_cast<size_t>(entry->binaryType())]);
    break;
  }
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    value = InfoValue::of<size_t>(entry->program ? entry->program->globalVariableBytes() : 0);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}
