// SPDX-License-Identifier: Apache-2.0
// The runtime's board device end to end below the OpenCL API: a .loom binary carrying the test
// model, memfd device memory, a loom-board process per program, launches, and failures; source
// builds cached per board description.
#include "SimTestSupport.h"
#include "TemporaryCacheDirectory.h"
#include "TestSupport.h"

#include "devices/board/BoardDevice.h"
#include "loom/board/Board.h"
#include "loom/frontend/Binary.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sys/types.h>
#include <unistd.h>

using namespace loom;
using namespace loom::runtime;

namespace {

std::string testBinary(const std::string &board) {
  frontend::ProgramBinary binary;
  binary.meta["board"] = board;
  llvm::json::Array kernels;
  for (const auto &hw : sim::test::testKernels()) {
    frontend::KernelInfo info;
    info.name = hw.kernelName;
    for (const char *name : {"in", "out"}) {
      frontend::KernelArg arg;
      arg.name = name;
      arg.typeName = "uint*";
      arg.addressSpace = frontend::AddressSpace::Global;
      arg.isPointer = true;
      arg.size = 8;
      info.args.push_back(arg);
    }
    frontend::KernelArg k;
    k.name = "k";
    k.typeName = "uint";
    k.size = 4;
    info.args.push_back(k);
    llvm::json::Object entry = std::move(*frontend::toJSON(info).getAsObject());
    entry["hardware"] = hls::toJSON(hw);
    kernels.push_back(std::move(entry));
  }
  binary.meta["kernels"] = std::move(kernels);
  binary.verilog = sim::test::testVerilog();
  binary.model = sim::test::testModelBytes();
  binary.log = "test build log";
  return frontend::writeBinary(binary);
}

ArgValue buffer(const Allocation &a) {
  ArgValue v;
  v.kind = ArgValue::Kind::Buffer;
  v.buffer = a;
  return v;
}
ArgValue scalar(uint32_t value) {
  ArgValue v;
  v.kind = ArgValue::Kind::Scalar;
  v.bytes.resize(4);
  std::memcpy(v.bytes.data(), &value, 4);
  return v;
}

} // namespace

TEST_CASE("The board device runs a .loom binary in a loom-board process", "[sim][device]") {
  setenv("LOOM_BOARD", "unit", 1);
  auto device = createBoardDevice();
  unsetenv("LOOM_BOARD");
  const DeviceInfo &info = device->info();
  CHECK(info.name == "Loom simulated board (unit)");
  CHECK(info.kind == DeviceKind::Accelerator);
  CHECK_FALSE(info.denormals);
  CHECK(info.compilerAvailable);
  CHECK(info.clockMHz == 100);
  CHECK(info.globalMemBytes == 256ull << 20);

  const uint32_t n = 777;
  auto in = device->allocate(n * 4);
  auto out = device->allocate(n * 4);
  REQUIRE_OK(in);
  REQUIRE_OK(out);
  CHECK(in->deviceAddress != 0);
  CHECK(in->deviceAddress % 4096 == 0);
  CHECK(out->deviceAddress >= in->deviceAddress + 4096);
  for (uint32_t i = 0; i < n; ++i)
    static_cast<uint32_t *>(in->host)[i] = 5 * i;

  std::string bytes = testBinary("unit");
  std::string log;
  auto program = device->loadBinary(bytes, log);
  REQUIRE_OK(program);
  CHECK(log == "test build log");
  CHECK((*program)->binary() == bytes);
  REQUIRE((*program)->kernels().size() == sim::test::testKernels().size());
  CHECK((*program)->kernels()[0].name == "add_const");

  NDRange range;
  range.global = {n, 1, 1};
  auto result = device->launch(**program, 0, {buffer(*in), buffer(*out), scalar(3)}, range);
  REQUIRE_OK(result);
  CHECK(result->cycles >= n);
  CHECK(result->deviceNs == result->cycles * 10);
  for (uint32_t i = 0; i < n; ++i)
    REQUIRE(static_cast<uint32_t *>(out->host)[i] == 5 * i + 3);

  ArgValue local;
  local.kind = ArgValue::Kind::Local;
  local.localBytes = 64;
  auto localLaunch = device->launch(**program, 0, {buffer(*in), local, scalar(3)}, range);
  CHECK_THAT(errorMessage(localLaunch),
             Catch::Contains("kernel 'add_const' argument 1 is not a __local pointer: it takes no __local memory size"));

  SECTION("releasing memory makes it reusable") {
    uint64_t address = out->deviceAddress;
    device->release(*out);
    auto again = device->allocate(100);
    REQUIRE_OK(again);
    CHECK(again->deviceAddress == address);
    CHECK(static_cast<uint32_t *>(again->host)[0] == 0); // released pages were given back
  }
  SECTION("a binary for another board is refused with the fix") {
    std::string other = testBinary("default");
    std::string otherLog;
    auto refused = device->loadBinary(other, otherLog);
    CHECK_THAT(errorMessage(refused),
               Catch::Contains("binary was compiled for board 'default' but this device is board "
                               "'unit': recompile with loomc --board unit"));
    CHECK_THAT(otherLog, Catch::Contains("recompile"));
  }
  SECTION("a corrupt binary is an error in the log") {
    std::string badLog;
    auto bad = device->loadBinary("not a binary", badLog);
    CHECK_FALSE(static_cast<bool>(bad));
    llvm::consumeError(bad.takeError());
    CHECK_FALSE(badLog.empty());
  }
  SECTION("a board process that dies is an error at the next launch, and the program is freed") {
    // The hang kernel never finishes; kill its process from outside mid-launch.
    auto second = device->loadBinary(bytes, log);
    REQUIRE_OK(second);
    pid_t self = getpid();
    // The newest loom-board child of this process is the second program's.
    std::string children;
    {
      std::string path = "/proc/" + std::to_string(self) + "/task/" + std::to_string(self) +
                         "/children";
      FILE *f = std::fopen(path.c_str(), "r");
      REQUIRE(f);
      char text[256] = {};
      size_t got = std::fread(text, 1, sizeof text - 1, f);
      std::fclose(f);
      children.assign(text, got);
    }
    llvm::SmallVector<llvm::StringRef> pids;
    llvm::StringRef(children).split(pids, ' ', -1, false);
    REQUIRE(pids.size() >= 2);
    pid_t victim = std::stoi(pids[pids.size() - 1].trim().str());
    kill(victim, SIGKILL);
    auto dead = device->launch(**second, 0, {buffer(*in), buffer(*out), scalar(1)}, range);
    CHECK_THAT(errorMessage(dead), Catch::Contains("killed by signal 9"));
    second->reset(); // no hang, no zombie
    CHECK(kill(victim, 0) != 0);
  }
  program->reset();
  device->release(*in);
}

namespace {

/// The board device of board `name` (LOOM_BOARD).
std::unique_ptr<Device> boardNamed(const char *name) {
  setenv("LOOM_BOARD", name, 1);
  auto device = createBoardDevice();
  unsetenv("LOOM_BOARD");
  return device;
}

/// The log of building vector_add from source on board `name`.
std::string vectorAddBuildLog(const char *name) {
  const char *source = "__kernel void vector_add(__global const float *a, __global const float *b,\n"
                       "                         __global float *c) {\n"
                       "  size_t i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n";
  std::string log;
  REQUIRE_OK(boardNamed(name)->buildFromSource(source, "", log));
  return log;
}

} // namespace

TEST_CASE("source builds are cached per board: another board, or the same board described otherwise, "
          "builds anew", "[sim][device][cache]") {
  TemporaryCacheDirectory cache;
  llvm::SmallString<128> boards;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("loom-board-path", boards));

  CHECK_THAT(vectorAddBuildLog("unit"), Catch::Contains("loom: building for board 'unit'"));
  CHECK_THAT(vectorAddBuildLog("unit"), Catch::Contains("loom: cached build "));
  // The unit board's entry is not the default board's, nor replaced by it.
  CHECK_THAT(vectorAddBuildLog("default"), Catch::Contains("loom: building for board 'default'"));
  CHECK(cache.files(".loom").size() == 2);
  // Beside the programs, verilated.h precompiled for their models' C++ (one per optimisation level).
  const auto precompiled = std::filesystem::path(cache.path()) / "pch";
  CHECK(std::count_if(std::filesystem::directory_iterator(precompiled), {},
                      [](const auto &entry) { return entry.path().extension() == ".gch"; }) == 2);

  // The unit board with another memory latency, found first along LOOM_BOARD_PATH: the same name,
  // another description, so another program.
  auto unit = board::loadBoard("unit");
  REQUIRE_OK(unit);
  std::string slower = unit->json;
  const std::string latency = "\"latency_cycles\": 2";
  REQUIRE(slower.find(latency) != std::string::npos);
  slower.replace(slower.find(latency), latency.size(), "\"latency_cycles\": 3");
  std::ofstream((boards + "/unit.json").str()) << slower;
  setenv("LOOM_BOARD_PATH", boards.c_str(), 1);
  CHECK_THAT(vectorAddBuildLog("unit"), Catch::Contains("loom: building for board 'unit'"));
  unsetenv("LOOM_BOARD_PATH");
  CHECK(cache.files(".loom").size() == 3);

  llvm::sys::fs::remove_directories(boards);
}
