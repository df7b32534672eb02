//===- StreamingStores.cpp - A program's variant with non-temporal stores ----===//
// SPDX-License-Identifier: Apache-2.0
#include "devices/cpu/StreamingStores.h"
#include "devices/cpu/WorkItemLoops.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace loom::runtime::cpu {

using namespace llvm;

namespace {

/// A __global buffer argument of the kernel (not a pipe: a pipe's storage is the runtime's).
bool isBufferArgument(const frontend::KernelInfo &kernel, uint64_t index) {
  if (index >= kernel.args.size())
    return false;
  const frontend::KernelArg &arg = kernel.args[index];
  return arg.isPointer && !arg.isPipe() && arg.addressSpace == frontend::AddressSpace::Global;
}

/// Which slot of `array`, an array of `slotBytes`-byte entries, `pointer` points at, if it is one.
Optional<uint64_t> slotOf(const Value *pointer, const Value *array, uint64_t slotBytes, const DataLayout &layout) {
  APInt offset(layout.getIndexTypeSizeInBits(pointer->getType()), 0);
  const Value *base = pointer->stripAndAccumulateConstantOffsets(layout, offset, true);
  if (base != array || offset.isNegative() || offset.getZExtValue() % slotBytes)
    return None;
  return offset.getZExtValue() / slotBytes;
}

/// The index of the kernel argument whose slot `value` loads in work-group function `group`
/// (`load (cast (load i8*, args + 8 * index))`, as WorkItemLoops writes it), if it is one.
Optional<uint64_t> argumentLoaded(const Value *value, const Function &group) {
  const auto *load = dyn_cast<LoadInst>(value);
  const auto *slot = load ? dyn_cast<LoadInst>(load->getPointerOperand()->stripPointerCasts()) : nullptr;
  if (!slot)
    return None;
  const DataLayout &layout = group.getParent()->getDataLayout();
  return slotOf(slot->getPointerOperand(), group.getArg(0), layout.getPointerSize(), layout);
}

/// The `info` entry `load` reads, if it is one.
Optional<uint64_t> infoLoaded(const LoadInst &load, const Function &group) {
  return slotOf(load.getPointerOperand(), group.getArg(1), sizeof(uint64_t), group.getParent()->getDataLayout());
}

/// Whether the function orders its memory towards other threads itself: atomics, fences, or calls
/// that may write memory (the runtime's pipe operations).
bool synchronises(const Function &group) {
  for (const Instruction &inst : instructions(group)) {
    if (inst.isAtomic() || isa<FenceInst>(inst))
      return true;
    if (const auto *call = dyn_cast<CallBase>(&inst))
      if (!isa<IntrinsicInst>(call) && !call->onlyReadsMemory())
        return true;
  }
  return false;
}

} // namespace

void assumeStreamingLaunch(Module &module, ArrayRef<std::string> symbols, ArrayRef<frontend::KernelInfo> kernels) {
  const DataLayout &layout = module.getDataLayout();
  for (size_t k = 0; k < symbols.size(); ++k) {
    Function *group = module.getFunction(symbols[k]);
    if (!group || group->isDeclaration())
      continue;
    SmallVector<LoadInst *, 16> buffers, multiples;
    for (Instruction &inst : group->getEntryBlock()) {
      auto *load = dyn_cast<LoadInst>(&inst);
      if (!load)
        continue;
      if (auto index = argumentLoaded(load, *group); index && isBufferArgument(kernels[k], *index))
        buffers.push_back(load);
      else if (auto entry = infoLoaded(*load, *group);
               entry && (*entry == WorkGroupInfo::EnqueuedLocalSize || *entry == WorkGroupInfo::GlobalOffset))
        multiples.push_back(load);
    }
    for (LoadInst *pointer : buffers) {
      IRBuilder<> b(pointer->getNextNode());
      b.CreateAlignmentAssumption(layout, pointer, StreamingAlignment);
    }
    for (LoadInst *value : multiples) {
      IRBuilder<> b(value->getNextNode());
      b.CreateAssumption(b.CreateICmpEQ(b.CreateAnd(value, StreamingItems - 1), b.getInt64(0)));
    }
  }
}

unsigned markStreamingStores(Module &module, ArrayRef<std::string> symbols, ArrayRef<frontend::KernelInfo> kernels) {
  const DataLayout &layout = module.getDataLayout();
  MDNode *nontemporal = MDNode::get(module.getContext(), ConstantAsMetadata::get(ConstantInt::get(
                                                             Type::getInt32Ty(module.getContext()), 1)));
  unsigned marked = 0;
  for (size_t k = 0; k < symbols.size(); ++k) {
    Function *group = module.getFunction(symbols[k]);
    if (!group || group->isDeclaration() || synchronises(*group))
      continue;
    SmallVector<StoreInst *, 8> stores;
    for (Instruction &inst : instructions(*group)) {
      auto *store = dyn_cast<StoreInst>(&inst);
      if (!store || store->isVolatile() || !store->getValueOperand()->getType()->isVectorTy())
        continue;
      const uint64_t bytes = layout.getTypeStoreSize(store->getValueOperand()->getType());
      if (bytes < 16 || !isPowerOf2_64(bytes))
        continue;
      auto index = argumentLoaded(getUnderlyingObject(store->getPointerOperand()), *group);
      if (index && isBufferArgument(kernels[k], *index))
        stores.push_back(store);
    }
    for (StoreInst *store : stores) {
      const uint64_t aligned = std::min<uint64_t>(layout.getTypeStoreSize(store->getValueOperand()->getType()),
                                                  StreamingAlignment);
      if (store->getAlign().value() < aligned) {
        // An alignment the compiler cannot prove (a row pitch: `c[y * width + x]`) is checked where
        // the store is: non-temporal where the address is aligned, as every row of a width in whole
        // lines is, cached elsewhere.
        IRBuilder<> b(store);
        Value *offset = b.CreateAnd(b.CreatePtrToInt(store->getPointerOperand(), b.getInt64Ty()), aligned - 1);
        Instruction *alignedBranch = nullptr, *otherBranch = nullptr;
        SplitBlockAndInsertIfThenElse(b.CreateICmpEQ(offset, b.getInt64(0)), store, &alignedBranch, &otherBranch);
        store->moveBefore(otherBranch);
        store = cast<StoreInst>(store->clone());
        store->insertBefore(alignedBranch);
        store->setAlignment(Align(aligned));
      }
      store->setMetadata(LLVMContext::MD_nontemporal, nontemporal);
    }
    marked += stores.size();
  }
  return marked;
}

bool isStreamingLaunch(const frontend::KernelInfo &kernel, ArrayRef<LaunchBuffer> buffers, const NDRange &range,
                       uint64_t cacheBytes) {
  if (range.local[0] % StreamingItems || range.offset[0] % StreamingItems)
    return false;
  uint64_t items = 1;
  for (unsigned d = 0; d < range.dims; ++d)
    items *= range.global[d];
  uint64_t read = 0, written = 0;
  for (size_t i = 0; i < buffers.size() && i < kernel.args.size(); ++i) {
    if (!isBufferArgument(kernel, i))
      continue;
    if (reinterpret_cast<uintptr_t>(buffers[i].host) % StreamingAlignment)
      return false;
    (StringRef(kernel.args[i].typeQualifiers).contains("const") ? read : written) +=
        std::min(buffers[i].bytes, items * buffers[i].elementBytes);
  }
  return written && read + written >= cacheBytes;
}

uint64_t lastLevelCacheBytes() {
  // sysfs, as lscpu reads it: glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) decodes CPUID, which a virtual
  // machine may fill with the whole host's cache (320 MiB for 32 here).
  uint64_t largest = 0;
  unsigned deepest = 0;
  for (unsigned index = 0;; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    auto level = MemoryBuffer::getFile(dir + "level", /*IsText=*/true);
    auto size = MemoryBuffer::getFile(dir + "size", /*IsText=*/true);
    if (!level || !size)
      break;
    unsigned levelNumber = 0;
    uint64_t kibibytes = 0;
    if ((*level)->getBuffer().trim().getAsInteger(10, levelNumber) ||
        (*size)->getBuffer().trim().rtrim('K').getAsInteger(10, kibibytes))
      continue;
    if (levelNumber >= deepest) {
      deepest = levelNumber;
      largest = kibibytes << 10;
    }
  }
  return largest ? largest : 32ull << 20;
}

} // namespace loom::runtime::cpu
