// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of the CPU device through the ICD loader: platform and device queries, vector_add
// of 1M floats from source against the host result, profiling, 2D/offset launches, binaries,
// user events and callbacks, out-of-order queues (and how many threads they take), sub-buffers, memory object destructor callbacks,
// rect transfers, queue order when waiting threads run commands.
#include "E2ESupport.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <CL/cl_ext.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

using namespace e2e;

TEST_CASE("the Loom platform and its devices answer every query", "[e2e][runtime]") {
  cl_platform_id platform = loomPlatform();
  CHECK(platformString(platform, CL_PLATFORM_VERSION) == "OpenCL 3.0 Loom 0.1.0");
  CHECK(platformString(platform, CL_PLATFORM_PROFILE) == "FULL_PROFILE");
  CHECK(platformString(platform, CL_PLATFORM_EXTENSIONS) == "cl_khr_icd");
  CHECK(platformString(platform, 0x0920 /* CL_PLATFORM_ICD_SUFFIX_KHR */) == "Loom");

  cl_uint count = 0;
  REQUIRE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) == CL_SUCCESS);
  REQUIRE(count >= 1);
  std::vector<cl_device_id> devices(count);
  REQUIRE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr) == CL_SUCCESS);
  cl_device_id first = nullptr;
  cl_uint defaults = 0;
  REQUIRE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &first, &defaults) == CL_SUCCESS);
  CHECK(defaults == 1);
  CHECK(first == devices[0]);
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &first, nullptr) == CL_DEVICE_NOT_FOUND);

  cl_device_id cpu = cpuDevice();
  CHECK(deviceString(cpu, CL_DEVICE_NAME).rfind("Loom CPU (", 0) == 0);
  // The version and this build's hash, so binary caches keyed by it see a rebuilt Loom as new.
  const std::string driver = deviceString(cpu, CL_DRIVER_VERSION);
  INFO(driver);
  CHECK(driver.rfind("0.1.0+", 0) == 0);
  CHECK(driver.size() > 6);
  CHECK(driver.find_first_not_of("0123456789abcdef", 6) == std::string::npos);
  cl_device_fp_config fp = 0;
  REQUIRE(clGetDeviceInfo(cpu, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr) == CL_SUCCESS);
  CHECK((fp & CL_FP_DENORM) != 0);
  CHECK((fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0);
  cl_bool images = CL_TRUE;
  REQUIRE(clGetDeviceInfo(cpu, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr) == CL_SUCCESS);
  CHECK(images == CL_FALSE);

  const cl_device_info queries[] = {
      CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_COMPUTE_UNITS, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
      CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CL_DEVICE_MAX_CLOCK_FREQUENCY, CL_DEVICE_ADDRESS_BITS,
      CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_LOCAL_MEM_SIZE,
      CL_DEVICE_LOCAL_MEM_TYPE, CL_DEVICE_QUEUE_PROPERTIES, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
      CL_DEVICE_DOUBLE_FP_CONFIG, CL_DEVICE_MEM_BASE_ADDR_ALIGN, CL_DEVICE_PLATFORM, CL_DEVICE_VERSION,
      CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_EXTENSIONS, CL_DEVICE_COMPILER_AVAILABLE,
      CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT,
      CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_PRINTF_BUFFER_SIZE, CL_DEVICE_HOST_UNIFIED_MEMORY};
  for (cl_device_id device : devices)
    for (cl_device_info query : queries) {
      size_t size = 0;
      INFO("device query 0x" << std::hex << query);
      CHECK(clGetDeviceInfo(device, query, 0, nullptr, &size) == CL_SUCCESS);
    }
  CHECK(clGetDeviceInfo(cpu, 0x7fff, 0, nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("vector_add of 1M floats on the CPU device matches the host", "[e2e][runtime]") {
  CpuSetup cl(CL_QUEUE_PROFILING_ENABLE);
  cl_program program = cl.build(VectorAdd);
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  REQUIRE(err == CL_SUCCESS);

  const size_t n = 1 << 20;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = std::sin(float(i));
  }
  const size_t bytes = n * sizeof(float);
  cl_mem da = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem db = clCreateBuffer(cl.context, CL_MEM_READ_ONLY, bytes, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem dc = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clEnqueueWriteBuffer(cl.queue, db, CL_FALSE, 0, bytes, b.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc) == CL_SUCCESS);

  cl_ulong best = ~cl_ulong(0);
  for (int run = 0; run < 5; ++run) {
    cl_event done = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &done) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    cl_ulong start = 0, end = 0;
    REQUIRE(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
    CHECK(end > start);
    if (run > 0)
      best = std::min(best, end - start);
    REQUIRE(clReleaseEvent(done) == CL_SUCCESS);
  }
  REQUIRE(clEnqueueReadBuffer(cl.queue, dc, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += c[i] != a[i] + b[i];
  CHECK(wrong == 0);
  std::printf("vector_add 1M floats on the CPU device: %.3f ms, %.2f GB/s\n", best / 1e6,
              3.0 * bytes / double(best));

  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("profiling timestamps are ordered and only available when enabled", "[e2e][runtime]") {
  cl_int err = CL_SUCCESS;
  SECTION("without CL_QUEUE_PROFILING_ENABLE") {
    CpuSetup cl;
    cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 64, nullptr, &err);
    cl_event event = nullptr;
    const int pattern = 7;
    REQUIRE(clEnqueueFillBuffer(cl.queue, buffer, &pattern, sizeof pattern, 0, 64, 0, nullptr, &event) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &event) == CL_SUCCESS);
    cl_ulong stamp = 0;
    CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof stamp, &stamp, nullptr) ==
          CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(event);
    clReleaseMemObject(buffer);
  }
  SECTION("with CL_QUEUE_PROFILING_ENABLE") {
    CpuSetup cl(CL_QUEUE_PROFILING_ENABLE);
    cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 1 << 20, nullptr, &err);
    cl_event event = nullptr;
    const int pattern = 7;
    REQUIRE(clEnqueueFillBuffer(cl.queue, buffer, &pattern, sizeof pattern, 0, 1 << 20, 0, nullptr, &event) == CL_SUCCESS);
    REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
    cl_ulong stamps[4] = {};
    const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; ++i)
      REQUIRE(clGetEventProfilingInfo(event, names[i], sizeof(cl_ulong), &stamps[i], nullptr) == CL_SUCCESS);
    CHECK(stamps[0] <= stamps[1]);
    CHECK(stamps[1] <= stamps[2]);
    CHECK(stamps[2] <= stamps[3]);
    cl_int status = 0;
    REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_FILL_BUFFER);
    std::vector<int> back(1 << 18);
    REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, 1 << 20, back.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(back.front() == 7);
    CHECK(back.back() == 7);
    clReleaseEvent(event);
    clReleaseMemObject(buffer);
  }
}

TEST_CASE("2D launches with offsets, local sizes, scalars and __local arguments", "[e2e][runtime]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void fill(__global int *out, int width, int bias, __local int *scratch) {
  size_t x = get_global_id(0), y = get_global_id(1);
  scratch[get_local_id(0)] = (int)(get_group_id(0) * 1000 + get_local_size(0));
  out[y * width + x] = (int)(y * 100 + x) + bias + scratch[get_local_id(0)] * 0 + (int)get_work_dim() * 0;
}
)");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "fill", &err);
  REQUIRE(err == CL_SUCCESS);
  const int width = 16, height = 12;
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, width * height * sizeof(int), nullptr, &err);
  const int minusOne = -1;
  REQUIRE(clEnqueueFillBuffer(cl.queue, out, &minusOne, sizeof(int), 0, width * height * sizeof(int), 0, nullptr, nullptr) == CL_SUCCESS);
  const int bias = 5;
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(cl_mem), &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof(int), &width) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 2, sizeof(int), &bias) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 3, 64 * sizeof(int), nullptr) == CL_SUCCESS);
  const size_t offset[2] = {4, 2}, global[2] = {8, 6}, local[2] = {4, 3};
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 2, offset, global, local, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<int> result(width * height);
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, result.size() * sizeof(int), result.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      bool inside = x >= 4 && x < 12 && y >= 2 && y < 8;
      INFO("x=" << x << " y=" << y);
      CHECK(result[y * width + x] == (inside ? y * 100 + x + bias : -1));
    }
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("wide vectors and structs by value, however clSetKernelArg's copy is aligned", "[e2e][runtime]") {
  // A short16 (32 bytes), long16 (128), char3 and a struct holding a float16 (64-byte aligned) by
  // value: the device reads each from its copy of the argument's bytes, which need not be aligned
  // as the type is (read with its natural alignment, a short16 faulted: CTS basic vector_swizzle).
  CpuSetup cl;
  cl_program program = cl.build(R"(
typedef struct { float16 lanes; int tag; } Wide;
__kernel void sums(short16 s, __global long *out, long16 l, char3 c, Wide w) {
  out[0] = s.s0 + s.sf + s.s7;
  out[1] = l.s0 + l.sf + l.s9;
  out[2] = c.x + c.y * 10 + c.z * 100;
  out[3] = (long)(w.lanes.s0 + w.lanes.sf) + w.tag;
}
)");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "sums", &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_long), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_short16 s{};
  cl_long16 l{};
  for (int i = 0; i < 16; ++i) {
    s.s[i] = cl_short(i * 3 - 7);
    l.s[i] = cl_long(i) << 40;
  }
  cl_char3 c{};
  c.s[0] = 1;
  c.s[1] = 2;
  c.s[2] = 3;
  struct alignas(64) Wide {
    cl_float lanes[16];
    cl_int tag;
  } w{};
  w.lanes[0] = 1.5f;
  w.lanes[15] = 2.5f;
  w.tag = 7;
  REQUIRE(clSetKernelArg(kernel, 0, sizeof s, &s) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 2, sizeof l, &l) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 3, sizeof c, &c) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 4, sizeof w, &w) == CL_SUCCESS);
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  cl_long result[4] = {};
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, sizeof result, result, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(result[0] == (-7) + 38 + 14);
  CHECK(result[1] == (0L + (15L << 40) + (9L << 40)));
  CHECK(result[2] == 321);
  CHECK(result[3] == 4 + 7);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("__local variables and arguments aligned as their types, up to a long16's 128 bytes", "[e2e][runtime]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
typedef struct { char c; long16 v; } Padded;
__kernel void where(__global ulong *out, __local long16 *argument) {
  __local char byte;
  __local Padded padded;
  byte = 1;
  out[0] = (ulong)&padded.v % 128;
  out[1] = (ulong)argument % 128;
  out[2] = byte;
}
)");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "where", &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong), nullptr, &err);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(cl_mem), &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, 3 * sizeof(cl_long16), nullptr) == CL_SUCCESS);
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  cl_ulong result[3] = {};
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, sizeof result, result, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(result[0] == 0);
  CHECK(result[1] == 0);
  CHECK(result[2] == 1);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("a program binary from the CPU device loads and runs again", "[e2e][runtime]") {
  CpuSetup cl;
  cl_program built = cl.build(VectorAdd);
  const std::string binary = programBinary(built);
  size_t size = binary.size();
  REQUIRE(size > 0);
  CHECK(binary.compare(0, 4, "\x7f" "ELF") == 0);

  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(binary.data());
  cl_int status = -1, err = CL_SUCCESS;
  cl_program loaded = clCreateProgramWithBinary(cl.context, 1, &cl.device, &size, &bytes, &status, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(status == CL_SUCCESS);
  REQUIRE(clBuildProgram(loaded, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  size_t kernels = 0;
  REQUIRE(clGetProgramInfo(loaded, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) == CL_SUCCESS);
  CHECK(kernels == 1);
  char names[64] = {};
  REQUIRE(clGetProgramInfo(loaded, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr) == CL_SUCCESS);
  CHECK(std::string(names) == "vector_add");

  cl_kernel kernel = clCreateKernel(loaded, "vector_add", &err);
  REQUIRE(err == CL_SUCCESS);
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4] = {};
  cl_mem da = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem db = clCreateBuffer(cl.context, CL_MEM_USE_HOST_PTR, sizeof b, b, &err);
  cl_mem dc = clCreateBuffer(cl.context, CL_MEM_ALLOC_HOST_PTR, sizeof c, nullptr, &err);
  clSetKernelArg(kernel, 0, sizeof(cl_mem), &da);
  clSetKernelArg(kernel, 1, sizeof(cl_mem), &db);
  clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc);
  REQUIRE(clEnqueueTask(cl.queue, kernel, 0, nullptr, nullptr) == CL_SUCCESS);
  const size_t rest = 3, offset = 1;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, &offset, &rest, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  auto *mapped = static_cast<float *>(clEnqueueMapBuffer(cl.queue, dc, CL_TRUE, CL_MAP_READ, 0, sizeof c, 0, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(mapped[0] == 11);
  CHECK(mapped[3] == 44);
  cl_uint maps = 0;
  REQUIRE(clGetMemObjectInfo(dc, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr) == CL_SUCCESS);
  CHECK(maps == 1);
  REQUIRE(clEnqueueUnmapMemObject(cl.queue, dc, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(cl.queue, dc, mapped, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  REQUIRE(clEnqueueCopyBuffer(cl.queue, dc, da, 0, 0, sizeof c, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(cl.queue, da, CL_TRUE, 0, sizeof c, c, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(c[2] == 33);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(kernel);
  clReleaseProgram(loaded);
  clReleaseProgram(built);
}

namespace {
void CL_CALLBACK countCallback(cl_event, cl_int status, void *data) {
  if (status == CL_COMPLETE)
    ++*static_cast<int *>(data);
}
} // namespace

TEST_CASE("user events gate commands, callbacks run, markers and barriers order", "[e2e][runtime]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(cl.context, &err);
  REQUIRE(err == CL_SUCCESS);
  int value = 0;
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, sizeof value, nullptr, &err);
  const int one = 1;
  cl_event write = nullptr, marker = nullptr;
  REQUIRE(clEnqueueWriteBuffer(cl.queue, buffer, CL_FALSE, 0, sizeof one, &one, 1, &gate, &write) == CL_SUCCESS);
  REQUIRE(clEnqueueMarkerWithWaitList(cl.queue, 0, nullptr, &marker) == CL_SUCCESS);
  REQUIRE(clEnqueueBarrierWithWaitList(cl.queue, 0, nullptr, nullptr) == CL_SUCCESS);
  int completions = 0;
  REQUIRE(clSetEventCallback(marker, CL_COMPLETE, countCallback, &completions) == CL_SUCCESS);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status > CL_COMPLETE); // Still waiting for the gate.
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE) == CL_INVALID_OPERATION);
  REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(value == 1);
  CHECK(completions == 1);
  cl_command_queue queueOfUser = reinterpret_cast<cl_command_queue>(1);
  REQUIRE(clGetEventInfo(gate, CL_EVENT_COMMAND_QUEUE, sizeof queueOfUser, &queueOfUser, nullptr) == CL_SUCCESS);
  CHECK(queueOfUser == nullptr);
  clReleaseEvent(write);
  clReleaseEvent(marker);
  clReleaseEvent(gate);
  clReleaseMemObject(buffer);
}

TEST_CASE("an out-of-order queue runs what is ready, and its markers and barriers order", "[e2e][runtime]") {
  CpuSetup cl(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_command_queue_properties properties = 0;
  REQUIRE(clGetCommandQueueInfo(cl.queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr) ==
          CL_SUCCESS);
  CHECK(properties == CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(cl.context, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem gated = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, sizeof(int), nullptr, &err);
  cl_mem free = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, sizeof(int), nullptr, &err);
  const int one = 1, two = 2;
  cl_event first = nullptr, second = nullptr, marker = nullptr, barrier = nullptr, after = nullptr;
  REQUIRE(clEnqueueWriteBuffer(cl.queue, gated, CL_FALSE, 0, sizeof one, &one, 1, &gate, &first) == CL_SUCCESS);
  // Enqueued later, waits for nothing: it runs while the first still waits for the gate.
  REQUIRE(clEnqueueWriteBuffer(cl.queue, free, CL_FALSE, 0, sizeof two, &two, 0, nullptr, &second) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &second) == CL_SUCCESS);
  REQUIRE(clEnqueueMarkerWithWaitList(cl.queue, 0, nullptr, &marker) == CL_SUCCESS);
  REQUIRE(clEnqueueBarrierWithWaitList(cl.queue, 0, nullptr, &barrier) == CL_SUCCESS);
  int seen = 0;
  REQUIRE(clEnqueueReadBuffer(cl.queue, gated, CL_FALSE, 0, sizeof seen, &seen, 0, nullptr, &after) == CL_SUCCESS);
  auto status = [](cl_event event) {
    cl_int value = 0;
    REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof value, &value, nullptr) == CL_SUCCESS);
    return value;
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // The marker and barrier wait for the gated write; the read after the barrier waits for them.
  CHECK(status(first) > CL_COMPLETE);
  CHECK(status(marker) > CL_COMPLETE);
  CHECK(status(after) > CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
  for (cl_event event : {first, second, marker, barrier, after}) {
    CHECK(status(event) == CL_COMPLETE);
    clReleaseEvent(event);
  }
  CHECK(seen == 1);
  clReleaseEvent(gate);
  clReleaseMemObject(gated);
  clReleaseMemObject(free);
}

/// The process's threads now, from /proc/self/status.
int threadCount() {
  std::FILE *status = std::fopen("/proc/self/status", "r");
  REQUIRE(status != nullptr);
  char line[256];
  int threads = -1;
  while (std::fgets(line, sizeof line, status))
    if (std::sscanf(line, "Threads: %d", &threads) == 1)
      break;
  std::fclose(status);
  return threads;
}

TEST_CASE("an out-of-order queue holds no thread for a waiting command, and a bounded number for ready ones",
          "[e2e][runtime]") {
  CpuSetup cl(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(cl.context, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem cell = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, sizeof(int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  // A chain of 20,000 writes behind the gate: each waits for the one before (a thread each would
  // exhaust the process's threads).
  constexpr int Chain = 20000;
  std::vector<int> values(Chain);
  cl_event previous = gate;
  clRetainEvent(gate);
  const int before = threadCount();
  for (int i = 0; i < Chain; ++i) {
    values[i] = i;
    cl_event written = nullptr;
    REQUIRE(clEnqueueWriteBuffer(cl.queue, cell, CL_FALSE, 0, sizeof(int), &values[i], 1, &previous, &written) ==
            CL_SUCCESS);
    clReleaseEvent(previous);
    previous = written;
  }
  CHECK(threadCount() - before < 8);
  // Thousands ready at once, each waiting for nothing: they run, on at most a few hundred threads.
  cl_mem others = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 5000 * sizeof(int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<int> ones(5000, 1);
  for (int i = 0; i < 5000; ++i)
    REQUIRE(clEnqueueWriteBuffer(cl.queue, others, CL_FALSE, i * sizeof(int), sizeof(int), &ones[i], 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  CHECK(threadCount() - before <= 256 + 8);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &previous) == CL_SUCCESS);
  REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
  int last = -1;
  REQUIRE(clEnqueueReadBuffer(cl.queue, cell, CL_TRUE, 0, sizeof last, &last, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(last == Chain - 1);
  std::vector<int> written(5000, 0);
  REQUIRE(clEnqueueReadBuffer(cl.queue, others, CL_TRUE, 0, 5000 * sizeof(int), written.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(std::count(written.begin(), written.end(), 1) == 5000);
  clReleaseEvent(previous);
  clReleaseEvent(gate);
  clReleaseMemObject(cell);
  clReleaseMemObject(others);
}

TEST_CASE("sub-groups through the ICD: the extension, the device and kernel queries, a kernel's view", "[e2e][runtime]") {
  CpuSetup cl;
  std::string extensions = deviceString(cl.device, CL_DEVICE_EXTENSIONS);
  for (const char *extension : {"cl_khr_subgroups", "cl_khr_global_int32_base_atomics",
                                "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics"})
    CHECK_THAT(extensions, Catch::Contains(extension));
  size_t maxWorkGroup = 0;
  REQUIRE(clGetDeviceInfo(cl.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxWorkGroup, &maxWorkGroup, nullptr) == CL_SUCCESS);
  cl_uint maxSubGroups = 0;
  REQUIRE(clGetDeviceInfo(cl.device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof maxSubGroups, &maxSubGroups, nullptr) == CL_SUCCESS);
  CHECK(maxSubGroups > 0);

  cl_program program = cl.build(R"(
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void view(__global uint *out) {
  size_t g = get_global_id(0);
  out[3 * g] = get_max_sub_group_size();
  out[3 * g + 1] = get_num_sub_groups();
  out[3 * g + 2] = sub_group_reduce_add(1u);
})");
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "view", &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t local = 20;
  size_t maxSize = 0, count = 0, written = 0;
  REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                  sizeof maxSize, &maxSize, &written) == CL_SUCCESS);
  CHECK(written == sizeof(size_t));
  CHECK(maxSize > 1);
  CHECK(maxSize <= local);
  REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local,
                                  sizeof count, &count, nullptr) == CL_SUCCESS);
  CHECK(count == (local + maxSize - 1) / maxSize);
  size_t kernelMax = 0;
  REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof kernelMax,
                                  &kernelMax, nullptr) == CL_SUCCESS);
  CHECK(kernelMax == maxSubGroups);
  const size_t wanted = 3;
  size_t forCount[2] = {};
  REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof wanted, &wanted,
                                  sizeof forCount, forCount, nullptr) == CL_SUCCESS);
  CHECK(forCount[0] == 3 * maxSize);
  CHECK(forCount[1] == 1);
  const size_t tooMany = maxWorkGroup; // maxWorkGroup sub-groups of more than one work-item do not fit.
  REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof tooMany, &tooMany,
                                  sizeof forCount, forCount, nullptr) == CL_SUCCESS);
  CHECK(forCount[0] == 0);
  CHECK(forCount[1] == 0);
  // The cl_khr_subgroups spelling answers the same.
  auto khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(loomPlatform(), "clGetKernelSubGroupInfoKHR"));
  REQUIRE(khr != nullptr);
  size_t khrCount = 0;
  REQUIRE(khr(kernel, cl.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local, sizeof khrCount,
              &khrCount, nullptr) == CL_SUCCESS);
  CHECK(khrCount == count);
  // Bad input: no local size, a zero in it, an unknown query.
  CHECK(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, nullptr, sizeof count,
                                &count, nullptr) == CL_INVALID_VALUE);
  const size_t zero[2] = {4, 0};
  CHECK(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof zero, zero,
                                sizeof count, &count, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetKernelSubGroupInfo(kernel, cl.device, 0x7fff, sizeof local, &local, sizeof count, &count, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetKernelSubGroupInfo(nullptr, cl.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof count, &count,
                                nullptr) == CL_INVALID_KERNEL);

  // What the kernel sees matches the queries.
  const size_t global = 2 * local;
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, 3 * global * sizeof(cl_uint), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<cl_uint> seen(3 * global);
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, seen.size() * sizeof(cl_uint), seen.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (size_t g = 0; g < global; ++g) {
    INFO("work-item " << g);
    CHECK(seen[3 * g] == maxSize);
    CHECK(seen[3 * g + 1] == count);
    const size_t inSubGroup = g % local / maxSize;
    CHECK(seen[3 * g + 2] == std::min(maxSize, local - inSubGroup * maxSize));
  }
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

namespace {

cl_mem subBuffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int *err) {
  const cl_buffer_region region{origin, size};
  return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
}

template <typename T> T memInfo(cl_mem mem, cl_mem_info what) {
  T value{};
  REQUIRE(clGetMemObjectInfo(mem, what, sizeof value, &value, nullptr) == CL_SUCCESS);
  return value;
}

/// The host's model of a rect copy: `region` from (`from`, its origin and pitches) to `to`.
struct Pitched {
  size_t origin[3], rowPitch, slicePitch;
  size_t at(size_t x, size_t y, size_t z) const {
    return (origin[2] + z) * slicePitch + (origin[1] + y) * rowPitch + origin[0] + x;
  }
};
void referenceRect(std::vector<unsigned char> &to, const Pitched &target, const std::vector<unsigned char> &from,
                   const Pitched &source, const size_t region[3]) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        to.at(target.at(x, y, z)) = from.at(source.at(x, y, z));
}

std::vector<unsigned char> pattern(size_t size, unsigned seed) {
  std::vector<unsigned char> bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<unsigned char>(i * 7 + seed);
  return bytes;
}

/// Destructor callbacks append their user_data's id here.
std::vector<int> destroyed;
std::vector<cl_mem> destroyedHandles;
void CL_CALLBACK recordDestruction(cl_mem memobj, void *id) {
  destroyed.push_back(static_cast<int>(reinterpret_cast<intptr_t>(id)));
  destroyedHandles.push_back(memobj);
}
void *idOf(intptr_t id) { return reinterpret_cast<void *>(id); }

} // namespace

TEST_CASE("sub-buffer kernel args", "[e2e][runtime][subbuffer]") {
  CpuSetup cl;
  cl_program program = cl.build(VectorAdd);
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  REQUIRE(err == CL_SUCCESS);

  // Both inputs in one buffer (b at 1024 bytes); the output 512 bytes into a buffer of -1s.
  const size_t n = 200, bOrigin = 1024, cOrigin = 512, total = 1024;
  std::vector<float> inputs(bOrigin / sizeof(float) + n);
  for (size_t i = 0; i < n; ++i) {
    inputs[i] = float(i);
    inputs[bOrigin / sizeof(float) + i] = 0.5f * float(i);
  }
  cl_mem in = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, inputs.size() * sizeof(float),
                             inputs.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<float> outputs(total, -1.0f);
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total * sizeof(float),
                              outputs.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem a = subBuffer(in, 0, 0, n * sizeof(float), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem b = subBuffer(in, 0, bOrigin, n * sizeof(float), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem c = subBuffer(out, CL_MEM_WRITE_ONLY, cOrigin, n * sizeof(float), &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof a, &a) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof b, &b) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 2, sizeof c, &c) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, total * sizeof(float), outputs.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < total; ++i) {
    size_t item = i - cOrigin / sizeof(float);
    wrong += outputs[i] != (i >= cOrigin / sizeof(float) && item < n ? 1.5f * float(item) : -1.0f);
  }
  CHECK(wrong == 0);

  // Reads, writes, fills, copies and maps of a sub-buffer land at the parent's origin + offset.
  const float seven = 7.0f;
  REQUIRE(clEnqueueFillBuffer(cl.queue, c, &seven, sizeof seven, 4 * sizeof(float), 2 * sizeof(float), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueCopyBuffer(cl.queue, b, c, 0, 0, sizeof(float) * 2, 0, nullptr, nullptr) == CL_SUCCESS);
  const float nine = 9.0f;
  REQUIRE(clEnqueueWriteBuffer(cl.queue, c, CL_TRUE, 8 * sizeof(float), sizeof nine, &nine, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  float *mapped = static_cast<float *>(clEnqueueMapBuffer(cl.queue, c, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                          n * sizeof(float), 0, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(mapped[0] == 0.0f);
  CHECK(mapped[1] == 0.5f);
  CHECK(mapped[2] == 3.0f);
  CHECK(mapped[4] == 7.0f);
  CHECK(mapped[5] == 7.0f);
  CHECK(mapped[7] == 10.5f);
  CHECK(mapped[8] == 9.0f);
  mapped[9] = 42.0f;
  REQUIRE(clEnqueueUnmapMemObject(cl.queue, c, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
  float parentValue = 0;
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, cOrigin + 9 * sizeof(float), sizeof parentValue, &parentValue,
                              0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(parentValue == 42.0f);
  CHECK(clEnqueueReadBuffer(cl.queue, c, CL_TRUE, 4, n * sizeof(float), outputs.data(), 0, nullptr, nullptr) ==
        CL_INVALID_VALUE); // Bounded by the sub-buffer, not the parent.

  // A sub-buffer outlives its parent's last release.
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  float first = -1;
  REQUIRE(clEnqueueReadBuffer(cl.queue, c, CL_TRUE, 0, sizeof first, &first, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(first == 0.0f);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("sub-buffer info", "[e2e][runtime][subbuffer]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  std::vector<unsigned char> host(4096);
  cl_mem parent = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, host.size(), host.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem sub = subBuffer(parent, CL_MEM_HOST_READ_ONLY, 256, 1000, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memInfo<cl_mem_object_type>(sub, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
  CHECK(memInfo<cl_mem_flags>(sub, CL_MEM_FLAGS) == (CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY));
  CHECK(memInfo<size_t>(sub, CL_MEM_SIZE) == 1000);
  CHECK(memInfo<size_t>(sub, CL_MEM_OFFSET) == 256);
  CHECK(memInfo<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
  CHECK(memInfo<void *>(sub, CL_MEM_HOST_PTR) == host.data() + 256);
  CHECK(memInfo<cl_context>(sub, CL_MEM_CONTEXT) == cl.context);
  CHECK(memInfo<cl_uint>(sub, CL_MEM_REFERENCE_COUNT) == 1);
  CHECK(memInfo<size_t>(parent, CL_MEM_OFFSET) == 0);
  CHECK(memInfo<cl_mem>(parent, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
  size_t propertiesSize = 1;
  REQUIRE(clGetMemObjectInfo(sub, CL_MEM_PROPERTIES, 0, nullptr, &propertiesSize) == CL_SUCCESS);
  CHECK(propertiesSize == 0);
  // USE_HOST_PTR on the CPU device: a map of the sub-buffer is the application's memory at origin + offset.
  void *mapped = clEnqueueMapBuffer(cl.queue, sub, CL_TRUE, CL_MAP_READ, 16, 32, 0, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(mapped == host.data() + 256 + 16);
  CHECK(memInfo<cl_uint>(sub, CL_MEM_MAP_COUNT) == 1);
  REQUIRE(clEnqueueUnmapMemObject(cl.queue, sub, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
  // The host access flags it inherited or gave apply to it.
  const int value = 1;
  CHECK(clEnqueueWriteBuffer(cl.queue, sub, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);

  cl_mem plain = clCreateBuffer(cl.context, CL_MEM_HOST_WRITE_ONLY, 512, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem plainSub = subBuffer(plain, CL_MEM_READ_ONLY, 128, 128, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memInfo<void *>(plainSub, CL_MEM_HOST_PTR) == nullptr);
  CHECK(memInfo<cl_mem_flags>(plainSub, CL_MEM_FLAGS) == (CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  clReleaseMemObject(plainSub);
  clReleaseMemObject(plain);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
}

TEST_CASE("sub-buffer errors", "[e2e][runtime][subbuffer][errors]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  auto make = [&](cl_mem_flags flags) {
    cl_mem mem = clCreateBuffer(cl.context, flags, 1024, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    return mem;
  };
  auto failure = [&](cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
    err = CL_SUCCESS;
    CHECK(subBuffer(parent, flags, origin, size, &err) == nullptr);
    return err;
  };
  cl_mem parent = make(CL_MEM_READ_WRITE);
  CHECK(failure(nullptr, 0, 0, 128) == CL_INVALID_MEM_OBJECT);
  cl_mem sub = subBuffer(parent, 0, 128, 256, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(failure(sub, 0, 0, 128) == CL_INVALID_MEM_OBJECT); // No sub-buffers of sub-buffers.
  CHECK(failure(parent, 0, 4, 128) == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  CHECK(failure(parent, 0, 0, 0) == CL_INVALID_BUFFER_SIZE);
  CHECK(failure(parent, 0, 0, 1025) == CL_INVALID_VALUE);
  CHECK(failure(parent, 0, 896, 129) == CL_INVALID_VALUE);
  CHECK(failure(parent, 0, 2048, 1) == CL_INVALID_VALUE);
  CHECK(failure(parent, 0, 128, SIZE_MAX) == CL_INVALID_VALUE);
  for (cl_mem_flags hostPointer : {CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR})
    CHECK(failure(parent, hostPointer, 0, 128) == CL_INVALID_VALUE);
  CHECK(failure(parent, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, 128) == CL_INVALID_VALUE);
  CHECK(failure(parent, cl_mem_flags(1) << 40, 0, 128) == CL_INVALID_VALUE);
  const cl_buffer_region region{0, 128};
  CHECK(clCreateSubBuffer(parent, 0, 0x7fff, &region, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);

  // Device access may only narrow a READ_ONLY or WRITE_ONLY parent's; host access likewise.
  const std::pair<cl_mem_flags, cl_mem_flags> contradictions[] = {
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY},          {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE},
      {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY},          {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE},
      {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY}, {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY}, {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY}};
  for (auto [parentFlags, flags] : contradictions) {
    INFO("parent flags " << parentFlags << ", sub-buffer flags " << flags);
    cl_mem other = make(parentFlags);
    CHECK(failure(other, flags, 0, 128) == CL_INVALID_VALUE);
    clReleaseMemObject(other);
  }
  cl_mem writeOnly = make(CL_MEM_WRITE_ONLY), hostReadOnly = make(CL_MEM_HOST_READ_ONLY);
  cl_mem narrowed = subBuffer(writeOnly, CL_MEM_WRITE_ONLY, 0, 128, &err);
  CHECK(err == CL_SUCCESS);
  cl_mem noAccess = subBuffer(hostReadOnly, CL_MEM_HOST_NO_ACCESS, 0, 128, &err);
  CHECK(err == CL_SUCCESS);
  int value = 0;
  CHECK(clEnqueueReadBuffer(cl.queue, noAccess, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);

  for (cl_mem mem : {noAccess, narrowed, sub, parent, writeOnly, hostReadOnly})
    clReleaseMemObject(mem);
}

TEST_CASE("mem destructor callbacks", "[e2e][runtime][subbuffer]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  destroyed.clear();
  destroyedHandles.clear();
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 256, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clSetMemObjectDestructorCallback(nullptr, recordDestruction, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetMemObjectDestructorCallback(buffer, nullptr, nullptr) == CL_INVALID_VALUE);
  for (intptr_t id : {1, 2, 3})
    REQUIRE(clSetMemObjectDestructorCallback(buffer, recordDestruction, idOf(id)) == CL_SUCCESS);

  // A write waiting on a user event, and a kernel argument, hold the buffer past its release.
  cl_program program = cl.build(VectorAdd);
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof buffer, &buffer) == CL_SUCCESS);
  cl_event gate = clCreateUserEvent(cl.context, &err);
  REQUIRE(err == CL_SUCCESS);
  const int value = 5;
  REQUIRE(clEnqueueWriteBuffer(cl.queue, buffer, CL_FALSE, 0, sizeof value, &value, 1, &gate, nullptr) == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(buffer) == CL_SUCCESS);
  CHECK(clSetMemObjectDestructorCallback(buffer, recordDestruction, idOf(4)) == CL_INVALID_MEM_OBJECT);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
  CHECK(destroyed.empty()); // The kernel still holds it.
  REQUIRE(clReleaseKernel(kernel) == CL_SUCCESS);
  CHECK(destroyed == std::vector<int>{3, 2, 1});
  CHECK(destroyedHandles == std::vector<cl_mem>(3, buffer));

  // A sub-buffer keeps its parent: the sub-buffer's callbacks run first, when it goes.
  destroyed.clear();
  cl_mem parent = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 1024, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem sub = subBuffer(parent, 0, 512, 512, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetMemObjectDestructorCallback(parent, recordDestruction, idOf(10)) == CL_SUCCESS);
  REQUIRE(clSetMemObjectDestructorCallback(sub, recordDestruction, idOf(20)) == CL_SUCCESS);
  REQUIRE(clRetainMemObject(parent) == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(parent) == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(parent) == CL_SUCCESS);
  CHECK(destroyed.empty());
  REQUIRE(clReleaseMemObject(sub) == CL_SUCCESS);
  CHECK(destroyed == std::vector<int>{20, 10});
  clReleaseEvent(gate);
  clReleaseProgram(program);
}

TEST_CASE("rect read and write", "[e2e][runtime][rect]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  const size_t size = 1000;
  std::vector<unsigned char> device = pattern(size, 3);
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, device.data(), &err);
  REQUIRE(err == CL_SUCCESS);

  SECTION("3D, explicit pitches") {
    const Pitched inBuffer{{3, 2, 1}, 24, 240}, inHost{{1, 1, 1}, 12, 12 * 7};
    const size_t region[3] = {8, 5, 2};
    std::vector<unsigned char> host(12 * 7 * 3, 0xee), want = host;
    referenceRect(want, inHost, device, inBuffer, region);
    cl_event read = nullptr;
    REQUIRE(clEnqueueReadBufferRect(cl.queue, buffer, CL_FALSE, inBuffer.origin, inHost.origin, region, 24, 240, 12,
                                    12 * 7, host.data(), 0, nullptr, &read) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &read) == CL_SUCCESS);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(read, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_READ_BUFFER_RECT);
    clReleaseEvent(read);
    CHECK(host == want);

    std::vector<unsigned char> source = pattern(host.size(), 100);
    referenceRect(device, inBuffer, source, inHost, region);
    REQUIRE(clEnqueueWriteBufferRect(cl.queue, buffer, CL_TRUE, inBuffer.origin, inHost.origin, region, 24, 240, 12,
                                     12 * 7, source.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  }
  SECTION("2D, default pitches") {
    // Pitches of 0 are region[0] and region[1] rows, on both sides.
    const size_t region[3] = {10, 6, 1}, bufferOrigin[3] = {4, 3, 0}, hostOrigin[3] = {2, 1, 0};
    const Pitched inBuffer{{4, 3, 0}, 10, 60}, inHost{{2, 1, 0}, 10, 60};
    std::vector<unsigned char> host(10 * 8, 0xee), want = host;
    referenceRect(want, inHost, device, inBuffer, region);
    REQUIRE(clEnqueueReadBufferRect(cl.queue, buffer, CL_TRUE, bufferOrigin, hostOrigin, region, 0, 0, 0, 0,
                                    host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(host == want);

    std::vector<unsigned char> source = pattern(host.size(), 50);
    referenceRect(device, inBuffer, source, inHost, region);
    cl_event write = nullptr;
    REQUIRE(clEnqueueWriteBufferRect(cl.queue, buffer, CL_FALSE, bufferOrigin, hostOrigin, region, 0, 0, 0, 0,
                                     source.data(), 0, nullptr, &write) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &write) == CL_SUCCESS);
    clReleaseEvent(write);
  }
  std::vector<unsigned char> got(size);
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, size, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(got == device);
  clReleaseMemObject(buffer);
}

TEST_CASE("rect copy", "[e2e][runtime][rect]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  std::vector<unsigned char> from = pattern(2000, 1), to = pattern(3000, 2);
  cl_mem source = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, from.size(), from.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem target = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, to.size(), to.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  auto contents = [&](cl_mem mem, size_t size) {
    std::vector<unsigned char> bytes(size);
    REQUIRE(clEnqueueReadBuffer(cl.queue, mem, CL_TRUE, 0, size, bytes.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return bytes;
  };

  // 3D between two buffers, explicit pitches on one side and defaults on the other.
  const Pitched src{{5, 1, 2}, 30, 300}, dst{{2, 3, 1}, 9, 9 * 4};
  const size_t region[3] = {9, 4, 3};
  referenceRect(to, dst, from, src, region);
  cl_event copy = nullptr;
  REQUIRE(clEnqueueCopyBufferRect(cl.queue, source, target, src.origin, dst.origin, region, 30, 300, 0, 0, 0, nullptr,
                                  &copy) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &copy) == CL_SUCCESS);
  clReleaseEvent(copy);
  CHECK(contents(target, to.size()) == to);

  // Within one buffer: rows that interleave without sharing a byte copy; ones that share a byte do not.
  const Pitched left{{0, 0, 0}, 32, 32 * 8}, right{{16, 1, 1}, 32, 32 * 8};
  const size_t narrow[3] = {16, 6, 2};
  referenceRect(to, right, to, left, narrow);
  REQUIRE(clEnqueueCopyBufferRect(cl.queue, target, target, left.origin, right.origin, narrow, 32, 256, 32, 256, 0,
                                  nullptr, nullptr) == CL_SUCCESS);
  CHECK(contents(target, to.size()) == to);
  const size_t shifted[3] = {15, 1, 1}, wide[3] = {17, 6, 2};
  CHECK(clEnqueueCopyBufferRect(cl.queue, target, target, left.origin, right.origin, wide, 32, 256, 32, 256, 0,
                                nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBufferRect(cl.queue, target, target, left.origin, shifted, narrow, 32, 256, 32, 256, 0, nullptr,
                                nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBufferRect(cl.queue, target, target, left.origin, right.origin, narrow, 32, 256, 64, 512, 0,
                                nullptr, nullptr) == CL_INVALID_VALUE); // One buffer, two pitches.

  // Pitches given as 0 take their defaults (region[0], region[1] rows) before the overlap rule: columns
  // side by side in rows of 40 bytes share bytes when packed. The CTS's basic bufferreadwriterect
  // judges its zero-pitch copies with the buffer's own pitches instead (KhronosGroup/OpenCL-CTS#2765).
  const Pitched beside{{2, 1, 0}, 40, 40 * 8}, across{{20, 1, 0}, 40, 40 * 8};
  const size_t column[3] = {4, 6, 1};
  CHECK(clEnqueueCopyBufferRect(cl.queue, target, target, beside.origin, across.origin, column, 0, 0, 0, 0, 0,
                                nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  referenceRect(to, across, to, beside, column);
  REQUIRE(clEnqueueCopyBufferRect(cl.queue, target, target, beside.origin, across.origin, column, beside.rowPitch,
                                  beside.slicePitch, across.rowPitch, across.slicePitch, 0, nullptr,
                                  nullptr) == CL_SUCCESS);
  CHECK(contents(target, to.size()) == to);

  // Sub-buffers of one buffer overlap where their bytes do, for rect and 1D copies alike.
  cl_mem low = subBuffer(target, 0, 0, 1024, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem high = subBuffer(target, 0, 512, 1024, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t at512[3] = {512, 0, 0}, at0[3] = {0, 0, 0}, at600[3] = {600, 0, 0}, row[3] = {64, 1, 1};
  CHECK(clEnqueueCopyBufferRect(cl.queue, low, high, at512, at0, row, 0, 0, 0, 0, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(cl.queue, low, high, 520, 0, 64, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(cl.queue, high, target, 0, 560, 64, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  REQUIRE(clEnqueueCopyBufferRect(cl.queue, low, high, at600, at0, row, 0, 0, 0, 0, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  std::copy(to.begin() + 600, to.begin() + 664, to.begin() + 512);
  CHECK(contents(target, to.size()) == to);

  clReleaseMemObject(low);
  clReleaseMemObject(high);
  clReleaseMemObject(source);
  clReleaseMemObject(target);
}

TEST_CASE("rect errors", "[e2e][runtime][rect][errors]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 1000, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<unsigned char> host(4000);
  const size_t zero[3] = {0, 0, 0}, region[3] = {10, 10, 2};
  auto read = [&](cl_mem mem, const size_t *origin, const size_t *extent, size_t rowPitch, size_t slicePitch,
                  size_t hostRowPitch, size_t hostSlicePitch, void *ptr) {
    return clEnqueueReadBufferRect(cl.queue, mem, CL_TRUE, origin, zero, extent, rowPitch, slicePitch, hostRowPitch,
                                   hostSlicePitch, ptr, 0, nullptr, nullptr);
  };
  CHECK(read(buffer, zero, region, 0, 0, 0, 0, host.data()) == CL_SUCCESS);
  const size_t flat[3] = {10, 0, 1};
  CHECK(read(buffer, zero, flat, 0, 0, 0, 0, host.data()) == CL_INVALID_VALUE);
  CHECK(read(buffer, zero, nullptr, 0, 0, 0, 0, host.data()) == CL_INVALID_VALUE);
  CHECK(read(buffer, zero, region, 0, 0, 0, 0, nullptr) == CL_INVALID_VALUE);
  CHECK(read(buffer, zero, region, 9, 0, 0, 0, host.data()) == CL_INVALID_VALUE);    // Row pitch < width.
  CHECK(read(buffer, zero, region, 0, 0, 8, 0, host.data()) == CL_INVALID_VALUE);    // Host row pitch < width.
  CHECK(read(buffer, zero, region, 10, 90, 0, 0, host.data()) == CL_INVALID_VALUE);  // Slice < 10 rows.
  CHECK(read(buffer, zero, region, 10, 105, 0, 0, host.data()) == CL_INVALID_VALUE); // Not a row multiple.
  CHECK(read(buffer, zero, region, 0, 0, 12, 130, host.data()) == CL_INVALID_VALUE); // Host slice: not a multiple.
  CHECK(read(buffer, zero, region, 0, 900, 0, 0, host.data()) == CL_SUCCESS);       // Ends at byte 1000.
  CHECK(read(buffer, zero, region, 0, 910, 0, 0, host.data()) == CL_INVALID_VALUE); // Ends past it.
  const size_t origin[3] = {0, 0, 9}, huge[3] = {0, SIZE_MAX / 2, 0};
  CHECK(read(buffer, origin, region, 0, 0, 0, 0, host.data()) == CL_INVALID_VALUE);
  CHECK(read(buffer, huge, region, 0, 0, 0, 0, host.data()) == CL_INVALID_VALUE); // Wraps around.
  CHECK(read(nullptr, zero, region, 0, 0, 0, 0, host.data()) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReadBufferRect(cl.queue, buffer, CL_TRUE, zero, zero, region, 0, 0, 0, 0, host.data(), 1, nullptr,
                                nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueCopyBufferRect(cl.queue, buffer, buffer, zero, origin, region, 0, 0, 0, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);

  // Host access flags.
  cl_mem noAccess = clCreateBuffer(cl.context, CL_MEM_HOST_NO_ACCESS, 1000, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem readOnly = clCreateBuffer(cl.context, CL_MEM_HOST_READ_ONLY, 1000, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(read(noAccess, zero, region, 0, 0, 0, 0, host.data()) == CL_INVALID_OPERATION);
  CHECK(read(readOnly, zero, region, 0, 0, 0, 0, host.data()) == CL_SUCCESS);
  CHECK(clEnqueueWriteBufferRect(cl.queue, readOnly, CL_TRUE, zero, zero, region, 0, 0, 0, 0, host.data(), 0, nullptr,
                                 nullptr) == CL_INVALID_OPERATION);
  // A device-side copy ignores host access.
  CHECK(clEnqueueCopyBufferRect(cl.queue, noAccess, readOnly, zero, zero, region, 0, 0, 0, 0, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
  clReleaseMemObject(noAccess);
  clReleaseMemObject(readOnly);
  clReleaseMemObject(buffer);
}

TEST_CASE("CPU rebuilds of one source share code, per options", "[e2e][runtime]") {
  CpuSetup cl;
  const std::string source = "__kernel void k(__global int *out) { out[get_global_id(0)] = VALUE; }\n";
  cl_int err = CL_SUCCESS;
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 4 * sizeof(int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  // The second round finds both builds in the device's cache, after their first programs are gone.
  for (int round = 0; round < 2; ++round)
    for (int value : {3, 5}) {
      INFO("round " << round << ", VALUE " << value);
      const std::string options = "-DVALUE=" + std::to_string(value);
      cl_program program = cl.build(source, options.c_str());
      cl_kernel kernel = clCreateKernel(program, "k", &err);
      REQUIRE(err == CL_SUCCESS);
      REQUIRE(clSetKernelArg(kernel, 0, sizeof out, &out) == CL_SUCCESS);
      size_t global = 4;
      REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
              CL_SUCCESS);
      std::vector<int> got(4, 0);
      REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, sizeof(int) * 4, got.data(), 0, nullptr, nullptr) ==
              CL_SUCCESS);
      CHECK(got == std::vector<int>(4, value));
      CHECK(programBinary(program).size() > 0);
      clReleaseKernel(kernel);
      clReleaseProgram(program);
    }
  clReleaseMemObject(out);
}

TEST_CASE("image formats: none, without an error", "[e2e][runtime]") {
  CpuSetup cl;
  cl_uint count = 99;
  CHECK(clGetSupportedImageFormats(cl.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D, 0, nullptr, &count) ==
        CL_SUCCESS);
  CHECK(count == 0);
  cl_image_format formats[4];
  CHECK(clGetSupportedImageFormats(cl.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 4, formats, nullptr) ==
        CL_SUCCESS);
  CHECK(clGetSupportedImageFormats(cl.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr, &count) ==
        CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(cl.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, formats, &count) ==
        CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(nullptr, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count) ==
        CL_INVALID_CONTEXT);
}

namespace {
/// x = x * 3 + i, in order: any reordering of the launches gives another value.
constexpr const char *StepSource = R"(
__kernel void step(__global ulong *x, ulong i) { x[0] = x[0] * 3 + i; })";

uint64_t stepsOnHost(uint64_t steps) {
  uint64_t x = 1;
  for (uint64_t i = 0; i < steps; ++i)
    x = x * 3 + i;
  return x;
}

void CL_CALLBACK releaseQueueCallback(cl_event, cl_int, void *queue) {
  clReleaseCommandQueue(static_cast<cl_command_queue>(queue));
}
} // namespace

// clFinish, clWaitForEvents and blocking commands run pending commands on the waiting thread; the
// worker runs the rest. Whoever runs them, a queue stays in order, one command at a time.
TEST_CASE("waiting threads run commands in queue order", "[e2e][runtime]") {
  CpuSetup cl(CL_QUEUE_PROFILING_ENABLE);
  cl_int err = CL_SUCCESS;
  cl_program program = cl.build(StepSource);
  cl_kernel kernel = clCreateKernel(program, "step", &err);
  REQUIRE(err == CL_SUCCESS);
  uint64_t x = 1;
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, sizeof x, &x, &err);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof buffer, &buffer) == CL_SUCCESS);
  const size_t one = 1;
  const uint64_t steps = 300;
  std::vector<cl_event> events(steps);
  for (uint64_t i = 0; i < steps; ++i) {
    REQUIRE(clSetKernelArg(kernel, 1, sizeof i, &i) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &one, &one, 0, nullptr, &events[i]) == CL_SUCCESS);
    if (i % 7 == 3) // Waits for a command somewhere in the queue: the worker may or may not have it.
      REQUIRE(clWaitForEvents(1, &events[i - 3]) == CL_SUCCESS);
    if (i % 50 == 49)
      REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
  }
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, sizeof x, &x, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(x == stepsOnHost(steps));
  cl_ulong previousEnd = 0;
  for (cl_event event : events) {
    cl_ulong start = 0, end = 0;
    REQUIRE(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
    CHECK(start >= previousEnd); // One at a time.
    previousEnd = end;
    clReleaseEvent(event);
  }
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("clFinish survives a callback that releases the queue", "[e2e][runtime]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue(cl.context, cl.device, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program program = cl.build(StepSource);
  cl_kernel kernel = clCreateKernel(program, "step", &err);
  uint64_t x = 1, i = 0;
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, sizeof x, &x, &err);
  REQUIRE(clSetKernelArg(kernel, 0, sizeof buffer, &buffer) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof i, &i) == CL_SUCCESS);
  const size_t one = 1;
  cl_event gate = clCreateUserEvent(cl.context, &err);
  cl_event done = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &one, &one, 1, &gate, &done) == CL_SUCCESS);
  REQUIRE(clSetEventCallback(done, CL_COMPLETE, releaseQueueCallback, queue) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  // The callback drops the application's only reference while this thread may be running the command.
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, sizeof x, &x, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(x == 3);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

// Values the same in every work-item cross barriers once per group on the CPU device
// (lowering/WorkGroupUniformity.h): loop counters of nested loops with barriers, a weight that changes
// per round, a value from the group ids used regions later; beside each work-item's own accumulator.
TEST_CASE("uniform values across barriers in nested loops, 3D groups", "[e2e][runtime][barriers]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  cl_program program = cl.build(R"(
__kernel void nested(__global uint *out, uint rounds) {
  __local uint tile[64];
  uint sx = get_local_size(0), sy = get_local_size(1);
  uint l = get_local_id(0) + sx * (get_local_id(1) + sy * get_local_id(2));
  uint n = sx * sy * get_local_size(2);
  uint g = get_group_id(0) + 3 * get_group_id(1);
  uint acc = l, weight = g + 1;
  for (uint r = 0; r < rounds; ++r) {
    for (uint s = 1; s < n; s <<= 1) {
      tile[l] = acc;
      barrier(CLK_LOCAL_MEM_FENCE);
      acc += tile[(l + s) % n] * weight;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    weight = weight * 3 % 17;
  }
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[x + get_global_size(0) * (y + get_global_size(1) * z)] = acc + g * 1000 + weight;
})");
  cl_kernel kernel = clCreateKernel(program, "nested", &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t global[3] = {8, 4, 2}, local[3] = {4, 2, 2};
  const size_t items = global[0] * global[1] * global[2];
  cl_mem buffer = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint), nullptr, &err);
  const cl_uint rounds = 3;
  REQUIRE(clSetKernelArg(kernel, 0, sizeof buffer, &buffer) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof rounds, &rounds) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 3, nullptr, global, local, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<cl_uint> out(items);
  REQUIRE(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, items * sizeof(cl_uint), out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);

  const cl_uint n = cl_uint(local[0] * local[1] * local[2]);
  std::vector<cl_uint> expected(items);
  for (size_t gy = 0; gy < global[1] / local[1]; ++gy)
    for (size_t gx = 0; gx < global[0] / local[0]; ++gx) { // one group along z
      const cl_uint g = cl_uint(gx + 3 * gy);
      std::vector<cl_uint> acc(n);
      for (cl_uint l = 0; l < n; ++l)
        acc[l] = l;
      cl_uint weight = g + 1;
      for (cl_uint r = 0; r < rounds; ++r) {
        for (cl_uint s = 1; s < n; s <<= 1) {
          const std::vector<cl_uint> tile = acc;
          for (cl_uint l = 0; l < n; ++l)
            acc[l] += tile[(l + s) % n] * weight;
        }
        weight = weight * 3 % 17;
      }
      for (cl_uint l = 0; l < n; ++l) {
        size_t x = gx * local[0] + l % local[0], y = gy * local[1] + l / local[0] % local[1], z = l / (local[0] * local[1]);
        expected[x + global[0] * (y + global[1] * z)] = acc[l] + g * 1000 + weight;
      }
    }
  CHECK(out == expected);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

// Integer division by zero and INT_MIN / -1 have undefined results in OpenCL C; on the CPU device they
// must not trap (SIGFPE would end the application): runtime/devices/cpu/GuardDivisions.h.
TEST_CASE("integer division by zero or overflowing does not trap", "[e2e][runtime][errors]") {
  CpuSetup cl;
  cl_int err = CL_SUCCESS;
  cl_program program = cl.build(R"(
__kernel void divide(__global const int *a, __global const int *b, __global int *quotients,
                     __global long *longs, __global int4 *vectors) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  quotients[3 * i] = x / y;
  quotients[3 * i + 1] = x % y;
  quotients[3 * i + 2] = (int)((uint)x / (uint)y);
  longs[i] = (long)x * 4294967296L / ((long)y * 4294967296L + (y == -1 ? 4294967295L : 0));
  vectors[i] = (int4)(x) / (int4)(y, 1, y, -1);
})");
  cl_kernel kernel = clCreateKernel(program, "divide", &err);
  REQUIRE(err == CL_SUCCESS);
  const std::vector<cl_int> a = {7, 7, INT32_MIN, -9, 0, INT32_MIN, 5, 100};
  const std::vector<cl_int> b = {2, 0, -1, 4, 0, 0, -1, 7};
  const size_t items = a.size();
  cl_mem aBuffer = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, items * 4, const_cast<cl_int *>(a.data()), &err);
  cl_mem bBuffer = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, items * 4, const_cast<cl_int *>(b.data()), &err);
  cl_mem quotients = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, items * 3 * 4, nullptr, &err);
  cl_mem longs = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, items * 8, nullptr, &err);
  cl_mem vectors = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, items * 16, nullptr, &err);
  cl_mem args[] = {aBuffer, bBuffer, quotients, longs, vectors};
  for (cl_uint i = 0; i < 5; ++i)
    REQUIRE(clSetKernelArg(kernel, i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<cl_int> q(items * 3);
  REQUIRE(clEnqueueReadBuffer(cl.queue, quotients, CL_TRUE, 0, q.size() * 4, q.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  // Where the result is defined, it is right.
  for (size_t i = 0; i < items; ++i) {
    if (b[i] == 0 || (a[i] == INT32_MIN && b[i] == -1))
      continue;
    INFO("item " << i << ": " << a[i] << " / " << b[i]);
    CHECK(q[3 * i] == a[i] / b[i]);
    CHECK(q[3 * i + 1] == a[i] % b[i]);
    CHECK(q[3 * i + 2] == cl_int(cl_uint(a[i]) / cl_uint(b[i])));
  }
  clReleaseMemObject(aBuffer);
  clReleaseMemObject(bBuffer);
  clReleaseMemObject(quotients);
  clReleaseMemObject(longs);
  clReleaseMemObject(vectors);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}
