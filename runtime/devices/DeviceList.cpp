//===- DeviceList.cpp - The devices of the Loom platform, in one list -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "devices/Device.h"
#include "devices/board/BoardDevice.h"
#include "devices/cpu/CpuDevice.h"

namespace loom::runtime {

std::vector<std::unique_ptr<Device>> createDevices() {
  std::vector<std::unique_ptr<Device>> devices;
  devices.push_back(createBoardDevice());
  devices.push_back(createCpuDevice());
  return devices;
}

} // namespace loom::runtime
