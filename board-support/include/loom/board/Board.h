//===- Board.h - Board descriptions from board-support data files -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A board is data, not code: its clock, global memory, host link, resource budget and operator
// latencies come from a JSON file in board-support/boards/. The files are embedded in this library at
// build time; LOOM_BOARD_PATH (colon-separated directories) adds or overrides boards at run time.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace loom::board {

/// The off-chip global memory: the simulator's memory model and the compiler's load scheduling use it.
struct GlobalMemory {
  uint64_t sizeBytes = 0;
  unsigned banks = 1;
  unsigned widthBytes = 8;        ///< Bytes one bank moves per beat.
  uint64_t interleaveBytes = 4096; ///< Consecutive addresses change bank every this many bytes.
  unsigned latencyCycles = 1;     ///< Request to response, unloaded, in kernel clock cycles.
  double bandwidthGBps = 0;       ///< All banks together; 0 means unlimited.
};

struct HostLink {
  std::string kind;
  double bandwidthGBps = 0; ///< 0 means transfers take no simulated time.
  double latencyUs = 0;
};

struct Resources {
  uint64_t luts = 0, ffs = 0, dsps = 0, brams = 0;
};

struct Board {
  std::string name;
  std::string description;
  double clockMHz = 100;
  GlobalMemory memory;
  HostLink hostLink;
  Resources resources;
  /// Pipeline depth, in cycles, of each operator class (int_add, float_mul, ...).
  std::map<std::string, unsigned> operatorLatency;
  /// The description as read: what a program compiled for this board depends on.
  std::string json;

  /// Latency of an operator class; an error names the board file's missing key.
  llvm::Expected<unsigned> latencyOf(llvm::StringRef op) const;
  /// Global-memory bytes per kernel clock cycle, all banks together; 0 means unlimited.
  double memoryBytesPerCycle() const;
  /// Nanoseconds per kernel clock cycle.
  double cycleNs() const { return 1000.0 / clockMHz; }
};

/// Parses one board description; `origin` names the file in error messages.
llvm::Expected<Board> parseBoard(llvm::StringRef json, llvm::StringRef origin);
/// Finds a board by name among LOOM_BOARD_PATH and the built-in boards.
llvm::Expected<Board> loadBoard(llvm::StringRef name);
/// Every board that loadBoard can find, sorted by name.
std::vector<Board> listBoards();

} // namespace loom::board
