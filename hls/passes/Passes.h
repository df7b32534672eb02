//===- Passes.h - The hardware flow's passes, one per file -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Each pass transforms a KernelGraph in place (or builds it) and says in its file header what it
// changes. They run in the order lib/Pipeline.cpp lists.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/board/Board.h"
#include "loom/hls/Dataflow.h"
#include "loom/hls/Verilog.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

namespace loom::hls {

/// "file:line:col" of `inst` in the kernel's source ("file:line" of the kernel, or its name, without
/// a line): where the passes' errors and reports point.
std::string locationOf(const llvm::Instruction &inst, const llvm::Function &kernel);

/// Whether the kernel asks which work-item it is (an NDRange kernel's work-items differ).
bool usesWorkItemIds(const llvm::Function &kernel);
/// A call, at `b`, of work-item function `name` (mangled; one i32 dimension operand unless
/// `dimension` is negative) returning `result` (lib/WorkItemFunctions.cpp).
llvm::Value *askWorkItem(llvm::IRBuilder<> &b, llvm::StringRef name, int dimension, llvm::Type *result);

/// The vendor attributes the frontend honoured (lib/VendorAttributes.cpp).
/// Work-items a cycle: N of num_simd_work_items(N), else 1.
unsigned simdWorkItemsOf(const llvm::Function &kernel);
/// Copies of an NDRange kernel's hardware: the product of num_compute_units(X[,Y,Z]) (which the
/// frontend checked), else 1.
unsigned computeUnitsOf(const llvm::Function &kernel);
/// Of an on-chip array (an alloca or a __local global): the byte-address bits that pick its bank
/// (bank_bits(...), which the frontend resolved from numbanks, bankwidth, bank_bits or
/// xcl_array_partition), ascending; empty for one bank.
std::vector<unsigned> bankBitsOf(const llvm::Value &array);
/// Of an on-chip array: N of private_copies(N), else 0 (no limit).
unsigned privateCopiesOf(const llvm::Value &array);
/// Of an on-chip array: whether doublepump asks its RAM blocks to run at twice the kernel's clock.
bool isDoublePumped(const llvm::Value &array);
/// Intel's autorun: the runtime starts the kernel when its program is built, and again each time it
/// finishes.
bool isAutorun(const llvm::Function &kernel);
/// A program-scope channel or pipe that one of the kernel's hidden pipe arguments stands for (the
/// frontend's `loom.program_fifos`, frontend/lib/ProgramScopeFifos.h): its depth is known when the
/// program is compiled, so its FIFO counts in the program's area.
struct ProgramFifo {
  std::string name;
  uint64_t depth = 0, packetBytes = 0;
};
std::vector<ProgramFifo> programFifosOf(const llvm::Function &kernel);

/// IR preparation, before the graph exists.
/// Fails when a to_global, to_local or to_private asks of a pointer whose space is not known.
llvm::Error inferAddressSpaces(llvm::Function &kernel);
/// What formWorkGroupLoops made of a kernel: the most work-items a group may have (its per-work-item
/// storage is sized for them; 0 for a kernel without barriers, left as it was), and the work-items
/// its loops over them take an iteration (num_simd_work_items).
struct WorkGroupLoops {
  unsigned maxItems = 0;
  unsigned lanes = 1;
};
/// A kernel with barriers becomes one that runs a whole work-group per invocation. Its NDRange
/// counts work-groups; the size of the launch's last (partial) group of dimension d (an i32) is the
/// work-group argument LastGroupSize.
llvm::Expected<WorkGroupLoops> formWorkGroupLoops(llvm::Function &kernel);
constexpr const char *LastGroupSize = "__loom_last_group_size";
/// get_global_linear_id and get_local_linear_id become arithmetic on the per-dimension functions.
void expandLinearIds(llvm::Function &kernel);
/// The stream functions lowerPipeCalls makes of Clang's pipe calls, on the pipe argument (operand
/// 0). Those that move a packet exist per packet width W (their names end in ".W") and take or give
/// it as a W-bit integer, or over 64 bits as a vector of W / 32 i32 lanes (one wide value in the
/// graph); the others take the packet's bytes as their last operand (a constant i32).
/// StreamRead waits for a packet and returns it; StreamTryRead returns {packet, 1}, or {0, 0} when
/// the pipe is empty; StreamWrite (pipe, packet) waits for room; StreamTryWrite returns 1,
/// or 0 when the pipe is full. StreamReserve (pipe, i32 count, bytes) returns an i64 reservation
/// (the PipeReserve node's); StreamSlotRead (pipe, i32 position) returns the packet there and
/// StreamSlotWrite (pipe, i32 position, packet) writes it; StreamCommit (pipe, i64 reservation,
/// bytes) ends a reservation (none for CLK_NULL_RESERVE_ID); StreamPackets and StreamCapacity (pipe, bytes) return an i32.
constexpr const char *StreamRead = "__loom_stream_read", *StreamTryRead = "__loom_stream_try_read",
                     *StreamWrite = "__loom_stream_write", *StreamTryWrite = "__loom_stream_try_write",
                     *StreamReserve = "__loom_stream_reserve", *StreamSlotRead = "__loom_stream_slot_read",
                     *StreamSlotWrite = "__loom_stream_slot_write", *StreamCommit = "__loom_stream_commit",
                     *StreamPackets = "__loom_stream_packets", *StreamCapacity = "__loom_stream_capacity";
/// The stream function `call` calls, without its width suffix; empty when it calls none.
llvm::StringRef streamFunctionOf(const llvm::CallInst &call);
llvm::Error lowerPipeCalls(llvm::Function &kernel);
void vectorizeWorkItems(llvm::Function &kernel);
void interleaveReductions(llvm::Function &kernel, const board::Board &board);
/// The loop attribute interleaveReductions leaves on a loop it interleaved: the partial sums.
constexpr const char *InterleavedLoopAttribute = "loom.loop.interleaved";
/// The loop attribute `#pragma max_interleaving N` leaves (the frontend's LoopPragmaBinding): at
/// most N invocations inside the loop at once; 0, the default: DefaultLoopWorkItems, or more
/// (sizeLoopControls).
constexpr const char *MaxInterleavingLoopAttribute = "loom.loop.max_interleaving";
/// The loop attribute `#pragma ivdep safelen(N)` leaves (the frontend's LoopPragmaBinding): no two
/// accesses fewer than N iterations apart depend on each other.
constexpr const char *IvdepSafelenLoopAttribute = "loom.loop.ivdep_safelen";
/// The loop attribute `#pragma ivdep array(x) [safelen(N)]` leaves, one per variable:
/// `!{!"loom.loop.ivdep_array", !"x", i32 N}`: no two of the loop's accesses to x fewer than N
/// iterations apart (0: any) depend on each other.
constexpr const char *IvdepArrayLoopAttribute = "loom.loop.ivdep_array";
/// The loop attribute formWorkGroupLoops leaves on its loops over a work-group's work-items.
constexpr const char *WorkItemLoopAttribute = "loom.loop.work_items";
/// The function attribute formWorkGroupLoops leaves on a kernel it made run a work-group per
/// invocation: its __local arrays belong to one invocation, like private arrays to a work-item.
constexpr const char *WorkGroupInvocationAttribute = "loom.work_group_invocation";
/// A constant table: a program-scope __constant array, or a constant private one Clang made global.
/// Though in the constant address space, it is an on-chip ROM of one element size, not global
/// memory: its accesses stay one element each.
const llvm::GlobalVariable *constantTable(const llvm::Value *object);
/// The pointer a load, store or atomic read-modify-write accesses; null for any other instruction.
const llvm::Value *pointerOperand(const llvm::Instruction &inst);
/// A private array (an alloca), a kernel's __local array or __local pointer argument, or a constant
/// table: what becomes an on-chip memory.
bool isOnChipArray(const llvm::Value *object);
void lowerSwitches(llvm::Function &kernel);
void dropAssumptions(llvm::Function &kernel);
void expandMemoryIntrinsics(llvm::Function &kernel);
void splitArrayChoices(llvm::Function &kernel);
void combineAdjacentAccesses(llvm::Function &kernel);
void scalarizeVectors(llvm::Function &kernel);
void widenBoolMemory(llvm::Function &kernel);
void splitMixedWidthAccesses(llvm::Function &kernel);
void balanceReductionTrees(llvm::Function &kernel);
void splitAggregatePhis(llvm::Function &kernel);
/// The work-group functions' calls get the ranges of groups of at most `maxGroupItems` work-items
/// (0: the kernel has no barriers, MaxWorkGroupItems), for build-dataflow's narrow arithmetic.
void boundWorkGroupFunctions(llvm::Function &kernel, unsigned maxGroupItems);
/// Divisions and remainders by constants become shifts and multiplies by magic numbers.
void expandConstantDivisions(llvm::Function &kernel);
llvm::Expected<KernelGraph> buildDataflowGraph(const llvm::Function &kernel);
void decomposeConstantMultiplies(KernelGraph &kernel);
llvm::Error coalesceMemoryLines(KernelGraph &kernel, const board::Board &board);
void joinLoopEntries(KernelGraph &kernel);
void addCompletion(KernelGraph &kernel);
void postCompletionStores(KernelGraph &kernel);
llvm::Error assignLatencies(KernelGraph &kernel, const board::Board &board);
/// Cycles the schedule gives load, store or atomic `id` from its request to the memory's answer (a
/// store's acknowledge), whether or not its token waits for it (Node::posted).
unsigned answerLatency(const KernelGraph &kernel, NodeId id, const board::Board &board);
/// Global-memory bytes each loop's iteration (index: the loop's number; 0: a work-item outside
/// loops) moves at most, as the board's memory counts them (AssignLatencies.cpp says how).
std::vector<uint64_t> globalBytes(const KernelGraph &kernel, const board::Board &board);
void scheduleASAP(KernelGraph &kernel);
void balancePaths(KernelGraph &kernel);
void sizeLoopControls(KernelGraph &kernel);
/// The structural area estimate: what each node, buffer and memory maps to under yosys synth_xilinx.
AreaEstimate estimateArea(const KernelGraph &kernel);
/// Adds a buffer of `entries` words of `bits` (a FIFO, a memory port's responses) to `area`.
void addBuffer(AreaEstimate &area, uint64_t bits, uint64_t entries);
/// Ports of one block RAM of `memory`: two, four when double-pumped.
unsigned blockRamPorts(const OnChipMemory &memory);
/// An on-chip memory's LUT RAM or block RAMs, a copy per read (LUT RAM) or per blockRamPorts reads.
AreaEstimate memoryArea(const OnChipMemory &memory);
llvm::Error shareRamReadPorts(KernelGraph &kernel, const board::Board &board);
/// Codegen: the kernel's top module, instantiating the RTL library (hls/rtl/).
verilog::Module emitVerilog(const KernelGraph &kernel, const std::string &topModule);
/// Codegen with compute units: the top module over kernel.computeUnits instances of `unit` (which
/// emitVerilog made of the kernel).
verilog::Module emitComputeUnits(const KernelGraph &kernel, const verilog::Module &unit, const std::string &topModule);

} // namespace loom::hls
