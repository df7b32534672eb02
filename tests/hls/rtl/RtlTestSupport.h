// SPDX-License-Identifier: Apache-2.0
// Small helpers for the Verilated testbenches of hls/rtl: a clocked wrapper, random coins, the
// pipelined units' stream check, float bits.
#pragma once

#include <verilated.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <random>

namespace loomrtl {

/// Owns a Verilated model of a clocked hls/rtl module and its context. Registers start random
/// (the models are built with --x-initial unique) so that a missing reset shows up in the tests.
/// Usage per cycle: drive inputs, eval() to settle combinational outputs, sample handshakes, tick().
template <class Model> class Sim {
public:
  /// `init` drives the inputs that must be quiet during reset (inputs start random too).
  explicit Sim(uint32_t seed = 1, std::function<void(Model &)> init = {})
      : context(std::make_unique<VerilatedContext>()) {
    context->randReset(2);
    context->randSeed(static_cast<int>(seed));
    model = std::make_unique<Model>(context.get());
    if (init)
      init(*model);
    model->clk = 0;
    model->rst = 1;
    model->eval();
    tick();
    tick();
    model->rst = 0;
    model->eval();
    cycle = 0;
  }
  ~Sim() { model->final(); }
  Sim(const Sim &) = delete;
  Sim &operator=(const Sim &) = delete;

  /// One rising edge with the inputs as currently driven, then settle again with clk low.
  void tick() {
    model->clk = 1;
    model->eval();
    model->clk = 0;
    model->eval();
    ++cycle;
  }
  void eval() { model->eval(); }
  Model *operator->() { return model.get(); }
  Model &operator*() { return *model; }

  uint64_t cycle = 0;

private:
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<Model> model;
};

/// Deterministic random source with a biased coin.
class Rng {
public:
  explicit Rng(uint32_t seed) : engine(seed) {}
  bool coin(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(engine) < p; }
  uint32_t u32() { return static_cast<uint32_t>(engine()); }
  uint64_t u64() { return (static_cast<uint64_t>(u32()) << 32) | u32(); }
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine); }

private:
  std::mt19937 engine;
};

/// Streams `count` operations through a pipelined unit with loom_lockstep's contract (the float
/// units, loom_idiv) and checks the timing throughout: the pipeline advances (in_ready) exactly when
/// the output is not held, and a result leaves exactly `latency` advancing cycles after its operands
/// were accepted (so exactly `latency` cycles when nothing is held); with pValid = pReady = 1, one
/// operation per cycle. Offers operands with probability pValid and takes results with pReady.
/// drive(model, i, rng) puts operation i's operands on the inputs (i == count: any values, nothing
/// is offered); agree(model), asked every cycle after the inputs settle, reports whether the unit's
/// own invariants hold; matches(model, i) compares the output with operation i's result (reporting
/// the first few mismatches itself). Returns the number of mismatching results.
template <class M, class Drive, class Agree, class Matches>
int streamLockstep(size_t count, int latency, double pValid, double pReady, uint32_t seed, Drive drive,
                   Agree agree, Matches matches) {
  Sim<M> sim(seed, [](M &m) { m.in_valid = 0; });
  Rng rng(seed);
  std::deque<size_t> inFlight;
  std::deque<uint64_t> issueAdvance; // advancing cycles before the one that accepted the operands
  uint64_t advances = 0;
  size_t sent = 0, received = 0;
  int mismatches = 0, timing = 0;
  bool holding = false;
  const bool fullRate = pValid == 1.0 && pReady == 1.0;
  const uint64_t limit = count * 20 + 200;
  for (uint64_t cycle = 0; received < count && cycle < limit; ++cycle) {
    if (!holding && sent < count && rng.coin(pValid))
      holding = true;
    sim->in_valid = holding;
    drive(*sim, holding ? sent : count, rng);
    sim->out_ready = rng.coin(pReady);
    sim.eval();
    if (!agree(*sim) || sim->in_ready != !(sim->out_valid && !sim->out_ready))
      ++timing;
    if (sim->out_valid && sim->out_ready) {
      if (inFlight.empty()) {
        ++mismatches;
      } else {
        if (!matches(*sim, inFlight.front()))
          ++mismatches;
        if (advances != issueAdvance.front() + static_cast<uint64_t>(latency))
          ++timing;
        inFlight.pop_front();
        issueAdvance.pop_front();
      }
      ++received;
    }
    if (holding && sim->in_ready) {
      inFlight.push_back(sent++);
      issueAdvance.push_back(advances);
      holding = false;
    } else if (fullRate && holding) {
      ++timing; // never stalls without back-pressure
    }
    advances += sim->in_ready;
    sim.tick();
  }
  CHECK(received == count);
  CHECK(timing == 0);
  return mismatches;
}

/// binary32 bit patterns and floats, both ways.
inline float toFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline uint32_t toBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

} // namespace loomrtl
