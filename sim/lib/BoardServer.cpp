//===- BoardServer.cpp - Serve the board protocol --------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Device buffers live once, in the runtime's memfd mapped here MAP_SHARED: the kernel's loads and
// stores are the host's buffers, nothing is copied either way.
//
// The board listens while it simulates: a message arriving during a simulation interrupts it at the
// next synchronisation, so a RunKernel joins the running launches (kernels run at the same time) and
// each launch is answered as soon as it ends.
//===----------------------------------------------------------------------===//
#include "loom/sim/BoardServer.h"

#include "loom/board/Board.h"
#include "loom/sim/BoardSimulation.h"
#include "loom/sim/LoadedModel.h"
#include "loom/sim/Protocol.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

namespace loom::sim {

int serveBoard(const BoardServerOptions &options) {
  using namespace protocol;
  const int socket = options.socketFd;
  auto fatal = [&](const llvm::Twine &message) {
    llvm::consumeError(send(socket, MessageType::Error, messagePayload(message.str())));
    llvm::errs() << "loom-board: " << message << "\n";
    return 1;
  };

  auto board = board::loadBoard(options.board);
  if (!board)
    return fatal(llvm::toString(board.takeError()));

  MemoryRegion memory;
  if (options.memorySize > 0) {
    void *mapping = mmap(nullptr, options.memorySize, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_NORESERVE, options.memoryFd, 0);
    if (mapping == MAP_FAILED)
      return fatal(llvm::formatv("cannot map the device memory ({0} bytes from fd {1}): {2}",
                                 options.memorySize, options.memoryFd, std::strerror(errno)));
    memory.base = static_cast<uint8_t *>(mapping);
    memory.size = options.memorySize;
  }

  Hello hello;
  hello.board = board->name;
  hello.pid = getpid();
  if (auto err = send(socket, MessageType::Hello, toJSON(hello))) {
    llvm::errs() << "loom-board: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }

  SimulationOptions simOptions;
  // For tests and for kernels known to idle long between requests (a long arithmetic loop).
  if (const char *watchdog = getenv("LOOM_BOARD_WATCHDOG_CYCLES"))
    if (unsigned long long cycles = std::strtoull(watchdog, nullptr, 10))
      simOptions.watchdogCycles = cycles;
  if (options.parentPid > 0) {
    pid_t parent = options.parentPid;
    simOptions.cancelled = [parent] { return getppid() != parent; };
  }
  // The simulation refers to the model: destroy it first.
  std::unique_ptr<LoadedModel> model;
  std::unique_ptr<BoardSimulation> simulation;

  auto messageWaiting = [socket] {
    pollfd descriptor{socket, POLLIN, 0};
    return ::poll(&descriptor, 1, 0) > 0;
  };

  for (;;) {
    // Idle autorun kernels wait for a message to bring them packets: the board waits with them.
    if (simulation && simulation->activeLaunches() != 0 && !simulation->idle()) {
      for (EndedLaunch &ended : simulation->simulate(messageWaiting)) {
        llvm::Error sent =
            ended.error.empty()
                ? send(socket, MessageType::KernelDone, forLaunch(ended.id, toJSON(ended.stats)))
                : send(socket, MessageType::KernelFailed,
                       forLaunch(ended.id, messagePayload(ended.error)));
        if (sent) {
          llvm::consumeError(std::move(sent));
          return 0; // the runtime is gone; nobody reads the answer
        }
      }
      if (simOptions.cancelled && simOptions.cancelled())
        return 0;
      if (!messageWaiting())
        continue;
    }
    auto received = receive(socket, -1);
    if (!received) {
      llvm::errs() << "loom-board: " << llvm::toString(received.takeError()) << "\n";
      return 1;
    }
    if (received->status != Received::Status::Message)
      return 0; // the runtime closed its end: nothing more to do
    Message &message = received->message;
    llvm::Error replyError = llvm::Error::success();
    switch (message.type) {
    case MessageType::LoadProgram: {
      // Idle autorun kernels wait for a message to bring them packets: the board waits with them.
    if (simulation && simulation->activeLaunches() != 0 && !simulation->idle()) {
        if (message.fd >= 0)
          ::close(message.fd);
        replyError = send(socket, MessageType::Error,
                          messagePayload("a program cannot be loaded while launches run"));
        break;
      }
      simulation.reset();
      model.reset();
      if (message.fd < 0) {
        replyError = send(socket, MessageType::Error,
                          messagePayload("LoadProgram carried no model descriptor"));
        break;
      }
      auto kernels = parseLoadProgram(message.payload);
      if (!kernels) {
        ::close(message.fd);
        replyError = send(socket, MessageType::Error,
                          messagePayload(llvm::toString(kernels.takeError())));
        break;
      }
      auto loaded = LoadedModel::loadFromFd(message.fd);
      if (!loaded) {
        replyError = send(socket, MessageType::Error,
                          messagePayload(llvm::toString(loaded.takeError())));
        break;
      }
      auto created = BoardSimulation::create(*board, **loaded, *kernels, memory, simOptions);
      if (!created) {
        replyError = send(socket, MessageType::Error,
                          messagePayload(llvm::toString(created.takeError())));
        break;
      }
      model = std::move(*loaded);
      simulation = std::move(*created);
      llvm::json::Array names;
      for (unsigned k = 0; k < model->kernelCount(); ++k)
        names.push_back(model->kernelName(k));
      replyError = send(socket, MessageType::Loaded, llvm::json::Object{{"kernels", std::move(names)}});
      break;
    }
    case MessageType::RunKernel: {
      if (message.fd >= 0)
        ::close(message.fd);
      auto launch = launchOf(message.payload);
      if (!launch) {
        replyError = send(socket, MessageType::Error,
                          messagePayload(llvm::toString(launch.takeError())));
        break;
      }
      auto fail = [&](const std::string &why) {
        return send(socket, MessageType::KernelFailed, forLaunch(*launch, messagePayload(why)));
      };
      if (!simulation) {
        replyError = fail("no program is loaded on the board");
        break;
      }
      auto request = parseRunKernel(message.payload);
      if (!request) {
        replyError = fail(llvm::toString(request.takeError()));
        break;
      }
      if (llvm::Error err = simulation->start(request->launch, request->kernel, request->args,
                                              request->offset, request->size, request->pipes,
                                              request->autorun))
        replyError = fail(llvm::toString(std::move(err)));
      break;
    }
    case MessageType::Shutdown:
      return 0;
    default:
      if (message.fd >= 0)
        ::close(message.fd);
      replyError = send(socket, MessageType::Error,
                        messagePayload(llvm::formatv("the board does not accept {0} messages",
                                                     typeName(message.type))
                                           .str()));
      break;
    }
    if (replyError) {
      // The runtime went away between its request and our answer.
      llvm::consumeError(std::move(replyError));
      return 0;
    }
  }
}

} // namespace loom::sim
