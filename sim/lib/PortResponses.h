//===- PortResponses.h - Memory responses on their way back to the model -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The board model and the bare harness answer the model's memory ports the same way: a request fired
// at cycle c is answered at c + wait, responses of a port come back in request order and at most one
// per cycle. Inline: both loops call it every simulated cycle.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/sim/ModelABI.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace loom::sim {

class PortResponses {
public:
  explicit PortResponses(unsigned ports) : queues_(ports), lastAt_(ports, 0), delivered_(ports, 0) {}

  /// Sets every port's response inputs for `cycle`; returns whether any response was delivered.
  bool deliver(std::vector<LoomPort> &ports, uint64_t cycle) {
    bool any = false;
    for (size_t p = 0; p < queues_.size(); ++p) {
      auto &queue = queues_[p];
      if (!queue.empty() && queue.front().cycle <= cycle) {
        ports[p].resp_valid = 1;
        ports[p].resp_rdata = queue.front().data;
        queue.pop_front();
        ++delivered_[p];
        any = true;
      } else {
        ports[p].resp_valid = 0;
      }
    }
    return any;
  }

  /// Queues the answer to a request port `port` fired at `cycle`, due `wait` (>= 1) cycles later.
  void schedule(unsigned port, uint64_t cycle, uint64_t wait, uint64_t data) {
    uint64_t at = std::max(cycle + wait, lastAt_[port] + 1);
    lastAt_[port] = at;
    queues_[port].push_back({at, data});
  }

  /// Responses delivered on `port` so far.
  uint64_t delivered(unsigned port) const { return delivered_[port]; }

private:
  struct Pending {
    uint64_t cycle;
    uint64_t data;
  };
  std::vector<std::deque<Pending>> queues_;
  std::vector<uint64_t> lastAt_;
  std::vector<uint64_t> delivered_;
};

} // namespace loom::sim
