//===- RunStats.h - What a finished kernel launch reports -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by the board simulation, which produces it, and the protocol, which carries it to the
// runtime; kept apart so the runtime's side needs neither SystemC nor Verilator headers.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

namespace loom::sim {

/// Traffic of one memory port during a launch.
struct PortStats {
  uint64_t requests = 0;
  uint64_t bytes = 0;
};

struct RunStats {
  uint64_t cycles = 0;    ///< From the cycle sampling start to the one raising done, inclusive.
  double simulatedNs = 0; ///< cycles x the board's clock period.
  std::vector<PortStats> ports;
};

} // namespace loom::sim
