//===- BalancePaths.cpp - FIFOs where paths of unequal latency meet -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a node joining a short path and a long path holds the short path's tokens, which
// back-pressures the producer and drops throughput below one work-item per cycle. After: each edge
// whose token arrives `slack` cycles before its consumer starts goes through FIFOs deep enough to
// hold the tokens in flight over that slack, so the circuit keeps an initiation interval of 1.
// The consumers of one value share a delay line: one chain of FIFOs, in order of their slack, each
// consumer taken from the FIFO that ends at its slack. A value that waits 416 cycles for 30
// consumers (Rodinia's heartwall) then fills one line of 416 entries, not 30.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <map>
#include <tuple>

namespace loom::hls {

void balancePaths(KernelGraph &kernel) {
  struct Consumer {
    unsigned slack;
    NodeId to;
    unsigned operand;
    bool operator<(const Consumer &o) const { return std::tie(slack, to, operand) < std::tie(o.slack, o.to, o.operand); }
  };
  // By value, whether its data or only its token goes through (a token operand needs no data), and
  // the consumers' loop: the consumers that wait for it.
  std::map<std::tuple<NodeId, bool, unsigned>, std::vector<Consumer>> lines;
  for (auto [it, end] = boost::edges(kernel.graph); it != end; ++it) {
    NodeId from = boost::source(*it, kernel.graph), to = boost::target(*it, kernel.graph);
    const Node &f = kernel.graph[from], &t = kernel.graph[to];
    if (f.isStatic || t.isStatic || kernel.graph[*it].back)
      continue;
    const unsigned arrival = f.startCycle + f.latency, operand = kernel.graph[*it].operand;
    if (t.startCycle > arrival)
      lines[{from, operand < dataOperandCount(t), t.loop}].push_back({t.startCycle - arrival, to, operand});
  }
  for (auto &[key, consumers] : lines) {
    const auto [from, carriesData, loop] = key;
    llvm::sort(consumers);
    NodeId tail = from;
    unsigned delayed = 0; // the slack the line has covered up to its tail
    for (const Consumer &consumer : consumers) {
      boost::remove_out_edge_if(
          from,
          [&](EdgeId edge) {
            return boost::target(edge, kernel.graph) == consumer.to &&
                   kernel.graph[edge].operand == consumer.operand && !kernel.graph[edge].back;
          },
          kernel.graph);
      if (consumer.slack > delayed) {
        const Node &f = kernel.graph[from];
        Node fifo{OpKind::Fifo, carriesData ? f.width : 0u};
        fifo.depth = consumer.slack - delayed + 2;
        // Its tokens wait out their part of the slack there, so the edge now arrives on time (and a
        // rerun adds nothing).
        fifo.latency = consumer.slack - delayed;
        fifo.startCycle = f.startCycle + f.latency + delayed;
        fifo.name = f.name;
        fifo.loop = loop;
        fifo.location = f.location;
        const NodeId id = kernel.addNode(fifo);
        kernel.connect(tail, id, 0);
        tail = id;
        delayed = consumer.slack;
      }
      kernel.connect(tail, consumer.to, consumer.operand);
    }
  }
}

} // namespace loom::hls
