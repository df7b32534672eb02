//===- Context.h - A context: devices, properties, the error callback -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A context groups devices that share buffers. Buffers are allocated once, from the context's
// memory device: the first accelerator if there is one (its memory is a host-visible shared
// mapping the CPU device can use as well), otherwise the first device.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Platform.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace loom::runtime {

class Context : public Object {
public:
  /// Receives asynchronous error reports (the pfn_notify of clCreateContext).
  using Notify = std::function<void(const std::string &message)>;

  Context(std::vector<PlatformDevice *> devices, std::vector<intptr_t> properties, Notify notify)
      : Object(ObjectKind::Context), devices(std::move(devices)), properties(std::move(properties)),
        notify(std::move(notify)) {}
  /// Runs the destructor callbacks, newest first, as clSetContextDestructorCallback promises.
  ~Context();

  const std::vector<PlatformDevice *> devices;
  const std::vector<intptr_t> properties; ///< As given, including the terminating 0 (empty if none).

  bool hasDevice(const PlatformDevice *device) const;
  /// The device whose Device::allocate backs this context's buffers.
  PlatformDevice &memoryDevice() const;
  /// Smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE over the context's devices.
  uint64_t maxAllocBytes() const;
  /// Reports an asynchronous error through the user's callback, if any.
  void report(const std::string &message) const;
  /// Adds a callback the destructor runs, once every object holding the context has let it go.
  void addDestructorCallback(std::function<void()> callback);

private:
  const Notify notify;
  std::mutex destructorMutex;
  std::vector<std::function<void()>> destructorCallbacks;
};

} // namespace loom::runtime
