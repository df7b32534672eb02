//===- AssignLatencies.cpp - Operator latencies from the board's data -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: nodes have no timing. After: every dynamic node has the pipeline depth of its operator
// class on this board (board-support/boards/*.json), wiring-only nodes (a shift by a constant) 0, and memory nodes have
// the board's nominal memory latency plus issue and buffering, and enough credits to keep one request
// per cycle in flight over that latency. Cheap integer operations on a loop's recurrence (a ring) are
// chained into the cycle of the ring's back-edge register, as HLS schedulers chain operations within
// a clock period: a counter's increment and exit test then cost one cycle per iteration, not three.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Support/MathExtras.h"

#include <boost/graph/strong_components.hpp>
#include <cmath>

namespace loom::hls {
namespace {

/// The board's operator class for a node kind; empty for nodes that are only wiring.
const char *operatorClass(OpKind kind) {
  switch (kind) {
  case OpKind::Add:
  case OpKind::Sub: return "int_add";
  case OpKind::And:
  case OpKind::Or:
  case OpKind::Xor: return "int_logic";
  case OpKind::Shl:
  case OpKind::LShr:
  case OpKind::AShr: return "int_shift";
  case OpKind::Mul: return "int_mul";
  case OpKind::UDiv:
  case OpKind::SDiv:
  case OpKind::URem:
  case OpKind::SRem: return "int_div";
  case OpKind::ICmp: return "int_compare";
  case OpKind::Select: return "select";
  case OpKind::Address: return "address";
  case OpKind::FAdd:
  case OpKind::FSub: return "float_add";
  case OpKind::FMul: return "float_mul";
  case OpKind::FDiv: return "float_div";
  case OpKind::FSqrt: return "float_sqrt";
  case OpKind::FCmp: return "float_compare";
  case OpKind::SIToFP:
  case OpKind::UIToFP:
  case OpKind::FPToSI:
  case OpKind::FPToUI: return "float_convert";
  default: return "";
  }
}

/// Operator classes cheap enough to chain combinationally on a recurrence.
bool chainable(OpKind kind) {
  llvm::StringRef cls = operatorClass(kind);
  return cls == "int_add" || cls == "int_logic" || cls == "int_compare" || cls == "select" || cls == "address";
}

/// Nodes on a cycle of the graph: the rings of loops.
std::vector<bool> onRecurrence(const Graph &graph) {
  std::vector<unsigned> component(boost::num_vertices(graph));
  boost::strong_components(graph, boost::make_iterator_property_map(component.begin(),
                                                                     boost::get(boost::vertex_index, graph)));
  std::vector<unsigned> size(component.size() + 1, 0);
  for (unsigned c : component)
    ++size[c];
  std::vector<bool> result(component.size());
  for (size_t i = 0; i < component.size(); ++i)
    result[i] = size[component[i]] > 1;
  return result;
}

} // namespace

/// Global-memory bytes each loop's iteration (index 0: a work-item outside loops) moves at most, as
/// the board's memory counts them: a request occupies its bank for the beats it touches, so a plain
/// access costs whole beats; an element of a stream through a line port costs its own bytes, as
/// consecutive elements share a line. An access under a condition counts as if it happened (the
/// regions of a kernel with barriers are such conditions, each pass running one region's accesses).
std::vector<uint64_t> globalBytes(const KernelGraph &kernel, const board::Board &board) {
  std::vector<uint64_t> bytes(kernel.loops.size() + 1, 0);
  const uint64_t beat = std::max(1u, board.memory.widthBytes);
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    const Node &n = kernel.graph[id];
    if (n.isStatic || (n.kind != OpKind::Load && n.kind != OpKind::Store && n.kind != OpKind::Atomic))
      continue;
    const MemoryPort &port = kernel.ports[n.index];
    bytes[n.loop] += port.lines() && n.stream ? port.elementBytes : llvm::alignTo(port.bytes, beat);
  }
  return bytes;
}

unsigned answerLatency(const KernelGraph &kernel, NodeId id, const board::Board &board) {
  const Node &n = kernel.graph[id];
  // The board's latency and two cycles more: an idle memory answers sooner (a port hands an answer
  // on as it arrives), and the slack keeps balancing FIFOs from running dry while banks are busy.
  unsigned latency = board.memory.latencyCycles + 2;
  // A line store writes a line only once its last element came (or a few idle cycles later): a
  // stream's first element waits for the rest of its line.
  if (n.kind == OpKind::Store && kernel.ports[n.index].lines())
    latency += kernel.ports[n.index].bytes / kernel.ports[n.index].elementBytes;
  return latency;
}

llvm::Error assignLatencies(KernelGraph &kernel, const board::Board &board) {
  const unsigned memoryLatency = board.memory.latencyCycles + 2;
  // Little's law: a port keeps its rate of requests times the latency in flight. Work-items whose
  // accesses outside loops move more bytes than this unit's share of the memory's peak moves a cycle
  // cannot come every cycle, so those ports take credits for that rate, doubled (an access under a
  // condition counts as if it happened), not for a request every cycle: a response buffer each of
  // a block of RAM or more otherwise (OpenCL-CTS vector_creation's hundreds of 64-byte ports).
  const double share = board.memoryBytesPerCycle() / std::max(1u, kernel.computeUnits);
  const uint64_t workItemBytes = globalBytes(kernel, board)[0];
  const double workItemsPerCycle = share > 0 && workItemBytes ? std::min(1.0, share / double(workItemBytes)) : 1.0;
  const unsigned workItemCredits =
      std::min(memoryLatency + 2, unsigned(std::ceil(2 * memoryLatency * workItemsPerCycle)) + 2);
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    Node &n = kernel.graph[id];
    if (n.isStatic) {
      n.latency = 0;
      continue;
    }
    switch (n.kind) {
    case OpKind::WorkItems:
    case OpKind::Completion:
      n.latency = 1;
      break;
    case OpKind::Fifo:
      break; // Back-edge registers come with their latency; balancing FIFOs are added later.
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::Atomic: // The memory reads and writes at once: a load's round trip.
      n.depth = n.loop == 0 && !kernel.ports[n.index].lines() ? workItemCredits : memoryLatency + 2;
      n.depth += answerLatency(kernel, id, board) - memoryLatency; // A line store's credits cover its line.
      // A posted store's token leaves the cycle after the store; its credits still cover the memory.
      n.latency = n.posted ? 1 : answerLatency(kernel, id, board);
      break;
    case OpKind::RamLoad:
    case OpKind::RamStore:
    case OpKind::PipeRead:  // The FIFO's handshake, then the node's output register.
    case OpKind::PipeWrite:
    case OpKind::PipeReserve:
    case OpKind::PipeSlotRead:
    case OpKind::PipeSlotWrite:
    case OpKind::PipeCommit:
    case OpKind::PipeQuery:
      n.latency = 1; // The output register; an access takes effect at the edge it is accepted.
      break;
    default:
      if (const char *cls = operatorClass(n.kind); *cls && !isWiring(kernel, id)) {
        auto latency = board.latencyOf(cls);
        if (!latency)
          return latency.takeError();
        n.latency = *latency;
        if (llvm::StringRef(cls) == "int_div")
          n.latency = std::max(n.latency, 1u); // loom_idiv ends in its output register.
      } else {
        n.latency = 0;
      }
    }
  }
  const std::vector<bool> recurrent = onRecurrence(kernel.graph);
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id)
    if (recurrent[id] && chainable(kernel.graph[id].kind))
      kernel.graph[id].latency = 0;
  return llvm::Error::success();
}

} // namespace loom::hls
