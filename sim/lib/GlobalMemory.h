//===- GlobalMemory.h - The board's global memory as a TLM-2.0 target -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A loosely-timed target over the device-memory mapping. Data moves at the call (the kernel sees its
// own stores at once); the returned delay models the board: the request's bank is
// (address / interleave) % banks, each bank moves bandwidth / banks in beats of the memory's width, a
// request occupies its bank for the beats it touches (a 4-byte read costs a whole beat) over the bank's
// bandwidth, and the delay is the wait for the bank plus the fixed latency. Bandwidth 0 means no bank
// is ever busy. Writes honour TLM byte enables. Accesses outside the region get
// TLM_ADDRESS_ERROR_RESPONSE.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/board/Board.h"
#include "loom/sim/BoardSimulation.h"

#include <systemc>
#include <tlm>

#include <vector>

namespace loom::sim {

/// The module implements the forward interface itself (a plain tlm_target_socket bound to it), which
/// saves simple_target_socket's extra indirection on every request.
class GlobalMemory : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
public:
  tlm::tlm_target_socket<> socket;

  explicit GlobalMemory(sc_core::sc_module_name name);

  /// Points the target at a memory region and a board's figures; clears the banks' queues.
  void configure(MemoryRegion memory, const board::Board &board, sc_core::sc_time period);

  // tlm_fw_transport_if: loosely timed, blocking transport only.
  void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload &trans, tlm::tlm_phase &phase,
                                     sc_core::sc_time &delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload &trans) override;

private:
  unsigned bankOf(uint64_t address) const {
    if (bankShift_ >= 0)
      return unsigned(address >> bankShift_) & bankMask_;
    return unsigned((address / interleave_) % bankFreeAt_.size());
  }

  uint64_t beatOf(uint64_t address) const {
    return beatShift_ >= 0 ? address >> beatShift_ : address / beatBytes_;
  }

  // b_transport runs once per memory request: its arithmetic is integer and division-free. Times are
  // in SystemC time units scaled by 2^FixedBits, so fractional bank occupancies add up exactly enough.
  static constexpr unsigned FixedBits = 12;

  MemoryRegion memory_;
  sc_core::sc_time latency_;
  sc_core::sc_time timeUnit_;      ///< One SystemC time unit (the resolution).
  uint64_t interleave_ = 4096;
  int bankShift_ = -1;             ///< log2(interleave) when interleave and bank count are powers of 2.
  unsigned bankMask_ = 0;
  uint64_t beatBytes_ = 64;        ///< The memory's width: the bytes one beat moves.
  int beatShift_ = 6;              ///< log2(beatBytes_) when a power of 2, else -1.
  uint64_t busyPerByte_ = 0;       ///< Bank occupancy per byte, fixed point; 0: unlimited bandwidth.
  uint64_t busyPerBeat_ = 0;       ///< The same per beat.
  std::vector<uint64_t> bankFreeAt_; ///< When each bank is next free, fixed point.
};

} // namespace loom::sim
