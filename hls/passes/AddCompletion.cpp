//===- AddCompletion.cpp - Detect when every work-item has finished -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: dynamic values nobody consumes (stores' acknowledge tokens, results of side-effect-free
// work) would stall the circuit once their channel fills. After: one Completion node joins every such
// sink outside loops, so a work-item counts as finished when all its effects are done; the kernel's
// `done` follows. (Inside a loop, values nobody uses are dropped; the builder carries every store's
// token out of its loops.)
// A kernel without side effects completes on the work-item tokens themselves. A kernel whose
// work-items hold slots of its on-chip memories gives the slot back here (KernelGraph::retiredSlot).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace loom::hls {

void addCompletion(KernelGraph &kernel) {
  std::vector<NodeId> sinks;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id)
    if (!kernel.graph[id].isStatic && !kernel.graph[id].loop && boost::out_degree(id, kernel.graph) == 0)
      sinks.push_back(id);
  if (sinks.empty()) {
    Node source{OpKind::WorkItems, 192};
    source.name = "workitems";
    sinks.push_back(kernel.addNode(source));
  }
  Node completion{OpKind::Completion, 0};
  completion.name = "completion";
  // Operand 0 (data): the slot the work-item gives back, whether or not anything else uses it.
  completion.constant = kernel.retiredSlot ? 1 : 0;
  NodeId id = kernel.addNode(completion);
  if (kernel.retiredSlot) {
    llvm::erase_value(sinks, *kernel.retiredSlot);
    kernel.connect(*kernel.retiredSlot, id, 0);
  }
  for (unsigned i = 0; i < sinks.size(); ++i)
    kernel.connect(sinks[i], id, i + unsigned(completion.constant));
}

} // namespace loom::hls
