// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of the simulated board through the ICD loader, on binaries loomc wrote at build
// time: device queries, vector_add (from OpenCL C and from SPIR-V) with its simulated time,
// differential runs (board == CPU == host, bit for bit), two programs loaded at once, vector_add on
// sub-buffers with a rect read, clGetKernelSubGroupInfo's every query, and the failure
// paths (a binary for another board, a truncated binary, building from source, wrong argument sizes,
// missing arguments, an access outside device memory, a board process killed mid-kernel).
#include "DifferentialSupport.h"

#include <cmath>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <thread>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <chrono>
#include <functional>
#include <random>

using namespace e2e;

namespace {

const Sources Differential{LOOM_E2E_DIFFERENTIAL_LOOM, LOOM_E2E_DIFFERENTIAL_CL};

} // namespace

TEST_CASE("the simulated board is an accelerator with FPGA-style float units", "[e2e][board]") {
  cl_device_id board = boardDevice();
  cl_device_type type = 0;
  REQUIRE(clGetDeviceInfo(board, CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_DEVICE_TYPE_ACCELERATOR);
  CHECK(deviceString(board, CL_DEVICE_NAME) == "Loom simulated board (default)");
  cl_device_fp_config fp = 0;
  REQUIRE(clGetDeviceInfo(board, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr) == CL_SUCCESS);
  CHECK((fp & CL_FP_ROUND_TO_NEAREST) != 0);
  CHECK((fp & CL_FP_DENORM) == 0); // The board's float units flush denormals to zero.
  CHECK((fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0);
  cl_uint clock = 0;
  REQUIRE(clGetDeviceInfo(board, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, nullptr) == CL_SUCCESS);
  CHECK(clock == 300);
  // __local memory is the board's block RAM: 2160 blocks of 36 Kbit.
  cl_ulong localBytes = 0;
  REQUIRE(clGetDeviceInfo(board, CL_DEVICE_LOCAL_MEM_SIZE, sizeof localBytes, &localBytes, nullptr) == CL_SUCCESS);
  CHECK(localBytes == 2160ull * 36 * 1024 / 8);
}

TEST_CASE("vector_add on the board matches the host and reports simulated time", "[e2e][board]") {
  // loomc's input was OpenCL C, or SPIR-V that Clang and llvm-spirv made from the same source.
  const char *binaryPath = GENERATE(LOOM_E2E_VECTOR_ADD_LOOM, LOOM_E2E_VECTOR_ADD_SPIRV_LOOM);
  INFO("binary: " << binaryPath);
  Setup cl(boardDevice(), CL_QUEUE_PROFILING_ENABLE);
  cl_program program = cl.load(readFile(binaryPath));
  cl_kernel kernel = kernelNamed(program, "vector_add");

  const size_t n = 100003; // Not a multiple of any burst or bank size.
  std::vector<float> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.25f - 7.0f;
    b[i] = std::cos(float(i)) * 100.0f;
    want[i] = a[i] + b[i];
  }
  cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem db = buffer(cl, b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dc = buffer(cl, want, CL_MEM_WRITE_ONLY);
  setArg(kernel, 0, da);
  setArg(kernel, 1, db);
  setArg(kernel, 2, dc);
  cl_event event = launch(cl, kernel, {{n}});
  CHECK(firstMismatch(readBack<float>(cl, dc, n), want) == -1);

  cl_ulong start = 0, end = 0;
  REQUIRE(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
  REQUIRE(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
  // Simulated time at 300 MHz: at least one work-item per cycle, and close to it (II = 1).
  const double cycles = double(end - start) * 300.0 / 1000.0;
  CHECK(cycles >= double(n));
  CHECK(cycles < 1.1 * double(n) + 1000.0);

  clReleaseEvent(event);
  for (cl_mem mem : {da, db, dc})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("integer kernel: board == CPU == host", "[e2e][board][differential]") {
  const size_t n = 10007;
  const int k = -77;
  std::mt19937 random(1);
  std::vector<int> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int(random());
    b[i] = int(random());
    // The kernel's wrap-around arithmetic, done on unsigned values (signed overflow is undefined in C++).
    int m = int(uint32_t(a[i]) * uint32_t(k) + uint32_t(b[i] >> 3));
    int s = a[i] < b[i] ? m : (a[i] ^ b[i]);
    want[i] = int(uint32_t(s) - uint32_t(i & 7) + (uint32_t(b[i]) >> 5));
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Differential, target, "int_mix", a, b, k), want) == -1);
  }
}

TEST_CASE("float kernel: board == CPU == host, bit for bit on normal numbers", "[e2e][board][differential]") {
  const size_t n = 10007;
  const float s = 1.7f;
  std::mt19937 random(2);
  std::uniform_real_distribution<float> values(-1000.0f, 1000.0f);
  std::vector<float> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = values(random);
    b[i] = values(random);
    volatile float d = (a[i] - b[i]) * s; // volatile: no fused multiply-add on the host either
    want[i] = d + -a[i];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto got = runTwoInputs<float>(Differential, target, "float_mix", a, b, s);
    long bad = firstMismatch(got, want);
    CHECK(bad == -1);
    if (bad >= 0)
      FAIL_CHECK("element " << bad << ": got " << got[bad] << ", want " << want[bad]);
  }
}

TEST_CASE("multiply-add and static float products: board == CPU == host", "[e2e][board][differential]") {
  const size_t n = 5003;
  const float s = -2.75f;
  std::mt19937 random(3);
  std::uniform_real_distribution<float> values(-100.0f, 100.0f);
  std::vector<float> a(n), b(n), saxpy(n), scaled(n);
  const volatile float square = s * s; // volatile: each product rounded on the host, as on the devices
  for (size_t i = 0; i < n; ++i) {
    a[i] = values(random);
    b[i] = values(random);
    volatile float product = s * a[i];
    saxpy[i] = product + b[i];
    volatile float scaledProduct = a[i] * square;
    scaled[i] = scaledProduct - b[i];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<float>(Differential, target, "saxpy", a, b, s), saxpy) == -1);
    CHECK(firstMismatch(runTwoInputs<float>(Differential, target, "scaled_difference", a, b, s), scaled) == -1);
  }
}

TEST_CASE("float comparisons and conversions: board == CPU == host", "[e2e][board][differential]") {
  const size_t n = 5003;
  std::mt19937 random(4);
  std::uniform_real_distribution<float> values(-1.0e6f, 1.0e6f), positive(0.0f, 1.0e6f);
  std::vector<float> a(n), b(n), selected(n), converted(n);
  std::vector<int> ints(n), truncated(n);
  std::vector<unsigned> uints(n);
  const float s = 0.375f;
  const int k = 3;
  for (size_t i = 0; i < n; ++i) {
    // Every fifth pair equal and some at the threshold, so the comparison's edges are exercised.
    a[i] = i % 5 == 0 ? s : values(random);
    b[i] = positive(random);
    volatile float scaled = b[i] * s;
    selected[i] = a[i] >= s ? a[i] : scaled;
    ints[i] = int(random()) >> int(random() % 31);
    uints[i] = unsigned(random()) >> (random() % 32);
    volatile float product = float(ints[i]) * s;
    converted[i] = product + float(uints[i]);
    truncated[i] = int(a[i]) * k + int(int64_t(b[i] * 4096.0f) >> 8);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<float>(Differential, target, "select_compare", a, b, s), selected) == -1);
    CHECK(firstMismatch(runTwoInputs<float>(Differential, target, "int_to_float", ints, uints, s), converted) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Differential, target, "float_to_int", a, b, k), truncated) == -1);
  }
}

TEST_CASE("branches (guards, if/else, early return): board == CPU == host", "[e2e][board][differential]") {
  const size_t n = 4096;
  const int limit = 4000, k = 1;
  std::mt19937 random(5);
  std::vector<float> fa(n), fb(n), guarded(n);
  std::vector<int> a(n), b(n), branchy(n), early(n);
  const int unwritten = -1; // all bits set
  float unwrittenFloat;
  std::memset(&unwrittenFloat, 0xff, sizeof unwrittenFloat);
  for (size_t i = 0; i < n; ++i) {
    fa[i] = float(int(random() % 2001) - 1000) / 8.0f;
    fb[i] = float(int(random() % 2001) - 1000) / 16.0f;
    a[i] = int(random() % 201) - 100;
    b[i] = int(random() % 201) - 100;
  }
  for (size_t i = 0; i < n; ++i) {
    guarded[i] = int(i) < limit ? fa[i] * fb[i] : unwrittenFloat;
    branchy[i] = a[i] > k ? a[i] - b[i] : b[i / 2] * 3;
    early[i] = a[i] % 4 == k ? unwritten : a[i] + b[i];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<float>(Differential, target, "guarded_product", fa, fb, limit), guarded) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Differential, target, "branchy", a, b, k), branchy) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Differential, target, "early_exit", a, b, k), early) == -1);
  }
}

TEST_CASE("widening and 2D kernels: board == CPU == host", "[e2e][board][differential]") {
  const size_t n = 4099, w = 96, h = 40;
  const long bias = -(1L << 40);
  const float scale = 0.5f;
  std::vector<short> narrow(n);
  std::vector<long> wide(n);
  for (size_t i = 0; i < n; ++i) {
    narrow[i] = short(i * 37 - 30000);
    wide[i] = long(narrow[i]) * 3 + bias;
  }
  std::vector<float> image(w * h), transposed(w * h);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      image[y * w + x] = float(y * 1000 + x);
      transposed[x * h + y] = image[y * w + x] * scale;
    }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    Setup cl(target.device());
    cl_program program = programFor(cl, target, Differential);

    cl_kernel widen = kernelNamed(program, "widen");
    cl_mem din = buffer(cl, narrow, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    cl_mem dout = buffer(cl, wide, CL_MEM_WRITE_ONLY);
    setArg(widen, 0, din);
    setArg(widen, 1, dout);
    setArg(widen, 2, bias);
    clReleaseEvent(launch(cl, widen, {{n}}));
    CHECK(firstMismatch(readBack<long>(cl, dout, n), wide) == -1);

    cl_kernel transpose = kernelNamed(program, "transpose_scale");
    cl_mem dimage = buffer(cl, image, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    cl_mem dtransposed = buffer(cl, transposed, CL_MEM_WRITE_ONLY);
    setArg(transpose, 0, dimage);
    setArg(transpose, 1, dtransposed);
    setArg(transpose, 2, scale);
    clReleaseEvent(launch(cl, transpose, {{w, h}}));
    CHECK(firstMismatch(readBack<float>(cl, dtransposed, w * h), transposed) == -1);

    for (cl_mem mem : {din, dout, dimage, dtransposed})
      clReleaseMemObject(mem);
    clReleaseKernel(widen);
    clReleaseKernel(transpose);
    clReleaseProgram(program);
  }
}

TEST_CASE("work-group functions in 2D with an offset: board == CPU == host", "[e2e][board][differential]") {
  const size_t w = 48, h = 20, lw = 8, lh = 4, ox = 3, oy = 5;
  const int k = 7;
  std::vector<int> a(w * h), b(w * h, 0), want(w * h);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = int(i * 13 % 101) - 50;
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      // Groups and local ids count from the global offset.
      int group = int((y / lh) * (w / lw) + x / lw);
      int item = int((y % lh) * lw + x % lw);
      want[y * w + x] = a[y * w + x] * k + group * 1000 + item + 2 * 1000000;
    }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    auto got = runTwoInputs<int>(Differential, target, "work_groups", a, b, k, {{w, h}, {lw, lh}, {ox, oy}});
    CHECK(firstMismatch(got, want) == -1);
  }
}

TEST_CASE("two programs stay loaded on the board at once", "[e2e][board]") {
  Setup cl(boardDevice());
  cl_program first = cl.load(readFile(LOOM_E2E_VECTOR_ADD_LOOM));
  cl_program second = cl.load(readFile(LOOM_E2E_DIFFERENTIAL_LOOM));
  cl_kernel add = kernelNamed(first, "vector_add");
  cl_kernel widen = kernelNamed(second, "widen");
  const size_t n = 1000;
  std::vector<float> a(n, 1.5f), sum(n, 3.0f);
  std::vector<short> narrow(n, 7);
  std::vector<long> wide(n, 21);
  cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dsum = buffer(cl, sum, CL_MEM_WRITE_ONLY);
  cl_mem dnarrow = buffer(cl, narrow, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dwide = buffer(cl, wide, CL_MEM_WRITE_ONLY);
  setArg(add, 0, da);
  setArg(add, 1, da);
  setArg(add, 2, dsum);
  setArg(widen, 0, dnarrow);
  setArg(widen, 1, dwide);
  setArg(widen, 2, long(0));
  for (int round = 0; round < 2; ++round) {
    clReleaseEvent(launch(cl, add, {{n}}));
    clReleaseEvent(launch(cl, widen, {{n}}));
  }
  CHECK(firstMismatch(readBack<float>(cl, dsum, n), sum) == -1);
  CHECK(firstMismatch(readBack<long>(cl, dwide, n), wide) == -1);
  for (cl_mem mem : {da, dsum, dnarrow, dwide})
    clReleaseMemObject(mem);
  clReleaseKernel(add);
  clReleaseKernel(widen);
  clReleaseProgram(first);
  clReleaseProgram(second);
}

TEST_CASE("kernels on two queues or an out-of-order queue run at the same time, on both devices",
          "[e2e][board][concurrency]") {
  const Sources concurrency{LOOM_E2E_CONCURRENCY_LOOM, LOOM_E2E_CONCURRENCY_CL};
  const bool outOfOrder = GENERATE(false, true);
  for (const Target &target : Targets) {
    DYNAMIC_SECTION(target.name << (outOfOrder ? ", one out-of-order queue" : ", two queues")) {
      Setup cl(target.device(), outOfOrder ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
      cl_program program = programFor(cl, target, concurrency);
      cl_kernel waiter = kernelNamed(program, "wait_for_flag");
      cl_kernel raiser = kernelNamed(program, "raise_flag");
      cl_int err = CL_SUCCESS;
      cl_command_queue other = outOfOrder ? cl.queue : clCreateCommandQueue(cl.context, cl.device, 0, &err);
      REQUIRE(err == CL_SUCCESS);
      cl_mem flag = buffer(cl, std::vector<int>{1}, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_mem polls = buffer(cl, std::vector<int>{-1}, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      // Run one after the other, the waiter would poll to its limit: seconds on either device.
      const int limit = target.fromBinary ? 1 << 16 : 1 << 30;
      setArg(waiter, 0, flag);
      setArg(waiter, 1, polls);
      setArg(waiter, 2, limit);
      setArg(raiser, 0, flag);
      const size_t one = 1;
      // A first run of each, the flag raised: the CPU device compiles a program at its first launch,
      // which could otherwise let the raiser finish before the waiter starts polling.
      REQUIRE(clEnqueueNDRangeKernel(cl.queue, raiser, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
      REQUIRE(clEnqueueNDRangeKernel(cl.queue, waiter, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
      REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
      const int lowered = 0;
      REQUIRE(clEnqueueWriteBuffer(cl.queue, flag, CL_TRUE, 0, sizeof lowered, &lowered, 0, nullptr, nullptr) ==
              CL_SUCCESS);
      cl_event waiting = nullptr;
      REQUIRE(clEnqueueNDRangeKernel(cl.queue, waiter, 1, nullptr, &one, nullptr, 0, nullptr, &waiting) == CL_SUCCESS);
      REQUIRE(clFlush(cl.queue) == CL_SUCCESS);
      // Once the waiter runs (a loaded machine may take a while to start it), the raiser starts beside it.
      cl_int status = CL_QUEUED;
      for (int tries = 0; tries < 3000 && status > CL_RUNNING; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        REQUIRE(clGetEventInfo(waiting, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      REQUIRE(clEnqueueNDRangeKernel(other, raiser, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
      REQUIRE(clFinish(other) == CL_SUCCESS);
      REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
      const int made = readBack<int>(cl, polls, 1)[0];
      INFO(cl.diagnosis());
      CHECK(made > 0);
      CHECK(made < limit);
      clReleaseEvent(waiting);
      clReleaseMemObject(flag);
      clReleaseMemObject(polls);
      if (other != cl.queue)
        clReleaseCommandQueue(other);
      clReleaseKernel(waiter);
      clReleaseKernel(raiser);
      clReleaseProgram(program);
    }
  }
}

TEST_CASE("a binary for another board or a truncated one is CL_INVALID_BINARY with a log",
          "[e2e][board][errors]") {
  Setup cl(boardDevice());
  auto rejected = [&](const std::string &binary) {
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(binary.data());
    size_t size = binary.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(cl.context, 1, &cl.device, &size, &bytes, &status, &err);
    CHECK(err == CL_INVALID_BINARY);
    CHECK(status == CL_INVALID_BINARY);
    REQUIRE(program != nullptr);
    std::string log = buildLog(program, cl.device);
    CHECK(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_BINARY);
    clReleaseProgram(program);
    return log;
  };
  std::string otherBoard = rejected(readFile(LOOM_E2E_VECTOR_ADD_UNIT_LOOM));
  CHECK_THAT(otherBoard, Catch::Contains("compiled for board 'unit'"));
  CHECK_THAT(otherBoard, Catch::Contains("loomc --board default"));

  std::string binary = readFile(LOOM_E2E_VECTOR_ADD_LOOM);
  std::string truncated = rejected(binary.substr(0, binary.size() / 2));
  INFO(truncated);
  CHECK(truncated.size() > 10);

  std::string flipped = binary;
  flipped[flipped.size() / 3] ^= 0x40;
  CHECK_FALSE(rejected(flipped).empty());
}

TEST_CASE("board kernels check argument sizes and missing arguments", "[e2e][board][errors]") {
  Setup cl(boardDevice());
  cl_program program = cl.load(readFile(LOOM_E2E_DIFFERENTIAL_LOOM));
  cl_kernel kernel = kernelNamed(program, "int_mix");
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 1024, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const double wide = 1.0;
  CHECK(clSetKernelArg(kernel, 3, sizeof wide, &wide) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(kernel, 0, 4, &mem) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(kernel, 4, sizeof(int), &err) == CL_INVALID_ARG_INDEX);
  setArg(kernel, 0, mem);
  setArg(kernel, 1, mem);
  size_t global = 16;
  CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);
  clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("an access outside device memory fails the event with a diagnosis; the board goes on",
          "[e2e][board][errors]") {
  Setup cl(boardDevice());
  cl_program program = cl.load(readFile(LOOM_E2E_FAULTS_LOOM));
  cl_kernel kernel = kernelNamed(program, "wild_store");
  std::vector<int> host(64, 0);
  cl_mem mem = buffer(cl, host, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(kernel, 0, mem);
  const cl_long far = cl_long(1) << 40; // 4 TiB past the buffer: the board has 4 GiB
  setArg(kernel, 1, far);
  size_t global = 16;
  cl_event event = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &event) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &event) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = CL_COMPLETE;
  REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status < 0);
  INFO(cl.diagnosis());
  CHECK_THAT(cl.diagnosis(), Catch::Contains("outside device memory"));
  CHECK_THAT(cl.diagnosis(), Catch::Contains("faults.cl:6:"));
  clReleaseEvent(event);

  // The same program runs again on a fresh queue with an offset inside the buffer.
  cl_int err = CL_SUCCESS;
  cl_command_queue fresh = clCreateCommandQueue(cl.context, cl.device, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  setArg(kernel, 1, cl_long(8));
  REQUIRE(clEnqueueNDRangeKernel(fresh, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fresh, mem, CL_TRUE, 0, host.size() * sizeof(int), host.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < host.size(); ++i)
    CHECK(host[i] == ((i >= 8 && i < 24) ? 1 : 0));
  clReleaseCommandQueue(fresh);
  clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

namespace {

/// Process ids of this process's children whose command name is `name` (the board processes).
std::vector<pid_t> childrenNamed(const std::string &name) {
  std::vector<pid_t> found;
  DIR *tasks = opendir("/proc/self/task");
  REQUIRE(tasks != nullptr);
  while (dirent *entry = readdir(tasks)) {
    if (entry->d_name[0] == '.')
      continue;
    std::ifstream children(std::string("/proc/self/task/") + entry->d_name + "/children");
    for (pid_t child; children >> child;) {
      std::string comm;
      std::getline(std::ifstream("/proc/" + std::to_string(child) + "/comm"), comm);
      if (comm == name)
        found.push_back(child);
    }
  }
  closedir(tasks);
  return found;
}

} // namespace

TEST_CASE("a board process that dies fails its kernel's event; the application and the board go on",
          "[e2e][board][errors]") {
  Setup cl(boardDevice());
  const std::string binary = readFile(LOOM_E2E_VECTOR_ADD_LOOM);
  const std::vector<pid_t> before = childrenNamed("loom-board");
  cl_program program = cl.load(binary);
  std::vector<pid_t> boards = childrenNamed("loom-board");
  REQUIRE(boards.size() == before.size() + 1);
  pid_t spawned = 0;
  for (pid_t pid : boards)
    if (std::find(before.begin(), before.end(), pid) == before.end())
      spawned = pid;

  // Some seconds of simulation, killed a moment after it starts.
  const size_t n = size_t(40) << 20;
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_kernel kernel = kernelNamed(program, "vector_add");
  for (cl_uint i = 0; i < 3; ++i)
    setArg(kernel, i, mem);
  cl_event event = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &event) == CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  REQUIRE(::kill(spawned, SIGKILL) == 0);
  CHECK(clWaitForEvents(1, &event) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = CL_COMPLETE;
  REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status < 0);
  INFO(cl.diagnosis());
  CHECK_THAT(cl.diagnosis(), Catch::Contains("killed by signal 9"));
  clReleaseEvent(event);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(mem);

  // Loading the binary again reprograms the board with a fresh process.
  Setup again(cl.device);
  cl_program reloaded = again.load(binary);
  cl_kernel add = kernelNamed(reloaded, "vector_add");
  std::vector<float> a(1000, 2.0f), sum(1000, 4.0f);
  cl_mem da = buffer(again, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem dsum = buffer(again, sum, CL_MEM_WRITE_ONLY);
  setArg(add, 0, da);
  setArg(add, 1, da);
  setArg(add, 2, dsum);
  clReleaseEvent(launch(again, add, {{a.size()}}));
  CHECK(firstMismatch(readBack<float>(again, dsum, a.size()), sum) == -1);
  clReleaseMemObject(da);
  clReleaseMemObject(dsum);
  clReleaseKernel(add);
  clReleaseProgram(reloaded);
}

TEST_CASE("board sub-buffers and rects", "[e2e][board]") {
  Setup cl(boardDevice());
  cl_program program = cl.load(readFile(LOOM_E2E_VECTOR_ADD_LOOM));
  cl_kernel kernel = kernelNamed(program, "vector_add");
  // Both inputs in one buffer, b 4 KiB in; the sum 512 bytes into a USE_HOST_PTR buffer, which the
  // board mirrors in its memory: a map of the sub-buffer brings the sum to the application's memory.
  const size_t n = 1000, bOrigin = 4096, cOrigin = 512, total = 2048;
  std::vector<float> inputs(bOrigin / sizeof(float) + n), outputs(total, -1.0f);
  for (size_t i = 0; i < n; ++i) {
    inputs[i] = float(i) * 0.25f;
    inputs[bOrigin / sizeof(float) + i] = float(n - i);
  }
  cl_mem in = buffer(cl, inputs, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_int err = CL_SUCCESS;
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, total * sizeof(float),
                              outputs.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  auto sub = [&](cl_mem parent, size_t origin) {
    const cl_buffer_region region{origin, n * sizeof(float)};
    cl_mem mem = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    return mem;
  };
  cl_mem a = sub(in, 0), b = sub(in, bOrigin), c = sub(out, cOrigin);
  setArg(kernel, 0, a);
  setArg(kernel, 1, b);
  setArg(kernel, 2, c);
  clReleaseEvent(launch(cl, kernel, {{n}}));
  auto *sum = static_cast<float *>(
      clEnqueueMapBuffer(cl.queue, c, CL_TRUE, CL_MAP_READ, 0, n * sizeof(float), 0, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(sum == outputs.data() + cOrigin / sizeof(float));
  size_t wrong = 0;
  for (size_t i = 0; i < total; ++i) {
    size_t item = i - cOrigin / sizeof(float);
    bool written = i >= cOrigin / sizeof(float) && item < n;
    wrong += outputs[i] != (written ? float(item) * 0.25f + float(n - item) : -1.0f);
  }
  CHECK(wrong == 0);
  REQUIRE(clEnqueueUnmapMemObject(cl.queue, c, sum, 0, nullptr, nullptr) == CL_SUCCESS);

  // A rect read of the board's memory: the output as rows of 64 floats, a 10-float by 9-row window.
  std::vector<float> all = readBack<float>(cl, out, total), window(10 * 9, 0.0f), want(window.size());
  const size_t bufferOrigin[3] = {5 * sizeof(float), 6, 0}, hostOrigin[3] = {0, 0, 0};
  const size_t region[3] = {10 * sizeof(float), 9, 1};
  for (size_t y = 0; y < 9; ++y)
    for (size_t x = 0; x < 10; ++x)
      want[y * 10 + x] = all[(6 + y) * 64 + 5 + x];
  REQUIRE(clEnqueueReadBufferRect(cl.queue, out, CL_TRUE, bufferOrigin, hostOrigin, region, 64 * sizeof(float), 0, 0,
                                  0, window.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(firstMismatch(window, want) == -1);
  const size_t corner = 6 * 64 + 5 - cOrigin / sizeof(float); // The work-item that wrote window[0].
  CHECK(window[0] == float(corner) * 0.25f + float(n - corner));

  for (cl_mem mem : {a, b, c, in, out})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

namespace {

/// The board's sub-groups: runs of this many work-items in local linear id order.
constexpr size_t BoardSubGroup = 64;

/// clGetKernelSubGroupInfo's size_t answer to `query` with `input` (a local size, a sub-group
/// count, or nothing), checked to be one size_t.
size_t subGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info query,
                    const std::vector<size_t> &input = {}) {
  size_t answer = 0, written = 0;
  REQUIRE(clGetKernelSubGroupInfo(kernel, device, query, input.size() * sizeof(size_t),
                                  input.empty() ? nullptr : input.data(), sizeof answer, &answer,
                                  &written) == CL_SUCCESS);
  CHECK(written == sizeof answer);
  return answer;
}

/// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT for `count` sub-groups, as a local size of `dims` sizes.
std::vector<size_t> localSizeFor(cl_kernel kernel, cl_device_id device, size_t count, size_t dims) {
  std::vector<size_t> local(dims, 12345);
  size_t written = 0;
  REQUIRE(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count,
                                  dims * sizeof(size_t), local.data(), &written) == CL_SUCCESS);
  CHECK(written == dims * sizeof(size_t));
  return local;
}

size_t itemsOf(const std::vector<size_t> &sizes) {
  size_t items = 1;
  for (size_t size : sizes)
    items *= size;
  return items;
}

/// A one-dimensional local size of `items`, padded with ones to `dims` sizes.
std::vector<size_t> oneDimensional(size_t items, size_t dims) {
  std::vector<size_t> local(dims, 1);
  local[0] = items;
  return local;
}

/// Runs a kernel of sub_group_info.cl that records each work-item's view of its sub-group over
/// `range`; checks every work-item's four words against the board's sub-groups, which the queries
/// for the launch's local size describe as `maxSize` and `count`.
void checkSubGroupView(Setup &cl, cl_kernel kernel, const Range &range, size_t maxSize, size_t count) {
  const size_t items = itemsOf(range.global), groupItems = itemsOf(range.local);
  std::vector<cl_uint> unwritten(4 * items, 0xffffffffu);
  cl_mem out = buffer(cl, unwritten, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(kernel, 0, out);
  clReleaseEvent(launch(cl, kernel, range));
  const std::vector<cl_uint> seen = readBack<cl_uint>(cl, out, 4 * items);
  clReleaseMemObject(out);
  std::vector<size_t> global(3, 1), local(3, 1);
  std::copy(range.global.begin(), range.global.end(), global.begin());
  std::copy(range.local.begin(), range.local.end(), local.begin());
  size_t wrong = 0;
  for (size_t z = 0; z < global[2]; ++z)
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        const size_t linear = (z * global[1] + y) * global[0] + x;
        const size_t inGroup = (z % local[2] * local[1] + y % local[1]) * local[0] + x % local[0];
        const size_t id = inGroup / BoardSubGroup;
        const size_t want[4] = {maxSize, count, id, std::min(BoardSubGroup, groupItems - id * BoardSubGroup)};
        for (size_t word = 0; word < 4; ++word)
          if (seen[4 * linear + word] != want[word] && wrong++ < 8)
            UNSCOPED_INFO("work-item " << linear << " word " << word << ": " << seen[4 * linear + word]
                                       << ", want " << want[word]);
      }
  CHECK(wrong == 0);
}

/// The board with the kernels of sub_group_info.cl loaded.
struct SubGroupInfoBoard {
  Setup cl{boardDevice()};
  cl_program program = cl.load(readFile(LOOM_E2E_SUB_GROUP_INFO_LOOM));
  ~SubGroupInfoBoard() { clReleaseProgram(program); }
};

} // namespace

TEST_CASE_METHOD(SubGroupInfoBoard, "clGetKernelSubGroupInfo on the board: every query, kernel by kernel",
                 "[e2e][board][sub-groups]") {
  // Each kernel's largest work-group: the device's for a kernel without barriers, 256 for one the
  // board runs a work-group at a time, the required size for one that names it.
  struct Limits {
    const char *kernel;
    size_t groupItems;
    std::vector<size_t> required; ///< Empty: none.
  };
  for (const Limits &limits : {Limits{"copy", 1024, {}}, Limits{"sub_group_view", 256, {}},
                               Limits{"fixed_sub_group_view", 128, {128, 1, 1}},
                               Limits{"cube_sub_group_view", 128, {8, 4, 4}}}) {
    INFO("kernel " << limits.kernel);
    cl_kernel kernel = kernelNamed(program, limits.kernel);
    size_t groupItems = 0;
    REQUIRE(clGetKernelWorkGroupInfo(kernel, cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupItems, &groupItems,
                                     nullptr) == CL_SUCCESS);
    CHECK(groupItems == limits.groupItems);
    const size_t maxSubGroups = limits.groupItems / BoardSubGroup;
    CHECK(subGroupInfo(kernel, cl.device, CL_KERNEL_MAX_NUM_SUB_GROUPS) == maxSubGroups);
    CHECK(subGroupInfo(kernel, nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS) == maxSubGroups); // The one device.
    // OpenCL C has no attribute for a number of sub-groups.
    CHECK(subGroupInfo(kernel, cl.device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS) == 0);

    // A local size of any shape: runs of 64 in local linear id order, the last maybe shorter.
    for (const std::vector<size_t> &local : std::vector<std::vector<size_t>>{
             {1}, {63}, {64}, {65}, {128}, {1000}, {10, 10}, {1, 64}, {3, 5, 7}, {8, 8, 4}, {1, 1, 256}}) {
      const size_t items = itemsOf(local);
      INFO("local size of " << items << " work-items in " << local.size() << " dimension(s)");
      CHECK(subGroupInfo(kernel, cl.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local) ==
            std::min(items, BoardSubGroup));
      CHECK(subGroupInfo(kernel, cl.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local) ==
            (items + BoardSubGroup - 1) / BoardSubGroup);
    }

    // The local size for a count of sub-groups: whole sub-groups in dimension 0, the rest ones; the
    // required size, the only one the kernel runs, in as many dimensions as it has; all zeros when
    // no local size the kernel runs makes that many.
    for (size_t count = 0; count <= maxSubGroups + 1; ++count)
      for (size_t dims = 1; dims <= 3; ++dims) {
        INFO(count << " sub-groups, " << dims << " dimension(s)");
        std::vector<size_t> want(dims, 0);
        if (limits.required.empty() && count > 0 && count <= maxSubGroups)
          want = oneDimensional(count * BoardSubGroup, dims);
        const bool requiredFits = std::all_of(limits.required.begin() + std::min(dims, limits.required.size()),
                                              limits.required.end(), [](size_t extent) { return extent == 1; });
        if (!limits.required.empty() && count == maxSubGroups && requiredFits)
          want.assign(limits.required.begin(), limits.required.begin() + dims);
        CHECK(localSizeFor(kernel, cl.device, count, dims) == want);
      }
    size_t answerSize = 0;
    const size_t two = 2;
    REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof two, &two, 0,
                                    nullptr, &answerSize) == CL_SUCCESS);
    CHECK(answerSize == sizeof(size_t));
    clReleaseKernel(kernel);
  }
}

TEST_CASE_METHOD(SubGroupInfoBoard, "clGetKernelSubGroupInfo on the board: what kernels see is what the queries say",
                 "[e2e][board][sub-groups]") {
  struct View {
    const char *kernel;
    Range range;
  };
  for (const View &view :
       {View{"sub_group_view", {{512}, {256}}}, View{"sub_group_view", {{20, 10}, {10, 10}}},
        View{"sub_group_view", {{8, 8, 8}, {8, 8, 4}}}, View{"sub_group_view", {{6, 10, 14}, {3, 5, 7}}},
        View{"fixed_sub_group_view", {{384}, {128}}}, View{"cube_sub_group_view", {{16, 8, 4}, {8, 4, 4}}}}) {
    INFO("kernel " << view.kernel << ", " << view.range.local.size() << " dimension(s), "
                   << itemsOf(view.range.local) << " work-items a group");
    cl_kernel kernel = kernelNamed(program, view.kernel);
    const size_t maxSize = subGroupInfo(kernel, cl.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, view.range.local);
    const size_t count = subGroupInfo(kernel, cl.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, view.range.local);
    checkSubGroupView(cl, kernel, view.range, maxSize, count);
    clReleaseKernel(kernel);
  }
}

TEST_CASE_METHOD(SubGroupInfoBoard, "clGetKernelSubGroupInfo on the board: bad input gets the spec's error codes",
                 "[e2e][board][sub-groups][errors]") {
  cl_kernel kernel = kernelNamed(program, "sub_group_view");
  const size_t local[4] = {16, 4, 2, 1}, zero[2] = {16, 0};
  size_t answer = 0;
  auto query = [&](cl_kernel k, cl_device_id device, cl_kernel_sub_group_info name, size_t inputSize,
                   const void *input, size_t answerSize = sizeof(size_t)) {
    return clGetKernelSubGroupInfo(k, device, name, inputSize, input, answerSize, &answer, nullptr);
  };
  CHECK(query(nullptr, cl.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr) == CL_INVALID_KERNEL);
  CHECK(query(reinterpret_cast<cl_kernel>(program), cl.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr) ==
        CL_INVALID_KERNEL);
  CHECK(query(kernel, cpuDevice(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr) == CL_INVALID_DEVICE);
  CHECK(query(kernel, cl.device, 0x7fff, sizeof local[0], local) == CL_INVALID_VALUE);
  for (cl_kernel_sub_group_info name :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
    INFO("query " << name);
    CHECK(query(kernel, cl.device, name, sizeof local[0], nullptr) == CL_INVALID_VALUE);
    CHECK(query(kernel, cl.device, name, 0, local) == CL_INVALID_VALUE);
    CHECK(query(kernel, cl.device, name, sizeof local[0] + 1, local) == CL_INVALID_VALUE);
    CHECK(query(kernel, cl.device, name, sizeof local, local) == CL_INVALID_VALUE); // Four dimensions.
    CHECK(query(kernel, cl.device, name, sizeof zero, zero) == CL_INVALID_VALUE);
    CHECK(query(kernel, cl.device, name, sizeof local[0], local, sizeof(size_t) - 1) == CL_INVALID_VALUE);
  }
  CHECK(query(kernel, cl.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 0, nullptr) == CL_INVALID_VALUE);
  CHECK(query(kernel, cl.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 2 * sizeof(size_t), local) ==
        CL_INVALID_VALUE);
  CHECK(query(kernel, cl.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof local[0], local,
              sizeof(size_t) - 1) == CL_INVALID_VALUE);
  for (cl_kernel_sub_group_info name : {CL_KERNEL_MAX_NUM_SUB_GROUPS, CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    INFO("query " << name);
    CHECK(query(kernel, cl.device, name, 0, nullptr, sizeof(size_t) - 1) == CL_INVALID_VALUE);
    CHECK(query(kernel, cl.device, name, sizeof local, local) == CL_SUCCESS); // Its input is ignored.
  }
  clReleaseKernel(kernel);
}

TEST_CASE("clGetKernelSubGroupInfo in a context of both devices: each device answers for itself",
          "[e2e][board][sub-groups]") {
  std::string cpuBinary;
  {
    CpuSetup cpu;
    cl_program built = cpu.build(readFile(LOOM_E2E_SUB_GROUP_INFO_CL), "-cl-std=CL3.0");
    cpuBinary = programBinary(built);
    clReleaseProgram(built);
  }
  const std::string boardBinary = readFile(LOOM_E2E_SUB_GROUP_INFO_LOOM);
  // The CPU device first: a kernel's limits on the board are the board's build's, whatever the order.
  cl_device_id devices[2] = {cpuDevice(), boardDevice()};
  cl_int err = CL_SUCCESS;
  cl_context both = clCreateContext(nullptr, 2, devices, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t sizes[2] = {cpuBinary.size(), boardBinary.size()};
  const unsigned char *binaries[2] = {reinterpret_cast<const unsigned char *>(cpuBinary.data()),
                                      reinterpret_cast<const unsigned char *>(boardBinary.data())};
  cl_program shared = clCreateProgramWithBinary(both, 2, devices, sizes, binaries, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(shared, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel kernel = kernelNamed(shared, "sub_group_view");
  size_t answer = 0;
  // A NULL device names none of the kernel's two.
  CHECK(clGetKernelSubGroupInfo(kernel, nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof answer, &answer,
                                nullptr) == CL_INVALID_DEVICE);
  cl_device_id board = devices[1];
  CHECK(subGroupInfo(kernel, board, CL_KERNEL_MAX_NUM_SUB_GROUPS) == 256 / BoardSubGroup);
  CHECK(subGroupInfo(kernel, board, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {256}) == BoardSubGroup);
  CHECK(localSizeFor(kernel, board, 5, 1) == std::vector<size_t>{0});
  // A launch on the board holds to the board's limit too.
  size_t groupItems = 0;
  REQUIRE(clGetKernelWorkGroupInfo(kernel, board, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupItems, &groupItems,
                                   nullptr) == CL_SUCCESS);
  CHECK(groupItems == 256);
  cl_command_queue queue = clCreateCommandQueue(both, board, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem out = clCreateBuffer(both, CL_MEM_WRITE_ONLY, 4 * 512 * sizeof(cl_uint), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  setArg(kernel, 0, out);
  const size_t tooLarge = 512;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &tooLarge, &tooLarge, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  // The CPU device's sub-groups are shorter and its groups larger.
  const size_t cpuSize = subGroupInfo(kernel, devices[0], CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {256});
  CHECK(cpuSize < BoardSubGroup);
  CHECK(localSizeFor(kernel, devices[0], 5, 1) == std::vector<size_t>{5 * cpuSize});
  clReleaseMemObject(out);
  clReleaseCommandQueue(queue);
  clReleaseKernel(kernel);
  clReleaseProgram(shared);
  clReleaseContext(both);
}
