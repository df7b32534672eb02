//===- HardwareKernel.h - The hardware interface of one compiled kernel -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What hls/ tells sim/ and the runtime about a generated kernel module. This is the contract of the
// generated Verilog top module `topModule`:
//
//   input  clk, rst                    rst: synchronous, active high
//   input  start                       one-cycle pulse; arguments and NDRange ports hold until done
//   output done                        high once every work-item has completed, until the next start
//   output retired                     a work-item finishes at this edge (the watchdog's progress)
//   input  [63:0] arg_<i>              for i < numArgs: scalars zero-extended, pointers as device addresses
//                                      (a vector over 8 bytes: [8 * wideArgBytes[i] - 1:0]);
//                                      after the kernel's own: with printfBuffer the printf buffer's
//                                      address, then with workGroupArgs the WorkGroupArgs
//                                      local_size_0, _1, _2 (the enqueued sizes), work_dim and
//                                      last_group_size_0, _1, _2 (a partial last group's); with
//                                      computeUnits N > 1 the last 12 * N are each unit's part of
//                                      the range (computeUnitShares)
//   input  [63:0] global_offset_<d>, global_size_<d>   d = 0, 1, 2 (unused dimensions: offset 0, size 1)
//   per memory port p (ports[p]), W = 8 * ports[p].bytes:
//     output m<p>_req_valid            input m<p>_req_ready
//     output [63:0] m<p>_req_addr      byte address, naturally aligned (line ports: line-aligned)
//     output [W-1:0] m<p>_req_wdata    store ports: the data; atomic ports: the operand (cmpxchg: the
//                                      value written when the memory holds req_cmp)
//     output [W/8-1:0] m<p>_req_strobe line store ports only: the memory writes byte b when bit b is set
//     output [W-1:0] m<p>_req_cmp      atomic cmpxchg ports only: the value compared with memory
//     input  m<p>_resp_valid           responses return in request order, one per request; the port
//     input  [W-1:0] m<p>_resp_rdata   load ports: the data; atomic ports: the memory's value before
//                                      the operation          always accepts them (it holds credits)
//   per pipe port s (pipePorts[s]), W = 8 * pipePorts[s].packetBytes: the FIFO of the pipe object the
//   launch binds to argument pipePorts[s].arg, kept by the board. A FIFO position is a packet's
//   number since the pipe was made (its low 32 bits on these ports); the signals a port has are the
//   operations its kernel uses (PipePort::transfers, ...):
//   transfers (read_pipe, write_pipe):
//     read pipes:  input s<s>_valid, input [W-1:0] s<s>_data   a packet is offered (the FIFO's oldest)
//                  output s<s>_pop                             the kernel takes it at this edge
//     write pipes: input s<s>_ready                            the FIFO has room
//                  output s<s>_push, output [W-1:0] s<s>_data  the kernel adds a packet at this edge
//   reserves (reserve_read_pipe, reserve_write_pipe):
//     input [31:0] s<s>_reservable     packets a reservation may claim now: written ones no reader
//                                      claimed (read), free room no writer claimed (write)
//     input [31:0] s<s>_reserve_base   the position a reservation made now starts at
//     output s<s>_reserve, output [31:0] s<s>_reserve_count   the kernel claims that many at this edge
//   slots (read_pipe, write_pipe with a reservation): one packet of a reservation, by position
//     output s<s>_slot_en, output [31:0] s<s>_slot
//     read pipes:  input [W-1:0] s<s>_slot_rdata  the packet at s<s>_slot, in the same cycle (the
//                                                 FIFO RAM's asynchronous read port)
//     write pipes: output [W-1:0] s<s>_slot_wdata the packet written there at this edge
//   commits (commit_read_pipe, commit_write_pipe):
//     output s<s>_commit, output [31:0] s<s>_commit_base   the reservation starting there is done at
//                                      this edge: its packets enter the pipe (write) or leave it (read)
//                                      once every earlier reservation's have
//   queries (get_pipe_num_packets, get_pipe_max_packets):
//     input [31:0] s<s>_packets        positions claimed by writers and not yet claimed by readers
//     input [31:0] s<s>_capacity       the pipe's depth
//   the board samples the FIFO at the start of a cycle: a packet pushed is offered from the next one.
// A request fires at a rising clock edge where req_valid and req_ready are both high; req_valid never
// depends combinationally on req_ready. An atomic port's request is one indivisible read-modify-write
// of W bits at req_addr: the memory reads the old value, writes `old op req_wdata` (cmpxchg: req_wdata
// if old == req_cmp, else old unchanged) and answers with the old value. Its operation is a property
// of the port (MemoryPort::op), not a signal.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <map>
#include <vector>

namespace loom::hls {

/// The widest request a memory port makes: a line of the board's memory (sim's LoomPort carries it).
constexpr unsigned MaxPortBytes = 64;
/// The widest kernel argument the board passes: OpenCL C's widest type, a long16.
constexpr unsigned MaxArgumentBytes = 128;
/// The bytes of argument `index`'s port, given a kernel's wideArgBytes: 8 unless it is wide.
inline unsigned argumentPortBytes(const std::map<unsigned, unsigned> &wideArgBytes, unsigned index) {
  auto wide = wideArgBytes.find(index);
  return wide == wideArgBytes.end() ? 8 : wide->second;
}
/// The largest packet a pipe port moves: OpenCL's minimum CL_DEVICE_PIPE_MAX_PACKET_SIZE (sim's LoomStream).
constexpr unsigned MaxPipePacketBytes = 1024;

struct MemoryPort {
  enum class Kind { Load, Store, Atomic };
  /// An atomic port's read-modify-write (LLVM's atomicrmw operations and cmpxchg). Min and Max
  /// compare signed, UMin and UMax unsigned.
  enum class AtomicOp { Add, Sub, And, Or, Xor, Xchg, Min, Max, UMin, UMax, CmpXchg };
  Kind kind = Kind::Load;
  /// Bytes a request moves: 1, 2, 4 or 8 for a scalar, up to 64 (a power of two) for a vector or a line;
  /// at most 8 for an atomic.
  unsigned bytes = 4;
  std::string location;     ///< "file:line:col" of the access in the kernel source.
  AtomicOp op = AtomicOp::Add; ///< Atomic ports only.
  /// A line port's accesses: the kernel's accesses of `elementBytes` each travel in requests of whole
  /// memory lines of `bytes` at line-aligned addresses. A load port fetches a line once for
  /// consecutive elements; a store port combines consecutive elements into one write whose req_strobe
  /// names the bytes written. 0: a plain port, one request per access.
  unsigned elementBytes = 0;
  /// A load port paired with store port `forwardsFrom` of the same alias class in a loop (a
  /// read-modify-write such as a histogram's): its loads search the stores announced before them
  /// that memory has not yet acknowledged and take the youngest one's data at their address, or
  /// read memory (loom_forward_queue). NoPort: a plain port.
  static constexpr unsigned NoPort = ~0u;
  unsigned forwardsFrom = NoPort;

  /// The port sends req_wdata (store and atomic ports).
  bool writesData() const { return kind != Kind::Load; }
  /// The port receives resp_rdata (load and atomic ports).
  bool readsData() const { return kind != Kind::Store; }
  /// The port sends req_cmp (atomic cmpxchg ports).
  bool comparesData() const { return kind == Kind::Atomic && op == AtomicOp::CmpXchg; }
  /// A line port (see elementBytes).
  bool lines() const { return elementBytes != 0; }
  /// A load port that forwards from a store port's queue (see forwardsFrom).
  bool forwards() const { return forwardsFrom != NoPort; }
  /// The port sends req_strobe (line store ports).
  bool strobes() const { return kind == Kind::Store && lines(); }
};

/// "add", "cmpxchg", ...: the operation's name in the JSON form and in reports.
const char *atomicOpName(MemoryPort::AtomicOp op);
/// "load", "store" or "atomic <op>", for reports and diagnostics.
std::string describeKind(const MemoryPort &port);
/// `op` applied to the W = 8 * bytes-bit values `old` (the memory's), `operand` and, for CmpXchg,
/// `compare`: the value the memory holds afterwards, zero-extended. Bits above W are ignored.
uint64_t applyAtomic(MemoryPort::AtomicOp op, unsigned bytes, uint64_t old, uint64_t operand, uint64_t compare);

/// Area estimate from the board's cost data; informational.
struct AreaEstimate {
  uint64_t luts = 0, ffs = 0, dsps = 0;
  uint64_t rams = 0; ///< Block RAMs (36 Kbit) of the kernel's on-chip memories.
};

/// A loop of the kernel as built: how often it can start an iteration, and what limits that.
struct LoopReport {
  std::string location;   ///< "file:line" of the loop.
  unsigned depth = 1;     ///< Nesting depth, 1 for an outermost loop.
  bool innermost = true;  ///< It holds no loop.
  unsigned ii = 1;        ///< Cycles between iterations of one work-item (its longest ring).
  std::string boundBy;    ///< The value whose recurrence sets the II, e.g. "sum" or "memory order".
  std::string boundAt;    ///< Where that value is defined.
  unsigned tripCount = 0; ///< Iterations per entry when a constant, else 0.
  /// Cycles from an iteration's entry to the last result of the loop's own operations (an inner
  /// loop's own iterations not counted): with the II and the trip count, the loop's cycles.
  unsigned latency = 0;
  unsigned requestedII = 0; ///< `#pragma ii N` (or Clang's pipeline_initiation_interval): N; else 0.
  bool ivdep = false;       ///< `#pragma ivdep`: iterations do not wait for each other's memory accesses.
  /// `#pragma ivdep array(x)` clauses as written ("array(x)", "array(y) safelen(4)"): the accesses
  /// to those variables that iterations do not wait for (or only N iterations apart).
  std::vector<std::string> ivdepArrays;
  /// The loop over a work-group's work-items that a kernel with barriers runs each region in; with
  /// `ivdep`, because work-items between barriers do not order their accesses.
  bool overWorkItems = false;
  unsigned interleaved = 1; ///< Elements per iteration: the partial sums of a reassociated float reduction.
  /// `#pragma max_interleaving N` below the default: at most N invocations inside at once; else 0.
  unsigned maxInterleaving = 0;
  /// Work-items (or outer iterations) the loop admits at once where SizeLoopControls changed the
  /// default: more for a long II, 1 for an innermost loop whose rings close in a cycle; else 0.
  unsigned workItemsInside = 0;
  /// For a loop with inner loops: the first inner loop ("file:line") that an iteration enters while
  /// earlier ones are still inside it; empty when each waits for the previous one to leave them,
  /// for the reason innerLoopsWaitFor gives.
  std::string overlapsFrom;
  std::string innerLoopsWaitFor;
  /// Global-memory bytes an iteration moves when all its accesses happen (globalBytes in Pipeline.cpp
  /// says how they count): over the board's peak bandwidth, the fewest cycles such an iteration takes.
  uint64_t globalBytes = 0;
  /// When reads of an on-chip memory taking turns at one port set the II (the board's RAM budget
  /// left the memory one copy): those reads an iteration, and boundBy names the memory; else 0.
  unsigned sharedPortReads = 0;
};

/// A pipe argument's stream port on the kernel module (the module contract above).
struct PipePort {
  unsigned arg = 0;          ///< The kernel argument whose value at a launch names the pipe.
  bool writes = false;       ///< A write_only pipe argument; else read_only.
  unsigned packetBytes = 0;  ///< 1 to MaxPipePacketBytes.
  std::string location;      ///< file:line:col of the kernel's first call on the pipe.
  std::string name;          ///< The argument's (a channel's for a hidden one), for diagnoses.
  /// The operations the kernel uses on the pipe: the signal groups of the module contract above.
  bool transfers = false, reserves = false, slots = false, commits = false, queries = false;
};
llvm::json::Value toJSON(const PipePort &port);
bool fromJSON(const llvm::json::Value &value, PipePort &port, llvm::json::Path path);

struct HardwareKernel {
  std::string kernelName;
  std::string topModule;              ///< Verilog module name of this kernel.
  unsigned numArgs = 0;               ///< Including the work-group and compute-unit arguments.
  /// The kernel uses work-group functions (get_local_id, ...): the launch passes the enqueued local
  /// sizes, the work dimension and the sizes of the last groups as WorkGroupArgs arguments after the
  /// kernel's own (and the printf buffer).
  bool workGroupArgs = false;
  /// The kernel calls printf: the launch passes a zeroed printf buffer (lowering/Printf.h) as the
  /// argument right after the kernel's own (before the work-group arguments) and prints its records
  /// with the program's printf calls.
  bool printfBuffer = false;
  /// The kernel has barriers and runs a whole work-group per invocation (FormWorkGroupLoops): the
  /// launch gives the number of work-groups of each dimension (a last, partial group included) as
  /// global_size_<d> (the offset stays) and the work-group arguments, and no group may have more
  /// than maxGroupItems work-items (the storage each keeps across barriers is sized for that).
  bool workGroupLoops = false;
  unsigned maxGroupItems = 0;
  /// Copies of the kernel's hardware (num_compute_units), each running whole work-groups of one part
  /// of the NDRange, which the launch gives as arguments (computeUnitShares); ports holds unit 0's
  /// memory ports, then unit 1's, and so on.
  unsigned computeUnits = 1;
  /// The on-chip memory of each __local pointer argument, in bytes, by argument number: the launch
  /// refuses a clSetKernelArg size above it.
  std::map<unsigned, uint64_t> localArgBytes;
  /// The vector arguments over 8 bytes (up to MaxArgumentBytes, a multiple of 8), by argument number:
  /// their ports are that wide, and a launch gives them as that many bytes of argument words.
  std::map<unsigned, unsigned> wideArgBytes;
  /// The 64-bit words of a launch's arguments, in order: one per argument, a wide one's bytes / 8.
  unsigned argWords() const;
  /// The bytes of argument `index`'s port: 8, or a wide argument's.
  unsigned argBytes(unsigned index) const { return argumentPortBytes(wideArgBytes, index); }
  std::vector<MemoryPort> ports;
  std::vector<PipePort> pipePorts;
  unsigned initiationInterval = 1;    ///< Cycles between work-item entries in steady state.
  unsigned pipelineDepth = 0;         ///< Cycles from a work-item's entry to its completion, no stalls.
  /// Global-memory bytes a work-item moves outside loops (as LoopReport::globalBytes).
  uint64_t globalBytes = 0;
  AreaEstimate area;
  std::vector<LoopReport> loops;
};

/// The on-chip memory of a __local pointer argument without local_mem_size(N), in bytes (Intel's aoc
/// gives such an argument 16 KiB too).
constexpr uint64_t DefaultLocalArgumentBytes = 16 * 1024;

/// Work-group arguments (HardwareKernel::workGroupArgs): local_size_0..2, work_dim, last_group_size_0..2.
constexpr unsigned WorkGroupArgs = 7;

/// The largest work-group the board runs (CL_DEVICE_MAX_WORK_GROUP_SIZE, and the largest size of each
/// dimension): the hardware's local ids and sizes are as wide as it needs.
constexpr unsigned MaxWorkGroupItems = 1024;

/// The largest work-group a kernel with barriers takes without reqd_work_group_size, as Intel's aoc
/// assumes for its kernels: its per-work-item storage across barriers is sized for it.
constexpr unsigned MaxWorkGroupLoopItems = 256;

/// A sub-group in hardware: a run of this many work-items of a work-group in local linear id order,
/// the last maybe shorter (a power of two). Portable code and the Khronos CTS take sub-groups of at
/// most 128 work-items (cl_khr_subgroup_ballot's masks are 128 bits).
constexpr unsigned SubGroupItems = 64;

/// Arguments a unit's part of the range takes: offset_0..2, size_0..2 (its work-items in each
/// dimension), block_0..2 and skip_0..2 (its work-items come in blocks, each followed by a gap of
/// skip: the other units' blocks).
constexpr unsigned ComputeUnitShareArgs = 12;
/// Their names, in that order: a unit module's inputs are unit_<field>_<d>.
constexpr const char *UnitShareFields[] = {"offset", "size", "block", "skip"};
static_assert(std::size(UnitShareFields) * 3 == ComputeUnitShareArgs);

/// The last arguments of a launch of a kernel with `units` compute units (none for one): for each
/// unit, its part of the NDRange (`dims` dimensions of offset, global and local size). The units
/// take turns at the work-groups of the dimension with the most of them, in blocks of whole
/// work-groups at least MinComputeUnitBlockItems work-items long along dimension 0 (a line of
/// memory for each unit's streams): so a kernel whose work varies across the range (mandelbrot's
/// rows) keeps every unit busy to the end. A unit with no work-group gets a size of 0. Global ids
/// and sizes stay the NDRange's.
constexpr uint64_t MinComputeUnitBlockItems = 16;
std::vector<uint64_t> computeUnitShares(unsigned units, unsigned dims, const std::array<uint64_t, 3> &offset,
                                        const std::array<uint64_t, 3> &global, const std::array<uint64_t, 3> &local);

llvm::json::Value toJSON(const HardwareKernel &kernel);
bool fromJSON(const llvm::json::Value &value, HardwareKernel &kernel, llvm::json::Path path);

/// The hardware interface of every kernel of a .loom binary's metadata (`kernels[i].hardware`, as
/// loomc writes it), in kernel order. An error names a kernel without one or with a bad one.
llvm::Expected<std::vector<HardwareKernel>> hardwareKernelsOf(const llvm::json::Object &meta);

} // namespace loom::hls
