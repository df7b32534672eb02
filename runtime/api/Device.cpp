//===- Device.cpp - clGetDeviceIDs, clGetDeviceInfo, device retain/release ===//
// SPDX-License-Identifier: Apache-2.0
//
// Device queries answer every OpenCL 3.0 clGetDeviceInfo parameter (clinfo asks them all) from the
// device's DeviceInfo; what a Loom device does not support (images, fp64, partitioning, SVM,
// device-side enqueue; the board's pipes and generic address space) answers "none", as OpenCL 3.0
// allows for optional features.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include "loom/lowering/Printf.h"

#include "devices/ProgramCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

cl_device_type typeOf(const PlatformDevice &device) {
  return device.info().kind == DeviceKind::Accelerator ? CL_DEVICE_TYPE_ACCELERATOR : CL_DEVICE_TYPE_CPU;
}

constexpr cl_device_type KnownTypes = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                      CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;

} // namespace

namespace loom::runtime::api {
/// The platform's devices of `type` (CL_DEVICE_TYPE_DEFAULT: the first), in platform order.
std::vector<PlatformDevice *> devicesOfType(cl_device_type type) {
  std::vector<PlatformDevice *> result;
  const auto &all = Platform::get().devices();
  for (size_t i = 0; i < all.size(); ++i) {
    bool wanted = type == CL_DEVICE_TYPE_ALL || (type & typeOf(*all[i])) ||
                  ((type & CL_DEVICE_TYPE_DEFAULT) && i == 0);
    if (wanted)
      result.push_back(all[i]);
  }
  return result;
}
} // namespace loom::runtime::api

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices) {
  LOOM_ENTRY();
  LOOM_CHECK(!platform || lookup<Platform>(platform), CL_INVALID_PLATFORM, "platform is not valid");
  LOOM_CHECK(device_type == CL_DEVICE_TYPE_ALL || (device_type && !(device_type & ~KnownTypes)),
             CL_INVALID_DEVICE_TYPE, "device_type is not a valid cl_device_type");
  LOOM_CHECK(!(num_entries == 0 && devices), CL_INVALID_VALUE, "num_entries is 0 but devices is not NULL");
  LOOM_CHECK(devices || num_devices, CL_INVALID_VALUE, "devices and num_devices are both NULL");
  std::vector<PlatformDevice *> found = devicesOfType(device_type);
  if (num_devices)
    *num_devices = static_cast<cl_uint>(found.size());
  LOOM_CHECK(!found.empty(), CL_DEVICE_NOT_FOUND, "no device of the requested type");
  if (devices)
    for (size_t i = 0; i < found.size() && i < num_entries; ++i)
      devices[i] = handleOf(found[i]);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  LOOM_ENTRY();
  PlatformDevice *entry = lookup<PlatformDevice>(device);
  LOOM_CHECK(entry, CL_INVALID_DEVICE, "device is not valid");
  const DeviceInfo &info = entry->info();
  const bool cpu = info.kind == DeviceKind::Cpu;
  InfoValue value;
  switch (param_name) {
  case CL_DEVICE_TYPE:
    value = InfoValue::of<cl_device_type>(typeOf(*entry));
    break;
  case CL_DEVICE_VENDOR_ID:
    value = InfoValue::of<cl_uint>(0x10000 + 0x4c4d); // Not PCI: a vendor id in the Khronos range.
    break;
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    value = InfoValue::of<cl_uint>(info.computeUnits);
    break;
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    value = InfoValue::of<cl_uint>(3);
    break;
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    value = InfoValue::array(std::vector<size_t>(info.maxWorkItemSizes.begin(), info.maxWorkItemSizes.end()));
    break;
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    value = InfoValue::of<size_t>(info.maxWorkGroupSize);
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    value = InfoValue::of<cl_uint>(cpu ? 16 : 1);
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    value = InfoValue::of<cl_uint>(cpu ? 8 : 1);
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    value = InfoValue::of<cl_uint>(cpu ? 4 : 1);
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    value = InfoValue::of<cl_uint>(cpu ? 2 : 1);
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    value = InfoValue::of<cl_uint>(0); // No cl_khr_fp64 / cl_khr_fp16.
    break;
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    value = InfoValue::of<cl_uint>(info.clockMHz);
    break;
  case CL_DEVICE_ADDRESS_BITS:
    value = InfoValue::of<cl_uint>(64);
    break;
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    value = InfoValue::of<cl_ulong>(info.maxAllocBytes);
    break;
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    value = InfoValue::of<cl_ulong>(info.globalMemBytes);
    break;
  case CL_DEVICE_IMAGE_SUPPORT:
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    value = InfoValue::of<cl_bool>(CL_FALSE);
    break;
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_SAMPLERS:
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    value = InfoValue::of<cl_uint>(0);
    break;
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    value = InfoValue::of<size_t>(0);
    break;
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    value = InfoValue::of<size_t>(1024);
    break;
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    value = InfoValue::of<cl_uint>(BaseAddressAlignment * 8); // In bits.
    break;
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    value = InfoValue::of<cl_uint>(128);
    break;
  case CL_DEVICE_SINGLE_FP_CONFIG: {
    // Division and sqrt round correctly on both without -cl-fp32-correctly-rounded-divide-sqrt: the
    // board's units are exact to the half-ulp (hls/rtl/loom_fdiv.v, loom_fsqrt.v), the CPU's are x86's.
    cl_device_fp_config config =
        CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    if (info.denormals)
      config |= CL_FP_DENORM;
    value = InfoValue::of(config);
    break;
  }
  case CL_DEVICE_DOUBLE_FP_CONFIG:
  case CL_DEVICE_HALF_FP_CONFIG:
    value = InfoValue::of<cl_device_fp_config>(0);
    break;
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    value = InfoValue::of<cl_device_mem_cache_type>(cpu ? CL_READ_WRITE_CACHE : CL_NONE);
    break;
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    value = InfoValue::of<cl_uint>(cpu ? 64 : 0);
    break;
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    value = InfoValue::of<cl_ulong>(cpu ? 1 << 20 : 0);
    break;
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    value = InfoValue::of<cl_ulong>(64 * 1024);
    break;
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    value = InfoValue::of<cl_uint>(8);
    break;
  case CL_DEVICE_LOCAL_MEM_TYPE:
    value = InfoValue::of<cl_device_local_mem_type>(cpu ? CL_GLOBAL : CL_LOCAL);
    break;
  case CL_DEVICE_LOCAL_MEM_SIZE:
    value = InfoValue::of<cl_ulong>(info.localMemBytes);
    break;
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    value = InfoValue::of<cl_bool>(CL_TRUE); // Both devices' buffers are host-visible memory.
    break;
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    value = InfoValue::of<size_t>(info.profilingResolutionNs);
    break;
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    value = InfoValue::of<cl_bool>(CL_TRUE);
    break;
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    value = InfoValue::of<cl_bool>(info.compilerAvailable ? CL_TRUE : CL_FALSE);
    break;
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    value = InfoValue::of<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
    break;
  case CL_DEVICE_QUEUE_PROPERTIES: // Same value as CL_DEVICE_QUEUE_ON_HOST_PROPERTIES.
    value = InfoValue::of<cl_command_queue_properties>(CL_QUEUE_PROFILING_ENABLE |
                                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    break;
  case CL_DEVICE_BUILT_IN_KERNELS:
    value = InfoValue::string(info.builtInKernels);
    break;
  case CL_DEVICE_PLATFORM:
    value = InfoValue::of(handleOf(&Platform::get()));
    break;
  case CL_DEVICE_NAME:
    value = InfoValue::string(info.name);
    break;
  case CL_DEVICE_VENDOR:
    value = InfoValue::string(info.vendor);
    break;
  case CL_DRIVER_VERSION:
    // The version and this build: caches of program binaries keyed by it (pyopencl's) must not
    // hand a rebuilt Loom what an older build compiled.
    value = InfoValue::string(LOOM_VERSION "+" +
                              llvm::utohexstr(llvm::xxHash64(ProgramCache::buildIdentity()), /*LowerCase=*/true));
    break;
  case CL_DEVICE_PROFILE:
    value = InfoValue::string("FULL_PROFILE");
    break;
  case CL_DEVICE_VERSION:
    value = InfoValue::string(llvm::formatv("OpenCL {0}.{1} Loom", info.opencl.version.major,
                                            info.opencl.version.minor)
                                  .str());
    break;
  case CL_DEVICE_NUMERIC_VERSION:
    value = InfoValue::of<cl_version>(InfoValue::versionOf(info.opencl.version));
    break;
  case CL_DEVICE_OPENCL_C_VERSION: // Deprecated by 3.0: the newest version 1.x programs build with.
    value = InfoValue::string("OpenCL C 1.2 Loom");
    break;
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    value = InfoValue::nameVersions(info.opencl.languages);
    break;
  case CL_DEVICE_OPENCL_C_FEATURES:
    value = InfoValue::nameVersions(info.opencl.features);
    break;
  case CL_DEVICE_EXTENSIONS:
    value = InfoValue::string(info.opencl.extensionString());
    break;
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    value = InfoValue::nameVersions(info.opencl.extensions);
    break;
  case CL_DEVICE_IL_VERSION: // clCreateProgramWithIL is not supported (loomc reads SPIR-V offline).
    value = InfoValue::string("");
    break;
  case CL_DEVICE_ILS_WITH_VERSION:
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    value = InfoValue::nameVersions({});
    break;
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: // Never submitted for conformance.
    value = InfoValue::string("v0000-01-01-00");
    break;
  // OpenCL 3.0's minimum (relaxed atomics and acquire-release fences within a work-group), and the
  // orders and scopes whose OpenCL C features the device has.
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: {
    cl_device_atomic_capabilities capabilities = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    if (param_name == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES)
      capabilities |= CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
    const std::pair<const char *, cl_device_atomic_capabilities> optional[] = {
        {"__opencl_c_atomic_order_acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
        {"__opencl_c_atomic_order_seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
        {"__opencl_c_atomic_scope_device", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
        {"__opencl_c_atomic_scope_all_devices", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES}};
    for (const auto &[feature, capability] : optional)
      if (info.opencl.hasFeature(feature))
        capabilities |= capability;
    value = InfoValue::of<cl_device_atomic_capabilities>(capabilities);
    break;
  }
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    value = InfoValue::of<cl_bool>(info.opencl.hasFeature("__opencl_c_work_group_collective_functions"));
    break;
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: // Both devices run a last, partial group.
    value = InfoValue::of<cl_bool>(CL_TRUE);
    break;
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    value = InfoValue::of<cl_bool>(info.opencl.hasFeature("__opencl_c_generic_address_space"));
    break;
  case CL_DEVICE_PIPE_SUPPORT:
    value = InfoValue::of<cl_bool>(info.opencl.hasFeature("__opencl_c_pipes"));
    break;
  case CL_DEVICE_MAX_PIPE_ARGS:
    value = InfoValue::of<cl_uint>(info.maxPipeArgs);
    break;
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    value = InfoValue::of<cl_uint>(info.maxPipeReservations);
    break;
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    value = InfoValue::of<cl_uint>(info.maxPipePacketBytes);
    break;
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    value = InfoValue::of<cl_device_device_enqueue_capabilities>(0);
    break;
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    value = InfoValue::of<cl_command_queue_properties>(0);
    break;
  case CL_DEVICE_SVM_CAPABILITIES:
    value = InfoValue::of<cl_device_svm_capabilities>(0);
    break;
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    value = InfoValue::of<size_t>(info.preferredGroupMultiple);
    break;
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    value = InfoValue::of<size_t>(info.maxGlobalVariableBytes);
    break;
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: // 0: natural alignment.
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    value = InfoValue::of<cl_uint>(0);
    break;
  case CL_DEVICE_PRINTF_BUFFER_SIZE: // What each launch of a kernel that prints gets.
    value = InfoValue::of<size_t>(loom::lowering::PrintfBufferBytes);
    break;
  case CL_DEVICE_PARENT_DEVICE:
    value = InfoValue::of<cl_device_id>(nullptr);
    break;
  case CL_DEVICE_PARTITION_PROPERTIES:
    value = InfoValue::array(std::vector<cl_device_partition_property>{0});
    break;
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    value = InfoValue::of<cl_device_affinity_domain>(0);
    break;
  case CL_DEVICE_PARTITION_TYPE:
    value = InfoValue::array(std::vector<cl_device_partition_property>{}); // Not a sub-device.
    break;
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: // OpenCL 2.1, and cl_khr_subgroups.
    value = InfoValue::of<cl_uint>(info.subGroupSize ? cl_uint((info.maxWorkGroupSize + info.subGroupSize - 1) / info.subGroupSize) : 0);
    break;
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    value = InfoValue::of<cl_bool>(info.independentSubGroups ? CL_TRUE : CL_FALSE);
    break;
  case CL_DEVICE_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(1); // Root devices are never released.
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE,
                "param_name " + std::to_string(param_name) + " is not an OpenCL 3.0 device query");
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property *properties, cl_uint,
                                      cl_device_id *, cl_uint *) {
  LOOM_ENTRY();
  LOOM_CHECK(lookup<PlatformDevice>(in_device), CL_INVALID_DEVICE, "in_device is not valid");
  LOOM_CHECK(properties, CL_INVALID_VALUE, "properties is NULL");
  return fail(entryPoint, CL_INVALID_VALUE,
              "Loom devices support no partitioning (CL_DEVICE_PARTITION_PROPERTIES is empty)");
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  LOOM_ENTRY();
  LOOM_CHECK(lookup<PlatformDevice>(device), CL_INVALID_DEVICE, "device is not valid");
  return CL_SUCCESS; // Root devices: a no-op, as the spec says.
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  LOOM_ENTRY();
  LOOM_CHECK(lookup<PlatformDevice>(device), CL_INVALID_DEVICE, "device is not valid");
  return CL_SUCCESS;
}
