//===- CoalesceMemoryLines.cpp - Streams of accesses to whole memory lines -===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: one memory port per global access, each request moving the access's few bytes, while the
// board's memory moves (and charges) a whole line of its width for any request. After: a stream port
// (Node::stream: consecutive iterations or work-items access consecutive addresses) becomes a line
// port (MemoryPort::lines) of the board's memory width where that is safe:
// - a load no store or atomic of the kernel may precede (none among its ancestors, around loops
//   too): its unit keeps the last line it fetched and serves the next elements of that line from it,
//   which would miss a store that the work-item made to the line in between;
// - a store no memory access waits for (its token reaches no access, only the kernel's end): its
//   unit combines consecutive elements into one line write, which it may hold back a few cycles.
// A gather or scatter stays a port of its element: each of its requests costs a beat whatever it does.
// Runs on the graph as built, before add-completion.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Support/MathExtras.h"

#include <set>

namespace loom::hls {
namespace {

/// Whether a node of `kinds` reaches `node` (`upstream`) or is reached from it, through any edge, a
/// loop's back edges included.
bool connects(const KernelGraph &kernel, NodeId node, bool upstream, std::initializer_list<OpKind> kinds) {
  std::vector<NodeId> work{node};
  std::set<NodeId> seen{node};
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    auto visit = [&](NodeId next) {
      if (llvm::is_contained(kinds, kernel.graph[next].kind))
        return true;
      if (seen.insert(next).second)
        work.push_back(next);
      return false;
    };
    if (upstream) {
      for (auto [it, end] = boost::in_edges(n, kernel.graph); it != end; ++it)
        if (visit(boost::source(*it, kernel.graph)))
          return true;
    } else {
      for (auto [it, end] = boost::out_edges(n, kernel.graph); it != end; ++it)
        if (visit(boost::target(*it, kernel.graph)))
          return true;
    }
  }
  return false;
}

} // namespace

llvm::Error coalesceMemoryLines(KernelGraph &kernel, const board::Board &board) {
  const unsigned line = board.memory.widthBytes;
  if (!llvm::isPowerOf2_32(line) || line > MaxPortBytes)
    return llvm::Error::success(); // A line the ports cannot carry: every access keeps its own requests.
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    const Node &node = kernel.graph[id];
    if (!node.stream || (node.kind != OpKind::Load && node.kind != OpKind::Store))
      continue;
    MemoryPort &port = kernel.ports[node.index];
    if (port.bytes >= line)
      continue;
    const bool safe =
        node.kind == OpKind::Load
            ? !connects(kernel, id, /*upstream=*/true, {OpKind::Store, OpKind::Atomic})
            : !connects(kernel, id, /*upstream=*/false,
                        {OpKind::Load, OpKind::Store, OpKind::Atomic, OpKind::RamLoad, OpKind::RamStore});
    if (!safe)
      continue;
    port.elementBytes = port.bytes;
    port.bytes = line;
  }
  return llvm::Error::success();
}

} // namespace loom::hls
