//===- SizeLoopControls.cpp - Work-items a loop admits, from its rings ----===//
// SPDX-License-Identifier: Apache-2.0
//
// A work-item's iterations follow each other around the loop's longest ring (the loop's II in the
// report: a global load's round trip, a float add), so a loop that admits D work-items at once
// finishes at most D iterations every II cycles. Before: every loop admits DefaultLoopWorkItems.
// After: a loop whose II is longer admits that many (up to MaxLoopWorkItems), and each of its
// back-edge FIFOs holds one more than that, so a ring can always take its tokens; a loop under
// `#pragma max_interleaving` keeps the user's limit. A loop over global memory, at the board's
// 80-cycle latency, so keeps one iteration a cycle where it managed 32 in 80.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <vector>

namespace loom::hls {

void sizeLoopControls(KernelGraph &kernel) {
  const std::vector<LongestRing> rings = longestRings(kernel);
  std::vector<unsigned> admitted(kernel.loops.size(), 0);
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    Node &node = kernel.graph[id];
    if (node.kind != OpKind::LoopControl || kernel.loops[node.loop - 1].maxInterleaving)
      continue;
    const unsigned wanted = std::min(rings[node.loop - 1].cycles, MaxLoopWorkItems);
    if (wanted <= node.depth)
      continue;
    node.depth = admitted[node.loop - 1] = kernel.loops[node.loop - 1].workItemsInside = wanted;
  }
  for (auto [e, end] = boost::edges(kernel.graph); e != end; ++e) {
    Node &fifo = kernel.graph[boost::source(*e, kernel.graph)];
    const unsigned loop = kernel.graph[boost::target(*e, kernel.graph)].loop;
    if (kernel.graph[*e].back && fifo.kind == OpKind::Fifo && loop && admitted[loop - 1])
      fifo.depth = admitted[loop - 1] + 1;
  }
}

} // namespace loom::hls
