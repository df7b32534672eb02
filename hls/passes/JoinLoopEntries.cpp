//===- JoinLoopEntries.cpp - A loop admits a work-item with its values ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a LoopControl admits a work-item as soon as its entry token arrives, and each LoopMux then
// waits for the value the work-item enters with. A mux takes its inputs in the control's order, so
// a value that comes late (a load issued just before the loop) holds up every iteration behind the
// entry, of every work-item inside: an inner loop entered after a load stood still for the memory
// latency on each entry (private_sort: 32 work-items inside, one iteration every 80 cycles).
// After: the control's entry is a Join of the entry token and the entering values of its muxes, so
// a work-item is admitted once everything it enters with is there, and meanwhile the iterations
// already inside go on. A loop that holds one invocation at a time (max_interleaving 1, or the
// outermost loops of a single work-item kernel) keeps admitting at once: nothing inside would wait
// behind the entry, and its fast rings (the induction variable feeding loads) start early.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <set>

namespace loom::hls {

void joinLoopEntries(KernelGraph &kernel) {
  const size_t nodes = boost::num_vertices(kernel.graph);
  for (NodeId control = 0; control < nodes; ++control) {
    const Node &node = kernel.graph[control];
    if (node.kind != OpKind::LoopControl || node.depth == 1 ||
        (kernel.workItemsAlike && kernel.loops[node.loop - 1].depth == 1))
      continue;
    const NodeId entry = kernel.operands(control)[0];
    std::set<NodeId> entering;
    for (EdgeId edge : kernel.consumers(control)) {
      const NodeId mux = boost::target(edge, kernel.graph);
      if (kernel.graph[mux].kind != OpKind::LoopMux || kernel.graph[edge].operand != 0)
        continue;
      const NodeId value = kernel.operands(mux)[1];
      if (!kernel.graph[value].isStatic && value != entry)
        entering.insert(value);
    }
    if (entering.empty())
      continue;
    Node join{OpKind::Join, 0};
    join.name = kernel.graph[control].name + "_entry";
    join.location = kernel.graph[control].location;
    join.loop = kernel.graph[entry].loop;
    const NodeId joined = kernel.addNode(join);
    boost::remove_edge(entry, control, kernel.graph);
    kernel.connect(entry, joined, 0);
    unsigned operand = 1;
    for (NodeId value : entering)
      kernel.connect(value, joined, operand++);
    kernel.connect(joined, control, 0);
  }
}

} // namespace loom::hls
