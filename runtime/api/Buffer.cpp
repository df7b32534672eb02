//===- Buffer.cpp - clCreate[Sub]Buffer[WithProperties], clGetMemObjectInfo, retain/release, image formats ===//
// SPDX-License-Identifier: Apache-2.0
//
// Buffer creation (with or without OpenCL 3.0's properties list) checks the flag combinations and host pointer rules of the spec, then allocates
// through the core (device memory of the context's memory device). A sub-buffer checks its flags
// against its parent's and its region, and shares the parent's memory. Destructor callbacks run when
// the core frees a buffer.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

constexpr cl_mem_flags DeviceAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags HostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags HostPointer = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

int bitsSet(cl_mem_flags flags) { return __builtin_popcountll(flags); }

cl_int checkFlags(const char *entryPoint, cl_mem_flags flags) {
  LOOM_CHECK(!(flags & ~(DeviceAccess | HostAccess | HostPointer)), CL_INVALID_VALUE,
             "unknown cl_mem_flags bits");
  LOOM_CHECK(bitsSet(flags & DeviceAccess) <= 1, CL_INVALID_VALUE,
             "READ_WRITE, WRITE_ONLY and READ_ONLY are mutually exclusive");
  LOOM_CHECK(!((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))),
             CL_INVALID_VALUE, "USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR");
  LOOM_CHECK(bitsSet(flags & HostAccess) <= 1, CL_INVALID_VALUE,
             "HOST_WRITE_ONLY, HOST_READ_ONLY and HOST_NO_ACCESS are mutually exclusive");
  return CL_SUCCESS;
}

/// clCreateBuffer and clCreateBufferWithProperties. OpenCL 3.0 defines no buffer property without
/// an extension, so a properties list may only be empty.
cl_mem createBuffer(const char *entryPoint, cl_context context, const cl_mem_properties *properties,
                    cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  cl_mem result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    LOOM_CHECK(!properties || properties[0] == 0, CL_INVALID_PROPERTY,
               "buffer property " + std::to_string(properties ? properties[0] : 0) +
                   " is not supported (OpenCL 3.0 defines none without an extension)");
    if (cl_int error = checkFlags(entryPoint, flags))
      return error;
    LOOM_CHECK(size > 0, CL_INVALID_BUFFER_SIZE, "size is 0");
    LOOM_CHECK(size <= owner->maxAllocBytes(), CL_INVALID_BUFFER_SIZE,
               "size " + std::to_string(size) + " exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                   std::to_string(owner->maxAllocBytes()));
    bool wantsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    LOOM_CHECK(!(wantsHostPtr && !host_ptr), CL_INVALID_HOST_PTR,
               "USE_HOST_PTR or COPY_HOST_PTR given with a NULL host_ptr");
    LOOM_CHECK(!(!wantsHostPtr && host_ptr), CL_INVALID_HOST_PTR,
               "host_ptr given without USE_HOST_PTR or COPY_HOST_PTR");
    if (!(flags & DeviceAccess))
      flags |= CL_MEM_READ_WRITE; // The default, and what CL_MEM_FLAGS reports.
    auto buffer = Buffer::create(*owner, flags, size, host_ptr);
    if (!buffer)
      return fail(entryPoint, CL_MEM_OBJECT_ALLOCATION_FAILURE, llvm::toString(buffer.takeError()));
    if (properties)
      (*buffer)->rawProperties = {0};
    result = handleOf(*buffer);
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

/// clCreateSubBuffer's flags: checked against the parent's, then completed with what a sub-buffer
/// inherits (the access bits it does not give, the host pointer bits), which CL_MEM_FLAGS reports.
cl_int subBufferFlags(const char *entryPoint, cl_mem_flags parentFlags, cl_mem_flags &flags) {
  if (cl_int error = checkFlags(entryPoint, flags))
    return error;
  LOOM_CHECK(!(flags & HostPointer), CL_INVALID_VALUE,
             "USE_HOST_PTR, ALLOC_HOST_PTR and COPY_HOST_PTR are inherited, not given, by a sub-buffer");
  cl_mem_flags device = flags & DeviceAccess, parentDevice = parentFlags & DeviceAccess;
  LOOM_CHECK(!device || parentDevice == CL_MEM_READ_WRITE || device == parentDevice, CL_INVALID_VALUE,
             "the sub-buffer of a READ_ONLY or WRITE_ONLY buffer asks for other device access");
  cl_mem_flags host = flags & HostAccess, parentHost = parentFlags & HostAccess;
  LOOM_CHECK(!host || !parentHost || host == parentHost || host == CL_MEM_HOST_NO_ACCESS, CL_INVALID_VALUE,
             "the sub-buffer's host access contradicts its parent's HOST_* flag");
  flags |= (device ? 0 : parentDevice) | (host ? 0 : parentHost) | (parentFlags & HostPointer);
  return CL_SUCCESS;
}

} // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret) {
  LOOM_ENTRY();
  return createBuffer(entryPoint, context, nullptr, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
  LOOM_ENTRY();
  return createBuffer(entryPoint, context, properties, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info, cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_mem result = nullptr;
  cl_int status = [&]() -> cl_int {
    Buffer *parent = lookup<Buffer>(buffer);
    LOOM_CHECK(parent && !parent->isPipe(), CL_INVALID_MEM_OBJECT, "buffer is not a valid buffer object");
    LOOM_CHECK(!parent->parent, CL_INVALID_MEM_OBJECT, "buffer is itself a sub-buffer");
    if (cl_int error = subBufferFlags(entryPoint, parent->flags, flags))
      return error;
    LOOM_CHECK(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE,
               "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION");
    LOOM_CHECK(buffer_create_info, CL_INVALID_VALUE, "buffer_create_info is NULL");
    const auto &region = *static_cast<const cl_buffer_region *>(buffer_create_info);
    LOOM_CHECK(region.size, CL_INVALID_BUFFER_SIZE, "the region's size is 0");
    LOOM_CHECK(parent->contains(region.origin, region.size), CL_INVALID_VALUE,
               "the region (origin " + std::to_string(region.origin) + ", size " +
                   std::to_string(region.size) + ") is beyond the buffer's " +
                   std::to_string(parent->size) + " bytes");
    LOOM_CHECK(region.origin % BaseAddressAlignment == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET,
               "origin " + std::to_string(region.origin) + " is not a multiple of " +
                   std::to_string(BaseAddressAlignment) + " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
    result = handleOf(Buffer::createSub(*parent, flags, region.origin, region.size));
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                    void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                                    void *user_data) {
  LOOM_ENTRY();
  Buffer *buffer = lookup<Buffer>(memobj);
  LOOM_CHECK(buffer, CL_INVALID_MEM_OBJECT, "memobj is not valid");
  LOOM_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  buffer->addDestructorCallback([pfn_notify, memobj, user_data] { pfn_notify(memobj, user_data); });
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  LOOM_ENTRY();
  Buffer *buffer = lookup<Buffer>(memobj);
  LOOM_CHECK(buffer, CL_INVALID_MEM_OBJECT, "memobj is not valid");
  buffer->retainUser();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  LOOM_ENTRY();
  Buffer *buffer = lookup<Buffer>(memobj);
  LOOM_CHECK(buffer, CL_INVALID_MEM_OBJECT, "memobj is not valid");
  if (buffer->releaseUser())
    buffer->retire(); // Memory goes when queued commands and kernel arguments let go of it.
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Buffer *buffer = lookup<Buffer>(memobj);
  LOOM_CHECK(buffer, CL_INVALID_MEM_OBJECT, "memobj is not valid");
  InfoValue value;
  switch (param_name) {
  case CL_MEM_TYPE:
    value = InfoValue::of<cl_mem_object_type>(buffer->isPipe() ? CL_MEM_OBJECT_PIPE : CL_MEM_OBJECT_BUFFER);
    break;
  case CL_MEM_FLAGS:
    value = InfoValue::of<cl_mem_flags>(buffer->flags);
    break;
  case CL_MEM_SIZE:
    value = InfoValue::of<size_t>(buffer->size);
    break;
  case CL_MEM_HOST_PTR:
    value = InfoValue::of<void *>(buffer->hostPtr);
    break;
  case CL_MEM_MAP_COUNT:
    value = InfoValue::of<cl_uint>(buffer->mapCount());
    break;
  case CL_MEM_REFERENCE_COUNT:
    value = InfoValue::of<cl_uint>(buffer->userReferenceCount());
    break;
  case CL_MEM_CONTEXT:
    value = InfoValue::of(handleOf(buffer->context.get()));
    break;
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    value = InfoValue::of(handleOf(buffer->parent.get()));
    break;
  case CL_MEM_OFFSET:
    value = InfoValue::of<size_t>(buffer->origin);
    break;
  case CL_MEM_USES_SVM_POINTER:
    value = InfoValue::of<cl_bool>(CL_FALSE);
    break;
  case CL_MEM_PROPERTIES:
    value = InfoValue::array(buffer->rawProperties);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}

// No Loom device supports images (CL_DEVICE_IMAGE_SUPPORT is false), so every query of the image
// formats succeeds with none, as the spec has it for such a context.
cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format *image_formats, cl_uint *num_image_formats) {
  LOOM_ENTRY();
  LOOM_CHECK(lookup<Context>(context), CL_INVALID_CONTEXT, "context is not valid");
  if (cl_int error = checkFlags(entryPoint, flags & ~CL_MEM_KERNEL_READ_AND_WRITE))
    return error;
  switch (image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "image_type " + std::to_string(image_type) + " is not an image type");
  }
  LOOM_CHECK(num_entries || !image_formats, CL_INVALID_VALUE, "num_entries is 0 but image_formats is not NULL");
  if (num_image_formats)
    *num_image_formats = 0;
  return CL_SUCCESS;
}
