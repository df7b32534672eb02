//===- Platform.cpp - The platform singleton and the handle registry ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Creates the devices once, on the first API call, and keeps the set of live handles that every
// entry point validates against.
//===----------------------------------------------------------------------===//
#include "core/Platform.h"

#include <cstdio>
#include <new>
#include <cstdlib>

namespace loom::runtime {

void Object::registerHandle() { Platform::get().handles().add(this); }

void Object::retire() {
  Platform::get().handles().remove(this);
  releaseInternal();
}

void Object::bury(void *memory, const void *table) {
  struct Tombstone {
    const void *dispatch;
    ObjectKind magic;
  };
  new (memory) Tombstone{table, ObjectKind::Dead};
  Platform::get().handles().quarantine(memory);
}

void HandleRegistry::quarantine(void *memory) {
  void *oldest = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    tombstones.push_back(memory);
    if (tombstones.size() > QuarantineCapacity) {
      oldest = tombstones.front();
      tombstones.pop_front();
    }
  }
  ::operator delete(oldest);
}

void HandleRegistry::add(const Object *object) {
  std::lock_guard<std::mutex> lock(mutex);
  live.insert(object);
}

void HandleRegistry::remove(const Object *object) {
  std::lock_guard<std::mutex> lock(mutex);
  live.erase(object);
}

bool HandleRegistry::isLive(const void *handle, ObjectKind kind) const {
  if (!handle)
    return false;
  std::lock_guard<std::mutex> lock(mutex);
  // Only a registered address is read, so garbage and freed handles are never dereferenced.
  return live.count(handle) && static_cast<const Object *>(handle)->magic == kind;
}

Platform &Platform::get() {
  static Platform *platform = [] {
    auto *p = new Platform;
    p->registry.add(p);
    p->implementations = createDevices();
    for (unsigned i = 0; i < p->implementations.size(); ++i) {
      auto *handle = new PlatformDevice(*p->implementations[i], i);
      p->registry.add(handle);
      p->deviceHandles.push_back(handle);
    }
    return p;
  }();
  return *platform;
}

bool Platform::debugEnabled() {
  static const bool enabled = [] {
    const char *value = std::getenv("LOOM_DEBUG");
    return value && *value && std::string(value) != "0";
  }();
  return enabled;
}

void Platform::debugLog(const std::string &message) {
  if (debugEnabled())
    std::fprintf(stderr, "loom: %s\n", message.c_str());
}

} // namespace loom::runtime
