// SPDX-License-Identifier: Apache-2.0
// Pipe throughput on both devices: N ints from a producer kernel to a consumer kernel, each a single
// work-item on its own queue, and through a chain of 4 kernels (producer, two relays, consumer),
// through pipes of several depths. On the CPU device, packets per second, beside the same packets
// between two host threads through a bare lock-free ring of the same depth in the same run (the
// floor a pipe's bookkeeping and the kernels' calls add to). On the board, packets per simulated
// cycle (the producer's launch: it ends when its last packet is in), the same with a producer
// reserving 4 packets at a time and writing them by index, and the round trip of one
// packet between two kernels (ping writes, pong reads and writes back, ping reads: cycles per
// round); and what a pipe costs in area, from the compiler's report. Figures, not a test.
// Usage: bench_pipe_throughput [cpu packets] [board packets]   (OCL_ICD_VENDORS must name loom.icd)
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
// Four packets a reservation, written by index (n a multiple of 4).
__kernel void produce_reserved(__write_only pipe int out, int n) {
  for (int i = 0; i < n; i += 4) {
    reserve_id_t r;
    do
      r = reserve_write_pipe(out, 4);
    while (!is_valid_reserve_id(r));
    for (int k = 0; k < 4; ++k) {
      int v = i + k;
      write_pipe(out, r, k, &v);
    }
    commit_write_pipe(out, r);
  }
}
// Two relays: on the board, a kernel's launches take turns on its circuit.
#define RELAY(name)                                                        \
  __kernel void name(__read_only pipe int in, __write_only pipe int out, int n) { \
    for (int i = 0; i < n; ++i) {                                          \
      int v;                                                               \
      while (read_pipe(in, &v) != 0)                                       \
        ;                                                                  \
      while (write_pipe(out, &v) != 0)                                     \
        ;                                                                  \
    }                                                                      \
  }
RELAY(relay_1)
RELAY(relay_2)
// Each packet goes out only once the previous one came back: the loop carries it.
__kernel void ping(__write_only pipe int out, __read_only pipe int in, __global long *sum, int n) {
  int v = 0;
  for (int i = 0; i < n; ++i) {
    while (write_pipe(out, &v) != 0)
      ;
    while (read_pipe(in, &v) != 0)
      ;
    v += 1;
  }
  *sum = v;
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

  PipeRun(cl_platform_id platform, cl_device_type type) {
    cl_int err;
    bench::check(clGetDeviceIDs(platform, type, 1, &device, nullptr), "clGetDeviceIDs");
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    bench::check(err, "clCreateContext");
    for (int i = 0; i < 4; ++i) {
      queues.push_back(clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err));
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

  struct Timing {
    double seconds;        ///< Host time from the first enqueue to the last finish.
    cl_ulong producerNs;   ///< The producer's launch, device time (simulated on the board).
  };

  /// Moves `packets` through `stages` kernels (2: `producer` and consumer) joined by pipes of
  /// `depth`; every kernel is enqueued before any is waited for, the consumer first.
  Timing run(int packets, unsigned depth, int stages, const char *producer = "produce") {
    const char *relays[] = {"relay_1", "relay_2"};
    std::vector<cl_kernel> kernels;
    for (int stage = stages - 1; stage >= 0; --stage)
      kernels.push_back(kernel(stage == 0 ? producer : stage == stages - 1 ? "consume" : relays[stage - 1]));
    const cl_long total = pass(kernels, packets, depth, /*pingPong=*/false);
    if (total != (cl_long)packets * (packets - 1) / 2)
      std::fprintf(stderr, "bench: the pipes lost packets (sum %lld)\n", (long long)total);
    for (cl_kernel k : kernels)
      clReleaseKernel(k);
    return last_;
  }

  /// Cycles a ping-pong round takes: ping sends a packet, pong sends it back, ping sends the next.
  double roundTrip(int rounds, double cyclesPerNs) {
    std::vector<cl_kernel> kernels{kernel("relay_1"), kernel("ping")};
    const cl_long last = pass(kernels, rounds, 1, /*pingPong=*/true);
    if (last != rounds)
      std::fprintf(stderr, "bench: ping-pong lost packets (%lld)\n", (long long)last);
    for (cl_kernel k : kernels)
      clReleaseKernel(k);
    return double(last_.producerNs) * cyclesPerNs / rounds;
  }

private:
  /// Runs `kernels` (the last stage first; the last of them the producer, or ping) joined by pipes
  /// (stage k reads pipe k - 1 and writes pipe k; with `pingPong`, ping writes pipe 0 and reads pipe
  /// 1, pong the other way); returns the long the consumer or ping leaves.
  cl_long pass(const std::vector<cl_kernel> &kernels, int packets, unsigned depth, bool pingPong) {
    cl_int err;
    const size_t stages = kernels.size();
    std::vector<cl_mem> pipes;
    for (size_t i = 0; i + 1 < stages; ++i) {
      pipes.push_back(clCreatePipe(context, 0, sizeof(int), depth, nullptr, &err));
      bench::check(err, "clCreatePipe");
    }
    if (pingPong) {
      pipes.push_back(clCreatePipe(context, 0, sizeof(int), depth, nullptr, &err));
      bench::check(err, "clCreatePipe");
    }
    cl_mem sum = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_long), nullptr, &err);
    bench::check(err, "clCreateBuffer");
    for (size_t i = 0; i < stages; ++i) {
      const size_t stage = stages - 1 - i; // kernels[0] is the last stage
      cl_uint arg = 0;
      auto set = [&](const void *value, size_t size) {
        bench::check(clSetKernelArg(kernels[i], arg++, size, value), "clSetKernelArg");
      };
      if (pingPong && stage == 0) {
        set(&pipes[0], sizeof(cl_mem));
        set(&pipes[1], sizeof(cl_mem));
        set(&sum, sizeof(cl_mem));
      } else if (pingPong) {
        set(&pipes[0], sizeof(cl_mem));
        set(&pipes[1], sizeof(cl_mem));
      } else {
        if (stage > 0)
          set(&pipes[stage - 1], sizeof(cl_mem));
        set(stage == stages - 1 ? &sum : &pipes[stage], sizeof(cl_mem));
      }
      set(&packets, sizeof packets);
    }
    std::vector<cl_event> events(stages);
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < stages; ++i) {
      bench::check(clEnqueueTask(queues[i], kernels[i], 0, nullptr, &events[i]), "clEnqueueTask");
      bench::check(clFlush(queues[i]), "clFlush");
    }
    for (size_t i = 0; i < stages; ++i)
      bench::check(clFinish(queues[i]), "clFinish");
    last_ = {seconds(std::chrono::steady_clock::now() - start), bench::eventNs(events.back())};
    cl_long total = 0;
    bench::check(clEnqueueReadBuffer(queues[0], sum, CL_TRUE, 0, sizeof total, &total, 0, nullptr, nullptr),
                 "clEnqueueReadBuffer");
    for (cl_event event : events)
      clReleaseEvent(event);
    for (cl_mem pipe : pipes)
      clReleaseMemObject(pipe);
    clReleaseMemObject(sum);
    return total;
  }

  Timing last_{};
};

/// The build log's lines that start with one of `prefixes` (the compiler's report is in it).
std::string reportLines(cl_program program, cl_device_id device, std::initializer_list<const char *> prefixes) {
  size_t size = 0;
  bench::check(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size), "clGetProgramBuildInfo");
  std::string log(size, '\0');
  bench::check(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr),
               "clGetProgramBuildInfo");
  std::string lines;
  for (size_t start = 0, end; start < log.size(); start = end + 1) {
    end = std::min(log.find('\n', start), log.size());
    const std::string line = log.substr(start, end - start);
    for (const char *prefix : prefixes)
      if (line.rfind(prefix, 0) == 0)
        lines += "  " + line + "\n";
  }
  return lines;
}

/// FIFOs of several depths, as channels (their depth is known when the program is compiled, so the
/// report counts them; a pipe object of the same depth is the same buffer on the board).
const char *const FifoAreaSource = R"(
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int depth_2 __attribute__((depth(2)));
channel int depth_64 __attribute__((depth(64)));
channel int depth_1024 __attribute__((depth(1024)));
channel int16 wide_depth_64 __attribute__((depth(64)));
__kernel void fill(int v) {
  write_channel_intel(depth_2, v);
  write_channel_intel(depth_64, v);
  write_channel_intel(depth_1024, v);
  write_channel_intel(wide_depth_64, (int16)(v));
}
__kernel void drain(__global int *out) {
  out[0] = read_channel_intel(depth_2) + read_channel_intel(depth_64) + read_channel_intel(depth_1024) +
           read_channel_intel(wide_depth_64).s0;
}
)";

/// What a pipe costs in area on the board: the relay kernel with its two pipe ports, and FIFOs.
void printPipeArea(const PipeRun &board) {
  std::printf("\npipe area (the compiler's estimate)\n%s", reportLines(board.program, board.device, {"kernel relay_1:"}).c_str());
  cl_int err;
  const char *text = FifoAreaSource;
  cl_program fifos = clCreateProgramWithSource(board.context, 1, &text, nullptr, &err);
  bench::check(err, "clCreateProgramWithSource");
  bench::check(clBuildProgram(fifos, 1, &board.device, "", nullptr, nullptr), "clBuildProgram");
  std::printf("%s", reportLines(fifos, board.device, {"channel '"}).c_str());
  clReleaseProgram(fifos);
}

/// The measured kernel arrangements: stages, the producer kernel, the row's name, the shallowest
/// pipe it can use.
struct Row {
  int stages;
  const char *producer;
  const char *name;
  unsigned minDepth;
};
const Row Rows[] = {{2, "produce", "producer -> consumer", 1},
                    {4, "produce", "chain of 4", 1},
                    {2, "produce_reserved", "reservations of 4 -> c.", 4}};

} // namespace

int main(int argc, char **argv) {
  const int packets = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const int boardPackets = argc > 2 ? std::atoi(argv[2]) : 200000;
  cl_platform_id loom = bench::findPlatform("Loom");
  if (!loom) {
    std::fprintf(stderr, "bench: no Loom platform (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  {
    PipeRun run(loom, CL_DEVICE_TYPE_CPU);
    run.run(1000, 64, 2); // The first launch generates the kernels' code.
    std::printf("CPU device\n%-8s %-22s %14s %14s %8s\n", "depth", "kernels", "packets/s", "bare ring/s", "ratio");
    for (unsigned depth : {4u, 64u, 1024u})
      for (const Row &row : Rows) {
        const double pipe = run.run(packets, depth, row.stages, row.producer).seconds;
        const double bare = bareRingSeconds(packets, depth);
        std::printf("%-8u %-22s %14.3g %14.3g %8.2f\n", depth, row.name, packets / pipe, packets / bare, bare / pipe);
      }
  }
  // The board builds the program through loomc's flow (cached under LOOM_CACHE_DIR).
  PipeRun board(loom, CL_DEVICE_TYPE_ACCELERATOR);
  cl_uint mhz = 0;
  bench::check(clGetDeviceInfo(board.device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, nullptr), "clGetDeviceInfo");
  const double cyclesPerNs = mhz / 1000.0;
  std::printf("\nboard (%u MHz), %d packets\n%-8s %-22s %16s %14s\n", mhz, boardPackets, "depth", "kernels",
              "packets/cycle", "host s");
  for (unsigned depth : {1u, 2u, 4u, 64u})
    for (const Row &row : Rows) {
      if (depth < row.minDepth)
        continue;
      const PipeRun::Timing timing = board.run(boardPackets, depth, row.stages, row.producer);
      std::printf("%-8u %-22s %16.4f %14.2f\n", depth, row.name,
                  boardPackets / (double(timing.producerNs) * cyclesPerNs), timing.seconds);
    }
  std::printf("ping-pong round trip: %.1f cycles (two pipe hops and the kernels' loops)\n",
              board.roundTrip(1000, cyclesPerNs));
  printPipeArea(board);
  return 0;
}
