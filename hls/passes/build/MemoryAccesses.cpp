//===- MemoryAccesses.cpp - Memory ports and a work-item's program order --===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). Each global load or store gets a memory port.
// A dataflow circuit would otherwise issue a work-item's load before its earlier store to the same
// address, so each load also waits for the work-item's previous store (read after write) and each
// store for the previous store and the loads since (write after write, write after read), through
// token operands, unless data dependences already order them. Work-items stay unordered, as OpenCL
// allows. A port serves its requests in order, so one port's accesses need no tokens among themselves.
//
// Around a loop: a loop that only loads, or stores through one port either alone or to a `restrict`
// argument its loads do not read, needs no carried state; its accesses wait for the state before
// the loop. Any other loop carries a summary token of each
// iteration's accesses to the next iteration (a ring), and that token is the state after the loop.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "llvm/Analysis/ValueTracking.h"

#include <set>

namespace loom::hls {
namespace {

/// Whether `node` already waits for `ancestor` through forward edges.
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
    for (auto [it, end] = boost::in_edges(n, kernel.graph); it != end; ++it)
      if (!kernel.graph[*it].back)
        work.push_back(boost::source(*it, kernel.graph));
  }
  return false;
}

} // namespace

void GraphBuilder::orderAfter(NodeId before, NodeId after) {
  if (!dependsOn(result_, after, before))
    result_.connect(before, after, result_.operands(after).size());
}

llvm::Error GraphBuilder::memory(const llvm::Instruction &inst, const llvm::Value *pointer, llvm::Type *valueType,
                                 bool isStore) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != 1 && space != 2)
    return fail(inst, space == 3 ? "__local memory is not supported by the hardware flow yet"
                                 : "private memory arrays are not supported by the hardware flow yet");
  auto width = widthOf(valueType, &inst);
  if (!width)
    return width.takeError();
  if (*width != 8 && *width != 16 && *width != 32 && *width != 64)
    return fail(inst, "memory accesses of " + std::to_string(*width) + " bits are not supported");
  MemoryPort port{isStore ? MemoryPort::Kind::Store : MemoryPort::Kind::Load, *width / 8, locationOf(inst, kernel_)};
  Node n{isStore ? OpKind::Store : OpKind::Load, isStore ? 0u : *width};
  n.index = result_.ports.size();
  result_.ports.push_back(port);
  auto addr = valueOf(pointer, inst);
  if (!addr)
    return addr.takeError();
  std::vector<NodeId> ops{*addr};
  if (isStore) {
    auto data = valueOf(llvm::cast<llvm::StoreInst>(inst).getValueOperand(), inst);
    if (!data)
      return data.takeError();
    ops.push_back(*data);
  }
  auto predicate = blockPredicate(*inst.getParent());
  if (!predicate)
    return predicate.takeError();
  if (*predicate) {
    n.predicated = true;
    ops.push_back(lift(**predicate, current_));
  }
  NodeId id = add(n, inst, ops);
  if (memory_.lastStore)
    orderAfter(lift(*memory_.lastStore, current_), id);
  if (isStore) {
    for (NodeId load : memory_.loads)
      orderAfter(lift(load, current_), id);
    memory_ = {id, {}};
  } else {
    values_[&inst] = id;
    memory_.loads.push_back(id);
  }
  return llvm::Error::success();
}

NodeId GraphBuilder::summary(const MemoryState &state) {
  std::vector<NodeId> tokens;
  if (state.lastStore)
    tokens.push_back(lift(*state.lastStore, current_));
  for (NodeId load : state.loads)
    tokens.push_back(lift(load, current_));
  if (tokens.empty())
    tokens.push_back(trigger(current_));
  if (tokens.size() == 1 && result_.graph[tokens[0]].width == 0)
    return tokens[0];
  Node join{OpKind::Join, 0};
  join.name = "memory_order";
  return addAt(join, current_, tokens);
}

void GraphBuilder::enterLoopMemory(Region &loop) {
  std::vector<const llvm::Value *> loaded, stored;
  for (const llvm::BasicBlock *block : loop.loop->blocks())
    for (const llvm::Instruction &inst : *block) {
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
        loaded.push_back(llvm::getUnderlyingObject(load->getPointerOperand()));
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        stored.push_back(llvm::getUnderlyingObject(store->getPointerOperand()));
    }
  // One store port orders its own stores. Its iterations need nothing from the loop's loads either
  // when it writes through a `restrict` argument no load of the loop reads.
  auto restrictArgument = [](const llvm::Value *object) {
    const auto *arg = llvm::dyn_cast<llvm::Argument>(object);
    return arg && arg->hasNoAliasAttr();
  };
  const bool independent = stored.size() == 1 && (loaded.empty() || (restrictArgument(stored[0]) &&
                                                                     !llvm::is_contained(loaded, stored[0])));
  {
    // One token for the loads before the loop: one ring carries it, not one per load.
    AtPosition at(*this, {loop.parent, loop.segment});
    if (!memory_.loads.empty())
      memory_.loads = {summary({llvm::None, memory_.loads})};
    if (stored.empty() || independent)
      return;
    NodeId before = summary(memory_);
    memory_ = {};
    NodeId carried = ring(loop, before, [this, &loop]() -> llvm::Expected<NodeId> {
      AtPosition end(*this, loop.last());
      loop.memorySummary = summary(memory_);
      return *loop.memorySummary;
    });
    result_.graph[carried].name = "memory order";
    memory_.lastStore = carried;
  }
}

void GraphBuilder::leaveLoopMemory(Region &loop) {
  if (loop.memorySummary)
    memory_ = {loop.memorySummary, {}};
}

} // namespace loom::hls
