//===- PipeOperations.h - Pipe builtins and the deadlock watch -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The builtin library's pipe functions (frontend/builtins/pipes.host.ll) call the __loom_pipe_*
// functions here, which the JIT resolves to these addresses (pipeOperationSymbols), on the storage
// core/PipeStorage.h lays out. A read or write that finds the pipe empty or full fails at once, as
// OpenCL C says. A loop that waits on pipe calls calls __loom_pipe_spin on its way back
// (SpinLoopYields.h), which gives the core to another thread.
//
// Kernels that use pipes run at the same time as the kernels they talk to (each launch has a thread
// of its own). When every thread of every running launch with pipe arguments has spun, without one
// successful pipe call, for the watch's timeout, no kernel can move any more: the watch ends those
// launches (a blocked work-item's spin call does not return; it jumps back to its thread's group
// loop, as the JIT's code keeps nothing that needs unwinding) and each launch fails with a diagnosis
// naming the kernels, the pipes they wait on, how full those are and the lines they wait at. A
// kernel whose pipe calls fail without it waiting (it takes "no" for an answer) is never blocked.
// An autorun kernel's launch (AutorunKernels.h) waits for its channels as long as it must: it
// counts towards the other launches' deadlock, and is named in its diagnosis, but never ends by
// one; it naps while it waits, and ends when its program stops it.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <atomic>
#include <chrono>
#include <csetjmp>
#include <list>
#include <mutex>
#include <string>
#include <vector>

namespace loom::runtime::cpu {

/// CL_DEVICE_MAX_PIPE_ARGS: the spec's minimum, a limit a build checks (pipes need nothing per
/// argument here).
constexpr unsigned MaxPipeArgs = 16;

/// The __loom_pipe_* functions, for `jit`'s symbol table.
llvm::orc::SymbolMap pipeOperationSymbols(llvm::orc::LLJIT &jit);
inline bool isPipeOperation(llvm::StringRef symbol) { return symbol.startswith("__loom_pipe_"); }
/// Called on the way back of a loop that waits on pipe calls.
constexpr const char *PipeSpinFunction = "__loom_pipe_spin";
/// The ones that may fail for want of packets or room, and take a call site (PipeCallSites.h) last.
inline bool isWaitingPipeOperation(llvm::StringRef symbol) {
  return symbol == "__loom_pipe_read" || symbol == "__loom_pipe_write" || symbol == "__loom_pipe_reserve";
}

class PipeWatch;

/// One launch with pipe arguments, while it runs.
class WatchedLaunch {
public:
  struct PipeArgument {
    std::string name; ///< The kernel argument's.
    void *storage;
  };
  /// One thread's part: registered while it claims the launch's work-groups.
  struct Thread {
    std::jmp_buf abort;
    WatchedLaunch *launch = nullptr;
    /// When the thread's pipe calls started failing, without a success since; 0: not blocked.
    std::atomic<int64_t> blockedSinceNs{0};
    std::atomic<int64_t> lastSpinNs{0};
    std::atomic<const void *> waitsOn{nullptr}; ///< The storage of the pipe it last failed on.
    std::atomic<bool> waitsToWrite{false};
    std::atomic<uint32_t> waitsAt{0}; ///< The call site (PipeCallSites.h); 0: unknown.
  };

  /// `sites` are the program's pipe call sites (numberPipeCallSites); `stop`, for an autorun
  /// kernel's launch, ends it once set.
  WatchedLaunch(PipeWatch &watch, std::string kernel, std::vector<PipeArgument> pipes,
                const std::vector<std::string> &sites, const std::atomic<bool> *stop = nullptr);
  ~WatchedLaunch();
  /// Makes `thread` the calling thread's part until leave().
  void join(Thread &thread);
  void leave(Thread &thread);
  /// Why the watch ended the launch; empty while it has not.
  std::string failure() const;
  /// An autorun kernel's launch (given `stop`), and whether its program asked it to end.
  bool autorun() const { return stop != nullptr; }
  bool stopping() const { return stop && stop->load(std::memory_order_relaxed); }

private:
  friend class PipeWatch;
  PipeWatch &watch;
  const std::string kernel;
  const std::vector<PipeArgument> pipes;
  const std::vector<std::string> &sites;
  const std::atomic<bool> *const stop; ///< Null but for an autorun kernel's launch.
  std::vector<Thread *> threads; ///< Under the watch's mutex.
  std::string diagnosis;         ///< Under the watch's mutex.
};

/// Runs `group` (a work-group's function) on a watched thread: false when the watch ended the
/// launch meanwhile (and the group did not finish).
template <typename Group> bool runWatched(WatchedLaunch::Thread &thread, Group &&group) {
  if (setjmp(thread.abort))
    return false;
  group();
  return true;
}

class PipeWatch {
public:
  /// How long every watched thread must have been blocked for a deadlock: LOOM_PIPE_DEADLOCK_MS,
  /// else 3 s (a producer enqueued late by its host is not a deadlock). A thread is blocked while
  /// it keeps spinning, at least every spinGapNs() (one the system has not run for that long may
  /// find its pipe ready when it runs again; a loop that works that long between its pipe calls
  /// is not blocked).
  PipeWatch();
  /// Called by a blocked thread now and then: true when the watch has ended its launch.
  bool deadlocked(WatchedLaunch::Thread &blocked, int64_t nowNs);
  int64_t timeoutNs() const { return timeout; }
  /// A quarter of the timeout: long for a scheduler's time slice, short against the timeout.
  int64_t spinGapNs() const { return timeout / 4; }

private:
  friend class WatchedLaunch;
  std::mutex mutex;
  std::list<WatchedLaunch *> running;
  int64_t timeout;
};

} // namespace loom::runtime::cpu
