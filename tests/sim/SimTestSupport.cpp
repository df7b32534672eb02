// SPDX-License-Identifier: Apache-2.0
// Builds the test model once per test executable: Verilating and compiling takes seconds.
#include "SimTestSupport.h"

#include "loom/sim/ModelBuilder.h"

#include "llvm/Support/MemoryBuffer.h"

#include <catch2/catch.hpp>
#include <chrono>

namespace loom::sim::test {
namespace {
double buildSeconds = 0;
}

std::vector<hls::HardwareKernel> testKernels() {
  hls::HardwareKernel add;
  add.kernelName = "add_const";
  add.topModule = "loom_test_add";
  add.numArgs = 3;
  add.ports = {{hls::MemoryPort::Kind::Load, 4, "add.cl:3:14"},
               {hls::MemoryPort::Kind::Store, 4, "add.cl:3:5"}};
  hls::HardwareKernel hang = add;
  hang.kernelName = "hang";
  hang.topModule = "loom_test_hang";
  hang.ports = {{hls::MemoryPort::Kind::Load, 4, "hang.cl:2:9"},
                {hls::MemoryPort::Kind::Store, 4, "hang.cl:2:3"}};
  // An atomic port: m0 a cmpxchg of the word at arg_0; m1 stores the sum of the old values at arg_1.
  hls::HardwareKernel atomic = add;
  atomic.kernelName = "atomic";
  atomic.topModule = "loom_test_atomic";
  atomic.ports = {{hls::MemoryPort::Kind::Atomic, 4, "atomic.cl:2:3", hls::MemoryPort::AtomicOp::CmpXchg},
                  {hls::MemoryPort::Kind::Store, 4, "atomic.cl:3:3"}};
  // Pipes: 'produce' writes packets into the pipe of argument 0, 'consume' stores what it reads.
  hls::HardwareKernel produce = add;
  produce.kernelName = "produce";
  produce.topModule = "loom_test_produce";
  produce.ports = {};
  produce.pipePorts = {{0, /*writes=*/true, 4, "produce.cl:2:3", "out", /*transfers=*/true}};
  hls::HardwareKernel consume = add;
  consume.kernelName = "consume";
  consume.topModule = "loom_test_consume";
  consume.ports = {{hls::MemoryPort::Kind::Store, 4, "consume.cl:3:3"}};
  consume.pipePorts = {{0, /*writes=*/false, 4, "consume.cl:2:12", "in", /*transfers=*/true}};
  // Pipe reservations: 'reserve_produce' writes through write reservations (reserves, slots,
  // commits), 'reserve_consume' reads through read reservations and queries the pipe's capacity.
  hls::HardwareKernel reserveProduce = produce;
  reserveProduce.kernelName = "reserve_produce";
  reserveProduce.topModule = "loom_test_reserve_produce";
  reserveProduce.pipePorts = {{0, /*writes=*/true, 4, "rproduce.cl:3:5", "out", /*transfers=*/false, /*reserves=*/true,
                               /*slots=*/true, /*commits=*/true}};
  hls::HardwareKernel reserveConsume = consume;
  reserveConsume.kernelName = "reserve_consume";
  reserveConsume.topModule = "loom_test_reserve_consume";
  reserveConsume.pipePorts = {{0, /*writes=*/false, 4, "rconsume.cl:2:12", "in", /*transfers=*/false, /*reserves=*/true,
                               /*slots=*/true, /*commits=*/true, /*queries=*/true}};
  // 'quiet': work-items that touch no memory, one finishing a cycle.
  hls::HardwareKernel quiet = add;
  quiet.kernelName = "quiet";
  quiet.topModule = "loom_test_quiet";
  quiet.ports = {};
  return {add, hang, atomic, produce, consume, reserveProduce, reserveConsume, quiet};
}

std::string testVerilog() {
  auto buffer = llvm::MemoryBuffer::getFile(LOOM_SIM_TEST_VERILOG);
  REQUIRE(static_cast<bool>(buffer));
  return (*buffer)->getBuffer().str();
}

const std::string &testModelBytes() {
  static const std::string bytes = [] {
    ModelBuilder builder;
    auto start = std::chrono::steady_clock::now();
    auto built = builder.build(testVerilog(), testKernels());
    buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!built)
      FAIL("building the test model failed: " << llvm::toString(built.takeError()));
    return built ? *built : std::string();
  }();
  return bytes;
}

double testModelBuildSeconds() {
  testModelBytes();
  return buildSeconds;
}

const LoadedModel &testModel() {
  static std::unique_ptr<LoadedModel> model = [] {
    auto loaded = LoadedModel::load(testModelBytes());
    if (!loaded)
      FAIL("loading the test model failed: " << llvm::toString(loaded.takeError()));
    return loaded ? std::move(*loaded) : std::unique_ptr<LoadedModel>();
  }();
  return *model;
}

} // namespace loom::sim::test
