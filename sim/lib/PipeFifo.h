//===- PipeFifo.h - A pipe's FIFO on the board, with reservations -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The board's hardware between the kernels bound to one pipe object: a RAM of `depth` packets used
// as a ring, and the pointers of OpenCL 2.0 pipe reservations. A position is a packet's number since
// the pipe was bound (64 bits, never wraps); it lives in slot position % depth. In order:
//
//   head       the first position readers have not freed (their reservations up to it committed)
//   readNext   the first position no reader claimed
//   visible    the end of the packets whose writers committed, in order
//   writeNext  the first position no writer claimed
//
// head <= readNext <= visible <= writeNext <= head + depth. A reservation claims `count` positions
// at readNext (packets there: visible - readNext) or at writeNext (room: head + depth - writeNext);
// its commit lets its packets into the pipe (write) or frees their slots (read) once every older
// reservation of the same side has committed. read_pipe and write_pipe are reservations of one
// packet committed at once, so they queue behind pending reservations. The ports carry the low 32
// bits of a position; it is widened against head (every live position is in [head, head + depth)).
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/sim/ModelABI.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace loom::sim {

class PipeFifo {
public:
  /// An empty FIFO whose first position is `firstPosition` (0 on the board; tests start near 2^32).
  PipeFifo(uint64_t id, uint32_t depth, uint32_t packetBytes, uint64_t firstPosition = 0);

  const uint64_t id;
  const uint32_t depth;
  const uint32_t packetBytes;

  /// write_pipe: one packet (packetBytes bytes) after every claimed position, in the pipe at once
  /// unless an older write reservation is pending. Fails without room.
  llvm::Error push(const void *packet);
  /// read_pipe: takes the packet at readNext into `packet` (packetBytes bytes; may be null). With
  /// `offered`, fails unless readNext's low 32 bits are that (the packet the kernel was offered).
  llvm::Error pop(void *packet, std::optional<uint32_t> offered = std::nullopt);
  /// Claims `count` positions for writing (`writes`) or reading: the full position it starts at.
  /// Fails for 0 packets, without room or packets enough, or when `expectedBase` is given and is not
  /// the low 32 bits of that position (another operation claimed it first in the same cycle).
  llvm::Expected<uint64_t> reserve(uint32_t count, bool writes,
                                   std::optional<uint32_t> expectedBase = std::nullopt);
  /// Writes `packet` at `position` (low 32 bits), which a pending, uncommitted write reservation
  /// must hold.
  llvm::Error writeSlot(uint32_t position, const void *packet);
  /// The packetBytes bytes of the slot of `position` (low 32 bits): whatever the RAM holds there.
  const uint8_t *readSlot(uint32_t position) const;
  /// Ends the pending, uncommitted reservation of that side starting at `base` (low 32 bits).
  llvm::Error commit(uint32_t base, bool writes);

  /// The board's inputs of a port of that direction at the start of a cycle: every field of
  /// LoomStream's inputs (read_slot reads this FIFO).
  void offer(bool writes, LoomStream &stream) const;
  /// Whether a plain transfer could happen now: a packet to read, or room no writer claimed.
  bool available(bool writes) const;
  /// Positions a reservation may claim now (see the file comment).
  uint64_t reservable(bool writes) const;
  /// Positions claimed by writers and not yet claimed by readers: the fill level diagnoses and
  /// get_pipe_num_packets report (the CPU device's tail - head).
  uint64_t fill() const { return writeNext_ - readNext_; }

  uint64_t head() const { return head_; }
  uint64_t readNext() const { return readNext_; }
  uint64_t visible() const { return visible_; }
  uint64_t writeNext() const { return writeNext_; }

private:
  struct Reservation {
    uint64_t base;
    uint32_t count;
    bool committed;
  };

  /// The full position whose low 32 bits are `position`, at or after head.
  uint64_t widen(uint32_t position) const { return head_ + uint32_t(position - uint32_t(head_)); }
  uint8_t *slot(uint64_t position) { return ring_.data() + (position % depth) * packetBytes; }
  const uint8_t *slot(uint64_t position) const { return ring_.data() + (position % depth) * packetBytes; }
  /// reserve(), with `what` naming the operation in errors.
  llvm::Expected<uint64_t> claim(uint32_t count, bool writes, std::optional<uint32_t> expectedBase,
                                 const llvm::Twine &what);
  /// The pending reservation of that side starting at `base` and not committed, or null.
  Reservation *pending(uint64_t base, bool writes);
  /// Moves visible and head past the committed reservations at the front of their lists.
  void settle();

  std::vector<uint8_t> ring_;
  uint64_t head_, readNext_, visible_, writeNext_;
  std::deque<Reservation> reads_, writes_; ///< Pending reservations, oldest first.
};

} // namespace loom::sim
