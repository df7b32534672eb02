//===- OpenCLCompiler.cpp - OpenCL C to LLVM IR with in-process Clang -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Turns clBuildProgram-style options into a cc1 command line, runs Clang's EmitLLVMOnlyAction on an
// in-memory source buffer and returns the module plus the diagnostics as text. The OpenCL C builtin
// library (frontend/builtins, bitcode embedded at build time) is linked in before Clang optimises, as
// a device library (-mlink-builtin-bitcode: only what the kernel calls, internalised, always inlined).
// Every call owns its CompilerInstance, diagnostics, buffers and file system, so calls on different
// LLVMContexts may run concurrently.
//===----------------------------------------------------------------------===//
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/OpenCLSupport.h"

#include "LoopPragmaBinding.h"
#include "PrintfArguments.h"
#include "ProgramScopeFifos.h"
#include "VendorExtensions.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

#ifndef LOOM_CLANG_RESOURCE_DIR
#error "LOOM_CLANG_RESOURCE_DIR must name Clang's resource directory"
#endif

namespace loom::frontend {
namespace {

// The builtin library's bitcode for each target (frontend/CMakeLists.txt builds and embeds it).
alignas(16) const unsigned char Spir64Builtins[] = {
#include "BuiltinsSpir64.bc.inc"
};
alignas(16) const unsigned char HostBuiltins[] = {
#include "BuiltinsHost.bc.inc"
};

struct BuiltinLibrary {
  const char *path; ///< Where Clang reads it: a file of the compile's in-memory file system.
  llvm::StringRef bitcode;
};

BuiltinLibrary builtinLibrary(Target target) {
  auto bytes = [](const auto &array) {
    return llvm::StringRef(reinterpret_cast<const char *>(array), sizeof array);
  };
  if (target == Target::Host)
    return {"/loom/builtins/host.bc", bytes(HostBuiltins)};
  return {"/loom/builtins/spir64.bc", bytes(Spir64Builtins)};
}

/// Where Clang reads the device's macro prelude (openclPrelude) from the in-memory file system.
constexpr const char *PreludePath = "/loom/include/loom-device.h";
/// The include directory of the embedded headers, searched before the user's -I directories.
constexpr const char *EmbeddedHeaderDir = "/loom/embedded";

/// The real file system (the user's #include files) under an in-memory one holding the library,
/// the prelude and the embedded headers at their paths. One per compile: Clang's FileManager caches
/// what it sees.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
fileSystemWith(const BuiltinLibrary &library, const std::string &prelude,
               const std::vector<EmbeddedHeader> &headers) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(library.path, /*ModificationTime=*/0,
                  llvm::MemoryBuffer::getMemBuffer(library.bitcode, library.path,
                                                   /*RequiresNullTerminator=*/false));
  memory->addFile(PreludePath, /*ModificationTime=*/0, llvm::MemoryBuffer::getMemBufferCopy(prelude, PreludePath));
  for (const EmbeddedHeader &header : headers) {
    const std::string path = std::string(EmbeddedHeaderDir) + "/" + header.name;
    // addFile refuses a second file at one path: the first header of a name stays, as the spec says.
    memory->addFile(path, /*ModificationTime=*/0, llvm::MemoryBuffer::getMemBufferCopy(header.text, path));
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);
  return overlay;
}

llvm::Error buildError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The cc1 arguments derived from the user's options (everything but the fixed flags).
struct ParsedOptions {
  std::string clStd = "CL1.2";
  bool optDisable = false;
  bool allowContraction = false; ///< -cl-mad-enable or an option implying it.
  std::vector<std::string> passThrough;
};

bool takesValue(llvm::StringRef flag) { return flag == "-D" || flag == "-U" || flag == "-I"; }

llvm::Expected<ParsedOptions> parseOptions(llvm::StringRef options) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 16> tokens;
  llvm::cl::TokenizeGNUCommandLine(options, saver, tokens);

  ParsedOptions parsed;
  for (size_t i = 0; i < tokens.size(); ++i) {
    llvm::StringRef token = tokens[i];
    if (token.empty())
      continue;
    if (takesValue(token)) {
      if (i + 1 >= tokens.size())
        return buildError("build option '" + token + "' needs a value, e.g. '" + token +
                          (token == "-I" ? " include/dir'" : " NAME=value'"));
      parsed.passThrough.push_back(token.str());
      parsed.passThrough.push_back(tokens[++i]);
      continue;
    }
    if (token.startswith("-D") || token.startswith("-U") || token.startswith("-I")) {
      parsed.passThrough.push_back(token.str());
      continue;
    }
    if (token.consume_front("-cl-std=")) {
      if (token != "CL1.1" && token != "CL1.2" && token != "CL2.0" && token != "CL3.0")
        return buildError("unsupported OpenCL C version '-cl-std=" + token +
                          "': use -cl-std=CL1.1, CL1.2, CL2.0 or CL3.0");
      parsed.clStd = token.str();
      continue;
    }
    if (token == "-cl-opt-disable") {
      parsed.optDisable = true;
      continue;
    }
    if (token == "-g")
      continue; // Line tables are always generated.
    // Hints a device may ignore that Clang's cc1 does not know: Loom's devices compute denormals,
    // and need no promise that sub-groups do without independent forward progress.
    if (token == "-cl-denorms-are-zero" || token == "-cl-no-subgroup-ifp")
      continue;
    if (token == "-cl-mad-enable" || token == "-cl-unsafe-math-optimizations" ||
        token == "-cl-fast-relaxed-math")
      parsed.allowContraction = true;
    // -cl-* flags are checked by Clang itself: an unknown one becomes an "unknown argument" error.
    if (token == "-w" || token.startswith("-W") || token.startswith("-cl-")) {
      parsed.passThrough.push_back(token.str());
      continue;
    }
    return buildError("unsupported build option '" + token +
                      "': Loom accepts -D, -U, -I, -w, -W..., -cl-std=CL1.1|CL1.2|CL2.0|CL3.0 and other "
                      "-cl-* options");
  }
  return parsed;
}

std::string targetTriple(Target target) {
  switch (target) {
  case Target::Hardware:
    return "spir64-unknown-unknown";
  case Target::Host:
    return llvm::sys::getProcessTriple();
  }
  return "spir64-unknown-unknown";
}

/// Clang's LLVM IR generation with the FPGA vendors' loop pragmas understood.
class CompileAction : public clang::EmitLLVMOnlyAction {
public:
  CompileAction(llvm::LLVMContext &context, Target target) : EmitLLVMOnlyAction(&context), target_(target) {}
  const LoopPragmaBindings &loopPragmas() const { return loopPragmas_; }

private:
  bool BeginSourceFileAction(clang::CompilerInstance &compiler) override {
    addVendorPragmas(compiler.getPreprocessor(), target_, loopPragmas_);
    return EmitLLVMOnlyAction::BeginSourceFileAction(compiler);
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(createKernelAttributeChecker(compiler.getDiagnostics()));
    consumers.push_back(createBankingResolver(compiler.getDiagnostics()));
    consumers.push_back(createPrintfArgumentChecker(compiler.getDiagnostics()));
    consumers.push_back(loopPragmas_.createBinder(compiler.getDiagnostics(), compiler.getSourceManager()));
    consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(compiler, file));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }
  Target target_;
  LoopPragmaBindings loopPragmas_;
};

void initializeHostTarget() {
  // The host target's TargetMachine gives the -O2 pipeline its cost model; spir64 has no backend
  // and needs none. Registration touches global registries, so it happens once.
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

} // namespace

llvm::Expected<CompiledModule> compileOpenCL(llvm::LLVMContext &context, const SourceInput &input,
                                             Target target) {
  auto parsed = parseOptions(input.options);
  if (!parsed)
    return parsed.takeError();
  if (target == Target::Host)
    initializeHostTarget();

  const std::string fileName = input.fileName.empty() ? "input.cl" : input.fileName;
  const std::string triple = targetTriple(target);
  const std::string clStd = "-cl-std=" + parsed->clStd;
  const std::string resourceInclude = std::string(LOOM_CLANG_RESOURCE_DIR) + "/include";
  const BuiltinLibrary builtins = builtinLibrary(target);
  const OpenCLSupport &support = openclSupport(target);
  const std::string extensionOption = clangExtensionOption(support);

  // frontend/CMakeLists.txt compiles the builtin library with these flags (but -O2, CL2.0 and no
  // line tables): keep them in step.
  std::vector<const char *> args = {
      "-triple", triple.c_str(),
      "-emit-llvm-only",
      "-x", "cl",
      clStd.c_str(),
      "-fdeclare-opencl-builtins", // opencl-c-base.h: the prelude includes it (OpenCLSupport.h)
      "-no-opaque-pointers",
      "-debug-info-kind=line-tables-only",
      "-dwarf-version=4",
      "-cl-kernel-arg-info",
      "-resource-dir", LOOM_CLANG_RESOURCE_DIR,
      "-nostdsysteminc",
      "-internal-isystem", resourceInclude.c_str(),
      "-mlink-builtin-bitcode", builtins.path,
      // The device's extension and feature macros, exactly (OpenCLSupport.h).
      extensionOption.c_str(),
      "-include", PreludePath,
  };
  if (!input.headers.empty()) {
    args.push_back("-I");
    args.push_back(EmbeddedHeaderDir);
  }
  // Calls with 8- and 16-lane vectors warn that their x86-64 ABI depends on AVX: it does not matter
  // here, every caller and callee is in this one module (and the builtins are inlined).
  if (target == Target::Host)
    args.push_back("-Wno-psabi");
  // printf is OpenCL C's (lowering/Printf.h), not the C library's, which LLVM would otherwise
  // simplify on the host (printf("%s\n", s) into puts(s)).
  args.push_back("-fno-builtin-printf");
  // In hardware a loop that copies or shifts an array is better left a loop (or, unrolled, a shift
  // register of scalars) than turned into memcpy/memmove/memset calls, which LLVM forms only when
  // they are known library builtins.
  if (target == Target::Hardware)
    args.push_back("-fno-builtin");
  // Clang defines __IMAGE_SUPPORT__ for every SPIR target; OpenCL C leaves it undefined on a device
  // without images, as both Loom devices are (CL_DEVICE_IMAGE_SUPPORT).
  args.push_back("-U__IMAGE_SUPPORT__");
  if (parsed->optDisable) {
    // Keep functions optimisable by later stages: no optnone/noinline at -O0.
    args.push_back("-O0");
    args.push_back("-disable-O0-optnone");
  } else {
    args.push_back("-O2");
  }
  // a * b + c keeps both roundings unless the options allow a mad: the board's float units round
  // each operation (as Intel's aoc does by default), so board and CPU agree bit for bit.
  args.push_back(parsed->allowContraction ? "-ffp-contract=on" : "-ffp-contract=off");
  for (const std::string &arg : parsed->passThrough)
    args.push_back(arg.c_str());
  args.push_back(fileName.c_str());

  // Everything Clang says (argument errors, diagnostics, the "N errors generated." summary) goes
  // into one log.
  std::string log;
  llvm::raw_string_ostream logStream(log);

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> argDiagOptions(new clang::DiagnosticOptions);
    clang::TextDiagnosticPrinter argPrinter(logStream, argDiagOptions.get());
    llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs);
    clang::DiagnosticsEngine argDiags(ids, argDiagOptions, &argPrinter, /*ShouldOwnClient=*/false);
    bool ok = clang::CompilerInvocation::CreateFromArgs(*invocation, args, argDiags);
    argPrinter.finish();
    if (!ok || argDiags.hasErrorOccurred())
      return buildError("invalid build options '" + input.options + "':\n" + logStream.str());
  }

  // The source is an in-memory buffer remapped onto its file name; #include still searches -I paths.
  // The vendors' forms Clang rejects are rewritten first, each line kept where it was.
  const std::string text = rewriteHelperLocalArrays(
      rewriteKeywordAttributeArguments(rewriteLabelledLoopHints(rewriteFifoDeclarations(input.text))));
  std::unique_ptr<llvm::MemoryBuffer> source = llvm::MemoryBuffer::getMemBufferCopy(text, fileName);
  invocation->getPreprocessorOpts().addRemappedFile(fileName, source.get());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = true;
  invocation->getFrontendOpts().DisableFree = false;

  clang::CompilerInstance compiler;
  compiler.setInvocation(invocation);
  compiler.createDiagnostics(createDiagnosticPrinter(logStream, &invocation->getDiagnosticOpts()),
                             /*ShouldOwnClient=*/true);
  const std::string prelude = openclPrelude(support) + fifoPrelude().str() + helperLocalPrelude().str();
  compiler.createFileManager(fileSystemWith(builtins, prelude, input.headers));
  compiler.setVerboseOutputStream(logStream);

  // The module is created in `context`, which must be in typed-pointer mode.
  context.setOpaquePointers(false);
  CompileAction action(context, target);
  bool ok = compiler.ExecuteAction(action);
  std::unique_ptr<llvm::Module> module = ok ? action.takeModule() : nullptr;
  if (!ok || !module || compiler.getDiagnostics().hasErrorOccurred()) {
    logStream.flush();
    if (log.empty())
      log = "error: compiling " + fileName + " failed without a diagnostic\n";
    return buildError(log);
  }
  // Linking the builtin library appended its metadata after the kernel's own.
  keepFirstUnitMetadata(*module);
  moveVendorAnnotationsToMetadata(*module);
  action.loopPragmas().applyTo(*module);
  logStream.flush();
  allocateHelperLocalArrays(*module);
  if (llvm::Error error = replicateAutorunKernels(*module))
    return buildError(log + llvm::toString(std::move(error)) + "\n");
  if (llvm::Error error = bindProgramScopeFifos(*module, target))
    return buildError(log + llvm::toString(std::move(error)) + "\n");
  return CompiledModule{std::move(module), std::move(log)};
}

} // namespace loom::frontend
