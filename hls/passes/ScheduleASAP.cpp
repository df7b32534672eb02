//===- ScheduleASAP.cpp - Earliest start cycle of every node --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: latencies are known. After: each dynamic node's startCycle is when a work-item's token
// reaches it if nothing stalls: the latest arrival over its dynamic operands. Static operands are
// wires and arrive at once. BalancePaths uses the differences; the Completion node's start is the
// kernel's pipeline depth. Back edges are not waited for: they bring the next iteration.
// A LoopMux, and the arithmetic of a loop, are then placed as late as their consumers allow (ALAP): a
// ring whose next value comes late (an accumulation over loaded data, `s = s * 3 + a[k]`, whose
// multiply comes first) makes its iterations wait at the mux, so the FIFOs BalancePaths puts on the
// mux's inputs let the fast rings (the induction variables, the loads' addresses) run that far
// ahead, and the loads' latency overlaps the slow ring instead of adding to it. A mux
// whose next value does not depend on itself (`window[0] = x[i]`, a shift register's first stage)
// starts when that value of the previous iteration is ready, so the rings that feed it run ahead
// through FIFOs instead of the loop stepping at the pace of the load (but for the rings of a memory
// order kept several iterations apart, whose tokens are there early). A LoopControl starts no earlier
// than the entering values of the muxes its exit condition depends on, so no FIFO lands between the
// control and such a mux, inside the control's own ring (a loop entered under a condition ran at
// II 2 from that register). An extension is placed as late as its consumers allow too, in or out of
// loops, so that the narrow value waits in the FIFOs (NarrowIntegerWidths leaves many).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <map>
#include <set>

namespace loom::hls {
namespace {

/// Whether `to` is reachable from `from` along forward edges inside `from`'s loop, its inner loops
/// included: a value an outer loop carries through its inner loops (a total kept across a loop
/// nest) depends on itself as much as one computed in the loop's own body.
bool reaches(const KernelGraph &kernel, NodeId from, NodeId to) {
  const unsigned loop = kernel.graph[from].loop;
  auto depthOf = [&](unsigned n) { return n == 0 ? 0u : kernel.loops[n - 1].depth; };
  // Leaving the loop passes through a node of the enclosing loop, so a deeper node on such a path
  // lies in one of its inner loops.
  auto inside = [&](unsigned n) { return n == loop || depthOf(n) > depthOf(loop); };
  std::vector<NodeId> work{from};
  std::set<NodeId> seen{from};
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    if (n == to)
      return true;
    for (auto [e, end] = boost::out_edges(n, kernel.graph); e != end; ++e) {
      NodeId next = boost::target(*e, kernel.graph);
      if (!kernel.graph[*e].back && inside(kernel.graph[next].loop) && seen.insert(next).second)
        work.push_back(next);
    }
  }
  return false;
}

/// The rings of memory orders kept several iterations apart (a chain passing a token on): each
/// takes a token that is there an iteration early, so it starts when its loop admits an iteration.
std::set<NodeId> orderChains(const KernelGraph &kernel) {
  std::set<NodeId> chained;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id)
    if (kernel.graph[id].kind == OpKind::LoopMux)
      if (auto passed = passedMux(kernel, backSource(kernel, id), kernel.graph[id].loop); passed && *passed != id) {
        chained.insert(id);
        chained.insert(*passed);
      }
  return chained;
}

/// LoopMuxes whose next value does not depend on their own (a value loaded or computed afresh each
/// iteration and used in the next: `window[0] = x[i]`), with the node that computes it.
std::map<NodeId, NodeId> carriedWithoutRecurrence(const KernelGraph &kernel, const std::set<NodeId> &chained) {
  std::map<NodeId, NodeId> result;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    if (kernel.graph[id].kind != OpKind::LoopMux || chained.count(id))
      continue;
    for (auto [e, end] = boost::in_edges(id, kernel.graph); e != end; ++e)
      if (kernel.graph[*e].back && !reaches(kernel, id, boost::source(*e, kernel.graph)))
        result[id] = boost::source(*e, kernel.graph);
  }
  return result;
}

/// Integer and float operations: moving one later only moves where its operands wait.
bool isArithmetic(OpKind kind) {
  switch (kind) {
  case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::UDiv: case OpKind::SDiv:
  case OpKind::URem: case OpKind::SRem: case OpKind::And: case OpKind::Or: case OpKind::Xor:
  case OpKind::Shl: case OpKind::LShr: case OpKind::AShr: case OpKind::ICmp: case OpKind::Select:
  case OpKind::ZExt: case OpKind::SExt: case OpKind::Trunc: case OpKind::InsertLane:
  case OpKind::FAdd: case OpKind::FSub: case OpKind::FMul: case OpKind::FDiv: case OpKind::FNeg:
  case OpKind::FSqrt: case OpKind::FCmp: case OpKind::SIToFP: case OpKind::UIToFP: case OpKind::FPToSI:
  case OpKind::FPToUI:
    return true;
  default:
    return false;
  }
}

} // namespace

void scheduleASAP(KernelGraph &kernel) {
  const auto order = kernel.topologicalOrder();
  const std::set<NodeId> chained = orderChains(kernel);
  const auto carried = carriedWithoutRecurrence(kernel, chained);
  // A LoopControl admits a work-item when the values its exit condition depends on entered the
  // loop: were the control earlier, such a mux would wait for its entering value, and the FIFO
  // BalancePaths put between the control and the mux would add a register to the control's own
  // ring. (Other muxes may wait: their FIFO is off that ring, and the loop's loads start early.)
  std::map<NodeId, unsigned> entryDue;
  std::set<NodeId> onControlRing;
  size_t controls = 0;
  for (NodeId id : order) {
    if (kernel.graph[id].kind != OpKind::LoopMux)
      continue;
    const NodeId control = kernel.operands(id)[0];
    for (auto [e, end] = boost::in_edges(control, kernel.graph); e != end; ++e)
      if (kernel.graph[*e].back && reaches(kernel, id, boost::source(*e, kernel.graph)))
        onControlRing.insert(id);
  }
  // Such a mux takes iteration i's value at iteration i + 1, one cycle after iteration i in steady
  // state: it starts no earlier than that value is ready, less a cycle. Its value may come from
  // another such mux (a shift register), so repeat until nothing moves; a chain of them settles in
  // one pass per link, and a cycle of them (a recurrence over two iterations) stops at the bound.
  for (NodeId id : order)
    controls += kernel.graph[id].kind == OpKind::LoopControl;
  for (size_t pass = 0; pass <= carried.size() + controls; ++pass) {
    bool moved = false;
    for (NodeId id : order) {
      Node &n = kernel.graph[id];
      unsigned start = 0;
      for (auto [it, end] = boost::in_edges(id, kernel.graph); it != end; ++it) {
        if (kernel.graph[*it].back)
          continue;
        const Node &o = kernel.graph[boost::source(*it, kernel.graph)];
        if (!o.isStatic)
          start = std::max(start, o.startCycle + o.latency);
      }
      if (auto next = carried.find(id); next != carried.end()) {
        const Node &value = kernel.graph[next->second];
        start = std::max(start, std::max(value.startCycle + value.latency, 1u) - 1);
      }
      if (n.kind == OpKind::LoopControl)
        start = std::max(start, entryDue[id]);
      start = n.isStatic ? 0 : start;
      moved |= start != n.startCycle;
      n.startCycle = start;
      if (onControlRing.count(id)) {
        const auto ops = kernel.operands(id);
        const Node &entering = kernel.graph[ops[1]];
        if (kernel.graph[ops[0]].kind == OpKind::LoopControl && !entering.isStatic)
          entryDue[ops[0]] = std::max(entryDue[ops[0]], entering.startCycle + entering.latency);
      }
    }
    if (!moved)
      break;
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node &n = kernel.graph[*it];
    // An extension anywhere: its narrow operand waits instead of its wide result.
    const bool extension = (n.kind == OpKind::ZExt || n.kind == OpKind::SExt) && !n.isStatic;
    if ((n.kind != OpKind::LoopMux && !(n.loop != 0 && !n.isStatic && isArithmetic(n.kind)) && !extension) ||
        chained.count(*it))
      continue;
    unsigned latest = ~0u;
    for (EdgeId edge : kernel.consumers(*it))
      if (!kernel.graph[edge].back)
        latest = std::min(latest, kernel.graph[boost::target(edge, kernel.graph)].startCycle);
    if (latest != ~0u && latest >= n.startCycle + n.latency)
      n.startCycle = latest - n.latency;
  }
}

} // namespace loom::hls
