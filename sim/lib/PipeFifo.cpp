//===- PipeFifo.cpp - A pipe's FIFO on the board, with reservations --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "PipeFifo.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

namespace loom::sim {
namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// LoomStream::read_slot for a PipeFifo.
void readSlotOf(void *fifo, uint32_t position, uint64_t *packet) {
  const auto &self = *static_cast<const PipeFifo *>(fifo);
  std::memcpy(packet, self.readSlot(position), self.packetBytes);
}

} // namespace

PipeFifo::PipeFifo(uint64_t id, uint32_t depth, uint32_t packetBytes, uint64_t firstPosition)
    : id(id), depth(depth), packetBytes(packetBytes), ring_(size_t(depth) * packetBytes),
      head_(firstPosition), readNext_(firstPosition), visible_(firstPosition), writeNext_(firstPosition) {}

bool PipeFifo::available(bool writes) const {
  return writes ? writeNext_ < head_ + depth : readNext_ < visible_;
}

uint64_t PipeFifo::reservable(bool writes) const {
  return writes ? head_ + depth - writeNext_ : visible_ - readNext_;
}

llvm::Expected<uint64_t> PipeFifo::claim(uint32_t count, bool writes, std::optional<uint32_t> expectedBase,
                                         const llvm::Twine &what) {
  const uint64_t room = reservable(writes);
  uint64_t &next = writes ? writeNext_ : readNext_;
  if (count == 0)
    return error(what + " claims no packets");
  if (count > room)
    return error(writes ? llvm::formatv("{0} needs room for {1} packets, but {2} of the pipe's {3} are free "
                                        "and unclaimed",
                                        what.str(), count, room, depth)
                                .str()
                        : llvm::formatv("{0} needs {1} packets, but {2} written packets are unclaimed",
                                        what.str(), count, room)
                                .str());
  if (expectedBase && *expectedBase != uint32_t(next))
    return error(llvm::formatv("{0} was offered position {1}, but the pipe's next {2} position is {3}: "
                               "another operation on the pipe claimed it in the same cycle",
                               what.str(), widen(*expectedBase), writes ? "write" : "read", next));
  const uint64_t base = next;
  (writes ? writes_ : reads_).push_back({base, count, false});
  next += count;
  return base;
}

llvm::Expected<uint64_t> PipeFifo::reserve(uint32_t count, bool writes, std::optional<uint32_t> expectedBase) {
  // The description is a Twine of literals and a number: nothing is formatted unless it fails.
  return claim(count, writes, expectedBase,
               llvm::Twine(writes ? "a write reservation of " : "a read reservation of ") + llvm::Twine(count) +
                   " packets");
}

llvm::Error PipeFifo::push(const void *packet) {
  auto base = claim(1, /*writes=*/true, std::nullopt, "write_pipe");
  if (!base)
    return base.takeError();
  std::memcpy(slot(*base), packet, packetBytes);
  return commit(uint32_t(*base), /*writes=*/true);
}

llvm::Error PipeFifo::pop(void *packet, std::optional<uint32_t> offered) {
  auto base = claim(1, /*writes=*/false, offered, "read_pipe");
  if (!base)
    return base.takeError();
  if (packet)
    std::memcpy(packet, slot(*base), packetBytes);
  return commit(uint32_t(*base), /*writes=*/false);
}

PipeFifo::Reservation *PipeFifo::pending(uint64_t base, bool writes) {
  std::deque<Reservation> &list = writes ? writes_ : reads_;
  auto found = std::find_if(list.begin(), list.end(),
                            [&](const Reservation &r) { return r.base == base && !r.committed; });
  return found == list.end() ? nullptr : &*found;
}

llvm::Error PipeFifo::writeSlot(uint32_t position, const void *packet) {
  const uint64_t full = widen(position);
  const bool held = std::any_of(writes_.begin(), writes_.end(), [&](const Reservation &r) {
    return !r.committed && full >= r.base && full - r.base < r.count;
  });
  if (!held)
    return error(llvm::formatv("a slot write at position {0} is in no open write reservation", full));
  std::memcpy(slot(full), packet, packetBytes);
  return llvm::Error::success();
}

const uint8_t *PipeFifo::readSlot(uint32_t position) const { return slot(widen(position)); }

llvm::Error PipeFifo::commit(uint32_t base, bool writes) {
  const uint64_t full = widen(base);
  Reservation *reservation = pending(full, writes);
  if (!reservation)
    return error(llvm::formatv("a commit of the {0} reservation at position {1}, which is not open",
                               writes ? "write" : "read", full));
  reservation->committed = true;
  settle();
  return llvm::Error::success();
}

void PipeFifo::settle() {
  for (; !writes_.empty() && writes_.front().committed; writes_.pop_front())
    visible_ = writes_.front().base + writes_.front().count;
  for (; !reads_.empty() && reads_.front().committed; reads_.pop_front())
    head_ = reads_.front().base + reads_.front().count;
}

void PipeFifo::offer(bool writes, LoomStream &stream) const {
  stream.available = available(writes);
  if (!writes && stream.available)
    std::memcpy(stream.in_data, slot(readNext_), packetBytes);
  // Both at most depth.
  stream.reservable = uint32_t(reservable(writes));
  stream.reserve_base = uint32_t(writes ? writeNext_ : readNext_);
  stream.packets = uint32_t(fill());
  stream.capacity = depth;
  stream.read_slot = &readSlotOf;
  stream.fifo = const_cast<PipeFifo *>(this);
}

} // namespace loom::sim
