// SPDX-License-Identifier: Apache-2.0
// Board descriptions: the built-in boards load, bad files give errors that name the problem.
#include "loom/board/Board.h"

#include "../TestSupport.h"

using namespace loom::board;

TEST_CASE("built-in boards are listed and load by name") {
  auto boards = listBoards();
  std::vector<std::string> names;
  for (const auto &b : boards)
    names.push_back(b.name);
  REQUIRE(std::find(names.begin(), names.end(), "default") != names.end());
  REQUIRE(std::find(names.begin(), names.end(), "unit") != names.end());

  auto board = loadBoard("default");
  REQUIRE_OK(board);
  CHECK(board->clockMHz == 300);
  CHECK(board->memory.banks == 2);
  CHECK(board->memory.latencyCycles == 80);
  CHECK(board->memoryBytesPerCycle() == Approx(128.0));
  auto fadd = board->latencyOf("float_add");
  REQUIRE_OK(fadd);
  CHECK(*fadd == 5);
}

TEST_CASE("unknown boards and operators are errors that say what exists") {
  auto board = loadBoard("no-such-board");
  auto message = errorMessage(board);
  CHECK(message.find("no-such-board") != std::string::npos);
  CHECK(message.find("default") != std::string::npos);

  auto unit = loadBoard("unit");
  REQUIRE_OK(unit);
  auto latency = unit->latencyOf("float_exp");
  CHECK(errorMessage(latency).find("float_exp") != std::string::npos);
}

TEST_CASE("malformed board files are rejected with the file and key") {
  auto notJson = parseBoard("{ not json", "bad.json");
  CHECK(errorMessage(notJson).find("bad.json") != std::string::npos);

  auto noClock = parseBoard(R"({"name": "x", "global_memory": {}, "operator_latency": {}})", "x.json");
  CHECK(errorMessage(noClock).find("clock_mhz") != std::string::npos);

  auto zeroLatency = parseBoard(R"({"name": "x", "clock_mhz": 100,
      "global_memory": {"size_mb": 1, "banks": 1, "width_bytes": 8, "interleave_bytes": 64,
                        "latency_cycles": 1, "bandwidth_gbps": 0},
      "operator_latency": {"int_add": 0}})", "x.json");
  CHECK(errorMessage(zeroLatency).find("int_add") != std::string::npos);
}
