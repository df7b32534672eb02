// SPDX-License-Identifier: Apache-2.0
// Verilated tests of loom_load_lines and loom_store_lines against a memory of 64-byte lines that
// takes requests at random, answers in order after a latency plus a random delay (at most one answer
// a cycle) and never waits for the port; producer and consumer hold back at random. The memory spans
// two regions that differ only in address bit 63, so a line compare that drops high bits shows.

#include "RtlTestSupport.h"

#include "Vload_lines256.h"
#include "Vload_lines32.h"
#include "Vload_lines512.h"
#include "Vload_lines64_c1.h"
#include "Vload_lines8.h"
#include "Vstore_lines32.h"
#include "Vstore_lines512.h"
#include "Vstore_lines64_c1.h"
#include "Vstore_lines8.h"
#include "Vstore_lines32_posted.h"
#include "Vstore_lines64_c1_posted.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <type_traits>
#include <utility>
#include <vector>

using loomrtl::Rng;
using loomrtl::Sim;

namespace {

constexpr int kLineBytes = 64;
constexpr size_t kRegion = 16 * kLineBytes;
constexpr uint64_t kBase = 0x0000123456780000ull;
constexpr uint64_t kHigh = 1ull << 63;

uint64_t lineOf(uint64_t addr) { return addr & ~static_cast<uint64_t>(kLineBytes - 1); }

// A Verilated port as little-endian bytes, whatever its C++ type (an integer up to 64 bits, VlWide above).
template <class T> std::enable_if_t<std::is_integral_v<T>> getBytes(const T &port, uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; ++i)
    bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(port) >> (8 * i));
}
template <std::size_t W> void getBytes(const VlWide<W> &port, uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; ++i)
    bytes[i] = static_cast<uint8_t>(port.at(i / 4) >> (8 * (i % 4)));
}
template <class T> std::enable_if_t<std::is_integral_v<T>> setBytes(T &port, const uint8_t *bytes, size_t n) {
  uint64_t value = 0;
  for (size_t i = 0; i < n; ++i)
    value |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  port = static_cast<T>(value);
}
template <std::size_t W> void setBytes(VlWide<W> &port, const uint8_t *bytes, size_t n) {
  for (size_t w = 0; w < W; ++w)
    port.at(w) = 0;
  for (size_t i = 0; i < n; ++i)
    port.at(i / 4) |= static_cast<uint32_t>(bytes[i]) << (8 * (i % 4));
}

/// The byte array behind the port and its in-order responder: an answer is due at
/// max(request + latency, previous answer + 1).
class LineMemory {
public:
  explicit LineMemory(Rng &rng) : bytes(2 * kRegion) {
    for (auto &b : bytes)
      b = static_cast<uint8_t>(rng.u32());
  }
  static uint64_t address(size_t offset) { return (offset < kRegion ? kBase : kBase | kHigh) + offset % kRegion; }
  static size_t offset(uint64_t addr) { return ((addr & kHigh) ? kRegion : 0) + ((addr & ~kHigh) - kBase); }
  static bool holds(uint64_t addr) { return (addr & ~kHigh) >= kBase && (addr & ~kHigh) < kBase + kRegion; }
  uint8_t *at(uint64_t addr) { return &bytes[offset(addr)]; }

  void request(uint64_t cycle, uint64_t line, int latency) {
    lastDue = std::max(cycle + static_cast<uint64_t>(latency), lastDue + 1);
    pending.emplace_back(lastDue, line);
  }
  bool answerNow(uint64_t cycle) const { return !pending.empty() && pending.front().first <= cycle; }
  uint64_t answeredLine() const { return pending.front().second; }
  void answered() { pending.pop_front(); }
  bool quiet() const { return pending.empty(); }

  std::vector<uint8_t> bytes;

private:
  std::deque<std::pair<uint64_t, uint64_t>> pending; // (due cycle, line address)
  uint64_t lastDue = 0;
};

enum class Stream { Sequential, Random, Repeats };

struct Traffic {
  int items = 1536; // whole lines of every element width
  Stream stream = Stream::Random;
  double pIn = 0.8;       // producer offers an element
  double pReqReady = 0.7; // memory takes a request
  double pOut = 0.7;      // consumer takes a result or token
  int latency = 4, extra = 6; // memory answers latency + [0, extra] cycles after the request
  int stallCycles = 0;        // the consumer refuses all (the memory takes all) this many cycles first
  int spacing = 0;            // the producer rests this many cycles after each accepted element
};

/// A parameterisation: limit is LINES for a load, IDLE for a store.
struct Port {
  int dw, credits, limit;
  bool posted = false; // store: tokens at acceptance, drained while nothing is unacknowledged
  int bytes() const { return dw / 8; }
  int perLine() const { return kLineBytes / bytes(); }
};

struct Outcome {
  int delivered = 0, requests = 0, violations = 0;
  int flushRule = 0;              // store: cycles where m_req_valid disagreed with rules (a)-(e)
  uint64_t maxUsed = 0;           // elements accepted and not delivered
  uint64_t maxLines = 0;          // load: line requests not yet consumed by their first element
  uint64_t usedAfterStall = 0;
  uint64_t cycles = 0;
  std::vector<uint64_t> flushDelays; // store: cycles from a line's last store to its request
};

/// The producer: holds an element (address, data) until accepted.
struct Producer {
  bool holding = false;
  uint64_t addr = 0;
  std::vector<uint8_t> data;
  int sent = 0, rest = 0;

  void offer(const Traffic &t, int eb, Rng &rng) {
    if (rest > 0 && !holding)
      --rest;
    else if (!holding && sent < t.items && rng.coin(t.pIn))
      pick(t, eb, rng);
  }
  void accepted(const Traffic &t) {
    holding = false;
    ++sent;
    rest = t.spacing;
  }

private:
  void pick(const Traffic &t, int eb, Rng &rng) {
    holding = true;
    const size_t slots = 2 * kRegion / eb;
    auto at = [&](size_t slot) { return LineMemory::address(slot % slots * eb); };
    const int pick = rng.range(0, 9);
    if (t.stream == Stream::Sequential)
      addr = at(sent);
    else if (t.stream == Stream::Random || sent == 0 || pick >= 7)
      addr = at(rng.u32() % slots);
    else if (pick >= 4) // Repeats: the next element, else the same one again
      addr = at(LineMemory::offset(addr) / eb + 1);
    data.resize(eb);
    for (auto &b : data)
      b = static_cast<uint8_t>(rng.u32());
  }
};

/// The cycle loop both ports share: the producer offers, consumer and memory take at random (all
/// during a stall: the memory takes, the consumer refuses), the memory answers in order. Each cycle
/// the port's own step drives the rest, calls settle() and checks the handshakes before the edge;
/// it counts the elements it accepted in `accepted` and the results or tokens taken in o.delivered.
template <class M> class Bench {
public:
  Bench(const Traffic &t, const Port &p, uint32_t seed)
      : t(t), p(p), sim(seed, [](M &m) {
          m.in_valid = 0;
          m.m_resp_valid = 0;
        }),
        rng(seed), mem(rng) {}

  /// step(cycle, answer): the port's part of a cycle; answer: the memory answers this cycle.
  /// owes(): the port still owes the memory a request or awaits an answer after its last result
  /// (a posted store's tokens may all have left before its last line went).
  template <class Step, class Owes> void run(Step step, Owes owes) {
    const uint64_t limit = static_cast<uint64_t>(t.items) * 60 + 1000;
    for (uint64_t cycle = 0; (o.delivered < t.items || owes()) && cycle < limit; ++cycle) {
      stalled = cycle < static_cast<uint64_t>(t.stallCycles);
      in.offer(t, p.bytes(), rng);
      sim->in_valid = in.holding;
      sim->in_addr = in.addr;
      sim->out_ready = !stalled && rng.coin(t.pOut);
      const bool answer = mem.answerNow(cycle);
      sim->m_resp_valid = answer;
      step(cycle, answer);
      if (answer)
        mem.answered();
      o.maxUsed = std::max(o.maxUsed, accepted - o.delivered);
      if (cycle + 1 == static_cast<uint64_t>(t.stallCycles))
        o.usedAfterStall = accepted - o.delivered;
      sim.tick();
      o.cycles = cycle + 1;
    }
    CHECK(o.delivered == t.items);
    CHECK(mem.quiet());
    CHECK(o.maxUsed <= static_cast<uint64_t>(p.credits));
    checkQuiet();
  }

  /// Settles the inputs with a random m_req_ready, counting a violation unless m_req_valid and
  /// m_req_addr read the same with m_req_ready flipped (they must not depend on it).
  void settle() {
    const bool ready = stalled || rng.coin(t.pReqReady);
    sim->m_req_ready = !ready;
    sim.eval();
    const bool valid = sim->m_req_valid;
    const uint64_t addr = sim->m_req_addr;
    sim->m_req_ready = ready;
    sim.eval();
    o.violations += valid != static_cast<bool>(sim->m_req_valid) || (valid && addr != sim->m_req_addr);
  }

  /// Latency of a request issued now.
  int latency() { return t.latency + rng.range(0, t.extra); }

  const Traffic &t;
  const Port &p;
  Sim<M> sim;
  Rng rng;
  LineMemory mem;
  Producer in;
  Outcome o;
  uint64_t accepted = 0;

private:
  /// After the run: with nothing offered, no further result, token or request appears.
  void checkQuiet() {
    sim->in_valid = 0;
    sim->out_ready = 1;
    sim->m_req_ready = 1;
    sim->m_resp_valid = 0;
    for (int i = 0; i < 20; ++i) {
      sim.eval();
      CHECK_FALSE(sim->out_valid);
      CHECK_FALSE(sim->m_req_valid);
      sim.tick();
    }
  }

  bool stalled = false;
};

template <class M> Outcome runLoad(const Traffic &t, const Port &p, uint32_t seed) {
  Bench<M> b(t, p, seed);
  auto &sim = b.sim;
  auto &o = b.o;
  std::deque<std::pair<uint64_t, bool>> results; // accepted, not delivered: (address, brings its line)
  std::deque<uint64_t> lines;                    // lines the port owes a request, in order
  bool haveLast = false;
  uint64_t lastLine = 0, linesHeld = 0;
  std::array<uint8_t, kLineBytes> bytes{};
  b.run([&](uint64_t cycle, bool answer) {
    for (auto &byte : bytes)
      byte = static_cast<uint8_t>(b.rng.u32());
    setBytes(sim->m_resp_rdata, answer ? b.mem.at(b.mem.answeredLine()) : bytes.data(), kLineBytes);
    b.settle();
    if (sim->out_valid && sim->out_ready) {
      if (results.empty()) {
        ++o.violations;
      } else {
        getBytes(sim->out_data, bytes.data(), p.bytes());
        o.violations += std::memcmp(bytes.data(), b.mem.at(results.front().first), p.bytes()) != 0;
        linesHeld -= results.front().second;
        results.pop_front();
      }
      ++o.delivered;
    }
    if (b.in.holding && sim->in_ready) {
      const bool fresh = !haveLast || lineOf(b.in.addr) != lastLine;
      results.emplace_back(b.in.addr, fresh);
      if (fresh)
        lines.push_back(lineOf(b.in.addr));
      haveLast = true;
      lastLine = lineOf(b.in.addr);
      b.in.accepted(t);
      ++b.accepted;
    }
    if (sim->m_req_valid && sim->m_req_ready) {
      // Exactly the elements whose line differs from the previous element's request, in order.
      const bool owed = !lines.empty() && sim->m_req_addr == lines.front();
      o.violations += !owed;
      b.mem.request(cycle, owed ? lines.front() : kBase, b.latency());
      if (owed)
        lines.pop_front();
      ++o.requests;
      ++linesHeld;
    }
    o.maxLines = std::max(o.maxLines, linesHeld);
  }, [] { return false; });
  CHECK(lines.empty());
  CHECK(o.maxLines <= static_cast<uint64_t>(p.limit));
  return o;
}

template <class M> Outcome runStore(const Traffic &t, const Port &p, uint32_t seed) {
  Bench<M> b(t, p, seed);
  auto &sim = b.sim;
  auto &o = b.o;
  std::vector<uint8_t> expected = b.mem.bytes; // the stores applied in order
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> open; // accepted, carried by no write yet
  std::deque<uint64_t> carried; // stores each write in flight carries
  uint64_t idle = 0, tokens = 0, lastAccept = 0, unacknowledged = 0;
  std::array<uint8_t, kLineBytes> wdata{}, line{};
  b.run([&](uint64_t cycle, bool ack) {
    setBytes(sim->in_data, b.in.data.data(), b.in.data.size());
    b.settle();
    // Without POSTED always drained; with it, exactly while every accepted store is acknowledged.
    o.violations += static_cast<bool>(sim->drained) != (!p.posted || unacknowledged == 0);

    // The open stores merged: their line's bytes and strobes, later stores winning.
    uint64_t strobe = 0;
    for (const auto &[addr, data] : open) {
      const size_t at = addr % kLineBytes;
      std::copy(data.begin(), data.end(), line.begin() + at);
      for (size_t i = 0; i < data.size(); ++i)
        strobe |= 1ull << (at + i);
    }
    const bool due = !open.empty() && (strobe == ~0ull || idle >= static_cast<uint64_t>(p.limit) ||
                                       open.size() == static_cast<size_t>(p.credits) ||
                                       (b.in.holding && lineOf(b.in.addr) != lineOf(open.front().first)));
    // Rule (e): otherwise an offered store, given a credit, that completes its line goes with it.
    const uint64_t undelivered = b.accepted - static_cast<uint64_t>(o.delivered);
    const bool credit = (p.posted ? unacknowledged : undelivered) < static_cast<uint64_t>(p.credits) &&
                        undelivered < static_cast<uint64_t>(p.credits);
    uint64_t offeredStrobe = 0;
    if (b.in.holding)
      for (size_t i = 0; i < b.in.data.size(); ++i)
        offeredStrobe |= 1ull << (b.in.addr % kLineBytes + i);
    const bool completes = !due && b.in.holding && credit && (strobe | offeredStrobe) == ~0ull;
    o.flushRule += (due || completes) != static_cast<bool>(sim->m_req_valid);
    if (completes) {
      std::copy(b.in.data.begin(), b.in.data.end(), line.begin() + b.in.addr % kLineBytes);
      strobe |= offeredStrobe;
    }

    // An acknowledge makes its write's tokens deliverable in the cycle it arrives (POSTED: the
    // acceptance made them deliverable from the next edge).
    if (ack) {
      if (carried.empty()) {
        ++o.violations;
      } else {
        tokens += p.posted ? 0 : carried.front();
        unacknowledged -= carried.front();
        carried.pop_front();
      }
    }
    if (sim->out_valid && sim->out_ready) {
      // A token leaves only once the write carrying its store was acknowledged (POSTED: accepted).
      if (tokens == 0)
        ++o.violations;
      else
        --tokens;
      ++o.delivered;
    }
    const bool issue = sim->m_req_valid && sim->m_req_ready;
    const bool accept = b.in.holding && sim->in_ready;
    if (issue) {
      getBytes(sim->m_req_wdata, wdata.data(), kLineBytes);
      const uint64_t addr = sim->m_req_addr;
      const uint64_t got = sim->m_req_strobe;
      const uint64_t lineAddr = completes ? lineOf(b.in.addr) : open.empty() ? ~0ull : lineOf(open.front().first);
      bool same = addr == lineAddr && got == strobe && (!completes || accept);
      for (int i = 0; same && i < kLineBytes; ++i)
        same = !(strobe >> i & 1) || wdata[i] == line[i];
      o.violations += !same;
      if (same)
        for (int i = 0; i < kLineBytes; ++i)
          if (strobe >> i & 1)
            b.mem.at(addr)[i] = wdata[i];
      b.mem.request(cycle, addr, b.latency());
      carried.push_back(open.size() + (completes ? 1 : 0));
      o.flushDelays.push_back(cycle - (completes ? cycle : lastAccept));
      open.clear();
      ++o.requests;
    }
    if (accept) {
      std::copy(b.in.data.begin(), b.in.data.end(), expected.begin() + LineMemory::offset(b.in.addr));
      if (!completes)
        open.emplace_back(b.in.addr, b.in.data);
      tokens += p.posted ? 1 : 0;
      ++unacknowledged;
      b.in.accepted(t);
      ++b.accepted;
      lastAccept = cycle;
    }
    idle = (accept || issue || open.empty()) ? 0 : idle + 1;
  }, [&] { return !open.empty() || !carried.empty(); });
  CHECK(open.empty());
  CHECK(carried.empty());
  CHECK(b.mem.bytes == expected);
  return o;
}

/// The largest memory latency at which the header comments promise one element a cycle (0: none).
int loadFullRateLatency(const Port &p) {
  int l = 0;
  while (p.credits >= l + 2 && p.limit >= (l + 2 + p.perLine() - 1) / p.perLine())
    ++l;
  return l;
}
int storeFullRateLatency(const Port &p) { return std::max(0, p.credits - p.perLine()); }

Traffic fullRate(int latency) {
  Traffic t;
  t.items = 40 * kLineBytes;
  t.stream = Stream::Sequential;
  t.pIn = t.pReqReady = t.pOut = 1.0;
  t.latency = latency;
  t.extra = 0;
  return t;
}

/// At the largest latency the header's rule allows, a sequential stream goes one element a cycle
/// (within `slack` cycles of start-up and drain) with one request a line; one cycle more of latency
/// and it does not. run(traffic) runs the port, checks its own invariants and returns the outcome.
template <class Run> void checkFullRate(const Port &p, int latency, int slack, Run run) {
  const Traffic t = fullRate(latency);
  const Outcome o = run(t);
  CHECK(o.requests == t.items * p.bytes() / kLineBytes);
  CHECK(o.cycles <= static_cast<uint64_t>(t.items + slack));
  CHECK(run(fullRate(latency + 1)).cycles > static_cast<uint64_t>(t.items + slack));
}

/// Random back-pressure and delay over each kind of stream, two seeds each: run(traffic, seed).
template <class Run> void eachRandomStream(uint32_t seedBase, Run run) {
  for (Stream s : {Stream::Sequential, Stream::Random, Stream::Repeats})
    for (uint32_t seed : {1u, 2u}) {
      Traffic t;
      t.stream = s;
      t.pIn = 0.6 + 0.15 * seed;
      INFO("stream " << static_cast<int>(s) << " seed " << seed);
      run(t, seedBase + seed + 10 * static_cast<uint32_t>(s));
    }
}

/// The producer offers all the time; the consumer refuses everything for `cycles` first.
Traffic stalledConsumer(int cycles) {
  Traffic t;
  t.items = 300;
  t.pIn = 1.0;
  t.stallCycles = cycles;
  return t;
}

template <class M> void loadSuite(const Port &p) {
  SECTION("every result is the memory's bytes at its address, under random back-pressure and delay") {
    eachRandomStream(0, [&](const Traffic &t, uint32_t seed) {
      Outcome o = runLoad<M>(t, p, seed);
      CHECK(o.violations == 0);
      if (t.stream == Stream::Sequential) // each line once
        CHECK(o.requests == t.items * p.bytes() / kLineBytes);
      if (t.stream == Stream::Repeats) // some elements share a line, some do not
        CHECK((o.requests > t.items / 10 && o.requests < t.items));
    });
  }
  SECTION("a stalled consumer stops the port at its credits or its lines and loses nothing") {
    Traffic t = stalledConsumer(100);
    t.stream = Stream::Sequential;
    Outcome o = runLoad<M>(t, p, 7);
    CHECK(o.violations == 0);
    CHECK(o.usedAfterStall == static_cast<uint64_t>(std::min(p.credits, p.limit * p.perLine())));
    CHECK(o.maxLines == static_cast<uint64_t>(std::min(p.limit, (p.credits + p.perLine() - 1) / p.perLine())));
  }
  const int latency = loadFullRateLatency(p);
  if (latency > 0) {
    SECTION("one element a cycle while the credit rule holds, not beyond") {
      checkFullRate(p, latency, latency + 3, [&](const Traffic &t) {
        Outcome o = runLoad<M>(t, p, 8);
        CHECK(o.violations == 0);
        return o;
      });
    }
  }
}

template <class M> void storeSuite(const Port &p) {
  SECTION("memory ends as the stores applied in order, under random back-pressure and delay") {
    eachRandomStream(100, [&](const Traffic &t, uint32_t seed) {
      Outcome o = runStore<M>(t, p, seed);
      CHECK(o.violations == 0);
      CHECK(o.flushRule == 0);
    });
  }
  SECTION("a stalled consumer stops the port at its credits") {
    Outcome o = runStore<M>(stalledConsumer(200), p, 9);
    CHECK(o.violations == 0);
    CHECK(o.flushRule == 0);
    CHECK(o.usedAfterStall == static_cast<uint64_t>(p.credits));
  }
  SECTION("an isolated store is written IDLE cycles after it, the cycle after when it holds every credit, "
          "at once when it fills its line") {
    Traffic t;
    t.items = 30;
    t.spacing = 2 * p.limit + 10;
    t.pReqReady = 1.0;
    Outcome o = runStore<M>(t, p, 5);
    CHECK(o.violations == 0);
    CHECK(o.flushRule == 0);
    CHECK(o.requests == t.items);
    const uint64_t delay = p.perLine() == 1 ? 0 : p.credits == 1 ? 1 : p.limit + 1;
    for (uint64_t d : o.flushDelays)
      CHECK(d == delay);
  }
  const int latency = storeFullRateLatency(p);
  if (latency > 0) {
    SECTION("a sequential stream writes each line once, one store a cycle while the credit rule holds") {
      checkFullRate(p, latency, p.perLine() + latency + 3, [&](const Traffic &t) {
        Outcome o = runStore<M>(t, p, 6);
        CHECK(o.violations == 0);
        CHECK(o.flushRule == 0);
        return o;
      });
    }
  }
}

} // namespace

TEST_CASE("loom_load_lines DW=32 CREDITS=8 LINES=2", "[rtl][load]") { loadSuite<Vload_lines32>({32, 8, 2}); }
TEST_CASE("loom_load_lines DW=64 CREDITS=1 LINES=1", "[rtl][load]") { loadSuite<Vload_lines64_c1>({64, 1, 1}); }
TEST_CASE("loom_load_lines DW=256 CREDITS=12 LINES=3", "[rtl][load]") { loadSuite<Vload_lines256>({256, 12, 3}); }
TEST_CASE("loom_load_lines DW=512 CREDITS=6 LINES=6", "[rtl][load]") { loadSuite<Vload_lines512>({512, 6, 6}); }
TEST_CASE("loom_load_lines DW=8 CREDITS=5 LINES=1", "[rtl][load]") { loadSuite<Vload_lines8>({8, 5, 1}); }

TEST_CASE("loom_store_lines DW=32 CREDITS=22 IDLE=4", "[rtl][store]") { storeSuite<Vstore_lines32>({32, 22, 4}); }
TEST_CASE("loom_store_lines DW=64 CREDITS=1 IDLE=16", "[rtl][store]") { storeSuite<Vstore_lines64_c1>({64, 1, 16}); }
TEST_CASE("loom_store_lines DW=512 CREDITS=6 IDLE=4", "[rtl][store]") { storeSuite<Vstore_lines512>({512, 6, 4}); }
TEST_CASE("loom_store_lines DW=8 CREDITS=70 IDLE=1", "[rtl][store]") { storeSuite<Vstore_lines8>({8, 70, 1}); }
TEST_CASE("loom_store_lines DW=32 CREDITS=22 IDLE=4 POSTED", "[rtl][store]") {
  storeSuite<Vstore_lines32_posted>({32, 22, 4, true});
}
TEST_CASE("loom_store_lines DW=64 CREDITS=1 IDLE=16 POSTED", "[rtl][store]") {
  storeSuite<Vstore_lines64_c1_posted>({64, 1, 16, true});
}
