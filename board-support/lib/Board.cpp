//===- Board.cpp - Parse and find board descriptions ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/board/Board.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>

namespace loom::board {
namespace {

struct EmbeddedFile {
  const char *name;
  const char *contents;
};
const EmbeddedFile BuiltinBoards[] = {
#include "EmbeddedBoards.inc"
};

llvm::Error missing(llvm::StringRef origin, llvm::StringRef key) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0}: missing or invalid '{1}'", origin, key));
}

template <typename T>
llvm::Error readNumber(const llvm::json::Object &obj, llvm::StringRef key, T &out,
                       llvm::StringRef origin) {
  auto value = obj.getNumber(key);
  if (!value || *value < 0)
    return missing(origin, key);
  out = static_cast<T>(*value);
  return llvm::Error::success();
}

std::vector<std::string> searchDirectories() {
  std::vector<std::string> dirs;
  if (auto path = llvm::sys::Process::GetEnv("LOOM_BOARD_PATH")) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(*path).split(parts, ':', -1, false);
    for (auto p : parts)
      dirs.push_back(p.str());
  }
  return dirs;
}

} // namespace

llvm::Expected<unsigned> Board::latencyOf(llvm::StringRef op) const {
  auto it = operatorLatency.find(op.str());
  if (it == operatorLatency.end())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("board '{0}' gives no latency for operator class '{1}'", name, op));
  return it->second;
}

double Board::memoryBytesPerCycle() const {
  return memory.bandwidthGBps * 1000.0 / clockMHz;
}

llvm::Expected<Board> parseBoard(llvm::StringRef json, llvm::StringRef origin) {
  auto parsed = llvm::json::parse(json);
  if (!parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::formatv("{0}: {1}", origin, llvm::toString(parsed.takeError())));
  const auto *root = parsed->getAsObject();
  if (!root)
    return missing(origin, "<top-level object>");
  Board board;
  board.json = json.str();
  auto name = root->getString("name");
  if (!name || name->empty())
    return missing(origin, "name");
  board.name = name->str();
  board.description = root->getString("description").value_or("").str();
  if (auto err = readNumber(*root, "clock_mhz", board.clockMHz, origin))
    return std::move(err);
  if (board.clockMHz <= 0)
    return missing(origin, "clock_mhz");

  const auto *mem = root->getObject("global_memory");
  if (!mem)
    return missing(origin, "global_memory");
  uint64_t sizeMB = 0;
  if (auto err = readNumber(*mem, "size_mb", sizeMB, origin))
    return std::move(err);
  if (auto err = readNumber(*mem, "banks", board.memory.banks, origin))
    return std::move(err);
  if (auto err = readNumber(*mem, "width_bytes", board.memory.widthBytes, origin))
    return std::move(err);
  if (auto err = readNumber(*mem, "interleave_bytes", board.memory.interleaveBytes, origin))
    return std::move(err);
  if (auto err = readNumber(*mem, "latency_cycles", board.memory.latencyCycles, origin))
    return std::move(err);
  if (auto err = readNumber(*mem, "bandwidth_gbps", board.memory.bandwidthGBps, origin))
    return std::move(err);
  board.memory.sizeBytes = sizeMB << 20;
  if (board.memory.banks == 0 || board.memory.widthBytes == 0 || board.memory.interleaveBytes == 0 ||
      board.memory.latencyCycles == 0)
    return missing(origin, "global_memory (banks, width, interleave and latency must be positive)");

  if (const auto *link = root->getObject("host_link")) {
    board.hostLink.kind = link->getString("kind").value_or("").str();
    board.hostLink.bandwidthGBps = link->getNumber("bandwidth_gbps").value_or(0);
    board.hostLink.latencyUs = link->getNumber("latency_us").value_or(0);
  }
  if (const auto *res = root->getObject("resources")) {
    board.resources.luts = res->getInteger("luts").value_or(0);
    board.resources.ffs = res->getInteger("ffs").value_or(0);
    board.resources.dsps = res->getInteger("dsps").value_or(0);
    board.resources.brams = res->getInteger("brams").value_or(0);
  }
  const auto *ops = root->getObject("operator_latency");
  if (!ops)
    return missing(origin, "operator_latency");
  for (const auto &entry : *ops) {
    auto latency = entry.second.getAsInteger();
    if (!latency || *latency < 1)
      return missing(origin, ("operator_latency." + entry.first.str() + " (an integer >= 1)"));
    board.operatorLatency[entry.first.str()] = static_cast<unsigned>(*latency);
  }
  return board;
}

std::vector<Board> listBoards() {
  std::map<std::string, Board> byName;
  for (const auto &file : BuiltinBoards)
    if (auto board = parseBoard(file.contents, file.name))
      byName[board->name] = *board;
    else
      llvm::consumeError(board.takeError());
  for (const auto &dir : searchDirectories()) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
      if (llvm::sys::path::extension(it->path()) != ".json")
        continue;
      auto buffer = llvm::MemoryBuffer::getFile(it->path());
      if (!buffer)
        continue;
      if (auto board = parseBoard((*buffer)->getBuffer(), it->path()))
        byName[board->name] = *board;
      else
        llvm::consumeError(board.takeError());
    }
  }
  std::vector<Board> boards;
  for (auto &entry : byName)
    boards.push_back(std::move(entry.second));
  return boards;
}

llvm::Expected<Board> loadBoard(llvm::StringRef name) {
  for (const auto &dir : searchDirectories()) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name + ".json");
    if (auto buffer = llvm::MemoryBuffer::getFile(path))
      return parseBoard((*buffer)->getBuffer(), path);
  }
  for (const auto &file : BuiltinBoards)
    if (llvm::StringRef(file.name) == (name + ".json").str())
      return parseBoard(file.contents, file.name);
  std::string known;
  for (const auto &board : listBoards())
    known += (known.empty() ? "" : ", ") + board.name;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("unknown board '{0}' (known boards: {1})", name, known));
}

} // namespace loom::board
