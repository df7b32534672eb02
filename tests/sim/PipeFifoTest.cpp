// SPDX-License-Identifier: Apache-2.0
// The board's pipe FIFO: plain transfers, reservations, commits in order, positions past 2^32 and
// the inputs it offers a kernel's pipe port.
#include "PipeFifo.h"

#include "TestSupport.h"

#include <cstring>

using namespace loom::sim;

namespace {

constexpr bool Writes = true, Reads = false;

llvm::Error pushWord(PipeFifo &fifo, uint32_t value) { return fifo.push(&value); }

/// Pops one 4-byte packet; the test fails if the FIFO refuses.
uint32_t popWord(PipeFifo &fifo) {
  uint32_t value = 0;
  requireNoError(fifo.pop(&value));
  return value;
}

uint32_t slotWord(const PipeFifo &fifo, uint64_t position) {
  uint32_t value;
  std::memcpy(&value, fifo.readSlot(uint32_t(position)), 4);
  return value;
}

/// Writes `first`, `first` + 1, ... into the `count` slots of the write reservation at `base`.
void writeWords(PipeFifo &fifo, uint64_t base, uint32_t count, uint32_t first) {
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t value = first + i;
    requireNoError(fifo.writeSlot(uint32_t(base + i), &value));
  }
}

} // namespace

TEST_CASE("PipeFifo: plain pushes and pops keep order and depth", "[sim][pipes]") {
  PipeFifo fifo(1, 3, 4);
  CHECK_FALSE(fifo.available(Reads));
  CHECK_THAT(errorMessage(fifo.pop(nullptr)),
             Catch::Contains("read_pipe needs 1 packets, but 0 written packets are unclaimed"));
  for (uint32_t round = 0; round < 4; ++round) { // 12 packets through 3 slots: the ring wraps
    for (uint32_t i = 0; i < 3; ++i)
      requireNoError(pushWord(fifo, 10 * round + i));
    CHECK(fifo.fill() == 3);
    CHECK_FALSE(fifo.available(Writes));
    CHECK_THAT(errorMessage(pushWord(fifo, 99)),
               Catch::Contains("write_pipe needs room for 1 packets, but 0 of the pipe's 3 are free and unclaimed"));
    for (uint32_t i = 0; i < 3; ++i)
      CHECK(popWord(fifo) == 10 * round + i);
    CHECK(fifo.fill() == 0);
  }
  CHECK(fifo.head() == 12);
  CHECK(fifo.writeNext() == 12);
}

TEST_CASE("PipeFifo: a write reservation's packets enter the pipe at its commit, in order",
          "[sim][pipes]") {
  PipeFifo fifo(1, 8, 4);
  auto first = fifo.reserve(2, Writes);
  REQUIRE_OK(first);
  auto second = fifo.reserve(3, Writes);
  REQUIRE_OK(second);
  CHECK(*first == 0);
  CHECK(*second == 2);
  writeWords(fifo, *second, 3, 200);
  // A plain write queues behind the reservations: claimed and committed, but not yet readable.
  requireNoError(pushWord(fifo, 500));
  CHECK(fifo.fill() == 6);
  CHECK(fifo.reservable(Writes) == 2);
  CHECK_FALSE(fifo.available(Reads));
  CHECK(fifo.reservable(Reads) == 0);

  // The younger reservation commits first: nothing is visible until the older one does.
  requireNoError(fifo.commit(uint32_t(*second), Writes));
  CHECK(fifo.visible() == 0);
  CHECK_FALSE(fifo.available(Reads));
  // A slot of a committed reservation, or of no reservation, is not the kernel's to write.
  const uint32_t late = 1;
  CHECK_THAT(errorMessage(fifo.writeSlot(2, &late)),
             Catch::Contains("a slot write at position 2 is in no open write reservation"));
  CHECK_THAT(errorMessage(fifo.writeSlot(7, &late)),
             Catch::Contains("a slot write at position 7 is in no open write reservation"));

  writeWords(fifo, *first, 2, 100);
  requireNoError(fifo.commit(uint32_t(*first), Writes));
  CHECK(fifo.visible() == 6);
  CHECK(fifo.reservable(Reads) == 6);
  for (uint32_t expected : {100u, 101u, 200u, 201u, 202u, 500u})
    CHECK(popWord(fifo) == expected);
  CHECK(fifo.fill() == 0);
}

TEST_CASE("PipeFifo: reservations are refused without room or packets", "[sim][pipes]") {
  PipeFifo fifo(1, 4, 4);
  CHECK_THAT(errorMessage(fifo.reserve(5, Writes)),
             Catch::Contains("a write reservation of 5 packets needs room for 5 packets, but 4 of the pipe's 4 "
                             "are free and unclaimed"));
  CHECK_THAT(errorMessage(fifo.reserve(1, Reads)),
             Catch::Contains("a read reservation of 1 packets needs 1 packets, but 0 written packets are "
                             "unclaimed"));
  CHECK_THAT(errorMessage(fifo.reserve(0, Writes)), Catch::Contains("claims no packets"));
  // Two kernels reserving one pipe in one cycle: the second was offered the first's position.
  REQUIRE_OK(fifo.reserve(3, Writes, 0u));
  CHECK_THAT(errorMessage(fifo.reserve(1, Writes, 0u)),
             Catch::Contains("was offered position 0, but the pipe's next write position is 3"));
  // Room a writer reserved is not the plain writer's.
  REQUIRE_OK(fifo.reserve(1, Writes, 3u));
  CHECK_FALSE(fifo.available(Writes));
  CHECK(errorMessage(pushWord(fifo, 1)) != "");
  // Nothing failed changed the FIFO.
  CHECK(fifo.writeNext() == 4);
  CHECK(fifo.readNext() == 0);
}

TEST_CASE("PipeFifo: a read reservation frees its slots at its commit, in order", "[sim][pipes]") {
  PipeFifo fifo(1, 4, 4);
  for (uint32_t i = 0; i < 4; ++i)
    requireNoError(pushWord(fifo, 40 + i));
  auto first = fifo.reserve(1, Reads);
  REQUIRE_OK(first);
  auto second = fifo.reserve(2, Reads);
  REQUIRE_OK(second);
  CHECK(*second == 1);
  CHECK(slotWord(fifo, *second) == 41);
  CHECK(slotWord(fifo, *second + 1) == 42);
  // Claimed by readers: out of get_pipe_num_packets, still taking room.
  CHECK(fifo.fill() == 1);
  CHECK(fifo.reservable(Reads) == 1);
  CHECK(fifo.reservable(Writes) == 0);
  CHECK_FALSE(fifo.available(Writes));
  // A plain read takes the packet after the reservations.
  CHECK(popWord(fifo) == 43);

  requireNoError(fifo.commit(uint32_t(*second), Reads));
  CHECK(fifo.head() == 0);
  CHECK(fifo.reservable(Writes) == 0);
  requireNoError(fifo.commit(uint32_t(*first), Reads));
  CHECK(fifo.head() == 4);
  CHECK(fifo.reservable(Writes) == 4);
  requireNoError(pushWord(fifo, 7));
  CHECK(popWord(fifo) == 7);
}

TEST_CASE("PipeFifo: positions past 2^32 on 32-bit ports", "[sim][pipes]") {
  const uint64_t start = (uint64_t(1) << 32) - 2;
  PipeFifo fifo(1, 4, 4, start);
  // A reservation across the wrap: its base's low bits are 0xfffffffe, its last slot's 0.
  auto base = fifo.reserve(3, Writes, uint32_t(start));
  REQUIRE_OK(base);
  CHECK(*base == start);
  requireNoError(fifo.writeSlot(0xfffffffeu, "\x01\x00\x00\x00"));
  requireNoError(fifo.writeSlot(0xffffffffu, "\x02\x00\x00\x00"));
  requireNoError(fifo.writeSlot(0u, "\x03\x00\x00\x00"));
  requireNoError(fifo.commit(0xfffffffeu, Writes));
  CHECK(fifo.visible() == start + 3);
  auto read = fifo.reserve(3, Reads, 0xfffffffeu);
  REQUIRE_OK(read);
  CHECK(slotWord(fifo, *read + 2) == 3);
  requireNoError(fifo.commit(0xfffffffeu, Reads));
  CHECK(fifo.head() == (uint64_t(1) << 32) + 1);
  // The next reservation starts at low bits 1 and commits by them.
  LoomStream stream{};
  fifo.offer(Writes, stream);
  CHECK(stream.reserve_base == 1);
  REQUIRE_OK(fifo.reserve(2, Writes, stream.reserve_base));
  requireNoError(fifo.commit(1, Writes));
  CHECK(fifo.visible() == (uint64_t(1) << 32) + 3);
}

TEST_CASE("PipeFifo: a commit must end an open reservation", "[sim][pipes]") {
  PipeFifo fifo(1, 4, 4);
  CHECK_THAT(errorMessage(fifo.commit(5, Writes)),
             Catch::Contains("a commit of the write reservation at position 5, which is not open"));
  auto older = fifo.reserve(1, Writes);
  REQUIRE_OK(older);
  auto base = fifo.reserve(2, Writes);
  REQUIRE_OK(base);
  // The read side has no reservation there.
  CHECK_THAT(errorMessage(fifo.commit(1, Reads)),
             Catch::Contains("a commit of the read reservation at position 1, which is not open"));
  // Not a reservation's first position.
  CHECK(errorMessage(fifo.commit(2, Writes)) != "");
  requireNoError(fifo.commit(1, Writes));
  // Committed once (and still waiting for the older one): a second commit is refused.
  CHECK_THAT(errorMessage(fifo.commit(1, Writes)), Catch::Contains("which is not open"));
  CHECK(fifo.visible() == 0);
}

TEST_CASE("PipeFifo: what it offers a kernel's pipe ports", "[sim][pipes]") {
  PipeFifo fifo(1, 4, 8);
  for (uint64_t i = 0; i < 3; ++i) {
    const uint64_t packet = 0x1111111100000000ull + i;
    requireNoError(fifo.push(&packet));
  }
  auto read = fifo.reserve(1, Reads);
  REQUIRE_OK(read);

  LoomStream writer{}, reader{};
  fifo.offer(Writes, writer);
  CHECK(writer.available == 1);
  CHECK(writer.reservable == 1);
  CHECK(writer.reserve_base == 3);
  CHECK(writer.packets == 2); // claimed by writers, not yet by readers
  CHECK(writer.capacity == 4);
  fifo.offer(Reads, reader);
  CHECK(reader.available == 1);
  CHECK(reader.in_data[0] == 0x1111111100000001ull); // the packet at readNext
  CHECK(reader.reservable == 2);
  CHECK(reader.reserve_base == 1);
  CHECK(reader.packets == 2);
  CHECK(reader.capacity == 4);
  // The slot read port: any position, as the RAM holds it.
  REQUIRE(reader.read_slot != nullptr);
  CHECK(reader.fifo == &fifo);
  uint64_t packet[LOOM_PACKET_WORDS] = {};
  reader.read_slot(reader.fifo, 2, packet);
  CHECK(packet[0] == 0x1111111100000002ull);

  // The last free slot reserved: a plain writer is not offered it; a pending write reservation adds
  // nothing readers can claim.
  REQUIRE_OK(fifo.reserve(1, Writes));
  fifo.offer(Writes, writer);
  CHECK(writer.available == 0);
  CHECK(writer.reservable == 0);
  CHECK(writer.packets == 3);
  fifo.offer(Reads, reader);
  CHECK(reader.reservable == 2);
  // Everything read: nothing offered.
  requireNoError(fifo.pop(nullptr));
  requireNoError(fifo.pop(nullptr));
  fifo.offer(Reads, reader);
  CHECK(reader.available == 0);
  CHECK(reader.reservable == 0);
  CHECK(reader.packets == 1);
}
