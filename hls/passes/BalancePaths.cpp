//===- BalancePaths.cpp - FIFOs where paths of unequal latency meet -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a node joining a short path and a long path holds the short path's tokens, which
// back-pressures the producer and drops throughput below one work-item per cycle. After: each edge
// whose token arrives `slack` cycles before its consumer starts goes through a Fifo deep enough to
// hold the tokens in flight over that slack, so the circuit keeps an initiation interval of 1.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace loom::hls {

void balancePaths(KernelGraph &kernel) {
  struct Insertion {
    NodeId from, to;
    unsigned operand, slack;
  };
  std::vector<Insertion> insertions;
  for (auto [it, end] = boost::edges(kernel.graph); it != end; ++it) {
    NodeId from = boost::source(*it, kernel.graph), to = boost::target(*it, kernel.graph);
    const Node &f = kernel.graph[from], &t = kernel.graph[to];
    if (f.isStatic || t.isStatic || kernel.graph[*it].back)
      continue;
    unsigned arrival = f.startCycle + f.latency;
    if (t.startCycle > arrival)
      insertions.push_back({from, to, kernel.graph[*it].operand, t.startCycle - arrival});
  }
  for (const auto &ins : insertions) {
    boost::remove_edge(ins.from, ins.to, kernel.graph);
    const Node &f = kernel.graph[ins.from];
    // A token operand needs no data through the FIFO.
    const bool carriesData = ins.operand < dataOperandCount(kernel.graph[ins.to]);
    Node fifo{OpKind::Fifo, carriesData ? f.width : 0u};
    fifo.depth = ins.slack + 2;
    // Its tokens wait out the slack there, so the edge now arrives on time (and a rerun adds nothing).
    fifo.latency = ins.slack;
    fifo.startCycle = f.startCycle + f.latency;
    fifo.name = f.name;
    fifo.loop = kernel.graph[ins.to].loop;
    fifo.location = f.location;
    NodeId id = kernel.addNode(fifo);
    kernel.connect(ins.from, id, 0);
    kernel.connect(id, ins.to, ins.operand);
  }
}

} // namespace loom::hls
