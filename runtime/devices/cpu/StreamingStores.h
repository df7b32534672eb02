//===- StreamingStores.h - A program's variant with non-temporal stores -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A launch whose buffers fill the last-level cache gains nothing from caching what it writes: each
// line written is first read from memory (read for ownership) and later written back, so vector_add
// moves four streams for its three. Non-temporal stores write whole lines to memory
// without reading them. The CPU device compiles a second, streaming variant of a program for such
// launches (isStreamingLaunch), which differs in two transformations:
//  - before O3 (assumeStreamingLaunch), each work-group function assumes what the launch checked:
//    its __global pointer arguments are StreamingAlignment-aligned, and in dimension 0 the enqueued
//    local size and the global offset are multiples of StreamingItems, so that InstCombine proves
//    the vectorised stores of `c[get_global_id(0)]` aligned to their size;
//  - after O3 (markStreamingStores), each vector store of 16 bytes or more into a __global buffer
//    argument becomes !nontemporal (MOVNTPS and kin): as it is where its alignment to its size (at
//    most a line) is proven, behind a check of the address where it is not (a row pitch, `c[y *
//    width + x]`). Non-temporal stores are weakly ordered: each thread of a streaming launch fences
//    them once, after its last work-group (CpuDevice.cpp). A work-group function with atomics or
//    fences keeps cached stores: its order towards other threads is the kernel's business.
//===----------------------------------------------------------------------===//
#pragma once

#include "devices/Device.h"

#include "loom/frontend/KernelInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>

namespace loom::runtime::cpu {

constexpr uint64_t StreamingAlignment = 64; ///< A cache line, the widest (AVX-512) store.
constexpr uint64_t StreamingItems = 16;     ///< Work-items of a 64-byte store of floats.

/// The work-group functions `symbols` (one per kernel of `kernels`) assume the launch's alignment.
void assumeStreamingLaunch(llvm::Module &module, llvm::ArrayRef<std::string> symbols,
                           llvm::ArrayRef<frontend::KernelInfo> kernels);

/// Marks the optimised work-group functions' aligned vector stores into buffers non-temporal;
/// returns how many stores it marked.
unsigned markStreamingStores(llvm::Module &module, llvm::ArrayRef<std::string> symbols,
                             llvm::ArrayRef<frontend::KernelInfo> kernels);

/// A kernel argument as isStreamingLaunch sees it.
struct LaunchBuffer {
  const void *host = nullptr; ///< The buffer's address; null for other arguments.
  uint64_t bytes = 0;         ///< The buffer's size.
  uint64_t elementBytes = 0;  ///< The size of what the kernel's pointer points to.
};

/// Whether a launch of `kernel` over `range` takes the streaming variant: it writes, what it may read
/// and write (through its __global pointers, const ones read and others written, one element per
/// work-item, at most their buffers) fills `cacheBytes`, so that what it writes is gone from the
/// cache before it is read again, and it meets what the variant assumes.
bool isStreamingLaunch(const frontend::KernelInfo &kernel, llvm::ArrayRef<LaunchBuffer> buffers, const NDRange &range,
                       uint64_t cacheBytes);

/// The host's last-level cache, in bytes, as sysfs gives it (32 MiB when it does not).
uint64_t lastLevelCacheBytes();

} // namespace loom::runtime::cpu
