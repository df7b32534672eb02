//===- PipeStorage.h - A pipe's packets in global memory -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// clCreatePipe allocates a pipe like a buffer and lays this out in it: a header, then per packet
// slot a sequence number and the reservation size, then the packets. The slots form a lock-free
// bounded ring (D. Vyukov's MPMC queue, widened to reservations of several slots): slot s serves
// the positions s, s + capacity, ...; its sequence number says whether it is free for position p
// (== 2p), full with p's packet (== 2p + 1), or still holds an older one. (Vyukov's p and p + 1
// would make a pipe of one packet's full slot look free for the next position: p + 1 == p + capacity.) A reservation claims
// consecutive positions by advancing `tail` (writers) or `head` (readers) once it has seen all of
// them free or full, and its commit publishes each slot, so a reservation's packets enter the pipe
// in order as one contiguous set, and readers never see a packet before its writer's commit.
// Positions are 64-bit and never wrap. The CPU device's pipe builtins work on this storage
// (devices/cpu/PipeOperations.cpp); the host only creates it and reads the fill level.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

namespace loom::runtime {

/// What clCreatePipe was given.
struct PipeShape {
  uint32_t packetBytes = 0;
  uint32_t maxPackets = 0;
};

/// Packets start on the largest alignment an OpenCL C type has (a long16).
constexpr size_t PipePacketAlignment = 128;

struct PipeHeader {
  uint32_t packetBytes;
  uint32_t capacity;
  /// Names the pipe object, unique in the process (a later pipe may reuse its memory): the board
  /// keeps a FIFO per name.
  uint64_t serial;
  alignas(64) std::atomic<uint64_t> head; ///< The next position a reader claims.
  alignas(64) std::atomic<uint64_t> tail; ///< The next position a writer claims.
  /// Packets committed by writers and readers: whether the pipe moves at all.
  alignas(64) std::atomic<uint64_t> committed;

  std::atomic<uint64_t> *sequences() { return reinterpret_cast<std::atomic<uint64_t> *>(this + 1); }
  /// The size of the reservation that starts at a slot, kept there until its commit.
  uint32_t *reservationSizes() { return reinterpret_cast<uint32_t *>(sequences() + capacity); }
  static size_t packetsOffset(uint32_t capacity) {
    return llvm::alignTo(sizeof(PipeHeader) + capacity * (sizeof(uint64_t) + sizeof(uint32_t)), PipePacketAlignment);
  }
  uint8_t *packet(uint64_t position) {
    return reinterpret_cast<uint8_t *>(this) + packetsOffset(capacity) + (position % capacity) * size_t(packetBytes);
  }
  /// Packets in the pipe, reserved ones included.
  uint32_t fill() const {
    const uint64_t first = head.load(std::memory_order_acquire), last = tail.load(std::memory_order_acquire);
    return last > first ? uint32_t(std::min<uint64_t>(last - first, capacity)) : 0;
  }
};

/// Bytes of storage a pipe of this shape takes.
inline size_t pipeStorageBytes(const PipeShape &shape) {
  return PipeHeader::packetsOffset(shape.maxPackets) + size_t(shape.maxPackets) * shape.packetBytes;
}

/// Lays an empty pipe out in `storage` (pipeStorageBytes of it).
inline void initialisePipe(void *storage, const PipeShape &shape) {
  static std::atomic<uint64_t> nextSerial{1};
  auto *header = new (storage)
      PipeHeader{shape.packetBytes, shape.maxPackets, nextSerial.fetch_add(1, std::memory_order_relaxed), {0}, {0}, {0}};
  for (uint32_t slot = 0; slot < shape.maxPackets; ++slot)
    new (&header->sequences()[slot]) std::atomic<uint64_t>(2 * uint64_t(slot));
}

} // namespace loom::runtime
