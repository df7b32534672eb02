//===- Context.cpp - Context device queries and error reports -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The few decisions a context makes for its objects: which device allocates buffers, and where
// asynchronous errors go.
//===----------------------------------------------------------------------===//
#include "core/Context.h"

#include <algorithm>

namespace loom::runtime {

bool Context::hasDevice(const PlatformDevice *device) const {
  return std::find(devices.begin(), devices.end(), device) != devices.end();
}

PlatformDevice &Context::memoryDevice() const {
  for (PlatformDevice *device : devices)
    if (device->info().kind == DeviceKind::Accelerator)
      return *device;
  return *devices.front();
}

uint64_t Context::maxAllocBytes() const {
  uint64_t limit = UINT64_MAX;
  for (PlatformDevice *device : devices)
    limit = std::min(limit, device->info().maxAllocBytes);
  return limit;
}

void Context::report(const std::string &message) const {
  Platform::debugLog(message);
  if (notify)
    notify(message);
}

Context::~Context() {
  for (auto callback = destructorCallbacks.rbegin(); callback != destructorCallbacks.rend(); ++callback)
    (*callback)();
}

void Context::addDestructorCallback(std::function<void()> callback) {
  std::lock_guard<std::mutex> lock(destructorMutex);
  destructorCallbacks.push_back(std::move(callback));
}

} // namespace loom::runtime
