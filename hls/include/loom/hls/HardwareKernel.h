//===- HardwareKernel.h - The hardware interface of one compiled kernel -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What hls/ tells sim/ and the runtime about a generated kernel module. This is the contract of the
// generated Verilog top module `topModule`:
//
//   input  clk, rst                    rst: synchronous, active high
//   input  start                       one-cycle pulse; arguments and NDRange ports hold until done
//   output done                        high once every work-item has completed, until the next start
//   input  [63:0] arg_<i>              for i < numArgs: scalars zero-extended, pointers as device addresses;
//                                      with workGroupArgs the last four are not the kernel's own but
//                                      local_size_0, local_size_1, local_size_2 and work_dim
//   input  [63:0] global_offset_<d>, global_size_<d>   d = 0, 1, 2 (unused dimensions: offset 0, size 1)
//   per memory port p (ports[p]), W = 8 * ports[p].bytes:
//     output m<p>_req_valid            input m<p>_req_ready
//     output [63:0] m<p>_req_addr      byte address, naturally aligned
//     output [W-1:0] m<p>_req_wdata    store ports only
//     input  m<p>_resp_valid           responses return in request order, one per request; the port
//     input  [W-1:0] m<p>_resp_rdata   load ports only      always accepts them (it holds credits)
// A request fires at a rising clock edge where req_valid and req_ready are both high; req_valid never
// depends combinationally on req_ready.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace loom::hls {

struct MemoryPort {
  enum class Kind { Load, Store };
  Kind kind = Kind::Load;
  unsigned bytes = 4;       ///< Access size: 1, 2, 4 or 8.
  std::string location;     ///< "file:line:col" of the access in the kernel source.
};

/// Area estimate from the board's cost data; informational.
struct AreaEstimate {
  uint64_t luts = 0, ffs = 0, dsps = 0;
  uint64_t rams = 0; ///< Block RAMs (36 Kbit) of the kernel's on-chip memories.
};

/// A loop of the kernel as built: how often it can start an iteration, and what limits that.
struct LoopReport {
  std::string location;   ///< "file:line" of the loop.
  unsigned depth = 1;     ///< Nesting depth, 1 for an outermost loop.
  unsigned ii = 1;        ///< Cycles between iterations of one work-item (its longest ring).
  std::string boundBy;    ///< The value whose recurrence sets the II, e.g. "sum" or "memory order".
  std::string boundAt;    ///< Where that value is defined.
  unsigned tripCount = 0; ///< Iterations per entry when a constant, else 0.
  unsigned requestedII = 0; ///< `#pragma ii N` (or Clang's pipeline_initiation_interval): N; else 0.
  bool ivdep = false;       ///< `#pragma ivdep`: iterations do not wait for each other's memory accesses.
  unsigned interleaved = 1; ///< Elements per iteration: the partial sums of a reassociated float reduction.
};

struct HardwareKernel {
  std::string kernelName;
  std::string topModule;              ///< Verilog module name of this kernel.
  unsigned numArgs = 0;               ///< Including the four work-group arguments, when present.
  /// The kernel uses work-group functions (get_local_id, ...): the launch passes the local sizes and
  /// the work dimension as four arguments after the kernel's own.
  bool workGroupArgs = false;
  std::vector<MemoryPort> ports;
  unsigned initiationInterval = 1;    ///< Cycles between work-item entries in steady state.
  unsigned pipelineDepth = 0;         ///< Cycles from a work-item's entry to its completion, no stalls.
  AreaEstimate area;
  std::vector<LoopReport> loops;
};

llvm::json::Value toJSON(const HardwareKernel &kernel);
bool fromJSON(const llvm::json::Value &value, HardwareKernel &kernel, llvm::json::Path path);

/// The hardware interface of every kernel of a .loom binary's metadata (`kernels[i].hardware`, as
/// loomc writes it), in kernel order. An error names a kernel without one or with a bad one.
llvm::Expected<std::vector<HardwareKernel>> hardwareKernelsOf(const llvm::json::Object &meta);

} // namespace loom::hls
