//===- CpuProgram.cpp - Work-group functions, O3 for the host, ORC LLJIT --===//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU device's compile pipeline, in order: kernel metadata, the program binary (the module as
// bitcode, before any change), the support check (missing builtins), integer divisions that cannot
// trap, printf calls to records, the marks on atomic updates a work-group may combine
// (CombineGroupAtomics.h), work-item loops, the host CPU's target attributes and the verifier when
// the program is built; at its first launch, O3 (PassBuilder with the host TargetMachine, so the loop
// vectoriser has the real cost model), the combining of the marked updates, plain paths for masked
// accesses whose every lane is on (FullMaskFastPaths.h), and code generation into an object file,
// kept in the ProgramCache under the lowered module and the host CPU (a later process loads it
// instead: no O3, no code generation), then one LLJIT over that object whose lookups give the
// work-group function pointers. The streaming variant
// (StreamingStores.h) is made the same way from the lowered module's bitcode, with its assumptions
// before O3 and its non-temporal stores after, at the first launch that needs it.
//===----------------------------------------------------------------------===//
#include "devices/cpu/CpuProgram.h"
#include "devices/cpu/CombineGroupAtomics.h"
#include "devices/cpu/FullMaskFastPaths.h"
#include "devices/cpu/GuardDivisions.h"
#include "devices/cpu/PipeCallSites.h"
#include "devices/cpu/PipeOperations.h"
#include "devices/cpu/StreamingStores.h"
#include "devices/ProgramCache.h"

#include "loom/frontend/Binary.h"
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/Optimize.h"
#include "loom/lowering/Printf.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

namespace loom::runtime::cpu {
namespace {

using namespace llvm;

Error compileError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

void initializeHost() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    // Makes the process's own symbols (libc, libm) searchable, for checkSupported and the JIT.
    sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
}

/// glibc's libmvec, loaded into the process once (the JIT resolves its symbols there); false if the
/// process cannot load it.
bool vectorMathLoaded() {
  static const bool loaded = !sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  return loaded;
}

// The functions whose libmvec versions (SSE 4-lane, AVX2 8-lane) a loop over work-items may call,
// each as VERSION(the name the optimiser sees, libmvec's name after its ISA and lane count: a 'v'
// per operand, then the C name), with its worst error in ULPs, 4-lane/8-lane, and OpenCL C's bound
// (7.4). Only those within the bound over every float (two-operand ones: 2^28 random operands and
// the awkward values crossed) that give the C library's special values (NaN, infinities, signed
// zeros) and compute denormals, as the device promises (CL_FP_DENORM: its threads run without FTZ
// or DAZ). Not libmvec's logf 3.97/3.94 of 3, log1pf 2.11/1.96 of 2, cbrtf 2.85/2.85 of 2: log,
// log1p and cbrt are the float-arithmetic library's (frontend/builtins/math.cl: selects and float
// arithmetic, which the loop vectoriser widens itself; 0.84, 0.87 and 0.50 ULP over every float,
// denormals included). bench_math_ulp measures what the device computes.
#define LOOM_VECTOR_MATH(VERSION)                                                             \
  /* 2.51/2.15 of 4  */ VERSION("acosf", "v_acosf"),                                          \
  /* 3.20/2.81 of 4  */ VERSION("acoshf", "v_acoshf"),                                        \
  /* 3.06/2.66 of 4  */ VERSION("asinf", "v_asinf"),                                          \
  /* 2.15/2.09 of 4  */ VERSION("asinhf", "v_asinhf"),                                        \
  /* 2.81/2.47 of 5  */ VERSION("atanf", "v_atanf"),                                          \
  /* 2.09/2.04 of 5  */ VERSION("atanhf", "v_atanhf"),                                        \
  /* 2.39/2.01 of 4  */ VERSION("cosf", "v_cosf"), VERSION("llvm.cos.f32", "v_cosf"),         \
  /* 1.89/2.08 of 4  */ VERSION("coshf", "v_coshf"),                                          \
  /* 1.93/1.93 of 16 */ VERSION("erff", "v_erff"),                                            \
  /* 1.76/1.62 of 16 */ VERSION("erfcf", "v_erfcf"),                                          \
  /* 2.93/2.64 of 3  */ VERSION("expf", "v_expf"), VERSION("llvm.exp.f32", "v_expf"),         \
  /* 1.10/0.82 of 3  */ VERSION("exp2f", "v_exp2f"), VERSION("llvm.exp2.f32", "v_exp2f"),     \
  /* 1.74/1.73 of 3  */ VERSION("exp10f", "v_exp10f"),                                        \
  /* 1.80/1.68 of 3  */ VERSION("expm1f", "v_expm1f"),                                        \
  /* 2.61/2.08 of 3  */ VERSION("log2f", "v_log2f"), VERSION("llvm.log2.f32", "v_log2f"),     \
  /* 2.63/2.78 of 3  */ VERSION("log10f", "v_log10f"), VERSION("llvm.log10.f32", "v_log10f"), \
  /* 2.47/2.11 of 4  */ VERSION("sinf", "v_sinf"), VERSION("llvm.sin.f32", "v_sinf"),         \
  /* 2.02/1.89 of 4  */ VERSION("sinhf", "v_sinhf"),                                          \
  /* 3.94/3.65 of 5  */ VERSION("tanf", "v_tanf"),                                            \
  /* 1.03/1.03 of 5  */ VERSION("tanhf", "v_tanhf"),                                          \
  /* 3.65/3.32 of 6  */ VERSION("atan2f", "vv_atan2f"),                                       \
  /* 1.38/1.18 of 4  */ VERSION("hypotf", "vv_hypotf"),                                       \
  /* 1.01/1.01 of 16 */ VERSION("powf", "vv_powf"), VERSION("llvm.pow.f32", "vv_powf")
#define LOOM_SSE_VERSION(name, suffix) {name, "_ZGVbN4" suffix, ElementCount::getFixed(4)}
#define LOOM_AVX2_VERSION(name, suffix) {name, "_ZGVdN8" suffix, ElementCount::getFixed(8)}

/// What the optimiser knows of the host's library: its functions, and libmvec's vector versions of
/// LOOM_VECTOR_MATH's, so that a loop over work-items calling them stays vectorised (SSE 4-lane
/// versions, and AVX2 8-lane ones where the host has AVX2).
std::unique_ptr<TargetLibraryInfoImpl> hostLibrary(const Triple &triple, bool hasAvx2) {
  auto library = std::make_unique<TargetLibraryInfoImpl>(triple);
  if (!vectorMathLoaded())
    return library;
  static const VecDesc FourLanes[] = {LOOM_VECTOR_MATH(LOOM_SSE_VERSION)};
  static const VecDesc EightLanes[] = {LOOM_VECTOR_MATH(LOOM_AVX2_VERSION)};
  library->addVectorizableFunctions(FourLanes);
  if (hasAvx2)
    library->addVectorizableFunctions(EightLanes);
  return library;
}

/// Whether the JIT will find `symbol`: a pipe operation, or one of the process's.
bool processDefines(StringRef symbol) {
  return isPipeOperation(symbol) || sys::DynamicLibrary::SearchForAddressOfSymbol(symbol.str()) != nullptr;
}

/// Owns a module and its context, and destroys them in the right order on every path.
struct OwnedModule {
  std::unique_ptr<LLVMContext> context;
  std::unique_ptr<Module> module;
  ~OwnedModule() { module.reset(); }
};

/// The bytes of the module's program-scope __global variables (function-scope static ones too), each
/// at most MaxGlobalVariableBytes: the program's own storage, which the JIT gives it. The host target
/// has one address space: they are the variables that are written, and not __local.
Expected<uint64_t> programScopeVariableBytes(const Module &module) {
  uint64_t total = 0;
  for (const GlobalVariable &variable : module.globals()) {
    if (variable.isDeclaration() || variable.isConstant() || frontend::isLocalVariable(variable) ||
        variable.getName().startswith("llvm."))
      continue;
    const uint64_t bytes = module.getDataLayout().getTypeAllocSize(variable.getValueType());
    if (bytes > MaxGlobalVariableBytes)
      return compileError(formatv("error: the program-scope variable '{0}' takes {1} bytes; the CPU device "
                                  "allows at most {2} (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)",
                                  variable.getName(), bytes, MaxGlobalVariableBytes)
                              .str());
    total += bytes;
  }
  return total;
}

std::string binaryFor(const Module &module, const std::vector<frontend::KernelInfo> &kernels,
                      const std::string &log) {
  json::Array entries;
  for (const frontend::KernelInfo &kernel : kernels)
    entries.push_back(frontend::toJSON(kernel));
  frontend::ProgramBinary binary;
  // No board: this binary carries CPU code only, and the board device refuses it.
  binary.meta = json::Object{{"board", ""}, {"device", "cpu"}, {"kernels", std::move(entries)}};
  binary.cpuBitcode = frontend::bitcodeOf(module);
  binary.log = log;
  return frontend::writeBinary(binary);
}

} // namespace

Expected<std::unique_ptr<CpuProgram>> CpuProgram::compile(std::unique_ptr<LLVMContext> context,
                                                          std::unique_ptr<Module> module,
                                                          std::string buildLog,
                                                          std::string inputBinary) {
  OwnedModule owned{std::move(context), std::move(module)};
  Module &m = *owned.module;
  initializeHost();
  auto program = std::make_shared<Compiled>();

  auto kernels = frontend::extractKernels(m);
  if (!kernels)
    return kernels.takeError();
  program->kernelInfos = std::move(*kernels);
  for (const frontend::KernelInfo &kernel : program->kernelInfos) {
    const auto pipes = llvm::count_if(kernel.args, [](const frontend::KernelArg &arg) { return arg.isPipe(); });
    if (pipes > MaxPipeArgs)
      return compileError(llvm::formatv("error: kernel '{0}' takes {1} pipes; the CPU device takes at most {2} "
                                        "(CL_DEVICE_MAX_PIPE_ARGS)", kernel.name, pipes, MaxPipeArgs));
  }
  program->binaryBytes =
      inputBinary.empty() ? binaryFor(m, program->kernelInfos, buildLog) : std::move(inputBinary);

  if (Error error = checkSupported(m, processDefines))
    return std::move(error);
  auto variableBytes = programScopeVariableBytes(m);
  if (!variableBytes)
    return variableBytes.takeError();
  program->globalVariableBytes = *variableBytes;
  guardIntegerDivisions(m);
  auto printfCalls = lowering::lowerPrintfCalls(m);
  if (!printfCalls)
    return printfCalls.takeError();
  program->printfCallTable = std::move(*printfCalls);
  program->pipeCallSiteTable = numberPipeCallSites(m);
  markCombinableAtomics(m, program->kernelInfos);
  auto groups = addWorkGroupFunctions(m, program->kernelInfos);
  if (!groups)
    return groups.takeError();

  auto target = orc::JITTargetMachineBuilder::detectHost();
  if (!target)
    return target.takeError();
  m.setDataLayout(cantFail(target->getDefaultDataLayoutForTarget()));
  m.setTargetTriple(target->getTargetTriple().str());
  // The frontend compiled for a generic x86-64; the vectoriser should see this CPU's vector units.
  const std::string cpu = target->getCPU();
  const std::string features = target->getFeatures().getString();
  for (Function &function : m)
    if (!function.isDeclaration()) {
      function.addFnAttr("target-cpu", cpu);
      function.addFnAttr("target-features", features);
      // Under -cl-fast-relaxed-math the x86 back end would divide vectors by an estimated reciprocal
      // refined once: 3 ulp, past the 2.5 a relaxed divide may be off (OpenCL C 7.4).
      function.addFnAttr("reciprocal-estimates", "none");
    }

  // What a launch's streaming decision needs to know of each pointer argument (StreamingStores.h).
  for (const frontend::KernelInfo &kernel : program->kernelInfos) {
    std::vector<uint64_t> &bytes = program->elementBytes.emplace_back(kernel.args.size(), 0);
    if (const Function *function = m.getFunction(kernel.name))
      for (const Argument &argument : function->args())
        if (auto *pointer = dyn_cast<PointerType>(argument.getType()); pointer && argument.getArgNo() < bytes.size()) {
          Type *element = pointer->isOpaque() ? nullptr : pointer->getNonOpaquePointerElementType();
          bytes[argument.getArgNo()] = element && element->isSized() ? m.getDataLayout().getTypeAllocSize(element) : 4;
        }
  }

  std::string verifierMessage;
  raw_string_ostream verifierStream(verifierMessage);
  if (verifyModule(m, &verifierStream))
    return compileError("internal error: the CPU device produced invalid IR (please report):\n" +
                        verifierStream.str());

  for (const WorkGroupFunction &group : *groups) {
    program->entries.push_back(
        {nullptr, group.staticLocalBytes, group.contextBytesPerItem, group.prints});
    program->symbols.push_back(group.symbol);
  }
  program->context = std::move(owned.context);
  program->lowered = std::move(owned.module);
  return std::unique_ptr<CpuProgram>(new CpuProgram(std::move(program)));
}

/// A JIT over `object` whose lookups give `symbols`' addresses, in order.
Expected<std::pair<std::unique_ptr<orc::LLJIT>, std::vector<WorkGroupFn>>>
loadObject(orc::JITTargetMachineBuilder target, std::unique_ptr<MemoryBuffer> object,
           ArrayRef<std::string> symbols) {
  auto built = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(target)).create();
  if (!built)
    return built.takeError();
  // Unresolved symbols become the lookup's error, not a line on the application's stderr.
  (*built)->getExecutionSession().setErrorReporter([](Error error) { consumeError(std::move(error)); });
  auto generator =
      orc::DynamicLibrarySearchGenerator::GetForCurrentProcess((*built)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  (*built)->getMainJITDylib().addGenerator(std::move(*generator));
  if (Error error = (*built)->getMainJITDylib().define(orc::absoluteSymbols(pipeOperationSymbols(**built))))
    return std::move(error);
  if (Error error = (*built)->addObjectFile(std::move(object)))
    return std::move(error);
  std::vector<WorkGroupFn> functions;
  for (const std::string &symbol : symbols) {
    auto address = (*built)->lookup(symbol);
    if (!address)
      return compileError("'" + symbol + "': " + toString(address.takeError()));
    functions.push_back(address->toPtr<WorkGroupFn>());
  }
  return std::make_pair(std::move(*built), std::move(functions));
}

Error CpuProgram::Compiled::generateCode(Variant variant) const {
  auto target = orc::JITTargetMachineBuilder::detectHost();
  if (!target)
    return target.takeError();
  target->setCodeGenOptLevel(CodeGenOpt::Aggressive);
  const std::string features = target->getFeatures().getString();
  // The first variant made takes the lowered module; the other starts again from its bitcode.
  OwnedModule owned{std::move(context), std::move(lowered)};
  if (owned.module) {
    raw_string_ostream out(loweredBitcode);
    WriteBitcodeToFile(*owned.module, out);
  }
  const bool streaming = variant == Variant::Streaming;
  const ProgramCache cache = ProgramCache::fromEnvironment(".o");
  // The code calls libmvec's vector functions only where the process could load it (hostLibrary).
  const std::string key =
      ProgramCache::key({loweredBitcode, target->getTargetTriple().str(), target->getCPU(), features,
                         vectorMathLoaded() ? "libmvec" : "", streaming ? "streaming stores" : ""});
  Code &made = code[unsigned(variant)];
  auto adopt = [&made](std::pair<std::unique_ptr<orc::LLJIT>, std::vector<WorkGroupFn>> &loaded) {
    made.jit = std::move(loaded.first);
    made.functions = std::move(loaded.second);
  };
  // A cached object that does not load (damaged, or written by another build) is made again.
  if (auto cached = cache.lookup(key)) {
    auto loaded = loadObject(*target, MemoryBuffer::getMemBufferCopy(*cached, "cached kernel code"), symbols);
    if (loaded) {
      adopt(*loaded);
      return Error::success();
    }
    consumeError(loaded.takeError());
  }

  if (!owned.module) {
    owned.context = std::make_unique<LLVMContext>();
    owned.context->setOpaquePointers(false); // As the lowered module was.
    auto parsed = parseBitcodeFile(MemoryBufferRef(loweredBitcode, "lowered program"), *owned.context);
    if (!parsed)
      return parsed.takeError();
    owned.module = std::move(*parsed);
  }
  auto machine = target->createTargetMachine();
  if (!machine)
    return machine.takeError();
  auto library = hostLibrary(target->getTargetTriple(), StringRef(features).contains("+avx2"));
  if (streaming)
    assumeStreamingLaunch(*owned.module, symbols, kernelInfos);
  frontend::optimizeModule(*owned.module, OptimizationLevel::O3, machine->get(), library.get());
  combineGroupAtomics(*owned.module, symbols);
  addFullMaskFastPaths(*owned.module, symbols);
  if (streaming)
    markStreamingStores(*owned.module, symbols, kernelInfos);
  SmallVector<char, 0> object;
  {
    raw_svector_ostream out(object);
    legacy::PassManager emit;
    if ((*machine)->addPassesToEmitFile(emit, out, nullptr, CGFT_ObjectFile))
      return compileError("the host's code generator cannot write object files");
    emit.run(*owned.module);
  }
  // A cache that cannot be written only costs the next process this work again.
  consumeError(cache.store(key, StringRef(object.data(), object.size())));
  auto loaded =
      loadObject(*target, std::make_unique<SmallVectorMemoryBuffer>(std::move(object), "kernel code"), symbols);
  if (!loaded)
    return compileError("cannot compile the program for the CPU: " + toString(loaded.takeError()) +
                        " (a function a kernel calls is not available on the CPU device)");
  adopt(*loaded);
  return Error::success();
}

Expected<CpuProgram::Entry> CpuProgram::entry(unsigned kernelIndex, Variant variant) const {
  std::lock_guard<std::mutex> lock(compiled->codegenMutex);
  Code &code = compiled->code[unsigned(variant)];
  if (!code.jit && code.error.empty())
    if (Error error = compiled->generateCode(variant))
      code.error = toString(std::move(error));
  if (!code.error.empty())
    return compileError(code.error);
  Entry entry = compiled->entries[kernelIndex];
  entry.function = code.functions[kernelIndex];
  return entry;
}

} // namespace loom::runtime::cpu
