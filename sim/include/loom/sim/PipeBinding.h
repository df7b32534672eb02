//===- PipeBinding.h - A pipe object bound to a kernel's pipe port -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by the board simulation and the protocol (which the runtime links without SystemC).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace loom::sim {

/// The pipe object a launch binds to one of its kernel's pipe ports (hls::PipePort): the board keeps
/// one FIFO per pipe, created at its first launch and kept, with its packets, for later ones.
struct PipeBinding {
  uint64_t id = 0;          ///< Names the pipe (the runtime's pipe object).
  uint32_t depth = 0;       ///< Packets the FIFO holds (clCreatePipe's pipe_max_packets).
  uint32_t packetBytes = 0; ///< Must be the kernel's pipe argument's.
};

} // namespace loom::sim
