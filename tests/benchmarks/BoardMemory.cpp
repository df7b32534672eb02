// SPDX-License-Identifier: Apache-2.0
// Benchmark: memory of the host application plus its board process while vector_add runs on the
// simulated board. Buffers are ALLOC_HOST_PTR and filled through clEnqueueMapBuffer, so the only copy
// of each is the device memory shared between both processes. Proportional set size (PSS) counts a
// shared page once, so the sum over both processes is the real footprint.
// usage: bench_board_memory vector_add.loom [N]
#include "BenchSupport.h"

#include <atomic>
#include <chrono>
#include <dirent.h>
#include <thread>
#include <unistd.h>

using namespace bench;

/// PSS in bytes of one process, from /proc/PID/smaps_rollup.
static size_t pssBytes(const std::string &pid) {
  std::ifstream in("/proc/" + pid + "/smaps_rollup");
  std::string key;
  size_t kb = 0;
  while (in >> key) {
    if (key == "Pss:") {
      in >> kb;
      return kb * 1024;
    }
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

/// PSS of this process and its direct children (the board processes).
static size_t totalPss() {
  size_t total = pssBytes("self");
  DIR *tasks = opendir("/proc/self/task");
  while (tasks) {
    dirent *entry = readdir(tasks);
    if (!entry)
      break;
    if (entry->d_name[0] == '.')
      continue;
    std::ifstream children(std::string("/proc/self/task/") + entry->d_name + "/children");
    std::string child;
    while (children >> child)
      total += pssBytes(child);
  }
  if (tasks)
    closedir(tasks);
  return total;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s vector_add.loom [N]\n", argv[0]);
    return 2;
  }
  size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (16u << 20);
  size_t bytes = n * sizeof(float);
  cl_platform_id loom = findPlatform("Loom");
  if (!loom) {
    std::fprintf(stderr, "bench: no Loom platform\n");
    return 1;
  }
  size_t baseline = totalPss();
  cl_int err;
  cl_device_id device;
  check(clGetDeviceIDs(loom, CL_DEVICE_TYPE_ACCELERATOR, 1, &device, nullptr), "clGetDeviceIDs");
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  check(err, "clCreateCommandQueue");
  std::string binary = readFile(argv[1]);
  const unsigned char *data = reinterpret_cast<const unsigned char *>(binary.data());
  size_t size = binary.size();
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &size, &data, nullptr, &err);
  check(err, "clCreateProgramWithBinary");
  check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  check(err, "clCreateKernel");
  size_t loaded = totalPss();

  cl_mem buffers[3];
  for (auto &buffer : buffers) {
    buffer = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
    check(err, "clCreateBuffer");
  }
  for (int i = 0; i < 2; ++i) {
    auto *p = static_cast<float *>(clEnqueueMapBuffer(queue, buffers[i], CL_TRUE, CL_MAP_WRITE, 0, bytes, 0,
                                                      nullptr, nullptr, &err));
    check(err, "clEnqueueMapBuffer");
    for (size_t j = 0; j < n; ++j)
      p[j] = float(j % 1024) * (i + 1);
    check(clEnqueueUnmapMemObject(queue, buffers[i], p, 0, nullptr, nullptr), "unmap");
  }
  for (int i = 0; i < 3; ++i)
    clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]);

  std::atomic<bool> running{true};
  std::atomic<size_t> peak{0};
  std::thread sampler([&] {
    while (running) {
      peak = std::max(peak.load(), totalPss());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), "enqueue");
  check(clFinish(queue), "clFinish");
  auto *c = static_cast<float *>(
      clEnqueueMapBuffer(queue, buffers[2], CL_TRUE, CL_MAP_READ, 0, bytes, 0, nullptr, nullptr, &err));
  check(err, "map result");
  size_t wrong = 0;
  for (size_t j = 0; j < n; ++j)
    wrong += c[j] != float(j % 1024) * 3;
  clEnqueueUnmapMemObject(queue, buffers[2], c, 0, nullptr, nullptr);
  clFinish(queue);
  peak = std::max(peak.load(), totalPss());
  running = false;
  sampler.join();
  if (wrong) {
    std::fprintf(stderr, "bench: %zu wrong results\n", wrong);
    return 1;
  }
  double mb = 1 << 20;
  size_t bufferBytes = 3 * bytes;
  size_t fixed = loaded;
  std::printf("board memory, vector_add %zu floats: buffers %.1f MB, peak PSS host+board %.1f MB "
              "(before the program %.1f MB, with the program loaded %.1f MB); "
              "peak - loaded = %.3fx the buffer bytes\n",
              n, bufferBytes / mb, peak / mb, baseline / mb, fixed / mb,
              double(peak - fixed) / double(bufferBytes));
  return 0;
}
