//===- Support.h - Helpers every cl* entry point uses -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Handle validation (through the platform's registry), the LOOM_CHECK macro that returns the spec's
// error code and, with LOOM_DEBUG set, logs which check failed, the clGet*Info copy-out rules, and
// event wait-list validation. Only api/ and core/Dispatch.cpp see cl_int.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Buffer.h"
#include "core/Context.h"
#include "core/Event.h"
#include "core/Kernel.h"
#include "core/Platform.h"
#include "core/Program.h"
#include "core/Queue.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <cstring>
#include <string>
#include <vector>

/// Marks the few functions the library exports (see LoomOpenCL.map).
#define LOOM_EXPORT __attribute__((visibility("default")))

/// Opens an entry point: names it for LOOM_CHECK's log.
#define LOOM_ENTRY() const char *const entryPoint = __func__

/// Returns `code` from the enclosing entry point (or check lambda) when `condition` is false.
#define LOOM_CHECK(condition, code, message)                                                         \
  do {                                                                                               \
    if (!(condition))                                                                                \
      return ::loom::runtime::api::fail(entryPoint, code, message);                                  \
  } while (0)

namespace loom::runtime::api {

/// Logs "clFoo: <message> -> CL_CODE" under LOOM_DEBUG and returns `code`.
cl_int fail(const char *entryPoint, cl_int code, const std::string &message);
/// The CL_* name of an error code, for logs.
const char *errorName(cl_int code);

template <typename T> struct HandleTraits;
template <> struct HandleTraits<Platform> { using Handle = cl_platform_id; static constexpr ObjectKind kind = ObjectKind::Platform; };
template <> struct HandleTraits<PlatformDevice> { using Handle = cl_device_id; static constexpr ObjectKind kind = ObjectKind::Device; };
template <> struct HandleTraits<Context> { using Handle = cl_context; static constexpr ObjectKind kind = ObjectKind::Context; };
template <> struct HandleTraits<Queue> { using Handle = cl_command_queue; static constexpr ObjectKind kind = ObjectKind::Queue; };
template <> struct HandleTraits<Buffer> { using Handle = cl_mem; static constexpr ObjectKind kind = ObjectKind::Buffer; };
template <> struct HandleTraits<Program> { using Handle = cl_program; static constexpr ObjectKind kind = ObjectKind::Program; };
template <> struct HandleTraits<Kernel> { using Handle = cl_kernel; static constexpr ObjectKind kind = ObjectKind::Kernel; };
template <> struct HandleTraits<Event> { using Handle = cl_event; static constexpr ObjectKind kind = ObjectKind::Event; };

/// The core object behind a handle, or null if the handle is not a live object of that family.
template <typename T> T *lookup(typename HandleTraits<T>::Handle handle) {
  if (!handle || !Platform::get().handles().isLive(handle, HandleTraits<T>::kind))
    return nullptr;
  return reinterpret_cast<T *>(handle);
}

/// The handle of a core object: the same address, since the Object header is the handle.
template <typename T> typename HandleTraits<T>::Handle handleOf(T *object) {
  return reinterpret_cast<typename HandleTraits<T>::Handle>(object);
}

/// clGet*Info: copies `size` bytes of `data` out per the spec's rules.
cl_int copyInfo(const char *entryPoint, size_t valueSize, void *value, size_t *sizeRet,
                const void *data, size_t size);

/// Builds the bytes of an info value of any trivially copyable type, string or vector.
struct InfoValue {
  std::vector<uint8_t> bytes;
  template <typename T> static InfoValue of(const T &value) {
    static_assert(std::is_trivially_copyable_v<T>);
    InfoValue info;
    info.bytes.resize(sizeof(T));
    std::memcpy(info.bytes.data(), &value, sizeof(T));
    return info;
  }
  static InfoValue string(const std::string &text) {
    InfoValue info;
    info.bytes.assign(text.begin(), text.end());
    info.bytes.push_back(0);
    return info;
  }
  template <typename T> static InfoValue array(const std::vector<T> &values) {
    InfoValue info;
    info.bytes.resize(values.size() * sizeof(T));
    if (!values.empty())
      std::memcpy(info.bytes.data(), values.data(), info.bytes.size());
    return info;
  }
  /// cl_name_version entries (OpenCL 3.0's *_WITH_VERSION queries).
  static InfoValue nameVersions(const std::vector<frontend::NamedVersion> &entries) {
    std::vector<cl_name_version> versions(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      versions[i].version = versionOf(entries[i]);
      std::strncpy(versions[i].name, entries[i].name.str().c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    }
    return array(versions);
  }
  static cl_version versionOf(const frontend::NamedVersion &entry) {
    return CL_MAKE_VERSION(entry.major, entry.minor, entry.patch);
  }
  cl_int copyOut(const char *entryPoint, size_t valueSize, void *value, size_t *sizeRet) const {
    return copyInfo(entryPoint, valueSize, value, sizeRet, bytes.data(), bytes.size());
  }
};

/// Validates an event wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT) and collects it.
cl_int collectWaitList(const char *entryPoint, const Context *context, cl_uint count,
                       const cl_event *list, std::vector<Ref<Event>> &out);

/// Creates the event of a command, submits it, hands the event to the application if asked and,
/// for a blocking command, waits. Returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when a
/// blocking command fails because of its wait list, its own error if it failed otherwise. `sync`
/// says what a marker or barrier waits for in an out-of-order queue.
cl_int submit(const char *entryPoint, Queue &queue, cl_command_type type,
              std::vector<Ref<Event>> waitList, std::function<CommandOutcome()> run, cl_event *event,
              bool blocking, Command::Sync sync = Command::Sync::None);

/// The platform's devices of `type` (CL_DEVICE_TYPE_DEFAULT: the first), in platform order.
std::vector<PlatformDevice *> devicesOfType(cl_device_type type);

/// Sets *errcode_ret if the application passed it.
inline void setError(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
}

} // namespace loom::runtime::api
