// SPDX-License-Identifier: Apache-2.0
// Verilated tests of loom_load and loom_store against a memory model that accepts requests at
// random, answers in order after a random latency and never waits for the port; and of a load
// behind loom_skip_merge, whose items with a false predicate make no request.

#include "RtlTestSupport.h"

#include "Vload1.h"
#include "Vload3.h"
#include "Vload8.h"
#include "Vload8w64.h"
#include "Vpredicated_load.h"
#include "Vstore1.h"
#include "Vstore5.h"
#include "Vstore8.h"
#include "Vstore5_posted.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <vector>

using loomrtl::Rng;
using loomrtl::Sim;

namespace {

struct Traffic {
  int items = 2000;
  double pIn = 0.8;       // producer offers a new address
  double pReqReady = 0.7; // memory accepts a request
  double pOut = 0.7;      // consumer takes a result
  int latMin = 1, latMax = 12;
  int stallCycles = 0; // consumer refuses everything for this many cycles first
};

struct Outcome {
  int delivered = 0;
  uint64_t maxUsed = 0;       // max (issued - delivered) seen
  uint64_t usedAfterStall = 0;
  uint64_t cycles = 0;
  int violations = 0;
};

/// In-order memory with random latency: a response is due at max(issue + latency, previous + 1).
struct MemoryModel {
  std::deque<std::pair<uint64_t, uint64_t>> pending; // (due cycle, address)
  uint64_t lastDue = 0;
  bool respondNow(uint64_t cycle) const { return !pending.empty() && pending.front().first <= cycle; }
  void request(uint64_t cycle, uint64_t addr, int latency) {
    lastDue = std::max(cycle + static_cast<uint64_t>(latency), lastDue + 1);
    pending.emplace_back(lastDue, addr);
  }
};

uint64_t wordFor(uint64_t addr) { return addr * 0x9e3779b97f4a7c15ull ^ (addr >> 29); }

template <class M> Outcome runLoad(const Traffic &t, int credits, uint64_t dataMask, uint32_t seed) {
  Sim<M> sim(seed);
  Rng rng(seed);
  MemoryModel mem;
  std::vector<uint64_t> issuedAddrs;
  Outcome o;
  int sent = 0;
  bool holding = false;
  uint64_t addr = 0;
  for (uint64_t cycle = 0; o.delivered < t.items && cycle < static_cast<uint64_t>(t.items) * 60; ++cycle) {
    const bool stalled = cycle < static_cast<uint64_t>(t.stallCycles);
    if (!holding && sent < t.items && rng.coin(t.pIn)) {
      holding = true;
      addr = rng.u64();
    }
    sim->in_valid = holding;
    sim->in_addr = addr;
    sim->out_ready = !stalled && rng.coin(t.pOut);
    const bool respond = mem.respondNow(cycle);
    sim->m_resp_valid = respond;
    sim->m_resp_rdata = (respond ? wordFor(mem.pending.front().second) : rng.u64()) & dataMask;
    // m_req_valid must not depend on m_req_ready.
    const bool reqReady = stalled || rng.coin(t.pReqReady);
    sim->m_req_ready = !reqReady;
    sim.eval();
    const bool reqValidOther = sim->m_req_valid;
    sim->m_req_ready = reqReady;
    sim.eval();
    if (reqValidOther != static_cast<bool>(sim->m_req_valid))
      ++o.violations;

    const bool issue = sim->m_req_valid && sim->m_req_ready;
    const bool accept = holding && sim->in_ready;
    if (issue != accept) // requests pass straight through: one per accepted address
      ++o.violations;
    if (issue) {
      if (sim->m_req_addr != addr)
        ++o.violations;
      mem.request(cycle, addr, rng.range(t.latMin, t.latMax));
      issuedAddrs.push_back(addr);
    }
    if (accept) {
      holding = false;
      ++sent;
    }
    if (respond)
      mem.pending.pop_front();
    if (sim->out_valid && sim->out_ready) {
      if (o.delivered >= static_cast<int>(issuedAddrs.size()) ||
          sim->out_data != (wordFor(issuedAddrs[o.delivered]) & dataMask))
        ++o.violations;
      ++o.delivered;
    }
    o.maxUsed = std::max<uint64_t>(o.maxUsed, issuedAddrs.size() - o.delivered);
    if (cycle + 1 == static_cast<uint64_t>(t.stallCycles))
      o.usedAfterStall = issuedAddrs.size() - o.delivered;
    sim.tick();
    o.cycles = cycle + 1;
  }
  CHECK(o.maxUsed <= static_cast<uint64_t>(credits));
  CHECK(mem.pending.empty());
  return o;
}

/// posted: loom_store with POSTED (a token per accepted store, drained while nothing is unacknowledged).
template <class M> Outcome runStore(const Traffic &t, int credits, uint32_t seed, bool posted = false) {
  Sim<M> sim(seed);
  Rng rng(seed);
  MemoryModel mem;
  std::vector<std::pair<uint64_t, uint32_t>> stores, written;
  Outcome o;
  int sent = 0, acked = 0;
  bool holding = false;
  uint64_t addr = 0;
  uint32_t data = 0;
  for (uint64_t cycle = 0; (o.delivered < t.items || acked < t.items) && cycle < static_cast<uint64_t>(t.items) * 60;
       ++cycle) {
    const bool stalled = cycle < static_cast<uint64_t>(t.stallCycles);
    if (!holding && sent < t.items && rng.coin(t.pIn)) {
      holding = true;
      addr = rng.u64();
      data = rng.u32();
    }
    if (static_cast<bool>(sim->drained) != (!posted || acked == static_cast<int>(written.size())))
      ++o.violations;
    sim->in_valid = holding;
    sim->in_addr = addr;
    sim->in_data = data;
    sim->out_ready = !stalled && rng.coin(t.pOut);
    const bool respond = mem.respondNow(cycle);
    sim->m_resp_valid = respond;
    const bool reqReady = stalled || rng.coin(t.pReqReady);
    sim->m_req_ready = !reqReady;
    sim.eval();
    const bool reqValidOther = sim->m_req_valid;
    sim->m_req_ready = reqReady;
    sim.eval();
    if (reqValidOther != static_cast<bool>(sim->m_req_valid))
      ++o.violations;

    const bool issue = sim->m_req_valid && sim->m_req_ready;
    const bool accept = holding && sim->in_ready;
    if (issue != accept)
      ++o.violations;
    if (issue) {
      if (sim->m_req_addr != addr || sim->m_req_wdata != data)
        ++o.violations;
      mem.request(cycle, addr, rng.range(t.latMin, t.latMax));
      written.emplace_back(sim->m_req_addr, sim->m_req_wdata);
    }
    if (accept) {
      stores.emplace_back(addr, data);
      holding = false;
      ++sent;
    }
    if (respond) {
      mem.pending.pop_front();
      ++acked;
    }
    if (sim->out_valid && sim->out_ready) {
      // A token only once its store was acknowledged (this cycle at the latest); posted: once it
      // was accepted (at an earlier edge).
      if (o.delivered >= (posted ? static_cast<int>(written.size()) - issue : acked))
        ++o.violations;
      ++o.delivered;
    }
    // Credits: stores not acknowledged (posted) or whose token is not delivered, and tokens waiting.
    const uint64_t used = written.size() - (posted ? acked : o.delivered);
    o.maxUsed = std::max<uint64_t>(o.maxUsed, std::max<uint64_t>(used, written.size() - o.delivered));
    if (cycle + 1 == static_cast<uint64_t>(t.stallCycles))
      o.usedAfterStall = written.size() - o.delivered;
    sim.tick();
    o.cycles = cycle + 1;
  }
  CHECK(stores == written);
  CHECK(acked == t.items);
  CHECK(o.maxUsed <= static_cast<uint64_t>(credits));
  // No token beyond one per store.
  sim->out_ready = 1;
  sim->m_resp_valid = 0;
  for (int i = 0; i < 5; ++i) {
    sim.eval();
    CHECK_FALSE(sim->out_valid);
    sim.tick();
  }
  return o;
}

template <class M> void loadSuite(int credits, uint64_t mask) {
  SECTION("random back-pressure and latency") {
    for (uint32_t seed : {1u, 2u, 3u}) {
      Traffic t;
      t.pIn = 0.5 + 0.2 * seed;
      Outcome o = runLoad<M>(t, credits, mask, seed);
      CHECK(o.violations == 0);
      CHECK(o.delivered == t.items);
      CHECK(o.maxUsed == static_cast<uint64_t>(credits)); // the credits are actually used
    }
  }
  SECTION("a stalled consumer stops requests at exactly CREDITS and loses nothing") {
    Traffic t;
    t.items = 300;
    t.pIn = 1.0;
    t.stallCycles = 100;
    Outcome o = runLoad<M>(t, credits, mask, 9);
    CHECK(o.violations == 0);
    CHECK(o.delivered == t.items);
    CHECK(o.usedAfterStall == static_cast<uint64_t>(credits));
  }
}

template <class M> void storeSuite(int credits, bool posted = false) {
  SECTION("random back-pressure and latency") {
    for (uint32_t seed : {4u, 5u, 6u}) {
      Traffic t;
      t.pIn = 0.5 + 0.15 * (seed - 3);
      Outcome o = runStore<M>(t, credits, seed, posted);
      CHECK(o.violations == 0);
      CHECK(o.delivered == t.items);
      CHECK(o.maxUsed == static_cast<uint64_t>(credits));
    }
  }
  SECTION("a stalled consumer stops requests at exactly CREDITS") {
    Traffic t;
    t.items = 300;
    t.pIn = 1.0;
    t.stallCycles = 100;
    Outcome o = runStore<M>(t, credits, 10, posted);
    CHECK(o.violations == 0);
    CHECK(o.delivered == t.items);
    CHECK(o.usedAfterStall == static_cast<uint64_t>(credits));
  }
}

Traffic fullRateTraffic() {
  Traffic t;
  t.items = 1000;
  t.pIn = t.pReqReady = t.pOut = 1.0;
  t.latMin = t.latMax = 4;
  return t;
}

} // namespace

TEST_CASE("loom_load CREDITS=1", "[rtl][load]") { loadSuite<Vload1>(1, 0xffffffffull); }
TEST_CASE("loom_load CREDITS=3", "[rtl][load]") { loadSuite<Vload3>(3, 0xffffffffull); }
TEST_CASE("loom_load CREDITS=8", "[rtl][load]") { loadSuite<Vload8>(8, 0xffffffffull); }
TEST_CASE("loom_load CREDITS=8 DW=64", "[rtl][load]") { loadSuite<Vload8w64>(8, ~0ull); }

TEST_CASE("loom_load issues one request per cycle when credits cover the round trip", "[rtl][load]") {
  // Latency 4: a credit is busy for 4 + 1 cycles, so 8 credits sustain the full rate with room.
  const Traffic t = fullRateTraffic();
  Outcome o = runLoad<Vload8>(t, 8, 0xffffffffull, 11);
  CHECK(o.violations == 0);
  CHECK(o.delivered == t.items);
  CHECK(o.cycles <= static_cast<uint64_t>(t.items) + 8);
}

TEST_CASE("loom_store CREDITS=1", "[rtl][store]") { storeSuite<Vstore1>(1); }
TEST_CASE("loom_store CREDITS=5", "[rtl][store]") { storeSuite<Vstore5>(5); }
TEST_CASE("loom_store CREDITS=8", "[rtl][store]") { storeSuite<Vstore8>(8); }
TEST_CASE("loom_store CREDITS=5 POSTED", "[rtl][store]") { storeSuite<Vstore5_posted>(5, true); }

TEST_CASE("loom_store issues one request per cycle when credits cover the round trip", "[rtl][store]") {
  const Traffic t = fullRateTraffic();
  Outcome o = runStore<Vstore8>(t, 8, 12);
  CHECK(o.violations == 0);
  CHECK(o.delivered == t.items);
  CHECK(o.cycles <= static_cast<uint64_t>(t.items) + 8);
}

TEST_CASE("a load behind loom_skip_merge skips false predicates and keeps the order", "[rtl][load]") {
  for (uint32_t seed : {21u, 22u, 23u}) {
    Sim<Vpredicated_load> sim(seed);
    Rng rng(seed);
    MemoryModel mem;
    std::deque<std::pair<bool, uint64_t>> accepted; // (predicate, address) in arrival order
    std::deque<uint64_t> requested;                 // addresses of real items not yet requested
    int sent = 0, delivered = 0, violations = 0;
    const int items = 3000;
    bool holding = false, pred = false;
    uint64_t addr = 0;
    for (uint64_t cycle = 0; delivered < items && cycle < uint64_t(items) * 60; ++cycle) {
      if (!holding && sent < items && rng.coin(0.8)) {
        holding = true;
        addr = rng.u64();
        pred = rng.coin(0.5);
      }
      sim->in_valid = holding;
      sim->in_addr = addr;
      sim->in_pred = pred;
      sim->out_ready = rng.coin(0.7);
      const bool respond = mem.respondNow(cycle);
      sim->m_resp_valid = respond;
      sim->m_resp_rdata = respond ? uint32_t(wordFor(mem.pending.front().second)) : rng.u32();
      sim->m_req_ready = rng.coin(0.7);
      sim.eval();
      // A real item's request leaves in the cycle it is accepted.
      if (holding && sim->in_ready) {
        accepted.emplace_back(pred, addr);
        if (pred)
          requested.push_back(addr);
        holding = false;
        ++sent;
      }
      if (sim->m_req_valid && sim->m_req_ready) {
        // Only predicated-on items reach memory, in order.
        if (requested.empty() || sim->m_req_addr != requested.front())
          ++violations;
        else
          requested.pop_front();
        mem.request(cycle, sim->m_req_addr, rng.range(1, 12));
      }
      if (respond)
        mem.pending.pop_front();
      if (sim->out_valid && sim->out_ready) {
        if (accepted.empty()) {
          ++violations;
        } else {
          auto [wasReal, itemAddr] = accepted.front();
          accepted.pop_front();
          if (sim->out_data != (wasReal ? uint32_t(wordFor(itemAddr)) : 0u))
            ++violations;
        }
        ++delivered;
      }
      sim.tick();
    }
    INFO("seed " << seed);
    CHECK(violations == 0);
    CHECK(delivered == items);
  }
}
