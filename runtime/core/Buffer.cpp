//===- Buffer.cpp - Buffer allocation and host-pointer flags --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Allocation through the context's memory device and the initial copy of USE/COPY_HOST_PTR data;
// sub-buffers as windows on their parent's allocation; pipes; destructor callbacks.
//===----------------------------------------------------------------------===//
#include "core/Buffer.h"

#include <cstring>

namespace loom::runtime {

llvm::Expected<Buffer *> Buffer::create(Context &context, uint64_t flags, size_t size, void *hostPtr) {
  PlatformDevice &device = context.memoryDevice();
  bool useHost = (flags & MemFlag::UseHostPtr) != 0;
  Allocation memory;
  Device *owner = nullptr;
  if (useHost && device.info().kind == DeviceKind::Cpu) {
    // The CPU device reads host memory directly: no copy, the application's pointer is the storage.
    memory.host = hostPtr;
    memory.deviceAddress = reinterpret_cast<uintptr_t>(hostPtr);
    memory.size = size;
  } else {
    auto allocated = device.device.allocate(size);
    if (!allocated)
      return allocated.takeError();
    memory = *allocated;
    owner = &device.device;
    if (hostPtr && (flags & (MemFlag::UseHostPtr | MemFlag::CopyHostPtr)))
      std::memcpy(memory.host, hostPtr, size);
  }
  Buffer *buffer = Object::create<Buffer>(context, flags, size, useHost ? hostPtr : nullptr);
  buffer->memory = memory;
  buffer->owner = owner;
  return buffer;
}

llvm::Expected<Buffer *> Buffer::createPipe(Context &context, uint64_t flags, const PipeShape &shape) {
  auto pipe = create(context, flags, pipeStorageBytes(shape), nullptr);
  if (!pipe)
    return pipe.takeError();
  (*pipe)->pipe = shape;
  initialisePipe((*pipe)->data(), shape);
  return pipe;
}

Buffer *Buffer::createSub(Buffer &parent, uint64_t flags, size_t origin, size_t size) {
  void *hostPtr = parent.hostPtr ? static_cast<uint8_t *>(parent.hostPtr) + origin : nullptr;
  Buffer *buffer = Object::create<Buffer>(*parent.context, flags, size, hostPtr, &parent, origin);
  buffer->memory = {parent.data() + origin, parent.memory.deviceAddress + origin, size};
  return buffer; // No owner: the parent frees the allocation.
}

void Buffer::addMapping(const Mapping &mapping) {
  std::lock_guard<std::mutex> lock(mapMutex);
  mappings.push_back(mapping);
}

bool Buffer::takeMapping(void *pointer, Mapping &mapping) {
  std::lock_guard<std::mutex> lock(mapMutex);
  for (auto it = mappings.begin(); it != mappings.end(); ++it)
    if (it->pointer == pointer) {
      mapping = *it;
      mappings.erase(it);
      return true;
    }
  return false;
}

uint32_t Buffer::mapCount() const {
  std::lock_guard<std::mutex> lock(mapMutex);
  return static_cast<uint32_t>(mappings.size());
}

void Buffer::addDestructorCallback(std::function<void()> callback) {
  std::lock_guard<std::mutex> lock(destructorMutex);
  destructorCallbacks.push_back(std::move(callback));
}

Buffer::~Buffer() {
  // The spec's order: the callbacks, newest first, then the memory goes.
  for (auto callback = destructorCallbacks.rbegin(); callback != destructorCallbacks.rend(); ++callback)
    (*callback)();
  if (owner)
    owner->release(memory);
}

} // namespace loom::runtime
