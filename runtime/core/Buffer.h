//===- Buffer.h - A buffer object and its device memory -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A buffer owns one Allocation from its context's memory device; the allocation's host pointer is
// where reads, writes and maps go (the board's memory is a shared mapping, so these are memcpy).
// CL_MEM_USE_HOST_PTR on a CPU-only context uses the application's pointer itself; with a board in
// the context the data lives in device memory and is mirrored to the application's pointer on map
// and unmap, as the spec allows.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Context.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace loom::runtime {

/// The cl_mem_flags bits the core acts on (same values as the CL_MEM_* flags).
namespace MemFlag {
constexpr uint64_t UseHostPtr = 1 << 3;
constexpr uint64_t AllocHostPtr = 1 << 4;
constexpr uint64_t CopyHostPtr = 1 << 5;
} // namespace MemFlag

class Buffer : public Object {
public:
  /// Allocates `size` bytes and applies USE/COPY_HOST_PTR. Errors are allocation failures.
  static llvm::Expected<Buffer *> create(Context &context, uint64_t flags, size_t size, void *hostPtr);
  ~Buffer();

  const Ref<Context> context;
  const uint64_t flags;
  const size_t size;
  void *const hostPtr; ///< The application's pointer for USE_HOST_PTR, else null.
  /// The properties list clCreateBufferWithProperties was given, its terminating 0 included
  /// (empty for clCreateBuffer or a NULL list): what CL_MEM_PROPERTIES returns.
  std::vector<uint64_t> rawProperties;
  const Allocation &allocation() const { return memory; }
  /// Where the host reads and writes the contents.
  uint8_t *data() const { return static_cast<uint8_t *>(memory.host); }
  /// True when USE_HOST_PTR contents live in device memory and must be mirrored on map/unmap.
  bool mirrorsHostPtr() const { return hostPtr && memory.host != hostPtr; }

  /// A region handed out by clEnqueueMapBuffer and not yet unmapped.
  struct Mapping {
    void *pointer = nullptr;
    size_t offset = 0, size = 0;
    bool writes = false; ///< Mapped for writing: unmapping copies a mirrored region back.
  };
  void addMapping(const Mapping &mapping);
  /// Removes one mapping at `pointer`; false if there is none.
  bool takeMapping(void *pointer, Mapping &mapping);
  uint32_t mapCount() const;

private:
  friend class Object;
  Buffer(Context &context, uint64_t flags, size_t size, void *hostPtr)
      : Object(ObjectKind::Buffer), context(&context), flags(flags), size(size), hostPtr(hostPtr) {}
  Allocation memory;
  mutable std::mutex mapMutex;
  std::vector<Mapping> mappings;
  Device *owner = nullptr; ///< The device that allocated `memory`; null when it is the user's.
};

} // namespace loom::runtime
