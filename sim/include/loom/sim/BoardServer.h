//===- BoardServer.h - The loop of a loom-board process -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Maps the device memory shared with the runtime, says Hello, then serves LoadProgram and RunKernel
// until Shutdown or until the runtime goes away (EOF on the socket, or the parent process changed
// while a long launch runs).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>

namespace loom::sim {

struct BoardServerOptions {
  int socketFd = -1;
  int memoryFd = -1;
  uint64_t memorySize = 0;
  std::string board;
  pid_t parentPid = 0; ///< The runtime; when it is gone the server stops. 0: not checked.
};

/// Serves one runtime connection; returns the process exit status.
int serveBoard(const BoardServerOptions &options);

} // namespace loom::sim
