// SPDX-License-Identifier: Apache-2.0
// Benchmark: vector_add's generated RTL (from a .loom binary) in the bare Verilator C++ loop and in
// the SystemC board model, in one run. Prints the simulated cycles, cycles per work-item, the bounds
// set by the board's memory bandwidth and by II = 1, the simulation speed of each loop and their
// ratio (target: the board model costs at most 1.3x the bare loop).
// usage: bench_sim_speed vector_add.loom [N]
#include "loom/board/Board.h"
#include "loom/frontend/Binary.h"
#include "loom/sim/BoardSimulation.h"
#include "loom/sim/LoadedModel.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
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

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    die("usage: bench_sim_speed vector_add.loom [N]");
  const uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  auto file = llvm::MemoryBuffer::getFile(argv[1], /*IsText=*/false);
  if (!file)
    die(llvm::Twine("cannot read ") + argv[1]);
  auto binary = orDie(frontend::readBinary((*file)->getBuffer()));
  auto board = orDie(board::loadBoard(binary.board()));
  auto model = orDie(sim::LoadedModel::load(binary.model));

  auto kernels = orDie(hls::hardwareKernelsOf(binary.meta));
  auto found = std::find_if(kernels.begin(), kernels.end(),
                            [](const hls::HardwareKernel &k) { return k.kernelName == "vector_add"; });
  if (found == kernels.end())
    die("the binary has no kernel 'vector_add'");
  const unsigned index = unsigned(found - kernels.begin());

  // Device memory: a, b and c one after another, page aligned, never at address 0.
  const uint64_t bytes = n * sizeof(float), page = 4096;
  const uint64_t stride = (bytes + page - 1) / page * page;
  const uint64_t size = page + 3 * stride;
  void *mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    die("cannot map device memory");
  sim::MemoryRegion memory{static_cast<uint8_t *>(mapping), size};
  const uint64_t a = page, b = page + stride, c = page + 2 * stride;
  auto *fa = reinterpret_cast<float *>(memory.base + a), *fb = reinterpret_cast<float *>(memory.base + b);
  for (uint64_t i = 0; i < n; ++i) {
    fa[i] = float(i);
    fb[i] = 0.5f * float(i);
  }
  const std::vector<uint64_t> args{a, b, c};
  const std::array<uint64_t, 3> offset{0, 0, 0}, range{n, 1, 1};

  auto simulation = orDie(sim::BoardSimulation::create(board, *model, kernels, memory));
  orDie(simulation->run(index, args, offset, {1000, 1, 1})); // Warm-up: SystemC elaboration, first touches.

  // Best of three of each, interleaved, against noise from other processes on the machine.
  double bareSeconds = 1e30, boardSeconds = 1e30;
  uint64_t bareCycles = 0;
  sim::RunStats stats;
  for (int round = 0; round < 3; ++round) {
    bareSeconds = std::min(bareSeconds, seconds([&] {
      bareCycles = orDie(sim::runBare(*model, *found, index, memory, args, offset, range,
                                      board.memory.latencyCycles));
    }));
    std::memset(memory.base + c, 0, bytes);
    boardSeconds = std::min(boardSeconds, seconds([&] { stats = orDie(simulation->run(index, args, offset, range)); }));
  }
  const auto *fc = reinterpret_cast<const float *>(memory.base + c);
  for (uint64_t i = 0; i < n; ++i)
    if (fc[i] != fa[i] + fb[i])
      die("wrong result at element " + llvm::Twine(i));

  const double bytesPerCycle = board.memory.bandwidthGBps * 1e9 / (board.clockMHz * 1e6);
  const double memoryBound = double(n) * 3 * sizeof(float) / bytesPerCycle;
  const double iiBound = double(n) * found->initiationInterval;
  const double bareRate = double(bareCycles) / bareSeconds, boardRate = double(stats.cycles) / boardSeconds;
  std::printf("board '%s', vector_add of %llu floats:\n", board.name.c_str(), (unsigned long long)n);
  std::printf("  simulated cycles       %llu (%.3f per work-item), %.3f ms at %.0f MHz\n",
              (unsigned long long)stats.cycles, double(stats.cycles) / double(n), stats.simulatedNs / 1e6,
              board.clockMHz);
  std::printf("  bounds                 memory bandwidth %.0f cycles (%.1f B/cycle), II=%u %.0f cycles,"
              " pipeline depth %u\n",
              memoryBound, bytesPerCycle, found->initiationInterval, iiBound, found->pipelineDepth);
  std::printf("  bare Verilator loop    %.2f Mcycles/s (%llu cycles, fixed latency, unlimited bandwidth)\n",
              bareRate / 1e6, (unsigned long long)bareCycles);
  std::printf("  SystemC board model    %.2f Mcycles/s\n", boardRate / 1e6);
  std::printf("  board/bare cost        %.2fx per simulated cycle (target <= 1.3x)\n", bareRate / boardRate);
  munmap(mapping, size);
  return 0;
}
