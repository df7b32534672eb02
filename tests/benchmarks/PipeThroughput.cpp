// SPDX-License-Identifier: Apache-2.0
// Pipe throughput on the CPU device: N ints from a producer kernel to a consumer kernel, each a
// single work-item on its own queue, and through a chain of 4 kernels (producer, two relays,
// consumer), through pipes of several depths; beside it, in the same run, the same packets between
// two host threads through a bare lock-free ring of the same depth (the floor a pipe's bookkeeping
// and the kernels' calls add to). Prints packets per second and the ratio. Figures, not a test.
// Usage: bench_pipe_throughput [packets]   (OCL_ICD_VENDORS must name Loom's loom.icd)
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS // clCreateCommandQueue, clEnqueueTask, as the other benchmarks
#include "BenchSupport.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace {

const char *const Source = R"(
__kernel void produce(__write_only pipe int out, int n) {
  for (int i = 0; i < n; ++i)
    while (write_pipe(out, &i) != 0)
      ;
}
__kernel void relay(__read_only pipe int in, __write_only pipe int out, int n) {
  for (int i = 0; i < n; ++i) {
    int v;
    while (read_pipe(in, &v) != 0)
      ;
    while (write_pipe(out, &v) != 0)
      ;
  }
}
__kernel void consume(__read_only pipe int in, __global long *sum, int n) {
  long total = 0;
  for (int i = 0; i < n; ++i) {
    int v;
    while (read_pipe(in, &v) != 0)
      ;
    total += v;
  }
  *sum = total;
}
)";

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

/// Two host threads, a single-producer single-consumer ring of `depth` ints.
double bareRingSeconds(int packets, unsigned depth) {
  std::vector<int> slots(depth);
  std::atomic<uint64_t> head{0}, tail{0};
  long long total = 0;
  const auto start = std::chrono::steady_clock::now();
  std::thread consumer([&] {
    for (int i = 0; i < packets; ++i) {
      uint64_t at = head.load(std::memory_order_relaxed);
      while (tail.load(std::memory_order_acquire) == at)
        std::this_thread::yield();
      total += slots[at % depth];
      head.store(at + 1, std::memory_order_release);
    }
  });
  for (int i = 0; i < packets; ++i) {
    uint64_t at = tail.load(std::memory_order_relaxed);
    while (at - head.load(std::memory_order_acquire) == depth)
      std::this_thread::yield();
    slots[at % depth] = i;
    tail.store(at + 1, std::memory_order_release);
  }
  consumer.join();
  const double elapsed = seconds(std::chrono::steady_clock::now() - start);
  if (total != (long long)packets * (packets - 1) / 2)
    std::fprintf(stderr, "bench: the bare ring lost packets\n");
  return elapsed;
}

struct PipeRun {
  cl_context context;
  cl_device_id device;
  cl_program program;
  std::vector<cl_command_queue> queues;

  explicit PipeRun(cl_platform_id platform) {
    cl_int err;
    bench::check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr), "clGetDeviceIDs(CPU)");
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    bench::check(err, "clCreateContext");
    for (int i = 0; i < 4; ++i) {
      queues.push_back(clCreateCommandQueue(context, device, 0, &err));
      bench::check(err, "clCreateCommandQueue");
    }
    const char *text = Source;
    program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    bench::check(err, "clCreateProgramWithSource");
    bench::check(clBuildProgram(program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr), "clBuildProgram");
  }
  ~PipeRun() {
    clReleaseProgram(program);
    for (cl_command_queue queue : queues)
      clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }

  cl_kernel kernel(const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    bench::check(err, "clCreateKernel");
    return k;
  }

  /// Seconds to move `packets` through `stages` kernels (2: producer and consumer) joined by pipes
  /// of `depth`; every kernel is enqueued before any is waited for, the consumer first.
  double run(int packets, unsigned depth, int stages) {
    cl_int err;
    std::vector<cl_mem> pipes;
    for (int i = 0; i + 1 < stages; ++i) {
      pipes.push_back(clCreatePipe(context, 0, sizeof(int), depth, nullptr, &err));
      bench::check(err, "clCreatePipe");
    }
    cl_mem sum = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_long), nullptr, &err);
    bench::check(err, "clCreateBuffer");
    std::vector<cl_kernel> kernels;
    for (int stage = stages - 1; stage >= 0; --stage) {
      const bool first = stage == 0, last = stage == stages - 1;
      cl_kernel k = kernel(first ? "produce" : last ? "consume" : "relay");
      cl_uint arg = 0;
      if (!first)
        bench::check(clSetKernelArg(k, arg++, sizeof(cl_mem), &pipes[stage - 1]), "clSetKernelArg");
      bench::check(clSetKernelArg(k, arg++, sizeof(cl_mem), last ? &sum : &pipes[stage]), "clSetKernelArg");
      bench::check(clSetKernelArg(k, arg++, sizeof packets, &packets), "clSetKernelArg");
      kernels.push_back(k);
    }
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < kernels.size(); ++i) {
      bench::check(clEnqueueTask(queues[i], kernels[i], 0, nullptr, nullptr), "clEnqueueTask");
      bench::check(clFlush(queues[i]), "clFlush");
    }
    for (size_t i = 0; i < kernels.size(); ++i)
      bench::check(clFinish(queues[i]), "clFinish");
    const double elapsed = seconds(std::chrono::steady_clock::now() - start);
    cl_long total = 0;
    bench::check(clEnqueueReadBuffer(queues[0], sum, CL_TRUE, 0, sizeof total, &total, 0, nullptr, nullptr),
                 "clEnqueueReadBuffer");
    if (total != (cl_long)packets * (packets - 1) / 2)
      std::fprintf(stderr, "bench: the pipes lost packets (sum %lld)\n", (long long)total);
    for (cl_kernel k : kernels)
      clReleaseKernel(k);
    for (cl_mem pipe : pipes)
      clReleaseMemObject(pipe);
    clReleaseMemObject(sum);
    return elapsed;
  }
};

} // namespace

int main(int argc, char **argv) {
  const int packets = argc > 1 ? std::atoi(argv[1]) : 1000000;
  cl_platform_id loom = bench::findPlatform("Loom");
  if (!loom) {
    std::fprintf(stderr, "bench: no Loom platform (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  PipeRun run(loom);
  run.run(1000, 64, 2); // The first launch generates the kernels' code.
  std::printf("%-8s %-22s %14s %14s %8s\n", "depth", "kernels", "packets/s", "bare ring/s", "ratio");
  for (unsigned depth : {4u, 64u, 1024u})
    for (int stages : {2, 4}) {
      const double pipe = run.run(packets, depth, stages);
      const double bare = bareRingSeconds(packets, depth);
      std::printf("%-8u %-22s %14.3g %14.3g %8.2f\n", depth,
                  stages == 2 ? "producer -> consumer" : "chain of 4", packets / pipe, packets / bare, bare / pipe);
    }
  return 0;
}
