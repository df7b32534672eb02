// SPDX-License-Identifier: Apache-2.0
// Small helpers for the Verilated testbenches of hls/rtl: a clocked wrapper, random coins, float bits.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <cstring>
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
