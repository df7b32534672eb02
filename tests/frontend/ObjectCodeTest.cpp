// SPDX-License-Identifier: Apache-2.0
// Separate compilation in the frontend: embedded headers, link options, linking units (and what a
// failed link says), compiled objects and libraries as .loom binaries.
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "../TestSupport.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/raw_ostream.h"

using namespace loom::frontend;

namespace {

const char *Caller = R"(#include "lib/twice.h"
__kernel void k(__global int *out) {
  out[0] = twice(out[1]);
}
)";
const char *Callee = "#include <lib/twice.h>\nint twice(int x) { return x * FACTOR; }\n";

/// Compiles `source` for the host with lib/twice.h embedded; returns its bitcode.
std::string unit(const char *source, const char *header = "#define FACTOR 2\nint twice(int x);\n") {
  llvm::LLVMContext context;
  SourceInput input{source, "unit.cl", "", {{"lib/twice.h", header}}};
  auto compiled = compileOpenCL(context, input, Target::Host);
  REQUIRE_OK(compiled);
  std::string bitcode;
  llvm::raw_string_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(*compiled->module, stream);
  stream.flush();
  return bitcode;
}

} // namespace

TEST_CASE("embedded headers") {
  llvm::LLVMContext context;
  // The first header of a name is used; a missing one is an ordinary diagnostic.
  SourceInput input{Callee, "unit.cl", "", {{"lib/twice.h", "#define FACTOR 5\n"}, {"lib/twice.h", "#error no"}}};
  auto compiled = compileOpenCL(context, input, Target::Hardware);
  REQUIRE_OK(compiled);
  input.headers.clear();
  CHECK(errorMessage(compileOpenCL(context, input, Target::Hardware).takeError())
            .find("unit.cl:1:10: fatal error: 'lib/twice.h' file not found") != std::string::npos);
}

TEST_CASE("link options") {
  auto plain = parseLinkOptions("  -cl-fast-relaxed-math -cl-no-signed-zeroes -cl-denorms-are-zero ");
  REQUIRE_OK(plain);
  CHECK_FALSE(plain->createLibrary);
  auto library = parseLinkOptions("-create-library -enable-link-options -cl-finite-math-only");
  REQUIRE_OK(library);
  CHECK(library->createLibrary);
  CHECK(library->text == "-create-library -enable-link-options -cl-finite-math-only");
  CHECK(errorMessage(parseLinkOptions("-DX=1").takeError()).rfind("invalid link option '-DX=1'", 0) == 0);
  CHECK(errorMessage(parseLinkOptions("-enable-link-options").takeError()) ==
        "invalid link options: -enable-link-options needs -create-library");
}

TEST_CASE("linking units") {
  const std::string caller = unit(Caller), callee = unit(Callee);
  llvm::LLVMContext context;
  auto linked = linkUnits(context, {caller, callee}, LinkResult::Executable);
  REQUIRE_OK(linked);
  llvm::Function *twice = (*linked)->getFunction("twice");
  REQUIRE(twice != nullptr);
  CHECK_FALSE(twice->isDeclaration());
  CHECK((*linked)->getNamedMetadata("opencl.ocl.version")->getNumOperands() == 1);

  // An executable needs every function defined; a library does not.
  llvm::LLVMContext other;
  CHECK(errorMessage(linkUnits(other, {caller}, LinkResult::Executable).takeError()) ==
        "unit.cl:3:12: error: undefined function 'twice' called from 'k': no linked object or library "
        "defines it\n");
  REQUIRE_OK(linkUnits(other, {caller}, LinkResult::Library));
  CHECK(errorMessage(linkUnits(other, {callee, callee}, LinkResult::Library).takeError())
            .find("'twice'") != std::string::npos);
  CHECK(errorMessage(linkUnits(other, {caller, "not bitcode"}, LinkResult::Library).takeError())
            .rfind("error: unit 2 is not valid LLVM 15 bitcode", 0) == 0);
  CHECK(errorMessage(linkUnits(other, {}, LinkResult::Library).takeError()) == "error: nothing to link");
}

TEST_CASE("objects as binaries") {
  ObjectCode object;
  object.board = "default";
  object.options = "-DFACTOR=2";
  object.hostBitcode = unit(Callee);
  object.hardwareBitcode = "spir64 bitcode";
  object.log = "a warning\n";
  auto binary = readBinary(writeObject(object));
  REQUIRE_OK(binary);
  CHECK(objectKindOf(*binary) == ObjectKind::Object);
  auto back = readObject(*binary);
  REQUIRE_OK(back);
  CHECK(back->kind == ObjectKind::Object);
  CHECK(back->board == "default");
  CHECK(back->options == "-DFACTOR=2");
  CHECK(back->hostBitcode == object.hostBitcode);
  CHECK(back->hardwareBitcode == object.hardwareBitcode);
  CHECK(back->log == object.log);

  // A library of CPU objects has host code only; an executable is no object.
  ObjectCode cpu;
  cpu.hostBitcode = unit(Caller);
  auto library = linkLibrary({cpu, ObjectCode{ObjectKind::Object, "", "", unit(Callee), "", ""}},
                             *parseLinkOptions("-create-library"));
  REQUIRE_OK(library);
  CHECK(library->kind == ObjectKind::Library);
  CHECK(library->hardwareBitcode.empty());
  CHECK_FALSE(library->hostBitcode.empty());
  ProgramBinary executable;
  executable.meta["board"] = "default";
  CHECK_FALSE(objectKindOf(executable));
  CHECK(errorMessage(readObject(executable).takeError()) ==
        "the binary is an executable, not a compiled object or library");
}
