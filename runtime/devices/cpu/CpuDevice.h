//===- CpuDevice.h - The CPU device: OpenCL C JIT-compiled for the host -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Builds programs from source (or a .loom binary's CPU bitcode) into work-group functions JIT-compiled
// with ORC, and runs a launch's work-groups over a thread pool of the host's hardware threads.
//===----------------------------------------------------------------------===//
#pragma once

#include "devices/Device.h"

#include <memory>

namespace loom::runtime {

std::unique_ptr<Device> createCpuDevice();

} // namespace loom::runtime
