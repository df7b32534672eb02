//===- Pipeline.cpp - The hardware flow's passes, in order ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// IR -> dataflow graph -> schedule -> Verilog, as XLS does: a typed graph between the steps that
// prints after each one.
//===----------------------------------------------------------------------===//
#include "loom/hls/Pipeline.h"

#include "passes/Passes.h"

#include "loom/lowering/Printf.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <tuple>

namespace loom::hls {
namespace {

struct EmbeddedFile {
  const char *name;
  const char *contents;
};
const EmbeddedFile RtlFiles[] = {
#include "EmbeddedRtl.inc"
};

using GraphPass = std::function<llvm::Error(KernelGraph &, const board::Board &)>;

struct PassEntry {
  const char *name;
  GraphPass run;
};

template <typename F> GraphPass plain(F f) {
  return [f](KernelGraph &k, const board::Board &) {
    f(k);
    return llvm::Error::success();
  };
}

/// The kernel's LLVM IR as the IR passes leave it for build-dataflow.
constexpr const char *PreparedIrDump = "prepared-ir";

/// The largest unrolling the report suggests to fill the memory's width: 16 lanes of 4 bytes are
/// the board's widest request (64 bytes).
constexpr unsigned MaxWidthAdviceFactor = 16;

const std::vector<PassEntry> &graphPasses() {
  static const std::vector<PassEntry> passes = {
      {"decompose-constant-multiplies", plain(decomposeConstantMultiplies)},
      // Before add-completion: a store nothing waits for has no consumer yet.
      {"coalesce-memory-lines", coalesceMemoryLines},
      // Before scheduling, so the completion join is balanced like any other node.
      {"join-loop-entries", plain(joinLoopEntries)},
      {"add-completion", plain(addCompletion)},
      // Before latencies: a posted store's token comes a cycle after the store, not after the memory.
      {"post-completion-stores", plain(postCompletionStores)},
      {"assign-latencies", assignLatencies},
      {"schedule", plain(scheduleASAP)},
      // Last graph change: FIFOs are sized from the schedule.
      {"balance-paths", plain(balancePaths)},
      {"size-loop-controls", plain(sizeLoopControls)},
      // From the finished graph's area: only a kernel that would not fit shares ports.
      {"share-ram-read-ports", shareRamReadPorts},
  };
  return passes;
}

/// A program-scope channel or pipe: one FIFO between the kernels that write and read it.
struct ChannelUse {
  uint64_t depth = 0, packetBytes = 0;
  std::vector<std::string> writers, readers;
};

/// Reports each channel's FIFO and its area, which is the program's, not a kernel's (the board
/// model keeps the FIFO; an FPGA build would place it between the kernels).
AreaEstimate reportChannels(SynthesizedProgram &program, const std::map<std::string, ChannelUse> &channels) {
  AreaEstimate total;
  for (const auto &[name, channel] : channels) {
    AreaEstimate area;
    addBuffer(area, channel.packetBytes * 8, channel.depth);
    auto kernels = [](const std::vector<std::string> &names) {
      return names.empty() ? std::string("no kernel") : llvm::join(names, ", ");
    };
    program.report += llvm::formatv("channel '{0}': {1} packets of {2} bytes, written by {3}, read by {4}: estimated "
                                    "{5} LUTs, {6} FFs, {7} RAM blocks\n",
                                    name, channel.depth, channel.packetBytes, kernels(channel.writers),
                                    kernels(channel.readers), area.luts, area.ffs, area.rams);
    total.luts += area.luts;
    total.ffs += area.ffs;
    total.rams += area.rams;
  }
  return total;
}

/// Adds the program's share of the board's resources (its kernels' and `channels`) to the report; a
/// program that does not fit is an error, as it is for a real FPGA compile.
llvm::Error reportUtilization(SynthesizedProgram &program, const board::Board &board, const AreaEstimate &channels) {
  AreaEstimate total = channels;
  for (const auto &kernel : program.kernels) {
    total.luts += kernel.area.luts;
    total.ffs += kernel.area.ffs;
    total.dsps += kernel.area.dsps;
    total.rams += kernel.area.rams;
  }
  struct Use {
    const char *name;
    uint64_t used, available;
  };
  const Use uses[] = {{"LUTs", total.luts, board.resources.luts},
                      {"FFs", total.ffs, board.resources.ffs},
                      {"DSPs", total.dsps, board.resources.dsps},
                     {"RAM blocks", total.rams, board.resources.brams}};
  std::string line = "program: estimated";
  std::string overflow;
  for (const Use &use : uses) {
    if (!use.available)
      continue; // The board file gives no budget for this resource.
    line += llvm::formatv(" {0} {1} ({2:f1}% of {3}),", use.used, use.name,
                          100.0 * double(use.used) / double(use.available), use.available);
    if (use.used > use.available)
      overflow += llvm::formatv("{0}{1} {2} where board '{3}' has {4}", overflow.empty() ? "" : ", ",
                                use.used, use.name, board.name, use.available);
  }
  line.back() = '\n';
  program.report += line;
  if (!overflow.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   program.report + "error: the program does not fit the board: it needs an "
                                                    "estimated " + overflow + "\n");
  return llvm::Error::success();
}

/// ", memory bandwidth: ..." when the board's peak bandwidth, shared by `units` compute units, allows
/// fewer than `wanted` passes a cycle (iterations of a loop at its II, or work-items); else empty.
std::string bandwidthBound(uint64_t bytes, unsigned units, double wanted, const char *pass, const board::Board &board) {
  const double peak = board.memoryBytesPerCycle(), share = peak / units;
  if (!peak || double(bytes) <= share / wanted)
    return "";
  return llvm::formatv(", memory bandwidth: {2} bytes of global memory per {1}{3} if all its accesses happen, so at "
                       "most {0:f2} {1}s a cycle at the board's peak of {4:f0} bytes a cycle",
                       share / double(bytes), pass, bytes,
                       units > 1 ? llvm::formatv(" in each of {0} compute units", units).str() : "", peak);
}

/// ", memory width: ..." for an innermost loop at II 1 whose iterations move at most a quarter of the
/// global memory its share of the board's peak allows (only streams do: a plain access costs a whole
/// beat, globalBytes): the unrolling that would fill the memory's width. Intel's and AMD's compilers
/// leave such a loop scalar too; the report names the factor. Else empty.
std::string widthAdvice(const LoopReport &loop, unsigned units, const board::Board &board) {
  const double share = board.memoryBytesPerCycle() / units;
  if (!loop.innermost || loop.ii != 1 || !loop.globalBytes || double(loop.globalBytes) * 4 > share)
    return "";
  unsigned factor = 2;
  while (factor < MaxWidthAdviceFactor && double(factor * loop.globalBytes) < share)
    factor *= 2;
  return llvm::formatv(", memory width: the loop moves {0} of the {1:f0} bytes a cycle the board's memory can{2} "
                       "({3:f0}%): '#pragma unroll {4}' would move up to {5:f0}",
                       loop.globalBytes, share, units > 1 ? " serve each compute unit" : "",
                       100.0 * double(loop.globalBytes) / share, factor,
                       std::min(share, double(factor * loop.globalBytes)));
}

/// Each loop's II: its longest ring, and the value that ring carries.
std::vector<LoopReport> reportLoops(const KernelGraph &kernel, const std::vector<uint64_t> &bytes) {
  std::vector<LoopReport> loops = kernel.loops;
  const std::vector<LongestRing> rings = longestRings(kernel);
  // An iteration's latency: from its loop control to the last result of the loop's own nodes.
  std::vector<unsigned> entered(loops.size(), ~0u), finished(loops.size(), 0);
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    const Node &n = kernel.graph[id];
    if (n.isStatic || !n.loop)
      continue;
    if (n.kind == OpKind::LoopControl)
      entered[n.loop - 1] = std::min(entered[n.loop - 1], n.startCycle);
    finished[n.loop - 1] = std::max(finished[n.loop - 1], n.startCycle + n.latency);
  }
  for (size_t i = 0; i < loops.size(); ++i) {
    loops[i].latency = finished[i] > entered[i] ? finished[i] - entered[i] : 0;
    loops[i].globalBytes = bytes[i + 1];
    if (!rings[i].start)
      continue;
    const Node &n = kernel.graph[*rings[i].start];
    loops[i].ii = rings[i].cycles;
    loops[i].boundBy = n.kind == OpKind::LoopControl ? "the exit condition" : n.name.empty() ? "a value" : n.name;
    loops[i].boundAt = n.location;
  }
  // A loop with more reads of a shared memory port than its ring's cycles waits for the port.
  std::map<std::tuple<unsigned, uint64_t, unsigned>, unsigned> portReads; // By loop, memory and port.
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    const Node &n = kernel.graph[id];
    if (n.kind == OpKind::RamLoad && n.loop && kernel.memories[n.index].readsShared)
      ++portReads[{n.loop, n.index, n.ramPort}];
  }
  for (const auto &[key, reads] : portReads) {
    LoopReport &loop = loops[std::get<0>(key) - 1];
    if (reads <= loop.ii)
      continue;
    const OnChipMemory &memory = kernel.memories[std::get<1>(key)];
    loop.ii = reads;
    loop.sharedPortReads = reads;
    loop.boundBy = memory.name;
    loop.boundAt = memory.location;
  }
  return loops;
}

/// What sets a loop's II: its longest ring's recurrence, or a shared memory port.
std::string iiBound(const LoopReport &loop) {
  const std::string at = loop.boundAt.empty() ? "" : " at " + loop.boundAt;
  if (loop.sharedPortReads)
    return llvm::formatv("{0} reads of '{1}'{2} an iteration taking turns at one read port (a copy per two reads "
                         "would not fit the board's RAM blocks)",
                         loop.sharedPortReads, loop.boundBy, at);
  return llvm::formatv("the recurrence of '{0}'{1}", loop.boundBy, at);
}

/// What the report says a pipe access does.
std::string pipeAccessReport(const Node &n, const PipePort &pipe) {
  switch (n.kind) {
  case OpKind::PipeRead:
  case OpKind::PipeWrite:
    return n.constant ? (pipe.writes ? "waits for room (a loop retrying write_pipe)"
                                     : "waits for a packet (a loop retrying read_pipe)")
                      : "tries once, as read_pipe and write_pipe do";
  case OpKind::PipeReserve:
    return "reserves packets at once when the pipe has them (or the room), else none";
  case OpKind::PipeSlotRead:
    return "reads a reservation's packet by index, from the FIFO's RAM";
  case OpKind::PipeSlotWrite:
    return "writes a reservation's packet by index, into the FIFO's RAM";
  case OpKind::PipeCommit:
    return "commits a reservation: its packets " + std::string(pipe.writes ? "enter" : "leave") +
           " the pipe once the earlier reservations' have";
  default:
    return n.constant ? "asks the pipe's depth" : "asks the packets in the pipe";
  }
}

} // namespace

std::vector<std::string> passNames() {
  std::vector<std::string> names{PreparedIrDump, "build-dataflow"};
  for (const auto &pass : graphPasses())
    names.push_back(pass.name);
  return names;
}

std::string rtlLibrary() {
  std::string text;
  for (const auto &file : RtlFiles)
    text += file.contents;
  return text;
}

llvm::Expected<SynthesizedProgram> synthesizeProgram(llvm::Module &module,
                                                     const board::Board &board,
                                                     const HlsOptions &options) {
  SynthesizedProgram program;
  // printf calls become stores to a buffer the launch passes (an argument, once the graph is built).
  auto printfCalls = lowering::lowerPrintfCalls(module);
  if (!printfCalls)
    return printfCalls.takeError();
  program.printfCalls = std::move(*printfCalls);
  std::string errors;
  // Kernels with barriers first: each becomes a kernel running whole work-groups, whose per-work-item
  // storage is sized for its largest group.
  std::map<std::string, WorkGroupLoops> groupLoops;
  std::map<std::string, ChannelUse> channels;
  std::set<const llvm::Function *> failed;
  for (auto &function : module) {
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
      continue;
    llvm::Error error = inferAddressSpaces(function);
    if (!error)
      error = lowerPipeCalls(function);
    if (error) {
      errors += llvm::toString(std::move(error)) + "\n";
      failed.insert(&function);
      continue;
    }
    auto loops = formWorkGroupLoops(function);
    if (!loops) {
      errors += llvm::toString(loops.takeError()) + "\n";
      failed.insert(&function);
    } else if (loops->maxItems) {
      groupLoops[function.getName().str()] = *loops;
    }
  }
  for (auto &function : module) {
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL || failed.count(&function))
      continue;
    expandLinearIds(function);
    vectorizeWorkItems(function);
    // The loop vectorizer wants the loops as Clang's -O2 left them.
    interleaveReductions(function, board);
    lowerSwitches(function);
    expandMemoryIntrinsics(function);
    splitArrayChoices(function);
    combineAdjacentAccesses(function);
    scalarizeVectors(function);
    widenBoolMemory(function);
    splitMixedWidthAccesses(function);
    balanceReductionTrees(function);
    splitAggregatePhis(function); // the graph carries a cmpxchg's pair field by field
    const auto grouped = groupLoops.find(function.getName().str());
    boundWorkGroupFunctions(function, grouped != groupLoops.end() ? grouped->second.maxItems : 0);
    expandConstantDivisions(function); // after the bounds: a narrow dividend takes a narrow multiply
    dropAssumptions(function);
    if (options.dump) {
      std::string text;
      llvm::raw_string_ostream stream(text);
      function.print(stream);
      options.dump(PreparedIrDump, function.getName(), text);
    }
    const std::vector<ProgramFifo> fifos = programFifosOf(function);
    const bool autorun = isAutorun(function);
    auto built = buildDataflowGraph(function);
    if (!built) {
      errors += llvm::toString(built.takeError()) + "\n";
      continue;
    }
    KernelGraph &kernel = *built;
    auto dump = [&](llvm::StringRef pass) {
      if (options.dump)
        options.dump(pass, kernel.kernelName, printGraph(kernel));
    };
    dump("build-dataflow");
    for (const auto &pass : graphPasses()) {
      if (auto err = pass.run(kernel, board))
        return std::move(err);
      dump(pass.name);
    }
    HardwareKernel hw;
    hw.kernelName = kernel.kernelName;
    hw.topModule = "loom_kernel_" + kernel.kernelName;
    hw.workGroupArgs = kernel.workGroupArgs;
    hw.printfBuffer = kernel.printfBuffer;
    hw.wideArgBytes = kernel.wideArgBytes;
    if (grouped != groupLoops.end()) {
      hw.workGroupLoops = true;
      hw.maxGroupItems = grouped->second.maxItems;
    }
    hw.computeUnits = kernel.computeUnits;
    hw.pipePorts = kernel.pipePorts;
    for (const OnChipMemory &memory : kernel.memories)
      if (memory.argument >= 0)
        hw.localArgBytes[unsigned(memory.argument)] = memory.depth / memory.copies * memory.elementBytes;
    const unsigned units = kernel.computeUnits;
    hw.numArgs = kernel.numArgs + (units > 1 ? ComputeUnitShareArgs * units : 0);
    for (unsigned u = 0; u < units; ++u)
      for (MemoryPort port : kernel.ports) {
        if (port.forwards())
          port.forwardsFrom += u * kernel.ports.size();
        hw.ports.push_back(port);
      }
    hw.initiationInterval = 1;
    // Until the completion, or until the memory acknowledged the last posted store it waits for.
    for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
      const Node &node = kernel.graph[id];
      if (node.kind == OpKind::Completion || node.posted)
        hw.pipelineDepth = std::max(hw.pipelineDepth, node.startCycle + (node.posted ? answerLatency(kernel, id, board)
                                                                                       : node.latency));
    }
    hw.area = estimateArea(kernel);
    for (uint64_t *count : {&hw.area.luts, &hw.area.ffs, &hw.area.dsps, &hw.area.rams})
      *count *= units;
    const std::vector<uint64_t> bytes = globalBytes(kernel, board);
    hw.globalBytes = bytes[0];
    hw.loops = reportLoops(kernel, bytes);
    for (const LoopReport &loop : hw.loops) {
      if (loop.requestedII && loop.ii > loop.requestedII)
        errors += llvm::formatv("{0}: error: '#pragma ii {1}' cannot be met: the loop's II is {2}, set by {3}\n",
                                loop.location, loop.requestedII, loop.ii, iiBound(loop));
      if (loop.requestedII && loop.ii < loop.requestedII)
        program.warnings += llvm::formatv(
            "{0}: warning: '#pragma ii {1}' is ignored: the loop runs at II {2} (an elastic pipeline is not slowed "
            "down to a longer II: it would save no logic and gain no clock frequency)\n",
            loop.location, loop.requestedII, loop.ii);
    }
    if (units > 1) {
      verilog::Module unit = emitVerilog(kernel, hw.topModule + "_unit");
      program.verilog += unit.print() + "\n" + emitComputeUnits(kernel, unit, hw.topModule).print() + "\n";
    } else {
      program.verilog += emitVerilog(kernel, hw.topModule).print() + "\n";
    }
    for (const ProgramFifo &fifo : fifos) {
      ChannelUse &channel = channels[fifo.name];
      channel.depth = fifo.depth;
      channel.packetBytes = fifo.packetBytes;
      for (const PipePort &port : hw.pipePorts)
        if (port.name == fifo.name)
          (port.writes ? channel.writers : channel.readers).push_back(hw.kernelName);
    }
    program.report += llvm::formatv("kernel {0}{9}: II {1}, pipeline depth {2} cycles, {3} memory ports, "
                                    "estimated {4} LUTs, {5} FFs, {6} DSPs, {7} RAM blocks{8}{10}\n",
                                    hw.kernelName, hw.initiationInterval, hw.pipelineDepth,
                                    hw.ports.size(), hw.area.luts, hw.area.ffs, hw.area.dsps, hw.area.rams,
                                    units > 1 ? llvm::formatv(" in {0} compute units", units).str() : "",
                                    autorun ? " (autorun)" : "",
                                    bandwidthBound(hw.globalBytes, units, 1.0, "work-item", board));
    if (hw.workGroupLoops)
      program.report += llvm::formatv("  barriers: runs a work-group of up to {0} work-items per invocation, each region "
                                      "of it (between barriers) as loops over its work-items{1}\n",
                                      hw.maxGroupItems,
                                      grouped->second.lanes > 1
                                          ? llvm::formatv(", {0} an iteration (num_simd_work_items)",
                                                          grouped->second.lanes)
                                                .str()
                                          : std::string());
    for (const LoopReport &loop : hw.loops)
      program.report += llvm::formatv("  loop at {0} (depth {1}): II {2}, set by {3}{4}{5}{6}{7}{9}{8}{10}{11}\n",
                                      loop.location, loop.depth, loop.ii, iiBound(loop),
                                      (loop.tripCount ? llvm::formatv(", {0} iterations", loop.tripCount).str()
                                                      : std::string(", data-dependent trip count")) +
                                          llvm::formatv(", latency {0} cycles", loop.latency).str(),
                                      !loop.requestedII ? std::string()
                                      : loop.requestedII == loop.ii
                                          ? llvm::formatv(", #pragma ii {0} met", loop.requestedII).str()
                                          : llvm::formatv(", #pragma ii {0} ignored", loop.requestedII).str(),
                                      (!loop.ivdep          ? ""
                                       : loop.overWorkItems ? ", a work-group's work-items between barriers: no memory "
                                                              "order between them"
                                                            : ", #pragma ivdep: no memory order between iterations") +
                                          (loop.ivdepArrays.empty()
                                               ? std::string()
                                               : ", #pragma ivdep " + llvm::join(loop.ivdepArrays, ", ")),
                                      loop.interleaved > 1
                                          ? llvm::formatv(", {0} elements an iteration (interleaved partial sums)",
                                                          loop.interleaved)
                                                .str()
                                          : std::string(),
                                      // The class of global memory that non-restrict pointers share.
                                      loop.boundBy == "memory order" && loop.ii > 1
                                          ? " (the kernel's pointers that are not restrict share one memory order: "
                                            "declare those that never overlap restrict, or use #pragma ivdep)"
                                          : "",
                                      loop.maxInterleaving
                                          ? llvm::formatv(", at most {0} invocations inside at once (#pragma "
                                                          "max_interleaving)",
                                                          loop.maxInterleaving)
                                                .str()
                                      : loop.workItemsInside == 1
                                          ? ", one invocation inside at a time (its rings close in a cycle: "
                                            "interleaving would only scatter its memory streams)"
                                      : loop.workItemsInside
                                          ? llvm::formatv(", {0} work-items inside at once to cover it",
                                                          loop.workItemsInside)
                                                .str()
                                          : std::string(),
                                      !loop.overlapsFrom.empty()
                                          ? ", an iteration enters the inner loop at " + loop.overlapsFrom +
                                                " while earlier ones are still inside"
                                      : !loop.innerLoopsWaitFor.empty()
                                          ? ", an iteration enters its inner loops when the previous one has left "
                                            "them: " + loop.innerLoopsWaitFor
                                          : std::string(),
                                      bandwidthBound(loop.globalBytes, units, 1.0 / loop.ii, "iteration", board) +
                                          widthAdvice(loop, units, board));
    for (const OnChipMemory &memory : kernel.memories)
      program.report += llvm::formatv("  on-chip {0} '{1}' at {2}: {3} x {4} bytes{5}{6}, {7}{8}\n",
                                      memory.contents.empty() ? "array" : "constant table", memory.name,
                                      memory.location, memory.depth / memory.copies, memory.elementBytes,
                                      memory.copies > 1 ? llvm::formatv(" x {0} copies", memory.copies).str()
                                                        : std::string(),
                                      (memory.banks.size() > 1 ? llvm::formatv(" in {0} banks", memory.banks.size()).str()
                                                               : std::string()) +
                                          (memory.doublePumped ? ", double-pumped" : ""),
                                      portsText(memory),
                                      memory.readsShared
                                          ? " (its reads take turns at them: a copy per two reads would not fit the "
                                            "board's RAM blocks)"
                                          : "");
    if (kernel.workItemLimit == 1)
      program.report += hw.workGroupLoops ? "  work-groups run one at a time: the on-chip arrays hold one work-group's copy\n"
                                          : "  work-items run one at a time: the on-chip arrays hold one work-item's copy\n";
    else if (kernel.workItemLimit > 1 && hw.workGroupLoops)
      program.report += llvm::formatv("  work-groups in flight: at most {0}, each with its own copy of the __local "
                                      "arrays and of what its work-items keep across barriers\n",
                                      kernel.workItemLimit);
    else if (kernel.workItemLimit > 1)
      program.report += llvm::formatv("  work-items in flight: at most {0}, each with its own copy of the private "
                                      "arrays\n",
                                      kernel.workItemLimit);
    if (kernel.simdWorkItems > 1)
      program.report += llvm::formatv("  {0} work-items enter each cycle (num_simd_work_items): lanes of one "
                                      "datapath, their neighbouring accesses combined\n",
                                      kernel.simdWorkItems);
    if (units > 1)
      program.report += llvm::formatv("  {0} compute units (num_compute_units), each with the loops, on-chip "
                                      "memories and ports below, run contiguous runs of the work-groups; unit "
                                      "u's port p is port {1} * u + p\n",
                                      units, kernel.ports.size());
    for (size_t p = 0; p < kernel.ports.size(); ++p)
      // A line port's kind already says its sizes.
      program.report += llvm::formatv(
          "  port {0}: {1}{2} at {3}{4}\n", p, describeKind(hw.ports[p]),
          hw.ports[p].lines() ? "" : llvm::formatv(" of {0} bytes", hw.ports[p].bytes).str(), hw.ports[p].location,
          hw.ports[p].forwards()
              ? llvm::formatv(", forwarding from port {0}'s stores: an iteration waits only for an earlier "
                              "one's store to the same address, and only for its data",
                              hw.ports[p].forwardsFrom)
                    .str()
              : std::string());
    for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id)
      if (const Node &n = kernel.graph[id]; isPipeAccess(n.kind)) {
        const PipePort &pipe = kernel.pipePorts[n.index];
        program.report += llvm::formatv("  pipe port {0}: {1} argument {2}, {3}-byte packets, at {4}: {5}\n", n.index,
                                        pipe.writes ? "writes" : "reads", pipe.arg, pipe.packetBytes, pipe.location,
                                        pipeAccessReport(n, pipe));
      }
    program.kernels.push_back(std::move(hw));
  }
  if (!errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), errors);
  // A program without kernels is a valid OpenCL program (helper functions only): no hardware.
  if (program.kernels.empty()) {
    program.warnings += "warning: the program has no kernels: no __kernel function is left after preprocessing for "
                        "board '" + board.name + "' (code under '#ifdef cl_khr_fp64' is left out: the board has no "
                        "double precision)\n";
    return program;
  }
  const AreaEstimate channelArea = reportChannels(program, channels);
  if (auto err = reportUtilization(program, board, channelArea))
    return std::move(err);
  // One file holds every module, so library module names cannot match the file name.
  program.verilog += "/* verilator lint_off DECLFILENAME */\n" + rtlLibrary();
  return program;
}

} // namespace loom::hls
