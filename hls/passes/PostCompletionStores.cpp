//===- PostCompletionStores.cpp - Stores only the completion waits for ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: every store's token leaves its port once the memory acknowledged the write, one token a
// cycle. A line carries up to a line's worth of stores (16 ints on a 64-byte bus), so when a loop
// ends, its last line's tokens trail the acknowledge by up to 15 cycles, and the kernel's completion
// waits for the last of them; nothing else learns anything from them.
// After: a store whose token reaches nothing but the Completion node (through loop exits, joins
// and FIFOs, never an ordering operand of another access) is `posted`: its port gives the token when
// it accepts the store, and the completion waits until the posted ports have no write left in
// flight (Vitis's kernels likewise count outstanding write responses before ap_done). A store whose
// token orders a later access, or belongs to a port a load forwards from, keeps its acknowledge.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <set>

namespace loom::hls {

namespace {

/// Whether a token of `store` can reach nothing but the Completion node: it only passes through
/// nodes that move tokens along (FIFOs, joins, loop muxes, steers) to it.
bool onlyCompletionWaits(const KernelGraph &kernel, NodeId store) {
  std::vector<NodeId> pending{store};
  std::set<NodeId> seen{store};
  while (!pending.empty()) {
    const NodeId id = pending.back();
    pending.pop_back();
    for (EdgeId edge : kernel.consumers(id)) {
      const NodeId user = boost::target(edge, kernel.graph);
      const OpKind kind = kernel.graph[user].kind;
      if (kind == OpKind::Completion)
        continue;
      if (kind != OpKind::Fifo && kind != OpKind::Join && kind != OpKind::Steer && kind != OpKind::LoopMux)
        return false;
      if (seen.insert(user).second)
        pending.push_back(user);
    }
  }
  return true;
}

} // namespace

void postCompletionStores(KernelGraph &kernel) {
  std::set<uint64_t> forwarded;
  for (const MemoryPort &port : kernel.ports)
    if (port.forwards())
      forwarded.insert(port.forwardsFrom);
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    Node &node = kernel.graph[id];
    if (node.kind == OpKind::Store && !forwarded.count(node.index))
      node.posted = onlyCompletionWaits(kernel, id);
  }
}

} // namespace loom::hls
