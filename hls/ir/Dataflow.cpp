//===- Dataflow.cpp - Dataflow graph queries and text form ----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/hls/Dataflow.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/topological_sort.hpp>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace loom::hls {

const char *opName(OpKind kind) {
  switch (kind) {
  case OpKind::WorkItems: return "workitems";
  case OpKind::Argument: return "arg";
  case OpKind::Constant: return "const";
  case OpKind::GlobalSize: return "global_size";
  case OpKind::GlobalOffset: return "global_offset";
  case OpKind::GlobalId: return "global_id";
  case OpKind::WorkItemSlot: return "workitem_slot";
  case OpKind::Add: return "add";
  case OpKind::Sub: return "sub";
  case OpKind::Mul: return "mul";
  case OpKind::UDiv: return "udiv";
  case OpKind::SDiv: return "sdiv";
  case OpKind::URem: return "urem";
  case OpKind::SRem: return "srem";
  case OpKind::And: return "and";
  case OpKind::Or: return "or";
  case OpKind::Xor: return "xor";
  case OpKind::Shl: return "shl";
  case OpKind::LShr: return "lshr";
  case OpKind::AShr: return "ashr";
  case OpKind::ICmp: return "icmp";
  case OpKind::Select: return "select";
  case OpKind::ZExt: return "zext";
  case OpKind::SExt: return "sext";
  case OpKind::Trunc: return "trunc";
  case OpKind::InsertLane: return "insert_lane";
  case OpKind::Address: return "address";
  case OpKind::FAdd: return "fadd";
  case OpKind::FSub: return "fsub";
  case OpKind::FMul: return "fmul";
  case OpKind::FDiv: return "fdiv";
  case OpKind::FSqrt: return "fsqrt";
  case OpKind::FNeg: return "fneg";
  case OpKind::FCmp: return "fcmp";
  case OpKind::SIToFP: return "sitofp";
  case OpKind::UIToFP: return "uitofp";
  case OpKind::FPToSI: return "fptosi";
  case OpKind::FPToUI: return "fptoui";
  case OpKind::Load: return "load";
  case OpKind::Store: return "store";
  case OpKind::StoreAddress: return "store_address";
  case OpKind::Atomic: return "atomic";
  case OpKind::RamLoad: return "ram_load";
  case OpKind::RamStore: return "ram_store";
  case OpKind::PipeRead: return "pipe_read";
  case OpKind::PipeWrite: return "pipe_write";
  case OpKind::PipeReserve: return "pipe_reserve";
  case OpKind::PipeSlotRead: return "pipe_slot_read";
  case OpKind::PipeSlotWrite: return "pipe_slot_write";
  case OpKind::PipeCommit: return "pipe_commit";
  case OpKind::PipeQuery: return "pipe_query";
  case OpKind::LoopControl: return "loop_control";
  case OpKind::LoopMux: return "loop_mux";
  case OpKind::Steer: return "steer";
  case OpKind::Join: return "join";
  case OpKind::Fifo: return "fifo";
  case OpKind::Completion: return "completion";
  }
  return "?";
}

bool isUnit(OpKind kind) {
  switch (kind) {
  case OpKind::UDiv:
  case OpKind::SDiv:
  case OpKind::URem:
  case OpKind::SRem:
  case OpKind::FAdd:
  case OpKind::FSub:
  case OpKind::FMul:
  case OpKind::FDiv:
  case OpKind::FSqrt:
  case OpKind::FCmp:
  case OpKind::SIToFP:
  case OpKind::UIToFP:
  case OpKind::FPToSI:
  case OpKind::FPToUI:
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::StoreAddress:
  case OpKind::Atomic:
  case OpKind::RamLoad:
  case OpKind::RamStore:
    return true;
  default: return isPipeAccess(kind);
  }
}

bool isPipeAccess(OpKind kind) {
  switch (kind) {
  case OpKind::PipeRead:
  case OpKind::PipeWrite:
  case OpKind::PipeReserve:
  case OpKind::PipeSlotRead:
  case OpKind::PipeSlotWrite:
  case OpKind::PipeCommit:
  case OpKind::PipeQuery: return true;
  default: return false;
  }
}

unsigned dataOperandCount(const Node &node) {
  switch (node.kind) {
  case OpKind::Load:
  case OpKind::StoreAddress:
  case OpKind::RamLoad: return node.predicated ? 2 : 1;
  case OpKind::Store:
  case OpKind::RamStore: return node.predicated ? 3 : 2;
  case OpKind::Atomic: return 2 + unsigned(node.constant) + (node.predicated ? 1 : 0);
  case OpKind::PipeRead: return node.predicated ? 1 : 0;
  case OpKind::PipeWrite: return node.predicated ? 2 : 1;
  case OpKind::PipeReserve:
  case OpKind::PipeSlotRead:
  case OpKind::PipeCommit: return node.predicated ? 2 : 1;
  case OpKind::PipeSlotWrite: return node.predicated ? 3 : 2;
  case OpKind::PipeQuery: return 0;
  case OpKind::UDiv:
  case OpKind::SDiv:
  case OpKind::URem:
  case OpKind::SRem:
  case OpKind::FAdd:
  case OpKind::FSub:
  case OpKind::FMul:
  case OpKind::FDiv:
  case OpKind::FCmp: return 2;
  case OpKind::FSqrt:
  case OpKind::SIToFP:
  case OpKind::UIToFP:
  case OpKind::FPToSI:
  case OpKind::FPToUI: return 1;
  case OpKind::Completion: return unsigned(node.constant);
  case OpKind::LoopControl:
  case OpKind::Join: return 0;
  case OpKind::Steer: return 2;
  case OpKind::LoopMux: return 3;
  default: return ~0u;
  }
}

std::vector<NodeId> KernelGraph::operands(NodeId node) const {
  std::vector<std::pair<unsigned, NodeId>> sorted;
  for (auto [it, end] = boost::in_edges(node, graph); it != end; ++it)
    sorted.emplace_back(graph[*it].operand, boost::source(*it, graph));
  std::sort(sorted.begin(), sorted.end());
  std::vector<NodeId> result;
  for (auto &entry : sorted)
    result.push_back(entry.second);
  return result;
}

std::vector<EdgeId> KernelGraph::consumers(NodeId node) const {
  std::vector<EdgeId> result;
  for (auto [it, end] = boost::out_edges(node, graph); it != end; ++it)
    if (!graph[boost::target(*it, graph)].isStatic)
      result.push_back(*it);
  std::sort(result.begin(), result.end(), [&](const EdgeId &a, const EdgeId &b) {
    auto ta = boost::target(a, graph), tb = boost::target(b, graph);
    return ta != tb ? ta < tb : graph[a].operand < graph[b].operand;
  });
  return result;
}

std::vector<NodeId> KernelGraph::topologicalOrder() const {
  struct ForwardEdge {
    const Graph *graph = nullptr;
    bool operator()(const EdgeId &e) const { return !(*graph)[e].back; }
  };
  boost::filtered_graph<Graph, ForwardEdge> forward(graph, ForwardEdge{&graph});
  std::vector<NodeId> reversed;
  boost::topological_sort(forward, std::back_inserter(reversed));
  return {reversed.rbegin(), reversed.rend()};
}

namespace {

/// Cycles around the ring that `ring` (a LoopMux or LoopControl) starts and `back` closes.
unsigned ringLatency(const KernelGraph &kernel, const std::vector<NodeId> &order, NodeId ring, NodeId back) {
  const unsigned loop = kernel.graph[ring].loop;
  std::map<NodeId, unsigned> reach{{ring, 0}};
  for (NodeId id : order) {
    auto it = reach.find(id);
    if (it == reach.end())
      continue;
    const Node &n = kernel.graph[id];
    const unsigned out = it->second + (n.kind == OpKind::Fifo ? 1 : n.latency);
    if (id == back)
      return std::max(1u, out);
    for (auto [e, end] = boost::out_edges(id, kernel.graph); e != end; ++e) {
      NodeId next = boost::target(*e, kernel.graph);
      if (kernel.graph[*e].back || kernel.graph[next].loop != loop)
        continue;
      reach[next] = std::max(reach[next], out);
    }
  }
  return 1;
}

} // namespace

llvm::Optional<NodeId> passedMux(const KernelGraph &kernel, NodeId back, unsigned loop) {
  for (NodeId id = back;;) {
    const Node &n = kernel.graph[id];
    // Tokens only: a shift register's muxes pass data on, each a ring of its own.
    if (n.width != 0)
      return llvm::None;
    if (n.kind == OpKind::LoopMux && n.loop == loop)
      return id;
    // A child loop's invariant ring carries its entering value (operand 1) through the child.
    const bool passes = n.kind == OpKind::Fifo || n.kind == OpKind::Steer || (n.kind == OpKind::LoopMux && n.loop != loop);
    if (!passes)
      return llvm::None;
    id = kernel.operands(id)[n.kind == OpKind::LoopMux ? 1 : 0];
  }
}

NodeId backSource(const KernelGraph &kernel, NodeId mux) {
  for (auto [it, end] = boost::in_edges(mux, kernel.graph); it != end; ++it)
    if (kernel.graph[*it].back)
      return boost::source(*it, kernel.graph);
  return mux;
}

std::vector<LongestRing> longestRings(const KernelGraph &kernel) {
  std::vector<LongestRing> rings(kernel.loops.size());
  const auto order = kernel.topologicalOrder();
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    const Node &n = kernel.graph[id];
    if (n.kind != OpKind::LoopMux && n.kind != OpKind::LoopControl)
      continue;
    for (auto [it, end] = boost::in_edges(id, kernel.graph); it != end; ++it) {
      // The control's operand 2 counts exits; it is not a recurrence.
      if (!kernel.graph[*it].back || (n.kind == OpKind::LoopControl && kernel.graph[*it].operand == 2))
        continue;
      // A ring that takes another's value one iteration on (a memory order kept `distance`
      // iterations apart) closes through that one: the chain's rings are one recurrence over as
      // many iterations, whose cycles the iterations share.
      // A ring passing its own value (an invariant) or the chain coming round (values swapped
      // each iteration) ends it.
      NodeId back = boost::source(*it, kernel.graph);
      unsigned passedCycles = 0, iterations = 1;
      std::set<NodeId> chain{id};
      for (auto passed = passedMux(kernel, back, n.loop); passed && chain.insert(*passed).second;
           passed = passedMux(kernel, back, n.loop), ++iterations) {
        passedCycles += ringLatency(kernel, order, *passed, back);
        back = backSource(kernel, *passed);
      }
      const unsigned cycles =
          (ringLatency(kernel, order, id, back) + passedCycles + iterations - 1) / iterations;
      LongestRing &longest = rings[n.loop - 1];
      if (cycles > longest.cycles)
        longest = {cycles, id};
    }
  }
  return rings;
}

unsigned OnChipMemory::indexBits() const { return std::max(1u, llvm::Log2_64_Ceil(depth)); }

unsigned OnChipMemory::bankIndexBits() const {
  return bankBits.empty() ? indexBits() : std::max<unsigned>(1, indexBits() - bankBits.size());
}

unsigned forwardingEntries(const Node &store, const Node &announce) {
  // Little's law at one store a cycle over an entry's life, from its announcement to its
  // acknowledge (+6: the queue's registers from data to request and from acknowledge to a free
  // entry), plus one more round trip: a bank that the stores alone nearly fill (a 4-byte store costs
  // a whole beat) makes the acknowledges wait in its queue.
  const unsigned announced = announce.startCycle, acknowledged = store.startCycle + store.latency + 6;
  return std::max(2u, acknowledged > announced ? acknowledged - announced : 0u) + store.latency;
}

bool isWiring(const KernelGraph &kernel, NodeId id) {
  switch (kernel.graph[id].kind) {
  case OpKind::ZExt:
  case OpKind::SExt:
  case OpKind::Trunc:
  case OpKind::InsertLane:
    return true;
  case OpKind::Shl:
  case OpKind::LShr:
  case OpKind::AShr:
    return kernel.graph[kernel.operands(id)[1]].kind == OpKind::Constant;
  default:
    return false;
  }
}

unsigned lineBuffers(const KernelGraph &kernel, NodeId load) {
  const Node &node = kernel.graph[load];
  if (node.loop) {
    const LoopReport &loop = kernel.loops[node.loop - 1];
    const bool oneInvocation = loop.maxInterleaving == 1 || loop.workItemsInside == 1 ||
                               (kernel.workItemsAlike && loop.depth == 1);
    if (!oneInvocation)
      return node.depth;
  }
  const MemoryPort &port = kernel.ports[node.index];
  const unsigned elements = port.bytes / port.elementBytes;
  return (node.depth + elements - 1) / elements + 1;
}

std::string portsText(const OnChipMemory &memory) {
  auto text = [](const OnChipMemory::Ports &ports) {
    return llvm::formatv("{0} read and {1} write ports", ports.reads, ports.writes).str();
  };
  const bool alike = llvm::all_of(memory.banks, [&](const OnChipMemory::Ports &ports) {
    return ports.reads == memory.banks[0].reads && ports.writes == memory.banks[0].writes;
  });
  if (alike)
    return text(memory.banks[0]) + (memory.banks.size() > 1 ? " each" : "");
  std::vector<std::string> banks;
  for (size_t bank = 0; bank < memory.banks.size(); ++bank)
    banks.push_back(llvm::formatv("bank {0}: {1}", bank, text(memory.banks[bank])));
  return llvm::join(banks, ", ");
}

std::string printGraph(const KernelGraph &kernel) {
  std::string out = llvm::formatv("kernel {0} (args {1})\n", kernel.kernelName, kernel.numArgs);
  for (const OnChipMemory &memory : kernel.memories) {
    out += llvm::formatv("  {0} {1}: {2} x {3} bytes, ", memory.contents.empty() ? "ram" : "rom", memory.name,
                         memory.depth, memory.elementBytes);
    if (!memory.bankBits.empty())
      out += llvm::formatv("{0} banks by index bits {1}, ", memory.banks.size(),
                           llvm::join(llvm::map_range(memory.bankBits, [](unsigned bit) { return std::to_string(bit); }),
                                      ","));
    out += llvm::formatv("{0}{1} ; {2}\n", portsText(memory), memory.readsShared ? ", reads take turns" : "",
                         memory.location);
  }
  if (kernel.workItemLimit)
    out += llvm::formatv("  work-items in flight: at most {0}\n", kernel.workItemLimit);
  for (const OnChipMemory &memory : kernel.memories)
    if (memory.copies > 1)
      out += llvm::formatv("  {0}: {1} copies, one per work-item slot\n", memory.name, memory.copies);
  if (kernel.simdWorkItems > 1)
    out += llvm::formatv("  work-items a token: {0} consecutive along dimension 0\n", kernel.simdWorkItems);
  if (kernel.computeUnits > 1)
    out += llvm::formatv("  compute units: {0} copies of this graph, each given its part of the range\n",
                         kernel.computeUnits);
  for (auto id : kernel.topologicalOrder()) {
    const Node &n = kernel.graph[id];
    out += llvm::formatv("  %{0} = {1}{2}", id, n.isStatic ? "static " : "", opName(n.kind));
    if (n.width)
      out += llvm::formatv(" i{0}", n.width);
    switch (n.kind) {
    case OpKind::Argument:
    case OpKind::GlobalSize:
    case OpKind::GlobalOffset:
    case OpKind::GlobalId:
      out += llvm::formatv(" #{0}", n.index);
      break;
    case OpKind::Constant:
      out += llvm::formatv(" {0}", n.constant);
      break;
    case OpKind::ICmp:
    case OpKind::FCmp:
      out += llvm::formatv(" pred={0}", n.predicate);
      break;
    case OpKind::Address: {
      out += llvm::formatv(" +{0} scales=", n.constant);
      for (size_t i = 0; i < n.scales.size(); ++i)
        out += llvm::formatv("{0}{1}", i ? "," : "", n.scales[i]);
      break;
    }
    case OpKind::StoreAddress:
      out += llvm::formatv(" port={0}{1}", n.index, n.predicated ? " predicated" : "");
      break;
    case OpKind::Load:
    case OpKind::Store:
      out += llvm::formatv(" port={0} credits={1}{2}{3}{4}{5}", n.index, n.depth, n.predicated ? " predicated" : "",
                           n.stream ? " stream" : "", n.posted ? " posted" : "",
                           kernel.ports[n.index].lines() ? llvm::formatv(" lines={0}", kernel.ports[n.index].bytes).str()
                                                       : std::string());
      if (kernel.ports[n.index].forwards())
        out += llvm::formatv(" forwards_from={0}", kernel.ports[n.index].forwardsFrom);
      break;
    case OpKind::Atomic:
      out += llvm::formatv(" {0} port={1} credits={2}{3}", atomicOpName(kernel.ports[n.index].op), n.index, n.depth,
                           n.predicated ? " predicated" : "");
      break;
    case OpKind::RamLoad:
    case OpKind::RamStore:
      out += llvm::formatv(" ram={0}{1}{2}{3}", kernel.memories[n.index].name,
                           kernel.memories[n.index].bankBits.empty() ? std::string()
                           : n.bank == AllBanks                      ? std::string(" bank=all")
                                                                     : llvm::formatv(" bank={0}", n.bank).str(),
                           n.kind == OpKind::RamLoad && kernel.memories[n.index].readsShared
                               ? llvm::formatv(" shared-port={0}", n.ramPort).str()
                               : std::string(),
                           n.predicated ? " predicated" : "");
      break;
    case OpKind::PipeRead:
    case OpKind::PipeWrite:
      out += llvm::formatv(" pipe={0} arg={1}{2}{3}", n.index, kernel.pipePorts[n.index].arg,
                           n.constant ? " waits" : " tries", n.predicated ? " predicated" : "");
      break;
    case OpKind::PipeReserve:
    case OpKind::PipeSlotRead:
    case OpKind::PipeSlotWrite:
    case OpKind::PipeCommit:
      out += llvm::formatv(" pipe={0} arg={1}{2}", n.index, kernel.pipePorts[n.index].arg,
                           n.predicated ? " predicated" : "");
      break;
    case OpKind::PipeQuery:
      out += llvm::formatv(" pipe={0} arg={1} {2}", n.index, kernel.pipePorts[n.index].arg,
                           n.constant ? "capacity" : "packets");
      break;
    case OpKind::Fifo:
      out += llvm::formatv(" depth={0}", n.depth);
      break;
    case OpKind::LoopControl:
      out += llvm::formatv(" limit={0}", n.depth);
      break;
    case OpKind::Steer:
      out += llvm::formatv(" when={0}", n.constant);
      break;
    case OpKind::InsertLane:
      out += llvm::formatv(" at={0}", n.constant);
      break;
    case OpKind::Trunc:
      if (n.constant)
        out += llvm::formatv(" from={0}", n.constant);
      break;
    default:
      break;
    }
    out += " (";
    std::vector<std::pair<unsigned, std::string>> ops;
    for (auto [it, end] = boost::in_edges(id, kernel.graph); it != end; ++it)
      ops.emplace_back(kernel.graph[*it].operand, llvm::formatv("{0}%{1}", kernel.graph[*it].back ? "back " : "",
                                                                 boost::source(*it, kernel.graph)));
    std::sort(ops.begin(), ops.end());
    for (size_t i = 0; i < ops.size(); ++i)
      out += (i ? ", " : "") + ops[i].second;
    out += ")";
    if (n.loop)
      out += llvm::formatv(" loop={0}", n.loop);
    if (!n.isStatic)
      out += llvm::formatv(" lat={0} start={1}", n.latency, n.startCycle);
    if (!n.location.empty())
      out += " ; " + n.location;
    out += "\n";
  }
  return out;
}

} // namespace loom::hls
