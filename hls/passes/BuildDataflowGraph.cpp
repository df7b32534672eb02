//===- BuildDataflowGraph.cpp - LLVM IR kernel to dataflow graph ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a spir_kernel function in typed-pointer LLVM IR whose branches form no loop. After: a
// KernelGraph with one node per operation, a WorkItems source feeding get_global_id, static nodes
// for arguments, constants and NDRange sizes, and one memory port per global load or store. Branches
// become predicates (if-conversion): every block computes for every work-item, phis become selects,
// and a load or store in a block not every work-item reaches is predicated on reaching it.
// Anything the hardware flow cannot build yet is an error naming the source location and what to do.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <map>

namespace loom::hls {
namespace {

/// The source file as the user named it. For an absolute name Clang moves the prefix it shares with
/// the compilation directory ("/tmp" of "/tmp/x/k.cl" when compiling in "/tmp/build") into the file's
/// directory; put it back. Names relative to the compilation directory stay as they are.
std::string fileOf(const llvm::DIScope &scope, const llvm::Function &kernel) {
  llvm::StringRef file = scope.getFilename(), directory = scope.getDirectory();
  const llvm::DISubprogram *sub = kernel.getSubprogram();
  llvm::StringRef compilationDir = sub && sub->getUnit() ? sub->getUnit()->getDirectory() : "";
  if (directory.empty() || directory == compilationDir || llvm::sys::path::is_absolute(file))
    return file.str();
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, file);
  return path.str().str();
}

std::string locationOf(const llvm::Instruction &inst, const llvm::Function &kernel) {
  // Line 0 marks code merged from several lines (a phi after an if/else): name the kernel instead.
  if (const auto &loc = inst.getDebugLoc(); loc && loc.getLine() != 0)
    return llvm::formatv("{0}:{1}:{2}", fileOf(*loc->getScope(), kernel), loc.getLine(), loc.getCol());
  if (auto *sub = kernel.getSubprogram())
    return llvm::formatv("{0}:{1}", fileOf(*sub, kernel), sub->getLine());
  return kernel.getName().str();
}

class GraphBuilder {
public:
  explicit GraphBuilder(const llvm::Function &kernel)
      : kernel_(kernel), layout_(kernel.getParent()->getDataLayout()) {
    result_.kernelName = kernel.getName().str();
    result_.numArgs = kernel.arg_size();
  }

  llvm::Expected<KernelGraph> build() {
    for (const auto &arg : kernel_.args()) {
      auto width = widthOf(arg.getType(), nullptr);
      if (!width)
        return width.takeError();
      Node n{OpKind::Argument, *width, true};
      n.index = arg.getArgNo();
      n.name = arg.getName().str();
      values_[&arg] = result_.addNode(n);
    }
    // Branches without loops become predicates: every block's instructions run for every work-item,
    // phis become selects, and a block's memory accesses happen only when its predicate holds.
    llvm::ReversePostOrderTraversal<const llvm::Function *> order(&kernel_);
    auto &position = reachable_;
    for (const llvm::BasicBlock *block : order)
      position[block] = position.size();
    for (const llvm::BasicBlock *block : order) {
      const llvm::Instruction *term = block->getTerminator();
      for (const llvm::BasicBlock *next : llvm::successors(block))
        if (position.lookup(next) <= position.lookup(block))
          return fail(*term, "loops are not supported by the hardware flow yet");
      if (!llvm::isa<llvm::BranchInst>(term) && !llvm::isa<llvm::ReturnInst>(term) &&
          !llvm::isa<llvm::UnreachableInst>(term))
        return fail(*term, llvm::Twine("'") + term->getOpcodeName() +
                               "' control flow is not supported by the hardware flow yet");
    }
    postDominators_.recalculate(const_cast<llvm::Function &>(kernel_));
    for (const llvm::BasicBlock *block : order)
      for (const auto &inst : *block)
        if (auto err = visit(inst))
          return std::move(err);
    return std::move(result_);
  }

private:
  llvm::Error fail(const llvm::Instruction &inst, const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   locationOf(inst, kernel_) + ": error: " + message.str());
  }

  /// Bit width of a value type the hardware carries; an error for types it does not carry yet.
  llvm::Expected<unsigned> widthOf(llvm::Type *type, const llvm::Instruction *inst) {
    if (type->isPointerTy())
      return 64u;
    if (type->isIntegerTy() && type->getIntegerBitWidth() <= 64)
      return type->getIntegerBitWidth();
    if (type->isFloatTy())
      return 32u;
    std::string name;
    llvm::raw_string_ostream os(name);
    type->print(os);
    std::string message = "type '" + os.str() + "' is not supported by the hardware flow yet " +
                          "(supported: integers up to 64 bits, float, pointers)";
    if (inst)
      return fail(*inst, message);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   kernel_.getName() + ": error: " + message);
  }

  NodeId add(Node node, const llvm::Instruction &inst, std::vector<NodeId> operands) {
    node.location = locationOf(inst, kernel_);
    node.name = inst.getName().str();
    const bool staticOperands = std::all_of(operands.begin(), operands.end(),
                                            [&](NodeId op) { return result_.graph[op].isStatic; });
    node.isStatic = staticOperands && !isUnit(node.kind);
    // A unit on static operands still runs once per work-item: the work-item token starts it.
    if (staticOperands && isUnit(node.kind))
      operands.push_back(workItems());
    NodeId id = result_.addNode(std::move(node));
    for (unsigned i = 0; i < operands.size(); ++i)
      result_.connect(operands[i], id, i);
    return id;
  }

  llvm::Expected<NodeId> valueOf(const llvm::Value *value, const llvm::Instruction &user) {
    if (auto it = values_.find(value); it != values_.end())
      return it->second;
    Node n{OpKind::Constant};
    n.isStatic = true;
    if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(value)) {
      n.width = ci->getBitWidth();
      n.constant = ci->getZExtValue();
    } else if (auto *cf = llvm::dyn_cast<llvm::ConstantFP>(value); cf && cf->getType()->isFloatTy()) {
      n.width = 32;
      n.constant = cf->getValueAPF().bitcastToAPInt().getZExtValue();
    } else if (llvm::isa<llvm::ConstantPointerNull>(value) || llvm::isa<llvm::UndefValue>(value)) {
      auto width = widthOf(value->getType(), &user);
      if (!width)
        return width.takeError();
      n.width = *width;
    } else {
      return fail(user, "operand kind is not supported by the hardware flow yet");
    }
    NodeId id = result_.addNode(n);
    values_[value] = id;
    return id;
  }

  llvm::Expected<std::vector<NodeId>> operandsOf(const llvm::Instruction &inst) {
    std::vector<NodeId> ops;
    for (const auto &use : inst.operands()) {
      auto id = valueOf(use.get(), inst);
      if (!id)
        return id.takeError();
      ops.push_back(*id);
    }
    return ops;
  }

  /// A node of `kind` on `inst`'s operands producing `inst`'s value.
  llvm::Error simple(const llvm::Instruction &inst, OpKind kind) {
    auto width = widthOf(inst.getType(), &inst);
    if (!width)
      return width.takeError();
    auto ops = operandsOf(inst);
    if (!ops)
      return ops.takeError();
    Node n{kind, *width};
    if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&inst))
      n.predicate = cmp->getPredicate();
    values_[&inst] = add(n, inst, *ops);
    return llvm::Error::success();
  }

  /// Width changes that are pure wiring; equal widths reuse the operand's node.
  llvm::Error resize(const llvm::Instruction &inst, OpKind widen) {
    auto to = widthOf(inst.getType(), &inst);
    auto from = widthOf(inst.getOperand(0)->getType(), &inst);
    if (!to)
      return to.takeError();
    if (!from)
      return from.takeError();
    auto op = valueOf(inst.getOperand(0), inst);
    if (!op)
      return op.takeError();
    if (*to == *from)
      values_[&inst] = *op;
    else
      values_[&inst] = add(Node{*to > *from ? widen : OpKind::Trunc, *to}, inst, {*op});
    return llvm::Error::success();
  }

  /// Integer <-> float conversions. The units convert 32- and 64-bit integers; narrower ones are
  /// widened first or truncated after, as C's conversions through int would.
  llvm::Error convert(const llvm::Instruction &inst, OpKind kind) {
    const bool toFloat = kind == OpKind::SIToFP || kind == OpKind::UIToFP;
    llvm::Type *intType = toFloat ? inst.getOperand(0)->getType() : inst.getType();
    llvm::Type *floatType = toFloat ? inst.getType() : inst.getOperand(0)->getType();
    if (!intType->isIntegerTy() || intType->getIntegerBitWidth() > 64 || !floatType->isFloatTy())
      return fail(inst, llvm::Twine("operation '") + inst.getOpcodeName() +
                            "' is supported between float and integers of up to 64 bits only");
    const unsigned intWidth = intType->getIntegerBitWidth();
    const unsigned unitWidth = intWidth <= 32 ? 32 : 64;
    auto op = valueOf(inst.getOperand(0), inst);
    if (!op)
      return op.takeError();
    if (toFloat) {
      NodeId in = *op;
      if (intWidth < unitWidth)
        in = add(Node{kind == OpKind::SIToFP ? OpKind::SExt : OpKind::ZExt, unitWidth}, inst, {in});
      values_[&inst] = add(Node{kind, 32}, inst, {in});
    } else {
      NodeId out = add(Node{kind, unitWidth}, inst, {*op});
      if (intWidth < unitWidth)
        out = add(Node{OpKind::Trunc, intWidth}, inst, {out});
      values_[&inst] = out;
    }
    return llvm::Error::success();
  }

  /// An i1 operation on predicates, located at `at`.
  NodeId logic(OpKind kind, const llvm::Instruction &at, std::vector<NodeId> operands) {
    return add(Node{kind, 1}, at, std::move(operands));
  }

  /// When control passes from `from` to `to`: None if always (as far as the work-item gets to `from`).
  llvm::Expected<llvm::Optional<NodeId>> edgePredicate(const llvm::BasicBlock &from, const llvm::BasicBlock &to) {
    auto key = std::make_pair(&from, &to);
    if (auto it = edgePredicates_.find(key); it != edgePredicates_.end())
      return it->second;
    auto fromPredicate = blockPredicate(from);
    if (!fromPredicate)
      return fromPredicate.takeError();
    llvm::Optional<NodeId> result = *fromPredicate;
    const auto *branch = llvm::dyn_cast<llvm::BranchInst>(from.getTerminator());
    if (branch && branch->isConditional() && branch->getSuccessor(0) != branch->getSuccessor(1)) {
      auto condition = valueOf(branch->getCondition(), *branch);
      if (!condition)
        return condition.takeError();
      NodeId taken = *condition;
      if (branch->getSuccessor(1) == &to) {
        auto one = valueOf(llvm::ConstantInt::getTrue(from.getContext()), *branch);
        if (!one)
          return one.takeError();
        taken = logic(OpKind::Xor, *branch, {taken, *one});
      }
      result = *fromPredicate ? logic(OpKind::And, *branch, {**fromPredicate, taken}) : taken;
    }
    edgePredicates_[key] = result;
    return result;
  }

  /// Whether a work-item reaches `block`: None for the entry and the blocks every path passes
  /// (post-dominators of the entry), else the OR of the incoming edges' predicates. Built on demand,
  /// so no predicate is computed that nothing uses.
  llvm::Expected<llvm::Optional<NodeId>> blockPredicate(const llvm::BasicBlock &block) {
    if (&block == &kernel_.getEntryBlock() || postDominators_.dominates(&block, &kernel_.getEntryBlock()))
      return llvm::None;
    if (auto it = blockPredicates_.find(&block); it != blockPredicates_.end())
      return it->second;
    llvm::Optional<NodeId> predicate;
    bool always = false;
    for (const llvm::BasicBlock *from : llvm::predecessors(&block)) {
      if (!reachable_.count(from))
        continue;
      auto edge = edgePredicate(*from, block);
      if (!edge)
        return edge.takeError();
      if (!*edge)
        always = true;
      else
        predicate = predicate ? logic(OpKind::Or, *from->getTerminator(), {*predicate, **edge}) : **edge;
    }
    if (always)
      predicate = llvm::None;
    blockPredicates_[&block] = predicate;
    return predicate;
  }

  /// A phi as a chain of selects on the incoming edges' predicates.
  llvm::Error phi(const llvm::PHINode &node) {
    auto width = widthOf(node.getType(), &node);
    if (!width)
      return width.takeError();
    llvm::Optional<NodeId> result;
    for (unsigned i = node.getNumIncomingValues(); i-- > 0;) {
      if (!reachable_.count(node.getIncomingBlock(i)))
        continue;
      auto value = valueOf(node.getIncomingValue(i), node);
      if (!value)
        return value.takeError();
      if (!result) {
        result = *value;
        continue;
      }
      auto edge = edgePredicate(*node.getIncomingBlock(i), *node.getParent());
      if (!edge)
        return edge.takeError();
      result = *edge ? add(Node{OpKind::Select, *width}, node, {**edge, *value, *result}) : *value;
    }
    values_[&node] = *result;
    return llvm::Error::success();
  }

  NodeId workItems() {
    if (!workItems_) {
      Node n{OpKind::WorkItems, 192};
      n.name = "workitems";
      workItems_ = result_.addNode(n);
    }
    return *workItems_;
  }

  llvm::Error call(const llvm::CallInst &call) {
    if (llvm::isa<llvm::DbgInfoIntrinsic>(call) || call.isLifetimeStartOrEnd())
      return llvm::Error::success();
    if (call.getIntrinsicID() == llvm::Intrinsic::fmuladd && call.getType()->isFloatTy())
      return multiplyAdd(call);
    const llvm::Function *callee = call.getCalledFunction();
    llvm::StringRef name = callee ? callee->getName() : "";
    if (auto handled = workItemFunction(call, name))
      return std::move(*handled);
    std::string shown = callee ? llvm::demangle(name.str()) : "an indirect function";
    return fail(call, "call to '" + shown + "' is not supported by the hardware flow yet");
  }

  /// Work-group argument `k` (0-2: local size of that dimension, 3: work dimension), added to the
  /// kernel's arguments on first use.
  NodeId workGroupArg(unsigned k) {
    if (!result_.workGroupArgs) {
      result_.workGroupArgs = true;
      for (unsigned i = 0; i < 4; ++i) {
        Node n{OpKind::Argument, 64, true};
        n.index = kernel_.arg_size() + i;
        n.name = i < 3 ? "local_size_" + std::to_string(i) : "work_dim";
        workGroupArgs_[i] = result_.addNode(n);
      }
      result_.numArgs = kernel_.arg_size() + 4;
    }
    return workGroupArgs_[k];
  }

  /// A work-item's place in the NDRange along dimension `d`: GlobalId (dynamic, from the work-item
  /// token), GlobalSize or GlobalOffset (static wires).
  NodeId rangeValue(OpKind kind, unsigned d, const llvm::CallInst &call) {
    Node n{kind, 64};
    n.index = d;
    const bool perWorkItem = kind == OpKind::GlobalId;
    NodeId id = add(n, call, perWorkItem ? std::vector<NodeId>{workItems()} : std::vector<NodeId>{});
    result_.graph[id].isStatic = !perWorkItem;
    return id;
  }

  /// The OpenCL work-item functions: the global ones from the work-item token and the NDRange ports,
  /// the work-group ones from those and the work-group arguments. None when `name` is none of them.
  llvm::Optional<llvm::Error> workItemFunction(const llvm::CallInst &call, llvm::StringRef name) {
    enum class Fn { GlobalId, GlobalSize, GlobalOffset, LocalSize, NumGroups, LocalId, GroupId, WorkDim };
    static const std::pair<llvm::StringRef, Fn> functions[] = {
        {"_Z13get_global_idj", Fn::GlobalId},   {"_Z15get_global_sizej", Fn::GlobalSize},
        {"_Z17get_global_offsetj", Fn::GlobalOffset}, {"_Z14get_local_sizej", Fn::LocalSize},
        {"_Z14get_num_groupsj", Fn::NumGroups}, {"_Z12get_local_idj", Fn::LocalId},
        {"_Z12get_group_idj", Fn::GroupId},     {"_Z12get_work_dimv", Fn::WorkDim}};
    auto found = llvm::find_if(functions, [&](const auto &entry) { return entry.first == name; });
    if (found == std::end(functions))
      return llvm::None;
    const Fn fn = found->second;
    auto width = widthOf(call.getType(), &call);
    if (!width)
      return width.takeError();
    unsigned d = 0;
    if (fn != Fn::WorkDim) {
      auto *dim = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
      if (!dim || dim->getZExtValue() > 2)
        return fail(call, "the dimension argument of a work-item function must be a constant 0, 1 or 2 "
                          "in hardware");
      d = dim->getZExtValue();
    }
    NodeId value;
    switch (fn) {
    case Fn::GlobalId: value = rangeValue(OpKind::GlobalId, d, call); break;
    case Fn::GlobalSize: value = rangeValue(OpKind::GlobalSize, d, call); break;
    case Fn::GlobalOffset: value = rangeValue(OpKind::GlobalOffset, d, call); break;
    case Fn::LocalSize: value = workGroupArg(d); break;
    case Fn::WorkDim: value = workGroupArg(3); break;
    case Fn::NumGroups:
      value = add(Node{OpKind::UDiv, 64}, call, {rangeValue(OpKind::GlobalSize, d, call), workGroupArg(d)});
      break;
    case Fn::LocalId:
    case Fn::GroupId: {
      // The work-item's position from the NDRange's origin, split into group and local id.
      NodeId position = add(Node{OpKind::Sub, 64}, call,
                            {rangeValue(OpKind::GlobalId, d, call), rangeValue(OpKind::GlobalOffset, d, call)});
      value = add(Node{fn == Fn::LocalId ? OpKind::URem : OpKind::UDiv, 64}, call, {position, workGroupArg(d)});
      break;
    }
    }
    values_[&call] = *width == 64 ? value : add(Node{OpKind::Trunc, *width}, call, {value});
    return llvm::Error::success();
  }

  /// llvm.fmuladd (a mad the options allowed) as a multiply and an add, each rounded: the
  /// intrinsic leaves fusing to the implementation.
  llvm::Error multiplyAdd(const llvm::CallInst &call) {
    std::vector<NodeId> ops;
    for (unsigned i = 0; i < 3; ++i) {
      auto id = valueOf(call.getArgOperand(i), call);
      if (!id)
        return id.takeError();
      ops.push_back(*id);
    }
    NodeId product = add(Node{OpKind::FMul, 32}, call, {ops[0], ops[1]});
    values_[&call] = add(Node{OpKind::FAdd, 32}, call, {product, ops[2]});
    return llvm::Error::success();
  }

  llvm::Error address(const llvm::GetElementPtrInst &gep) {
    llvm::MapVector<llvm::Value *, llvm::APInt> variable;
    llvm::APInt constantOffset(64, 0);
    if (!llvm::cast<llvm::GEPOperator>(gep).collectOffset(layout_, 64, variable, constantOffset))
      return fail(gep, "address computation is not supported by the hardware flow yet");
    auto base = valueOf(gep.getPointerOperand(), gep);
    if (!base)
      return base.takeError();
    Node n{OpKind::Address, 64};
    n.constant = constantOffset.getZExtValue();
    std::vector<NodeId> ops{*base};
    for (auto &[index, scale] : variable) {
      auto id = valueOf(index, gep);
      if (!id)
        return id.takeError();
      NodeId index64 = *id;
      if (result_.graph[*id].width < 64)
        index64 = add(Node{OpKind::SExt, 64}, gep, {*id});
      ops.push_back(index64);
      n.scales.push_back(scale.getZExtValue());
    }
    values_[&gep] = add(n, gep, ops);
    return llvm::Error::success();
  }

  llvm::Error memory(const llvm::Instruction &inst, const llvm::Value *pointer, llvm::Type *valueType,
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
    MemoryPort port{isStore ? MemoryPort::Kind::Store : MemoryPort::Kind::Load, *width / 8,
                    locationOf(inst, kernel_)};
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
      ops.push_back(**predicate);
    }
    NodeId id = add(n, inst, ops);
    if (!isStore)
      values_[&inst] = id;
    return llvm::Error::success();
  }

  llvm::Error visit(const llvm::Instruction &inst) {
    using I = llvm::Instruction;
    switch (inst.getOpcode()) {
    case I::Add: return simple(inst, OpKind::Add);
    case I::Sub: return simple(inst, OpKind::Sub);
    case I::Mul: return simple(inst, OpKind::Mul);
    case I::UDiv: return simple(inst, OpKind::UDiv);
    case I::SDiv: return simple(inst, OpKind::SDiv);
    case I::URem: return simple(inst, OpKind::URem);
    case I::SRem: return simple(inst, OpKind::SRem);
    case I::And: return simple(inst, OpKind::And);
    case I::Or: return simple(inst, OpKind::Or);
    case I::Xor: return simple(inst, OpKind::Xor);
    case I::Shl: return simple(inst, OpKind::Shl);
    case I::LShr: return simple(inst, OpKind::LShr);
    case I::AShr: return simple(inst, OpKind::AShr);
    case I::ICmp: return simple(inst, OpKind::ICmp);
    case I::Select: return simple(inst, OpKind::Select);
    case I::FAdd: return simple(inst, OpKind::FAdd);
    case I::FSub: return simple(inst, OpKind::FSub);
    case I::FMul: return simple(inst, OpKind::FMul);
    case I::FNeg: return simple(inst, OpKind::FNeg);
    case I::FCmp: return simple(inst, OpKind::FCmp);
    case I::SIToFP: return convert(inst, OpKind::SIToFP);
    case I::UIToFP: return convert(inst, OpKind::UIToFP);
    case I::FPToSI: return convert(inst, OpKind::FPToSI);
    case I::FPToUI: return convert(inst, OpKind::FPToUI);
    case I::ZExt: return resize(inst, OpKind::ZExt);
    case I::SExt: return resize(inst, OpKind::SExt);
    case I::Trunc: return resize(inst, OpKind::Trunc);
    case I::BitCast:
    case I::AddrSpaceCast:
    case I::PtrToInt:
    case I::IntToPtr: return resize(inst, OpKind::ZExt);
    case I::GetElementPtr: return address(llvm::cast<llvm::GetElementPtrInst>(inst));
    case I::Load:
      return memory(inst, llvm::cast<llvm::LoadInst>(inst).getPointerOperand(), inst.getType(), false);
    case I::Store: {
      const auto &store = llvm::cast<llvm::StoreInst>(inst);
      return memory(inst, store.getPointerOperand(), store.getValueOperand()->getType(), true);
    }
    case I::Call: return call(llvm::cast<llvm::CallInst>(inst));
    case I::PHI: return phi(llvm::cast<llvm::PHINode>(inst));
    case I::Br:
    case I::Unreachable:
    case I::Ret: return llvm::Error::success();
    default:
      return fail(inst, llvm::Twine("operation '") + inst.getOpcodeName() +
                            "' is not supported by the hardware flow yet");
    }
  }

  const llvm::Function &kernel_;
  const llvm::DataLayout &layout_;
  KernelGraph result_;
  llvm::DenseMap<const llvm::Value *, NodeId> values_;
  /// Reachable blocks, by position in reverse post-order.
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> reachable_;
  llvm::PostDominatorTree postDominators_;
  /// When a work-item reaches a block, for the blocks asked about so far.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::Optional<NodeId>> blockPredicates_;
  std::map<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, llvm::Optional<NodeId>> edgePredicates_;
  llvm::Optional<NodeId> workItems_;
  NodeId workGroupArgs_[4] = {};
};

} // namespace

llvm::Expected<KernelGraph> buildDataflowGraph(const llvm::Function &kernel) {
  return GraphBuilder(kernel).build();
}

} // namespace loom::hls
