// SPDX-License-Identifier: Apache-2.0
// Verilated tests of loom_forward_queue driving a read-modify-write kernel model against a byte-array
// memory with two ports. Iteration k loads a_k, announces its store address s_k and, when load k's
// answer has come back, supplies the store data f(answer, k) after a delay (in order, a pipelined
// adder). The memory applies each request in the cycle it fires (a read returns the bytes at that
// moment, a write writes them) and answers each port in order after a latency plus a random delay.
// Producers, consumers and the memory hold back at random. Checked against a sequential run of the
// same program: every answer, every write, the final memory; plus the handshake rules (alternation,
// credits, no valid depending on its ready), the timing floor of answers and tokens, and that no read
// goes to the memory while an earlier store to its address is not acknowledged. The element addresses
// come in pairs that differ only in bit 63, so a search that drops high address bits shows.

#include "RtlTestSupport.h"

#include "Vforward_queue.h"
#include "Vforward_queue_odd.h"
#include "Vforward_queue_rate.h"
#include "Vforward_queue_small.h"
#include "Vforward_queue_tiny.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <tuple>
#include <utility>
#include <vector>

using loomrtl::Rng;
using loomrtl::Sim;

namespace {

constexpr uint64_t kBase = 0x0000123456780000ull;
constexpr uint64_t kHigh = 1ull << 63;

/// A parameterisation of the unit.
struct Config {
  int dw, credits, entries;
  uint64_t mask() const { return dw == 64 ? ~0ull : (1ull << dw) - 1; }
  int bytes() const { return dw / 8; }
};

/// The kernel's program and the environment's behaviour.
struct Scenario {
  int iterations = 1500;
  int addresses = 4;    // distinct element addresses (0: each iteration its own, loads and stores alike)
  bool general = false; // the store address is drawn apart from the load address (else s_k = a_k)
  double pLoadPred = 1.0, pStorePred = 1.0;
  double pLd = 0.8, pAn = 0.8;                   // producers offer the next load / announcement
  int announceFrom = 0;                          // no announcement is offered before this cycle
  double pLdOut = 0.7, pStOut = 0.7;             // consumers take an answer / a token
  double pReadReady = 0.7, pWriteReady = 0.7;    // memory ports take a request
  int latency = 6, storeLatency = 6, extra = 10; // memory answers latency + [0, extra] after the request
  int adderMin = 1, adderMax = 5;                // store data D in [min, max] cycles after the answer
};

/// What a run saw. Every violation counter must end at zero.
struct Outcome {
  int badAnswer = 0;   // an answer differs from the sequential program's
  int badWrite = 0;    // a write request's address or data differs, or its data had not arrived
  int badRead = 0;     // a read request not for the load taken in its cycle, or outside the memory
  int unackedRead = 0; // a read of an address with an earlier store not acknowledged
  int alternation = 0; // loads and announcements out of their strict alternation
  int credits = 0;     // more than CREDITS loads accepted and not answered
  int dependence = 0;  // a request valid (or its payload) changed with its ready
  int early = 0;       // an answer before its response, a token before its acknowledge, data before
                       // its announcement, an output with nothing owed
  int forwarded = 0;   // loads answered without a memory read (pred 1)
  int reads = 0;
  uint64_t lastIntake = 0;                  // cycle of the last load or announcement transfer
  uint64_t firstAnswer = 0, lastAnswer = 0; // cycles of the first and the last answer transfer
  uint64_t minForwardWait = ~0ull;          // fewest cycles from a forwarding load to its answer
  uint64_t cycles = 0;
};

uint64_t address(int slot, int bytes) {
  return ((slot & 1) ? kHigh : 0) | (kBase + static_cast<uint64_t>(slot >> 1) * bytes);
}

/// The memory behind both ports: element bytes, little-endian, in two regions that differ in bit 63.
class ByteMemory {
public:
  ByteMemory(int slots, int bytes, Rng &rng) : half(static_cast<size_t>((slots + 1) / 2) * bytes), eb(bytes) {
    this->bytes.resize(2 * half);
    for (auto &b : this->bytes)
      b = static_cast<uint8_t>(rng.u32());
  }
  bool holds(uint64_t addr) const {
    const uint64_t low = addr & ~kHigh;
    return low >= kBase && low + eb <= kBase + half && (low - kBase) % eb == 0;
  }
  uint64_t read(uint64_t addr) const {
    uint64_t v = 0;
    for (int i = 0; i < eb; ++i)
      v |= static_cast<uint64_t>(bytes[offset(addr) + i]) << (8 * i);
    return v;
  }
  void write(uint64_t addr, uint64_t v) {
    for (int i = 0; i < eb; ++i)
      bytes[offset(addr) + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  std::vector<uint8_t> bytes;

private:
  size_t offset(uint64_t addr) const { return ((addr & kHigh) ? half : 0) + ((addr & ~kHigh) - kBase); }
  size_t half;
  int eb;
};

/// One memory port's in-order answers: due at max(request + latency, previous answer + 1).
class Responder {
public:
  void request(uint64_t cycle, int latency, uint64_t value) {
    lastDue = std::max(cycle + static_cast<uint64_t>(latency), lastDue + 1);
    pending.emplace_back(lastDue, value);
  }
  bool now(uint64_t cycle) const { return !pending.empty() && pending.front().first <= cycle; }
  uint64_t value() const { return pending.front().second; }
  void pop() { pending.pop_front(); }
  bool quiet() const { return pending.empty(); }

private:
  std::deque<std::pair<uint64_t, uint64_t>> pending; // (due cycle, read data)
  uint64_t lastDue = 0;
};

/// The kernel's iterations and the sequential program's view of them.
struct Program {
  std::vector<uint64_t> ldAddr, anAddr, weight;
  std::vector<bool> ldPred, anPred;
  std::vector<uint64_t> answer;    // what load k reads in a sequential run (0 for pred 0)
  std::vector<int> lastWriter;     // ordinal of the latest store before iteration k to a_k, or -1
  std::vector<uint64_t> storeAddr; // by store ordinal
  std::vector<uint8_t> final;      // the memory after the sequential run

  static uint64_t f(uint64_t answer, uint64_t weight, uint64_t mask) { return (answer + weight) & mask; }
};

Program makeProgram(const Config &c, const Scenario &s, ByteMemory mem, Rng &rng) {
  Program p;
  const int slots = s.addresses > 0 ? s.addresses : s.iterations;
  auto slotAddr = [&](int k) {
    return address(s.addresses > 0 ? static_cast<int>(rng.u32() % static_cast<uint32_t>(slots)) : k, c.bytes());
  };
  std::vector<std::pair<uint64_t, int>> latest; // (address, store ordinal) of the latest store to it
  auto writerOf = [&](uint64_t addr) {
    for (const auto &[a, ord] : latest)
      if (a == addr)
        return ord;
    return -1;
  };
  for (int k = 0; k < s.iterations; ++k) {
    const uint64_t a = slotAddr(k);
    const bool lp = rng.coin(s.pLoadPred);
    const uint64_t st = s.general ? slotAddr(k) : a;
    const bool sp = rng.coin(s.pStorePred);
    // A load without access gets any address: half the time one in use (it must not match), else junk.
    p.ldAddr.push_back(lp || rng.coin(0.5) ? a : rng.u64());
    p.ldPred.push_back(lp);
    p.anAddr.push_back(st);
    p.anPred.push_back(sp);
    p.weight.push_back(rng.u64() & c.mask());
    p.answer.push_back(lp ? mem.read(a) : 0);
    p.lastWriter.push_back(writerOf(a));
    if (sp) {
      mem.write(st, Program::f(p.answer.back(), p.weight.back(), c.mask()));
      auto it = std::find_if(latest.begin(), latest.end(), [&](const auto &e) { return e.first == st; });
      if (it == latest.end())
        latest.emplace_back(st, static_cast<int>(p.storeAddr.size()));
      else
        it->second = static_cast<int>(p.storeAddr.size());
      p.storeAddr.push_back(st);
    }
  }
  p.final = mem.bytes;
  return p;
}

template <class T> void put(T &port, uint64_t v) { port = static_cast<T>(v); }

/// Runs the program through the unit; checks data, order, handshakes and timing floors as it goes.
template <class M> Outcome run(const Config &c, const Scenario &s, uint32_t seed) {
  Sim<M> sim(seed, [](M &m) {
    m.ld_valid = 0;
    m.an_valid = 0;
    m.st_valid = 0;
    m.ml_resp_valid = 0;
    m.ms_resp_valid = 0;
  });
  Rng rng(seed);
  const int slots = s.addresses > 0 ? s.addresses : s.iterations;
  ByteMemory mem(slots, c.bytes(), rng);
  const Program p = makeProgram(c, s, mem, rng);
  const int n = s.iterations;
  const int stores = static_cast<int>(p.storeAddr.size());
  Responder reads, writes;
  Outcome o;

  int nextLd = 0, nextAn = 0; // next load / announcement to offer
  bool ldHold = false, anHold = false;
  int announced = 0;              // stores announced (pred 1)
  int dataIn = 0, written = 0;    // store data accepted, write requests
  int respArrived = 0, acked = 0; // read responses, write acknowledges (at earlier edges)
  int delivered = 0, tokens = 0;
  std::deque<std::tuple<int, int, uint64_t>> waiting; // accepted loads: (iteration, read ordinal or -1, cycle)
  std::deque<std::pair<uint64_t, uint64_t>> adder;    // store data in the making: (due cycle, data)
  std::vector<uint64_t> storeData;                    // by store ordinal, as supplied
  uint64_t adderDue = 0;
  const uint64_t limit = static_cast<uint64_t>(n) * 200 + 2000;
  uint64_t cycle = 0;
  for (; (delivered < n || tokens < stores) && cycle < limit; ++cycle) {
    if (!ldHold && nextLd < n && rng.coin(s.pLd))
      ldHold = true;
    if (!anHold && nextAn < n && cycle >= static_cast<uint64_t>(s.announceFrom) && rng.coin(s.pAn))
      anHold = true;
    sim->ld_valid = ldHold;
    sim->ld_addr = ldHold ? p.ldAddr[nextLd] : rng.u64();
    sim->ld_pred = ldHold ? p.ldPred[nextLd] : rng.coin(0.5);
    sim->an_valid = anHold;
    sim->an_addr = anHold ? p.anAddr[nextAn] : rng.u64();
    sim->an_pred = anHold ? p.anPred[nextAn] : rng.coin(0.5);
    const bool stHave = !adder.empty() && adder.front().first <= cycle;
    sim->st_valid = stHave;
    put(sim->st_data, stHave ? adder.front().second : rng.u64());
    sim->ld_out_ready = rng.coin(s.pLdOut);
    sim->st_out_ready = rng.coin(s.pStOut);
    const bool resp = reads.now(cycle), ack = writes.now(cycle);
    sim->ml_resp_valid = resp;
    put(sim->ml_resp_rdata, resp ? reads.value() : rng.u64());
    sim->ms_resp_valid = ack;

    // The request valids and payloads must read the same with their readies flipped.
    const bool readReady = rng.coin(s.pReadReady), writeReady = rng.coin(s.pWriteReady);
    sim->ml_req_ready = !readReady;
    sim->ms_req_ready = !writeReady;
    sim.eval();
    const bool mlValid = sim->ml_req_valid, msValid = sim->ms_req_valid;
    const uint64_t mlAddr = sim->ml_req_addr, msAddr = sim->ms_req_addr;
    const uint64_t msData = sim->ms_req_wdata;
    sim->ml_req_ready = readReady;
    sim->ms_req_ready = writeReady;
    sim.eval();
    o.dependence += mlValid != static_cast<bool>(sim->ml_req_valid) || (mlValid && mlAddr != sim->ml_req_addr);
    o.dependence += msValid != static_cast<bool>(sim->ms_req_valid) ||
                    (msValid && (msAddr != sim->ms_req_addr || msData != sim->ms_req_wdata));

    const bool ldFire = ldHold && sim->ld_ready;
    const bool anFire = anHold && sim->an_ready;
    const bool stFire = stHave && sim->st_ready;
    const bool outFire = sim->ld_out_valid && sim->ld_out_ready;
    const bool tokFire = sim->st_out_valid && sim->st_out_ready;
    const bool rdFire = sim->ml_req_valid && sim->ml_req_ready;
    const bool wrFire = sim->ms_req_valid && sim->ms_req_ready;

    if (outFire) {
      if (waiting.empty()) {
        ++o.early;
      } else {
        const auto [k, readOrd, acceptedAt] = waiting.front();
        waiting.pop_front();
        if (p.ldPred[k] && readOrd < 0)
          o.minForwardWait = std::min(o.minForwardWait, cycle - acceptedAt);
        o.early += readOrd >= respArrived; // a memory answer leaves the cycle after it came at the earliest
        const uint64_t got = static_cast<uint64_t>(sim->ld_out_data);
        if (got != p.answer[k] && o.badAnswer++ < 5)
          UNSCOPED_INFO("iteration " << k << " answered " << got << ", expected " << p.answer[k]);
        if (p.anPred[k]) {
          adderDue = std::max(cycle + static_cast<uint64_t>(rng.range(s.adderMin, s.adderMax)), adderDue + 1);
          adder.emplace_back(adderDue, Program::f(got, p.weight[k], c.mask()));
        }
      }
      if (delivered++ == 0)
        o.firstAnswer = cycle;
      o.lastAnswer = cycle;
    }
    if (tokFire) {
      o.early += tokens >= acked; // a token the cycle after its acknowledge at the earliest
      ++tokens;
    }
    if (stFire) {
      o.early += dataIn >= announced; // never in its announcement's cycle
      storeData.push_back(adder.front().second);
      adder.pop_front();
      ++dataIn;
    }
    int readOrd = -1;
    if (rdFire) {
      const bool forLoad = ldFire && p.ldPred[nextLd] && sim->ml_req_addr == p.ldAddr[nextLd];
      o.badRead += !forLoad || !mem.holds(sim->ml_req_addr);
      if (forLoad)
        o.unackedRead += p.lastWriter[nextLd] >= acked;
      reads.request(cycle, s.latency + rng.range(0, s.extra),
                    mem.holds(sim->ml_req_addr) ? mem.read(sim->ml_req_addr) : 0);
      readOrd = o.reads++;
    }
    if (ldFire) {
      o.forwarded += p.ldPred[nextLd] && !rdFire;
      waiting.emplace_back(nextLd++, readOrd, cycle);
      ldHold = false;
      o.lastIntake = cycle;
    }
    if (anFire) {
      announced += p.anPred[nextAn];
      ++nextAn;
      anHold = false;
      o.lastIntake = cycle;
    }
    o.alternation += nextLd - nextAn < 0 || nextLd - nextAn > 1;
    o.credits += nextLd - delivered > c.credits;
    if (wrFire) {
      const bool ok = written < dataIn - stFire && sim->ms_req_addr == p.storeAddr[written] &&
                      static_cast<uint64_t>(sim->ms_req_wdata) == storeData[written];
      o.badWrite += !ok;
      if (mem.holds(sim->ms_req_addr))
        mem.write(sim->ms_req_addr, static_cast<uint64_t>(sim->ms_req_wdata));
      writes.request(cycle, s.storeLatency + rng.range(0, s.extra), 0);
      ++written;
    }
    if (resp) {
      reads.pop();
      ++respArrived;
    }
    if (ack) {
      writes.pop();
      ++acked;
    }
    sim.tick();
  }
  o.cycles = cycle;
  CHECK(delivered == n);
  CHECK(tokens == stores);
  CHECK(written == stores);
  CHECK(reads.quiet());
  CHECK(writes.quiet());
  CHECK(mem.bytes == p.final);

  // Afterwards, with nothing offered, nothing more comes out.
  sim->ld_valid = 0;
  sim->an_valid = 0;
  sim->st_valid = 0;
  sim->ld_out_ready = 1;
  sim->st_out_ready = 1;
  sim->ml_req_ready = 1;
  sim->ms_req_ready = 1;
  sim->ml_resp_valid = 0;
  sim->ms_resp_valid = 0;
  for (int i = 0; i < 20; ++i) {
    sim.eval();
    o.early += sim->ld_out_valid || sim->st_out_valid || sim->ml_req_valid || sim->ms_req_valid;
    sim.tick();
  }
  return o;
}

void checkClean(const Outcome &o) {
  CHECK(o.badAnswer == 0);
  CHECK(o.badWrite == 0);
  CHECK(o.badRead == 0);
  CHECK(o.unackedRead == 0);
  CHECK(o.alternation == 0);
  CHECK(o.credits == 0);
  CHECK(o.dependence == 0);
  CHECK(o.early == 0);
}

/// The functional cases every parameterisation runs, two seeds each.
template <class M> void functionalSuite(const Config &c, int iterations) {
  auto each = [&](Scenario s, uint32_t seedBase, bool expectForwarding) {
    s.iterations = iterations;
    for (uint32_t seed : {seedBase, seedBase + 1}) {
      INFO("seed " << seed);
      const Outcome o = run<M>(c, s, seed);
      checkClean(o);
      if (expectForwarding)
        CHECK(o.forwarded > 0);
      if (o.forwarded > 0) // a forwarded answer leaves no earlier than the cycle after its load
        CHECK(o.minForwardWait >= 1);
    }
  };
  SECTION("histogram over one address: every load after the first forwards or reads an acknowledged store") {
    Scenario s;
    s.addresses = 1;
    each(s, 10, true);
  }
  SECTION("histogram over four addresses (two differ only in bit 63)") {
    Scenario s;
    s.addresses = 4;
    each(s, 20, true);
  }
  SECTION("histogram over 64 addresses: collisions near and far") {
    Scenario s;
    s.addresses = 64;
    s.pLd = s.pAn = 1.0;
    each(s, 30, false);
  }
  SECTION("general: the store address differs from the load's") {
    Scenario s;
    s.addresses = 8;
    s.general = true;
    each(s, 40, false);
  }
  SECTION("random predicates on loads and announcements") {
    Scenario s;
    s.addresses = 4;
    s.general = true;
    s.pLoadPred = 0.6;
    s.pStorePred = 0.5;
    each(s, 50, false);
  }
  SECTION("announcements run ahead of the loads, slow consumers, slow memory") {
    Scenario s;
    s.addresses = 6;
    s.pLd = 0.3;
    s.pAn = 1.0;
    s.pLdOut = s.pStOut = 0.4;
    s.pReadReady = s.pWriteReady = 0.4;
    s.latency = s.storeLatency = 20;
    each(s, 60, true);
  }
  SECTION("loads trickle in after their data: a forwarded answer leaves the cycle after its load") {
    Scenario s;
    s.addresses = 2;
    s.pLd = 0.1;
    s.pAn = s.pLdOut = s.pReadReady = s.pWriteReady = 1.0;
    s.latency = s.storeLatency = 30;
    s.iterations = std::min(iterations, 300);
    const Outcome o = run<M>(c, s, 65);
    checkClean(o);
    CHECK(o.minForwardWait == 1);
  }
  SECTION("loads run ahead of the announcements, long adder") {
    Scenario s;
    s.addresses = 3;
    s.pLd = 1.0;
    s.pAn = 0.3;
    s.adderMin = 5;
    s.adderMax = 30;
    each(s, 70, true);
  }
}

/// Every iteration to its own address at full speed: one load and one announcement a cycle.
Scenario independentFullRate(int latency, int storeLatency, int adder) {
  Scenario s;
  s.iterations = 1000;
  s.addresses = 0;
  s.pLd = s.pAn = s.pLdOut = s.pStOut = s.pReadReady = s.pWriteReady = 1.0;
  s.latency = latency;
  s.storeLatency = storeLatency;
  s.extra = 0;
  s.adderMin = s.adderMax = adder;
  return s;
}

} // namespace

TEST_CASE("loom_forward_queue DW=32 CREDITS=8 ENTRIES=128", "[rtl][forward]") {
  const Config c{32, 8, 128};
  functionalSuite<Vforward_queue>(c, 2000);
  SECTION("independent addresses: one load and one announcement a cycle with CREDITS = latency + 2") {
    const Scenario s = independentFullRate(6, 6, 1);
    const Outcome o = run<Vforward_queue>(c, s, 80);
    checkClean(o);
    CHECK(o.forwarded == 0);
    CHECK(o.lastIntake == static_cast<uint64_t>(s.iterations) - 1);
    // Announcements that start 5 cycles late: load 0 goes alone, then each announcement with the next
    // load in the same cycle, still one of each a cycle.
    Scenario late = s;
    late.announceFrom = 5;
    const Outcome trailing = run<Vforward_queue>(c, late, 82);
    checkClean(trailing);
    CHECK(trailing.lastIntake == static_cast<uint64_t>(s.iterations) + 4);
    // One cycle more of memory latency and the credits run out.
    const Outcome slower = run<Vforward_queue>(c, independentFullRate(7, 6, 1), 81);
    checkClean(slower);
    CHECK(slower.lastIntake > static_cast<uint64_t>(s.iterations) + 50);
  }
  SECTION("one address: each load waits only for the previous iteration's data, not for the memory") {
    for (int adder : {1, 3}) {
      Scenario s = independentFullRate(40, 40, adder);
      s.iterations = 400;
      s.addresses = 1;
      const Outcome o = run<Vforward_queue>(c, s, 90 + static_cast<uint32_t>(adder));
      checkClean(o);
      CHECK(o.reads == 1);
      // The first answer takes a memory round trip, then one leaves every adder + 1 cycles.
      CHECK(o.firstAnswer == 40 + 1);
      CHECK(o.lastAnswer - o.firstAnswer == static_cast<uint64_t>(s.iterations - 1) * (adder + 1));
    }
  }
}

// At the edge of both rules for load and store latency 10 and an adder of 1 cycle:
// CREDITS = 10 + 2, ENTRIES = 10 + 1 + 10 + 5.
TEST_CASE("loom_forward_queue DW=32 CREDITS=12 ENTRIES=26: full rate at the edge of the rules", "[rtl][forward]") {
  const Config c{32, 12, 26};
  const uint64_t n = 1000;
  auto intake = [&](int latency, int storeLatency, int adder) {
    INFO("latency " << latency << " store latency " << storeLatency << " adder " << adder);
    const Outcome o = run<Vforward_queue_rate>(c, independentFullRate(latency, storeLatency, adder), 100);
    checkClean(o);
    return o.lastIntake;
  };
  SECTION("one load and one announcement a cycle") { CHECK(intake(10, 10, 1) == n - 1); }
  SECTION("an entry short costs one cycle once: the announcements then trail their loads by a cycle") {
    CHECK(intake(10, 11, 1) == n);
    CHECK(intake(10, 10, 2) == n);
  }
  SECTION("two entries short, or a credit short, and the intake stalls") {
    CHECK(intake(10, 12, 1) > n + 20);
    CHECK(intake(10, 11, 2) > n + 20);
    CHECK(intake(11, 10, 1) > n + 20);
  }
  SECTION("random traffic") { functionalSuite<Vforward_queue_rate>(c, 1000); }
}

TEST_CASE("loom_forward_queue DW=64 CREDITS=2 ENTRIES=4: the queue and the credits fill", "[rtl][forward]") {
  functionalSuite<Vforward_queue_small>({64, 2, 4}, 800);
}

TEST_CASE("loom_forward_queue DW=16 CREDITS=3 ENTRIES=5", "[rtl][forward]") {
  functionalSuite<Vforward_queue_odd>({16, 3, 5}, 800);
}

TEST_CASE("loom_forward_queue DW=8 CREDITS=1 ENTRIES=1", "[rtl][forward]") {
  functionalSuite<Vforward_queue_tiny>({8, 1, 1}, 400);
}
