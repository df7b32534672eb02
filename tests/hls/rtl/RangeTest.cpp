// SPDX-License-Identifier: Apache-2.0
// Verilated tests of loom_workitems (NDRange enumeration, the limit of work-items in flight, a
// compute unit's blocks) and loom_completion (token counting).

#include "RtlTestSupport.h"

#include "Vcompletion.h"
#include "Vcompletion_step4.h"
#include "Vworkitems.h"
#include "Vworkitems_interleaved.h"
#include "Vworkitems_step4.h"
#include "Vworkitems_limit2.h"
#include "Vworkitems_limit3.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

using loomrtl::Rng;
using loomrtl::Sim;

namespace {

using Gid = std::array<uint64_t, 3>;

// Inputs start random in the models: keep start low through reset.
template <class M> void quiet(M &m) {
  m.start = 0;
  m.size0 = m.size1 = m.size2 = 0;
}

// loom_completion's inputs through reset, with no posted store write in flight.
template <class M> void quietDrained(M &m) {
  quiet(m);
  m.drained = 1;
}

std::vector<Gid> expectedRange(const Gid &offset, const Gid &size) {
  std::vector<Gid> out;
  for (uint64_t z = 0; z < size[2]; ++z)
    for (uint64_t y = 0; y < size[1]; ++y)
      for (uint64_t x = 0; x < size[0]; ++x)
        out.push_back({offset[0] + x, offset[1] + y, offset[2] + z});
  return out;
}

template <class M> void startItems(Sim<M> &sim, const Gid &offset, const Gid &size) {
  sim->start = 1;
  sim->offset0 = offset[0];
  sim->offset1 = offset[1];
  sim->offset2 = offset[2];
  sim->size0 = size[0];
  sim->size1 = size[1];
  sim->size2 = size[2];
}

/// Runs one range with out_ready at probability pReady and returns what was emitted, plus the
/// number of cycles from the start pulse to the last item.
template <class M>
std::vector<Gid> runItems(Sim<M> &sim, Rng &rng, const Gid &offset, const Gid &size, double pReady,
                          uint64_t *cycles = nullptr) {
  startItems(sim, offset, size);
  sim->out_ready = 0;
  sim.eval();
  sim.tick();
  sim->start = 0;
  // The inputs are latched: scribbling on them afterwards changes nothing.
  startItems(sim, {1, 2, 3}, {4, 5, 6});
  sim->start = 0;
  std::vector<Gid> out;
  uint64_t last = 0;
  for (uint64_t cycle = 1, idle = 0; idle < 20; ++cycle) {
    sim->out_ready = rng.coin(pReady);
    sim.eval();
    if (sim->out_valid && sim->out_ready) {
      out.push_back({sim->gid0, sim->gid1, sim->gid2});
      last = cycle;
    }
    idle = sim->out_valid ? 0 : idle + 1;
    sim.tick();
  }
  if (cycles)
    *cycles = last;
  return out;
}

} // namespace

TEST_CASE("loom_workitems enumerates dimension 0 fastest with offsets", "[rtl][workitems]") {
  Sim<Vworkitems> sim(1, quiet<Vworkitems>);
  Rng rng(1);
  sim.eval();
  CHECK_FALSE(sim->out_valid); // idle after reset
  for (double pReady : {1.0, 0.6, 0.2}) {
    const Gid offset = {10, 20, 30}, size = {3, 4, 2};
    CHECK(runItems(sim, rng, offset, size, pReady) == expectedRange(offset, size));
  }
  const Gid one = {7, 8, 9}, unit = {1, 1, 1};
  CHECK(runItems(sim, rng, one, unit, 0.5) == expectedRange(one, unit));
  const Gid tall = {0, 0, 0}, tallSize = {1, 1, 5};
  CHECK(runItems(sim, rng, tall, tallSize, 0.5) == expectedRange(tall, tallSize));
}

TEST_CASE("loom_workitems with STEP0 4 emits every fourth work-item of dimension 0, one a cycle",
          "[rtl][workitems]") {
  Sim<Vworkitems_step4> sim(7, quiet<Vworkitems_step4>);
  Rng rng(7);
  const Gid offset = {3, 1, 0}, size = {12, 2, 2};
  std::vector<Gid> want;
  for (const Gid &gid : expectedRange(offset, size))
    if ((gid[0] - offset[0]) % 4 == 0)
      want.push_back(gid);
  uint64_t cycles = 0;
  CHECK(runItems(sim, rng, offset, size, 1.0, &cycles) == want);
  CHECK(cycles == 3 * 2 * 2);
  CHECK(runItems(sim, rng, offset, size, 0.4) == want);
}

TEST_CASE("loom_workitems INTERLEAVED emits blocks with gaps between them", "[rtl][workitems]") {
  Sim<Vworkitems_interleaved> sim(8, quiet<Vworkitems_interleaved>);
  Rng rng(8);
  // STEP0 2: dimension 0 in blocks of 4 work-items (2 outputs), 4 skipped after each; dimension 1
  // in blocks of 2 rows, 6 skipped; dimension 2 whole (a block as long as the range).
  const Gid offset = {3, 10, 5}, size = {8, 6, 2}, block = {4, 2, 2}, skip = {4, 6, 0}, step = {2, 1, 1};
  auto ids = [&](unsigned d) {
    std::vector<uint64_t> out;
    for (uint64_t k = 0, gid = offset[d]; k < size[d]; k += step[d], gid += step[d]) {
      out.push_back(gid);
      if ((k + step[d]) % block[d] == 0)
        gid += skip[d];
    }
    return out;
  };
  std::vector<Gid> want;
  for (uint64_t z : ids(2))
    for (uint64_t y : ids(1))
      for (uint64_t x : ids(0))
        want.push_back({x, y, z});
  REQUIRE(want.size() == 4 * 6 * 2);
  CHECK(want[1] == Gid{5, 10, 5});
  CHECK(want[2] == Gid{11, 10, 5});
  CHECK(want[8] == Gid{3, 18, 5});
  sim->block0 = block[0];
  sim->block1 = block[1];
  sim->block2 = block[2];
  sim->skip0 = skip[0];
  sim->skip1 = skip[1];
  sim->skip2 = skip[2];
  uint64_t cycles = 0;
  CHECK(runItems(sim, rng, offset, size, 1.0, &cycles) == want);
  CHECK(cycles == want.size());
  CHECK(runItems(sim, rng, offset, size, 0.3) == want);
  // A short last block: 5 rows in blocks of 2.
  const Gid rows = {4, 5, 1};
  std::vector<Gid> shortLast;
  for (uint64_t y : {10, 11, 18, 19, 26})
    for (uint64_t x : {3, 5})
      shortLast.push_back({x, y, 5});
  CHECK(runItems(sim, rng, offset, rows, 0.7) == shortLast);
}

TEST_CASE("loom_workitems emits one item per cycle without back-pressure", "[rtl][workitems]") {
  Sim<Vworkitems> sim(2, quiet<Vworkitems>);
  Rng rng(2);
  uint64_t cycles = 0;
  const Gid offset = {0, 5, 0}, size = {17, 3, 4};
  CHECK(runItems(sim, rng, offset, size, 1.0, &cycles) == expectedRange(offset, size));
  CHECK(cycles == 17 * 3 * 4); // first item in the cycle after start, then back to back
}

TEST_CASE("loom_workitems emits nothing when any size is zero", "[rtl][workitems]") {
  Sim<Vworkitems> sim(3, quiet<Vworkitems>);
  Rng rng(3);
  for (Gid size : {Gid{0, 4, 4}, Gid{4, 0, 4}, Gid{4, 4, 0}, Gid{0, 0, 0}})
    CHECK(runItems(sim, rng, {1, 1, 1}, size, 1.0).empty());
  // And works normally afterwards.
  const Gid size = {2, 2, 2};
  CHECK(runItems(sim, rng, {0, 0, 0}, size, 1.0) == expectedRange({0, 0, 0}, size));
}

TEST_CASE("loom_workitems gids wrap modulo 2^64", "[rtl][workitems]") {
  Sim<Vworkitems> sim(4, quiet<Vworkitems>);
  Rng rng(4);
  const Gid offset = {~0ull - 1, ~0ull, 3}, size = {4, 2, 1};
  CHECK(runItems(sim, rng, offset, size, 0.7) == expectedRange(offset, size));
}

TEST_CASE("loom_workitems restarts on a start while busy", "[rtl][workitems]") {
  Sim<Vworkitems> sim(5, quiet<Vworkitems>);
  Rng rng(5);
  const Gid firstOffset = {100, 0, 0}, firstSize = {50, 2, 1};
  startItems(sim, firstOffset, firstSize);
  sim.tick();
  sim->start = 0;
  std::vector<Gid> out;
  for (int i = 0; i < 10; ++i) {
    sim->out_ready = rng.coin(0.7);
    sim.eval();
    if (sim->out_valid && sim->out_ready)
      out.push_back({sim->gid0, sim->gid1, sim->gid2});
    sim.tick();
  }
  const size_t taken = out.size();
  REQUIRE(taken > 0);
  // Restart: an item handshaken in the start cycle still counts as emitted from the old range.
  const Gid secondOffset = {1000, 2000, 3000}, secondSize = {2, 3, 1};
  std::vector<Gid> expected = expectedRange(firstOffset, firstSize);
  startItems(sim, secondOffset, secondSize);
  sim->out_ready = 1;
  sim.eval();
  REQUIRE(sim->out_valid);
  out.push_back({sim->gid0, sim->gid1, sim->gid2});
  sim.tick();
  sim->start = 0;
  expected.resize(taken + 1);
  for (const Gid &g : expectedRange(secondOffset, secondSize))
    expected.push_back(g);
  for (int i = 0; i < 40; ++i) {
    sim->out_ready = rng.coin(0.7);
    sim.eval();
    if (sim->out_valid && sim->out_ready)
      out.push_back({sim->gid0, sim->gid1, sim->gid2});
    sim.tick();
  }
  CHECK(out == expected);
}

namespace {

template <class M> void startCompletion(Sim<M> &sim, uint64_t s0, uint64_t s1, uint64_t s2) {
  sim->start = 1;
  sim->size0 = s0;
  sim->size1 = s1;
  sim->size2 = s2;
  sim->in_valid = 1; // a token in the start cycle belongs to no run and is ignored
  sim.eval();
  CHECK(sim->in_ready);
  sim.tick();
  sim->start = 0;
  sim->in_valid = 0;
  sim->size0 = sim->size1 = sim->size2 = 0; // latched: later changes do not matter
}

/// Feeds `tokens` tokens at random times and returns the cycle (counted in delivered tokens)
/// at which done rose, or -1 if it never did; done must stay low until then.
template <class M> int feedUntilDone(Sim<M> &sim, Rng &rng, int tokens) {
  int delivered = 0;
  for (int cycle = 0; cycle < tokens * 10 + 20; ++cycle) {
    sim.eval();
    if (sim->done)
      return delivered;
    sim->in_valid = delivered < tokens && rng.coin(0.6);
    sim.eval();
    CHECK(sim->in_ready);
    if (sim->in_valid)
      ++delivered;
    sim.tick();
    sim->in_valid = 0;
  }
  return -1;
}

/// Starts a count over s0 x s1 x s2 work-items: done stays low for tokens - 1 and rises with the last.
template <class M> void checkDoneWithLastToken(Sim<M> &sim, Rng &rng, uint64_t s0, uint64_t s1, uint64_t s2, int tokens) {
  startCompletion(sim, s0, s1, s2);
  CHECK(feedUntilDone(sim, rng, tokens - 1) == -1);
  CHECK(feedUntilDone(sim, rng, 1) == 1);
}

} // namespace

TEST_CASE("loom_completion is done (idle) after reset", "[rtl][completion]") {
  Sim<Vcompletion> sim(1, quietDrained<Vcompletion>);
  sim->in_valid = 1; // tokens while idle are ignored
  for (int i = 0; i < 5; ++i) {
    sim.eval();
    CHECK(sim->done);
    CHECK(sim->in_ready);
    sim.tick();
  }
}

TEST_CASE("loom_completion rises exactly after size0*size1*size2 tokens", "[rtl][completion]") {
  Sim<Vcompletion> sim(2, quietDrained<Vcompletion>);
  Rng rng(2);
  for (auto size : {std::array<uint64_t, 3>{3, 4, 2}, {1, 1, 1}, {7, 1, 3}, {1, 5, 1}}) {
    startCompletion(sim, size[0], size[1], size[2]);
    sim.eval();
    CHECK_FALSE(sim->done);
    const int total = static_cast<int>(size[0] * size[1] * size[2]);
    CHECK(feedUntilDone(sim, rng, total) == total);
    // Extra tokens after completion change nothing.
    sim->in_valid = 1;
    sim.tick();
    sim->in_valid = 0;
    sim.eval();
    CHECK(sim->done);
  }
}

TEST_CASE("loom_completion never finishes early with fewer tokens", "[rtl][completion]") {
  Sim<Vcompletion> sim(3, quietDrained<Vcompletion>);
  Rng rng(3);
  checkDoneWithLastToken(sim, rng, 5, 2, 3, 30);
}

TEST_CASE("loom_completion with STEP0 4 counts a token for four work-items of dimension 0", "[rtl][completion]") {
  Sim<Vcompletion_step4> sim(6, quietDrained<Vcompletion_step4>);
  Rng rng(6);
  checkDoneWithLastToken(sim, rng, 8, 3, 2, 12);
}

TEST_CASE("loom_completion is done only once the posted stores drained as well", "[rtl][completion]") {
  Sim<Vcompletion> sim(5, quietDrained<Vcompletion>);
  Rng rng(5);
  sim->drained = 0;
  sim.eval();
  CHECK_FALSE(sim->done); // idle, but a posted write is still in flight
  sim->drained = 1;
  startCompletion(sim, 2, 2, 1);
  sim->drained = 0; // the last store's write goes out with its token
  CHECK(feedUntilDone(sim, rng, 4) == -1);
  for (int i = 0; i < 3; ++i) {
    sim.eval();
    CHECK_FALSE(sim->done);
    sim.tick();
  }
  sim->drained = 1; // acknowledged
  sim.eval();
  CHECK(sim->done);
}

TEST_CASE("loom_completion is done right after a start with a zero size", "[rtl][completion]") {
  Sim<Vcompletion> sim(4, quietDrained<Vcompletion>);
  for (auto size : {std::array<uint64_t, 3>{0, 3, 3}, {3, 0, 3}, {3, 3, 0}}) {
    startCompletion(sim, 4, 4, 4); // busy first, so the zero start visibly ends it
    sim.eval();
    CHECK_FALSE(sim->done);
    startCompletion(sim, size[0], size[1], size[2]);
    for (int i = 0; i < 3; ++i) {
      sim.eval();
      CHECK(sim->done);
      sim.tick();
    }
  }
}

TEST_CASE("loom_completion restarts its count on a start while busy", "[rtl][completion]") {
  Sim<Vcompletion> sim(5, quietDrained<Vcompletion>);
  Rng rng(5);
  startCompletion(sim, 10, 1, 1);
  CHECK(feedUntilDone(sim, rng, 6) == -1);
  startCompletion(sim, 2, 2, 1);
  CHECK(feedUntilDone(sim, rng, 4) == 4);
}

namespace {

/// Runs 200 work-items through a generator of `limit` slots, retiring random ones of those in flight
/// (by their slot, as a kernel's completion does): each enters with a free slot below `limit`, the
/// slots in flight stay distinct, and no more than `limit` are ever in flight. Then, with all
/// slots taken and nothing retired, a new range offers exactly `limit` work-items.
template <class M> void checkSlots(unsigned limit, unsigned seed) {
  Sim<M> sim(seed, [](M &m) {
    quiet(m);
    m.retire = 0;
    m.retire_slot = 0;
  });
  Rng rng(seed);
  sim->start = 1;
  sim->offset0 = sim->offset1 = sim->offset2 = 0;
  sim->size0 = 200;
  sim->size1 = sim->size2 = 1;
  sim.tick();
  sim->start = 0;
  std::vector<uint64_t> emitted;
  std::vector<unsigned> inFlight; // slots
  size_t most = 0;
  int offered = -1; // the slot offered and not taken in the last cycle
  for (int cycle = 0; cycle < 5000 && emitted.size() < 200; ++cycle) {
    sim->out_ready = rng.coin(0.8);
    sim->retire = !inFlight.empty() && rng.coin(0.3);
    size_t retired = 0;
    if (sim->retire) {
      retired = size_t(rng.range(0, int(inFlight.size()) - 1));
      sim->retire_slot = inFlight[retired];
    }
    sim.eval();
    // An offer stands until taken: its slot does not change, whatever retires meanwhile.
    if (offered >= 0) {
      CHECK(sim->out_valid);
      CHECK(int(sim->slot) == offered);
    }
    offered = sim->out_valid && !sim->out_ready ? int(sim->slot) : -1;
    if (sim->out_valid && sim->out_ready) {
      emitted.push_back(sim->gid0);
      CHECK(sim->slot < limit);
      CHECK(std::find(inFlight.begin(), inFlight.end(), unsigned(sim->slot)) == inFlight.end());
      inFlight.push_back(sim->slot);
    }
    most = std::max(most, inFlight.size());
    if (sim->retire)
      inFlight.erase(inFlight.begin() + retired);
    sim.tick();
  }
  std::vector<uint64_t> items(200);
  std::iota(items.begin(), items.end(), uint64_t(0));
  CHECK(emitted == items);
  CHECK(most == limit);
  // Retire the rest, then take every slot with a new range and retire nothing.
  for (unsigned taken : inFlight) {
    sim->retire = 1;
    sim->retire_slot = taken;
    sim->out_ready = 0;
    sim.tick();
  }
  sim->retire = 0;
  sim->start = 1;
  sim->size0 = 9;
  sim.tick();
  sim->start = 0;
  sim->out_ready = 1;
  std::vector<unsigned> slots;
  for (int cycle = 0; cycle < 12; ++cycle) {
    sim.eval();
    if (sim->out_valid)
      slots.push_back(sim->slot);
    sim.tick();
  }
  std::vector<unsigned> all(limit);
  std::iota(all.begin(), all.end(), 0u);
  CHECK(slots == all); // after a start, every slot once, in order
}

} // namespace

TEST_CASE("loom_workitems with LIMIT 2 keeps at most two work-items in flight, each in a slot of its own",
          "[rtl][workitems]") {
  checkSlots<Vworkitems_limit2>(2, 6);
}

TEST_CASE("loom_workitems with LIMIT 3 of 4 slots never hands out the fourth", "[rtl][workitems]") {
  checkSlots<Vworkitems_limit3>(3, 8);
}
