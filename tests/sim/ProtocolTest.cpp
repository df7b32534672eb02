// SPDX-License-Identifier: Apache-2.0
// The runtime <-> loom-board protocol: packets, descriptors, version checks, and a real loom-board
// process serving the test model over the shared device memory.
#include "SimTestSupport.h"
#include "TestSupport.h"

#include "loom/sim/BoardProcess.h"
#include "loom/sim/Protocol.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <future>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace loom;
using namespace loom::sim;
using namespace loom::sim::test;

namespace {

struct SocketPair {
  int fds[2] = {-1, -1};
  SocketPair() { REQUIRE(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) == 0); }
  ~SocketPair() {
    for (int fd : fds)
      if (fd >= 0)
        close(fd);
  }
};

/// Device memory shared with a board process, as the board device sets it up.
struct SharedMemory {
  int fd = -1;
  uint8_t *base = nullptr;
  uint64_t size = 0;
  explicit SharedMemory(uint64_t bytes) : size(bytes) {
    fd = memfd_create("loom-test-memory", MFD_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, static_cast<off_t>(bytes)) == 0);
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    REQUIRE(p != MAP_FAILED);
    base = static_cast<uint8_t *>(p);
  }
  ~SharedMemory() {
    munmap(base, size);
    close(fd);
  }
  uint32_t word(uint64_t a) const {
    uint32_t v;
    std::memcpy(&v, base + a, 4);
    return v;
  }
};

std::unique_ptr<BoardProcess> spawnBoard(SharedMemory &memory, const char *board = "unit") {
  BoardProcess::Options options;
  options.executable = LOOM_BOARD_EXECUTABLE_PATH;
  options.board = board;
  options.memoryFd = memory.fd;
  options.memorySize = memory.size;
  auto process = BoardProcess::spawn(options);
  if (!process)
    FAIL(llvm::toString(process.takeError()));
  return std::move(*process);
}

/// A board process whose watchdog waits `watchdogCycles`, with the test kernels loaded.
std::unique_ptr<BoardProcess> boardWithTestKernels(SharedMemory &memory, const char *watchdogCycles) {
  setenv("LOOM_BOARD_WATCHDOG_CYCLES", watchdogCycles, 1);
  auto board = spawnBoard(memory);
  unsetenv("LOOM_BOARD_WATCHDOG_CYCLES");
  requireNoError(board->loadProgram(testModelBytes(), testKernels()));
  return board;
}

bool processExists(pid_t pid) { return kill(pid, 0) == 0; }

} // namespace

TEST_CASE("Protocol packets round-trip and check their header", "[sim][protocol]") {
  protocol::RunKernel run;
  run.launch = 42;
  run.kernel = 1;
  run.args = {0x1000, UINT64_MAX, 7};
  run.offset = {4, 0, 0};
  run.size = {100, 1, 1};
  run.pipes = {{77, 16, 8}};
  run.autorun = true;
  std::string packet = protocol::encode(protocol::MessageType::RunKernel, protocol::toJSON(run));
  auto message = protocol::decode(packet);
  REQUIRE_OK(message);
  CHECK(message->type == protocol::MessageType::RunKernel);
  auto back = protocol::parseRunKernel(message->payload);
  REQUIRE_OK(back);
  CHECK(back->launch == 42);
  CHECK(back->autorun);
  REQUIRE(back->pipes.size() == 1);
  CHECK(back->pipes[0].id == 77);
  CHECK(back->pipes[0].depth == 16);
  CHECK(back->pipes[0].packetBytes == 8);
  CHECK(back->args == run.args);
  CHECK(back->offset == run.offset);
  CHECK(back->size == run.size);

  std::string future =
      protocol::encode(protocol::MessageType::Hello, {}, protocol::Version + 1);
  auto mismatch = protocol::decode(future);
  CHECK_THAT(errorMessage(mismatch), Catch::Contains("protocol version mismatch: the peer speaks "
                                                     "version 4, this side version 3"));
  auto foreign = protocol::decode("GET / HTTP/1.1\r\n\r\n");
  CHECK_THAT(errorMessage(foreign), Catch::Contains("magic"));
  std::string cut = packet.substr(0, packet.size() - 1);
  auto truncated = protocol::decode(cut);
  CHECK_THAT(errorMessage(truncated), Catch::Contains("payload bytes"));

  RunStats stats;
  stats.cycles = 1234;
  stats.simulatedNs = 12340;
  stats.ports = {{10, 40}, {10, 40}};
  auto parsed = protocol::parseRunStats(protocol::toJSON(stats));
  REQUIRE_OK(parsed);
  CHECK(parsed->cycles == 1234);
  CHECK(parsed->ports.size() == 2);
  CHECK(parsed->ports[1].bytes == 40);

  auto kernels = protocol::parseLoadProgram(protocol::loadProgramPayload(testKernels()));
  REQUIRE_OK(kernels);
  CHECK((*kernels)[1].topModule == "loom_test_hang");
  REQUIRE((*kernels)[4].pipePorts.size() == 1);
  CHECK_FALSE((*kernels)[4].pipePorts[0].writes);
  CHECK((*kernels)[4].pipePorts[0].location == "consume.cl:2:12");
  CHECK((*kernels)[3].pipePorts[0].writes);
  // The operations a pipe port has travel with it.
  CHECK((*kernels)[4].pipePorts[0].transfers);
  CHECK_FALSE((*kernels)[4].pipePorts[0].reserves);
  CHECK_FALSE((*kernels)[5].pipePorts[0].transfers);
  CHECK((*kernels)[5].pipePorts[0].commits);
  CHECK((*kernels)[6].pipePorts[0].queries);
  // A pipe port must name one of the kernel's arguments and carry a packet of 1 to 1024 bytes.
  auto described = protocol::loadProgramPayload(testKernels());
  auto &pipePort = *(*described.getArray("kernels"))[4].getAsObject()->getArray("pipe_ports")->front().getAsObject();
  pipePort["packet_bytes"] = 1025;
  CHECK_THAT(errorMessage(protocol::parseLoadProgram(described)), Catch::Contains("expected 1 to 1024"));
  pipePort["packet_bytes"] = 4;
  pipePort["arg"] = 3;
  CHECK_THAT(errorMessage(protocol::parseLoadProgram(described)),
             Catch::Contains("expected one of the kernel's arguments"));
}

TEST_CASE("Protocol over a socketpair: descriptors, EOF, timeouts, versions", "[sim][protocol]") {
  SocketPair pair;
  int memfd = memfd_create("x", MFD_CLOEXEC);
  REQUIRE(memfd >= 0);
  REQUIRE(write(memfd, "model", 5) == 5);
  requireNoError(protocol::send(pair.fds[0], protocol::MessageType::LoadProgram,
                               protocol::loadProgramPayload(testKernels()), memfd));
  close(memfd);
  auto received = protocol::receive(pair.fds[1], 1000);
  REQUIRE_OK(received);
  REQUIRE(received->status == protocol::Received::Status::Message);
  CHECK(received->message.type == protocol::MessageType::LoadProgram);
  REQUIRE(received->message.fd >= 0);
  char text[6] = {};
  CHECK(pread(received->message.fd, text, 5, 0) == 5);
  CHECK(std::string(text) == "model");
  close(received->message.fd);

  auto timeout = protocol::receive(pair.fds[1], 10);
  REQUIRE_OK(timeout);
  CHECK(timeout->status == protocol::Received::Status::TimedOut);

  requireNoError(protocol::sendPacket(
      pair.fds[0], protocol::encode(protocol::MessageType::Shutdown, {}, 99)));
  auto mismatch = protocol::receive(pair.fds[1], 1000);
  CHECK_THAT(errorMessage(mismatch), Catch::Contains("version mismatch"));

  close(pair.fds[0]);
  pair.fds[0] = -1;
  auto closed = protocol::receive(pair.fds[1], 1000);
  REQUIRE_OK(closed);
  CHECK(closed->status == protocol::Received::Status::Closed);
  // Sending to a closed peer is an error, not SIGPIPE.
  CHECK_THAT(errorMessage(protocol::send(pair.fds[1], protocol::MessageType::Shutdown, {})),
             Catch::Contains("closed"));
}

TEST_CASE("loom-board runs a kernel on the shared device memory", "[sim][process]") {
  SharedMemory memory(16 << 20);
  const uint64_t n = 500, in = 0x1000, out = 0x10000;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t v = static_cast<uint32_t>(i * i);
    std::memcpy(memory.base + in + 4 * i, &v, 4);
  }
  auto board = spawnBoard(memory);
  CHECK(board->hello().board == "unit");
  CHECK(board->hello().pid == board->pid());
  requireNoError(board->loadProgram(testModelBytes(), testKernels()));

  protocol::RunKernel run;
  run.kernel = 0;
  run.args = {in, out, 11};
  run.size = {n, 1, 1};
  auto stats = board->runKernel(run);
  REQUIRE_OK(stats);
  CHECK(stats->cycles >= n);
  CHECK(stats->simulatedNs == Approx(stats->cycles * 10.0));
  REQUIRE(stats->ports.size() == 2);
  CHECK(stats->ports[1].requests == n);
  // The board wrote straight into the host's mapping.
  for (uint64_t i = 0; i < n; ++i)
    REQUIRE(memory.word(out + 4 * i) == i * i + 11);

  SECTION("kernel errors come back as errors and the board keeps serving") {
    run.args = {memory.size - 4, out, 0};
    auto failed = board->runKernel(run);
    CHECK_THAT(errorMessage(failed), Catch::Contains("outside device memory"));
    run.args = {in, out, 1};
    REQUIRE_OK(board->runKernel(run));
    CHECK(memory.word(out) == 1);
  }
  SECTION("shutdown leaves no process behind") {
    pid_t pid = board->pid();
    requireNoError(board->shutdown());
    CHECK_FALSE(processExists(pid));
    auto after = board->runKernel(run);
    CHECK_THAT(errorMessage(after), Catch::Contains("no longer running"));
  }
}

TEST_CASE("loom-board runs launches from several threads at the same time", "[sim][process]") {
  SharedMemory memory(16 << 20);
  const uint64_t n = 300, in = 0x1000, out = 0x10000;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t v = static_cast<uint32_t>(i);
    std::memcpy(memory.base + in + 4 * i, &v, 4);
  }
  // A watchdog far away: 'hang' runs until the shutdown.
  auto board = boardWithTestKernels(memory, "100000000000");

  protocol::RunKernel hang;
  hang.kernel = 1;
  hang.args = {in, 0x80000, 0};
  hang.size = {8, 1, 1};
  auto hanging = std::async(std::launch::async, [&] { return board->runKernel(hang); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));

  // Two more threads, both on 'add_const': they share its circuit, one after the other.
  protocol::RunKernel add;
  add.kernel = 0;
  add.args = {in, out, 5};
  add.size = {n, 1, 1};
  protocol::RunKernel addAgain = add;
  addAgain.args = {in, out + 4 * n, 6};
  auto first = std::async(std::launch::async, [&] { return board->runKernel(add); });
  auto second = std::async(std::launch::async, [&] { return board->runKernel(addAgain); });
  REQUIRE(first.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  REQUIRE(second.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  REQUIRE_OK(first.get());
  REQUIRE_OK(second.get());
  for (uint64_t i = 0; i < n; ++i) {
    REQUIRE(memory.word(out + 4 * i) == i + 5);
    REQUIRE(memory.word(out + 4 * (n + i)) == i + 6);
  }
  CHECK(hanging.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);

  // Shutting down ends the launch still running with an error, not a hang.
  requireNoError(board->shutdown());
  REQUIRE(hanging.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  CHECK_THAT(errorMessage(hanging.get()), Catch::Contains("waited for the kernel to finish"));
}

TEST_CASE("loom-board failures are errors, never hangs", "[sim][process]") {
  SharedMemory memory(1 << 20);

  SECTION("an unknown board") {
    BoardProcess::Options options;
    options.executable = LOOM_BOARD_EXECUTABLE_PATH;
    options.board = "no-such-board";
    options.memoryFd = memory.fd;
    options.memorySize = memory.size;
    auto process = BoardProcess::spawn(options);
    CHECK_THAT(errorMessage(process), Catch::Contains("no-such-board"));
  }
  SECTION("a missing executable") {
    BoardProcess::Options options;
    options.executable = "/nonexistent/loom-board";
    options.board = "unit";
    auto process = BoardProcess::spawn(options);
    CHECK_THAT(errorMessage(process), Catch::Contains("LOOM_BOARD_EXECUTABLE"));
  }
  SECTION("a model that is not one") {
    auto board = spawnBoard(memory);
    auto err = board->loadProgram("garbage", testKernels());
    CHECK_THAT(errorMessage(std::move(err)), Catch::Contains("not a loadable shared object"));
  }
  SECTION("the watchdog, through the process") {
    auto board = boardWithTestKernels(memory, "5000");
    protocol::RunKernel run;
    run.kernel = 1;
    run.args = {0x1000, 0x8000, 0};
    run.size = {8, 1, 1};
    auto stats = board->runKernel(run);
    CHECK_THAT(errorMessage(stats), Catch::Contains("made no progress for 5000 cycles"));
  }
  SECTION("the process killed in the middle of a launch") {
    // A watchdog far away: the launch runs until the kill.
    auto board = boardWithTestKernels(memory, "100000000000");
    protocol::RunKernel run;
    run.kernel = 1;
    run.args = {0x1000, 0x8000, 0};
    run.size = {8, 1, 1};
    pid_t pid = board->pid();
    auto result = std::async(std::launch::async, [&] { return board->runKernel(run); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(result.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);
    kill(pid, SIGKILL);
    REQUIRE(result.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    auto stats = result.get();
    std::string message = errorMessage(stats);
    CHECK_THAT(message, Catch::Contains("was killed by signal 9"));
    CHECK_THAT(message, Catch::Contains("waited for the kernel to finish"));
    CHECK_FALSE(processExists(pid)); // reaped: no zombie
  }
}
