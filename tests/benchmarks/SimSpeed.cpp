// SPDX-License-Identifier: Apache-2.0
// Benchmark: generated RTL (from a .loom binary) in the bare Verilator C++ loop and in the SystemC
// board model, in one run: the simulation speed of each and their ratio (target: the board model
// costs at most 1.3x the bare loop per simulated cycle). For vector_add, also the simulated cycles,
// cycles per work-item and the bounds set by the board's memory bandwidth and by II = 1; with
// --qor, for each kernel of the QoR benchmark's binary (tests/benchmarks/qor/qor.cl).
// usage: bench_sim_speed vector_add.loom [N]
//        bench_sim_speed --qor qor.loom
#include "loom/board/Board.h"
#include "loom/frontend/Binary.h"
#include "loom/sim/BoardSimulation.h"
#include "loom/sim/LoadedModel.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <random>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/mman.h>

using namespace loom;

namespace {

[[noreturn]] void die(const llvm::Twine &message) {
  llvm::errs() << "bench_sim_speed: " << message << "\n";
  std::exit(1);
}

template <typename T> T orDie(llvm::Expected<T> value) {
  if (!value)
    die(llvm::toString(value.takeError()));
  return std::move(*value);
}

template <typename F> double seconds(F &&work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// One launch to time: buffers (their initial bytes) then raw scalar arguments, and the NDRange.
struct Workload {
  std::string kernel;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<uint64_t> scalars;
  std::array<uint64_t, 3> range;
};

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<uint8_t> ints(size_t count, int low, int high, std::mt19937 &random) {
  std::uniform_int_distribution<int> pick(low, high - 1);
  std::vector<int> values(count);
  for (int &v : values)
    v = pick(random);
  return bytesOf(values);
}

std::vector<uint8_t> floats(size_t count, std::mt19937 &random) {
  std::uniform_real_distribution<float> pick(0.0f, 1.0f);
  std::vector<float> values(count);
  for (float &v : values)
    v = pick(random);
  return bytesOf(values);
}

uint64_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// The QoR benchmark's kernels with qor.py's sizes (the data only has to be valid: histogram bins
/// in range).
std::vector<Workload> qorWorkloads() {
  std::mt19937 random(7);
  const size_t triad = 100000;
  return {
      {"gemm", {ints(900, -100, 100, random), ints(900, -100, 100, random), ints(900, 0, 1, random)}, {30}, {1, 1, 1}},
      {"tiled_gemm", {ints(4096, -100, 100, random), ints(4096, -100, 100, random), ints(4096, 0, 1, random)},
       {64}, {1, 1, 1}},
      {"rows_swi", {ints(3200, -1000, 1000, random), ints(100, 0, 1, random)}, {100, 32}, {1, 1, 1}},
      {"histogram", {ints(1000, 0, 64, random), floats(1000, random), floats(64, random)}, {1000}, {1, 1, 1}},
      {"triad_swi", {floats(triad, random), floats(triad, random), floats(triad, random)},
       {floatBits(3.0f), triad}, {1, 1, 1}},
      {"triad16", {floats(triad, random), floats(triad, random), floats(triad, random)}, {floatBits(3.0f)},
       {triad / 16, 1, 1}},
      {"sgemm", {floats(4096, random), floats(4096, random), floats(4096, random)}, {64}, {64, 64, 1}},
      {"mandelbrot", {ints(256 * 256, 0, 1, random)},
       {floatBits(-2.0f), floatBits(-1.5f), floatBits(3.0f / 256), 64}, {256, 256, 1}},
      {"fir", {ints(1016, -1000, 1000, random), ints(16, -100, 100, random), ints(1000, 0, 1, random)}, {1000},
       {1, 1, 1}},
      {"stencil", {floats(130 * 130, random), floats(130 * 130, random)}, {130}, {128, 128, 1}},
      {"private_sort", {ints(16000, -1000, 1000, random), ints(16000, 0, 1, random)}, {16}, {1000, 1, 1}},
  };
}

/// The binary's model on the board, with device memory for the workloads.
struct Bench {
  board::Board board;
  std::unique_ptr<sim::LoadedModel> model;
  std::vector<hls::HardwareKernel> kernels;
  sim::MemoryRegion memory;
  std::unique_ptr<sim::BoardSimulation> simulation;
};

struct Speed {
  uint64_t boardCycles = 0, bareCycles = 0;
  double boardRate = 0, bareRate = 0; ///< Simulated cycles per second.
};

unsigned kernelIndex(const Bench &bench, llvm::StringRef name) {
  auto found = std::find_if(bench.kernels.begin(), bench.kernels.end(),
                            [&](const hls::HardwareKernel &k) { return k.kernelName == name; });
  if (found == bench.kernels.end())
    die("the binary has no kernel '" + name + "'");
  return unsigned(found - bench.kernels.begin());
}

/// Copies the workload's buffers into device memory, one page-aligned region each after a first
/// page (never at address 0), and returns the kernel's arguments.
std::vector<uint64_t> place(Bench &bench, const Workload &workload) {
  const uint64_t page = 4096;
  std::vector<uint64_t> args;
  uint64_t at = page;
  for (const std::vector<uint8_t> &buffer : workload.buffers) {
    if (at + buffer.size() > bench.memory.size)
      die("device memory too small for " + workload.kernel);
    std::memcpy(bench.memory.base + at, buffer.data(), buffer.size());
    args.push_back(at);
    at += (buffer.size() + page - 1) / page * page;
  }
  args.insert(args.end(), workload.scalars.begin(), workload.scalars.end());
  return args;
}

/// Best of three runs in each loop, interleaved, against noise from other processes.
Speed measure(Bench &bench, unsigned index, llvm::ArrayRef<uint64_t> args, const std::array<uint64_t, 3> &range) {
  const std::array<uint64_t, 3> offset{0, 0, 0};
  double bareSeconds = 1e30, boardSeconds = 1e30;
  Speed speed;
  for (int round = 0; round < 3; ++round) {
    bareSeconds = std::min(bareSeconds, seconds([&] {
      speed.bareCycles = orDie(sim::runBare(*bench.model, bench.kernels[index], index, bench.memory, args, offset,
                                            range, bench.board.memory.latencyCycles));
    }));
    boardSeconds = std::min(boardSeconds, seconds([&] {
      speed.boardCycles = orDie(bench.simulation->run(index, args, offset, range)).cycles;
    }));
  }
  speed.bareRate = double(speed.bareCycles) / bareSeconds;
  speed.boardRate = double(speed.boardCycles) / boardSeconds;
  return speed;
}

void vectorAdd(Bench &bench, uint64_t n) {
  const unsigned index = kernelIndex(bench, "vector_add");
  const hls::HardwareKernel &kernel = bench.kernels[index];
  std::vector<float> a(n), b(n);
  for (uint64_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = 0.5f * float(i);
  }
  const Workload workload{"vector_add", {bytesOf(a), bytesOf(b), bytesOf(std::vector<float>(n))}, {}, {n, 1, 1}};
  const std::vector<uint64_t> args = place(bench, workload);
  orDie(bench.simulation->run(index, args, {0, 0, 0}, {1000, 1, 1})); // Warm-up: elaboration, first touches.
  const Speed speed = measure(bench, index, args, workload.range);
  const auto *c = reinterpret_cast<const float *>(bench.memory.base + args[2]);
  for (uint64_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i])
      die("wrong result at element " + llvm::Twine(i));

  const board::Board &board = bench.board;
  const double bytesPerCycle = board.memory.bandwidthGBps * 1e9 / (board.clockMHz * 1e6);
  const double memoryBound = double(n) * 3 * sizeof(float) / bytesPerCycle;
  const double iiBound = double(n) * kernel.initiationInterval;
  std::printf("board '%s', vector_add of %llu floats:\n", board.name.c_str(), (unsigned long long)n);
  std::printf("  simulated cycles       %llu (%.3f per work-item), %.3f ms at %.0f MHz\n",
              (unsigned long long)speed.boardCycles, double(speed.boardCycles) / double(n),
              double(speed.boardCycles) / board.clockMHz / 1e3, board.clockMHz);
  std::printf("  bounds                 memory bandwidth %.0f cycles (%.1f B/cycle), II=%u %.0f cycles,"
              " pipeline depth %u\n",
              memoryBound, bytesPerCycle, kernel.initiationInterval, iiBound, kernel.pipelineDepth);
  std::printf("  bare Verilator loop    %.2f Mcycles/s (%llu cycles, fixed latency, unlimited bandwidth)\n",
              speed.bareRate / 1e6, (unsigned long long)speed.bareCycles);
  std::printf("  SystemC board model    %.2f Mcycles/s\n", speed.boardRate / 1e6);
  std::printf("  board/bare cost        %.2fx per simulated cycle (target <= 1.3x)\n", speed.bareRate / speed.boardRate);
}

void qor(Bench &bench) {
  std::printf("board '%s', the QoR kernels (simulation speed per simulated cycle; target board/bare <= 1.3x):\n",
              bench.board.name.c_str());
  std::printf("  %-14s %12s %12s %14s %14s %10s\n", "kernel", "board cycles", "bare cycles", "board Mcyc/s",
              "bare Mcyc/s", "board/bare");
  bool warm = false;
  std::vector<double> ratios;
  for (const Workload &workload : qorWorkloads()) {
    const unsigned index = kernelIndex(bench, workload.kernel);
    const std::vector<uint64_t> args = place(bench, workload);
    if (!warm) // Elaboration and first touches, once.
      orDie(bench.simulation->run(index, args, {0, 0, 0}, workload.range));
    warm = true;
    const Speed speed = measure(bench, index, args, workload.range);
    ratios.push_back(speed.bareRate / speed.boardRate);
    std::printf("  %-14s %12llu %12llu %14.2f %14.2f %9.2fx\n", workload.kernel.c_str(),
                (unsigned long long)speed.boardCycles, (unsigned long long)speed.bareCycles, speed.boardRate / 1e6,
                speed.bareRate / 1e6, ratios.back());
  }
  double logSum = 0;
  for (double ratio : ratios)
    logSum += std::log(ratio);
  std::printf("  geometric mean board/bare %.2fx, worst %.2fx\n", std::exp(logSum / double(ratios.size())),
              *std::max_element(ratios.begin(), ratios.end()));
}

} // namespace

int main(int argc, char **argv) {
  const bool qorMode = argc > 2 && llvm::StringRef(argv[1]) == "--qor";
  if (argc < 2 || (llvm::StringRef(argv[1]).startswith("--") && !qorMode))
    die("usage: bench_sim_speed vector_add.loom [N] | bench_sim_speed --qor qor.loom");
  const char *path = qorMode ? argv[2] : argv[1];
  const uint64_t n = !qorMode && argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file)
    die(llvm::Twine("cannot read ") + path);
  auto binary = orDie(frontend::readBinary((*file)->getBuffer()));
  Bench bench{orDie(board::loadBoard(binary.board())), orDie(sim::LoadedModel::load(binary.model)),
              orDie(hls::hardwareKernelsOf(binary.meta)), {}, nullptr};
  // vector_add's three arrays, or the largest QoR workload, after a first page.
  const uint64_t size = 4096 + 3 * ((std::max<uint64_t>(n, 1 << 20) * sizeof(float) + 4095) / 4096 * 4096);
  void *mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    die("cannot map device memory");
  bench.memory = sim::MemoryRegion{static_cast<uint8_t *>(mapping), size};
  bench.simulation = orDie(sim::BoardSimulation::create(bench.board, *bench.model, bench.kernels, bench.memory));
  if (qorMode)
    qor(bench);
  else
    vectorAdd(bench, n);
  munmap(mapping, size);
  return 0;
}
