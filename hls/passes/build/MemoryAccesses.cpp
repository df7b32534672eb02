//===- MemoryAccesses.cpp - Memory ports and a work-item's program order --===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). Each global load or store gets a memory port.
// A private array, or a kernel's __local array, becomes an on-chip memory (OnChipMemory) with a read
// port per load and a write port per store, addressed by byte offset; it holds one work-item's copy,
// so such a kernel's work-items take turns (KernelGraph::workItemLimit).
// A dataflow circuit would otherwise issue a work-item's load before its earlier store to the same
// address, so each load also waits for the work-item's earlier stores it may alias (read after
// write) and each store for the earlier stores and loads it may alias (write after write, write
// after read), through token operands, unless data dependences already order them. Alias analysis
// (LLVM's BasicAA) decides "may alias": the lanes of a vector or the fields of a struct never wait
// for each other. Work-items stay unordered, as OpenCL allows.
//
// Around a loop: a loop whose stores each reach an object no other access of the loop reaches (an
// on-chip array, a `restrict` argument, or one store port alone) needs no carried state; its
// accesses wait for the state before the loop. Any other loop carries a summary token of each
// iteration's accesses to the next iteration (a ring), and that token is the state after the loop.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FormatVariadic.h"

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

bool GraphBuilder::mayAlias(const Access &earlier, const llvm::Instruction &inst) {
  return !earlier.inst || !aliases_->isNoAlias(llvm::MemoryLocation::get(earlier.inst), llvm::MemoryLocation::get(&inst));
}

bool GraphBuilder::covers(const llvm::Instruction &later, const Access &earlier) {
  if (!earlier.inst)
    return false;
  const auto was = llvm::MemoryLocation::get(earlier.inst), now = llvm::MemoryLocation::get(&later);
  return was.Size == now.Size && aliases_->isMustAlias(was, now);
}

namespace {

/// A private array (an alloca) or a kernel's __local array: what becomes an on-chip memory.
bool isOnChipArray(const llvm::Value *object) {
  if (llvm::isa<llvm::AllocaInst>(object))
    return true;
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(object);
  return global && global->getAddressSpace() == 3;
}

/// The variable's name as the user wrote it: Clang names a kernel's __local array "kernel.array"
/// and inlining suffixes ".i".
std::string sourceName(const llvm::Value &object) {
  llvm::StringRef name = object.getName();
  if (llvm::isa<llvm::GlobalVariable>(object) && name.contains('.'))
    name = name.split('.').second;
  return name.split('.').first.str();
}

} // namespace

llvm::Optional<uint64_t> GraphBuilder::onChipOffset(const llvm::Value *value) {
  llvm::APInt offset(64, 0);
  const llvm::Value *base = value->stripAndAccumulateConstantOffsets(layout_, offset, /*AllowNonInbounds=*/true);
  if (!isOnChipArray(base) || (!llvm::isa<llvm::Constant>(value) && base != value))
    return llvm::None;
  return offset.getZExtValue();
}

llvm::Expected<llvm::Optional<unsigned>> GraphBuilder::onChipMemory(const llvm::Instruction &inst,
                                                                    const llvm::Value *pointer,
                                                                    unsigned elementBytes) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
  if (!isOnChipArray(object)) {
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    if (space != 0 && space != 3)
      return llvm::None;
    if (const auto *arg = llvm::dyn_cast<llvm::Argument>(object); arg && arg->hasByValAttr())
      return fail(inst, "struct arguments passed by value are not supported by the hardware flow yet: pass "
                        "the struct in a __global or __constant buffer");
    return fail(inst, "this access may reach more than one private or __local array (the pointer is "
                      "chosen at run time): the hardware flow needs each access to name one array");
  }
  const std::string name = sourceName(*object);
  auto [it, added] = memories_.try_emplace(object, result_.memories.size());
  if (!added) {
    OnChipMemory &memory = result_.memories[it->second];
    if (memory.elementBytes != elementBytes)
      return fail(inst, llvm::formatv("array '{0}' is accessed as {1}-byte and as {2}-byte elements: the "
                                      "hardware flow needs one element size per on-chip array",
                                      name, memory.elementBytes, elementBytes));
    return it->second;
  }
  llvm::Type *type = nullptr;
  if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(object)) {
    if (!alloca->isStaticAlloca())
      return fail(inst, "private array '" + name + "' has a size known only at run time: on-chip memories need "
                        "a constant size");
    type = alloca->getAllocatedType();
  } else {
    type = llvm::cast<llvm::GlobalVariable>(object)->getValueType();
  }
  OnChipMemory memory;
  memory.name = name;
  memory.location = locationOf(inst, kernel_);
  memory.elementBytes = elementBytes;
  memory.depth = std::max<uint64_t>(1, layout_.getTypeAllocSize(type) / elementBytes);
  result_.memories.push_back(memory);
  // The memory holds one work-item's array (one work-group's, for __local, whose work-items may run
  // in any order when no barrier orders them): work-items take turns.
  result_.workItemLimit = 1;
  return it->second;
}

llvm::Error GraphBuilder::memory(const llvm::Instruction &inst, const llvm::Value *pointer, llvm::Type *valueType,
                                 bool isStore) {
  auto width = widthOf(valueType, &inst);
  if (!width)
    return width.takeError();
  if (*width != 8 && *width != 16 && *width != 32 && *width != 64)
    return fail(inst, "memory accesses of " + std::to_string(*width) + " bits are not supported");
  auto ram = onChipMemory(inst, pointer, *width / 8);
  if (!ram)
    return ram.takeError();
  Node n{isStore ? OpKind::Store : OpKind::Load, isStore ? 0u : *width};
  if (*ram) {
    n.kind = isStore ? OpKind::RamStore : OpKind::RamLoad;
    n.index = **ram;
    ++(isStore ? result_.memories[**ram].writes : result_.memories[**ram].reads);
  } else {
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    if (space != 1 && space != 2)
      return fail(inst, "this access's address space is not supported by the hardware flow yet");
    n.index = result_.ports.size();
    result_.ports.push_back(
        {isStore ? MemoryPort::Kind::Store : MemoryPort::Kind::Load, *width / 8, locationOf(inst, kernel_)});
  }
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
  auto waitFor = [&](std::vector<Access> &earlier) {
    for (const Access &access : earlier)
      if (mayAlias(access, inst))
        orderAfter(lift(access.node, current_), id);
    // A store that overwrites an earlier access stands for it from now on.
    if (isStore)
      llvm::erase_if(earlier, [&](const Access &access) { return covers(inst, access); });
  };
  waitFor(memory_.stores);
  if (isStore) {
    waitFor(memory_.loads);
    memory_.stores.push_back({id, &inst});
  } else {
    values_[&inst] = id;
    memory_.loads.push_back({id, &inst});
  }
  return llvm::Error::success();
}

NodeId GraphBuilder::summary(const MemoryState &state) {
  std::vector<NodeId> tokens;
  for (const auto *accesses : {&state.stores, &state.loads})
    for (const Access &access : *accesses)
      tokens.push_back(lift(access.node, current_));
  if (tokens.empty())
    tokens.push_back(trigger(current_));
  if (tokens.size() == 1 && result_.graph[tokens[0]].width == 0)
    return tokens[0];
  Node join{OpKind::Join, 0};
  join.name = "memory_order";
  return addAt(join, current_, tokens);
}

void GraphBuilder::enterLoopMemory(Region &loop) {
  struct LoopAccess {
    const llvm::Instruction *inst;
    const llvm::Value *object;
  };
  std::vector<LoopAccess> accesses, stores;
  for (const llvm::BasicBlock *block : loop.loop->blocks())
    for (const llvm::Instruction &inst : *block) {
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
        accesses.push_back({&inst, llvm::getUnderlyingObject(load->getPointerOperand())});
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
        accesses.push_back({&inst, llvm::getUnderlyingObject(store->getPointerOperand())});
        stores.push_back(accesses.back());
      }
    }
  // Accesses to two objects never meet when one is an on-chip array (private or __local: no pointer
  // from elsewhere reaches it) or a `restrict` argument.
  auto restrictArgument = [](const llvm::Value *object) {
    const auto *arg = llvm::dyn_cast<llvm::Argument>(object);
    return arg && arg->hasNoAliasAttr();
  };
  auto disjoint = [&](const llvm::Value *a, const llvm::Value *b) {
    return a != b && (isOnChipArray(a) || isOnChipArray(b) || restrictArgument(a) || restrictArgument(b));
  };
  // A store port (global or on-chip) orders its own requests, so iterations need nothing from each
  // other when no store meets another access of the loop.
  const bool independent = llvm::all_of(stores, [&](const LoopAccess &store) {
    return llvm::all_of(accesses, [&](const LoopAccess &other) {
      return other.inst == store.inst || disjoint(store.object, other.object);
    });
  });
  {
    // One token for the loads before the loop: one ring carries it, not one per load.
    AtPosition at(*this, {loop.parent, loop.segment});
    if (!memory_.loads.empty())
      memory_.loads = {{summary({{}, memory_.loads})}};
    if (stores.empty() || independent)
      return;
    NodeId before = summary(memory_);
    memory_ = {};
    NodeId carried = ring(loop, before, [this, &loop]() -> llvm::Expected<NodeId> {
      AtPosition end(*this, loop.last());
      loop.memorySummary = summary(memory_);
      return *loop.memorySummary;
    });
    result_.graph[carried].name = "memory order";
    memory_.stores = {{carried}};
  }
}

void GraphBuilder::leaveLoopMemory(Region &loop) {
  if (loop.memorySummary)
    memory_ = {{{*loop.memorySummary}}, {}};
}

} // namespace loom::hls
