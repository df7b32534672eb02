//===- Buffer.h - A buffer object and its device memory -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A buffer owns one Allocation from its context's memory device; the allocation's host pointer is
// where reads, writes and maps go (the board's memory is a shared mapping, so these are memcpy).
// CL_MEM_USE_HOST_PTR on a CPU-only context uses the application's pointer itself; with a board in
// the context the data lives in device memory and is mirrored to the application's pointer on map
// and unmap, as the spec allows. A sub-buffer is a window on its parent's allocation (host pointer,
// device address and USE_HOST_PTR pointer all moved by its origin): it references the parent and
// never frees memory itself. A pipe is a buffer the API lets only kernels' pipe arguments use.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Context.h"
#include "core/PipeStorage.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace loom::runtime {

/// The cl_mem_flags bits the core acts on (same values as the CL_MEM_* flags).
namespace MemFlag {
constexpr uint64_t ReadWrite = 1 << 0;
constexpr uint64_t UseHostPtr = 1 << 3;
constexpr uint64_t AllocHostPtr = 1 << 4;
constexpr uint64_t CopyHostPtr = 1 << 5;
constexpr uint64_t HostNoAccess = 1 << 9;
} // namespace MemFlag

/// CL_DEVICE_MEM_BASE_ADDR_ALIGN of both devices, in bytes (the query answers in bits): device
/// allocations start on it, and a sub-buffer's origin must be a multiple of it.
constexpr size_t BaseAddressAlignment = 128;

class Buffer : public Object {
public:
  /// Allocates `size` bytes and applies USE/COPY_HOST_PTR. Errors are allocation failures.
  static llvm::Expected<Buffer *> create(Context &context, uint64_t flags, size_t size, void *hostPtr);
  /// A sub-buffer of `size` bytes at `origin` in `parent` (not itself a sub-buffer), with `flags`
  /// already merged with the parent's. The API layer checked the region.
  static Buffer *createSub(Buffer &parent, uint64_t flags, size_t origin, size_t size);
  /// A pipe (clCreatePipe): a memory object whose storage is core/PipeStorage.h's, laid out empty.
  static llvm::Expected<Buffer *> createPipe(Context &context, uint64_t flags, const PipeShape &shape);
  /// Runs the destructor callbacks, newest first, then frees the memory if this buffer owns it.
  ~Buffer();

  const Ref<Context> context;
  const uint64_t flags;
  const size_t size;
  void *const hostPtr; ///< The application's pointer for USE_HOST_PTR (+ origin), else null.
  const Ref<Buffer> parent; ///< For a sub-buffer, the buffer it is a region of; else null.
  const size_t origin;      ///< A sub-buffer's offset in its parent; 0 otherwise.
  /// The buffer that owns the storage (the parent of a sub-buffer, else this one): two ranges
  /// overlap only if they have the same root, at `origin` + offset in it.
  const Buffer &root() const { return parent ? *parent : *this; }
  /// The properties list clCreateBufferWithProperties was given, its terminating 0 included
  /// (empty for clCreateBuffer or a NULL list): what CL_MEM_PROPERTIES returns.
  std::vector<uint64_t> rawProperties;
  /// A pipe's packet size and depth; zero for a buffer.
  PipeShape pipe;
  bool isPipe() const { return pipe.maxPackets != 0; }
  const Allocation &allocation() const { return memory; }
  /// Where the host reads and writes the contents.
  uint8_t *data() const { return static_cast<uint8_t *>(memory.host); }
  /// True when [offset, offset + bytes) lies within the buffer.
  bool contains(size_t offset, size_t bytes) const { return offset <= size && bytes <= size - offset; }
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

  /// clSetMemObjectDestructorCallback: `callback` runs when the storage goes, after the last
  /// release and after queued commands and kernel arguments have let go of the buffer.
  void addDestructorCallback(std::function<void()> callback);

private:
  friend class Object;
  Buffer(Context &context, uint64_t flags, size_t size, void *hostPtr, Buffer *parent = nullptr,
         size_t origin = 0)
      : Object(ObjectKind::Buffer), context(&context), flags(flags), size(size), hostPtr(hostPtr),
        parent(parent), origin(origin) {}
  Allocation memory;
  mutable std::mutex mapMutex;
  std::vector<Mapping> mappings;
  std::mutex destructorMutex;
  std::vector<std::function<void()>> destructorCallbacks;
  Device *owner = nullptr; ///< The device that allocated `memory`; null when it is the user's.
};

} // namespace loom::runtime
