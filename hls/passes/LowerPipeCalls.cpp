//===- LowerPipeCalls.cpp - Clang's pipe calls to stream operations -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel calling Clang's pipe functions: __read_pipe_2 and __write_pipe_2 (read_pipe and
// write_pipe), which move a packet through a generic pointer and return 0, or -1 when the pipe was
// empty or full; __reserve_*_pipe, __read_pipe_4, __write_pipe_4 and __commit_*_pipe (a
// reservation's packets by index; the builtin library makes the work-group and sub-group forms of
// them), is_valid_reserve_id, and __get_pipe_{num,max}_packets_*.
// After: calls of the stream functions (Passes.h) on the pipe argument that take or give the packet
// as a value, loaded from or stored to the packet's memory; SROA then keeps a private packet in a
// register. A reservation is an i64 (count << 32 | first position, all ones for none), so
// is_valid_reserve_id is a compare and a reservation's packet is at its first position plus the
// index. A call on a pipe chosen at run time (`c ? p : q` or a phi, which LLVM makes of an if/else
// or a switch on several pipes) becomes a call per pipe under a branch. A loop that only retries a read_pipe or write_pipe until it succeeds
// (`while (read_pipe(p, &v) != 0);`, the portable way to wait) becomes one waiting call: the
// circuit waits at the FIFO's handshake instead of circling a loop, so a producer and its consumer
// move a packet a cycle. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

namespace loom::hls {
namespace {

using namespace llvm;

/// The block a loop that only retries `call` until it succeeds leaves to: the call's block goes back
/// to itself when the call returns -1 (directly, or through blocks that only branch on), and on to
/// that block when it returns 0; nothing else in the block has an effect or reads memory, and its
/// phis keep their values from one try to the next. So trying again is all it does. Null when
/// `call` is not in such a loop.
BasicBlock *retryLoopExit(CallInst &call) {
  BasicBlock *block = call.getParent();
  auto *branch = dyn_cast<BranchInst>(block->getTerminator());
  auto *compare = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
  if (!compare || (compare->getOperand(0) != &call && compare->getOperand(1) != &call))
    return nullptr;
  const bool statusFirst = compare->getOperand(0) == &call;
  auto *other = dyn_cast<ConstantInt>(compare->getOperand(statusFirst ? 1 : 0));
  if (!other)
    return nullptr;
  auto successorFor = [&](int64_t status) {
    const APInt value(32, uint64_t(status), /*isSigned=*/true);
    const bool taken = statusFirst ? ICmpInst::compare(value, other->getValue(), compare->getPredicate())
                                   : ICmpInst::compare(other->getValue(), value, compare->getPredicate());
    return branch->getSuccessor(taken ? 0 : 1);
  };
  BasicBlock *exit = successorFor(0), *back = block;
  if (exit == block)
    return nullptr;
  // Clang leaves the way back through a shared latch when the retry loop is an outer loop's body.
  for (BasicBlock *on = successorFor(-1); on != block; on = on->getSingleSuccessor()) {
    if (!on || on->size() != 1 || !isa<BranchInst>(on->getTerminator()) || on == exit)
      return nullptr;
    back = on;
  }
  for (Instruction &inst : *block) {
    if (&inst == &call || &inst == branch)
      continue;
    if (auto *phi = dyn_cast<PHINode>(&inst); phi && phi->getIncomingValueForBlock(back) != phi)
      return nullptr; // Something changes from one try to the next.
    if (inst.mayHaveSideEffects() || inst.mayReadFromMemory())
      return nullptr;
  }
  return exit;
}

/// Makes the retry loop's `block` go on to `exit` at once: the other way out (back) is gone.
void removeRetryLoop(BasicBlock *block, BasicBlock *exit) {
  auto *branch = cast<BranchInst>(block->getTerminator());
  Value *condition = branch->getCondition();
  for (BasicBlock *successor : successors(block))
    if (successor != exit)
      successor->removePredecessor(block);
  BranchInst::Create(exit, branch);
  branch->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(condition);
}

/// Where a call's packet lives: a pointer to it and the type to load or store there.
struct PacketMemory {
  Value *pointer;
  Type *type;
};

/// The type a packet of `bytes` travels as: its bits as an integer, or, wider than a register, as
/// 32-bit lanes of one wide value (ScalarizeVectors gathers them; the graph carries it whole). A
/// struct of a size memory has no access of (3 bytes, 12) travels as lanes of bytes or words.
Type *packetType(LLVMContext &context, unsigned bytes) {
  if (bytes <= 8 && isPowerOf2_32(bytes))
    return IntegerType::get(context, bytes * 8);
  if (bytes % 4 == 0)
    return FixedVectorType::get(Type::getInt32Ty(context), bytes / 4);
  return FixedVectorType::get(Type::getInt8Ty(context), bytes);
}

/// The packet's memory behind `pointer` (Clang's generic i8*): the object's own type when it is a
/// scalar or vector of the packet's size, so that a private one becomes a register, else the
/// packet's type.
PacketMemory packetMemory(IRBuilder<> &builder, Value *pointer, unsigned bytes) {
  Value *base = pointer->stripPointerCasts();
  Type *type = base->getType()->getNonOpaquePointerElementType();
  const DataLayout &layout = builder.GetInsertBlock()->getModule()->getDataLayout();
  if (layout.getTypeStoreSize(type) == bytes && layout.getTypeSizeInBits(type) == bytes * 8 &&
      (type->isIntOrIntVectorTy() || type->isFPOrFPVectorTy() || (type->isPointerTy() && bytes <= 8)))
    return {base, type};
  Type *packet = packetType(builder.getContext(), bytes);
  return {builder.CreateBitCast(base, packet->getPointerTo(base->getType()->getPointerAddressSpace())), packet};
}

/// `value` as a packet of type `packet`, and back.
Value *toPacket(IRBuilder<> &builder, Value *value, Type *packet) {
  return value->getType()->isPointerTy() ? builder.CreatePtrToInt(value, packet) : builder.CreateBitCast(value, packet);
}
Value *fromPacket(IRBuilder<> &builder, Value *packet, Type *type) {
  return type->isPointerTy() ? builder.CreateIntToPtr(packet, type) : builder.CreateBitCast(packet, type);
}

/// The stream function `name` for packets of `bits`: one declaration per packet width.
/// `nomerge`: each call is wired to its own pipe, so SimplifyCFG must not sink the calls of an
/// if/else on two pipes into one call on a pipe chosen at run time.
FunctionCallee streamFunction(Module &module, StringRef name, unsigned bits, Type *result, ArrayRef<Type *> params) {
  AttributeList attributes = AttributeList().addFnAttribute(module.getContext(), Attribute::NoMerge);
  return module.getOrInsertFunction((name + "." + Twine(bits)).str(), FunctionType::get(result, params, false),
                                    attributes);
}

/// The packet size Clang passes as operand `operand` of `call`, when the hardware moves such packets.
Expected<unsigned> packetBytesOf(const CallInst &call, unsigned operand, const Function &kernel) {
  auto *size = dyn_cast<ConstantInt>(call.getArgOperand(operand));
  const uint64_t bytes = size ? size->getZExtValue() : 0;
  if (!bytes || bytes > MaxPipePacketBytes)
    return createStringError(inconvertibleErrorCode(),
                             locationOf(call, kernel) + ": error: pipes of " + Twine(bytes) +
                                 "-byte packets are not supported by the hardware flow (packets of up to " +
                                 Twine(MaxPipePacketBytes) + " bytes are: CL_DEVICE_PIPE_MAX_PACKET_SIZE)");
  return unsigned(bytes);
}

/// The packet alignment Clang passes as operand `operand` of `call` (a power of two).
Align packetAlignmentOf(const CallInst &call, unsigned operand) {
  auto *align = dyn_cast<ConstantInt>(call.getArgOperand(operand));
  return align && isPowerOf2_64(align->getZExtValue()) ? Align(align->getZExtValue()) : Align(1);
}

/// Replaces Clang's pipe call `call` by `result` (none: it returned nothing) and drops what only it
/// used (the packet's pointer, the reservation's casts).
void replaceCall(CallInst &call, Value *result) {
  if (result)
    call.replaceAllUsesWith(result);
  SmallVector<WeakTrackingVH, 8> unused(call.args());
  if (result)
    unused.push_back(result); // A status nothing reads: no circuit with an unread output.
  call.eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(unused);
}

/// Clang's read_pipe or write_pipe with two arguments.
Error lowerTransfer(CallInst &call, bool reads, const Function &kernel) {
  Module &module = *call.getModule();
  LLVMContext &context = call.getContext();
  auto bytes = packetBytesOf(call, 2, kernel);
  if (!bytes)
    return bytes.takeError();
  const unsigned bits = *bytes * 8;
  Value *pipe = call.getArgOperand(0);
  IRBuilder<> builder(&call);
  const PacketMemory memory = packetMemory(builder, call.getArgOperand(1), *bytes);
  const Align alignment = packetAlignmentOf(call, 3);
  Type *packet = packetType(context, *bytes), *status = call.getType();
  BasicBlock *block = call.getParent();
  BasicBlock *retryExit = retryLoopExit(call);
  Value *result = ConstantInt::get(status, 0);
  if (reads && retryExit) {
    Value *value = builder.CreateCall(streamFunction(module, StreamRead, bits, packet, {pipe->getType()}), {pipe});
    builder.CreateAlignedStore(fromPacket(builder, value, memory.type), memory.pointer, alignment);
  } else if (reads) {
    // The packet's memory changes only when one was read.
    Type *pair = StructType::get(context, {packet, builder.getInt1Ty()});
    Value *tried = builder.CreateCall(streamFunction(module, StreamTryRead, bits, pair, {pipe->getType()}), {pipe});
    Value *value = builder.CreateExtractValue(tried, 0), *read = builder.CreateExtractValue(tried, 1);
    IRBuilder<> then(SplitBlockAndInsertIfThen(read, &call, /*Unreachable=*/false));
    then.CreateAlignedStore(fromPacket(then, value, memory.type), memory.pointer, alignment);
    builder.SetInsertPoint(&call);
    result = builder.CreateSelect(read, result, ConstantInt::get(status, -1, true));
  } else {
    Value *value = toPacket(builder, builder.CreateAlignedLoad(memory.type, memory.pointer, alignment), packet);
    if (retryExit) {
      builder.CreateCall(streamFunction(module, StreamWrite, bits, builder.getVoidTy(), {pipe->getType(), packet}),
                         {pipe, value});
    } else {
      Value *written = builder.CreateCall(
          streamFunction(module, StreamTryWrite, bits, builder.getInt1Ty(), {pipe->getType(), packet}), {pipe, value});
      result = builder.CreateSelect(written, result, ConstantInt::get(status, -1, true));
    }
  }
  replaceCall(call, result);
  if (retryExit)
    removeRetryLoop(block, retryExit);
  return Error::success();
}

/// Clang's pipe functions besides read_pipe and write_pipe with two arguments.
enum class PipeCall { Reserve, Commit, SlotRead, SlotWrite, IsValid, Packets, Capacity };

Optional<PipeCall> pipeCallNamed(StringRef name) {
  return StringSwitch<Optional<PipeCall>>(name)
      .Cases("__reserve_read_pipe", "__reserve_write_pipe", PipeCall::Reserve)
      .Cases("__commit_read_pipe", "__commit_write_pipe", PipeCall::Commit)
      .Case("__read_pipe_4", PipeCall::SlotRead)
      .Case("__write_pipe_4", PipeCall::SlotWrite)
      .Case("_Z19is_valid_reserve_id13ocl_reserveid", PipeCall::IsValid)
      .Cases("__get_pipe_num_packets_ro", "__get_pipe_num_packets_wo", PipeCall::Packets)
      .Cases("__get_pipe_max_packets_ro", "__get_pipe_max_packets_wo", PipeCall::Capacity)
      .Default(None);
}

/// Whether `name` is one of Clang's pipe functions this pass lowers.
bool isClangPipeCall(StringRef name) {
  return name == "__read_pipe_2" || name == "__write_pipe_2" || pipeCallNamed(name).has_value();
}

/// The first position of reservation `id` (count << 32 | first position).
Value *firstPosition(IRBuilder<> &builder, Value *id) {
  return builder.CreateTrunc(builder.CreatePtrToInt(id, builder.getInt64Ty()), builder.getInt32Ty());
}


/// A reservation function, is_valid_reserve_id or a pipe query: a stream call of the same meaning.
Error lowerReservationOrQuery(CallInst &call, PipeCall kind, const Function &kernel) {
  IRBuilder<> builder(&call);
  if (kind == PipeCall::IsValid) {
    replaceCall(call, builder.CreateICmpNE(builder.CreatePtrToInt(call.getArgOperand(0), builder.getInt64Ty()),
                                           builder.getInt64(~0ull)));
    return Error::success();
  }
  // Clang's size operand: after the pipe, the count or reservation, and for an access the index and
  // the packet's pointer.
  const unsigned sizeOperand = kind == PipeCall::SlotRead || kind == PipeCall::SlotWrite ? 4
                               : kind == PipeCall::Packets || kind == PipeCall::Capacity ? 1
                                                                                          : 2;
  auto bytes = packetBytesOf(call, sizeOperand, kernel);
  if (!bytes)
    return bytes.takeError();
  Module &module = *call.getModule();
  Type *i32 = builder.getInt32Ty();
  // The pipe as a byte pointer: one declaration of each stream function serves read_only and
  // write_only pipes (build-dataflow looks through the cast to the argument).
  Value *pipe = call.getArgOperand(0);
  pipe = builder.CreatePointerCast(pipe, builder.getInt8PtrTy(pipe->getType()->getPointerAddressSpace()));
  Value *size = builder.getInt32(*bytes);
  auto function = [&](const char *name, Type *returns, ArrayRef<Type *> params) {
    return module.getOrInsertFunction(name, FunctionType::get(returns, params, false));
  };
  Value *result = nullptr;
  switch (kind) {
  case PipeCall::Reserve:
    result = builder.CreateIntToPtr(
        builder.CreateCall(function(StreamReserve, builder.getInt64Ty(), {pipe->getType(), i32, i32}),
                           {pipe, call.getArgOperand(1), size}),
        call.getType());
    break;
  case PipeCall::Commit:
    builder.CreateCall(function(StreamCommit, builder.getVoidTy(), {pipe->getType(), builder.getInt64Ty(), i32}),
                       {pipe, builder.CreatePtrToInt(call.getArgOperand(1), builder.getInt64Ty()), size});
    break;
  case PipeCall::SlotRead:
  case PipeCall::SlotWrite: {
    const PacketMemory memory = packetMemory(builder, call.getArgOperand(3), *bytes);
    const Align alignment = packetAlignmentOf(call, 5);
    Type *packet = packetType(call.getContext(), *bytes);
    Value *position = builder.CreateAdd(firstPosition(builder, call.getArgOperand(1)), call.getArgOperand(2));
    if (kind == PipeCall::SlotRead) {
      Value *value = builder.CreateCall(
          streamFunction(module, StreamSlotRead, *bytes * 8, packet, {pipe->getType(), i32}), {pipe, position});
      builder.CreateAlignedStore(fromPacket(builder, value, memory.type), memory.pointer, alignment);
    } else {
      Value *value = toPacket(builder, builder.CreateAlignedLoad(memory.type, memory.pointer, alignment), packet);
      builder.CreateCall(
          streamFunction(module, StreamSlotWrite, *bytes * 8, builder.getVoidTy(), {pipe->getType(), i32, packet}),
          {pipe, position, value});
    }
    result = ConstantInt::get(call.getType(), 0);
    break;
  }
  case PipeCall::Packets:
  case PipeCall::Capacity:
    result = builder.CreateCall(
        function(kind == PipeCall::Packets ? StreamPackets : StreamCapacity, i32, {pipe->getType(), i32}),
        {pipe, size});
    break;
  case PipeCall::IsValid:
    llvm_unreachable("lowered above");
  }
  replaceCall(call, result);
  return Error::success();
}

/// The pipe `phi` chooses, as selects on a new phi of the incoming pipe's index, placed before
/// `call`: what splitChosenPipes splits.
Value *selectsFor(PHINode &phi, CallInst &call) {
  SmallVector<Value *, 4> pipes;
  for (Value *incoming : phi.incoming_values())
    if (!is_contained(pipes, incoming))
      pipes.push_back(incoming);
  IRBuilder<> atPhis(phi.getParent(), phi.getParent()->getFirstInsertionPt());
  PHINode *index = PHINode::Create(atPhis.getInt32Ty(), phi.getNumIncomingValues(), "pipe.index", &phi);
  for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i)
    index->addIncoming(atPhis.getInt32(unsigned(find(pipes, phi.getIncomingValue(i)) - pipes.begin())),
                       phi.getIncomingBlock(i));
  IRBuilder<> builder(&call);
  Value *chosen = pipes.back();
  for (size_t i = pipes.size() - 1; i-- > 0;)
    chosen = builder.CreateSelect(builder.CreateICmpEQ(index, builder.getInt32(unsigned(i))), pipes[i], chosen);
  return chosen;
}

/// Clang's pipe calls on a pipe chosen at run time (`c ? p : q`, or a phi: SimplifyCFG sinks the
/// calls of an if/else or a switch on several pipes into one), each split back into a call per pipe
/// under a branch on the choice, since the hardware wires a call to one FIFO. A reservation on a
/// chosen pipe and its commit split on the same choice, so each commit meets its own pipe's
/// reservation.
void splitChosenPipes(Function &kernel) {
  auto isPipeCall = [](const CallInst &call) {
    const Function *callee = call.getCalledFunction();
    return callee && call.arg_size() > 0 && isClangPipeCall(callee->getName());
  };
  for (bool split = true; split;) {
    split = false;
    for (Instruction &inst : instructions(kernel)) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (!call || !isPipeCall(*call))
        continue;
      Value *operand = call->getArgOperand(0);
      Value *pipe = operand->stripPointerCasts();
      if (auto *phi = dyn_cast<PHINode>(pipe))
        pipe = selectsFor(*phi, *call);
      auto *choice = dyn_cast<SelectInst>(pipe);
      if (!choice)
        continue;
      Instruction *thenEnd = nullptr, *elseEnd = nullptr;
      SplitBlockAndInsertIfThenElse(choice->getCondition(), call, &thenEnd, &elseEnd);
      PHINode *result = call->use_empty() ? nullptr : PHINode::Create(call->getType(), 2, "", call);
      for (auto [end, chosen] : {std::pair{thenEnd, choice->getTrueValue()}, std::pair{elseEnd, choice->getFalseValue()}}) {
        auto *copy = cast<CallInst>(call->clone());
        copy->insertBefore(end);
        copy->setArgOperand(0, chosen->getType() == operand->getType()
                                   ? chosen
                                   : CastInst::CreatePointerCast(chosen, operand->getType(), "", copy));
        if (result)
          result->addIncoming(copy, end->getParent());
      }
      if (result)
        call->replaceAllUsesWith(result);
      call->eraseFromParent();
      SmallVector<WeakTrackingVH, 2> unused{operand, choice};
      RecursivelyDeleteTriviallyDeadInstructionsPermissive(unused);
      split = true;
      break; // The blocks changed under the iteration.
    }
  }
}

} // namespace

llvm::StringRef streamFunctionOf(const llvm::CallInst &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee)
    return {};
  const StringRef function = callee->getName().split('.').first;
  return is_contained(std::initializer_list<StringRef>{StreamRead, StreamTryRead, StreamWrite, StreamTryWrite,
                                                       StreamReserve, StreamSlotRead, StreamSlotWrite, StreamCommit,
                                                       StreamPackets, StreamCapacity},
                      function)
             ? function
             : StringRef();
}

llvm::Error lowerPipeCalls(llvm::Function &kernel) {
  splitChosenPipes(kernel);
  std::vector<std::pair<CallInst *, bool>> transfers;
  std::vector<std::pair<CallInst *, PipeCall>> others;
  for (Instruction &inst : instructions(kernel))
    if (auto *call = dyn_cast<CallInst>(&inst); call && call->getCalledFunction()) {
      const StringRef name = call->getCalledFunction()->getName();
      if (name == "__read_pipe_2" || name == "__write_pipe_2")
        transfers.emplace_back(call, name == "__read_pipe_2");
      else if (auto kind = pipeCallNamed(name))
        others.emplace_back(call, *kind);
    }
  if (transfers.empty() && others.empty())
    return Error::success();
  for (auto [call, reads] : transfers)
    if (Error error = lowerTransfer(*call, reads, kernel))
      return error;
  for (auto [call, kind] : others)
    if (Error error = lowerReservationOrQuery(*call, kind, kernel))
      return error;
  EliminateUnreachableBlocks(kernel); // the ways back of retry loops that no other block shared
  FunctionAnalysisManager analyses;
  PassBuilder().registerFunctionAnalyses(analyses);
  SROAPass().run(kernel, analyses);
  return Error::success();
}

} // namespace loom::hls
