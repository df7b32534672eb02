//===- ShareRamReadPorts.cpp - Reads that take turns at a memory's ports -----===//
// SPDX-License-Identifier: Apache-2.0
//
// A block RAM has two ports (four double-pumped), so a memory with more reads is replicated, a
// copy per two reads. Before: every read had a port of its own, whatever the copies cost; a kernel
// whose copies exceed the board's RAM blocks could not be built (Xilinx's sketch reads a 480x640
// image in three loops that run one after another: 2,464 blocks of the board's 2,160). After:
// while the kernel does not fit, the memory whose copy costs the most blocks drops a copy, and its
// reads take turns at the ports left through an arbiter, as Intel's aoc gives arbitrated ports
// where it cannot give each access its own. Each loop's reads go to different ports: loops that
// run one after another share ports without losing a cycle; a loop that reads the memory more
// times than it has ports runs at an II of its reads a port (the report says so).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <vector>

namespace loom::hls {
namespace {

/// Read ports of memory `m` once it drops a copy (a block's ports fewer), or 0 when it cannot: it
/// has banks, one copy already, or a read at an address every work-item shares (a wire that holds
/// its port).
unsigned portsWithoutACopy(const KernelGraph &kernel, unsigned m) {
  const OnChipMemory &memory = kernel.memories[m];
  const unsigned perCopy = blockRamPorts(memory);
  if (memory.banks.size() != 1 || memoryArea(memory).rams == 0 || memory.banks[0].reads <= perCopy)
    return 0;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id)
    if (kernel.graph[id].kind == OpKind::RamLoad && kernel.graph[id].index == m && kernel.graph[id].isStatic)
      return 0;
  return (memory.banks[0].reads + perCopy - 1) / perCopy * perCopy - perCopy;
}

/// Gives each read of memory `m` one of `ports` read ports: the reads of each loop in turn, from
/// port 0. The memory keeps the ports some read takes: those of the loop with the most reads.
void share(KernelGraph &kernel, unsigned m, unsigned ports) {
  std::map<unsigned, unsigned> readsInLoop;
  unsigned used = 0;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    Node &n = kernel.graph[id];
    if (n.kind == OpKind::RamLoad && n.index == m) {
      n.ramPort = readsInLoop[n.loop]++ % ports;
      used = std::max(used, n.ramPort + 1);
    }
  }
  kernel.memories[m].readsShared = true;
  kernel.memories[m].banks[0].reads = used;
}

} // namespace

llvm::Error shareRamReadPorts(KernelGraph &kernel, const board::Board &board) {
  const uint64_t budget = board.resources.brams;
  if (!budget)
    return llvm::Error::success(); // The board file gives no RAM budget.
  // A copy at a time from the memory whose copy costs the most blocks, so that each memory keeps
  // as many ports as fit.
  while (estimateArea(kernel).rams * kernel.computeUnits > budget) {
    unsigned best = 0, bestPorts = 0;
    uint64_t saves = 0;
    for (unsigned m = 0; m < kernel.memories.size(); ++m) {
      const unsigned ports = portsWithoutACopy(kernel, m);
      if (!ports)
        continue;
      OnChipMemory fewer = kernel.memories[m];
      fewer.banks[0].reads = ports;
      if (const uint64_t memorySaves = memoryArea(kernel.memories[m]).rams - memoryArea(fewer).rams; memorySaves > saves)
        saves = memorySaves, best = m, bestPorts = ports;
    }
    if (!saves)
      break; // Nothing left to share: the report's utilization check says what does not fit.
    share(kernel, best, bestPorts);
  }
  return llvm::Error::success();
}

} // namespace loom::hls
