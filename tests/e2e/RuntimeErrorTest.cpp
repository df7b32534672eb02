// SPDX-License-Identifier: Apache-2.0
// End-to-end failure paths through the ICD loader: build errors with file:line:col in the log, a
// corrupted binary, wrong kernel arguments, invalid handles (NULL, a fake handle carrying Loom's
// dispatch pointer but nothing else, a released object), missing arguments, a failed user event
// poisoning its dependants, and the work-size checks.
#include "E2ESupport.h"

#include <cstring>
#include <regex>

using namespace e2e;

TEST_CASE("a syntax error fails the build with file:line:col in the log", "[e2e][runtime][errors]") {
  CpuSetup cl;
  const char *source = "__kernel void broken(__global int *out) {\n"
                       "  out[0] = 1\n"
                       "}\n";
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clBuildProgram(program, 1, &cl.device, "", nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  std::string log = buildLog(program, cl.device);
  INFO(log);
  // Program source is named "program.cl" in diagnostics.
  CHECK(std::regex_search(log, std::regex("program\\.cl:2:[0-9]+: error:")));
  cl_build_status status = CL_BUILD_NONE;
  REQUIRE(clGetProgramBuildInfo(program, cl.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status == CL_BUILD_ERROR);
  CHECK(clCreateKernel(program, "broken", &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(program);
}

TEST_CASE("what the CPU device cannot run is a readable build error", "[e2e][runtime][errors]") {
  CpuSetup cl;
  auto failLog = [&](const char *source) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
    std::string log = buildLog(program, cl.device);
    clReleaseProgram(program);
    return log;
  };
  std::string missing = failLog("float helper(float);\n__kernel void k(__global float *p) {\n  p[0] = 1;\n"
                                "  p[1] = helper(p[1]);\n}\n");
  CHECK_THAT(missing, Catch::Contains("undefined function 'helper'"));
  CHECK_THAT(missing, Catch::Contains("program.cl:4:"));
  // Recursion in a kernel with a barrier: an error, where inlining it never ended.
  CHECK_THAT(failLog("int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
                     "__kernel void k(__global int *a) {\n  int v = fib(a[0]);\n"
                     "  barrier(CLK_GLOBAL_MEM_FENCE);\n  a[1] = v;\n}\n"),
             Catch::Contains("'fib' is called recursively from kernel 'k', which OpenCL C forbids"));
  cl_int err = CL_SUCCESS;
  const char *source = VectorAdd;
  cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &err);
  CHECK(clBuildProgram(program, 0, nullptr, "-fno-such-option", nullptr, nullptr) == CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(program);
}

TEST_CASE("a corrupted binary is CL_INVALID_BINARY with a readable log", "[e2e][runtime][errors]") {
  CpuSetup cl;
  cl_program built = cl.build(VectorAdd);
  std::string binary = programBinary(built);
  size_t size = binary.size();
  binary[size / 2] ^= 0x5a; // Inside a section: the checksum no longer matches.

  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(binary.data());
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program bad = clCreateProgramWithBinary(cl.context, 1, &cl.device, &size, &bytes, &status, &err);
  CHECK(err == CL_INVALID_BINARY);
  CHECK(status == CL_INVALID_BINARY);
  REQUIRE(bad != nullptr); // Loom returns the object so the log can say why.
  std::string log = buildLog(bad, cl.device);
  INFO(log);
  CHECK(log.size() > 10);
  CHECK(log.find('\0') == std::string::npos);
  CHECK(clBuildProgram(bad, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_BINARY);
  clReleaseProgram(bad);

  const unsigned char garbage[] = "definitely not an ELF file";
  const unsigned char *garbagePointer = garbage;
  size_t garbageSize = sizeof garbage;
  bad = clCreateProgramWithBinary(cl.context, 1, &cl.device, &garbageSize, &garbagePointer, &status, &err);
  CHECK(err == CL_INVALID_BINARY);
  CHECK_FALSE(buildLog(bad, cl.device).empty());
  clReleaseProgram(bad);
  size_t zero = 0;
  CHECK(clCreateProgramWithBinary(cl.context, 1, &cl.device, &zero, &garbagePointer, &status, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  clReleaseProgram(built);
}

TEST_CASE("clSetKernelArg checks index, size and value", "[e2e][runtime][errors]") {
  CpuSetup cl;
  cl_program program = cl.build("__kernel void k(__global float *p, int n, __local float *t) {"
                                " p[0] = n; }\n");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clCreateKernel(program, "nope", &err) == nullptr);
  CHECK(err == CL_INVALID_KERNEL_NAME);
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 16, nullptr, &err);
  const int n = 3;
  const long long wide = 3;
  CHECK(clSetKernelArg(kernel, 1, sizeof wide, &wide) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(kernel, 0, sizeof(int), &buffer) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(kernel, 3, sizeof n, &n) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArg(kernel, 1, sizeof n, nullptr) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(kernel, 2, 0, nullptr) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(kernel, 2, 16, &n) == CL_INVALID_ARG_VALUE);
  cl_mem notABuffer = reinterpret_cast<cl_mem>(kernel);
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &notABuffer) == CL_INVALID_MEM_OBJECT);

  // Missing arguments.
  const size_t global = 4;
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffer) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof n, &n) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);
  REQUIRE(clSetKernelArg(kernel, 2, 16, nullptr) == CL_SUCCESS);

  // Work sizes.
  const size_t three = 3, zero = 0, huge = 1 << 20;
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 0, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_INVALID_WORK_DIMENSION);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &zero, nullptr, 0, nullptr, nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, &three, 0, nullptr, nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &huge, &huge, 0, nullptr, nullptr) == CL_INVALID_WORK_ITEM_SIZE);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 1, nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(cl.queue) == CL_SUCCESS);

  size_t reported = 0;
  REQUIRE(clGetKernelWorkGroupInfo(kernel, cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof reported, &reported, nullptr) == CL_SUCCESS);
  CHECK(reported > 0);
  cl_kernel_arg_address_qualifier space = 0;
  REQUIRE(clGetKernelArgInfo(kernel, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, nullptr) == CL_SUCCESS);
  CHECK(space == CL_KERNEL_ARG_ADDRESS_LOCAL);
  char name[16] = {};
  REQUIRE(clGetKernelArgInfo(kernel, 1, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
  CHECK(std::string(name) == "n");
  CHECK(clGetKernelArgInfo(kernel, 9, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_INVALID_ARG_INDEX);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("invalid handles get the spec's CL_INVALID_* code", "[e2e][runtime][errors]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  // A fake handle: the loader needs a dispatch pointer to reach Loom, the rest is zero.
  struct Fake {
    void *dispatch;
    unsigned char zeros[512];
  };
  static Fake fake;
  std::memset(&fake, 0, sizeof fake);
  std::memcpy(&fake.dispatch, cl.context, sizeof(void *));
  cl_uint count = 0;
  size_t size = 0;

  CHECK(clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clGetContextInfo(reinterpret_cast<cl_context>(&fake), CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clRetainCommandQueue(reinterpret_cast<cl_command_queue>(&fake)) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseMemObject(reinterpret_cast<cl_mem>(&fake)) == CL_INVALID_MEM_OBJECT);
  CHECK(clBuildProgram(reinterpret_cast<cl_program>(&fake), 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clReleaseKernel(reinterpret_cast<cl_kernel>(&fake)) == CL_INVALID_KERNEL);
  cl_event fakeEvent = reinterpret_cast<cl_event>(&fake);
  CHECK(clWaitForEvents(1, &fakeEvent) == CL_INVALID_EVENT);
  CHECK(clGetDeviceInfo(reinterpret_cast<cl_device_id>(&fake), CL_DEVICE_TYPE, 0, nullptr, &size) == CL_INVALID_DEVICE);
  // A handle of the wrong family.
  CHECK(clRetainContext(reinterpret_cast<cl_context>(cl.queue)) == CL_INVALID_CONTEXT);
  CHECK(clCreateBuffer(reinterpret_cast<cl_context>(cl.queue), 0, 16, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);

  // Released objects.
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 16, nullptr, &err);
  REQUIRE(clReleaseMemObject(buffer) == CL_SUCCESS);
  CHECK(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(buffer) == CL_INVALID_MEM_OBJECT);
  cl_event user = clCreateUserEvent(cl.context, &err);
  REQUIRE(clReleaseEvent(user) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(user, CL_COMPLETE) == CL_INVALID_EVENT);
  cl_command_queue queue = clCreateCommandQueue(cl.context, cl.device, 0, &err);
  REQUIRE(clReleaseCommandQueue(queue) == CL_SUCCESS);
  CHECK(clFinish(queue) == CL_INVALID_COMMAND_QUEUE);
  cl_context context = clCreateContext(nullptr, 1, &cl.device, nullptr, nullptr, &err);
  REQUIRE(clReleaseContext(context) == CL_SUCCESS);
  CHECK(clCreateCommandQueue(context, cl.device, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);

  // Argument checks on valid handles.
  CHECK(clCreateBuffer(cl.context, 0, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateBuffer(cl.context, CL_MEM_USE_HOST_PTR, 16, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_HOST_PTR);
  CHECK(clCreateCommandQueue(cl.context, cl.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
  CHECK(clGetDeviceIDs(loomPlatform(), 0, 1, nullptr, &count) == CL_INVALID_DEVICE_TYPE);
  CHECK(clWaitForEvents(0, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("a failed dependency fails the commands waiting on it", "[e2e][runtime][errors]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(cl.context, &err);
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 16, nullptr, &err);
  int value = 0;
  cl_event read = nullptr;
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_FALSE, 0, sizeof value, &value, 1, &gate, &read) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(gate, -1234) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &read) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status < 0);
  CHECK(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, sizeof value, &value, 1, &gate, nullptr) ==
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(read);
  clReleaseEvent(gate);
  clReleaseMemObject(buffer);
}

TEST_CASE("a failed launch fails its event and the commands after it", "[e2e][runtime][errors]") {
  CpuSetup cl;
  cl_program program = cl.build("__kernel void k(__global int *p, __local int *t) { t[0] = 1; p[0] = t[0]; }\n");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 16, nullptr, &err);
  cl_ulong localBytes = 0;
  REQUIRE(clGetDeviceInfo(cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof localBytes, &localBytes, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffer) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, size_t(localBytes) * 2, nullptr) == CL_SUCCESS); // More than the device has.
  cl_event launch = nullptr;
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &one, nullptr, 0, nullptr, &launch) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &launch) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(launch, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status == CL_OUT_OF_RESOURCES);
  int value = 0;
  CHECK(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr) ==
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clFinish(cl.queue) == CL_SUCCESS);
  clReleaseEvent(launch);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("reqd_work_group_size holds in every dimension, also those a launch leaves out", "[e2e][runtime][errors]") {
  CpuSetup cl;
  // The device builds the loops over a group's work-items for exactly the required size.
  cl_program program = cl.build("__kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
                                "void k(__global int *out) {\n"
                                "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
                                "      100 * (get_local_id(1) * get_local_size(0) + get_local_id(0))\n"
                                "      + 10 * get_local_size(1) + get_local_size(0);\n"
                                "}\n");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<int> host(16, -1);
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(int),
                                 host.data(), &err);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffer) == CL_SUCCESS);
  const size_t four = 4, global1[] = {16}, global2[] = {8, 2}, local2[] = {4, 2};
  // One dimension: its groups have one work-item in dimension 1, not the 2 the kernel requires.
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, global1, &four, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, global1, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 2, nullptr, global2, local2, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, host.size() * sizeof(int), host.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  for (size_t y = 0; y < 2; ++y)
    for (size_t x = 0; x < 8; ++x)
      CHECK(host[y * 8 + x] == int(100 * (y * 4 + x % 4) + 24));
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}
