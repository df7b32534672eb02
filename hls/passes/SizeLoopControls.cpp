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
// An innermost loop whose rings all close in a cycle finishes an iteration a cycle with one
// invocation inside, and admits one at a time: more would interleave their iterations, and with
// them their memory streams, so that a line port fetches a line for nearly every element (gemm's
// row of a: 26,273 line requests for 27,000 elements, 1,710 one invocation at a time). Its back-edge
// FIFOs hold two values, not 33: the QoR FIR's 16 window rings went from 631 to 471 LUT-RAM cells
// and from 8,026 to 7,257 LUTs in yosys, every QoR kernel in the same cycles. Not a loop
// over a work-group's work-items (barriers): the next group's sweep starting while this one's
// last work-items are inside keeps such kernels at a work-item a cycle (tiled_sgemm 42,639
// cycles, 45,079 one sweep at a time). A back-edge FIFO into a mux that starts after the value is
// ready holds that slack too: a sliding window's mux placed 5 cycles late behind 2-entry FIFOs
// stepped once in 3.5 cycles.
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
    LoopReport &loop = kernel.loops[node.loop - 1];
    const unsigned ring = rings[node.loop - 1].cycles;
    if (loop.innermost && !loop.overWorkItems && ring <= 1) {
      node.depth = loop.workItemsInside = admitted[node.loop - 1] = 1;
      continue;
    }
    const unsigned wanted = std::min(ring, MaxLoopWorkItems);
    if (wanted <= node.depth)
      continue;
    node.depth = admitted[node.loop - 1] = loop.workItemsInside = wanted;
  }
  for (auto [e, end] = boost::edges(kernel.graph); e != end; ++e) {
    Node &fifo = kernel.graph[boost::source(*e, kernel.graph)];
    const Node &mux = kernel.graph[boost::target(*e, kernel.graph)];
    if (!kernel.graph[*e].back || fifo.kind != OpKind::Fifo || !mux.loop)
      continue;
    if (admitted[mux.loop - 1])
      fifo.depth = admitted[mux.loop - 1] + 1;
    // A mux scheduled after its next value is ready (its control delayed to meet a late consumer)
    // takes each value that many cycles later: the FIFO holds a value more per cycle of it.
    const unsigned ready = fifo.startCycle + fifo.latency, taken = mux.startCycle + 1;
    if (taken > ready)
      fifo.depth += taken - ready;
  }
}

} // namespace loom::hls
