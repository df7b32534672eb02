//===- Protocol.cpp - Packets over a SOCK_SEQPACKET socket -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/sim/Protocol.h"

#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace loom::sim::protocol {
namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

void put32(std::string &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put16(std::string &out, uint16_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>(v >> 8);
}
uint32_t get32(const unsigned char *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint16_t get16(const unsigned char *p) { return uint16_t(p[0] | p[1] << 8); }

llvm::Expected<uint64_t> getU64(const llvm::json::Object &o, llvm::StringRef key) {
  const llvm::json::Value *v = o.get(key);
  if (v)
    if (auto n = v->getAsUINT64())
      return *n;
  return error(llvm::formatv("protocol: field '{0}' is missing or not an unsigned integer", key));
}

llvm::Expected<std::vector<uint64_t>> getU64Array(const llvm::json::Object &o, llvm::StringRef key) {
  const llvm::json::Array *a = o.getArray(key);
  if (!a)
    return error(llvm::formatv("protocol: field '{0}' is missing or not an array", key));
  std::vector<uint64_t> out;
  for (const auto &v : *a) {
    auto n = v.getAsUINT64();
    if (!n)
      return error(llvm::formatv("protocol: field '{0}' holds a non-integer", key));
    out.push_back(*n);
  }
  return out;
}

llvm::Expected<std::array<uint64_t, 3>> getTriple(const llvm::json::Object &o, llvm::StringRef key) {
  auto values = getU64Array(o, key);
  if (!values)
    return values.takeError();
  if (values->size() != 3)
    return error(llvm::formatv("protocol: field '{0}' must hold 3 values", key));
  return std::array<uint64_t, 3>{(*values)[0], (*values)[1], (*values)[2]};
}

} // namespace

llvm::StringRef typeName(MessageType type) {
  switch (type) {
  case MessageType::Hello: return "Hello";
  case MessageType::LoadProgram: return "LoadProgram";
  case MessageType::Loaded: return "Loaded";
  case MessageType::Error: return "Error";
  case MessageType::RunKernel: return "RunKernel";
  case MessageType::KernelDone: return "KernelDone";
  case MessageType::KernelFailed: return "KernelFailed";
  case MessageType::Shutdown: return "Shutdown";
  }
  return "unknown";
}

std::string encode(MessageType type, const llvm::json::Object &payload, uint16_t version) {
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::json::Value(llvm::json::Object(payload));
  os.flush();
  std::string packet;
  put32(packet, Magic);
  put16(packet, version);
  put16(packet, static_cast<uint16_t>(type));
  put32(packet, static_cast<uint32_t>(json.size()));
  return packet + json;
}

llvm::Expected<Message> decode(llvm::StringRef packet) {
  if (packet.size() < HeaderBytes)
    return error(llvm::formatv("protocol: a packet of {0} bytes is shorter than the header",
                               packet.size()));
  const auto *p = reinterpret_cast<const unsigned char *>(packet.data());
  if (get32(p) != Magic)
    return error("protocol: the packet does not start with the Loom magic: the peer is not a Loom "
                 "board process");
  uint16_t version = get16(p + 4);
  if (version != Version)
    return error(llvm::formatv("protocol version mismatch: the peer speaks version {0}, this side "
                               "version {1}; the runtime and loom-board come from different Loom "
                               "installs",
                               version, Version));
  uint16_t type = get16(p + 6);
  if (type < static_cast<uint16_t>(MessageType::Hello) ||
      type > static_cast<uint16_t>(MessageType::Shutdown))
    return error(llvm::formatv("protocol: unknown message type {0}", type));
  uint32_t length = get32(p + 8);
  if (length != packet.size() - HeaderBytes)
    return error(llvm::formatv("protocol: the header announces {0} payload bytes but the packet "
                               "holds {1}",
                               length, packet.size() - HeaderBytes));
  Message message;
  message.type = static_cast<MessageType>(type);
  auto parsed = llvm::json::parse(packet.drop_front(HeaderBytes));
  if (!parsed)
    return error(llvm::formatv("protocol: bad JSON in a {0} message: {1}",
                               typeName(message.type), llvm::toString(parsed.takeError())));
  if (!parsed->getAsObject())
    return error(llvm::formatv("protocol: the payload of a {0} message is not an object",
                               typeName(message.type)));
  message.payload = std::move(*parsed->getAsObject());
  return std::move(message);
}

llvm::Error sendPacket(int socket, llvm::StringRef packet, int fd) {
  if (packet.size() > HeaderBytes + MaxPayloadBytes)
    return error(llvm::formatv("protocol: a message of {0} bytes exceeds the limit", packet.size()));
  struct iovec iov;
  iov.iov_base = const_cast<char *>(packet.data());
  iov.iov_len = packet.size();
  struct msghdr msg;
  std::memset(&msg, 0, sizeof msg);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (fd >= 0) {
    std::memset(control, 0, sizeof control);
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
  }
  for (;;) {
    ssize_t n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n == static_cast<ssize_t>(packet.size()))
      return llvm::Error::success();
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
      return error("protocol: the peer closed the connection");
    return error(llvm::formatv("protocol: cannot send a message: {0}",
                               n < 0 ? std::strerror(errno) : "short write"));
  }
}

llvm::Error send(int socket, MessageType type, const llvm::json::Object &payload, int fd) {
  return sendPacket(socket, encode(type, payload), fd);
}

llvm::Expected<Received> receive(int socket, int timeoutMs) {
  struct pollfd pfd = {socket, POLLIN, 0};
  for (;;) {
    int ready = ::poll(&pfd, 1, timeoutMs);
    if (ready < 0 && errno == EINTR)
      continue; // a signal: keep the original deadline approximately by not re-arming it shorter
    if (ready < 0)
      return error(llvm::formatv("protocol: poll failed: {0}", std::strerror(errno)));
    if (ready == 0) {
      Received r;
      r.status = Received::Status::TimedOut;
      return std::move(r);
    }
    break;
  }
  std::string buffer(HeaderBytes + MaxPayloadBytes, '\0');
  struct iovec iov;
  iov.iov_base = buffer.data();
  iov.iov_len = buffer.size();
  alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)];
  struct msghdr msg;
  std::memset(&msg, 0, sizeof msg);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do
    n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0 && errno == ECONNRESET)
    n = 0;
  if (n < 0)
    return error(llvm::formatv("protocol: cannot receive a message: {0}", std::strerror(errno)));

  int fd = -1;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
      continue;
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int received;
      std::memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      if (fd < 0)
        fd = received;
      else
        ::close(received); // one descriptor per message; never leak extras
    }
  }
  auto closeFd = [&] {
    if (fd >= 0)
      ::close(fd);
  };
  if (n == 0) {
    closeFd();
    Received r;
    r.status = Received::Status::Closed;
    return std::move(r);
  }
  if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
    closeFd();
    return error("protocol: a message was larger than the protocol allows");
  }
  auto message = decode(llvm::StringRef(buffer.data(), static_cast<size_t>(n)));
  if (!message) {
    closeFd();
    return message.takeError();
  }
  message->fd = fd;
  Received r;
  r.status = Received::Status::Message;
  r.message = std::move(*message);
  return std::move(r);
}

llvm::json::Object toJSON(const Hello &hello) {
  return llvm::json::Object{
      {"version", static_cast<int64_t>(hello.version)}, {"board", hello.board}, {"pid", hello.pid}};
}

llvm::Expected<Hello> parseHello(const llvm::json::Object &payload) {
  Hello hello;
  auto version = getU64(payload, "version");
  if (!version)
    return version.takeError();
  hello.version = static_cast<uint32_t>(*version);
  auto board = payload.getString("board");
  if (!board)
    return error("protocol: Hello lacks the board name");
  hello.board = board->str();
  hello.pid = payload.getInteger("pid").value_or(0);
  return hello;
}

llvm::json::Object toJSON(const RunKernel &run) {
  llvm::json::Array args, offset, size;
  for (uint64_t a : run.args)
    args.push_back(a);
  for (unsigned d = 0; d < 3; ++d) {
    offset.push_back(run.offset[d]);
    size.push_back(run.size[d]);
  }
  llvm::json::Array pipes;
  for (const PipeBinding &pipe : run.pipes)
    pipes.push_back(llvm::json::Object{
        {"id", pipe.id}, {"depth", pipe.depth}, {"packet_bytes", pipe.packetBytes}});
  return llvm::json::Object{{"launch", run.launch},
                            {"kernel", static_cast<int64_t>(run.kernel)},
                            {"args", std::move(args)},
                            {"offset", std::move(offset)},
                            {"size", std::move(size)},
                            {"pipes", std::move(pipes)},
                            {"autorun", run.autorun}};
}

llvm::Expected<RunKernel> parseRunKernel(const llvm::json::Object &payload) {
  RunKernel run;
  auto launch = launchOf(payload);
  if (!launch)
    return launch.takeError();
  run.launch = *launch;
  auto kernel = getU64(payload, "kernel");
  if (!kernel)
    return kernel.takeError();
  run.kernel = static_cast<uint32_t>(*kernel);
  auto args = getU64Array(payload, "args");
  if (!args)
    return args.takeError();
  run.args = std::move(*args);
  auto offset = getTriple(payload, "offset");
  if (!offset)
    return offset.takeError();
  run.offset = *offset;
  auto size = getTriple(payload, "size");
  if (!size)
    return size.takeError();
  run.size = *size;
  if (const llvm::json::Array *pipes = payload.getArray("pipes"))
    for (const llvm::json::Value &entry : *pipes) {
      const llvm::json::Object *pipe = entry.getAsObject();
      if (!pipe)
        return error("protocol: a RunKernel pipe entry is not an object");
      auto id = getU64(*pipe, "id");
      auto depth = getU64(*pipe, "depth");
      auto packetBytes = getU64(*pipe, "packet_bytes");
      if (!id || !depth || !packetBytes) {
        llvm::Error err = llvm::joinErrors(id.takeError(), llvm::joinErrors(depth.takeError(), packetBytes.takeError()));
        return std::move(err);
      }
      run.pipes.push_back({*id, uint32_t(*depth), uint32_t(*packetBytes)});
    }
  run.autorun = payload.getBoolean("autorun").value_or(false);
  return std::move(run);
}

llvm::json::Object toJSON(const RunStats &stats) {
  llvm::json::Array ports;
  for (const auto &p : stats.ports)
    ports.push_back(llvm::json::Object{{"requests", p.requests}, {"bytes", p.bytes}});
  return llvm::json::Object{{"cycles", stats.cycles},
                            {"simulated_ns", stats.simulatedNs},
                            {"ports", std::move(ports)}};
}

llvm::Expected<RunStats> parseRunStats(const llvm::json::Object &payload) {
  RunStats stats;
  auto cycles = getU64(payload, "cycles");
  if (!cycles)
    return cycles.takeError();
  stats.cycles = *cycles;
  stats.simulatedNs = payload.getNumber("simulated_ns").value_or(0);
  if (const auto *ports = payload.getArray("ports"))
    for (const auto &p : *ports) {
      const auto *o = p.getAsObject();
      if (!o)
        return error("protocol: a KernelDone port entry is not an object");
      auto requests = getU64(*o, "requests");
      if (!requests)
        return requests.takeError();
      auto bytes = getU64(*o, "bytes");
      if (!bytes)
        return bytes.takeError();
      stats.ports.push_back({*requests, *bytes});
    }
  return std::move(stats);
}

llvm::json::Object loadProgramPayload(llvm::ArrayRef<hls::HardwareKernel> kernels) {
  llvm::json::Array array;
  for (const auto &k : kernels)
    array.push_back(hls::toJSON(k));
  return llvm::json::Object{{"kernels", std::move(array)}};
}

llvm::Expected<std::vector<hls::HardwareKernel>>
parseLoadProgram(const llvm::json::Object &payload) {
  const llvm::json::Value *kernels = payload.get("kernels");
  if (!kernels)
    return error("protocol: LoadProgram lacks 'kernels'");
  std::vector<hls::HardwareKernel> out;
  llvm::json::Path::Root root("kernels");
  if (!llvm::json::fromJSON(*kernels, out, root))
    return error(llvm::formatv("protocol: bad kernel description in LoadProgram: {0}",
                               llvm::toString(root.getError())));
  return std::move(out);
}

llvm::Expected<uint64_t> launchOf(const llvm::json::Object &payload) {
  return getU64(payload, "launch");
}

llvm::json::Object forLaunch(uint64_t launch, llvm::json::Object payload) {
  payload["launch"] = launch;
  return payload;
}

llvm::json::Object messagePayload(llvm::StringRef text) {
  return llvm::json::Object{{"message", text}};
}

std::string messageText(const llvm::json::Object &payload) {
  if (auto text = payload.getString("message"))
    return text->str();
  return "(no message)";
}

} // namespace loom::sim::protocol
