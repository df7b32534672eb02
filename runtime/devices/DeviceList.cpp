//===- DeviceList.cpp - The devices of the Loom platform, in one list -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "devices/Device.h"
#include "devices/board/BoardDevice.h"
#include "devices/cpu/CpuDevice.h"

namespace loom::runtime {

llvm::Expected<std::unique_ptr<DeviceProgram>>
Device::buildFromSource(llvm::StringRef, llvm::StringRef, std::string &log) {
  log = info().name + " builds programs offline: compile with loomc and load the binary with "
                      "clCreateProgramWithBinary";
  return llvm::createStringError(llvm::inconvertibleErrorCode(), log);
}

std::vector<std::unique_ptr<Device>> createDevices() {
  std::vector<std::unique_ptr<Device>> devices;
  devices.push_back(createBoardDevice());
  devices.push_back(createCpuDevice());
  return devices;
}

} // namespace loom::runtime
