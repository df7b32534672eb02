//===- GlobalMemory.h - The board's global memory as a TLM-2.0 target -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A loosely-timed target over the device-memory mapping. Data moves at the call (the kernel sees its
// own stores at once); the returned delay models the board: the request's bank is
// (address / interleave) % banks, each bank moves bandwidth / banks, a request occupies its bank for
// bytes / bank-bandwidth, and the delay is the wait for the bank plus the fixed latency. Bandwidth 0
// means no bank is ever busy. Accesses outside the region get TLM_ADDRESS_ERROR_RESPONSE.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/board/Board.h"
#include "loom/sim/BoardSimulation.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace loom::sim {

class GlobalMemory : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<GlobalMemory> socket;

  explicit GlobalMemory(sc_core::sc_module_name name);

  /// Points the target at a memory region and a board's figures; clears the banks' queues.
  void configure(MemoryRegion memory, const board::Board &board, sc_core::sc_time period);

private:
  void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);

  MemoryRegion memory_;
  sc_core::sc_time period_;
  sc_core::sc_time latency_;
  uint64_t interleave_ = 4096;
  double bankBytesPerCycle_ = 0; ///< 0: unlimited.
  std::vector<double> bankFreeAt_; ///< Absolute time, in cycles, when each bank is next free.
};

} // namespace loom::sim
