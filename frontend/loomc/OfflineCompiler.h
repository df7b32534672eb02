//===- OfflineCompiler.h - The offline compile pipeline behind loomc -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// OpenCL C (or SPIR-V) -> LLVM IR (frontend) -> dataflow -> Verilog (hls) -> Verilated model (sim),
// plus the kernel's CPU bitcode, packed into one .loom binary. loomc is flags around one call here;
// tests call it too.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/board/Board.h"
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace loom {

struct OfflineOptions {
  std::string sourceName;   ///< Shown in diagnostics.
  std::string source;       ///< OpenCL C text or SPIR-V bytes.
  std::string buildOptions; ///< -D, -I, -cl-std=... (link options for linkOffline)
  std::vector<frontend::EmbeddedHeader> headers; ///< clCompileProgram's embedded headers.
  /// Progress of the slow steps ("verilating", "compiling the simulation model").
  std::function<void(llvm::StringRef)> progress;
  /// Receives the dataflow graph after each hardware pass whose name matches `dumpAfter`
  /// ("all" for every pass).
  std::string dumpAfter;
  std::function<void(llvm::StringRef pass, llvm::StringRef kernel, llvm::StringRef text)> dump;
  /// Keeps the simulation model's build directory (the Verilog, the Verilated C++ and the tools'
  /// logs; its path is in the log), to see why Verilator or the C++ compiler refused it.
  bool saveTemps = false;
  /// Where the simulation model's build keeps verilated.h precompiled (ModelBuilder); none if empty.
  std::string precompiledHeaderDirectory;
  /// Stops after the Verilog and the report (Intel's aoc -rtl): no simulation model, no binary.
  bool rtlOnly = false;
};

struct OfflineResult {
  std::string binary;  ///< The .loom file's bytes (none under rtlOnly).
  std::string verilog;
  std::string report;  ///< Per kernel: II, depth, memory ports, area estimate.
  std::string log;     ///< Compiler warnings and the report, as stored in the binary.
  std::string warnings; ///< The frontend's and the hardware flow's warnings alone.
};

/// Compiles a program for `board`. On failure, the error's message is the build log.
llvm::Expected<OfflineResult> compileOffline(const OfflineOptions &options, const board::Board &board);

/// clCompileProgram for `board`: the source compiled for the hardware flow and for the host, not
/// synthesised.
llvm::Expected<frontend::ObjectCode> compileObject(const OfflineOptions &options, const board::Board &board);

/// clLinkProgram for `board`: objects and libraries compiled for it linked, then synthesised as
/// compileOffline does. A function no unit defines is a link error.
llvm::Expected<OfflineResult> linkOffline(llvm::ArrayRef<frontend::ObjectCode> objects,
                                          const OfflineOptions &options, const board::Board &board);

} // namespace loom
