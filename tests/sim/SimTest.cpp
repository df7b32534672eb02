// SPDX-License-Identifier: Apache-2.0
// ModelBuilder, LoadedModel, BoardSimulation and the bare harness on the hand-written test kernels.
#include "SimTestSupport.h"
#include "TestSupport.h"

#include "loom/board/Board.h"
#include "loom/sim/BoardSimulation.h"
#include "loom/sim/LoadedModel.h"
#include "loom/sim/ModelBuilder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace loom;
using namespace loom::sim;
using namespace loom::sim::test;

namespace {

/// Device memory for in-process simulations: addresses are offsets into the vector.
struct TestMemory {
  std::vector<uint8_t> bytes;
  explicit TestMemory(size_t size) : bytes(size, 0) {}
  MemoryRegion region() { return {bytes.data(), bytes.size()}; }
  uint32_t word(uint64_t address) const {
    uint32_t v;
    std::memcpy(&v, &bytes[address], 4);
    return v;
  }
  void setWord(uint64_t address, uint32_t v) { std::memcpy(&bytes[address], &v, 4); }
};

constexpr uint64_t InAddress = 0x1000;
constexpr uint64_t OutAddress = 0x200000;

void fillInput(TestMemory &memory, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    memory.setWord(InAddress + 4 * i, static_cast<uint32_t>(3 * i + 1));
}

board::Board boardNamed(const char *name) {
  auto board = board::loadBoard(name);
  if (!board)
    FAIL(llvm::toString(board.takeError()));
  return *board;
}

std::unique_ptr<BoardSimulation> simulationOn(const board::Board &board, TestMemory &memory,
                                              SimulationOptions options = {}) {
  auto simulation =
      BoardSimulation::create(board, testModel(), testKernels(), memory.region(), options);
  if (!simulation)
    FAIL(llvm::toString(simulation.takeError()));
  return std::move(*simulation);
}

RunStats runAdd(BoardSimulation &simulation, uint64_t offset, uint64_t n, uint32_t addend) {
  auto stats = simulation.run(0, {InAddress, OutAddress, addend}, {offset, 0, 0}, {n, 1, 1});
  if (!stats)
    FAIL(llvm::toString(stats.takeError()));
  return *stats;
}

} // namespace

TEST_CASE("ModelBuilder builds a model of the test kernels", "[sim][model]") {
  const std::string &bytes = testModelBytes();
  REQUIRE(bytes.size() > 4);
  CHECK(bytes.compare(0, 4, "\x7f" "ELF") == 0);
  // The build time is a figure, not a pass mark: on a shared machine it varies with the load.
  WARN("model build: " << testModelBuildSeconds() << " s, " << bytes.size() << " bytes");

  const LoadedModel &model = testModel();
  REQUIRE(model.kernelCount() == 8);
  CHECK(model.kernelName(0) == "add_const");
  CHECK(model.kernelName(1) == "hang");
  CHECK(model.kernelName(4) == "consume");
  CHECK(model.kernelName(6) == "reserve_consume");
}

TEST_CASE("ModelBuilder reports progress and tool failures readably", "[sim][model]") {
  std::vector<std::string> steps;
  ModelBuilder builder;
  builder.setProgress([&](llvm::StringRef step) { steps.push_back(step.str()); });

  SECTION("Verilog errors carry Verilator's message and the line in program.v") {
    // After a module of three lines and a comment: the error is on the program's sixth line.
    std::string bad = "module other(input clk);\n  wire w;\nendmodule\n// the kernel\n"
                      "module loom_test_add(input clk, output done);\n  assign done = ;\nendmodule\n";
    auto built = builder.build(bad, {testKernels()[0]});
    std::string message = errorMessage(built);
    CHECK_THAT(message, Catch::Contains("verilator"));
    CHECK_THAT(message, Catch::Contains("program.v:6"));
    CHECK(steps == std::vector<std::string>{"verilating"});
    CHECK_THAT(builder.log(), Catch::Contains("--top-module loom_test_add"));
  }
  SECTION("a kernel's Verilator run reads only the modules it instantiates") {
    // Another kernel's module that would not parse is never read for loom_test_add.
    std::string unparsable = "module loom_elsewhere(input clk);\n  this is not Verilog\nendmodule\n";
    auto built = builder.build(testVerilog() + unparsable, {testKernels()[0]});
    if (!built)
      FAIL(llvm::toString(built.takeError()));
    CHECK(built->compare(0, 4, "\x7f" "ELF") == 0);
  }
  SECTION("a module without endmodule is an error") {
    auto built = builder.build("module loom_test_add(input clk);\n", {testKernels()[0]});
    CHECK_THAT(errorMessage(built), Catch::Contains("module loom_test_add in program.v has no endmodule"));
  }
  SECTION("a port the contract requires but the Verilog lacks fails at the C++ compile") {
    auto kernel = testKernels()[0];
    kernel.numArgs = 4; // arg_3 does not exist
    auto built = builder.build(testVerilog(), {kernel});
    std::string message = errorMessage(built);
    CHECK_THAT(message, Catch::Contains("C++ compiler"));
    CHECK_THAT(message, Catch::Contains("arg_3"));
    CHECK(steps == std::vector<std::string>{"verilating", "compiling"});
  }
  SECTION("a missing Verilator is named") {
    setenv("LOOM_VERILATOR", "/nonexistent/verilator", 1);
    auto built = builder.build(testVerilog(), testKernels());
    unsetenv("LOOM_VERILATOR");
    CHECK_THAT(errorMessage(built), Catch::Contains("/nonexistent/verilator") &&
                                        Catch::Contains("LOOM_VERILATOR"));
  }
}

TEST_CASE("ModelBuilder keeps verilated.h precompiled for later builds", "[sim][model]") {
  llvm::SmallString<128> directory;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("loom-pch", directory));
  auto precompiledHeaders = [&] {
    unsigned count = 0;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(directory, ec), end; it != end && !ec; it.increment(ec))
      count += llvm::StringRef(it->path()).endswith(".h.gch");
    return count;
  };
  auto buildAdd = [&](ModelBuilder &builder) {
    auto built = builder.build(testVerilog(), {testKernels()[0]});
    if (!built)
      FAIL(llvm::toString(built.takeError()));
    auto model = LoadedModel::load(*built);
    if (!model)
      FAIL(llvm::toString(model.takeError()));
    CHECK((*model)->kernelName(0) == "add_const");
  };

  // The first build precompiles it, once per optimisation level of the units, and includes it.
  ModelBuilder first;
  first.setPrecompiledHeaderDirectory(directory.str().str());
  buildAdd(first);
  CHECK(precompiledHeaders() == 2);
  CHECK(count(first.log(), "-x c++-header") == 2);
  CHECK(count(first.log(), " -include " + directory.str().str()) == 2);
  // A later one includes it without building it.
  ModelBuilder later;
  later.setPrecompiledHeaderDirectory(directory.str().str());
  buildAdd(later);
  CHECK(count(later.log(), "-x c++-header") == 0);
  CHECK(count(later.log(), " -include " + directory.str().str()) == 2);

  // A damaged one is not used: the compiler parses the header instead.
  {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(directory, ec), end; it != end && !ec; it.increment(ec))
      if (llvm::StringRef(it->path()).endswith(".h.gch")) {
        std::error_code written;
        llvm::raw_fd_ostream(it->path(), written) << "not a precompiled header";
        REQUIRE_FALSE(written);
      }
    ModelBuilder damaged;
    damaged.setPrecompiledHeaderDirectory(directory.str().str());
    buildAdd(damaged);
  }
  // A directory it cannot write to leaves the build as it was without one.
  {
    const std::string file = (directory.str() + "/file").str();
    std::error_code ec;
    llvm::raw_fd_ostream(file, ec) << "a file";
    REQUIRE_FALSE(ec);
    ModelBuilder builder;
    builder.setPrecompiledHeaderDirectory(file + "/pch");
    buildAdd(builder);
    CHECK_THAT(builder.log(), Catch::Contains("compiling without a precompiled verilated.h: cannot create"));
    CHECK(count(builder.log(), " -include ") == 0);
  }
  llvm::sys::fs::remove_directories(directory);
}

TEST_CASE("LoadedModel rejects what is not a model", "[sim][model]") {
  auto garbage = LoadedModel::load("this is not a shared object");
  CHECK_THAT(errorMessage(garbage), Catch::Contains("not a loadable shared object"));

  auto empty = LoadedModel::load("");
  CHECK_THAT(errorMessage(empty), Catch::Contains("not a loadable shared object"));

  // A real shared object without the ABI functions.
  auto library = llvm::MemoryBuffer::getFile(LOOM_VERILATED_LIBRARY, false, false);
  REQUIRE(static_cast<bool>(library));
  auto foreign = LoadedModel::load((*library)->getBuffer());
  CHECK_THAT(errorMessage(foreign), Catch::Contains("lacks the function loom_model_abi_version"));
}

TEST_CASE("BoardSimulation runs the kernel on the unit board", "[sim][board]") {
  board::Board unit = boardNamed("unit");
  TestMemory memory(4 << 20);
  auto simulation = simulationOn(unit, memory);
  const uint64_t n = 1000;
  fillInput(memory, n);

  RunStats stats = runAdd(*simulation, 0, n, 7);
  for (uint64_t i = 0; i < n; ++i)
    REQUIRE(memory.word(OutAddress + 4 * i) == 3 * i + 1 + 7);
  CHECK(memory.word(OutAddress + 4 * n) == 0);
  // One work-item per cycle at best, plus the memory latency of the first load and the last store.
  CHECK(stats.cycles >= n + 2 * unit.memory.latencyCycles);
  CHECK(stats.cycles < 2 * n);
  CHECK(stats.simulatedNs == Approx(stats.cycles * unit.cycleNs()));
  REQUIRE(stats.ports.size() == 2);
  CHECK(stats.ports[0].requests == n);
  CHECK(stats.ports[1].requests == n);
  CHECK(stats.ports[1].bytes == 4 * n);

  SECTION("a global offset selects the work-items; launches repeat in one elaboration") {
    std::memset(memory.bytes.data() + OutAddress, 0, 4 * n);
    RunStats part = runAdd(*simulation, 100, 50, 1);
    CHECK(part.ports[0].requests == 50);
    CHECK(memory.word(OutAddress + 4 * 99) == 0);
    CHECK(memory.word(OutAddress + 4 * 100) == 3 * 100 + 1 + 1);
    CHECK(memory.word(OutAddress + 4 * 149) == 3 * 149 + 1 + 1);
    CHECK(memory.word(OutAddress + 4 * 150) == 0);
  }
  SECTION("an empty range completes") {
    RunStats none = runAdd(*simulation, 0, 0, 1);
    CHECK(none.ports[0].requests == 0);
    CHECK(none.cycles <= 3);
  }
}

TEST_CASE("BoardSimulation models the default board's latency", "[sim][board]") {
  board::Board board = boardNamed("default");
  TestMemory memory(4 << 20);
  fillInput(memory, 1000);
  auto simulation = simulationOn(board, memory);
  RunStats stats = runAdd(*simulation, 0, 1000, 5);
  for (uint64_t i = 0; i < 1000; ++i)
    REQUIRE(memory.word(OutAddress + 4 * i) == 3 * i + 1 + 5);
  // Load and store latencies both show: at least 2 x 80 cycles beyond the work-items.
  CHECK(stats.cycles >= 1000 + 2 * board.memory.latencyCycles);
  // 16 loads in flight over an 80-cycle latency: about 16 work-items per 80 cycles.
  CHECK(stats.cycles >= 1000 * board.memory.latencyCycles / 16);
  CHECK(stats.simulatedNs == Approx(stats.cycles * 1000.0 / 300.0));
}

TEST_CASE("BoardSimulation: limited bandwidth costs cycles", "[sim][board]") {
  const char *json = R"({"name": "narrow", "clock_mhz": 100,
    "global_memory": {"size_mb": 16, "banks": 1, "width_bytes": 8, "interleave_bytes": 4096,
                      "latency_cycles": 2, "bandwidth_gbps": %s},
    "operator_latency": {}})";
  auto make = [&](const char *bandwidth) {
    char text[512];
    std::snprintf(text, sizeof text, json, bandwidth);
    auto board = board::parseBoard(text, "narrow.json");
    if (!board)
      FAIL(llvm::toString(board.takeError()));
    return *board;
  };
  TestMemory memory(4 << 20);
  const uint64_t n = 2000;
  fillInput(memory, n);
  auto unlimited = simulationOn(make("0"), memory);
  uint64_t fast = runAdd(*unlimited, 0, n, 1).cycles;
  // 0.4 GB/s at 100 MHz: 4 bytes per cycle, one bank; each work-item moves 8 bytes.
  auto narrow = simulationOn(make("0.4"), memory);
  uint64_t slow = runAdd(*narrow, 0, n, 1).cycles;
  CHECK(slow >= 2 * n);
  CHECK(slow > fast + n / 2);
  for (uint64_t i = 0; i < n; ++i)
    REQUIRE(memory.word(OutAddress + 4 * i) == 3 * i + 1 + 1);
  // Two banks interleaved per 4 KiB, each as fast as the single one above: requests to different
  // banks overlap.
  auto banked = board::parseBoard(R"({"name": "banked", "clock_mhz": 100,
    "global_memory": {"size_mb": 16, "banks": 2, "width_bytes": 8, "interleave_bytes": 4096,
                      "latency_cycles": 2, "bandwidth_gbps": 0.8},
    "operator_latency": {}})",
                                  "banked.json");
  REQUIRE_OK(banked);
  auto twoBanks = simulationOn(*banked, memory);
  uint64_t split = runAdd(*twoBanks, 0, n, 1).cycles;
  CHECK(split < slow);
}

TEST_CASE("BoardSimulation fails cleanly on an access outside device memory", "[sim][board]") {
  TestMemory memory(1 << 20);
  auto simulation = simulationOn(boardNamed("unit"), memory);
  auto stats = simulation->run(0, {memory.bytes.size() - 8, 0x1000, 1}, {0, 0, 0}, {100, 1, 1});
  std::string message = errorMessage(stats);
  CHECK_THAT(message, Catch::Contains("port 0 (load at add.cl:3:14)"));
  CHECK_THAT(message, Catch::Contains("outside device memory"));
  CHECK_THAT(message, Catch::Contains("0x100000"));
  // The simulation stays usable.
  fillInput(memory, 10);
  auto again = simulation->run(0, {InAddress, 0x8000, 2}, {0, 0, 0}, {10, 1, 1});
  REQUIRE_OK(again);
  CHECK(memory.word(0x8000 + 4 * 9) == 3 * 9 + 1 + 2);
}

TEST_CASE("BoardSimulation's watchdog diagnoses a kernel that never finishes", "[sim][board]") {
  TestMemory memory(4 << 20);
  SimulationOptions options;
  options.watchdogCycles = 20000;
  auto simulation = simulationOn(boardNamed("unit"), memory, options);
  auto stats = simulation->run(1, {InAddress, OutAddress, 0}, {0, 0, 0}, {64, 1, 1});
  std::string message = errorMessage(stats);
  CHECK_THAT(message, Catch::Contains("kernel 'hang' made no progress for 20000 cycles"));
  CHECK_THAT(message, Catch::Contains("port 0 (load at hang.cl:2:9) has 64 requests, 64 responses, "
                                      "0 outstanding"));
  CHECK_THAT(message, Catch::Contains("port 1 (store at hang.cl:2:3)"));

  auto badIndex = simulation->run(8, {}, {0, 0, 0}, {1, 1, 1});
  CHECK_THAT(errorMessage(badIndex), Catch::Contains("no kernel 8"));
  auto badArgs = simulation->run(0, {1, 2}, {0, 0, 0}, {1, 1, 1});
  CHECK_THAT(errorMessage(badArgs), Catch::Contains("takes 3 argument words"));
}

TEST_CASE("BoardSimulation's watchdog counts finished work-items as progress", "[sim][board]") {
  // Five watchdog periods of work-items that touch no memory (OpenCL-CTS enqueued_local_size: a
  // 16384 x 16384 range in which one work-item stores): slow, not stuck.
  TestMemory memory(4 << 20);
  SimulationOptions options;
  options.watchdogCycles = 20000;
  auto simulation = simulationOn(boardNamed("unit"), memory, options);
  auto stats = simulation->run(7, {0, 0, 0}, {0, 0, 0}, {100000, 1, 1});
  REQUIRE_OK(stats);
  CHECK(stats->cycles > 100000);
}

TEST_CASE("BoardSimulation runs launches of different kernels at the same time", "[sim][board]") {
  board::Board unit = boardNamed("unit");
  TestMemory memory(4 << 20);
  SimulationOptions options;
  options.watchdogCycles = 20000;
  auto simulation = simulationOn(unit, memory, options);
  const uint64_t n = 3000;
  fillInput(memory, n);

  // 'hang' never finishes; 'add_const', started after it, finishes while it runs.
  requireNoError(simulation->start(7, 1, {InAddress, 0x300000, 0}, {0, 0, 0}, {64, 1, 1}));
  requireNoError(simulation->start(8, 0, {InAddress, OutAddress, 2}, {0, 0, 0}, {n, 1, 1}));
  CHECK(simulation->activeLaunches() == 2);
  CHECK_THAT(errorMessage(simulation->start(8, 0, {InAddress, OutAddress, 2}, {0, 0, 0}, {n, 1, 1})),
             Catch::Contains("launch 8 is already running"));
  CHECK_THAT(errorMessage(simulation->run(0, {InAddress, OutAddress, 2}, {0, 0, 0}, {n, 1, 1})),
             Catch::Contains("needs an idle board simulation"));

  std::vector<EndedLaunch> first = simulation->simulate();
  REQUIRE(first.size() == 1);
  CHECK(first[0].id == 8);
  CHECK(first[0].error.empty());
  CHECK(first[0].stats.cycles >= n);
  CHECK(first[0].stats.cycles < 2 * n);
  for (uint64_t i = 0; i < n; ++i)
    REQUIRE(memory.word(OutAddress + 4 * i) == 3 * i + 1 + 2);
  CHECK(simulation->activeLaunches() == 1);

  std::vector<EndedLaunch> second = simulation->simulate();
  REQUIRE(second.size() == 1);
  CHECK(second[0].id == 7);
  CHECK_THAT(second[0].error, Catch::Contains("kernel 'hang' made no progress for 20000 cycles"));
  // It stalled early and then waited out the watchdog, counted from its own start.
  CHECK(second[0].stats.cycles >= 20000);
  CHECK(second[0].stats.cycles < 20000 + first[0].stats.cycles);
  CHECK(simulation->activeLaunches() == 0);
  CHECK(simulation->simulate().empty());
}

TEST_CASE("BoardSimulation: a kernel's circuit takes its launches one after another",
          "[sim][board]") {
  TestMemory memory(4 << 20);
  auto simulation = simulationOn(boardNamed("unit"), memory);
  const uint64_t n = 500, secondOut = 0x300000;
  fillInput(memory, n);
  requireNoError(simulation->start(1, 0, {InAddress, OutAddress, 1}, {0, 0, 0}, {n, 1, 1}));
  requireNoError(simulation->start(2, 0, {InAddress, secondOut, 2}, {0, 0, 0}, {n, 1, 1}));
  CHECK(simulation->activeLaunches() == 2);

  SECTION("in start order, each timed from when it took the circuit") {
    std::vector<EndedLaunch> ended;
    while (ended.size() < 2)
      for (EndedLaunch &e : simulation->simulate())
        ended.push_back(std::move(e));
    REQUIRE(ended.size() == 2);
    CHECK(ended[0].id == 1);
    CHECK(ended[1].id == 2);
    CHECK(ended[0].error.empty());
    CHECK(ended[1].error.empty());
    CHECK(ended[1].stats.cycles < 2 * n);
    for (uint64_t i = 0; i < n; ++i) {
      REQUIRE(memory.word(OutAddress + 4 * i) == 3 * i + 1 + 1);
      REQUIRE(memory.word(secondOut + 4 * i) == 3 * i + 1 + 2);
    }
  }
  SECTION("an interruption returns between synchronisations and the launches go on") {
    SimulationOptions &options = simulation->options();
    options.quantumCycles = 64;
    unsigned asked = 0;
    std::vector<EndedLaunch> ended = simulation->simulate([&] { return ++asked == 1; });
    CHECK(asked == 1);
    CHECK(ended.empty());
    CHECK(simulation->activeLaunches() == 2);
    while (simulation->activeLaunches() != 0)
      simulation->simulate();
    CHECK(memory.word(secondOut + 4 * (n - 1)) == 3 * (n - 1) + 1 + 2);
  }
}

namespace {
constexpr unsigned Produce = 3, Consume = 4, ReserveProduce = 5, ReserveConsume = 6;
constexpr uint64_t PipeId = 77;

/// Runs every started launch to its end; returns them in the order they ended.
std::vector<EndedLaunch> finishAll(BoardSimulation &simulation) {
  std::vector<EndedLaunch> ended;
  while (simulation.activeLaunches() != 0)
    for (EndedLaunch &e : simulation.simulate())
      ended.push_back(std::move(e));
  return ended;
}

/// finishAll, checking that every launch succeeded.
std::vector<EndedLaunch> finishAllOk(BoardSimulation &simulation) {
  std::vector<EndedLaunch> ended = finishAll(simulation);
  for (const EndedLaunch &e : ended)
    CHECK(e.error == "");
  return ended;
}
} // namespace

TEST_CASE("Pipes: a producer and a consumer run at the same time through the pipe's FIFO",
          "[sim][board][pipes]") {
  TestMemory memory(4 << 20);
  SimulationOptions options;
  options.watchdogCycles = 2000;
  auto simulation = simulationOn(boardNamed("unit"), memory, options);
  const uint64_t n = 2000;
  const PipeBinding pipe{PipeId, 4, 4};

  SECTION("one packet per cycle in steady state, in order") {
    requireNoError(simulation->start(1, Produce, {PipeId, 0, 1000}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    requireNoError(simulation->start(2, Consume, {PipeId, OutAddress, 0}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    std::vector<EndedLaunch> ended = finishAllOk(*simulation);
    REQUIRE(ended.size() == 2);
    for (uint64_t i = 0; i < n; ++i)
      REQUIRE(memory.word(OutAddress + 4 * i) == 1000 + i);
    const RunStats &consumer = ended[0].id == 2 ? ended[0].stats : ended[1].stats;
    CHECK(consumer.cycles >= n);
    CHECK(consumer.cycles < n + 50);
    CHECK(simulation->pipePackets(PipeId) == 0);
  }
  SECTION("packets stay in the pipe from one launch to the next") {
    const PipeBinding deep{PipeId, 8, 4};
    REQUIRE_OK(simulation->run(Produce, {PipeId, 0, 5}, {0, 0, 0}, {3, 1, 1}, {deep}));
    CHECK(simulation->pipePackets(PipeId) == 3);
    REQUIRE_OK(simulation->run(Consume, {PipeId, OutAddress, 0}, {0, 0, 0}, {3, 1, 1}, {deep}));
    CHECK(memory.word(OutAddress) == 5);
    CHECK(memory.word(OutAddress + 8) == 7);
    CHECK(simulation->pipePackets(PipeId) == 0);
    // The pipe keeps its shape.
    CHECK_THAT(errorMessage(simulation->start(3, Produce, {PipeId, 0, 0}, {0, 0, 0}, {1, 1, 1}, {pipe})),
               Catch::Contains("pipe 77 was bound with 8 packets of 4 bytes before, not 4 of 4"));
  }
  SECTION("a producer blocked on a full pipe with no consumer is a deadlock, named with its pipe") {
    auto stats = simulation->run(Produce, {PipeId, 0, 0}, {0, 0, 0}, {10, 1, 1}, {pipe});
    std::string message = errorMessage(stats);
    CHECK_THAT(message, Catch::Contains("deadlock: no kernel on the board made progress for 2000 cycles"));
    CHECK_THAT(message, Catch::Contains("kernel 'produce' (at its cycle "));
    CHECK_THAT(message, Catch::Contains("the write pipe 'out' (argument 0, at produce.cl:2:3) holds 4 of 4 packets"));
  }
  SECTION("kernels waiting on each other's pipes fail together, each named") {
    const uint64_t other = PipeId + 1;
    // The consumer waits on an empty pipe while the producer fills another that nobody reads.
    requireNoError(simulation->start(1, Consume, {other, OutAddress, 0}, {0, 0, 0}, {5, 1, 1}, {{other, 2, 4}}));
    requireNoError(simulation->start(2, Produce, {PipeId, 0, 0}, {0, 0, 0}, {10, 1, 1}, {pipe}));
    std::vector<EndedLaunch> ended = finishAll(*simulation);
    REQUIRE(ended.size() == 2);
    for (const EndedLaunch &e : ended) {
      CHECK_THAT(e.error, Catch::Contains("deadlock"));
      CHECK_THAT(e.error, Catch::Contains("kernel 'consume'") && Catch::Contains("kernel 'produce'"));
      CHECK_THAT(e.error, Catch::Contains("the read pipe 'in' (argument 0, at consume.cl:2:12) holds 0 of 2 packets"));
      CHECK_THAT(e.error, Catch::Contains("holds 4 of 4 packets"));
    }
  }
  SECTION("a launch's pipes must match its kernel's pipe arguments") {
    CHECK_THAT(errorMessage(simulation->start(1, Produce, {PipeId, 0, 0}, {0, 0, 0}, {1, 1, 1}, {})),
               Catch::Contains("kernel 'produce' has 1 pipe arguments but the launch binds 0 pipes"));
    CHECK_THAT(errorMessage(simulation->start(1, Consume, {PipeId, OutAddress, 0}, {0, 0, 0}, {1, 1, 1},
                                              {PipeBinding{PipeId, 4, 8}})),
               Catch::Contains("argument 0 takes a pipe of 4-byte packets, not a pipe of 4 packets of 8 bytes"));
    CHECK(simulation->activeLaunches() == 0);
  }
}

TEST_CASE("An autorun launch starts again each time it finishes, idles while it waits alone and outlives a "
          "deadlock of the others",
          "[sim][board][pipes]") {
  TestMemory memory(4 << 20);
  SimulationOptions options;
  options.watchdogCycles = 2000;
  options.autorunIdleCycles = 100;
  auto simulation = simulationOn(boardNamed("unit"), memory, options);
  const PipeBinding pipe{PipeId, 4, 4};
  // A consumer of one packet a run, started again after each.
  requireNoError(simulation->start(1, Consume, {PipeId, OutAddress, 0}, {0, 0, 0}, {1, 1, 1}, {pipe}, true));
  // Alone, it waits for packets only another launch can bring: the simulation stops.
  CHECK(simulation->simulate().empty());
  CHECK(simulation->idle());
  CHECK(simulation->simulate().empty());
  CHECK(simulation->activeLaunches() == 1);

  // Simulates until the simulation is idle again; returns what ended meanwhile.
  auto untilIdle = [&] {
    std::vector<EndedLaunch> ended;
    while (!simulation->idle())
      for (EndedLaunch &e : simulation->simulate())
        ended.push_back(std::move(e));
    return ended;
  };
  for (uint64_t round = 0; round < 2; ++round) {
    // 50 packets, each consumed by a run of its own: the last one's is what the consumer wrote last.
    requireNoError(simulation->start(2 + round, Produce, {PipeId, 0, 100 * round}, {0, 0, 0}, {50, 1, 1}, {pipe}));
    CHECK_FALSE(simulation->idle());
    std::vector<EndedLaunch> ended = untilIdle();
    REQUIRE(ended.size() == 1);
    CHECK(ended[0].id == 2 + round);
    CHECK(ended[0].error == "");
    CHECK(simulation->pipePackets(PipeId) == 0);
    CHECK(memory.word(OutAddress) == 100 * round + 49);
  }

  // A producer filling a pipe nobody reads deadlocks with the waiting consumer: it fails, naming
  // both, and the consumer waits on.
  const uint64_t unread = PipeId + 1;
  requireNoError(simulation->start(9, Produce, {unread, 0, 0}, {0, 0, 0}, {10, 1, 1}, {{unread, 4, 4}}));
  std::vector<EndedLaunch> ended = untilIdle();
  REQUIRE(ended.size() == 1);
  CHECK(ended[0].id == 9);
  CHECK_THAT(ended[0].error, Catch::Contains("deadlock") && Catch::Contains("kernel 'consume'") &&
                                 Catch::Contains("kernel 'produce'"));
  CHECK(simulation->activeLaunches() == 1);
  requireNoError(simulation->start(10, Produce, {PipeId, 0, 7}, {0, 0, 0}, {1, 1, 1}, {pipe}));
  CHECK(untilIdle().size() == 1);
  CHECK(memory.word(OutAddress) == 7);
}

TEST_CASE("Pipe reservations: reserve, slots and commit through the board's FIFO", "[sim][board][pipes]") {
  TestMemory memory(4 << 20);
  SimulationOptions options;
  options.watchdogCycles = 2000;
  auto simulation = simulationOn(boardNamed("unit"), memory, options);
  const PipeBinding pipe{PipeId, 4, 4};
  const uint64_t n = 100;
  auto checkOutput = [&](uint32_t first) {
    for (uint64_t i = 0; i < n; ++i)
      REQUIRE(memory.word(OutAddress + 4 * i) == first + i);
  };

  SECTION("write reservations of 3 and read reservations of 2 packets, running at the same time") {
    requireNoError(simulation->start(1, ReserveProduce, {PipeId, 3, 500}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    requireNoError(simulation->start(2, ReserveConsume, {PipeId, OutAddress, 2}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    REQUIRE(finishAllOk(*simulation).size() == 2);
    checkOutput(500);
    // get_pipe_max_packets: the depth, stored after the packets.
    CHECK(memory.word(OutAddress + 4 * n) == 4);
    CHECK(simulation->pipePackets(PipeId) == 0);
  }
  SECTION("reservations and plain transfers share the pipe") {
    requireNoError(simulation->start(1, ReserveProduce, {PipeId, 4, 7}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    requireNoError(simulation->start(2, Consume, {PipeId, OutAddress, 0}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    REQUIRE(finishAllOk(*simulation).size() == 2);
    checkOutput(7);
    requireNoError(simulation->start(3, Produce, {PipeId, 0, 40}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    requireNoError(simulation->start(4, ReserveConsume, {PipeId, OutAddress, 3}, {0, 0, 0}, {n, 1, 1}, {pipe}));
    REQUIRE(finishAllOk(*simulation).size() == 2);
    checkOutput(40);
  }
  SECTION("packets written through reservations stay in the pipe for the next launch") {
    REQUIRE_OK(simulation->run(ReserveProduce, {PipeId, 3, 0}, {0, 0, 0}, {4, 1, 1}, {pipe}));
    CHECK(simulation->pipePackets(PipeId) == 4);
    REQUIRE_OK(simulation->run(ReserveConsume, {PipeId, OutAddress, 4}, {0, 0, 0}, {4, 1, 1}, {pipe}));
    CHECK(memory.word(OutAddress + 12) == 3);
  }
  SECTION("a commit of no reservation fails the launch, named with its pipe") {
    auto stats = simulation->run(ReserveProduce, {PipeId, (1u << 31) | 2, 0}, {0, 0, 0}, {n, 1, 1}, {pipe});
    CHECK_THAT(errorMessage(stats),
               Catch::Contains("kernel 'reserve_produce': the write pipe 'out' (argument 0, at rproduce.cl:3:5): "
                               "a commit of the write reservation at position 1, which is not open, at cycle "));
  }
  SECTION("a reader that never finds enough packets is a deadlock with the pipe's fill") {
    REQUIRE_OK(simulation->run(ReserveProduce, {PipeId, 1, 0}, {0, 0, 0}, {1, 1, 1}, {pipe}));
    auto stats = simulation->run(ReserveConsume, {PipeId, OutAddress, 2}, {0, 0, 0}, {2, 1, 1}, {pipe});
    CHECK_THAT(errorMessage(stats),
               Catch::Contains("the read pipe 'in' (argument 0, at rconsume.cl:2:12) holds 1 of 4 packets"));
  }
}

TEST_CASE("BoardSimulation checks the kernels against the model", "[sim][board]") {
  TestMemory memory(1 << 20);
  auto kernels = testKernels();
  kernels.pop_back();
  auto fewer = BoardSimulation::create(boardNamed("unit"), testModel(), kernels, memory.region());
  CHECK_THAT(errorMessage(fewer), Catch::Contains("describes 7 kernels but its simulation model has 8"));
}

TEST_CASE("The board model and the bare harness agree on cycles", "[sim][board]") {
  board::Board unit = boardNamed("unit");
  const uint64_t n = 20000;
  TestMemory memory(8 << 20);
  fillInput(memory, n);
  auto kernel = testKernels()[0];
  auto simulation = simulationOn(unit, memory);
  auto bareCycles = runBare(testModel(), kernel, 0, memory.region(), {InAddress, OutAddress, 9}, {0, 0, 0},
                            {n, 1, 1}, unit.memory.latencyCycles);
  REQUIRE_OK(bareCycles);
  CHECK(memory.word(OutAddress + 4 * (n - 1)) == 3 * (n - 1) + 1 + 9);
  // Unlimited bandwidth and the same fixed latency: both loops see the same memory. Their speeds are
  // compared by bench_sim_speed (scripts/bench.sh), not here.
  CHECK(runAdd(*simulation, 0, n, 9).cycles == *bareCycles);
}

TEST_CASE("Atomic ports: the memory reads, operates and writes in one step and answers the old value",
          "[sim][board]") {
  constexpr uint64_t Word = 0x3000, Sum = 0x4000;
  const uint64_t n = 500;
  board::Board board = boardNamed("default");
  TestMemory memory(1 << 20);
  // The same circuit with its port described as an add: request i adds i + 1, and the old values
  // are the running sums before each request.
  auto kernels = testKernels();
  kernels[2].ports[0].op = hls::MemoryPort::AtomicOp::Add;
  auto adding = BoardSimulation::create(board, testModel(), kernels, memory.region());
  REQUIRE_OK(adding);
  auto added = (*adding)->run(2, {Word, Sum, 0}, {0, 0, 0}, {n, 1, 1});
  REQUIRE_OK(added);
  uint32_t word = 0, olds = 0;
  for (uint32_t i = 0; i < n; ++i) {
    olds += word;
    word += i + 1;
  }
  CHECK(memory.word(Word) == word);
  CHECK(memory.word(Sum) == olds);
  CHECK(added->ports[0].requests == n);
  CHECK(added->cycles >= n + board.memory.latencyCycles);
  auto simulation = simulationOn(board, memory);
  // Compare-and-swap: request i swaps i for i + 1; served in order, every one succeeds.
  memory.setWord(Word, 0);
  auto swapped = simulation->run(2, {Word, Sum, 0}, {0, 0, 0}, {n, 1, 1});
  REQUIRE_OK(swapped);
  CHECK(memory.word(Word) == n);
  CHECK(memory.word(Sum) == n * (n - 1) / 2);
  // A compare that fails leaves the word: from 100000 no request matches.
  memory.setWord(Word, 100000);
  REQUIRE_OK(simulation->run(2, {Word, Sum, 0}, {0, 0, 0}, {n, 1, 1}));
  CHECK(memory.word(Word) == 100000);
  CHECK(memory.word(Sum) == 100000 * n);

  // An atomic outside device memory is named with its operation.
  auto outside = simulation->run(2, {memory.bytes.size(), Sum, 0}, {0, 0, 0}, {n, 1, 1});
  CHECK_THAT(errorMessage(outside),
             Catch::Contains("port 0 (atomic cmpxchg at atomic.cl:2:3) accessed device address"));

  // The bare harness does the same.
  memory.setWord(Word, 0);
  auto bare = runBare(testModel(), testKernels()[2], 2, memory.region(), {Word, Sum, 0}, {0, 0, 0}, {n, 1, 1},
                      board.memory.latencyCycles);
  REQUIRE_OK(bare);
  CHECK(memory.word(Word) == n);
  CHECK(memory.word(Sum) == n * (n - 1) / 2);
}
