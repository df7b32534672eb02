//===- Protocol.h - Messages between the runtime and loom-board -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The runtime and a board process talk over a SOCK_SEQPACKET socketpair: one message per packet, a
// fixed header {magic "LOOM", version, type, payload length} followed by a JSON payload. A file
// descriptor may ride along (SCM_RIGHTS): LoadProgram carries the model .so bytes as a memfd.
//
//   board -> host  Hello        {version, board, pid}                 first message, always
//   host -> board  LoadProgram  {kernels: [HardwareKernel]} + fd      -> Loaded {kernels: [names]} | Error
//   host -> board  RunKernel    {launch, kernel, args: [u64], offset: [3], size: [3],
//                                pipes: [{id, depth, packet_bytes}], autorun: bool}
//                                -> KernelDone {launch, cycles, simulated_ns, ports: [{requests, bytes}]}
//                                 | KernelFailed {launch, message}
//   host -> board  Shutdown     {}                                    the board exits
// Launches overlap: the host may send RunKernel while others run (the board takes it into the running
// simulation), and each answer names its launch, the host's number for it. A packet of another
// protocol version is an error naming both versions. An autorun launch is started again by the board
// each time its kernel finishes, so it is answered only if it fails.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/hls/HardwareKernel.h"
#include "loom/sim/PipeBinding.h"
#include "loom/sim/RunStats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace loom::sim::protocol {

inline constexpr uint32_t Magic = 0x4d4f4f4c; ///< "LOOM" as little-endian bytes.
inline constexpr uint16_t Version = 3; ///< 2: launches overlap, answers name them; 3: autorun launches.
inline constexpr size_t HeaderBytes = 12;
inline constexpr size_t MaxPayloadBytes = 128 * 1024; ///< Below the default socket buffer.

enum class MessageType : uint16_t {
  Hello = 1,
  LoadProgram = 2,
  Loaded = 3,
  Error = 4,
  RunKernel = 5,
  KernelDone = 6,
  KernelFailed = 7,
  Shutdown = 8,
};
llvm::StringRef typeName(MessageType type);

struct Message {
  MessageType type = MessageType::Error;
  llvm::json::Object payload;
  int fd = -1; ///< A received descriptor; the receiver owns it.
};

/// The packet bytes of one message (header + JSON). `version` is a parameter for tests.
std::string encode(MessageType type, const llvm::json::Object &payload, uint16_t version = Version);
/// Parses one packet; wrong magic, version, type or length, or bad JSON, is an error.
llvm::Expected<Message> decode(llvm::StringRef packet);

/// Sends one message, optionally passing `fd` (the caller keeps its copy). Never raises SIGPIPE.
llvm::Error send(int socket, MessageType type, const llvm::json::Object &payload, int fd = -1);
/// Sends raw packet bytes (used to test version checks).
llvm::Error sendPacket(int socket, llvm::StringRef packet, int fd = -1);

struct Received {
  enum class Status { Message, Closed, TimedOut };
  Status status = Status::Closed;
  Message message;
};
/// Waits up to `timeoutMs` (-1: no limit) for one message. The peer closing is Status::Closed, not
/// an error; a malformed packet is an error.
llvm::Expected<Received> receive(int socket, int timeoutMs = -1);

// Typed payloads.
struct Hello {
  uint32_t version = Version;
  std::string board;
  int64_t pid = 0;
};
struct RunKernel {
  uint64_t launch = 0; ///< The host's number for this launch, unique among those running.
  uint32_t kernel = 0;
  std::vector<uint64_t> args;
  std::array<uint64_t, 3> offset{0, 0, 0};
  std::array<uint64_t, 3> size{1, 1, 1};
  std::vector<PipeBinding> pipes; ///< One per pipe port of the kernel, in order.
  bool autorun = false; ///< The board starts it again each time it finishes (Intel's autorun kernels).
};

llvm::json::Object toJSON(const Hello &hello);
llvm::Expected<Hello> parseHello(const llvm::json::Object &payload);
llvm::json::Object toJSON(const RunKernel &run);
llvm::Expected<RunKernel> parseRunKernel(const llvm::json::Object &payload);
llvm::json::Object toJSON(const RunStats &stats);
llvm::Expected<RunStats> parseRunStats(const llvm::json::Object &payload);
llvm::json::Object loadProgramPayload(llvm::ArrayRef<hls::HardwareKernel> kernels);
llvm::Expected<std::vector<hls::HardwareKernel>> parseLoadProgram(const llvm::json::Object &payload);
/// The launch a KernelDone or KernelFailed answers (its "launch" member).
llvm::Expected<uint64_t> launchOf(const llvm::json::Object &payload);
/// `payload` with the launch it answers.
llvm::json::Object forLaunch(uint64_t launch, llvm::json::Object payload);
/// {"message": text}, the payload of Error and KernelFailed.
llvm::json::Object messagePayload(llvm::StringRef text);
std::string messageText(const llvm::json::Object &payload);

} // namespace loom::sim::protocol
