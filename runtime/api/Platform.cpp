//===- Platform.cpp - clGetPlatformIDs, clGetPlatformInfo, the ICD entry points ===//
// SPDX-License-Identifier: Apache-2.0
//
// The functions the library exports (clIcdGetPlatformIDsKHR, clGetPlatformInfo, which ocl-icd looks
// up to check for cl_khr_icd, and the two clGetExtensionFunctionAddress variants) and the platform
// queries.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <CL/cl_ext.h>

#include <cstring>

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {
const std::vector<loom::frontend::NamedVersion> PlatformExtensions = {{"cl_khr_icd"}};
} // namespace

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                    cl_uint *num_platforms) {
  LOOM_ENTRY();
  LOOM_CHECK(!(num_entries == 0 && platforms), CL_INVALID_VALUE,
             "num_entries is 0 but platforms is not NULL");
  LOOM_CHECK(platforms || num_platforms, CL_INVALID_VALUE, "platforms and num_platforms are both NULL");
  if (platforms)
    platforms[0] = handleOf(&Platform::get());
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

extern "C" LOOM_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                 cl_platform_id *platforms,
                                                                 cl_uint *num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

extern "C" LOOM_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  LOOM_ENTRY();
  // A NULL platform means the only one (the behaviour is implementation-defined).
  LOOM_CHECK(!platform || lookup<Platform>(platform), CL_INVALID_PLATFORM, "platform is not valid");
  InfoValue value;
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    value = InfoValue::string("FULL_PROFILE");
    break;
  case CL_PLATFORM_VERSION:
    value = InfoValue::string("OpenCL 3.0 Loom " LOOM_VERSION);
    break;
  case CL_PLATFORM_NUMERIC_VERSION:
    value = InfoValue::of<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    break;
  case CL_PLATFORM_NAME:
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    value = InfoValue::string("Loom");
    break;
  case CL_PLATFORM_VENDOR:
    value = InfoValue::string("The Loom project");
    break;
  case CL_PLATFORM_EXTENSIONS:
    value = InfoValue::string(PlatformExtensions.front().name.str());
    break;
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    value = InfoValue::nameVersions(PlatformExtensions);
    break;
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    value = InfoValue::of<cl_ulong>(0); // No clGetHostTimer: optional in OpenCL 3.0.
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

extern "C" LOOM_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  if (func_name && std::strcmp(func_name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  if (func_name && std::strcmp(func_name, "clGetKernelSubGroupInfoKHR") == 0)
    return reinterpret_cast<void *>(&clGetKernelSubGroupInfo); // The same signature and queries.
  return nullptr;
}

extern "C" LOOM_EXPORT void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name) {
  if (!lookup<Platform>(platform))
    return nullptr;
  return clGetExtensionFunctionAddress(func_name);
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  LOOM_ENTRY();
  LOOM_CHECK(lookup<Platform>(platform), CL_INVALID_PLATFORM, "platform is not valid");
  return CL_SUCCESS;
}
