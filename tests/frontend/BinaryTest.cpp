// SPDX-License-Identifier: Apache-2.0
// The .loom ELF container: round trip, binutils can read it, and every damaged input is an error.
#include "loom/frontend/Binary.h"

#include "../TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <random>

using namespace loom::frontend;

namespace {

ProgramBinary sampleBinary() {
  ProgramBinary binary;
  binary.meta["board"] = "unit";
  binary.meta["kernels"] = llvm::json::Array{llvm::json::Object{{"name", "vector_add"}}};
  binary.meta["options"] = "-DN=4";
  binary.verilog = "module vector_add(input clk);\nendmodule\n";
  binary.model = std::string("\x7f" "ELF\x02\x01\x01\0model bytes\0\xff", 20);
  binary.cpuBitcode = std::string("BC\xc0\xde", 4) + std::string(37, '\x5a');
  binary.log = "vector_add.cl:3:5: warning: unused variable 'x'\n";
  binary.hardwareBitcode = std::string("BC\xc0\xde", 4) + std::string(11, '\x33');
  return binary;
}

/// A temporary file removed when the test ends.
struct TempFile {
  llvm::SmallString<128> path;
  explicit TempFile(llvm::StringRef suffix) {
    int fd = -1;
    REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("loom-frontend-test", suffix, fd, path));
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
  void write(llvm::StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    REQUIRE_FALSE(ec);
    out << bytes;
  }
  std::string read() const {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    REQUIRE(buffer);
    return (*buffer)->getBuffer().str();
  }
};

/// Runs a program, returns its exit code; stdout goes to `output`.
int run(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args, std::string &output) {
  TempFile out("txt");
  std::vector<llvm::StringRef> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(out.path), llvm::None};
  int rc = llvm::sys::ExecuteAndWait(program, argv, llvm::None, redirects);
  output = out.read();
  return rc;
}

} // namespace

TEST_CASE("binaries round-trip") {
  ProgramBinary binary = sampleBinary();
  std::string bytes = writeBinary(binary);
  auto back = readBinary(bytes);
  REQUIRE_OK(back);
  CHECK(back->board() == "unit");
  CHECK(back->meta.getInteger("format") == static_cast<int64_t>(BinaryFormatVersion));
  CHECK(back->meta.getString("options") == llvm::StringRef("-DN=4"));
  CHECK(back->verilog == binary.verilog);
  CHECK(back->model == binary.model);
  CHECK(back->cpuBitcode == binary.cpuBitcode);
  CHECK(back->log == binary.log);
  CHECK(back->hardwareBitcode == binary.hardwareBitcode);

  // Empty sections and a missing board are fine; the input need not be aligned.
  ProgramBinary empty;
  std::string emptyBytes = " " + writeBinary(empty);
  auto emptyBack = readBinary(llvm::StringRef(emptyBytes).drop_front());
  REQUIRE_OK(emptyBack);
  CHECK(emptyBack->board().empty());
  CHECK(emptyBack->verilog.empty());
}

TEST_CASE("readelf lists the sections and objcopy extracts them") {
  ProgramBinary binary = sampleBinary();
  TempFile file("loom");
  file.write(writeBinary(binary));

  std::string output;
  REQUIRE(run(LOOM_READELF, {"-S", "-W", file.path}, output) == 0);
  INFO(output);
  for (const char *name :
       {".loom.meta", ".loom.verilog", ".loom.model", ".loom.cpu", ".loom.log", ".loom.sum", ".shstrtab"})
    CHECK(output.find(name) != std::string::npos);
  CHECK(output.find("PROGBITS") != std::string::npos);
  CHECK(run(LOOM_READELF, {"-h", file.path}, output) == 0);
  CHECK(output.find("REL (Relocatable file)") != std::string::npos);

  TempFile verilog("v"), model("so");
  std::string verilogArg = (".loom.verilog=" + verilog.path).str();
  std::string modelArg = (".loom.model=" + model.path).str();
  TempFile copy("loom");
  REQUIRE(run(LOOM_OBJCOPY,
              {"--dump-section", verilogArg, "--dump-section", modelArg,
               file.path, copy.path},
              output) == 0);
  CHECK(verilog.read() == binary.verilog);
  CHECK(model.read() == binary.model);

  // objcopy lays the file out its own way; the copy is still a valid Loom binary.
  auto rewritten = readBinary(copy.read());
  REQUIRE_OK(rewritten);
  CHECK(rewritten->verilog == binary.verilog);
  CHECK(rewritten->board() == "unit");
}

TEST_CASE("damaged or foreign input is a readable error") {
  std::string good = writeBinary(sampleBinary());

  auto empty = readBinary("");
  CHECK(errorMessage(empty).find("not a Loom program binary") != std::string::npos);

  auto text = readBinary("module top; endmodule\n");
  CHECK(errorMessage(text).find("not a Loom program binary") != std::string::npos);

  std::mt19937 random(1234);
  std::string noise(4096, '\0');
  for (char &c : noise)
    c = static_cast<char>(random());
  auto garbage = readBinary(noise);
  CHECK_FALSE(errorMessage(garbage).empty());
  auto garbageWithMagic = readBinary(good.substr(0, 16) + noise);
  CHECK_FALSE(errorMessage(garbageWithMagic).empty());

  for (size_t length : {size_t(4), size_t(63), size_t(64), size_t(200), good.size() / 2, good.size() - 1}) {
    INFO("truncated to " << length);
    auto truncated = readBinary(llvm::StringRef(good).take_front(length));
    CHECK_FALSE(errorMessage(truncated).empty());
  }

  // A valid ELF file that is not a Loom binary: this test executable itself.
  auto self = llvm::MemoryBuffer::getFile("/proc/self/exe");
  REQUIRE(self);
  auto foreign = readBinary((*self)->getBuffer());
  CHECK(errorMessage(foreign).find("not a Loom program binary") != std::string::npos);
}

TEST_CASE("corruption and other format versions are reported as such") {
  ProgramBinary binary = sampleBinary();
  std::string good = writeBinary(binary);

  std::string flipped = good;
  size_t at = flipped.find("endmodule");
  REQUIRE(at != std::string::npos);
  flipped[at] = 'E';
  auto corrupted = readBinary(flipped);
  CHECK(errorMessage(corrupted) == "binary is corrupted: checksum mismatch");

  std::string newer = good;
  static_assert(BinaryFormatVersion < 9, "the test rewrites the version's one digit");
  at = newer.find("\"format\": " + std::to_string(BinaryFormatVersion));
  REQUIRE(at != std::string::npos);
  newer[at + 10] = char('0' + BinaryFormatVersion + 1);
  auto version = readBinary(newer);
  CHECK(errorMessage(version) == "binary format version " + std::to_string(BinaryFormatVersion + 1) +
                                     " is not supported by this Loom (expects " + std::to_string(BinaryFormatVersion) +
                                     "): recompile with loomc");

  std::string noSum = good;
  at = noSum.find(".loom.sum");
  REQUIRE(at != std::string::npos);
  noSum[at + 6] = 'x'; // Renames the section to .loom.xum.
  auto missing = readBinary(noSum);
  CHECK(errorMessage(missing).find(".loom.sum is missing") != std::string::npos);
}

TEST_CASE("thousands of bit flips never crash and never pass unnoticed") {
  ProgramBinary binary = sampleBinary();
  const std::string good = writeBinary(binary);
  std::mt19937 random(42);
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string mutated = good;
    int flips = 1 + static_cast<int>(random() % 3);
    for (int f = 0; f < flips; ++f)
      mutated[random() % mutated.size()] ^= static_cast<char>(1u << (random() % 8));
    if (round % 500 == 0)
      mutated.resize(random() % mutated.size());
    auto result = readBinary(mutated);
    if (!result) {
      std::string message = llvm::toString(result.takeError());
      if (message.empty())
        FAIL("empty error message at round " << round);
      ++rejected;
      continue;
    }
    // Flips in padding or unused header fields are harmless; the contents must still be intact.
    ++accepted;
    if (result->verilog != binary.verilog || result->model != binary.model ||
        result->cpuBitcode != binary.cpuBitcode || result->log != binary.log ||
        result->board() != "unit")
      FAIL("mutation at round " << round << " changed the contents without an error");
  }
  CHECK(rejected > accepted);
}
