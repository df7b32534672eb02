//===- GlobalMemory.cpp - Banks, bandwidth and latency of global memory ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "GlobalMemory.h"

#include <algorithm>
#include <cstring>

namespace loom::sim {
namespace {

/// Fixed-size copies for the port widths, so the common case inlines instead of calling memcpy.
inline void copy(void *to, const void *from, unsigned length) {
  switch (length) {
  case 1: std::memcpy(to, from, 1); break;
  case 2: std::memcpy(to, from, 2); break;
  case 4: std::memcpy(to, from, 4); break;
  case 8: std::memcpy(to, from, 8); break;
  default: std::memcpy(to, from, length); break;
  }
}

} // namespace

GlobalMemory::GlobalMemory(sc_core::sc_module_name name)
    : sc_core::sc_module(name), socket("socket") {
  socket.register_b_transport(this, &GlobalMemory::b_transport);
}

void GlobalMemory::configure(MemoryRegion memory, const board::Board &board,
                             sc_core::sc_time period) {
  memory_ = memory;
  period_ = period;
  latency_ = period * static_cast<double>(board.memory.latencyCycles);
  interleave_ = board.memory.interleaveBytes ? board.memory.interleaveBytes : 1;
  unsigned banks = board.memory.banks ? board.memory.banks : 1;
  bankBytesPerCycle_ = board.memoryBytesPerCycle() / banks;
  bankFreeAt_.assign(banks, 0.0);
}

void GlobalMemory::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
  uint64_t address = trans.get_address();
  unsigned length = trans.get_data_length();
  if (length == 0 || address >= memory_.size || length > memory_.size - address) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint8_t *device = memory_.base + address;
  unsigned char *data = trans.get_data_ptr();
  if (trans.is_read())
    copy(data, device, length);
  else if (trans.is_write())
    copy(device, data, length);

  if (bankBytesPerCycle_ <= 0) {
    delay += latency_; // unlimited bandwidth: the fixed latency only
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }

  // The initiator's local time offset says when, within its quantum, the request was made.
  double now = (sc_core::sc_time_stamp() + delay) / period_;
  size_t bank = (address / interleave_) % bankFreeAt_.size();
  double start = std::max(now, bankFreeAt_[bank]);
  bankFreeAt_[bank] = start + length / bankBytesPerCycle_;
  delay += period_ * (start - now) + latency_;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace loom::sim
