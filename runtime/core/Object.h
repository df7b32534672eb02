//===- Object.h - What every cl_* handle points at: header, counts, registry -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A cl_* handle is the address of a core object whose first member is the ICD dispatch pointer (the
// loader reads it at offset 0), then a magic number naming the object family. Core objects are never
// polymorphic, so this header stays at offset 0. Handles are validated through the platform's registry
// of live objects before anything is read from them: a NULL, garbage or released handle is simply not
// in the registry, so the API answers CL_INVALID_* without dereferencing it.
//
// Two counts per object: `userRefs` is the spec's reference count (clRetain*/clRelease*); when it
// reaches zero the handle leaves the registry. `internalRefs` keeps the memory alive while other
// objects or queued commands still use it (a queue holds its context, an event its queue).
//
// Through the ICD loader a released handle is dereferenced (for its dispatch pointer) before Loom
// sees it, so destroyed objects are not returned to malloc at once: their memory stays a tombstone
// holding the dispatch pointer and ObjectKind::Dead, in a quarantine of the most recent ones.
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <type_traits>
#include <unordered_set>
#include <utility>

namespace loom::runtime {

/// The magic numbers; distinct per family so a handle of one family is rejected as another.
enum class ObjectKind : uint32_t {
  Platform = 0x4c4f4f01,
  Device,
  Context,
  Queue,
  Buffer,
  Program,
  Kernel,
  Event,
  Dead = 0xdeaddead, ///< Written into an object just before its memory is freed.
};

/// The cl_icd_dispatch table; defined in core/Dispatch.cpp, the only file that knows its layout.
const void *icdDispatchTable();

class Object {
public:
  const void *const dispatch; ///< Must stay the first member: the ICD loader reads it.
  ObjectKind magic;

  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  /// clRetain*: one more user reference.
  void retainUser() { userRefs.fetch_add(1, std::memory_order_relaxed); }
  /// clRelease*: true when this call dropped the last user reference. The caller then runs any
  /// family-specific shutdown and calls retire().
  bool releaseUser() { return userRefs.fetch_sub(1, std::memory_order_acq_rel) == 1; }
  /// After the last user reference: the handle becomes invalid, the memory lives on while internal
  /// references remain.
  void retire();
  uint32_t userReferenceCount() const { return userRefs.load(std::memory_order_relaxed); }

  void retainInternal() { internalRefs.fetch_add(1, std::memory_order_relaxed); }
  void releaseInternal() {
    if (internalRefs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      magic = ObjectKind::Dead;
      destroy(this);
    }
  }

  /// Allocates a T, registers its handle and returns it with one user reference.
  template <typename T, typename... Args> static T *create(Args &&...args) {
    static_assert(std::is_base_of_v<Object, T> && !std::is_polymorphic_v<T>,
                  "handles must start with the Object header, so no vtable");
    T *object = new T(std::forward<Args>(args)...);
    object->destroy = [](Object *o) {
      const void *table = o->dispatch;
      static_cast<T *>(o)->~T();
      bury(o, table);
    };
    object->registerHandle();
    return object;
  }

protected:
  explicit Object(ObjectKind kind) : dispatch(icdDispatchTable()), magic(kind) {}
  ~Object() = default;

private:
  void registerHandle();
  /// Keeps a destroyed object's memory as a tombstone (dispatch pointer, Dead magic) for a while.
  static void bury(void *memory, const void *table);
  std::atomic<uint32_t> userRefs{1};
  std::atomic<uint32_t> internalRefs{1}; ///< 1 stands for "user references remain".
  void (*destroy)(Object *) = nullptr;
};

/// The set of live handles. Lookups take a lock; the API validates every handle through it.
class HandleRegistry {
public:
  void add(const Object *object);
  void remove(const Object *object);
  /// True when `handle` is a live object of family `kind`.
  bool isLive(const void *handle, ObjectKind kind) const;
  /// Takes a tombstone; frees the oldest one beyond the quarantine's capacity.
  void quarantine(void *memory);

private:
  static constexpr size_t QuarantineCapacity = 4096;
  mutable std::mutex mutex;
  std::unordered_set<const void *> live;
  std::deque<void *> tombstones;
};

/// An internal (not user-visible) reference, like a small intrusive shared pointer.
template <typename T> class Ref {
public:
  Ref() = default;
  explicit Ref(T *object) : object(object) {
    if (object)
      object->retainInternal();
  }
  Ref(const Ref &other) : Ref(other.object) {}
  Ref(Ref &&other) noexcept : object(std::exchange(other.object, nullptr)) {}
  Ref &operator=(Ref other) {
    std::swap(object, other.object);
    return *this;
  }
  ~Ref() {
    if (object)
      object->releaseInternal();
  }
  T *get() const { return object; }
  T *operator->() const { return object; }
  T &operator*() const { return *object; }
  explicit operator bool() const { return object != nullptr; }

private:
  T *object = nullptr;
};

} // namespace loom::runtime
