// SPDX-License-Identifier: Apache-2.0
// Verilated tests of the elastic plumbing: loom_pipe, loom_join, loom_fork, loom_fifo and
// loom_loop_control.

#include "RtlTestSupport.h"

#include "Vfifo1.h"
#include "Vfifo2.h"
#include "Vfifo5.h"
#include "Vfork3.h"
#include "Vjoin3.h"
#include "Vloop_control4.h"
#include "Vpipe1.h"
#include "Vpipe2.h"
#include "Vpipe4.h"

#include <catch2/catch.hpp>

#include <deque>

using loomrtl::Rng;
using loomrtl::Sim;

namespace {

/// Random valid/ready traffic through a single-channel element (pipe or fifo). The producer holds
/// an item until it is taken; checks order, data, no loss or duplication, and that in_ready does
/// not depend on in_valid in the same cycle.
template <class M> void randomTraffic(uint32_t seed, double pValid, double pReady, int items) {
  Sim<M> sim(seed);
  Rng rng(seed);
  std::deque<uint32_t> expected;
  int sent = 0, received = 0, mismatches = 0;
  bool holding = false;
  uint32_t item = 0;
  for (int cycle = 0; received < items && cycle < items * 50; ++cycle) {
    if (!holding && sent < items && rng.coin(pValid)) {
      holding = true;
      item = rng.u32();
    }
    sim->in_data = item;
    sim->out_ready = rng.coin(pReady);
    sim->in_valid = !holding;
    sim.eval();
    const bool readyOther = sim->in_ready;
    sim->in_valid = holding;
    sim.eval();
    if (readyOther != static_cast<bool>(sim->in_ready))
      ++mismatches;
    if (sim->out_valid && sim->out_ready) {
      if (expected.empty() || sim->out_data != expected.front())
        ++mismatches;
      if (!expected.empty())
        expected.pop_front();
      ++received;
    }
    if (holding && sim->in_ready) {
      expected.push_back(item);
      holding = false;
      ++sent;
    }
    sim.tick();
  }
  CHECK(mismatches == 0);
  CHECK(sent == items);
  CHECK(received == items);
  // Nothing more comes out once everything was delivered.
  sim->in_valid = 0;
  sim->out_ready = 1;
  for (int i = 0; i < 10; ++i) {
    sim.eval();
    CHECK_FALSE(sim->out_valid);
    sim.tick();
  }
}

/// Continuous traffic without back-pressure: returns the cycle of the first output and checks
/// that from then on one item leaves per cycle, in order.
template <class M> int fullRate(int items) {
  Sim<M> sim(7);
  sim->in_valid = 1;
  sim->out_ready = 1;
  int sent = 0, received = 0, firstOut = -1, gaps = 0;
  for (int cycle = 0; received < items && cycle < items * 4; ++cycle) {
    sim->in_valid = sent < items;
    sim->in_data = static_cast<uint32_t>(sent) * 2654435761u;
    sim.eval();
    if (sim->out_valid) {
      if (firstOut < 0)
        firstOut = cycle;
      CHECK(sim->out_data == static_cast<uint32_t>(received) * 2654435761u);
      ++received;
    } else if (firstOut >= 0) {
      ++gaps;
    }
    if (sim->in_valid && sim->in_ready)
      ++sent;
    sim.tick();
  }
  CHECK(received == items);
  CHECK(gaps == 0);
  return firstOut;
}

/// With the output stalled, counts how many items the element absorbs.
template <class M> int capacity() {
  Sim<M> sim(3);
  sim->out_ready = 0;
  sim->in_valid = 1;
  int accepted = 0;
  for (int cycle = 0; cycle < 40; ++cycle) {
    sim->in_data = static_cast<uint32_t>(accepted);
    sim.eval();
    if (sim->in_ready)
      ++accepted;
    sim.tick();
  }
  // And they all come out, in order.
  sim->in_valid = 0;
  sim->out_ready = 1;
  int drained = 0;
  for (int cycle = 0; cycle < 80; ++cycle) {
    sim.eval();
    if (sim->out_valid) {
      CHECK(sim->out_data == static_cast<uint32_t>(drained));
      ++drained;
    }
    sim.tick();
  }
  CHECK(drained == accepted);
  return accepted;
}

template <class M> void pipeSuite(int latency) {
  CHECK(fullRate<M>(200) == latency);
  CHECK(capacity<M>() == latency);
  randomTraffic<M>(11, 0.7, 0.7, 3000);
  randomTraffic<M>(12, 0.95, 0.3, 2000);
  randomTraffic<M>(13, 0.3, 0.95, 2000);
}

/// FIFO outputs must not react combinationally to the same cycle's in_* or out_ready.
template <class M> void fifoNoCombPaths() {
  Sim<M> sim(5);
  Rng rng(5);
  int violations = 0;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    sim->in_valid = rng.coin(0.6);
    sim->in_data = rng.u32();
    sim->out_ready = rng.coin(0.5);
    sim.eval();
    const bool outValid = sim->out_valid, inReady = sim->in_ready;
    const uint32_t outData = sim->out_data;
    sim->in_valid = !sim->in_valid;
    sim->in_data = ~sim->in_data;
    sim->out_ready = !sim->out_ready;
    sim.eval();
    if (outValid != static_cast<bool>(sim->out_valid) || inReady != static_cast<bool>(sim->in_ready) ||
        (outValid && outData != sim->out_data))
      ++violations;
    sim->in_valid = rng.coin(0.6);
    sim->out_ready = rng.coin(0.5);
    sim.eval();
    sim.tick();
  }
  CHECK(violations == 0);
}

} // namespace

TEST_CASE("loom_pipe LATENCY=1 moves one item per cycle, in order, under back-pressure", "[rtl][pipe]") {
  pipeSuite<Vpipe1>(1);
}

TEST_CASE("loom_pipe LATENCY=2 moves one item per cycle, in order, under back-pressure", "[rtl][pipe]") {
  pipeSuite<Vpipe2>(2);
}

TEST_CASE("loom_pipe LATENCY=4 moves one item per cycle, in order, under back-pressure", "[rtl][pipe]") {
  pipeSuite<Vpipe4>(4);
}

TEST_CASE("loom_pipe collapses bubbles", "[rtl][pipe]") {
  // Two items separated by a bubble, output stalled: the second catches up with the first.
  Sim<Vpipe4> sim(2);
  sim->out_ready = 0;
  const bool pattern[] = {true, false, false, true};
  for (bool valid : pattern) {
    sim->in_valid = valid;
    sim->in_data = 42;
    sim.eval();
    REQUIRE(sim->in_ready);
    sim.tick();
  }
  sim->in_valid = 0;
  for (int i = 0; i < 6; ++i)
    sim.tick();
  // Both items now sit in the last two stages: two more items fit before in_ready falls.
  sim->in_valid = 1;
  int accepted = 0;
  for (int i = 0; i < 6; ++i) {
    sim.eval();
    accepted += sim->in_ready;
    sim.tick();
  }
  CHECK(accepted == 2);
}

TEST_CASE("loom_join is the AND of its inputs and consumes all on transfer", "[rtl][join]") {
  VerilatedContext context;
  Vjoin3 join(&context);
  for (unsigned valid = 0; valid < 8; ++valid)
    for (unsigned ready = 0; ready < 2; ++ready) {
      join.in_valid = valid;
      join.out_ready = ready;
      join.eval();
      const bool all = valid == 7;
      CHECK(static_cast<bool>(join.out_valid) == all);
      CHECK(join.in_ready == ((all && ready) ? 7u : 0u));
    }
  join.final();
}

TEST_CASE("loom_fork delivers each token exactly once to every output", "[rtl][fork]") {
  for (double pReady : {0.3, 0.7, 1.0}) {
    Sim<Vfork3> sim(static_cast<uint32_t>(pReady * 100) + 1);
    Rng rng(static_cast<uint32_t>(pReady * 100));
    const int tokens = 3000;
    int seq = 0, received[3] = {0, 0, 0}, violations = 0, combDeps = 0, cycles = 0;
    bool holding = false;
    while (seq < tokens && cycles < tokens * 40) {
      if (!holding)
        holding = pReady == 1.0 || rng.coin(0.7);
      sim->in_valid = holding;
      unsigned ready = 0;
      for (int i = 0; i < 3; ++i)
        ready |= (rng.coin(pReady) ? 1u : 0u) << i;
      // out_valid must not depend on out_ready.
      sim->out_ready = ~ready & 7u;
      sim.eval();
      const unsigned validOther = sim->out_valid;
      sim->out_ready = ready;
      sim.eval();
      if (validOther != sim->out_valid)
        ++combDeps;
      for (int i = 0; i < 3; ++i)
        if ((sim->out_valid >> i) & (sim->out_ready >> i) & 1u) {
          if (received[i] != seq) // the data bus carries token `seq`
            ++violations;
          ++received[i];
        }
      if (holding && sim->in_ready) {
        for (int i = 0; i < 3; ++i)
          if (received[i] != seq + 1) // everyone has it when the input is consumed
            ++violations;
        ++seq;
        holding = false;
      }
      sim.tick();
      ++cycles;
    }
    CHECK(violations == 0);
    CHECK(combDeps == 0);
    CHECK(seq == tokens);
    if (pReady == 1.0)
      CHECK(cycles == tokens); // one token per cycle when every consumer is ready
  }
}

TEST_CASE("loom_fifo DEPTH=1 holds one item and never loses one", "[rtl][fifo]") {
  CHECK(capacity<Vfifo1>() == 1);
  randomTraffic<Vfifo1>(21, 0.7, 0.7, 2000);
  randomTraffic<Vfifo1>(22, 1.0, 1.0, 2000);
  fifoNoCombPaths<Vfifo1>();
}

TEST_CASE("loom_fifo DEPTH=2 runs at full rate with registered handshakes", "[rtl][fifo]") {
  CHECK(fullRate<Vfifo2>(300) == 1);
  CHECK(capacity<Vfifo2>() == 2);
  randomTraffic<Vfifo2>(31, 0.7, 0.7, 3000);
  randomTraffic<Vfifo2>(32, 0.95, 0.3, 2000);
  randomTraffic<Vfifo2>(33, 0.3, 0.95, 2000);
  fifoNoCombPaths<Vfifo2>();
}

TEST_CASE("loom_fifo DEPTH=5 (not a power of two) wraps correctly", "[rtl][fifo]") {
  CHECK(fullRate<Vfifo5>(300) == 1);
  CHECK(capacity<Vfifo5>() == 5);
  randomTraffic<Vfifo5>(41, 0.7, 0.7, 3000);
  randomTraffic<Vfifo5>(42, 0.95, 0.3, 2000);
  randomTraffic<Vfifo5>(43, 0.3, 0.95, 2000);
  fifoNoCombPaths<Vfifo5>();
}

TEST_CASE("loom_loop_control admits at most LIMIT work-items and counts exits", "[rtl][loop]") {
  Sim<Vloop_control4> sim(3, [](Vloop_control4 &m) { m.entry_valid = m.back_valid = m.exit_valid = 0; });
  sim->entry_valid = 1;
  sim->out_ready = 1;
  int admitted = 0;
  for (int cycle = 0; cycle < 10; ++cycle) {
    sim.eval();
    if (sim->entry_valid && sim->entry_ready) {
      CHECK(sim->out_valid);
      CHECK(sim->out_first);
      ++admitted;
    }
    sim.tick();
  }
  CHECK(admitted == 4);
  sim.eval();
  CHECK_FALSE(sim->entry_ready);
  sim->exit_valid = 1; // One work-item leaves: room for exactly one more.
  sim.tick();
  sim->exit_valid = 0;
  sim.eval();
  CHECK(sim->entry_ready);
  sim.tick();
  sim.eval();
  CHECK_FALSE(sim->entry_ready);
}

TEST_CASE("loom_loop_control keeps an offered token until it is taken", "[rtl][loop]") {
  Sim<Vloop_control4> sim(5, [](Vloop_control4 &m) { m.entry_valid = m.back_valid = m.exit_valid = 0; });
  // A continuing iteration is offered and held back by a stalled consumer...
  sim->back_valid = 1;
  sim->out_ready = 0;
  sim.eval();
  CHECK(sim->out_valid);
  CHECK_FALSE(sim->out_first);
  sim.tick();
  // ...then a new work-item arrives: the offer must not turn into an entry (the loop's eager forks
  // may have given the continuing token to some consumers already).
  sim->entry_valid = 1;
  sim.eval();
  CHECK(sim->out_valid);
  CHECK_FALSE(sim->out_first);
  CHECK_FALSE(sim->entry_ready);
  sim->out_ready = 1;
  sim.eval();
  CHECK(sim->back_ready);
  CHECK_FALSE(sim->entry_ready);
  sim.tick();
  // Entries go first once the held token has left.
  sim.eval();
  CHECK(sim->out_first);
  CHECK(sim->entry_ready);
  CHECK_FALSE(sim->back_ready);
}
