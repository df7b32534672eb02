//===- main.cpp - loom-board: one simulated board for one loaded program ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Started by the runtime's board device, never by users:
//   loom-board --socket-fd N --memory-fd M --memory-size BYTES --board NAME [--parent-pid P]
// Everything else is loom::sim::serveBoard. PR_SET_PDEATHSIG is not used: it fires when the spawning
// *thread* exits, which in an OpenCL program may be any short-lived thread; EOF on the socket and
// the parent-pid check stop the process instead.
//===----------------------------------------------------------------------===//
#include "loom/sim/BoardServer.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  loom::sim::BoardServerOptions options;
  auto number = [&](const char *flag, const char *text, unsigned long long &out) {
    char *end = nullptr;
    errno = 0;
    out = std::strtoull(text, &end, 10);
    if (errno || !end || *end || end == text) {
      std::fprintf(stderr, "loom-board: %s expects a number, got '%s'\n", flag, text);
      return false;
    }
    return true;
  };
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "loom-board: %s needs a value\n", flag.c_str());
      return 2;
    }
    const char *value = argv[++i];
    unsigned long long n = 0;
    if (flag == "--board") {
      options.board = value;
    } else if (flag == "--socket-fd" || flag == "--memory-fd" || flag == "--memory-size" ||
               flag == "--parent-pid") {
      if (!number(flag.c_str(), value, n))
        return 2;
      if (flag == "--socket-fd")
        options.socketFd = static_cast<int>(n);
      else if (flag == "--memory-fd")
        options.memoryFd = static_cast<int>(n);
      else if (flag == "--memory-size")
        options.memorySize = n;
      else
        options.parentPid = static_cast<pid_t>(n);
    } else {
      std::fprintf(stderr, "loom-board: unknown option %s (this program is started by the Loom "
                           "OpenCL runtime)\n",
                   flag.c_str());
      return 2;
    }
  }
  if (options.socketFd < 0 || options.board.empty()) {
    std::fprintf(stderr, "usage: loom-board --socket-fd N --memory-fd M --memory-size BYTES "
                         "--board NAME [--parent-pid P]\n");
    return 2;
  }
  return loom::sim::serveBoard(options);
}
