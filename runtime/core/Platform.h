//===- Platform.h - The Loom platform and its devices -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The platform is the runtime's only singleton, as the ICD model requires: the loader asks the library
// for its platforms without any other state. It owns the devices of devices/DeviceList.cpp (one
// PlatformDevice handle each, never released) and the registry of live handles.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Object.h"
#include "devices/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace loom::runtime {

/// The cl_device_id of a root device: a handle around one Device implementation.
class PlatformDevice : public Object {
public:
  PlatformDevice(Device &device, unsigned index)
      : Object(ObjectKind::Device), device(device), index(index) {}
  Device &device;
  unsigned index; ///< Position in the platform's device list.
  const DeviceInfo &info() const { return device.info(); }
};

class Platform : public Object {
public:
  /// The platform, created with its devices on first use. Never destroyed: queue threads and devices
  /// may still be running while the process exits.
  static Platform &get();

  const std::vector<PlatformDevice *> &devices() const { return deviceHandles; }
  HandleRegistry &handles() { return registry; }

  /// True when LOOM_DEBUG is set: failed API checks and failed commands are logged to stderr.
  static bool debugEnabled();
  /// Logs "loom: <message>" to stderr when LOOM_DEBUG is set.
  static void debugLog(const std::string &message);

private:
  friend class Object;
  Platform() : Object(ObjectKind::Platform) {}
  HandleRegistry registry;
  std::vector<std::unique_ptr<Device>> implementations;
  std::vector<PlatformDevice *> deviceHandles;
};

} // namespace loom::runtime
