//===- GlobalMemory.cpp - Banks, bandwidth and latency of global memory ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "GlobalMemory.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
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
  socket.bind(*this);
}

tlm::tlm_sync_enum GlobalMemory::nb_transport_fw(tlm::tlm_generic_payload &trans, tlm::tlm_phase &,
                                                 sc_core::sc_time &) {
  trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  return tlm::TLM_COMPLETED;
}

bool GlobalMemory::get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &) {
  return false; // Every access must be timed by b_transport.
}

unsigned int GlobalMemory::transport_dbg(tlm::tlm_generic_payload &) { return 0; }

void GlobalMemory::configure(MemoryRegion memory, const board::Board &board,
                             sc_core::sc_time period) {
  memory_ = memory;
  latency_ = period * static_cast<double>(board.memory.latencyCycles);
  timeUnit_ = sc_core::sc_time::from_value(1);
  interleave_ = board.memory.interleaveBytes ? board.memory.interleaveBytes : 1;
  unsigned banks = board.memory.banks ? board.memory.banks : 1;
  bool powersOfTwo = llvm::isPowerOf2_64(interleave_) && llvm::isPowerOf2_32(banks);
  bankShift_ = powersOfTwo ? int(llvm::Log2_64(interleave_)) : -1;
  bankMask_ = banks - 1;
  double bankBytesPerCycle = board.memoryBytesPerCycle() / banks;
  busyPerByte_ = bankBytesPerCycle > 0
                     ? uint64_t(std::llround(double(period.value()) * double(1u << FixedBits) / bankBytesPerCycle))
                     : 0;
  bankFreeAt_.assign(banks, 0);
  const unsigned width = board.memory.widthBytes ? board.memory.widthBytes : 1;
  beatShift_ = llvm::isPowerOf2_32(width) ? int(llvm::Log2_32(width)) : -1;
  beatBytes_ = width;
  busyPerBeat_ = busyPerByte_ * width;
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
  const unsigned char *enables = trans.get_byte_enable_ptr();
  if (trans.is_read()) {
    copy(data, device, length);
  } else if (trans.is_write() && !enables) {
    copy(device, data, length);
  } else if (trans.is_write()) {
    const unsigned enableLength = trans.get_byte_enable_length();
    for (unsigned b = 0; b < length; ++b)
      if (enables[b % enableLength] == TLM_BYTE_ENABLED)
        device[b] = data[b];
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);

  if (busyPerByte_) {
    // The initiator's local time offset says when, within its quantum, the request was made.
    uint64_t now = uint64_t((sc_core::sc_time_stamp() + delay).value()) << FixedBits;
    uint64_t &freeAt = bankFreeAt_[bankOf(address)];
    uint64_t start = std::max(now, freeAt);
    // The bank moves whole beats: a request costs every beat it touches, however few of its bytes
    // it uses.
    freeAt = start + (beatOf(address + length - 1) - beatOf(address) + 1) * busyPerBeat_;
    uint64_t wait = (start - now + (uint64_t(1) << FixedBits) - 1) >> FixedBits;
    if (wait)
      delay += timeUnit_ * double(wait);
  }
  delay += latency_;
}

} // namespace loom::sim
