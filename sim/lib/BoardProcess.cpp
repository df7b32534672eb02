//===- BoardProcess.cpp - Spawn, talk to and reap a loom-board process -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Every descriptor is close-on-exec; posix_spawn's dup2-onto-itself file action clears the flag for
// the two the child needs (glibc >= 2.29), so a concurrently spawned unrelated child never inherits
// the socket and EOF reliably means "the board process is gone".
//===----------------------------------------------------------------------===//
#include "loom/sim/BoardProcess.h"

#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace loom::sim {
namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

std::string describeStatus(int status) {
  if (WIFEXITED(status))
    return llvm::formatv("exited with status {0}", WEXITSTATUS(status)).str();
  if (WIFSIGNALED(status))
    return llvm::formatv("was killed by signal {0} ({1})", WTERMSIG(status),
                         strsignal(WTERMSIG(status)))
        .str();
  return "ended";
}

} // namespace

llvm::Expected<std::unique_ptr<BoardProcess>> BoardProcess::spawn(const Options &options) {
  if (access(options.executable.c_str(), X_OK) != 0)
    return error(llvm::formatv("cannot run the board simulator '{0}': {1} (set "
                               "LOOM_BOARD_EXECUTABLE to the loom-board executable)",
                               options.executable, std::strerror(errno)));
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0)
    return error(llvm::formatv("cannot create the board socket: {0}", std::strerror(errno)));
  int hostEnd = fds[0], boardEnd = fds[1];

  std::vector<std::string> argv = {options.executable,
                                   "--socket-fd", std::to_string(boardEnd),
                                   "--memory-fd", std::to_string(options.memoryFd),
                                   "--memory-size", std::to_string(options.memorySize),
                                   "--board", options.board,
                                   "--parent-pid", std::to_string(getpid())};
  std::vector<char *> cargv;
  for (auto &a : argv)
    cargv.push_back(a.data());
  cargv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, boardEnd, boardEnd);
  if (options.memoryFd >= 0)
    posix_spawn_file_actions_adddup2(&actions, options.memoryFd, options.memoryFd);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, options.executable.c_str(), &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(boardEnd);
  if (rc != 0) {
    ::close(hostEnd);
    return error(llvm::formatv("cannot start the board simulator '{0}': {1}", options.executable,
                               std::strerror(rc)));
  }

  std::unique_ptr<BoardProcess> process(new BoardProcess);
  process->socket_ = hostEnd;
  process->pid_ = pid;
  process->options_ = options;
  process->reader_ = std::thread([p = process.get()] { p->readMessages(); });

  std::unique_lock<std::mutex> lock(process->mutex_);
  auto hello = process->awaitReply(lock, options.startTimeoutMs, "its Hello");
  lock.unlock();
  if (!hello)
    return hello.takeError();
  if (hello->type == protocol::MessageType::Error)
    return error(llvm::formatv("the board simulator could not start: {0}",
                               protocol::messageText(hello->payload)));
  if (hello->type != protocol::MessageType::Hello)
    return error(llvm::formatv("the board simulator sent {0} instead of Hello",
                               protocol::typeName(hello->type)));
  auto parsed = protocol::parseHello(hello->payload);
  if (!parsed)
    return parsed.takeError();
  if (parsed->board != options.board)
    return error(llvm::formatv("the board simulator simulates board '{0}', not '{1}'",
                               parsed->board, options.board));
  process->hello_ = *parsed;
  return std::move(process);
}

BoardProcess::~BoardProcess() { llvm::consumeError(shutdown()); }

std::string BoardProcess::reap(int graceMs) {
  std::lock_guard<std::mutex> lock(reapMutex_);
  if (reaped_ || pid_ <= 0)
    return exitDescription_;
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
  for (;;) {
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR))
      break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  reaped_ = true;
  exitDescription_ = describeStatus(status);
  return exitDescription_;
}

void BoardProcess::readMessages() {
  for (;;) {
    auto received = protocol::receive(socket_, -1);
    std::string ended;
    if (!received) {
      // A board that speaks nonsense cannot be trusted with anything more.
      ended = llvm::formatv("sent a bad message ({0}) and was killed",
                            llvm::toString(received.takeError()));
      kill(pid_, SIGKILL);
      reap(0);
    } else if (received->status == protocol::Received::Status::Message) {
      protocol::Message &message = received->message;
      std::lock_guard<std::mutex> lock(mutex_);
      const bool answersLaunch = message.type == protocol::MessageType::KernelDone ||
                                 message.type == protocol::MessageType::KernelFailed;
      auto launch = protocol::launchOf(message.payload);
      if (answersLaunch && launch) {
        launchReplies_[*launch] = std::move(message);
      } else {
        llvm::consumeError(launch.takeError());
        replies_.push_back(std::move(message));
      }
      arrived_.notify_all();
      continue;
    } else {
      ended = reap(1000);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    readerEnded_ = ended.empty() ? "ended" : ended;
    arrived_.notify_all();
    return;
  }
}

llvm::Error BoardProcess::checkRunning() const {
  if (socket_ >= 0 && readerEnded_.empty())
    return llvm::Error::success();
  return error(llvm::formatv("the board simulator (pid {0}) is no longer running: it {1}", pid_,
                             readerEnded_.empty() ? "was shut down" : readerEnded_));
}

llvm::Expected<protocol::Message>
BoardProcess::await(std::unique_lock<std::mutex> &lock, int timeoutMs, llvm::StringRef waitingFor,
                    llvm::function_ref<bool(protocol::Message &)> take) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  protocol::Message message;
  for (;;) {
    if (take(message))
      return std::move(message);
    if (!readerEnded_.empty())
      return error(llvm::formatv("the board simulator (pid {0}) {1} while the host waited for {2}",
                                 pid_, readerEnded_, waitingFor));
    if (timeoutMs < 0) {
      arrived_.wait(lock);
    } else if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) {
      if (take(message))
        return std::move(message);
      // The reader sees the socket close and records the end; the answer is the timeout.
      kill(pid_, SIGKILL);
      return error(llvm::formatv("the board simulator (pid {0}) did not answer within {1} ms while "
                                 "the host waited for {2}; it was killed",
                                 pid_, timeoutMs, waitingFor));
    }
  }
}

llvm::Expected<protocol::Message> BoardProcess::awaitReply(std::unique_lock<std::mutex> &lock,
                                                           int timeoutMs, llvm::StringRef waitingFor) {
  return await(lock, timeoutMs, waitingFor, [&](protocol::Message &out) {
    if (replies_.empty())
      return false;
    out = std::move(replies_.front());
    replies_.pop_front();
    return true;
  });
}

llvm::Error BoardProcess::loadProgram(llvm::StringRef modelBytes,
                                      llvm::ArrayRef<hls::HardwareKernel> kernels) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (auto err = checkRunning())
    return err;
  int fd = memfd_create("loom-model", MFD_CLOEXEC);
  if (fd < 0)
    return error(llvm::formatv("cannot create a memfd for the model: {0}", std::strerror(errno)));
  size_t written = 0;
  while (written < modelBytes.size()) {
    ssize_t n = ::write(fd, modelBytes.data() + written, modelBytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      return error(llvm::formatv("cannot write the model to a memfd: {0}", std::strerror(saved)));
    }
    written += static_cast<size_t>(n);
  }
  llvm::Error sent = protocol::send(socket_, protocol::MessageType::LoadProgram,
                                    protocol::loadProgramPayload(kernels), fd);
  ::close(fd);
  if (sent) {
    std::string how = reap(1000);
    return error(llvm::formatv("cannot send the program to the board simulator (pid {0}, which "
                               "{1}): {2}",
                               pid_, how, llvm::toString(std::move(sent))));
  }
  auto reply = awaitReply(lock, options_.loadTimeoutMs, "the program to load");
  if (!reply)
    return reply.takeError();
  if (reply->type == protocol::MessageType::Loaded)
    return llvm::Error::success();
  if (reply->type == protocol::MessageType::Error)
    return error(llvm::formatv("the board simulator cannot load the program: {0}",
                               protocol::messageText(reply->payload)));
  return error(llvm::formatv("the board simulator answered LoadProgram with {0}",
                             protocol::typeName(reply->type)));
}

llvm::Expected<RunStats> BoardProcess::runKernel(protocol::RunKernel request) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (auto err = checkRunning())
    return std::move(err);
  request.launch = nextLaunch_++;
  if (llvm::Error sent =
          protocol::send(socket_, protocol::MessageType::RunKernel, protocol::toJSON(request))) {
    std::string how = reap(1000);
    return error(llvm::formatv("cannot start the kernel on the board simulator (pid {0}, which "
                               "{1}): {2}",
                               pid_, how, llvm::toString(std::move(sent))));
  }
  auto reply = await(lock, options_.runTimeoutMs, "the kernel to finish",
                     [&](protocol::Message &out) {
                       auto it = launchReplies_.find(request.launch);
                       if (it == launchReplies_.end())
                         return false;
                       out = std::move(it->second);
                       launchReplies_.erase(it);
                       return true;
                     });
  if (!reply)
    return reply.takeError();
  if (reply->type == protocol::MessageType::KernelDone)
    return protocol::parseRunStats(reply->payload);
  return error(protocol::messageText(reply->payload));
}

llvm::Error BoardProcess::shutdown() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (socket_ < 0)
    return llvm::Error::success();
  // A failed send means the process is already gone; reap() tells how.
  if (readerEnded_.empty())
    llvm::consumeError(protocol::send(socket_, protocol::MessageType::Shutdown, {}));
  lock.unlock();
  reap(2000);
  // The process is gone, so the socket reports its end to the reader.
  if (reader_.joinable())
    reader_.join();
  lock.lock();
  ::close(socket_);
  socket_ = -1;
  readerEnded_ = "was shut down";
  return llvm::Error::success();
}

} // namespace loom::sim
