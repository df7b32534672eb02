//===- ScheduleASAP.cpp - Earliest start cycle of every node --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: latencies are known. After: each dynamic node's startCycle is when a work-item's token
// reaches it if nothing stalls: the latest arrival over its dynamic operands. Static operands are
// wires and arrive at once. BalancePaths uses the differences; the Completion node's start is the
// kernel's pipeline depth. Back edges are not waited for: they bring the next iteration.
// A LoopMux is then placed as late as its consumers allow (ALAP): a ring whose next value comes late
// (an accumulation over loaded data) makes its iterations wait at the mux, so the FIFOs BalancePaths
// puts on the mux's inputs let the fast rings (the induction variables, the loads' addresses) run
// that far ahead, and the loads' latency overlaps the slow ring instead of adding to it.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace loom::hls {

void scheduleASAP(KernelGraph &kernel) {
  for (NodeId id : kernel.topologicalOrder()) {
    Node &n = kernel.graph[id];
    unsigned start = 0;
    for (auto [it, end] = boost::in_edges(id, kernel.graph); it != end; ++it) {
      if (kernel.graph[*it].back)
        continue;
      const Node &o = kernel.graph[boost::source(*it, kernel.graph)];
      if (!o.isStatic)
        start = std::max(start, o.startCycle + o.latency);
    }
    n.startCycle = n.isStatic ? 0 : start;
  }
  auto order = kernel.topologicalOrder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node &n = kernel.graph[*it];
    if (n.kind != OpKind::LoopMux)
      continue;
    unsigned latest = ~0u;
    for (EdgeId edge : kernel.consumers(*it))
      latest = std::min(latest, kernel.graph[boost::target(edge, kernel.graph)].startCycle);
    if (latest != ~0u && latest > n.startCycle)
      n.startCycle = latest;
  }
}

} // namespace loom::hls
