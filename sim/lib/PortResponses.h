//===- PortResponses.h - Memory responses on their way back to the model -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The board model and the bare harness answer the model's memory ports the same way: a request fired
// at cycle c is answered at c + wait, responses of a port come back in request order and at most one
// per cycle. Inline: both loops call it every simulated cycle.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/hls/HardwareKernel.h"
#include "loom/sim/ModelABI.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

namespace loom::sim {

static_assert(LOOM_PORT_WORDS * 8 == hls::MaxPortBytes, "a LoomPort carries the widest request of a port");

class PortResponses {
public:
  explicit PortResponses(const std::vector<hls::MemoryPort> &ports)
      : queues_(ports.size()), lastAt_(ports.size(), 0), delivered_(ports.size(), 0) {
    for (const hls::MemoryPort &port : ports)
      words_.push_back(port.readsData() ? (port.bytes + 7) / 8 : 0);
  }

  /// Sets every port's response inputs for `cycle`; returns whether any response was delivered.
  bool deliver(std::vector<LoomPort> &ports, uint64_t cycle) {
    bool any = false;
    for (size_t p = 0; p < queues_.size(); ++p) {
      auto &queue = queues_[p];
      if (!queue.empty() && queue.front().cycle <= cycle) {
        ports[p].resp_valid = 1;
        std::memcpy(ports[p].resp_rdata, queue.front().data.data(), words_[p] * sizeof(uint64_t));
        queue.pop_front();
        ++delivered_[p];
        any = true;
      } else {
        ports[p].resp_valid = 0;
      }
    }
    return any;
  }

  /// Queues the answer to a request port `port` fired at `cycle`, due `wait` (>= 1) cycles later: the
  /// port's words of `data` (none for a store port).
  void schedule(unsigned port, uint64_t cycle, uint64_t wait, const uint64_t *data) {
    uint64_t at = std::max(cycle + wait, lastAt_[port] + 1);
    lastAt_[port] = at;
    Pending &pending = queues_[port].emplace_back();
    pending.cycle = at;
    std::memcpy(pending.data.data(), data, words_[port] * sizeof(uint64_t));
  }

  /// Responses delivered on `port` so far.
  uint64_t delivered(unsigned port) const { return delivered_[port]; }

private:
  struct Pending {
    uint64_t cycle;
    std::array<uint64_t, LOOM_PORT_WORDS> data;
  };
  std::vector<std::deque<Pending>> queues_;
  std::vector<unsigned> words_;
  std::vector<uint64_t> lastAt_;
  std::vector<uint64_t> delivered_;
};

} // namespace loom::sim
