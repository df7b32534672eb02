//===- BoardProcess.h - The host's handle on one loom-board process -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Spawns loom-board with one end of a SOCK_SEQPACKET socketpair and the device-memory memfd, waits
// for its Hello, and speaks the protocol (Protocol.h). A reader thread takes the board's messages and
// hands each to the thread waiting for it, so launches from several threads run on the board at the
// same time. A board process that dies, stops answering or answers nonsense yields an error naming
// the process and what happened to every waiting thread; the host never hangs on a dead board.
// Destruction shuts the process down and reaps it (SIGKILL after a grace period).
// Free of SystemC and Verilator: the OpenCL runtime links it.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/hls/HardwareKernel.h"
#include "loom/sim/Protocol.h"
#include "loom/sim/RunStats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
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
  /// Runs one kernel to completion (the request's launch number is assigned here). Thread-safe:
  /// launches from several threads run at the same time, each kernel's own one after another.
  llvm::Expected<RunStats> runKernel(protocol::RunKernel request);
  /// Asks the process to exit and reaps it; idempotent.
  llvm::Error shutdown();

  pid_t pid() const { return pid_; }
  const protocol::Hello &hello() const { return hello_; }

private:
  BoardProcess() = default;
  /// The reader thread: routes each message to launchReplies_ or replies_ until the socket ends.
  void readMessages();
  /// Waits, with `lock` held on mutex_, until `take` finds the message wanted; the end of the
  /// process, a timeout (which kills it) and nonsense are errors naming what the host waited for.
  llvm::Expected<protocol::Message>
  await(std::unique_lock<std::mutex> &lock, int timeoutMs, llvm::StringRef waitingFor,
        llvm::function_ref<bool(protocol::Message &)> take);
  /// The next answer not addressed to a launch (Hello, Loaded, Error).
  llvm::Expected<protocol::Message> awaitReply(std::unique_lock<std::mutex> &lock, int timeoutMs,
                                               llvm::StringRef waitingFor);
  /// An error when the process was shut down or has ended. Needs mutex_.
  llvm::Error checkRunning() const;
  /// Reaps the process (waiting up to `graceMs`, then SIGKILL) and describes how it ended.
  std::string reap(int graceMs);

  std::mutex mutex_; ///< Guards everything below but the reaping state.
  std::condition_variable arrived_;
  std::map<uint64_t, protocol::Message> launchReplies_;
  std::deque<protocol::Message> replies_;
  std::string readerEnded_; ///< How the process's messages ended; empty while they come.
  uint64_t nextLaunch_ = 1;
  std::thread reader_;
  int socket_ = -1;
  pid_t pid_ = -1;
  Options options_;
  protocol::Hello hello_;

  std::mutex reapMutex_;
  bool reaped_ = false;
  std::string exitDescription_;
};

} // namespace loom::sim
