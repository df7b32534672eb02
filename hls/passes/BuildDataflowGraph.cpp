//===- BuildDataflowGraph.cpp - LLVM IR kernel to dataflow graph ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a spir_kernel function in typed-pointer LLVM IR. After: a KernelGraph with one node per
// operation, a WorkItems source feeding get_global_id, static nodes for arguments, constants and
// NDRange sizes, and one memory port per global load or store.
// Branches become predicates (if-conversion): every block of a loop body (or of the kernel) computes
// for every iteration (or work-item), phis become selects, and a load or store in a block not always
// reached is predicated on reaching it.
// Loops become elastic rings (LoopRegions.h): a LoopControl admits work-items and emits a token per
// iteration, every value live in the loop circulates through a LoopMux at the header and a Steer at
// the latch, and values crossing a loop boundary are carried through it, so work-items may leave a
// loop in any order and still meet their own values after it. A work-item's memory accesses stay in
// program order through ordering tokens, carried around loops like values.
// Anything the hardware flow cannot build yet is an error naming the source location and what to do.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "loom/lowering/Printf.h"
#include "loom/lowering/WorkItemFunction.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ADT/Triple.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
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

/// "file:line" of the kernel, or its name without line tables.
std::string kernelLocation(const llvm::Function &kernel) {
  if (auto *sub = kernel.getSubprogram())
    return llvm::formatv("{0}:{1}", fileOf(*sub, kernel), sub->getLine());
  return kernel.getName().str();
}

/// Where kernel argument `argument` is first used, or the kernel's location when it is not.
std::string argumentLocation(const llvm::Argument &argument, const llvm::Function &kernel) {
  for (const llvm::Instruction &inst : llvm::instructions(kernel))
    if (llvm::is_contained(inst.operands(), &argument))
      return locationOf(inst, kernel);
  return kernelLocation(kernel);
}

} // namespace

std::string locationOf(const llvm::Instruction &inst, const llvm::Function &kernel) {
  // Line 0 marks code merged from several lines (a phi after an if/else): name the kernel instead.
  if (const auto &loc = inst.getDebugLoc(); loc && loc.getLine() != 0)
    return llvm::formatv("{0}:{1}:{2}", fileOf(*loc->getScope(), kernel), loc.getLine(), loc.getCol());
  return kernelLocation(kernel);
}

GraphBuilder::GraphBuilder(const llvm::Function &kernel)
    : kernel_(kernel), layout_(kernel.getParent()->getDataLayout()) {
  result_.kernelName = kernel.getName().str();
  // A kernel that prints takes its printf buffer after its own arguments (HardwareKernel::printfBuffer).
  result_.printfBuffer = lowering::callsFunction(kernel, lowering::PrintfBufferFunction);
  result_.numArgs = kernel.arg_size() + (result_.printfBuffer ? 1 : 0);
  result_.simdWorkItems = simdWorkItemsOf(kernel);
  result_.computeUnits = computeUnitsOf(kernel);
  result_.workItemsAlike = !usesWorkItemIds(kernel);
}

llvm::Expected<KernelGraph> GraphBuilder::build() {
  for (const auto &arg : kernel_.args()) {
    if (isLocalArgument(&arg)) {
      // Its on-chip memory starts at address 0; the launch's value for it is unused.
      values_[&arg] = constantNode(64, 0);
      continue;
    }
    if (isStructArgument(&arg)) {
      // Its bytes whole, in argument words (clSetKernelArg gives the struct's bytes); its fields are
      // slices (structArgumentField) and no address of it exists in hardware.
      const uint64_t bytes = llvm::alignTo(layout_.getTypeAllocSize(arg.getParamByValType()), 8);
      Node n{OpKind::Argument, unsigned(8 * bytes), true};
      n.index = arg.getArgNo();
      n.name = arg.getName().str();
      structArguments_[&arg] = result_.addNode(n);
      if (bytes > 8)
        result_.wideArgBytes[n.index] = bytes;
      continue;
    }
    auto width = widthOf(arg.getType(), nullptr, &arg);
    if (!width)
      return width.takeError();
    Node n{OpKind::Argument, *width, true};
    n.index = arg.getArgNo();
    n.name = arg.getName().str();
    values_[&arg] = result_.addNode(n);
    // The argument's size in memory: a 3-element vector takes a 4-element one's (clSetKernelArg's).
    if (*width > 64)
      result_.wideArgBytes[n.index] = layout_.getTypeAllocSize(arg.getType());
  }
  llvm::ReversePostOrderTraversal<const llvm::Function *> order(&kernel_);
  for (const llvm::BasicBlock *block : order) {
    reachable_[block] = reversePostOrder_.size();
    reversePostOrder_.push_back(block);
    const llvm::Instruction *term = block->getTerminator();
    if (!llvm::isa<llvm::BranchInst>(term) && !llvm::isa<llvm::ReturnInst>(term) &&
        !llvm::isa<llvm::UnreachableInst>(term))
      return fail(*term, llvm::Twine("'") + term->getOpcodeName() +
                             "' control flow is not supported by the hardware flow yet");
  }
  auto &function = const_cast<llvm::Function &>(kernel_);
  dominators_.recalculate(function);
  postDominators_.recalculate(function);
  loops_.analyze(dominators_);
  libraryInfoImpl_ = std::make_unique<llvm::TargetLibraryInfoImpl>(llvm::Triple(kernel_.getParent()->getTargetTriple()));
  libraryInfo_ = std::make_unique<llvm::TargetLibraryInfo>(*libraryInfoImpl_);
  assumptions_ = std::make_unique<llvm::AssumptionCache>(function);
  scalarEvolution_ =
      std::make_unique<llvm::ScalarEvolution>(function, *libraryInfo_, *assumptions_, dominators_, loops_);
  basicAliases_ = std::make_unique<llvm::BasicAAResult>(layout_, function, *libraryInfo_, *assumptions_, &dominators_);
  aliases_ = std::make_unique<llvm::AAResults>(*libraryInfo_);
  aliases_->addAAResult(*basicAliases_);
  aliases_->addAAResult(scopedAliases_);
  privateCopies_ = privateArrayCopies();
  if (auto err = buildRegions())
    return std::move(err);
  if (auto err = visitRegion(*root_))
    return std::move(err);
  // The last accesses' tokens leave every loop, so the work-item completes only after them.
  const Position end = root_->last();
  for (const auto *accesses : {&memory_.stores, &memory_.loads})
    for (const Access &access : *accesses)
      lift(access.node, end);
  // The work-item gives its slot back when it completes.
  if (result_.workItemLimit > 1)
    result_.retiredSlot = lift(workItemSlot(), end);
  detachUnusedExtensions();
  return std::move(result_);
}


llvm::Error GraphBuilder::fail(const llvm::Instruction &inst, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 locationOf(inst, kernel_) + ": error: " + message.str());
}

/// Bit width of a value type the hardware carries; an error for types it does not carry yet.
llvm::Expected<unsigned> GraphBuilder::widthOf(llvm::Type *type, const llvm::Instruction *inst,
                                               const llvm::Argument *argument) {
  if (type->isPointerTy())
    return 64u;
  if (type->isIntegerTy() && type->getIntegerBitWidth() <= 64)
    return type->getIntegerBitWidth();
  if (type->isFloatTy())
    return 32u;
  // Vectors reach the graph as kernel arguments, each in one argument port, and as the data of a
  // wide global load or store or a pipe's packet (ScalarizeVectors splits every operation on them);
  // the lanes are slices.
  const unsigned maxVectorBits = (inst ? MaxPipePacketBytes : MaxArgumentBytes) * 8;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
      vector && !vector->getElementType()->isDoubleTy() && layout_.getTypeSizeInBits(vector) <= maxVectorBits)
    return unsigned(layout_.getTypeSizeInBits(vector));
  std::string message;
  if (type->isDoubleTy() || (type->isVectorTy() && type->getScalarType()->isDoubleTy())) {
    message = "the board has no double-precision floating point (CL_DEVICE_DOUBLE_FP_CONFIG is 0): use float";
  } else {
    std::string name;
    llvm::raw_string_ostream os(name);
    type->print(os);
    message = "type '" + os.str() + "' is not supported by the hardware flow yet " +
              "(supported: integers up to 64 bits, float, pointers, vectors of them)";
  }
  if (inst)
    return fail(*inst, message);
  const std::string subject =
      argument ? ("argument '" + argument->getName() + "' of kernel '" + kernel_.getName() + "': ").str() : "";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (argument ? argumentLocation(*argument, kernel_) : kernelLocation(kernel_)) +
                                     ": error: " + subject + message);
}

NodeId GraphBuilder::add(Node node, const llvm::Instruction &inst, std::vector<NodeId> operands) {
  node.location = locationOf(inst, kernel_);
  node.name = inst.getName().str();
  return addAt(std::move(node), current_, std::move(operands));
}

NodeId GraphBuilder::addAt(Node node, Position at, std::vector<NodeId> operands) {
  const bool staticOperands = std::all_of(operands.begin(), operands.end(),
                                          [&](NodeId op) { return result_.graph[op].isStatic; });
  node.isStatic = staticOperands && !isUnit(node.kind);
  // A unit on static operands still runs once per work-item (or iteration): a token starts it.
  if (staticOperands && isUnit(node.kind))
    operands.push_back(trigger(at));
  node.loop = at.region->number;
  NodeId id = result_.addNode(std::move(node));
  if (!result_.graph[id].isStatic)
    home_[id] = at;
  for (unsigned i = 0; i < operands.size(); ++i)
    result_.connect(operands[i], id, i);
  return id;
}


llvm::Optional<uint64_t> GraphBuilder::constantBits(const llvm::Constant &constant) {
  const unsigned width = constant.getType()->getScalarSizeInBits();
  if (width == 0 || width > 64)
    return llvm::None;
  if (const auto *integer = llvm::dyn_cast<llvm::ConstantInt>(&constant))
    return integer->getZExtValue();
  if (const auto *real = llvm::dyn_cast<llvm::ConstantFP>(&constant))
    return real->getValueAPF().bitcastToAPInt().getZExtValue();
  const auto *expr = llvm::dyn_cast<llvm::ConstantExpr>(&constant);
  if (!expr || (expr->getOpcode() != llvm::Instruction::PtrToInt && expr->getOpcode() != llvm::Instruction::Trunc))
    return llvm::None;
  const llvm::Optional<uint64_t> bits = expr->getOpcode() == llvm::Instruction::PtrToInt
                                            ? onChipOffset(expr->getOperand(0))
                                            : constantBits(*expr->getOperand(0));
  if (!bits)
    return llvm::None;
  return width == 64 ? *bits : *bits & ((uint64_t(1) << width) - 1);
}

llvm::Expected<NodeId> GraphBuilder::constantVector(const llvm::Constant &vector, const llvm::FixedVectorType &type,
                                                    const llvm::Instruction &user) {
  const unsigned laneBits = type.getScalarSizeInBits(), width = laneBits * type.getNumElements();
  if (laneBits == 0 || laneBits > 64)
    return fail(user, "this vector constant is not supported by the hardware flow yet");
  // A wire of the whole vector: up to 64 bits one constant, wider ones zero with lanes inserted.
  uint64_t packed = 0;
  std::vector<std::pair<unsigned, uint64_t>> lanes;
  for (unsigned lane = 0; lane < type.getNumElements(); ++lane) {
    const llvm::Constant *element = vector.getAggregateElement(lane);
    uint64_t bits = 0;
    if (llvm::Optional<uint64_t> known = element ? constantBits(*element) : llvm::None)
      bits = *known;
    else if (!element || !llvm::isa<llvm::UndefValue>(element))
      return fail(user, "this vector constant is not supported by the hardware flow yet");
    if (width <= 64)
      packed |= bits << (lane * laneBits);
    else if (bits)
      lanes.emplace_back(lane * laneBits, bits);
  }
  NodeId id = constantNode(width, packed);
  for (const auto &[offset, bits] : lanes) {
    Node insert{OpKind::InsertLane, width};
    insert.constant = offset;
    id = addAt(insert, current_, {id, constantNode(laneBits, bits)});
  }
  values_[&vector] = id;
  return id;
}

llvm::Expected<NodeId> GraphBuilder::valueOf(const llvm::Value *value, const llvm::Instruction &user) {
  if (auto it = values_.find(value); it != values_.end())
    return lift(it->second, current_);
  Node n{OpKind::Constant};
  n.isStatic = true;
  if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(value)) {
    n.width = ci->getBitWidth();
    n.constant = ci->getZExtValue();
  } else if (auto *cf = llvm::dyn_cast<llvm::ConstantFP>(value); cf && cf->getType()->isFloatTy()) {
    n.width = 32;
    n.constant = cf->getValueAPF().bitcastToAPInt().getZExtValue();
  } else if (auto offset = onChipOffset(value)) {
    // Addresses in an on-chip memory are byte offsets from its start.
    n.width = 64;
    n.constant = *offset;
  } else if (const auto *expr = llvm::dyn_cast<llvm::ConstantExpr>(value); auto bits = expr ? constantBits(*expr) : llvm::None) {
    n.width = expr->getType()->getScalarSizeInBits();
    n.constant = *bits;
  } else if (const auto *lanes = llvm::dyn_cast<llvm::FixedVectorType>(value->getType());
             lanes && llvm::isa<llvm::Constant>(value) && !llvm::isa<llvm::UndefValue>(value)) {
    return constantVector(llvm::cast<llvm::Constant>(*value), *lanes, user);
  } else if (llvm::isa<llvm::ConstantPointerNull>(value) || llvm::isa<llvm::UndefValue>(value)) {
    auto width = widthOf(value->getType(), &user);
    if (!width)
      return width.takeError();
    n.width = *width;
  } else if (auto *global = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(value))) {
    // Clang names a kernel's __local array "kernel.array".
    llvm::StringRef name = global->getName();
    name = name.contains('.') ? name.rsplit('.').second : name;
    const unsigned space = global->getType()->getAddressSpace();
    const char *kind = space == 3 ? "__local array" : space == 2 ? "__constant array" : "program-scope variable";
    return fail(user, llvm::Twine(kind) + " '" + name + "' is not supported by the hardware flow yet");
  } else {
    return fail(user, "operand kind is not supported by the hardware flow yet");
  }
  NodeId id = result_.addNode(n);
  values_[value] = id;
  return id;
}

llvm::Expected<std::vector<NodeId>> GraphBuilder::operandsOf(const llvm::Instruction &inst) {
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
llvm::Error GraphBuilder::simple(const llvm::Instruction &inst, OpKind kind) {
  auto width = widthOf(inst.getType(), &inst);
  if (!width)
    return width.takeError();
  auto ops = operandsOf(inst);
  if (!ops)
    return ops.takeError();
  Node n{kind, *width};
  if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&inst))
    n.predicate = cmp->getPredicate();
  const unsigned bits = narrowWidth(inst);
  if (!bits) {
    if (kind == OpKind::Mul)
      narrowFactors(inst, *ops);
    if (kind == OpKind::ICmp)
      narrowComparison(llvm::cast<llvm::ICmpInst>(inst), n, *ops);
    values_[&inst] = add(n, inst, *ops);
    return llvm::Error::success();
  }
  n.width = bits;
  for (unsigned i = llvm::isa<llvm::SelectInst>(inst) ? 1 : 0; i < ops->size(); ++i) // not the condition
    (*ops)[i] = lowBits((*ops)[i], bits, inst);
  values_[&inst] = add(Node{OpKind::ZExt, *width}, inst, {add(n, inst, *ops)});
  return llvm::Error::success();
}

/// Width changes that are pure wiring; equal widths reuse the operand's node.
llvm::Error GraphBuilder::resize(const llvm::Instruction &inst, OpKind widen) {
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
llvm::Error GraphBuilder::convert(const llvm::Instruction &inst, OpKind kind) {
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

NodeId GraphBuilder::workItems() {
  if (!workItems_) {
    Node n{OpKind::WorkItems, 192 + (privateCopies_ > 1 ? llvm::Log2_32(privateCopies_) : 0)};
    n.name = "workitems";
    workItems_ = result_.addNode(n);
    home_[*workItems_] = {root_, 0};
  }
  return *workItems_;
}

NodeId GraphBuilder::workItemSlot() {
  if (!workItemSlot_) {
    Node n{OpKind::WorkItemSlot, llvm::Log2_32(privateCopies_)};
    n.name = "slot";
    workItemSlot_ = addAt(n, {root_, 0}, {workItems()});
  }
  return *workItemSlot_;
}


llvm::Error GraphBuilder::call(const llvm::CallInst &call) {
  // Markers for the optimizer (the scope of an inlined function's restrict parameter included), and
  // a variable's own annotations (Loom's vendor attributes are metadata by now).
  if (llvm::isa<llvm::DbgInfoIntrinsic>(call) || call.isLifetimeStartOrEnd() ||
      llvm::isa<llvm::NoAliasScopeDeclInst>(call) || call.getIntrinsicID() == llvm::Intrinsic::var_annotation)
    return llvm::Error::success();
  if (auto handled = intrinsic(call))
    return std::move(*handled);
  const llvm::Function *callee = call.getCalledFunction();
  llvm::StringRef name = callee ? callee->getName() : "";
  if (auto handled = workItemFunction(call, name))
    return std::move(*handled);
  if (name == LastGroupSize) {
    auto *dim = llvm::cast<llvm::ConstantInt>(call.getArgOperand(0));
    values_[&call] = workGroupArg(4 + unsigned(dim->getZExtValue()));
    return llvm::Error::success();
  }
  if (name == lowering::PrintfBufferFunction) {
    if (!printfBuffer_) {
      Node n{OpKind::Argument, 64, true};
      n.index = kernel_.arg_size();
      n.name = "printf_buffer";
      printfBuffer_ = result_.addNode(n);
    }
    values_[&call] = *printfBuffer_;
    return llvm::Error::success();
  }
  if (const llvm::StringRef function = streamFunctionOf(call); !function.empty())
    return pipeAccess(call, function);
  std::string shown = callee ? llvm::demangle(name.str()) : "an indirect function";
  return fail(call, "call to '" + shown + "' is not supported by the hardware flow yet");
}

/// Work-group argument `k` (0-2: enqueued local size of that dimension, 3: work dimension, 4-6: the
/// size of that dimension's last, maybe partial, group), added to the kernel's arguments (after the
/// printf buffer) on first use.
NodeId GraphBuilder::workGroupArg(unsigned k) {
  if (!result_.workGroupArgs) {
    result_.workGroupArgs = true;
    const unsigned first = result_.numArgs;
    for (unsigned i = 0; i < WorkGroupArgs; ++i) {
      Node n{OpKind::Argument, 64, true};
      n.index = first + i;
      n.name = i < 3 ? "local_size_" + std::to_string(i) : i == 3 ? "work_dim" : "last_group_size_" + std::to_string(i - 4);
      workGroupArgs_[i] = result_.addNode(n);
    }
    result_.numArgs = first + WorkGroupArgs;
  }
  return workGroupArgs_[k];
}

/// A work-item's place in the NDRange along dimension `d`: GlobalId (dynamic, from the work-item
/// token), GlobalSize or GlobalOffset (static wires).
NodeId GraphBuilder::rangeValue(OpKind kind, unsigned d, const llvm::CallInst &call) {
  Node n{kind, 64};
  n.index = d;
  const bool perWorkItem = kind == OpKind::GlobalId;
  n.location = locationOf(call, kernel_);
  // Made where the work-item token is, then carried to the caller's loop.
  NodeId id = addAt(n, {root_, 0}, perWorkItem ? std::vector<NodeId>{workItems()} : std::vector<NodeId>{});
  result_.graph[id].isStatic = !perWorkItem;
  if (!perWorkItem)
    home_.erase(id);
  return perWorkItem ? lift(id, current_) : id;
}

llvm::Optional<WorkItemFn> workItemFnNamed(llvm::StringRef name) {
  using Fn = WorkItemFn;
  static const std::pair<llvm::StringRef, Fn> functions[] = {
      {"_Z13get_global_idj", Fn::GlobalId},   {"_Z15get_global_sizej", Fn::GlobalSize},
      {"_Z17get_global_offsetj", Fn::GlobalOffset}, {"_Z14get_local_sizej", Fn::LocalSize},
      {"_Z23get_enqueued_local_sizej", Fn::EnqueuedLocalSize},
      {"_Z14get_num_groupsj", Fn::NumGroups}, {"_Z12get_local_idj", Fn::LocalId},
      {"_Z12get_group_idj", Fn::GroupId},     {"_Z12get_work_dimv", Fn::WorkDim}};
  auto found = llvm::find_if(functions, [&](const auto &entry) { return entry.first == name; });
  if (found == std::end(functions))
    return llvm::None;
  return found->second;
}

/// The OpenCL work-item functions: the global ones from the work-item token and the NDRange ports,
/// the work-group ones from those and the work-group arguments. None when `name` is none of them.
llvm::Optional<llvm::Error> GraphBuilder::workItemFunction(const llvm::CallInst &call, llvm::StringRef name) {
  using Fn = WorkItemFn;
  const llvm::Optional<Fn> named = workItemFnNamed(name);
  if (!named)
    return llvm::None;
  const Fn fn = *named;
  auto width = widthOf(call.getType(), &call);
  if (!width)
    return width.takeError();
  // The function's value in dimension d.
  auto valueIn = [&](unsigned d) {
    // The position from the NDRange's origin, split into group and local id by the enqueued size.
    auto position = [&] {
      return add(Node{OpKind::Sub, 64}, call,
                 {rangeValue(OpKind::GlobalId, d, call), rangeValue(OpKind::GlobalOffset, d, call)});
    };
    NodeId value;
    switch (fn) {
    case Fn::GlobalId: value = rangeValue(OpKind::GlobalId, d, call); break;
    case Fn::GlobalSize: value = rangeValue(OpKind::GlobalSize, d, call); break;
    case Fn::GlobalOffset: value = rangeValue(OpKind::GlobalOffset, d, call); break;
    case Fn::EnqueuedLocalSize: value = workGroupArg(d); break;
    case Fn::LocalSize: {
      if (lowering::hasUniformWorkGroups(*call.getFunction())) {
        value = workGroupArg(d);
        break;
      }
      // OpenCL 2.0's non-uniform work-groups: the last group has what is left. Where it starts is the
      // launch's (static wires); a work-item only compares its position.
      NodeId lastSize = workGroupArg(4 + d);
      NodeId lastStart = add(Node{OpKind::Sub, 64}, call, {rangeValue(OpKind::GlobalSize, d, call), lastSize});
      Node inLast{OpKind::ICmp, 1};
      inLast.predicate = llvm::CmpInst::ICMP_UGE;
      value = add(Node{OpKind::Select, 64}, call,
                  {add(inLast, call, {position(), lastStart}), lastSize, workGroupArg(d)});
      break;
    }
    case Fn::WorkDim: value = workGroupArg(3); break;
    case Fn::NumGroups: {
      // A partial last group counts.
      NodeId enqueued = workGroupArg(d);
      NodeId roundedUp = add(Node{OpKind::Add, 64}, call,
                             {rangeValue(OpKind::GlobalSize, d, call),
                              add(Node{OpKind::Sub, 64}, call, {enqueued, constantNode(64, 1)})});
      value = add(Node{OpKind::UDiv, 64}, call, {roundedUp, enqueued});
      break;
    }
    case Fn::LocalId:
    case Fn::GroupId:
      value = add(Node{fn == Fn::LocalId ? OpKind::URem : OpKind::UDiv, 64}, call, {position(), workGroupArg(d)});
      break;
    }
    return value;
  };
  NodeId value;
  if (fn == Fn::WorkDim) {
    value = valueIn(0);
  } else {
    // Past the NDRange's dimensions, the spec's answer: sizes 1, ids and offsets 0. A dimension known
    // only at run time (a loop up to get_work_dim()) selects among the three.
    const bool size = fn == Fn::GlobalSize || fn == Fn::LocalSize || fn == Fn::EnqueuedLocalSize ||
                      fn == Fn::NumGroups;
    llvm::Value *dimension = call.getArgOperand(0);
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(dimension)) {
      value = constant->getZExtValue() < 3 ? valueIn(unsigned(constant->getZExtValue())) : constantNode(64, size);
    } else {
      auto dimensionNode = valueOf(dimension, call);
      if (!dimensionNode)
        return dimensionNode.takeError();
      value = constantNode(64, size);
      for (int d = 2; d >= 0; --d) {
        Node equal{OpKind::ICmp, 1};
        equal.predicate = llvm::CmpInst::ICMP_EQ;
        NodeId isD = add(equal, call, {*dimensionNode, constantNode(result_.graph[*dimensionNode].width, d)});
        value = add(Node{OpKind::Select, 64}, call, {isD, valueIn(unsigned(d)), value});
      }
    }
  }
  values_[&call] = *width == 64 ? value : add(Node{OpKind::Trunc, *width}, call, {value});
  return llvm::Error::success();
}

llvm::Error GraphBuilder::address(const llvm::GetElementPtrInst &gep) {
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

/// A lane of a vector argument or of a wide load (the only vectors left after ScalarizeVectors): a
/// slice of its port.
llvm::Error GraphBuilder::extractLane(const llvm::ExtractElementInst &extract) {
  auto *lane = llvm::dyn_cast<llvm::ConstantInt>(extract.getIndexOperand());
  if (!lane)
    return fail(extract, "a vector element index must be a constant in hardware");
  auto width = widthOf(extract.getType(), &extract);
  if (!width)
    return width.takeError();
  auto vector = valueOf(extract.getVectorOperand(), extract);
  if (!vector)
    return vector.takeError();
  Node slice{OpKind::Trunc, *width};
  slice.constant = lane->getZExtValue() * *width;
  values_[&extract] = add(slice, extract, {*vector});
  return llvm::Error::success();
}

/// A lane of the vector a wide store writes (ScalarizeVectors gathers the lanes by insertelement).
llvm::Error GraphBuilder::insertLane(const llvm::InsertElementInst &insert) {
  auto *lane = llvm::dyn_cast<llvm::ConstantInt>(insert.getOperand(2));
  if (!lane)
    return fail(insert, "a vector element index must be a constant in hardware");
  auto width = widthOf(insert.getType(), &insert);
  if (!width)
    return width.takeError();
  auto laneWidth = widthOf(insert.getOperand(1)->getType(), &insert);
  if (!laneWidth)
    return laneWidth.takeError();
  // The lanes no insert sets (of an undef or poison start) are zero.
  llvm::Expected<NodeId> vector = llvm::isa<llvm::UndefValue>(insert.getOperand(0))
                                      ? llvm::Expected<NodeId>(constantNode(*width, 0))
                                      : valueOf(insert.getOperand(0), insert);
  if (!vector)
    return vector.takeError();
  auto value = valueOf(insert.getOperand(1), insert);
  if (!value)
    return value.takeError();
  Node n{OpKind::InsertLane, *width};
  n.constant = lane->getZExtValue() * *laneWidth;
  values_[&insert] = add(n, insert, {*vector, *value});
  return llvm::Error::success();
}

llvm::Error GraphBuilder::visit(const llvm::Instruction &inst) {
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
  case I::FDiv: return simple(inst, OpKind::FDiv);
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
    if (pointsIntoStructArgument(&inst)) // The loads through it read the argument's slices.
      return llvm::Error::success();
    return resize(inst, OpKind::ZExt);
  case I::PtrToInt:
  case I::IntToPtr:
  case I::Freeze: // Hardware has no poison: a frozen value is the value.
    return resize(inst, OpKind::ZExt);
  case I::GetElementPtr:
    if (pointsIntoStructArgument(&inst))
      return llvm::Error::success();
    return address(llvm::cast<llvm::GetElementPtrInst>(inst));
  case I::ExtractElement: return extractLane(llvm::cast<llvm::ExtractElementInst>(inst));
  case I::InsertElement: return insertLane(llvm::cast<llvm::InsertElementInst>(inst));
  case I::Load:
    return memory(inst, llvm::cast<llvm::LoadInst>(inst).getPointerOperand(), inst.getType(), false);
  case I::Store: {
    const auto &store = llvm::cast<llvm::StoreInst>(inst);
    return memory(inst, store.getPointerOperand(), store.getValueOperand()->getType(), true);
  }
  case I::AtomicRMW:
  case I::AtomicCmpXchg: return atomic(inst);
  case I::ExtractValue: return extractField(llvm::cast<llvm::ExtractValueInst>(inst));
  case I::Call: return call(llvm::cast<llvm::CallInst>(inst));
  case I::PHI: return phi(llvm::cast<llvm::PHINode>(inst));
  case I::Alloca: // Its accesses build the memory (MemoryAccesses.cpp).
  case I::Br:
  case I::Unreachable:
  case I::Ret: return llvm::Error::success();
  default:
    return fail(inst, llvm::Twine("operation '") + inst.getOpcodeName() +
                          "' is not supported by the hardware flow yet");
  }
}
llvm::Expected<KernelGraph> buildDataflowGraph(const llvm::Function &kernel) {
  return GraphBuilder(kernel).build();
}

} // namespace loom::hls
