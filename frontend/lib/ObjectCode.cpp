//===- ObjectCode.cpp - Compiled objects and libraries, and linking them --===//
// SPDX-License-Identifier: Apache-2.0
//
// The object's meta is {"type", "board", "options"}; its code is in the binary's .loom.cpu and
// .loom.hw sections. Linking: parse every unit into one context, link them in order with
// llvm::Linker (whose diagnostics become the log), then, for an executable, look for functions
// still undefined. Builtins are not among them: each unit was compiled with the builtin library
// linked in and internalised, so what stays declared is a user function (unmangled: OpenCL C does
// not mangle), a builtin the library lacks (mangled, reported by the device that runs it), an
// intrinsic or a Loom marker ("__loom_", "__spirv_").
//===----------------------------------------------------------------------===//
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/SourceLocation.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

namespace loom::frontend {
namespace {

llvm::Error linkError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A declaration left for the link to resolve: a user function, which OpenCL C does not mangle.
bool isUserFunction(const llvm::Function &function) {
  llvm::StringRef name = function.getName();
  return !function.isIntrinsic() && !name.startswith("_Z") && !name.startswith("__") && name != "printf";
}

llvm::Error checkDefined(const llvm::Module &module) {
  std::string log;
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration() || function.use_empty() || !isUserFunction(function))
      continue;
    const llvm::User *user = *function.user_begin();
    const auto *call = llvm::dyn_cast<llvm::Instruction>(user);
    log += (call ? diagnosticPrefix(*call) : std::string()) + "error: undefined function '" +
           function.getName().str() + "'" +
           (call ? " called from '" + call->getFunction()->getName().str() + "'" : std::string()) +
           ": no linked object or library defines it\n";
  }
  if (!log.empty())
    return linkError(log);
  return llvm::Error::success();
}

/// Links `bitcodes` in order, keeping whichever module an error or warning came from in the log.
llvm::Expected<std::unique_ptr<llvm::Module>> linkAll(llvm::LLVMContext &context,
                                                      llvm::ArrayRef<llvm::StringRef> bitcodes) {
  if (bitcodes.empty())
    return linkError("error: nothing to link");
  context.setOpaquePointers(false); // Loom's bitcode has typed pointers (the SPIR-V translator's need).
  std::string log;
  struct Capture {
    std::string *log;
  } capture{&log};
  auto previousHandler = context.getDiagnosticHandlerCallBack();
  void *previousContext = context.getDiagnosticContext();
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo &info, void *opaque) {
        llvm::raw_string_ostream stream(*static_cast<Capture *>(opaque)->log);
        llvm::DiagnosticPrinterRawOStream printer(stream);
        stream << (info.getSeverity() == llvm::DS_Error ? "error: " : "warning: ");
        info.print(printer);
        stream << "\n";
      },
      &capture);

  std::unique_ptr<llvm::Module> linked;
  llvm::Error failure = llvm::Error::success();
  for (size_t i = 0; i < bitcodes.size() && !failure; ++i) {
    const std::string name = "unit " + std::to_string(i + 1);
    auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcodes[i], name), context);
    if (!module) {
      failure = linkError("error: " + name + " is not valid LLVM 15 bitcode: " +
                          llvm::toString(module.takeError()));
      break;
    }
    if (!linked) {
      linked = std::move(*module);
      continue;
    }
    if (llvm::Linker::linkModules(*linked, std::move(*module)))
      failure = linkError(log.empty() ? "error: linking " + name + " failed" : log);
  }
  context.setDiagnosticHandlerCallBack(previousHandler, previousContext);
  if (failure)
    return std::move(failure);
  keepFirstUnitMetadata(*linked);
  return std::move(linked);
}

} // namespace

std::string bitcodeOf(const llvm::Module &module) {
  std::string bytes;
  llvm::raw_string_ostream stream(bytes);
  llvm::WriteBitcodeToFile(module, stream);
  stream.flush();
  return bytes;
}

llvm::StringRef objectKindName(ObjectKind kind) { return kind == ObjectKind::Object ? "object" : "library"; }

llvm::Error checkObjectFor(const ObjectCode &object, llvm::StringRef board) {
  if (object.board == board && !object.hardwareBitcode.empty())
    return llvm::Error::success();
  return linkError("the " + objectKindName(object.kind) + " was compiled for " +
                   (object.board.empty() ? std::string("the CPU device") : "board '" + object.board + "'") +
                   ", not for board '" + board + "': compile it for this device");
}

llvm::Optional<ObjectKind> objectKindOf(const ProgramBinary &binary) {
  llvm::Optional<llvm::StringRef> type = binary.meta.getString("type");
  if (type && *type == "object")
    return ObjectKind::Object;
  if (type && *type == "library")
    return ObjectKind::Library;
  return llvm::None;
}

llvm::Expected<ObjectCode> readObject(const ProgramBinary &binary) {
  llvm::Optional<ObjectKind> kind = objectKindOf(binary);
  if (!kind)
    return linkError("the binary is an executable, not a compiled object or library");
  ObjectCode object;
  object.kind = *kind;
  object.board = binary.board();
  if (auto options = binary.meta.getString("options"))
    object.options = options->str();
  object.hostBitcode = binary.cpuBitcode;
  object.hardwareBitcode = binary.hardwareBitcode;
  object.log = binary.log;
  if (object.hostBitcode.empty())
    return linkError("the compiled " + objectKindName(*kind) + " has no code (its .loom.cpu section is empty)");
  return object;
}

std::string writeObject(const ObjectCode &object) {
  ProgramBinary binary;
  binary.meta = llvm::json::Object{
      {"type", objectKindName(object.kind)}, {"board", object.board}, {"options", object.options}};
  binary.cpuBitcode = object.hostBitcode;
  binary.hardwareBitcode = object.hardwareBitcode;
  binary.log = object.log;
  return writeBinary(binary);
}

llvm::Expected<LinkOptions> parseLinkOptions(llvm::StringRef options) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 8> tokens;
  llvm::cl::TokenizeGNUCommandLine(options, saver, tokens);
  LinkOptions parsed;
  parsed.text = options.str();
  bool enableLinkOptions = false;
  for (llvm::StringRef token : tokens) {
    if (token == "-create-library")
      parsed.createLibrary = true;
    else if (token == "-enable-link-options")
      enableLinkOptions = true;
    // The program linking options tune math the compile already fixed; they are accepted (the spec
    // lets a linker apply them or not) and change nothing.
    else if (token != "-cl-denorms-are-zero" && token != "-cl-no-signed-zeros" &&
             token != "-cl-no-signed-zeroes" && token != "-cl-unsafe-math-optimizations" &&
             token != "-cl-finite-math-only" && token != "-cl-fast-relaxed-math" &&
             token != "-cl-no-subgroup-ifp")
      return linkError("invalid link option '" + token +
                       "': the link options are -create-library, -enable-link-options, "
                       "-cl-denorms-are-zero, -cl-no-signed-zeros, -cl-unsafe-math-optimizations, "
                       "-cl-finite-math-only, -cl-fast-relaxed-math and -cl-no-subgroup-ifp");
  }
  if (enableLinkOptions && !parsed.createLibrary)
    return linkError("invalid link options: -enable-link-options needs -create-library");
  return parsed;
}

namespace {

/// Each call's calling convention made its callee's. A unit may declare another unit's kernel as a
/// plain function and call it (OpenCL C lets a kernel be called as a function); to LLVM a call whose
/// convention differs from its callee's is undefined, and its optimisations delete it.
void matchCallingConventions(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::User *user : function.users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledFunction() == &function)
        call->setCallingConv(function.getCallingConv());
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>> linkUnits(llvm::LLVMContext &context,
                                                        llvm::ArrayRef<llvm::StringRef> bitcodes,
                                                        LinkResult result) {
  auto linked = linkAll(context, bitcodes);
  if (!linked)
    return linked.takeError();
  matchCallingConventions(**linked);
  if (result == LinkResult::Executable)
    if (llvm::Error error = checkDefined(**linked))
      return std::move(error);
  return linked;
}

llvm::Expected<ObjectCode> linkLibrary(llvm::ArrayRef<ObjectCode> objects, const LinkOptions &options) {
  ObjectCode library;
  library.kind = ObjectKind::Library;
  library.options = options.text;
  library.board = objects.empty() ? "" : objects.front().board;
  std::vector<llvm::StringRef> host, hardware;
  for (const ObjectCode &object : objects) {
    host.push_back(object.hostBitcode);
    if (!object.hardwareBitcode.empty())
      hardware.push_back(object.hardwareBitcode);
    if (object.board != library.board)
      library.board.clear(); // Objects of different boards: only the host code links.
  }
  auto linkSection = [](llvm::ArrayRef<llvm::StringRef> units, std::string &out) -> llvm::Error {
    llvm::LLVMContext context;
    auto module = linkUnits(context, units, LinkResult::Library);
    if (!module)
      return module.takeError();
    out = bitcodeOf(**module);
    return llvm::Error::success();
  };
  if (llvm::Error error = linkSection(host, library.hostBitcode))
    return std::move(error);
  if (!library.board.empty() && hardware.size() == objects.size())
    if (llvm::Error error = linkSection(hardware, library.hardwareBitcode))
      return std::move(error);
  return library;
}

void keepFirstUnitMetadata(llvm::Module &module) {
  for (const char *name : {"opencl.ocl.version", "opencl.spir.version", "llvm.ident"}) {
    llvm::NamedMDNode *node = module.getNamedMetadata(name);
    if (!node || node->getNumOperands() <= 1)
      continue;
    llvm::MDNode *first = node->getOperand(0);
    node->clearOperands();
    node->addOperand(first);
  }
}

} // namespace loom::frontend
