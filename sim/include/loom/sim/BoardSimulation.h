//===- BoardSimulation.h - A kernel model on a modelled board (SystemC) -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Runs kernel launches of a loaded model against the board's global memory, modelled as a TLM-2.0
// target (banks, bandwidth, latency). The model is stepped in a plain C++ loop; each fired request is
// a loosely-timed b_transport call and its response returns to the port at the cycle the memory
// model gives. SystemC is synchronised only when a quantum is used up and when simulate() returns.
//
// The kernels of a program are circuits of one design, clocked together: launches of different
// kernels run at the same time and share the memory system; each kernel's circuit takes its own
// launches one after another, as the hardware would. Launches are started at any time (start()) and
// the simulation is advanced until one ends (simulate()), so a board process can take a new launch
// while others run.
//
// SystemC allows one elaboration per process: the SystemC modules are created once and shared by
// every BoardSimulation of the process, which reconfigure them per launch. Use them from one thread
// at a time (launches are serialised by a process-wide lock).
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/board/Board.h"
#include "loom/hls/HardwareKernel.h"
#include "loom/sim/LoadedModel.h"
#include "loom/sim/PipeBinding.h"
#include "loom/sim/RunStats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace loom::sim {

/// Device global memory as the host sees it: device address A is base[A], for A < size.
struct MemoryRegion {
  uint8_t *base = nullptr;
  uint64_t size = 0;
};

struct SimulationOptions {
  /// A launch without pipes fails when for this many cycles it fires no request, gets no response
  /// and done stays low; launches with pipes, which may wait for other kernels, fail together, as a
  /// deadlock, when nothing on the board moves for this many cycles.
  uint64_t watchdogCycles = uint64_t(1) << 22;
  /// When only autorun launches run and nothing on the board moves for this many cycles, they wait
  /// for packets only another launch can bring: the simulation stops (idle()) until start().
  uint64_t autorunIdleCycles = 1024;
  /// Cycles simulated between synchronisations with the SystemC kernel.
  uint64_t quantumCycles = 8192;
  /// Polled at every synchronisation; returning true aborts the launch (the board process uses it
  /// to stop when its parent is gone).
  std::function<bool()> cancelled;
};

/// How a launch ended.
struct EndedLaunch {
  uint64_t id = 0;
  std::string error; ///< Empty when the kernel raised done; else why it failed.
  RunStats stats;    ///< On failure, the cycles it ran.
};

class BoardSimulation {
public:
  /// `kernels[i]` describes kernel i of `model`; their names must agree.
  static llvm::Expected<std::unique_ptr<BoardSimulation>>
  create(const board::Board &board, const LoadedModel &model,
         std::vector<hls::HardwareKernel> kernels, MemoryRegion memory,
         SimulationOptions options = {});
  ~BoardSimulation();

  /// Starts launch `id` of kernel `kernelIndex`: the kernel's circuit takes it at the next simulated
  /// cycle, or after the launches of the same kernel started before it.
  /// `pipes` binds the kernel's pipe ports, in order. An `autorun` launch starts again each time
  /// its kernel finishes: it ends only by failing, and a deadlock of the other launches leaves it
  /// waiting. Errors: a bad index or argument count, an id in use, pipes that do not match the
  /// kernel's pipe arguments or a pipe's earlier shape.
  llvm::Error start(uint64_t id, unsigned kernelIndex, llvm::ArrayRef<uint64_t> args,
                    const std::array<uint64_t, 3> &offset, const std::array<uint64_t, 3> &size,
                    llvm::ArrayRef<PipeBinding> pipes = {}, bool autorun = false);
  /// Simulates until at least one launch ends, `interrupted` answers true (it is asked at every
  /// synchronisation with SystemC, about once a quantum), no launch is left or the simulation is
  /// idle(), and returns the launches that ended. A launch fails on an access outside device
  /// memory, on the watchdog (see SimulationOptions), and on cancellation (which ends every launch).
  std::vector<EndedLaunch> simulate(const std::function<bool()> &interrupted = nullptr);
  /// Launches started and not ended yet (autorun ones included).
  size_t activeLaunches() const;
  /// Only autorun launches run, and they have waited autorunIdleCycles without anything moving:
  /// simulating on would change nothing until start() brings another launch.
  bool idle() const;
  /// The packets pipe `id` holds (0 for a pipe no launch has bound yet).
  size_t pipePackets(uint64_t id) const;

  /// Runs kernel `kernelIndex` to completion on an otherwise idle simulation (start + simulate).
  llvm::Expected<RunStats> run(unsigned kernelIndex, llvm::ArrayRef<uint64_t> args,
                               const std::array<uint64_t, 3> &offset,
                               const std::array<uint64_t, 3> &size,
                               llvm::ArrayRef<PipeBinding> pipes = {});

  const board::Board &board() const;
  const std::vector<hls::HardwareKernel> &kernels() const;
  SimulationOptions &options();

  struct Impl;

private:
  explicit BoardSimulation(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The bare harness, for benchmarks: the same model stepped in a C++ loop against a plain memory
/// with a fixed latency and unlimited bandwidth, no SystemC. Returns the cycles of the launch.
llvm::Expected<uint64_t> runBare(const LoadedModel &model, const hls::HardwareKernel &kernel,
                                 unsigned kernelIndex, MemoryRegion memory,
                                 llvm::ArrayRef<uint64_t> args,
                                 const std::array<uint64_t, 3> &offset,
                                 const std::array<uint64_t, 3> &size, unsigned latencyCycles,
                                 uint64_t watchdogCycles = uint64_t(1) << 22);

/// Names a port for diagnostics: "port 1 (store at vadd.cl:4:10)".
std::string describePort(const hls::HardwareKernel &kernel, unsigned port);

} // namespace loom::sim
