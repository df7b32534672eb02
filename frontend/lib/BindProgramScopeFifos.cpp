//===- BindProgramScopeFifos.cpp - Program-scope FIFOs to hidden pipe arguments ===//
// SPDX-License-Identifier: Apache-2.0
//
// Step 2 of ProgramScopeFifos.h. Before: a module whose kernels (or the functions they call) call
// __loom_fifo_read / __loom_fifo_write on the address of an `extern __constant` variable in the
// FIFO section, or of an element of one (a channel array indexed by constants). After: the helper
// functions on the way inlined into the kernels; each kernel with a pipe argument per FIFO it uses,
// after its own arguments, described by the kernel_arg_* metadata (a read_only or write_only pipe)
// and ProgramFifosMetadata; the calls the target's pipe calls on that argument (Clang's
// __read_pipe_2 / __write_pipe_2 for the hardware flow, which hls/ lowers; the CPU device's
// __loom_pipe_read / __loom_pipe_write, which it links); the variables gone.
//===----------------------------------------------------------------------===//
#include "ProgramScopeFifos.h"

#include "InlineIntoKernels.h"

#include "loom/frontend/SourceLocation.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

#include <map>
#include <tuple>

namespace loom::frontend {
namespace {

using namespace llvm;

constexpr StringLiteral FifoRead = "__loom_fifo_read";
constexpr StringLiteral FifoWrite = "__loom_fifo_write";
const StringRef FifoCalls[] = {FifoRead, FifoWrite};

Error errorAt(const Instruction &at, const Twine &message) {
  return createStringError(inconvertibleErrorCode(), (diagnosticPrefix(at) + "error: " + message).str());
}

/// An instruction using `value`, directly or through constant expressions; null when none does
/// (a use in another variable's initial value).
const Instruction *instructionUsing(const Value &value) {
  for (const User *user : value.users()) {
    if (const auto *inst = dyn_cast<Instruction>(user))
      return inst;
    if (const auto *expression = dyn_cast<ConstantExpr>(user))
      if (const Instruction *inst = instructionUsing(*expression))
        return inst;
  }
  return nullptr;
}

/// A FIFO as one kernel uses it: a variable, or one element of a channel array.
struct FifoUse {
  GlobalVariable *variable;
  uint64_t element;
  bool operator<(const FifoUse &other) const {
    return std::tie(variable, element) < std::tie(other.variable, other.element);
  }
};

/// "c", or "c[1][2]" for element 5 of `channel T c[2][3]`.
std::string fifoName(const GlobalVariable &variable, uint64_t element) {
  SmallVector<uint64_t, 4> extents;
  for (Type *type = variable.getValueType(); auto *array = dyn_cast<ArrayType>(type); type = array->getElementType())
    extents.push_back(array->getNumElements());
  std::string name = variable.getName().str();
  SmallVector<uint64_t, 4> indices(extents.size());
  for (size_t d = extents.size(); d-- > 0; element /= extents[d])
    indices[d] = element % extents[d];
  for (uint64_t index : indices)
    name += "[" + std::to_string(index) + "]";
  return name;
}

Type *packetTypeOf(const GlobalVariable &variable) {
  Type *type = variable.getValueType();
  while (auto *array = dyn_cast<ArrayType>(type))
    type = array->getElementType();
  return type;
}

unsigned depthOf(const GlobalVariable &variable) {
  StringRef section = variable.getSection();
  unsigned depth = 0;
  if (section.consume_front(FifoSection) && section.consume_front(".depth.") && !section.getAsInteger(10, depth) &&
      depth > 0)
    return depth;
  return DefaultFifoDepth;
}

/// Where `call` moves packets: its FIFO, or an error when that is not known at compile time.
Expected<FifoUse> fifoOf(const CallInst &call) {
  const DataLayout &layout = call.getModule()->getDataLayout();
  APInt offset(layout.getIndexTypeSizeInBits(call.getArgOperand(0)->getType()), 0);
  const Value *base = call.getArgOperand(0)->stripAndAccumulateConstantOffsets(layout, offset, true);
  auto *variable = const_cast<GlobalVariable *>(dyn_cast<GlobalVariable>(base));
  if (variable && variable->getSection().startswith(FifoSection))
    return FifoUse{variable, offset.getZExtValue() / layout.getTypeAllocSize(packetTypeOf(*variable)).getFixedSize()};
  const auto *array = dyn_cast<GlobalVariable>(getUnderlyingObject(call.getArgOperand(0)));
  if (array && array->getSection().startswith(FifoSection))
    return errorAt(call, "channel array '" + array->getName() +
                             "' is indexed by a value known only at run time: each channel is a FIFO of its own, "
                             "so its index must be a constant once loops are unrolled (#pragma unroll)");
  return errorAt(call, "a channel or pipe operation needs a program-scope channel or pipe");
}

/// One hidden argument: the FIFO and whether the kernel writes it.
struct Binding {
  FifoUse fifo;
  bool writes;
  const CallInst *firstCall;
};

/// `kernel` with `bindings.size()` pipe arguments more (in its place, under its name).
Function *addPipeArguments(Function &kernel, ArrayRef<Binding> bindings, Target target) {
  LLVMContext &context = kernel.getContext();
  const unsigned space = target == Target::Hardware ? 1 : 0;
  auto pipeType = [&](bool writes) {
    const char *name = writes ? "opencl.pipe_wo_t" : "opencl.pipe_ro_t";
    StructType *type = StructType::getTypeByName(context, name);
    return PointerType::get(type ? type : StructType::create(context, name), space);
  };
  SmallVector<Type *, 8> params(kernel.getFunctionType()->param_begin(), kernel.getFunctionType()->param_end());
  for (const Binding &binding : bindings)
    params.push_back(pipeType(binding.writes));
  Function *bound = Function::Create(FunctionType::get(kernel.getReturnType(), params, false), kernel.getLinkage(),
                                     kernel.getAddressSpace(), "", kernel.getParent());
  bound->copyAttributesFrom(&kernel);
  bound->copyMetadata(&kernel, 0);
  bound->takeName(&kernel);
  bound->getBasicBlockList().splice(bound->begin(), kernel.getBasicBlockList());
  for (auto [from, to] : zip(kernel.args(), bound->args())) {
    from.replaceAllUsesWith(&to);
    to.takeName(&from);
  }
  for (auto [binding, argument] : zip(bindings, drop_begin(bound->args(), kernel.arg_size())))
    argument.setName(fifoName(*binding.fifo.variable, binding.fifo.element));
  return bound;
}

/// Appends `operand` to the kernel_arg_* node `kind` (absent nodes stay absent).
void appendArgMetadata(Function &kernel, StringRef kind, Metadata *operand) {
  if (MDNode *node = kernel.getMetadata(kind)) {
    SmallVector<Metadata *, 8> operands(node->op_begin(), node->op_end());
    operands.push_back(operand);
    kernel.setMetadata(kind, MDNode::get(kernel.getContext(), operands));
  }
}

void describeBindings(Function &kernel, ArrayRef<Binding> bindings) {
  LLVMContext &context = kernel.getContext();
  const DataLayout &layout = kernel.getParent()->getDataLayout();
  auto integer = [&](uint64_t value) { return ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), value)); };
  SmallVector<Metadata *, 4> fifos;
  for (const Binding &binding : bindings) {
    const GlobalVariable &variable = *binding.fifo.variable;
    const std::string name = fifoName(variable, binding.fifo.element);
    std::string typeName;
    raw_string_ostream(typeName) << *packetTypeOf(variable);
    appendArgMetadata(kernel, "kernel_arg_addr_space", integer(1));
    appendArgMetadata(kernel, "kernel_arg_access_qual", MDString::get(context, binding.writes ? "write_only" : "read_only"));
    appendArgMetadata(kernel, "kernel_arg_type", MDString::get(context, typeName));
    appendArgMetadata(kernel, "kernel_arg_base_type", MDString::get(context, typeName));
    appendArgMetadata(kernel, "kernel_arg_type_qual", MDString::get(context, "pipe"));
    appendArgMetadata(kernel, "kernel_arg_name", MDString::get(context, name));
    fifos.push_back(MDNode::get(context, {MDString::get(context, name), integer(depthOf(variable)),
                                          integer(layout.getTypeAllocSize(packetTypeOf(variable)).getFixedSize())}));
  }
  kernel.setMetadata(ProgramFifosMetadata, MDNode::get(context, fifos));
}

/// Makes the FIFO call `call` the target's pipe call on `pipe`.
void bindCall(CallInst &call, Argument &pipe, bool writes, Target target) {
  Module &module = *call.getModule();
  IRBuilder<> builder(&call);
  Type *i32 = builder.getInt32Ty();
  CallInst *bound;
  if (target == Target::Hardware) {
    // Clang's: the packet through a generic pointer.
    Type *packetPointer = builder.getInt8PtrTy(4);
    FunctionCallee callee = module.getOrInsertFunction(writes ? "__write_pipe_2" : "__read_pipe_2", i32,
                                                       pipe.getType(), packetPointer, i32, i32);
    bound = builder.CreateCall(callee, {&pipe, builder.CreatePointerBitCastOrAddrSpaceCast(call.getArgOperand(1), packetPointer),
                                        call.getArgOperand(2), call.getArgOperand(3)});
    bound->setCallingConv(CallingConv::SPIR_FUNC);
    if (auto *function = dyn_cast<Function>(callee.getCallee()))
      function->setCallingConv(CallingConv::SPIR_FUNC);
  } else {
    // The CPU device's: call site 0, which it numbers (runtime/devices/cpu/PipeCallSites.h).
    Type *bytes = builder.getInt8PtrTy();
    FunctionCallee callee = module.getOrInsertFunction(writes ? "__loom_pipe_write" : "__loom_pipe_read", i32, bytes,
                                                       bytes, i32, i32);
    bound = builder.CreateCall(callee, {builder.CreateBitCast(&pipe, bytes),
                                        builder.CreatePointerBitCastOrAddrSpaceCast(call.getArgOperand(1), bytes),
                                        call.getArgOperand(2), builder.getInt32(0)});
  }
  bound->setDebugLoc(call.getDebugLoc());
  call.replaceAllUsesWith(bound);
  call.eraseFromParent();
}

Error bindKernel(Function &kernel, Target target) {
  SmallVector<CallInst *, 8> calls = callsOf(kernel, FifoCalls);
  if (calls.empty())
    return Error::success();
  kernel.removeDeadConstantUsers();
  if (any_of(kernel.users(), [](const User *user) { return isa<CallBase>(user); }))
    return errorAt(*calls.front(), "kernel '" + kernel.getName() +
                                       "' uses channels or pipes and is called by another kernel: call a helper "
                                       "function from both instead");
  std::map<FifoUse, unsigned> indexOf;
  SmallVector<Binding, 4> bindings;
  SmallVector<unsigned, 8> callBinding;
  for (CallInst *call : calls) {
    auto fifo = fifoOf(*call);
    if (!fifo)
      return fifo.takeError();
    const bool writes = call->getCalledFunction()->getName() == FifoWrite;
    auto [entry, added] = indexOf.try_emplace(*fifo, bindings.size());
    if (added)
      bindings.push_back({*fifo, writes, call});
    const Binding &binding = bindings[entry->second];
    if (binding.writes != writes)
      return errorAt(*call, "kernel '" + kernel.getName() + "' " + (writes ? "writes" : "reads") + " '" +
                                fifoName(*fifo->variable, fifo->element) + "', which it " +
                                (writes ? "reads" : "writes") + " at " + sourceLocation(*binding.firstCall) +
                                ": a kernel may only read a channel or pipe, or only write it");
    callBinding.push_back(entry->second);
  }
  Function *bound = addPipeArguments(kernel, bindings, target);
  for (auto [call, index] : zip(calls, callBinding))
    bindCall(*call, *bound->getArg(kernel.arg_size() + index), bindings[index].writes, target);
  describeBindings(*bound, bindings);
  // What still names the kernel (an annotation) names the bound one.
  kernel.replaceAllUsesWith(ConstantExpr::getBitCast(bound, kernel.getType()));
  kernel.eraseFromParent();
  return Error::success();
}

} // namespace

Error bindProgramScopeFifos(Module &module, Target target) {
  SmallVector<GlobalVariable *, 8> fifos;
  for (GlobalVariable &variable : module.globals())
    if (variable.getSection().startswith(FifoSection))
      fifos.push_back(&variable);
  if (fifos.empty())
    return Error::success();
  inlineIntoKernels(module, FifoCalls);
  SmallVector<Function *, 8> kernels;
  for (Function &function : module)
    if (isKernel(function))
      kernels.push_back(&function);
  for (Function *kernel : kernels) {
    if (Error error = bindKernel(*kernel, target))
      return error;
  }
  for (GlobalVariable *variable : fifos) {
    variable->removeDeadConstantUsers();
    if (!variable->use_empty()) {
      const Twine message = "channel or pipe '" + variable->getName() +
                            "' is used other than by the channel and pipe functions (read_channel_intel, "
                            "write_channel_intel, their _nb_ forms, read_pipe_block, write_pipe_block)";
      if (const Instruction *use = instructionUsing(*variable))
        return errorAt(*use, message);
      return createStringError(inconvertibleErrorCode(), ("error: " + message).str());
    }
    variable->eraseFromParent();
  }
  return Error::success();
}

} // namespace loom::frontend
