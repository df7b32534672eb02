//===- BoardProcess.h - The host's handle on one loom-board process -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Spawns loom-board with one end of a SOCK_SEQPACKET socketpair and the device-memory memfd, waits
// for its Hello, and speaks the protocol (Protocol.h). A board process that dies, stops answering or
// answers nonsense yields an error naming the process and what happened; the host never hangs on a
// dead board. Destruction shuts the process down and reaps it (SIGKILL after a grace period).
// Free of SystemC and Verilator: the OpenCL runtime links it.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/hls/HardwareKernel.h"
#include "loom/sim/Protocol.h"
#include "loom/sim/RunStats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>

namespace loom::sim {

class BoardProcess {
public:
  struct Options {
    std::string executable;   ///< Path of loom-board.
    std::string board;        ///< Board name the process simulates.
    int memoryFd = -1;        ///< Device-memory memfd; shared, not transferred.
    uint64_t memorySize = 0;
    int startTimeoutMs = 30000;  ///< Until Hello.
    int loadTimeoutMs = 120000;  ///< Until Loaded.
    int runTimeoutMs = -1;       ///< Until KernelDone; -1: none (the board's watchdog bounds a launch).
  };

  static llvm::Expected<std::unique_ptr<BoardProcess>> spawn(const Options &options);
  ~BoardProcess();
  BoardProcess(const BoardProcess &) = delete;
  BoardProcess &operator=(const BoardProcess &) = delete;

  /// Sends the model (passed as a memfd) and the kernels' hardware interfaces.
  llvm::Error loadProgram(llvm::StringRef modelBytes, llvm::ArrayRef<hls::HardwareKernel> kernels);
  /// Runs one kernel to completion. Thread-safe: launches on one process are serialised.
  llvm::Expected<RunStats> runKernel(const protocol::RunKernel &request);
  /// Asks the process to exit and reaps it; idempotent.
  llvm::Error shutdown();

  pid_t pid() const { return pid_; }
  const protocol::Hello &hello() const { return hello_; }

private:
  BoardProcess() = default;
  /// Waits for one message of the expected kinds, turning EOF, timeouts and the death of the
  /// process into errors.
  llvm::Expected<protocol::Message> await(int timeoutMs, llvm::StringRef waitingFor);
  /// An error when the process was shut down or has ended.
  llvm::Error checkRunning() const;
  /// Reaps the process (waiting up to `graceMs`, then SIGKILL) and describes how it ended.
  std::string reap(int graceMs);

  std::mutex mutex_;
  int socket_ = -1;
  pid_t pid_ = -1;
  bool reaped_ = false;
  std::string exitDescription_;
  Options options_;
  protocol::Hello hello_;
};

} // namespace loom::sim
