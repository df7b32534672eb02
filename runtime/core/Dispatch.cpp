//===- Dispatch.cpp - The cl_icd_dispatch table, in Khronos slot order -----===//
// SPDX-License-Identifier: Apache-2.0
//
// The one table every handle points at. The ICD loader calls each cl* function through the handle's
// table, so slots must follow CL/cl_icd.h exactly: they are filled below in that order, one line per
// slot. Slots Loom does not implement get a function of the slot's own type that returns
// CL_INVALID_OPERATION (or NULL with *errcode_ret set), so a call never lands on a wrong signature.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <CL/cl_icd.h>

#include <cstddef>
#include <type_traits>

namespace loom::runtime {
namespace {

constexpr size_t SlotCount = sizeof(cl_icd_dispatch) / sizeof(void *);
/// Slot names, for the LOOM_DEBUG message of an unimplemented call.
const char *slotNames[SlotCount];

template <typename T> struct IsErrcode : std::false_type {};
template <> struct IsErrcode<cl_int *> : std::true_type {};

/// The last argument if it is a cl_int* (errcode_ret comes last in every creating entry point).
template <typename... Args> cl_int *errcodeOf(Args... args) {
  cl_int *result = nullptr;
  ((result = [](auto arg) -> cl_int * {
     if constexpr (IsErrcode<decltype(arg)>::value)
       return arg;
     else
       return nullptr;
   }(args)),
   ...);
  return result;
}

template <typename Fn, size_t Slot> struct Unimplemented;
template <typename R, typename... Args, size_t Slot> struct Unimplemented<R(CL_API_CALL *)(Args...), Slot> {
  static R CL_API_CALL call(Args... args) {
    api::fail(slotNames[Slot], CL_INVALID_OPERATION, "not implemented by Loom");
    if constexpr (std::is_same_v<R, cl_int>) {
      ((void)args, ...);
      return CL_INVALID_OPERATION;
    } else if constexpr (std::is_pointer_v<R>) {
      if (cl_int *errcode = errcodeOf(args...))
        *errcode = CL_INVALID_OPERATION;
      return nullptr;
    } else {
      ((void)args, ...);
      return R();
    }
  }
};

/// Fills a slot Loom does not implement. Slots for other platforms' APIs (Direct3D on Linux) are
/// plain `void *` and stay NULL.
template <size_t Slot, typename Fn> void unimplemented(Fn &slot, const char *name) {
  slotNames[Slot] = name;
  if constexpr (std::is_pointer_v<Fn> && std::is_function_v<std::remove_pointer_t<Fn>>)
    slot = &Unimplemented<Fn, Slot>::call;
  else
    slot = nullptr;
}

#define LOOM_UNIMPLEMENTED(name)                                                                     \
  unimplemented<offsetof(cl_icd_dispatch, name) / sizeof(void *)>(t.name, #name)

cl_icd_dispatch makeTable() {
  cl_icd_dispatch t{};
  t.clGetPlatformIDs = &::clGetPlatformIDs;
  t.clGetPlatformInfo = &::clGetPlatformInfo;
  t.clGetDeviceIDs = &::clGetDeviceIDs;
  t.clGetDeviceInfo = &::clGetDeviceInfo;
  t.clCreateContext = &::clCreateContext;
  t.clCreateContextFromType = &::clCreateContextFromType;
  t.clRetainContext = &::clRetainContext;
  t.clReleaseContext = &::clReleaseContext;
  t.clGetContextInfo = &::clGetContextInfo;
  t.clCreateCommandQueue = &::clCreateCommandQueue;
  t.clRetainCommandQueue = &::clRetainCommandQueue;
  t.clReleaseCommandQueue = &::clReleaseCommandQueue;
  t.clGetCommandQueueInfo = &::clGetCommandQueueInfo;
  LOOM_UNIMPLEMENTED(clSetCommandQueueProperty);
  t.clCreateBuffer = &::clCreateBuffer;
  LOOM_UNIMPLEMENTED(clCreateImage2D);
  LOOM_UNIMPLEMENTED(clCreateImage3D);
  t.clRetainMemObject = &::clRetainMemObject;
  t.clReleaseMemObject = &::clReleaseMemObject;
  t.clGetSupportedImageFormats = &::clGetSupportedImageFormats;
  t.clGetMemObjectInfo = &::clGetMemObjectInfo;
  LOOM_UNIMPLEMENTED(clGetImageInfo);
  LOOM_UNIMPLEMENTED(clCreateSampler);
  LOOM_UNIMPLEMENTED(clRetainSampler);
  LOOM_UNIMPLEMENTED(clReleaseSampler);
  LOOM_UNIMPLEMENTED(clGetSamplerInfo);
  t.clCreateProgramWithSource = &::clCreateProgramWithSource;
  t.clCreateProgramWithBinary = &::clCreateProgramWithBinary;
  t.clRetainProgram = &::clRetainProgram;
  t.clReleaseProgram = &::clReleaseProgram;
  t.clBuildProgram = &::clBuildProgram;
  t.clUnloadCompiler = &::clUnloadCompiler;
  t.clGetProgramInfo = &::clGetProgramInfo;
  t.clGetProgramBuildInfo = &::clGetProgramBuildInfo;
  t.clCreateKernel = &::clCreateKernel;
  t.clCreateKernelsInProgram = &::clCreateKernelsInProgram;
  t.clRetainKernel = &::clRetainKernel;
  t.clReleaseKernel = &::clReleaseKernel;
  t.clSetKernelArg = &::clSetKernelArg;
  t.clGetKernelInfo = &::clGetKernelInfo;
  t.clGetKernelWorkGroupInfo = &::clGetKernelWorkGroupInfo;
  t.clWaitForEvents = &::clWaitForEvents;
  t.clGetEventInfo = &::clGetEventInfo;
  t.clRetainEvent = &::clRetainEvent;
  t.clReleaseEvent = &::clReleaseEvent;
  t.clGetEventProfilingInfo = &::clGetEventProfilingInfo;
  t.clFlush = &::clFlush;
  t.clFinish = &::clFinish;
  t.clEnqueueReadBuffer = &::clEnqueueReadBuffer;
  t.clEnqueueWriteBuffer = &::clEnqueueWriteBuffer;
  t.clEnqueueCopyBuffer = &::clEnqueueCopyBuffer;
  LOOM_UNIMPLEMENTED(clEnqueueReadImage);
  LOOM_UNIMPLEMENTED(clEnqueueWriteImage);
  LOOM_UNIMPLEMENTED(clEnqueueCopyImage);
  LOOM_UNIMPLEMENTED(clEnqueueCopyImageToBuffer);
  LOOM_UNIMPLEMENTED(clEnqueueCopyBufferToImage);
  t.clEnqueueMapBuffer = &::clEnqueueMapBuffer;
  LOOM_UNIMPLEMENTED(clEnqueueMapImage);
  t.clEnqueueUnmapMemObject = &::clEnqueueUnmapMemObject;
  t.clEnqueueNDRangeKernel = &::clEnqueueNDRangeKernel;
  t.clEnqueueTask = &::clEnqueueTask;
  LOOM_UNIMPLEMENTED(clEnqueueNativeKernel);
  t.clEnqueueMarker = &::clEnqueueMarker;
  t.clEnqueueWaitForEvents = &::clEnqueueWaitForEvents;
  t.clEnqueueBarrier = &::clEnqueueBarrier;
  t.clGetExtensionFunctionAddress = &::clGetExtensionFunctionAddress;
  LOOM_UNIMPLEMENTED(clCreateFromGLBuffer);
  LOOM_UNIMPLEMENTED(clCreateFromGLTexture2D);
  LOOM_UNIMPLEMENTED(clCreateFromGLTexture3D);
  LOOM_UNIMPLEMENTED(clCreateFromGLRenderbuffer);
  LOOM_UNIMPLEMENTED(clGetGLObjectInfo);
  LOOM_UNIMPLEMENTED(clGetGLTextureInfo);
  LOOM_UNIMPLEMENTED(clEnqueueAcquireGLObjects);
  LOOM_UNIMPLEMENTED(clEnqueueReleaseGLObjects);
  LOOM_UNIMPLEMENTED(clGetGLContextInfoKHR);
  LOOM_UNIMPLEMENTED(clGetDeviceIDsFromD3D10KHR);
  LOOM_UNIMPLEMENTED(clCreateFromD3D10BufferKHR);
  LOOM_UNIMPLEMENTED(clCreateFromD3D10Texture2DKHR);
  LOOM_UNIMPLEMENTED(clCreateFromD3D10Texture3DKHR);
  LOOM_UNIMPLEMENTED(clEnqueueAcquireD3D10ObjectsKHR);
  LOOM_UNIMPLEMENTED(clEnqueueReleaseD3D10ObjectsKHR);
  t.clSetEventCallback = &::clSetEventCallback;
  t.clCreateSubBuffer = &::clCreateSubBuffer;
  t.clSetMemObjectDestructorCallback = &::clSetMemObjectDestructorCallback;
  t.clCreateUserEvent = &::clCreateUserEvent;
  t.clSetUserEventStatus = &::clSetUserEventStatus;
  t.clEnqueueReadBufferRect = &::clEnqueueReadBufferRect;
  t.clEnqueueWriteBufferRect = &::clEnqueueWriteBufferRect;
  t.clEnqueueCopyBufferRect = &::clEnqueueCopyBufferRect;
  LOOM_UNIMPLEMENTED(clCreateSubDevicesEXT);
  LOOM_UNIMPLEMENTED(clRetainDeviceEXT);
  LOOM_UNIMPLEMENTED(clReleaseDeviceEXT);
  LOOM_UNIMPLEMENTED(clCreateEventFromGLsyncKHR);
  t.clCreateSubDevices = &::clCreateSubDevices;
  t.clRetainDevice = &::clRetainDevice;
  t.clReleaseDevice = &::clReleaseDevice;
  LOOM_UNIMPLEMENTED(clCreateImage);
  t.clCreateProgramWithBuiltInKernels = &::clCreateProgramWithBuiltInKernels;
  t.clCompileProgram = &::clCompileProgram;
  t.clLinkProgram = &::clLinkProgram;
  t.clUnloadPlatformCompiler = &::clUnloadPlatformCompiler;
  t.clGetKernelArgInfo = &::clGetKernelArgInfo;
  t.clEnqueueFillBuffer = &::clEnqueueFillBuffer;
  LOOM_UNIMPLEMENTED(clEnqueueFillImage);
  t.clEnqueueMigrateMemObjects = &::clEnqueueMigrateMemObjects;
  t.clEnqueueMarkerWithWaitList = &::clEnqueueMarkerWithWaitList;
  t.clEnqueueBarrierWithWaitList = &::clEnqueueBarrierWithWaitList;
  LOOM_UNIMPLEMENTED(clGetExtensionFunctionAddressForPlatform);
  LOOM_UNIMPLEMENTED(clCreateFromGLTexture);
  LOOM_UNIMPLEMENTED(clGetDeviceIDsFromD3D11KHR);
  LOOM_UNIMPLEMENTED(clCreateFromD3D11BufferKHR);
  LOOM_UNIMPLEMENTED(clCreateFromD3D11Texture2DKHR);
  LOOM_UNIMPLEMENTED(clCreateFromD3D11Texture3DKHR);
  LOOM_UNIMPLEMENTED(clCreateFromDX9MediaSurfaceKHR);
  LOOM_UNIMPLEMENTED(clEnqueueAcquireD3D11ObjectsKHR);
  LOOM_UNIMPLEMENTED(clEnqueueReleaseD3D11ObjectsKHR);
  LOOM_UNIMPLEMENTED(clGetDeviceIDsFromDX9MediaAdapterKHR);
  LOOM_UNIMPLEMENTED(clEnqueueAcquireDX9MediaSurfacesKHR);
  LOOM_UNIMPLEMENTED(clEnqueueReleaseDX9MediaSurfacesKHR);
  LOOM_UNIMPLEMENTED(clCreateFromEGLImageKHR);
  LOOM_UNIMPLEMENTED(clEnqueueAcquireEGLObjectsKHR);
  LOOM_UNIMPLEMENTED(clEnqueueReleaseEGLObjectsKHR);
  LOOM_UNIMPLEMENTED(clCreateEventFromEGLSyncKHR);
  t.clCreateCommandQueueWithProperties = &::clCreateCommandQueueWithProperties;
  t.clCreatePipe = &::clCreatePipe;
  t.clGetPipeInfo = &::clGetPipeInfo;
  LOOM_UNIMPLEMENTED(clSVMAlloc);
  LOOM_UNIMPLEMENTED(clSVMFree);
  LOOM_UNIMPLEMENTED(clEnqueueSVMFree);
  LOOM_UNIMPLEMENTED(clEnqueueSVMMemcpy);
  LOOM_UNIMPLEMENTED(clEnqueueSVMMemFill);
  LOOM_UNIMPLEMENTED(clEnqueueSVMMap);
  LOOM_UNIMPLEMENTED(clEnqueueSVMUnmap);
  LOOM_UNIMPLEMENTED(clCreateSamplerWithProperties);
  LOOM_UNIMPLEMENTED(clSetKernelArgSVMPointer);
  LOOM_UNIMPLEMENTED(clSetKernelExecInfo);
  t.clGetKernelSubGroupInfoKHR = &::clGetKernelSubGroupInfo; // The same signature and queries.
  t.clCloneKernel = &::clCloneKernel;
  LOOM_UNIMPLEMENTED(clCreateProgramWithIL);
  LOOM_UNIMPLEMENTED(clEnqueueSVMMigrateMem);
  LOOM_UNIMPLEMENTED(clGetDeviceAndHostTimer);
  LOOM_UNIMPLEMENTED(clGetHostTimer);
  t.clGetKernelSubGroupInfo = &::clGetKernelSubGroupInfo;
  LOOM_UNIMPLEMENTED(clSetDefaultDeviceCommandQueue);
  LOOM_UNIMPLEMENTED(clSetProgramReleaseCallback);
  LOOM_UNIMPLEMENTED(clSetProgramSpecializationConstant);
  t.clCreateBufferWithProperties = &::clCreateBufferWithProperties;
  LOOM_UNIMPLEMENTED(clCreateImageWithProperties);
  t.clSetContextDestructorCallback = &::clSetContextDestructorCallback;
  return t;
}

} // namespace

const void *icdDispatchTable() {
  static const cl_icd_dispatch table = makeTable();
  return &table;
}

} // namespace loom::runtime
