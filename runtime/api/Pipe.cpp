//===- Pipe.cpp - clCreatePipe, clGetPipeInfo -----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A pipe is a memory object (core Buffer) that only kernels' pipe arguments may use: the host has no
// access to it, and the buffer commands reject it. Its packet size is checked against the largest
// CL_DEVICE_PIPE_MAX_PACKET_SIZE of the context's devices that have pipes.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

using namespace loom::runtime;
using namespace loom::runtime::api;

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
  LOOM_ENTRY();
  cl_mem result = nullptr;
  cl_int status = [&]() -> cl_int {
    Context *owner = lookup<Context>(context);
    LOOM_CHECK(owner, CL_INVALID_CONTEXT, "context is not valid");
    LOOM_CHECK(!(flags & ~cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_VALUE,
               "a pipe's flags may only be CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS");
    LOOM_CHECK(!properties || properties[0] == 0, CL_INVALID_VALUE,
               "pipe property " + std::to_string(properties ? properties[0] : 0) +
                   " is not supported (OpenCL 3.0 defines none)");
    cl_uint largestPacket = 0;
    for (const PlatformDevice *device : owner->devices)
      largestPacket = std::max(largestPacket, device->info().maxPipePacketBytes);
    LOOM_CHECK(largestPacket, CL_INVALID_OPERATION, "no device of the context supports pipes");
    LOOM_CHECK(pipe_packet_size > 0 && pipe_packet_size <= largestPacket, CL_INVALID_PIPE_SIZE,
               "pipe_packet_size " + std::to_string(pipe_packet_size) + " is not in 1 to " +
                   std::to_string(largestPacket) + " (CL_DEVICE_PIPE_MAX_PACKET_SIZE)");
    LOOM_CHECK(pipe_max_packets > 0, CL_INVALID_PIPE_SIZE, "pipe_max_packets is 0");
    const PipeShape shape{pipe_packet_size, pipe_max_packets};
    LOOM_CHECK(pipeStorageBytes(shape) <= owner->maxAllocBytes(), CL_INVALID_PIPE_SIZE,
               "the pipe's " + std::to_string(pipeStorageBytes(shape)) +
                   " bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE " + std::to_string(owner->maxAllocBytes()));
    auto pipe = Buffer::createPipe(*owner, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, shape);
    if (!pipe)
      return fail(entryPoint, CL_MEM_OBJECT_ALLOCATION_FAILURE, llvm::toString(pipe.takeError()));
    if (properties)
      (*pipe)->rawProperties = {0};
    result = handleOf(*pipe);
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret) {
  LOOM_ENTRY();
  Buffer *object = lookup<Buffer>(pipe);
  LOOM_CHECK(object && object->isPipe(), CL_INVALID_MEM_OBJECT, "pipe is not a valid pipe object");
  InfoValue value;
  switch (param_name) {
  case CL_PIPE_PACKET_SIZE:
    value = InfoValue::of<cl_uint>(object->pipe.packetBytes);
    break;
  case CL_PIPE_MAX_PACKETS:
    value = InfoValue::of<cl_uint>(object->pipe.maxPackets);
    break;
  case CL_PIPE_PROPERTIES:
    value = InfoValue::array(object->rawProperties);
    break;
  default:
    return fail(entryPoint, CL_INVALID_VALUE, "unknown param_name " + std::to_string(param_name));
  }
  return value.copyOut(entryPoint, param_value_size, param_value, param_value_size_ret);
}
