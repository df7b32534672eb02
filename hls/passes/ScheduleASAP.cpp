//===- ScheduleASAP.cpp - Earliest start cycle of every node --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: latencies are known. After: each dynamic node's startCycle is when a work-item's token
// reaches it if nothing stalls: the latest arrival over its dynamic operands. Static operands are
// wires and arrive at once. BalancePaths uses the differences; the Completion node's start is the
// kernel's pipeline depth.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace loom::hls {

void scheduleASAP(KernelGraph &kernel) {
  for (NodeId id : kernel.topologicalOrder()) {
    Node &n = kernel.graph[id];
    unsigned start = 0;
    for (NodeId op : kernel.operands(id)) {
      const Node &o = kernel.graph[op];
      if (!o.isStatic)
        start = std::max(start, o.startCycle + o.latency);
    }
    n.startCycle = n.isStatic ? 0 : start;
  }
}

} // namespace loom::hls
