//===- ObjectCode.h - Compiled objects and libraries, and linking them -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// clCompileProgram makes a compiled object for each device, clLinkProgram -create-library a library:
// both are .loom binaries (Binary.h) whose .loom.meta says "type": "object" or "library" and that
// carry LLVM bitcode instead of an executable: .loom.cpu (host triple) for the CPU device and, for a
// board, .loom.hw (spir64, the hardware flow's input) beside it. Linking parses the units' bitcode
// into one module with LLVM's IR linker; a symbol two units define, or a function no unit defines,
// is a link error that names it.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/Binary.h"

#include "llvm/ADT/Optional.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace loom::frontend {

enum class ObjectKind { Object, Library };

struct ObjectCode {
  ObjectKind kind = ObjectKind::Object;
  std::string board;           ///< The board it was compiled for; "" for the CPU device.
  std::string options;         ///< Compile options (an object) or link options (a library).
  std::string hostBitcode;     ///< Host triple: what the CPU device links.
  std::string hardwareBitcode; ///< spir64: what a board links. Empty in CPU objects.
  std::string log;
};

/// "object" or "library", as the meta and the messages name them.
llvm::StringRef objectKindName(ObjectKind kind);
/// Whether `object` has the code a link for `board` needs; the error says for what it was compiled.
llvm::Error checkObjectFor(const ObjectCode &object, llvm::StringRef board);

/// What kind of object `binary` is; None for an executable.
llvm::Optional<ObjectKind> objectKindOf(const ProgramBinary &binary);
/// The object in `binary`; an error if it is an executable or names no kind Loom knows.
llvm::Expected<ObjectCode> readObject(const ProgramBinary &binary);
/// Serialises to .loom (ELF) bytes.
std::string writeObject(const ObjectCode &object);

struct LinkOptions {
  bool createLibrary = false;
  std::string text; ///< The options as given.
};
/// Parses clLinkProgram's options (the spec's library and program linking options). An option
/// that is none of them is an error whose message starts with "invalid link option".
llvm::Expected<LinkOptions> parseLinkOptions(llvm::StringRef options);

/// What a link makes: an executable needs every called function defined; a library may leave
/// some for the executable's link to supply.
enum class LinkResult { Executable, Library };

/// Links bitcode units (all for one triple) into one module in `context`, which is switched to
/// typed pointers. Errors are a link log: duplicate definitions and, for an executable, each
/// function called but defined by no unit, with its caller and source location.
llvm::Expected<std::unique_ptr<llvm::Module>> linkUnits(llvm::LLVMContext &context,
                                                        llvm::ArrayRef<llvm::StringRef> bitcodes,
                                                        LinkResult result);

/// clLinkProgram -create-library: the objects' bitcode linked, section by section (the host units;
/// the hardware units too when every object has them).
llvm::Expected<ObjectCode> linkLibrary(llvm::ArrayRef<ObjectCode> objects, const LinkOptions &options);

/// `module` as bitcode: what objects carry.
std::string bitcodeOf(const llvm::Module &module);

/// After the builtin library or other units are linked in, named module metadata (the OpenCL C
/// version, the compiler's ident) has one operand per unit: keep the first.
void keepFirstUnitMetadata(llvm::Module &module);

} // namespace loom::frontend
