//===- OrderMemoryAccesses.cpp - Keep a work-item's memory accesses in order ===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: loads and stores depend only on their address and data, so a dataflow circuit may issue a
// work-item's load before its earlier store to the same address. After: each load also waits for the
// work-item's previous store (read after write) and each store for the previous store and the loads
// since (write after write, write after read), through token operands — unless the data dependences
// already order them, which is the common case and costs nothing. Work-items stay unordered, as
// OpenCL allows.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <set>

namespace loom::hls {
namespace {

bool dependsOn(const KernelGraph &kernel, NodeId node, NodeId ancestor) {
  std::vector<NodeId> work{node};
  std::set<NodeId> seen;
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    if (n == ancestor)
      return true;
    if (!seen.insert(n).second)
      continue;
    for (NodeId op : kernel.operands(n))
      work.push_back(op);
  }
  return false;
}

void addOrderToken(KernelGraph &kernel, NodeId before, NodeId after) {
  if (dependsOn(kernel, after, before))
    return;
  kernel.connect(before, after, kernel.operands(after).size());
}

} // namespace

void orderMemoryAccesses(KernelGraph &kernel) {
  // Node ids follow program order: the builder creates nodes instruction by instruction.
  llvm::Optional<NodeId> lastStore;
  std::vector<NodeId> loadsSinceStore;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    OpKind kind = kernel.graph[id].kind;
    if (kind == OpKind::Load) {
      if (lastStore)
        addOrderToken(kernel, *lastStore, id);
      loadsSinceStore.push_back(id);
    } else if (kind == OpKind::Store) {
      if (lastStore)
        addOrderToken(kernel, *lastStore, id);
      for (NodeId load : loadsSinceStore)
        addOrderToken(kernel, load, id);
      loadsSinceStore.clear();
      lastStore = id;
    }
  }
}

} // namespace loom::hls
