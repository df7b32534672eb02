//===- BoardDevice.h - The simulated FPGA board as a Loom device -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The board named by LOOM_BOARD (default: "default"). Device memory is one memfd the size of the
// board's global memory, mapped shared by the host and by every loom-board process, so buffers exist
// once. Programs are .loom binaries built for this board, loaded as they are or built from source
// by the offline flow (cached on disk, see ProgramCache.h); each loaded program runs in its own
// loom-board process (LOOM_BOARD_EXECUTABLE overrides where it is found).
//===----------------------------------------------------------------------===//
#pragma once

#include "devices/Device.h"

#include <memory>

namespace loom::runtime {

std::unique_ptr<Device> createBoardDevice();

} // namespace loom::runtime
