//===- MemoryAccesses.cpp - Memory ports and a work-item's program order --===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). Each global load or store gets a memory port, and
// so does each atomic (atomicrmw, cmpxchg) on __global memory: an atomic port, both a read and a
// write of its alias class for the order below. An atomic on an on-chip array is a read, the
// operation and a write of the array (its work-items take turns, so that is atomic).
// A private array, or a kernel's __local array, becomes an on-chip memory (OnChipMemory) with a read
// port per load and a write port per store, addressed by byte offset. A private array holds a copy
// per work-item slot (privateArrayCopies; the slot is the index's high bits), a __local array one
// work-group's copy, whose work-items take turns (KernelGraph::workItemLimit), except in a kernel
// that runs a work-group per invocation (FormWorkGroupLoops), where it is the invocation's private
// array: a copy per work-group in flight.
// A dataflow circuit would otherwise issue a work-item's load before its earlier store to the same
// address, so each load also waits for the work-item's earlier stores it may alias (read after
// write) and each store for the earlier stores and loads it may alias (write after write, write
// after read), through token operands, unless data dependences already order them. Alias analysis
// (LLVM's BasicAA) decides "may alias": the lanes of a vector or the fields of a struct never wait
// for each other. Work-items stay unordered, as OpenCL allows.
//
// Around a loop, by alias class (an on-chip array, a `restrict` argument, or the rest of global
// memory: accesses of different classes never meet): a class whose stores meet no other access of
// the class in the loop (it only loads, or one store port alone) needs no carried state; its
// accesses wait for the state before the loop. Any other class carries a summary token of each
// iteration's accesses to it to the next iteration (a ring of its own, so a read-modify-write of an
// on-chip array recurs at the RAM's latency, not the global memory's), and that token is the
// class's state after the loop. A loop under `#pragma ivdep` carries none, and neither does a class
// whose accesses LLVM's dependence analysis proves meet only within an iteration (a[i] += b[i]).
// A read-modify-write of global memory (hist[bin[i]] += w[i]: one load, then one store) carries
// none either: a forwarding queue (loom_forward_queue) serves both ports, the store announces its
// address (a StoreAddress node) as soon as it is known, and each load takes the data of the
// youngest earlier store to its address that memory has not acknowledged yet, or reads memory. An
// iteration then waits only for an earlier one to the same address, and only for its data.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace loom::hls {
namespace {

/// Adds `node` and every node it waits for through forward edges to `waited`.
void addWaitedFor(const KernelGraph &kernel, NodeId node, std::set<NodeId> &waited) {
  std::vector<NodeId> work{node};
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    if (!waited.insert(n).second)
      continue;
    for (auto [it, end] = boost::in_edges(n, kernel.graph); it != end; ++it)
      if (!kernel.graph[*it].back)
        work.push_back(boost::source(*it, kernel.graph));
  }
}

/// Whether `node` already waits for `ancestor` through forward edges.
bool dependsOn(const KernelGraph &kernel, NodeId node, NodeId ancestor) {
  std::set<NodeId> waited;
  addWaitedFor(kernel, node, waited);
  return waited.count(ancestor) != 0;
}

} // namespace

const llvm::GlobalVariable *constantTable(const llvm::Value *object) {
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(object);
  return global && global->isConstant() && global->hasDefinitiveInitializer() ? global : nullptr;
}

bool isLocalArgument(const llvm::Value *value) {
  const auto *argument = llvm::dyn_cast<llvm::Argument>(value);
  return argument && argument->getType()->isPointerTy() && argument->getType()->getPointerAddressSpace() == 3;
}

bool isStructArgument(const llvm::Value *value) {
  const auto *argument = llvm::dyn_cast<llvm::Argument>(value);
  return argument && argument->hasByValAttr();
}

bool pointsIntoStructArgument(const llvm::Value *pointer) {
  return pointer->getType()->isPointerTy() && isStructArgument(llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0));
}

uint64_t localArgumentBytes(const llvm::Argument &argument) {
  uint64_t bytes = DefaultLocalArgumentBytes;
  const llvm::Attribute size =
      argument.getParent()->getAttributes().getParamAttr(argument.getArgNo(), "loom.local_mem_size");
  if (size.isValid())
    size.getValueAsString().getAsInteger(10, bytes);
  return bytes;
}

bool isOnChipArray(const llvm::Value *object) {
  if (llvm::isa<llvm::AllocaInst>(object) || constantTable(object) || isLocalArgument(object))
    return true;
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(object);
  return global && global->getAddressSpace() == 3;
}

namespace {

/// Writes the bytes of `value` (as the data layout stores it) at `offset` of `bytes`; false for a
/// constant it cannot lay out (a pointer, an expression).
bool storeBytes(const llvm::Constant *value, const llvm::DataLayout &layout, std::vector<uint8_t> &bytes,
                uint64_t offset) {
  if (llvm::isa<llvm::ConstantAggregateZero>(value) || llvm::isa<llvm::UndefValue>(value))
    return true; // The buffer starts zeroed.
  llvm::Optional<llvm::APInt> bits;
  if (const auto *integer = llvm::dyn_cast<llvm::ConstantInt>(value))
    bits = integer->getValue();
  else if (const auto *real = llvm::dyn_cast<llvm::ConstantFP>(value))
    bits = real->getValueAPF().bitcastToAPInt();
  if (bits) {
    const unsigned width = bits->getBitWidth();
    for (unsigned byte = 0; byte < (width + 7) / 8; ++byte)
      bytes[offset + byte] = uint8_t(bits->extractBitsAsZExtValue(std::min(8u, width - 8 * byte), 8 * byte));
    return true;
  }
  if (const auto *sequence = llvm::dyn_cast<llvm::ConstantDataSequential>(value)) {
    const uint64_t size = layout.getTypeAllocSize(sequence->getElementType());
    for (unsigned i = 0; i < sequence->getNumElements(); ++i)
      if (!storeBytes(sequence->getElementAsConstant(i), layout, bytes, offset + i * size))
        return false;
    return true;
  }
  if (const auto *structure = llvm::dyn_cast<llvm::ConstantStruct>(value)) {
    const llvm::StructLayout *fields = layout.getStructLayout(structure->getType());
    for (unsigned i = 0; i < structure->getNumOperands(); ++i)
      if (!storeBytes(structure->getOperand(i), layout, bytes, offset + fields->getElementOffset(i)))
        return false;
    return true;
  }
  if (llvm::isa<llvm::ConstantArray>(value) || llvm::isa<llvm::ConstantVector>(value)) {
    const uint64_t size = layout.getTypeAllocSize(value->getOperand(0)->getType());
    for (unsigned i = 0; i < value->getNumOperands(); ++i)
      if (!storeBytes(llvm::cast<llvm::Constant>(value->getOperand(i)), layout, bytes, offset + i * size))
        return false;
    return true;
  }
  return false;
}

/// A kernel argument declared `restrict`: no other pointer of the kernel reaches its memory.
bool isRestrictArgument(const llvm::Value *object) {
  const auto *arg = llvm::dyn_cast<llvm::Argument>(object);
  return arg && arg->hasNoAliasAttr();
}

bool isVolatileAccess(const llvm::Instruction &inst) {
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->isVolatile();
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    return store->isVolatile();
  return false;
}

/// The variable's name as the user wrote it: Clang names a kernel's __local array "kernel.array"
/// and a constant private one "__const.kernel.array"; inlining suffixes a private array's ".i".
std::string sourceName(const llvm::Value &object) {
  llvm::StringRef name = object.getName();
  if (llvm::isa<llvm::GlobalVariable>(object))
    return name.rsplit('.').second.empty() ? name.str() : name.rsplit('.').second.str();
  return name.split('.').first.str();
}

/// The answer of a Stride function for an expression it decides itself: its step, or None when it
/// has none; no answer leaves the expression to affineStride's rules.
using LeafStride = llvm::function_ref<llvm::Optional<llvm::Optional<int64_t>>(const llvm::SCEV *)>;

/// The step of `expr` when its leaves step as `leaf` says: a constant does not step, a cast steps as
/// its operand (as if the index did not wrap: the answer only guides how a port fetches memory,
/// never what it reads), a constant multiple and a sum step by the multiple and the sum of steps,
/// anything else built of what does not step does not step either; None for the rest.
llvm::Optional<int64_t> affineStride(const llvm::SCEV *expr, LeafStride leaf) {
  if (auto decided = leaf(expr))
    return *decided;
  if (llvm::isa<llvm::SCEVConstant>(expr))
    return 0;
  if (const auto *cast = llvm::dyn_cast<llvm::SCEVCastExpr>(expr))
    return affineStride(cast->getOperand(0), leaf);
  if (const auto *product = llvm::dyn_cast<llvm::SCEVMulExpr>(expr); product && product->getNumOperands() == 2)
    if (const auto *scale = llvm::dyn_cast<llvm::SCEVConstant>(product->getOperand(0))) {
      const llvm::Optional<int64_t> step = affineStride(product->getOperand(1), leaf);
      return step ? llvm::Optional<int64_t>(*step * scale->getAPInt().getSExtValue()) : llvm::None;
    }
  const auto *nary = llvm::dyn_cast<llvm::SCEVNAryExpr>(expr);
  if (!nary)
    return llvm::None; // A division: not an affine step.
  int64_t stride = 0;
  bool varies = false;
  for (const llvm::SCEV *operand : nary->operands()) {
    const llvm::Optional<int64_t> step = affineStride(operand, leaf);
    if (!step)
      return llvm::None;
    stride += *step;
    varies |= *step != 0;
  }
  // A sum steps by its terms' steps; anything else (a product of ids, a minimum) only keeps a step of 0.
  if (llvm::isa<llvm::SCEVAddExpr>(expr))
    return stride;
  return varies ? llvm::None : llvm::Optional<int64_t>(0);
}

/// The step of `expr` from one work-item to the next along dimension 0: 0 for a value the same for
/// all of them (built of arguments, constants, NDRange sizes and the other dimensions' ids), C for
/// C * get_global_id(0) (or get_local_id(0)) plus such a value; None for anything else (a loaded
/// index, a product of ids).
llvm::Optional<int64_t> workItemStride(const llvm::SCEV *expr) {
  return affineStride(expr, [](const llvm::SCEV *leaf) -> llvm::Optional<llvm::Optional<int64_t>> {
    const auto *unknown = llvm::dyn_cast<llvm::SCEVUnknown>(leaf);
    if (!unknown)
      return llvm::None;
    const llvm::Value *value = unknown->getValue();
    if (llvm::isa<llvm::Argument>(value) || llvm::isa<llvm::Constant>(value))
      return llvm::Optional<int64_t>(0);
    const auto *call = llvm::dyn_cast<llvm::CallInst>(value);
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    const llvm::Optional<WorkItemFn> fn = callee ? workItemFnNamed(callee->getName()) : llvm::None;
    if (!fn)
      return llvm::Optional<int64_t>();
    const bool id = *fn == WorkItemFn::GlobalId || *fn == WorkItemFn::LocalId;
    const auto *dimension = call->arg_size() ? llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0)) : nullptr;
    if (id && !dimension) // an id of a dimension known only at run time
      return llvm::Optional<int64_t>();
    return llvm::Optional<int64_t>(id && dimension->isZero() ? 1 : 0);
  });
}

/// The step of `expr` from one iteration of `loop` to the next: 0 for a value the loop does not
/// change, C for a recurrence of the loop stepping by C, and what affineStride makes of those (a
/// FIR's y[i - 15] under `if (i >= 15)` is a zero-extended recurrence starting at -15, which LLVM
/// cannot fold into one).
llvm::Optional<int64_t> iterationStride(const llvm::SCEV *expr, const llvm::Loop &loop,
                                        llvm::ScalarEvolution &evolution) {
  return affineStride(expr, [&](const llvm::SCEV *leaf) -> llvm::Optional<llvm::Optional<int64_t>> {
    if (evolution.isLoopInvariant(leaf, &loop))
      return llvm::Optional<int64_t>(0);
    const auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(leaf);
    if (!recurrence)
      return llvm::None;
    const auto *step = recurrence->getLoop() == &loop && recurrence->isAffine()
                           ? llvm::dyn_cast<llvm::SCEVConstant>(recurrence->getStepRecurrence(evolution))
                           : nullptr;
    return step ? llvm::Optional<int64_t>(step->getAPInt().getSExtValue()) : llvm::Optional<int64_t>();
  });
}

/// `expr` in the loop's first iteration: its recurrences of `loop` replaced by their starts.
class FirstIteration : public llvm::SCEVRewriteVisitor<FirstIteration> {
public:
  FirstIteration(llvm::ScalarEvolution &evolution, const llvm::Loop &loop)
      : SCEVRewriteVisitor(evolution), loop_(loop) {}
  const llvm::SCEV *visitAddRecExpr(const llvm::SCEVAddRecExpr *expr) {
    return expr->getLoop() == &loop_ ? expr->getStart() : expr;
  }

private:
  const llvm::Loop &loop_;
};

} // namespace

bool GraphBuilder::isStream(const llvm::Instruction &inst, const llvm::Value *pointer, unsigned bytes) {
  llvm::ScalarEvolution &evolution = *scalarEvolution_;
  const llvm::SCEV *address = evolution.getSCEV(const_cast<llvm::Value *>(pointer));
  // Work-items interleave in a loop, so a port's consecutive requests may come from consecutive
  // work-items as well as from consecutive iterations: both steps must stay within the element.
  if (const llvm::Loop *loop = loops_.getLoopFor(inst.getParent())) {
    const llvm::Optional<int64_t> step = iterationStride(address, *loop, evolution);
    if (!step || uint64_t(std::abs(*step)) > bytes)
      return false;
    address = FirstIteration(evolution, *loop).visit(address);
  }
  const llvm::Optional<int64_t> stride = workItemStride(address);
  return stride && uint64_t(std::abs(*stride)) <= bytes;
}

std::vector<NodeId> GraphBuilder::orderingTokens(std::vector<const Access *> earlier, const std::vector<NodeId> &ops) {
  llvm::sort(earlier, [](const Access *a, const Access *b) { return a->node > b->node; });
  std::set<NodeId> waited;
  for (NodeId op : ops)
    addWaitedFor(result_, op, waited);
  std::vector<NodeId> tokens;
  for (const Access *access : earlier) {
    const NodeId token = lift(access->node, current_);
    if (waited.count(token))
      continue;
    tokens.push_back(token);
    addWaitedFor(result_, token, waited);
  }
  return tokens;
}

void GraphBuilder::orderAfter(NodeId before, NodeId after) {
  if (!dependsOn(result_, after, before))
    result_.connect(before, after, result_.operands(after).size());
}

const llvm::Value *pointerOperand(const llvm::Instruction &inst) {
  if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
    return rmw->getPointerOperand();
  if (const auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    return cmpxchg->getPointerOperand();
  return llvm::getLoadStorePointerOperand(&inst);
}

const llvm::Value *GraphBuilder::aliasClassOf(const llvm::Instruction &inst) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointerOperand(inst), /*MaxLookup=*/0);
  return isOnChipArray(object) || isRestrictArgument(object) ? object : &kernel_;
}

bool GraphBuilder::mayAlias(const Access &earlier, const llvm::Instruction &inst) {
  if (earlier.aliasClass && earlier.aliasClass != aliasClassOf(inst))
    return false;
  return !earlier.inst || !aliases_->isNoAlias(llvm::MemoryLocation::get(earlier.inst), llvm::MemoryLocation::get(&inst));
}

bool GraphBuilder::covers(const llvm::Instruction &later, const Access &earlier) {
  if (!earlier.inst)
    return false;
  const auto was = llvm::MemoryLocation::get(earlier.inst), now = llvm::MemoryLocation::get(&later);
  return was.Size == now.Size && aliases_->isMustAlias(was, now);
}


llvm::Optional<uint64_t> GraphBuilder::onChipOffset(const llvm::Value *value) {
  llvm::APInt offset(64, 0);
  const llvm::Value *base = value->stripAndAccumulateConstantOffsets(layout_, offset, /*AllowNonInbounds=*/true);
  if (!isOnChipArray(base) || (!llvm::isa<llvm::Constant>(value) && base != value))
    return llvm::None;
  return offset.getZExtValue();
}

uint64_t GraphBuilder::arrayBytes(const llvm::Value &array) const {
  if (const auto *argument = llvm::dyn_cast<llvm::Argument>(&array))
    return localArgumentBytes(*argument);
  if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&array))
    return layout_.getTypeAllocSize(alloca->getAllocatedType());
  return layout_.getTypeAllocSize(llvm::cast<llvm::GlobalVariable>(array).getValueType());
}

bool GraphBuilder::heldPerWorkItem(const llvm::Value &array) const {
  return llvm::isa<llvm::AllocaInst>(array) ||
         (kernel_.hasFnAttribute(WorkGroupInvocationAttribute) && !constantTable(&array) && isOnChipArray(&array));
}

unsigned GraphBuilder::privateArrayCopies() const {
  if (!usesWorkItemIds(kernel_))
    return 1;
  uint64_t bytes = 0;
  // private_copies(N) asks for at most N copies (the slot is a power of two).
  unsigned asked = 2 * DefaultLoopWorkItems;
  std::set<const llvm::Value *> arrays;
  auto hold = [&](const llvm::Value &array) {
    if (!arrays.insert(&array).second)
      return;
    bytes += llvm::PowerOf2Ceil(arrayBytes(array));
    if (const unsigned limit = privateCopiesOf(array))
      asked = std::min<unsigned>(asked, llvm::PowerOf2Floor(limit));
  };
  for (const llvm::BasicBlock &block : kernel_)
    for (const llvm::Instruction &inst : block) {
      if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst); alloca && alloca->isStaticAlloca())
        hold(*alloca);
      const llvm::Value *pointer = pointerOperand(inst);
      if (!pointer || pointer->getType()->getPointerAddressSpace() != 3)
        continue;
      const llvm::Value *array = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
      if (!heldPerWorkItem(*array))
        return 1;
      hold(*array);
    }
  unsigned copies = bytes ? asked : 1;
  while (copies > 1 && copies * bytes > PrivateCopiesBudget)
    copies /= 2;
  return copies;
}

unsigned GraphBuilder::bankOf(unsigned memory, const llvm::Value *pointer) {
  const OnChipMemory &onChip = result_.memories[memory];
  if (onChip.bankBits.empty())
    return 0;
  // The known bits of the byte offset, through the chain of GEPs from the array.
  std::function<llvm::KnownBits(const llvm::Value *)> offsetBits = [&](const llvm::Value *value) {
    value = value->stripPointerCasts();
    if (isOnChipArray(value))
      return llvm::KnownBits::makeConstant(llvm::APInt(64, 0));
    const auto *gep = llvm::dyn_cast<llvm::GEPOperator>(value);
    llvm::MapVector<llvm::Value *, llvm::APInt> variables;
    llvm::APInt constant(64, 0);
    if (!gep || !gep->collectOffset(layout_, 64, variables, constant))
      return llvm::KnownBits(64);
    llvm::KnownBits known = llvm::KnownBits::computeForAddSub(
        /*Add=*/true, /*NSW=*/false, offsetBits(gep->getPointerOperand()), llvm::KnownBits::makeConstant(constant));
    for (const auto &[variable, scale] : variables) {
      llvm::KnownBits index = llvm::computeKnownBits(variable, layout_).sextOrTrunc(64);
      known = llvm::KnownBits::computeForAddSub(/*Add=*/true, /*NSW=*/false, known,
                                                llvm::KnownBits::mul(index, llvm::KnownBits::makeConstant(scale)));
    }
    return known;
  };
  llvm::KnownBits known = offsetBits(pointer);
  // High bits from the offset's range (an index within its dimension, an induction variable's
  // bounds), which known bits alone cannot see past a variable term.
  const llvm::SCEV *offset = scalarEvolution_->getMinusSCEV(
      scalarEvolution_->getSCEV(const_cast<llvm::Value *>(pointer)),
      scalarEvolution_->getSCEV(const_cast<llvm::Value *>(llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0))));
  if (!llvm::isa<llvm::SCEVCouldNotCompute>(offset)) {
    const llvm::KnownBits range = scalarEvolution_->getUnsignedRange(offset).zextOrTrunc(64).toKnownBits();
    known.Zero |= range.Zero;
    known.One |= range.One;
  }
  const unsigned elementShift = llvm::Log2_32(onChip.elementBytes);
  unsigned bank = 0;
  for (size_t i = 0; i < onChip.bankBits.size(); ++i) {
    const unsigned bit = onChip.bankBits[i] + elementShift;
    if (!known.Zero[bit] && !known.One[bit])
      return AllBanks;
    bank |= unsigned(known.One[bit]) << i;
  }
  return bank;
}

Node GraphBuilder::ramAccess(OpKind kind, unsigned width, unsigned memory, const llvm::Value *pointer) {
  Node n{kind, width};
  n.index = memory;
  n.bank = bankOf(memory, pointer);
  OnChipMemory &onChip = result_.memories[memory];
  for (size_t bank = 0; bank < onChip.banks.size(); ++bank)
    if (n.bank == AllBanks || n.bank == bank)
      ++(kind == OpKind::RamStore ? onChip.banks[bank].writes : onChip.banks[bank].reads);
  return n;
}

NodeId GraphBuilder::copyAddress(unsigned memory, NodeId address, const llvm::Instruction &inst) {
  const OnChipMemory &onChip = result_.memories[memory];
  if (onChip.copies <= 1)
    return address;
  const uint64_t copyBytes = onChip.depth / onChip.copies * onChip.elementBytes;
  NodeId slot = add(Node{OpKind::ZExt, 64}, inst, {lift(workItemSlot(), current_)});
  NodeId offset = add(Node{OpKind::Shl, 64}, inst, {slot, constantNode(64, llvm::Log2_64(copyBytes))});
  return add(Node{OpKind::Or, 64}, inst, {address, offset});
}

llvm::Expected<llvm::Optional<unsigned>> GraphBuilder::onChipMemory(const llvm::Instruction &inst,
                                                                    const llvm::Value *pointer,
                                                                    unsigned elementBytes) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
  if (!isOnChipArray(object)) {
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    if (space != 0 && space != 3)
      return llvm::None;
    return fail(inst, "this access may reach more than one private or __local array (the pointer is "
                      "chosen at run time): the hardware flow needs each access to name one array");
  }
  const std::string name = sourceName(*object);
  auto [it, added] = memories_.try_emplace(object, result_.memories.size());
  if (!added) {
    OnChipMemory &memory = result_.memories[it->second];
    if (memory.elementBytes != elementBytes)
      return fail(inst, llvm::formatv("array '{0}' is accessed as {1}-byte and as {2}-byte elements: an atomic "
                                      "access of an on-chip array must be one element of it (other wide "
                                      "accesses move as pieces of the narrowest)",
                                      name, memory.elementBytes, elementBytes));
    return it->second;
  }
  if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(object); alloca && !alloca->isStaticAlloca())
    return fail(inst, "private array '" + name + "' has a size known only at run time: on-chip memories need "
                      "a constant size");
  const uint64_t bytes = arrayBytes(*object);
  const llvm::GlobalVariable *table = constantTable(object);
  OnChipMemory memory;
  memory.name = name;
  memory.location = locationOf(inst, kernel_);
  memory.elementBytes = elementBytes;
  memory.depth = std::max<uint64_t>(1, bytes / elementBytes);
  if (const auto *argument = llvm::dyn_cast<llvm::Argument>(object))
    memory.argument = argument->getArgNo();
  if (table) {
    std::vector<uint8_t> image(std::max<uint64_t>(bytes, memory.depth * elementBytes), 0);
    if (!storeBytes(table->getInitializer(), layout_, image, 0))
      return fail(inst, "the contents of constant table '" + name + "' are not supported by the hardware flow "
                        "yet: only numbers, arrays and structs of them");
    for (uint64_t word = 0; word < memory.depth; ++word) {
      uint64_t value = 0;
      for (unsigned byte = 0; byte < elementBytes; ++byte)
        value |= uint64_t(image[word * elementBytes + byte]) << (8 * byte);
      memory.contents.push_back(value);
    }
  } else if (heldPerWorkItem(*object) && privateCopies_ > 1) {
    // A copy per work-item (or work-group invocation) in flight, the slot the high bits of the index.
    memory.copies = privateCopies_;
    memory.depth = privateCopies_ * llvm::PowerOf2Ceil(memory.depth);
    result_.workItemLimit = privateCopies_;
  } else {
    // The memory holds one work-item's array (one work-group's, for __local, whose work-items may
    // run in any order when no barrier orders them): work-items take turns. A table is shared.
    result_.workItemLimit = 1;
  }
  // Banks: the attributes name bits of the byte address, the memory bits of the element index.
  const unsigned elementShift = llvm::Log2_32(elementBytes);
  const unsigned copyIndexBits = memory.indexBits() - llvm::Log2_32(memory.copies);
  for (unsigned bit : bankBitsOf(*object)) {
    if (bit < elementShift || bit - elementShift >= copyIndexBits)
      return fail(inst, llvm::formatv("array '{0}' is accessed as {1}-byte elements: its bank bits (address bit "
                                      "{2}) must select whole elements within the array, so access it in "
                                      "elements no wider than its banks",
                                      name, elementBytes, bit));
    memory.bankBits.push_back(bit - elementShift);
  }
  memory.banks.resize(size_t(1) << memory.bankBits.size());
  memory.doublePumped = isDoublePumped(*object);
  result_.memories.push_back(memory);
  return it->second;
}

llvm::Error GraphBuilder::memory(const llvm::Instruction &inst, const llvm::Value *pointer, llvm::Type *valueType,
                                 bool isStore) {
  auto width = widthOf(valueType, &inst);
  if (!width)
    return width.takeError();
  // Wider: a vector of global memory, which ScalarizeVectors left whole for one wide port.
  if (!llvm::isPowerOf2_32(*width) || *width < 8 || *width > MaxPortBytes * 8)
    return fail(inst, "memory accesses of " + std::to_string(*width) + " bits are not supported");
  if (pointsIntoStructArgument(pointer))
    return structArgumentField(inst, pointer, *width, isStore);
  auto ram = onChipMemory(inst, pointer, *width / 8);
  if (!ram)
    return ram.takeError();
  Node n{isStore ? OpKind::Store : OpKind::Load, isStore ? 0u : *width};
  if (*ram) {
    if (isStore && !result_.memories[**ram].contents.empty())
      return fail(inst, "a store to constant table '" + result_.memories[**ram].name + "'");
    n = ramAccess(isStore ? OpKind::RamStore : OpKind::RamLoad, n.width, **ram, pointer);
  } else {
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    if (space != 1 && space != 2)
      return fail(inst, "this access's address space is not supported by the hardware flow yet");
    n.index = result_.ports.size();
    result_.ports.push_back(
        {isStore ? MemoryPort::Kind::Store : MemoryPort::Kind::Load, *width / 8, locationOf(inst, kernel_)});
    // A line port's elements never straddle lines: it takes naturally aligned ones only.
    // A forwarding queue's ports stay plain: its loads search the stores by element. A volatile
    // access is a request of its own every time: another kernel or the host may change the memory
    // between two of them, which a line kept in the port would hide.
    const bool forwardingLoad = llvm::is_contained(llvm::make_second_range(forwardingLoadOf_), &inst);
    const bool forwarding = forwardingLoad || forwardingLoadOf_.count(&inst);
    n.stream = !forwarding && !isVolatileAccess(inst) &&
               llvm::getLoadStoreAlignment(const_cast<llvm::Instruction *>(&inst)).value() >= *width / 8 &&
               isStream(inst, pointer, *width / 8);
    if (forwardingLoad)
      forwardingLoadPort_[&inst] = n.index;
  }
  auto addr = valueOf(pointer, inst);
  if (!addr)
    return addr.takeError();
  std::vector<NodeId> ops{*ram ? copyAddress(**ram, *addr, inst) : *addr};
  if (isStore) {
    auto data = valueOf(llvm::cast<llvm::StoreInst>(inst).getValueOperand(), inst);
    if (!data)
      return data.takeError();
    ops.push_back(*data);
    if (const llvm::Instruction *load = forwardingLoadOf_.lookup(&inst)) {
      // The address goes ahead to the queue; the store itself brings only the data.
      assert(forwardingLoadPort_.count(load) && "a forwarding load is placed before its store");
      result_.ports[forwardingLoadPort_.lookup(load)].forwardsFrom = n.index;
      Node announce{OpKind::StoreAddress, 0};
      announce.index = n.index;
      std::vector<NodeId> announced{*addr};
      if (auto err = appendPredicate(announce, inst, announced))
        return err;
      add(announce, inst, announced);
      ops[0] = constantNode(64, 0);
    }
  }
  return place(n, inst, ops, isStore);
}

llvm::Error GraphBuilder::structArgumentField(const llvm::Instruction &inst, const llvm::Value *pointer,
                                              unsigned width, bool isStore) {
  const llvm::Value *argument = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
  const std::string name = argument->getName().str();
  if (isStore)
    return fail(inst, "a store to struct argument '" + name + "', which the hardware takes as a constant: copy "
                      "the field into a variable of its own");
  int64_t offset = 0;
  if (llvm::GetPointerBaseWithConstantOffset(pointer, offset, layout_) != argument)
    return fail(inst, "struct argument '" + name + "' is read at an offset known only at run time (an array "
                      "inside it indexed by a variable): the hardware reads its fields at constant offsets; "
                      "pass such an array in a __global or __constant buffer");
  Node field{OpKind::Trunc, width};
  field.constant = uint64_t(offset) * 8;
  values_[&inst] = add(field, inst, {lift(structArguments_.lookup(argument), current_)});
  return llvm::Error::success();
}

llvm::Error GraphBuilder::appendPredicate(Node &n, const llvm::Instruction &inst, std::vector<NodeId> &ops) {
  auto predicate = blockPredicate(*inst.getParent());
  if (!predicate)
    return predicate.takeError();
  if (*predicate) {
    n.predicated = true;
    ops.push_back(lift(**predicate, current_));
  }
  return llvm::Error::success();
}

llvm::Error GraphBuilder::place(Node n, const llvm::Instruction &inst, std::vector<NodeId> ops, bool writes) {
  if (auto err = appendPredicate(n, inst, ops))
    return err;
  std::vector<const Access *> earlier;
  // A load waits for earlier stores; a store also for earlier loads.
  for (const std::vector<Access> *accesses : {&memory_.stores, &memory_.loads})
    for (const Access &access : *accesses)
      if ((writes || accesses == &memory_.stores) && mayAlias(access, inst))
        earlier.push_back(&access);
  llvm::append_range(ops, orderingTokens(earlier, ops));
  NodeId id = add(n, inst, ops);
  if (writes) {
    // A write that overwrites an earlier access stands for it from now on.
    for (std::vector<Access> *accesses : {&memory_.stores, &memory_.loads})
      llvm::erase_if(*accesses, [&](const Access &access) { return covers(inst, access); });
    memory_.stores.push_back({id, &inst, aliasClassOf(inst)});
  } else {
    memory_.loads.push_back({id, &inst, aliasClassOf(inst)});
  }
  if (n.width)
    values_[&inst] = id;
  return llvm::Error::success();
}

llvm::Error GraphBuilder::atomic(const llvm::Instruction &inst) {
  using Op = MemoryPort::AtomicOp;
  const llvm::Value *pointer = pointerOperand(inst);
  llvm::Type *valueType = nullptr;
  Op op = Op::CmpXchg;
  std::vector<const llvm::Value *> operands;
  if (const auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
    valueType = cmpxchg->getNewValOperand()->getType();
    operands = {cmpxchg->getNewValOperand(), cmpxchg->getCompareOperand()};
  } else {
    const auto &rmw = llvm::cast<llvm::AtomicRMWInst>(inst);
    valueType = rmw.getValOperand()->getType();
    operands = {rmw.getValOperand()};
    using B = llvm::AtomicRMWInst::BinOp;
    const std::pair<B, Op> ops[] = {{B::Add, Op::Add}, {B::Sub, Op::Sub},   {B::And, Op::And},
                                    {B::Or, Op::Or},   {B::Xor, Op::Xor},   {B::Xchg, Op::Xchg},
                                    {B::Min, Op::Min}, {B::Max, Op::Max},   {B::UMin, Op::UMin},
                                    {B::UMax, Op::UMax}};
    const auto *found = llvm::find_if(ops, [&](const auto &entry) { return entry.first == rmw.getOperation(); });
    if (found == std::end(ops))
      return fail(inst, "atomic operation '" + llvm::AtomicRMWInst::getOperationName(rmw.getOperation()) +
                            "' is not supported by the hardware flow yet: use add, sub, and, or, xor, xchg, "
                            "min, max or cmpxchg");
    op = found->second;
  }
  auto width = widthOf(valueType, &inst);
  if (!width)
    return width.takeError();
  if (*width != 8 && *width != 16 && *width != 32 && *width != 64)
    return fail(inst, "atomics of " + std::to_string(*width) + " bits are not supported");
  auto ram = onChipMemory(inst, pointer, *width / 8);
  if (!ram)
    return ram.takeError();
  auto addr = valueOf(pointer, inst);
  if (!addr)
    return addr.takeError();
  std::vector<NodeId> values;
  for (const llvm::Value *operand : operands) {
    auto value = valueOf(operand, inst);
    if (!value)
      return value.takeError();
    values.push_back(*value);
  }
  if (*ram)
    return onChipAtomic(inst, **ram, pointer, op, copyAddress(**ram, *addr, inst), values, *width);
  if (pointer->getType()->getPointerAddressSpace() != 1)
    return fail(inst, "atomics on __constant memory are not supported");
  Node n{OpKind::Atomic, *width};
  n.constant = op == Op::CmpXchg ? 1 : 0;
  n.index = result_.ports.size();
  result_.ports.push_back({MemoryPort::Kind::Atomic, *width / 8, locationOf(inst, kernel_), op});
  std::vector<NodeId> ops{*addr};
  ops.insert(ops.end(), values.begin(), values.end());
  // Both a read and a write of its alias class: it waits for earlier loads and stores it may
  // alias, and later loads and stores wait for it.
  return place(n, inst, ops, /*writes=*/true);
}

llvm::Error GraphBuilder::onChipAtomic(const llvm::Instruction &inst, unsigned memory, const llvm::Value *pointer,
                                       MemoryPort::AtomicOp op, NodeId address, const std::vector<NodeId> &values,
                                       unsigned width) {
  using Op = MemoryPort::AtomicOp;
  if (!result_.memories[memory].contents.empty())
    return fail(inst, "an atomic on constant table '" + result_.memories[memory].name + "'");
  // The memory's work-items take turns (one holds the array, or its copy, at a time), so a read,
  // the operation and a write of the word are atomic. The write waits for the read through its data.
  if (auto err = place(ramAccess(OpKind::RamLoad, width, memory, pointer), inst, {address}, /*writes=*/false))
    return err;
  const NodeId old = values_[&inst];
  // The read also waits for the operands, so the array is held from the read to the write only, not
  // while an operand is still on its way (a global load's round trip): the next access waits less.
  for (NodeId value : values)
    if (!result_.graph[value].isStatic)
      orderAfter(value, old);
  auto binary = [&](OpKind kind) { return add(Node{kind, width}, inst, {old, values[0]}); };
  // (a predicate b) ? chosen : other.
  auto pick = [&](llvm::CmpInst::Predicate predicate, NodeId a, NodeId b, NodeId chosen, NodeId other) {
    Node compare{OpKind::ICmp, 1};
    compare.predicate = predicate;
    return add(Node{OpKind::Select, width}, inst, {add(compare, inst, {a, b}), chosen, other});
  };
  NodeId result = values[0];
  switch (op) {
  case Op::Add: result = binary(OpKind::Add); break;
  case Op::Sub: result = binary(OpKind::Sub); break;
  case Op::And: result = binary(OpKind::And); break;
  case Op::Or: result = binary(OpKind::Or); break;
  case Op::Xor: result = binary(OpKind::Xor); break;
  case Op::Xchg: break;
  case Op::Min: result = pick(llvm::CmpInst::ICMP_SLT, values[0], old, values[0], old); break;
  case Op::Max: result = pick(llvm::CmpInst::ICMP_SGT, values[0], old, values[0], old); break;
  case Op::UMin: result = pick(llvm::CmpInst::ICMP_ULT, values[0], old, values[0], old); break;
  case Op::UMax: result = pick(llvm::CmpInst::ICMP_UGT, values[0], old, values[0], old); break;
  case Op::CmpXchg: result = pick(llvm::CmpInst::ICMP_EQ, old, values[1], values[0], old); break;
  }
  return place(ramAccess(OpKind::RamStore, 0, memory, pointer), inst, {address, result}, /*writes=*/true);
}

llvm::Error GraphBuilder::extractField(const llvm::ExtractValueInst &extract) {
  const auto *tried = llvm::dyn_cast<llvm::CallInst>(extract.getAggregateOperand());
  if (tried && extract.getNumIndices() == 1) {
    auto read = valueOf(tried, extract);
    if (!read)
      return read.takeError();
    // {read, packet}: the packet in the low bits.
    const unsigned packetBits = result_.graph[*read].width - 1;
    Node field{OpKind::Trunc, extract.getIndices()[0] == 0 ? packetBits : 1};
    field.constant = extract.getIndices()[0] == 0 ? 0 : packetBits;
    values_[&extract] = add(field, extract, {*read});
    return llvm::Error::success();
  }
  const auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(extract.getAggregateOperand());
  if (!cmpxchg || extract.getNumIndices() != 1)
    return fail(extract, "extractvalue is supported by the hardware flow only on a cmpxchg's result");
  auto old = valueOf(cmpxchg, extract);
  if (!old)
    return old.takeError();
  if (extract.getIndices()[0] == 0) {
    values_[&extract] = *old;
    return llvm::Error::success();
  }
  // The success flag: the old value was the one compared with.
  auto compare = valueOf(cmpxchg->getCompareOperand(), extract);
  if (!compare)
    return compare.takeError();
  Node equal{OpKind::ICmp, 1};
  equal.predicate = llvm::CmpInst::ICMP_EQ;
  values_[&extract] = add(equal, extract, {*old, *compare});
  return llvm::Error::success();
}

namespace {
/// Whether pipe argument `pipe` is write_only: its access qualifier, else its type (Clang's
/// %opencl.pipe_wo_t, which linking may have numbered).
bool isWriteOnlyPipe(const llvm::Argument &pipe) {
  if (const llvm::MDNode *qualifiers = pipe.getParent()->getMetadata("kernel_arg_access_qual"))
    if (pipe.getArgNo() < qualifiers->getNumOperands())
      if (const auto *qualifier = llvm::dyn_cast<llvm::MDString>(qualifiers->getOperand(pipe.getArgNo())))
        return qualifier->getString() == "write_only";
  return pipe.getType()->getNonOpaquePointerElementType()->getStructName().contains("pipe_wo_t");
}

/// The signal group of its pipe port (PipePort's flag) a stream function uses.
bool PipePort::*pipeOperationOf(llvm::StringRef function) {
  if (function == StreamReserve)
    return &PipePort::reserves;
  if (function == StreamSlotRead || function == StreamSlotWrite)
    return &PipePort::slots;
  if (function == StreamCommit)
    return &PipePort::commits;
  if (function == StreamPackets || function == StreamCapacity)
    return &PipePort::queries;
  return &PipePort::transfers;
}
} // namespace

llvm::Error GraphBuilder::pipeAccess(const llvm::CallInst &call, llvm::StringRef function) {
  const auto *pipe = llvm::dyn_cast<llvm::Argument>(call.getArgOperand(0)->stripPointerCasts());
  if (!pipe)
    return fail(call, "a pipe must be a kernel argument in hardware");
  const std::string pipeName = sourceName(*pipe);
  if (result_.simdWorkItems > 1 || result_.computeUnits > 1)
    return fail(call, "pipe '" + pipeName + "' in a kernel with num_simd_work_items or num_compute_units: the "
                      "hardware flow does not share a pipe between lanes or compute units yet");
  const bool transfer = llvm::is_contained(
      std::initializer_list<llvm::StringRef>{StreamRead, StreamTryRead, StreamWrite, StreamTryWrite}, function);
  const bool reads = function == StreamRead || function == StreamTryRead;
  const bool waits = function == StreamRead || function == StreamWrite;
  // The packet's width: the value read (or, for a try, its first field) or written, else the
  // packet bytes the call passes last.
  unsigned packetBits = 0;
  if (transfer || function == StreamSlotRead || function == StreamSlotWrite) {
    llvm::Type *packet = function == StreamSlotWrite ? call.getArgOperand(2)->getType()
                         : reads || function == StreamSlotRead ? call.getType()
                                                               : call.getArgOperand(1)->getType();
    if (auto *pair = llvm::dyn_cast<llvm::StructType>(packet))
      packet = pair->getElementType(0);
    packetBits = unsigned(layout_.getTypeSizeInBits(packet));
  } else {
    packetBits = unsigned(llvm::cast<llvm::ConstantInt>(call.getArgOperand(call.arg_size() - 1))->getZExtValue() * 8);
  }
  auto found = llvm::find_if(result_.pipePorts, [&](const PipePort &port) { return port.arg == pipe->getArgNo(); });
  if (found == result_.pipePorts.end()) {
    const bool writes = isWriteOnlyPipe(*pipe);
    result_.pipePorts.push_back({pipe->getArgNo(), writes, packetBits / 8, locationOf(call, kernel_), pipeName});
    found = std::prev(result_.pipePorts.end());
  }
  PipePort &port = *found;
  port.*pipeOperationOf(function) = true;
  if (port.transfers && (port.reserves || port.slots || port.commits))
    return fail(call, "read_pipe or write_pipe with two arguments and reservations on one pipe ('" + pipeName +
                          "', first called at " + port.location + "): the hardware flow takes one or the other yet");
  const unsigned index = unsigned(found - result_.pipePorts.begin());
  std::vector<NodeId> ops;
  auto operand = [&](unsigned i) -> llvm::Error {
    auto value = valueOf(call.getArgOperand(i), call);
    if (!value)
      return value.takeError();
    ops.push_back(*value);
    return llvm::Error::success();
  };
  Node n{OpKind::PipeQuery, 32};
  if (transfer) {
    n = Node{reads ? OpKind::PipeRead : OpKind::PipeWrite, reads ? packetBits + (waits ? 0 : 1) : (waits ? 0 : 1)};
    n.constant = waits ? 1 : 0;
    if (!reads)
      if (auto err = operand(1))
        return err;
  } else if (function == StreamReserve || function == StreamCommit || function == StreamSlotRead) {
    n = function == StreamReserve  ? Node{OpKind::PipeReserve, 64}
        : function == StreamCommit ? Node{OpKind::PipeCommit, 0}
                                   : Node{OpKind::PipeSlotRead, packetBits};
    if (auto err = operand(1))
      return err;
  } else if (function == StreamSlotWrite) {
    n = Node{OpKind::PipeSlotWrite, 0};
    if (auto err = operand(2))
      return err;
    if (auto err = operand(1))
      return err;
  } else {
    n.constant = function == StreamCapacity ? 1 : 0;
    ops.push_back(trigger(current_)); // A query has no data operand: the work-item's token starts it.
  }
  n.index = index;
  if (n.kind != OpKind::PipeQuery)
    if (auto err = appendPredicate(n, call, ops))
      return err;
  // The pipe's accesses, in the work-item's order (a reservation's packets before its commit), and
  // kept with the work-item's accesses so that it completes after them.
  std::vector<const Access *> earlier;
  for (const Access &access : memory_.stores)
    if (access.aliasClass == pipe)
      earlier.push_back(&access);
  llvm::append_range(ops, orderingTokens(earlier, ops));
  const NodeId id = add(n, call, ops);
  memory_.stores.push_back({id, nullptr, pipe});
  if (n.width)
    values_[&call] = id;
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

/// The accesses of `state` that may touch memory of `aliasClass`.
GraphBuilder::MemoryState GraphBuilder::accessesOf(const MemoryState &state, const llvm::Value *aliasClass) {
  MemoryState selected;
  for (auto [from, to] : {std::pair{&state.stores, &selected.stores}, std::pair{&state.loads, &selected.loads}})
    for (const Access &access : *from)
      if (!access.aliasClass || access.aliasClass == aliasClass)
        to->push_back(access);
  return selected;
}

void GraphBuilder::forgetAccessesOf(const llvm::Value *aliasClass) {
  for (auto *accesses : {&memory_.stores, &memory_.loads})
    llvm::erase_if(*accesses, [&](const Access &access) { return access.aliasClass == aliasClass; });
}

namespace {

/// Whether `dependence` is carried by a loop around the one at `level`: some outer level's
/// direction excludes the same iteration.
bool carriedByOuterLoop(const llvm::Dependence &dependence, unsigned level) {
  for (unsigned outer = 1; outer < level; ++outer)
    if (!(dependence.getDirection(outer) & unsigned(llvm::Dependence::DVEntry::EQ)))
      return true;
  return false;
}

} // namespace

llvm::StringMap<unsigned> ivdepArrays(const llvm::Loop &loop) {
  llvm::StringMap<unsigned> arrays;
  if (const llvm::MDNode *id = loop.getLoopID())
    for (const llvm::MDOperand &operand : llvm::drop_begin(id->operands())) {
      const auto *attribute = llvm::dyn_cast_or_null<llvm::MDNode>(operand.get());
      if (!attribute || attribute->getNumOperands() != 3)
        continue;
      const auto *key = llvm::dyn_cast<llvm::MDString>(attribute->getOperand(0));
      const auto *name = llvm::dyn_cast<llvm::MDString>(attribute->getOperand(1));
      const auto *safelen = llvm::mdconst::dyn_extract<llvm::ConstantInt>(attribute->getOperand(2));
      if (key && key->getString() == IvdepArrayLoopAttribute && name && safelen)
        arrays[name->getString()] = unsigned(safelen->getLimitedValue(~0u));
    }
  return arrays;
}

llvm::Optional<GraphBuilder::CarriedDependence> GraphBuilder::carriedDependence(const Region &loop,
                                                                                const llvm::Value *aliasClass) {
  // The fewest iterations apart an access may meet another: `#pragma ivdep array(x) safelen(N)`'s N
  // for an access to x, none (0) under a plain `array(x)`, else the next iteration.
  const llvm::StringMap<unsigned> ivdep = ivdepArrays(*loop.loop);
  auto fewestApart = [&](const llvm::Instruction &access) {
    if (ivdep.empty())
      return 1u;
    const auto named = ivdep.find(sourceName(*llvm::getUnderlyingObject(pointerOperand(access), /*MaxLookup=*/0)));
    return named == ivdep.end() ? 1u : named->second;
  };
  std::vector<llvm::Instruction *> accesses;
  std::vector<unsigned> apart; // fewestApart of each access
  for (const llvm::BasicBlock *block : loop.loop->blocks())
    for (const llvm::Instruction &inst : *block) {
      if (!pointerOperand(inst) || aliasClassOf(inst) != aliasClass)
        continue;
      const unsigned fewest = fewestApart(inst);
      if (fewest == 0)
        continue;
      // An atomic on an on-chip array is a read and a write port: it meets itself.
      if (!llvm::isa<llvm::LoadInst>(inst) && !llvm::isa<llvm::StoreInst>(inst))
        return CarriedDependence{&inst, &inst, std::min(fewest, MaxMemoryOrderDistance)};
      accesses.push_back(const_cast<llvm::Instruction *>(&inst));
      apart.push_back(fewest);
    }
  if (!dependences_)
    dependences_ = std::make_unique<llvm::DependenceInfo>(const_cast<llvm::Function *>(&kernel_), aliases_.get(),
                                                          scalarEvolution_.get(), &loops_);
  const unsigned level = loop.loop->getLoopDepth();
  llvm::Optional<CarriedDependence> nearest;
  for (size_t i = 0; i < accesses.size(); ++i)
    for (size_t j = i + 1; j < accesses.size(); ++j) {
      if (!accesses[i]->mayWriteToMemory() && !accesses[j]->mayWriteToMemory())
        continue;
      // Null: the two never touch the same bytes. An atomic's dependence is always "confused".
      const std::unique_ptr<llvm::Dependence> dependence = dependences_->depends(accesses[i], accesses[j], true);
      if (!dependence)
        continue;
      const bool known = !dependence->isConfused() && level <= dependence->getLevels();
      if (known && !(dependence->getDirection(level) & ~unsigned(llvm::Dependence::DVEntry::EQ)))
        continue;
      // Accesses that meet only in different iterations of a loop around this one: within one
      // invocation they never do, and that loop orders them (its own ring, which also keeps the
      // next iteration out of this loop until the previous one has left it).
      if (known && carriedByOuterLoop(*dependence, level))
        continue;
      // The iterations apart: a constant distance between two accesses of one size (the
      // analysis measures from where each starts: a wide access reaches further), or the next
      // iteration.
      uint64_t distance = std::min(std::max(apart[i], apart[j]), MaxMemoryOrderDistance);
      if (known && layout_.getTypeStoreSize(llvm::getLoadStoreType(accesses[i])) ==
                       layout_.getTypeStoreSize(llvm::getLoadStoreType(accesses[j])))
        if (const auto *constant = llvm::dyn_cast_or_null<llvm::SCEVConstant>(dependence->getDistance(level)))
          distance = std::max<uint64_t>(distance, constant->getAPInt().abs().getLimitedValue(MaxMemoryOrderDistance));
      if (!nearest || distance < nearest->distance)
        nearest = CarriedDependence{accesses[i], accesses[j], unsigned(distance)};
      if (distance == 1)
        return nearest;
    }
  return nearest;
}

std::string GraphBuilder::accessesText(const CarriedDependence &dependence) {
  auto described = [this](const llvm::Instruction &access) {
    const char *kind = llvm::isa<llvm::LoadInst>(access) ? "load" : llvm::isa<llvm::StoreInst>(access) ? "store" : "atomic";
    return locationOf(access, kernel_) + " (" + kind + ")";
  };
  const std::string apart =
      dependence.distance > 1 ? llvm::formatv(", {0} iterations apart", dependence.distance).str() : "";
  if (dependence.first == dependence.second)
    return described(*dependence.first) + " with itself" + apart;
  return described(*dependence.first) + " and " + described(*dependence.second) + apart;
}

llvm::Optional<std::pair<const llvm::LoadInst *, const llvm::StoreInst *>>
GraphBuilder::forwardingPair(const Region &loop, const llvm::Value *aliasClass) {
  const llvm::LoadInst *load = nullptr;
  const llvm::StoreInst *store = nullptr;
  for (const llvm::BasicBlock *block : loop.loop->blocks())
    for (const llvm::Instruction &inst : *block) {
      if (!pointerOperand(inst) || aliasClassOf(inst) != aliasClass)
        continue;
      const auto *isLoad = llvm::dyn_cast<llvm::LoadInst>(&inst);
      const auto *isStore = llvm::dyn_cast<llvm::StoreInst>(&inst);
      if (loops_.getLoopFor(block) != loop.loop || (isLoad && (load || !isLoad->isSimple())) ||
          (isStore && (store || !isStore->isSimple())) || (!isLoad && !isStore))
        return llvm::None;
      if (isLoad)
        load = isLoad;
      else
        store = isStore;
    }
  if (!load || !store || load->getPointerAddressSpace() != 1 || store->getPointerAddressSpace() != 1)
    return llvm::None;
  const uint64_t bytes = layout_.getTypeStoreSize(load->getType());
  if (bytes != layout_.getTypeStoreSize(store->getValueOperand()->getType()) || bytes > 8 ||
      !llvm::isPowerOf2_64(bytes) || load->getAlign().value() < bytes || store->getAlign().value() < bytes)
    return llvm::None;
  // The iteration's load must not see its own store: the load comes first in the loop's order.
  const unsigned loadAt = reachable_.lookup(load->getParent()), storeAt = reachable_.lookup(store->getParent());
  if (storeAt < loadAt || (storeAt == loadAt && store->comesBefore(load)))
    return llvm::None;
  return std::make_pair(load, store);
}

void GraphBuilder::enterLoopMemory(Region &loop) {
  // The alias classes whose state circulates: a store port (global or on-chip) orders its own
  // requests, so a class needs a ring only when one of its stores meets another of its accesses.
  // In program order, so the graph is the same on every run.
  llvm::MapVector<const llvm::Value *, std::pair<unsigned, unsigned>> accessesAndStores;
  // A pipe's accesses form a class of their own (the pipe argument), all of them writes: the FIFO
  // is one state, which the work-item's accesses change in order.
  llvm::SmallPtrSet<const llvm::Value *, 4> pipes;
  for (const llvm::BasicBlock *block : loop.loop->blocks())
    for (const llvm::Instruction &inst : *block)
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst); call && !streamFunctionOf(*call).empty()) {
        const llvm::Value *pipe = call->getArgOperand(0)->stripPointerCasts();
        pipes.insert(pipe);
        auto &[accesses, stores] = accessesAndStores[pipe];
        ++accesses;
        ++stores;
      } else if (pointerOperand(inst)) {
        const llvm::Value *aliasClass = aliasClassOf(inst);
        auto &[accesses, stores] = accessesAndStores[aliasClass];
        ++accesses;
        stores += !llvm::isa<llvm::LoadInst>(inst); // An atomic writes too.
        // An atomic on an on-chip array is a read port and a write port: the next iteration's read
        // waits for this one's write. (A global atomic is one port, serving its requests in order.)
        const bool atomic = !llvm::isa<llvm::LoadInst>(inst) && !llvm::isa<llvm::StoreInst>(inst);
        accesses += atomic && isOnChipArray(aliasClass);
      }
  AtPosition at(*this, {loop.parent, loop.segment});
  // One token per class for the loads before the loop: one ring carries it, not one per load.
  llvm::MapVector<const llvm::Value *, std::vector<Access>> loadsBefore;
  for (const Access &load : memory_.loads)
    loadsBefore[load.aliasClass].push_back(load);
  memory_.loads.clear();
  for (auto &[aliasClass, loads] : loadsBefore)
    memory_.loads.push_back({summary({{}, loads}), nullptr, aliasClass});
  for (const auto &[aliasClass, counts] : accessesAndStores) {
    const auto [accesses, stores] = counts;
    // `#pragma ivdep` (llvm.loop.parallel_accesses): no iteration waits for another's accesses. A
    // port still serves its requests in order, so what follows the loop waits for its last ones.
    const bool pipe = pipes.contains(aliasClass);
    if (!stores || accesses == 1 || (!pipe && loop.loop->isAnnotatedParallel()))
      continue;
    // The two accesses that may meet the fewest iterations apart: the report names them.
    const auto meeting = pipe ? llvm::None : carriedDependence(loop, aliasClass);
    if (!pipe && !meeting)
      continue;
    if (auto pair = pipe ? llvm::None : forwardingPair(loop, aliasClass)) {
      forwardingLoadOf_[pair->second] = pair->first;
      continue;
    }
    NodeId before = summary(accessesOf(memory_, aliasClass));
    forgetAccessesOf(aliasClass);
    loop.ordersMemory = true;
    // Iteration k's accesses wait for iteration k - distance's, which a chain of that many rings
    // carries: the first takes an iteration's accesses to the next iteration, each other passes
    // what it holds on one iteration more. Each port keeps its requests in order, so iteration
    // k - distance done means every earlier one is done too. After the loop, what follows waits
    // for the iterations still in flight: the last one's accesses and the chain's tokens.
    // `#pragma ivdep safelen(N)`: the user's word that accesses fewer than N iterations apart
    // never meet, where the analysis may know less.
    const unsigned safelen = unsigned(std::clamp<int>(
        llvm::getOptionalIntLoopAttribute(loop.loop, IvdepSafelenLoopAttribute).value_or(1), 1, MaxMemoryOrderDistance));
    const unsigned distance = std::max(meeting ? meeting->distance : 1, pipe ? 1 : safelen);
    auto chain = std::make_shared<std::vector<NodeId>>();
    const llvm::Value *carriedClass = aliasClass;
    chain->push_back(ring(loop, before, [this, &loop, carriedClass, chain]() -> llvm::Expected<NodeId> {
      AtPosition end(*this, loop.closing()); // The last segment: a loop with such a ring closes there.
      NodeId iteration = summary(accessesOf(memory_, carriedClass));
      MemoryState inFlight;
      inFlight.stores.push_back({iteration, nullptr, carriedClass});
      for (size_t older = 0; older + 1 < chain->size(); ++older)
        inFlight.stores.push_back({(*chain)[older], nullptr, carriedClass});
      loop.memorySummaries.push_back({summary(inFlight), nullptr, carriedClass});
      return iteration;
    }));
    for (unsigned passed = 1; passed < distance; ++passed) {
      const NodeId previous = chain->back();
      chain->push_back(ring(loop, before, [previous]() -> llvm::Expected<NodeId> { return previous; }));
    }
    const std::string name = aliasClass != &kernel_ ? "memory order of " + sourceName(*aliasClass) : "memory order";
    std::string location = meeting ? accessesText({meeting->first, meeting->second, distance}) : "";
    if (distance > 1 && distance == safelen)
      location += llvm::formatv(" (#pragma ivdep safelen({0}))", safelen).str();
    for (NodeId carried : *chain) {
      result_.graph[carried].name = name;
      if (!location.empty())
        result_.graph[carried].location = location;
    }
    memory_.stores.push_back({chain->back(), nullptr, aliasClass});
  }
}

void GraphBuilder::leaveLoopMemory(Region &loop) {
  for (const Access &summaryOfClass : loop.memorySummaries) {
    forgetAccessesOf(summaryOfClass.aliasClass);
    memory_.stores.push_back(summaryOfClass);
  }
}

} // namespace loom::hls
