//===- Kernel.cpp - Kernel objects, arguments and queries ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// clSetKernelArg checks an argument against the kernel's metadata (loom::frontend::KernelInfo): buffers
// and pipes take a cl_mem of their kind, __local pointers a size and NULL value, scalars exactly their
// size.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <algorithm>

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

/// The kernel, and `device` among the devices of its program (or the only one when `device` is NULL).
cl_int kernelOnDevice(const char *entryPoint, cl_kernel kernel, cl_device_id device, Kernel *&object,
                      PlatformDevice *&target) {
  object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  std::vector<PlatformDevice *> devices = object->program->devices();
  if (device) {
    target = lookup<PlatformDevice>(device);
    LOOM_CHECK(target && std::find(devices.begin(), devices.end(), target) != devices.end(),
               CL_INVALID_DEVICE, "device is not a device of the kernel's program");
  } else {
    LOOM_CHECK(devices.size() == 1, CL_INVALID_DEVICE,
               "device is NULL but the kernel's program has more than one device");
    target = devices.front();
  }
  return CL_SUCCESS;
}

/// The kernel's kernels must agree on every built device (CL_INVALID_KERNEL_DEFINITION).
bool sameOnAllDevices(Program &program, const loom::frontend::KernelInfo &info) {
  for (const auto &entry : program.entries()) {
    if (entry.status != BuildStatus::Success || !entry.program)
      continue;
    const auto &kernels = entry.program->kernels();
    auto it = std::find_if(kernels.begin(), kernels.end(),
                           [&](const loom::frontend::KernelInfo &k) { return k.name == info.name; });
    if (it == kernels.end() || it->args.size() != info.args.size())
      return false;
    for (size_t i = 0; i < info.args.size(); ++i)
      if (it->args[i].typeName != info.args[i].typeName ||
          it->args[i].addressSpace != info.args[i].addressSpace)
        return false;
  }
  return true;
}

/// A kernel object for `info`, its hidden arguments bound to the program's channels and pipes (the
/// caller holds the program's mutex).
cl_int createKernel(const char *entryPoint, Program &program, const loom::frontend::KernelInfo &info,
                    cl_kernel &handle) {
  std::vector<Buffer *> fifos;
  for (const loom::frontend::KernelArg &arg : info.args) {
    if (arg.programFifo.empty())
      continue;
    auto pipe = program.programFifo(arg);
    if (!pipe)
      return fail(entryPoint, CL_OUT_OF_RESOURCES,
                  "kernel '" + info.name + "': " + llvm::toString(pipe.takeError()));
    fifos.push_back(*pipe);
  }
  Kernel *kernel = Object::create<Kernel>(program, info);
  for (size_t i = 0; i < fifos.size(); ++i)
    kernel->setBuffer(unsigned(info.userArgCount() + i), fifos[i]);
  handle = handleOf(kernel);
  return CL_SUCCESS;
}

} // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_kernel result = nullptr;
  cl_int status = [&]() -> cl_int {
    Program *object = lookup<Program>(program);
    LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
    LOOM_CHECK(kernel_name, CL_INVALID_VALUE, "kernel_name is NULL");
    std::lock_guard<std::mutex> lock(object->mutex);
    const auto *kernels = object->kernels();
    LOOM_CHECK(kernels, CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built for any device");
    auto it = std::find_if(kernels->begin(), kernels->end(),
                           [&](const loom::frontend::KernelInfo &k) { return k.name == kernel_name; });
    LOOM_CHECK(it != kernels->end(), CL_INVALID_KERNEL_NAME,
               "the program has no kernel named '" + std::string(kernel_name) + "'");
    LOOM_CHECK(!it->autorun, CL_INVALID_KERNEL_NAME,
               "kernel '" + std::string(kernel_name) +
                   "' is autorun: it started when the program was built, and no host enqueues it");
    LOOM_CHECK(sameOnAllDevices(*object, *it), CL_INVALID_KERNEL_DEFINITION,
               "kernel '" + std::string(kernel_name) + "' differs between the program's devices");
    return createKernel(entryPoint, *object, *it, result);
  }();
  setError(errcode_ret, status);
  return result;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_kernel result = nullptr;
  cl_int status = [&]() -> cl_int {
    Kernel *source = lookup<Kernel>(source_kernel);
    LOOM_CHECK(source, CL_INVALID_KERNEL, "source_kernel is not valid");
    Kernel *copy = Object::create<Kernel>(*source->program, source->info);
    copy->copyArgsFrom(*source);
    result = handleOf(copy);
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel *kernels, cl_uint *num_kernels_ret) {
  LOOM_ENTRY();
  Program *object = lookup<Program>(program);
  LOOM_CHECK(object, CL_INVALID_PROGRAM, "program is not valid");
  std::lock_guard<std::mutex> lock(object->mutex);
  LOOM_CHECK(object->kernels(), CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built for any device");
  const std::vector<const loom::frontend::KernelInfo *> infos = object->hostKernels();
  LOOM_CHECK(!kernels || num_kernels >= infos.size(), CL_INVALID_VALUE,
             "num_kernels is less than the program's " + std::to_string(infos.size()) + " kernels");
  if (kernels)
    for (size_t i = 0; i < infos.size(); ++i)
      if (cl_int error = createKernel(entryPoint, *object, *infos[i], kernels[i])) {
        for (size_t made = 0; made < i; ++made)
          clReleaseKernel(kernels[made]);
        return error;
      }
  if (num_kernels_ret)
    *num_kernels_ret = static_cast<cl_uint>(infos.size());
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  LOOM_ENTRY();
  Kernel *object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  object->retainUser();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  LOOM_ENTRY();
  Kernel *object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  if (object->releaseUser())
    object->retire();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
  LOOM_ENTRY();
  Kernel *object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  LOOM_CHECK(arg_index < object->info.userArgCount(), CL_INVALID_ARG_INDEX,
             "arg_index " + std::to_string(arg_index) + " but kernel '" + object->info.name + "' has " +
                 std::to_string(object->info.userArgCount()) + " arguments");
  const loom::frontend::KernelArg &arg = object->info.args[arg_index];
  const std::string which = "argument " + std::to_string(arg_index) + " ('" + arg.name + "', " + arg.typeName + ")";
  if (arg.isPointer && arg.addressSpace == loom::frontend::AddressSpace::Local) {
    LOOM_CHECK(arg_size > 0, CL_INVALID_ARG_SIZE, which + " is __local: arg_size is the size to allocate, not 0");
    LOOM_CHECK(!arg_value, CL_INVALID_ARG_VALUE, which + " is __local: arg_value must be NULL");
    object->setLocal(arg_index, arg_size);
    return CL_SUCCESS;
  }
  if (arg.isPipe()) {
    LOOM_CHECK(arg_size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
               which + " is a pipe: arg_size must be sizeof(cl_mem), not " + std::to_string(arg_size));
    Buffer *pipe = arg_value ? lookup<Buffer>(*static_cast<const cl_mem *>(arg_value)) : nullptr;
    LOOM_CHECK(pipe && pipe->isPipe(), CL_INVALID_MEM_OBJECT, which + ": the value is not a valid pipe object");
    LOOM_CHECK(pipe->context.get() == object->program->context.get(), CL_INVALID_MEM_OBJECT,
               which + ": the pipe belongs to another context");
    object->setBuffer(arg_index, pipe);
    return CL_SUCCESS;
  }
  if (arg.isPointer) {
    LOOM_CHECK(arg_size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
               which + " is a buffer: arg_size must be sizeof(cl_mem), not " + std::to_string(arg_size));
    cl_mem handle = arg_value ? *static_cast<const cl_mem *>(arg_value) : nullptr;
    Buffer *buffer = nullptr;
    if (handle) {
      buffer = lookup<Buffer>(handle);
      LOOM_CHECK(buffer && !buffer->isPipe(), CL_INVALID_MEM_OBJECT, which + ": the value is not a valid buffer");
      LOOM_CHECK(buffer->context.get() == object->program->context.get(), CL_INVALID_MEM_OBJECT,
                 which + ": the buffer belongs to another context");
    }
    object->setBuffer(arg_index, buffer);
    return CL_SUCCESS;
  }
  LOOM_CHECK(arg_value, CL_INVALID_ARG_VALUE, which + ": arg_value is NULL");
  LOOM_CHECK(arg_size == arg.size, CL_INVALID_ARG_SIZE,
             which + ": arg_size is " + std::to_string(arg_size) + ", the type takes " + std::to_string(arg.size));
  object->setScalar(arg_index, arg_value, arg_size);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Kernel *object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  InfoValue value;
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    value = InfoValue::string(object->info.name);
    break;
  case CL_KERNEL_NUM_ARGS:
    value = InfoValue::of<cl_uint>(static_cast<cl_uint>(object->info.userArgCount()));
    break;
  case CL_KERNEL_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(object->userReferenceCount());
    break;
  case CL_KERNEL_CONTEXT:
    value = InfoValue::of(handleOf(object->program->context.get()));
    break;
  case CL_KERNEL_PROGRAM:
    value = InfoValue::of(handleOf(object->program.get()));
    break;
  case CL_KERNEL_ATTRIBUTES:
    value = InfoValue::string(object->info.attributes);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                      cl_kernel_arg_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Kernel *object = lookup<Kernel>(kernel);
  LOOM_CHECK(object, CL_INVALID_KERNEL, "kernel is not valid");
  LOOM_CHECK(arg_index < object->info.userArgCount(), CL_INVALID_ARG_INDEX,
             "arg_index " + std::to_string(arg_index) + " is out of range");
  const loom::frontend::KernelArg &arg = object->info.args[arg_index];
  InfoValue value;
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier qualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    switch (arg.addressSpace) {
    case loom::frontend::AddressSpace::Global: qualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL; break;
    case loom::frontend::AddressSpace::Constant: qualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT; break;
    case loom::frontend::AddressSpace::Local: qualifier = CL_KERNEL_ARG_ADDRESS_LOCAL; break;
    case loom::frontend::AddressSpace::Private: qualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE; break;
    }
    value = InfoValue::of(qualifier);
    break;
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;
    switch (arg.access) {
    case loom::frontend::AccessQualifier::None: access = CL_KERNEL_ARG_ACCESS_NONE; break;
    case loom::frontend::AccessQualifier::ReadOnly: access = CL_KERNEL_ARG_ACCESS_READ_ONLY; break;
    case loom::frontend::AccessQualifier::WriteOnly: access = CL_KERNEL_ARG_ACCESS_WRITE_ONLY; break;
    case loom::frontend::AccessQualifier::ReadWrite: access = CL_KERNEL_ARG_ACCESS_READ_WRITE; break;
    }
    value = InfoValue::of(access);
    break;
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    value = InfoValue::string(arg.typeName);
    break;
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier qualifiers = CL_KERNEL_ARG_TYPE_NONE;
    llvm::SmallVector<llvm::StringRef, 4> words;
    llvm::StringRef(arg.typeQualifiers).split(words, ' ', -1, false);
    for (llvm::StringRef word : words) {
      if (word == "const") qualifiers |= CL_KERNEL_ARG_TYPE_CONST;
      else if (word == "restrict") qualifiers |= CL_KERNEL_ARG_TYPE_RESTRICT;
      else if (word == "volatile") qualifiers |= CL_KERNEL_ARG_TYPE_VOLATILE;
      else if (word == "pipe") qualifiers |= CL_KERNEL_ARG_TYPE_PIPE;
    }
    value = InfoValue::of(qualifiers);
    break;
  }
  case CL_KERNEL_ARG_NAME:
    value = InfoValue::string(arg.name);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Kernel *object = nullptr;
  PlatformDevice *target = nullptr;
  if (cl_int code = kernelOnDevice(entryPoint, kernel, device, object, target))
    return code;
  const DeviceInfo &info = target->info();
  InfoValue value;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    value = InfoValue::of<size_t>(object->maxWorkGroupSize(*target));
    break;
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    const auto &reqd = object->info.reqdWorkGroupSize;
    value = InfoValue::array(std::vector<size_t>{reqd[0], reqd[1], reqd[2]});
    break;
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    value = InfoValue::of<cl_ulong>(object->localMemBytes());
    break;
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    value = InfoValue::of<cl_ulong>(object->info.privateBytes);
    break;
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    value = InfoValue::of<size_t>(info.preferredGroupMultiple);
    break;
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return fail(entryPoint, CL_INVALID_VALUE,
                "CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in kernels");
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

// Also clGetKernelSubGroupInfoKHR (cl_khr_subgroups: the same signature and queries). A device's
// sub-groups are runs of DeviceInfo::subGroupSize work-items in local linear id order.
cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                                           const void *input_value, size_t param_value_size,
                                           void *param_value, size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Kernel *object = nullptr;
  PlatformDevice *target = nullptr;
  if (cl_int code = kernelOnDevice(entryPoint, kernel, device, object, target))
    return code;
  const DeviceInfo &info = target->info();
  LOOM_CHECK(info.subGroupSize > 0, CL_INVALID_OPERATION, "the device has no sub-groups");
  const size_t size = info.subGroupSize;
  const auto &reqd = object->info.reqdWorkGroupSize;
  const bool required = reqd[0] != 0;
  // The most work-items a group may have; with reqd_work_group_size, the only number it may have.
  const size_t maxItems = required ? size_t(reqd[0]) * reqd[1] * reqd[2] : object->maxWorkGroupSize(*target);
  // The local size a query passes: 1 to 3 size_t, every one at least 1.
  auto localItems = [&](size_t &items) -> cl_int {
    LOOM_CHECK(input_value && input_value_size && input_value_size % sizeof(size_t) == 0 &&
                   input_value_size <= 3 * sizeof(size_t),
               CL_INVALID_VALUE, "input_value must be a local work size of 1 to 3 size_t");
    items = 1;
    for (size_t d = 0; d < input_value_size / sizeof(size_t); ++d) {
      size_t extent = static_cast<const size_t *>(input_value)[d];
      LOOM_CHECK(extent > 0, CL_INVALID_VALUE, "a local work size of 0");
      items *= extent;
    }
    return CL_SUCCESS;
  };
  InfoValue value;
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    size_t items = 0;
    if (cl_int code = localItems(items))
      return code;
    value = InfoValue::of<size_t>(param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE ? std::min(size, items)
                                                                                         : (items + size - 1) / size);
    break;
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    LOOM_CHECK(input_value && input_value_size == sizeof(size_t), CL_INVALID_VALUE,
               "input_value must be one size_t, the sub-group count");
    LOOM_CHECK(param_value_size_ret || param_value_size % sizeof(size_t) == 0, CL_INVALID_VALUE,
               "param_value_size must be a multiple of sizeof(size_t)");
    const size_t count = *static_cast<const size_t *>(input_value);
    const size_t dims = std::clamp<size_t>(param_value_size / sizeof(size_t), 1, 3);
    // count full sub-groups along dimension 0, the other sizes 1; none fits: all zeros, as the spec says.
    std::vector<size_t> local(dims, 1);
    bool fits = false;
    if (required) {
      // The required size is the only one the kernel runs, in as many dimensions as it names (the
      // spec's one dimension would leave reqd_work_group_size(8, 4, 4) without an answer).
      std::copy_n(reqd.begin(), dims, local.begin());
      fits = count == (maxItems + size - 1) / size &&
             std::all_of(reqd.begin() + dims, reqd.end(), [](uint32_t extent) { return extent == 1; });
    } else {
      local[0] = count * size;
      fits = count > 0 && local[0] <= maxItems && local[0] <= info.maxWorkItemSizes[0];
    }
    if (!fits)
      std::fill(local.begin(), local.end(), 0);
    value = InfoValue::array(local);
    break;
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    value = InfoValue::of<size_t>((maxItems + size - 1) / size);
    break;
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    value = InfoValue::of<size_t>(0); // No attribute asks for a number of sub-groups.
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}
