//===- VendorExtensions.cpp - Intel's and Xilinx's FPGA attributes and pragmas ----===//
// SPDX-License-Identifier: Apache-2.0
//
// The attributes are one Clang attribute plugin (ParsedAttrInfo) spelling every vendor name; the
// pragmas are preprocessor handlers that turn what Loom honours into Clang's own loop hints
// (`_Pragma("clang loop ...")` entered after the pragma) and warn about the rest. See the header for
// what reaches later stages.
//===----------------------------------------------------------------------===//
#include "VendorExtensions.h"

#include "LoopPragmaBinding.h"
#include "ProgramScopeFifos.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace loom::frontend {
namespace {

enum class AppliesTo { Kernel, Variable, LocalArgument };

struct VendorAttribute {
  const char *name;
  AppliesTo appliesTo;
  /// Null when Loom honours it; else why it is ignored (the warning's second half).
  const char *ignoredBecause;
  const char *honouredAs = nullptr; ///< The annotation's name when it is not `name` (a vendor synonym).
  unsigned minArgs = 0, maxArgs = 0;
  /// Non-zero: each argument must be a power of two no larger than this.
  unsigned maxPowerOfTwo = 0;
};

constexpr const char *MemoryLayoutIgnored =
    "Loom gives every access to an on-chip array a port of its own (copying the memory for extra "
    "reads), so the array needs no replication limit or port layout to reach II 1";

const VendorAttribute VendorAttributes[] = {
    // Kernels. Honoured: KernelInfo reads them; the runtime enforces them at launch.
    {"max_global_work_dim", AppliesTo::Kernel, nullptr, nullptr, 1, 1},
    {"max_work_group_size", AppliesTo::Kernel, nullptr, nullptr, 1, 3},
    {"xcl_max_work_group_size", AppliesTo::Kernel, nullptr, "max_work_group_size", 1, 3},
    // Checked further by KernelAttributeChecker; hls/ replicates the kernel.
    {"num_compute_units", AppliesTo::Kernel, nullptr, nullptr, 1, 3},
    {"num_simd_work_items", AppliesTo::Kernel, nullptr, nullptr, 1, 1, 16},
    // Checked further by KernelAttributeChecker; the runtime starts the kernel (ProgramScopeFifos.h).
    {"autorun", AppliesTo::Kernel},
    {"uses_global_work_offset", AppliesTo::Kernel,
     "the global offset costs Loom's hardware one adder, so kernels always take it into account"},
    {"xcl_zero_global_work_offset", AppliesTo::Kernel,
     "the global offset costs Loom's hardware one adder, so kernels always take it into account"},
    {"xcl_dataflow", AppliesTo::Kernel,
     "task-level pipelining of a kernel's loops is not implemented; its loops run one after another "
     "for each work-item, each loop pipelined"},
    // On-chip memories. Banking is honoured: BankingAttributes turns it into the array's bank bits.
    {"numbanks", AppliesTo::Variable, nullptr, nullptr, 1, 1, MaxBanks},
    {"bankwidth", AppliesTo::Variable, nullptr, nullptr, 1, 1, 128},
    {"bank_bits", AppliesTo::Variable, nullptr, nullptr, 1, 8},
    // Its arguments are an identifier and integers: parsed by partitionAnnotation.
    {"xcl_array_partition", AppliesTo::Variable, nullptr, nullptr, 2, 3},
    // hls/ holds at most this many copies of the array (one per work-item in flight).
    {"private_copies", AppliesTo::Variable, nullptr, nullptr, 1, 1},
    // The area estimate counts a block RAM's ports at the kernel's clock (2) or twice it (4).
    {"singlepump", AppliesTo::Variable},
    {"doublepump", AppliesTo::Variable},
    // Every element a register: BankingAttributes makes each element a bank of its own.
    {"register", AppliesTo::Variable},
    {"max_replicates", AppliesTo::Variable, MemoryLayoutIgnored},
    {"simple_dual_port", AppliesTo::Variable, MemoryLayoutIgnored},
    {"merge", AppliesTo::Variable,
     "Loom keeps each array in memories of its own; merging arrays into one memory is not implemented"},
    {"xcl_array_reshape", AppliesTo::Variable,
     "Loom gives every access to an on-chip array a port of its own, so wider words are not needed to "
     "reach II 1; use xcl_array_partition to split the array into banks"},
    {"memory", AppliesTo::Variable,
     "Loom puts an array indexed at run time in an on-chip RAM already"},
    // Program-scope FIFOs (ProgramScopeFifos.h): Intel's channel depth, Xilinx's pipe depth.
    {"depth", AppliesTo::Variable, nullptr, nullptr, 1, 1},
    {"xcl_reqd_pipe_depth", AppliesTo::Variable, nullptr, "depth", 1, 1},
    // A __local pointer argument's on-chip memory, in bytes (hls/ builds it that large; the launch
    // checks clSetKernelArg's size against it).
    {"local_mem_size", AppliesTo::LocalArgument, nullptr, nullptr, 1, 1, 1u << 24},
};

const VendorAttribute *findAttribute(llvm::StringRef name) {
  for (const VendorAttribute &attribute : VendorAttributes)
    if (name == attribute.name)
      return &attribute;
  return nullptr;
}

/// One plugin for all the vendor names: Clang asks it about each name its Spellings list.
struct VendorAttributeInfo : clang::ParsedAttrInfo {
  std::vector<Spelling> spellings;

  VendorAttributeInfo() {
    for (const VendorAttribute &attribute : VendorAttributes)
      spellings.push_back({clang::ParsedAttr::AS_GNU, attribute.name});
    Spellings = spellings;
    // Arguments are checked here: some vendors' take identifiers (`xcl_array_partition(complete, 1)`).
    HasCustomParsing = 1;
  }

  template <unsigned N>
  static void diagnose(clang::Sema &sema, const clang::ParsedAttr &attr, clang::DiagnosticsEngine::Level level,
                       const char (&format)[N], llvm::StringRef detail = {}, llvm::StringRef more = {}) {
    unsigned id = sema.getDiagnostics().getCustomDiagID(level, format);
    sema.Diag(attr.getLoc(), id) << attr.getAttrName()->getName() << detail << more;
  }

  bool diagAppertainsToDecl(clang::Sema &sema, const clang::ParsedAttr &attr,
                            const clang::Decl *decl) const override {
    const VendorAttribute *attribute = findAttribute(attr.getAttrName()->getName());
    if (attribute->appliesTo == AppliesTo::Kernel && !llvm::isa<clang::FunctionDecl>(decl)) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Error, "'%0' applies to kernel functions only");
      return false;
    }
    if (attribute->appliesTo == AppliesTo::Variable && !llvm::isa<clang::VarDecl, clang::FieldDecl>(decl)) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Error, "'%0' applies to variables and struct fields only");
      return false;
    }
    const auto *parameter = llvm::dyn_cast<clang::ParmVarDecl>(decl);
    if (attribute->appliesTo == AppliesTo::LocalArgument &&
        (!parameter || !parameter->getType()->isPointerType() ||
         parameter->getType()->getPointeeType().getAddressSpace() != clang::LangAS::opencl_local)) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Error, "'%0' applies to __local pointer arguments only");
      return false;
    }
    return true;
  }

  AttrHandling handleDeclAttribute(clang::Sema &sema, clang::Decl *decl,
                                   const clang::ParsedAttr &attr) const override {
    const VendorAttribute *attribute = findAttribute(attr.getAttrName()->getName());
    if (attribute->ignoredBecause) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Warning, "'%0' ignored: %1", attribute->ignoredBecause);
      return AttributeNotApplied;
    }
    if (attribute->appliesTo == AppliesTo::Variable && llvm::isa<clang::FieldDecl>(decl)) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Warning,
               "'%0' ignored on a struct field: Loom banks and copies arrays declared as variables");
      return AttributeNotApplied;
    }
    if (attr.getAttrName()->getName() == "xcl_array_partition")
      return partitionAnnotation(sema, decl, attr);
    const unsigned count = attr.getNumArgs();
    if (count < attribute->minArgs || count > attribute->maxArgs) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Error, "'%0' takes %1 integer arguments",
               attribute->minArgs == attribute->maxArgs
                   ? std::to_string(attribute->minArgs)
                   : llvm::formatv("{0} to {1}", attribute->minArgs, attribute->maxArgs).str());
      return AttributeNotApplied;
    }
    std::vector<std::string> values;
    for (unsigned i = 0; i < count; ++i) {
      llvm::Optional<llvm::APSInt> value;
      if (attr.isArgExpr(i))
        value = attr.getArgAsExpr(i)->getIntegerConstantExpr(sema.Context);
      // An identifier nothing declares: usually a macro the build options were to define.
      if (attr.isArgIdent(i)) {
        const std::string name = attr.getArgAsIdent(i)->Ident->getName().str();
        diagnose(sema, attr, clang::DiagnosticsEngine::Error,
                 "argument %1 of '%0' is '%2', which is not defined: write the number, or define it in the build "
                 "options (-D%2=N)",
                 std::to_string(i + 1), name);
        return AttributeNotApplied;
      }
      if (!value || value->isNegative()) {
        diagnose(sema, attr, clang::DiagnosticsEngine::Error,
                 "argument %1 of '%0' must be a non-negative integer constant", std::to_string(i + 1));
        return AttributeNotApplied;
      }
      if (attribute->maxPowerOfTwo && (!value->isPowerOf2() || value->getZExtValue() > attribute->maxPowerOfTwo)) {
        diagnose(sema, attr, clang::DiagnosticsEngine::Error, "'%0' takes a power of two up to %1",
                 std::to_string(attribute->maxPowerOfTwo));
        return AttributeNotApplied;
      }
      values.push_back(llvm::toString(*value, 10));
    }
    const llvm::StringRef honouredAs = attribute->honouredAs ? attribute->honouredAs : attribute->name;
    if (honouredAs == "depth")
      return fifoDepth(sema, decl, attr, values.front());
    annotate(sema, decl, attr, honouredAs, values);
    return AttributeApplied;
  }

  /// A FIFO's depth: in the name of its variable's section (a declaration leaves no annotation).
  static AttrHandling fifoDepth(clang::Sema &sema, clang::Decl *decl, const clang::ParsedAttr &attr,
                                llvm::StringRef depth) {
    const auto *section = decl->getAttr<clang::SectionAttr>();
    if (!section || section->getName() != FifoSection) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Error,
               "'%0' applies to program-scope channels and pipes only (once each)");
      return AttributeNotApplied;
    }
    if (depth == "0") {
      diagnose(sema, attr, clang::DiagnosticsEngine::Warning, "'%0(0)' asks for no FIFO: Loom builds one of %1",
               std::to_string(DefaultFifoDepth));
      return AttributeApplied;
    }
    decl->dropAttr<clang::SectionAttr>();
    decl->addAttr(clang::SectionAttr::CreateImplicit(sema.Context, (FifoSection + ".depth." + depth).str()));
    return AttributeApplied;
  }

  static void annotate(clang::Sema &sema, clang::Decl *decl, const clang::ParsedAttr &attr, llvm::StringRef name,
                       llvm::ArrayRef<std::string> values) {
    const std::string annotation =
        llvm::formatv("{0}{1}({2})", VendorAnnotationPrefix, name, llvm::join(values, ","));
    decl->addAttr(clang::AnnotateAttr::Create(sema.Context, annotation, nullptr, 0, attr.getRange()));
  }

  /// Xilinx's `xcl_array_partition(cyclic|block, factor, dimension)` and
  /// `xcl_array_partition(complete, dimension)`: the annotation `xcl_array_partition(KIND,FACTOR,DIM)`
  /// (factor 0 for complete), which BankingAttributes resolves with the array's type.
  static AttrHandling partitionAnnotation(clang::Sema &sema, clang::Decl *decl, const clang::ParsedAttr &attr) {
    const bool named = attr.getNumArgs() >= 1 && attr.isArgIdent(0);
    const llvm::StringRef kind = named ? attr.getArgAsIdent(0)->Ident->getName() : "";
    const unsigned integers = kind == "complete" ? 1 : 2;
    std::vector<std::string> values{kind.str()};
    bool valid = (kind == "complete" || kind == "cyclic" || kind == "block") && attr.getNumArgs() == 1 + integers;
    for (unsigned i = 1; valid && i <= integers; ++i) {
      llvm::Optional<llvm::APSInt> value =
          attr.isArgExpr(i) ? attr.getArgAsExpr(i)->getIntegerConstantExpr(sema.Context) : llvm::None;
      valid = value && !value->isNegative() && value->getZExtValue() <= MaxBanks;
      if (valid)
        values.push_back(llvm::toString(*value, 10));
    }
    if (!valid) {
      diagnose(sema, attr, clang::DiagnosticsEngine::Error,
               "'%0' takes (cyclic, FACTOR, DIMENSION), (block, FACTOR, DIMENSION) or (complete, DIMENSION), "
               "with integer constants up to %1",
               std::to_string(MaxBanks));
      return AttributeNotApplied;
    }
    if (kind == "complete")
      values.insert(values.begin() + 1, "0");
    annotate(sema, decl, attr, "xcl_array_partition", values);
    return AttributeApplied;
  }
};

// Registered once per process when the library loads; Clang reads the registry at its first
// unknown attribute.
const clang::ParsedAttrInfoRegistry::Add<VendorAttributeInfo>
    RegisterVendorAttributes("loom-vendor-attributes", "Intel and Xilinx FPGA OpenCL attributes");

/// The values of the kernel's honoured vendor attribute `name` ("num_compute_units(2,2)"), each with
/// the attribute that gave them.
std::vector<std::pair<const clang::AnnotateAttr *, std::vector<uint64_t>>>
vendorAnnotations(const clang::FunctionDecl &kernel, llvm::StringRef name) {
  std::vector<std::pair<const clang::AnnotateAttr *, std::vector<uint64_t>>> found;
  for (const auto *annotation : kernel.specific_attrs<clang::AnnotateAttr>()) {
    llvm::StringRef text = annotation->getAnnotation();
    if (!text.consume_front(VendorAnnotationPrefix) || !text.consume_front(name) || !text.consume_front("(") ||
        !text.consume_back(")"))
      continue;
    llvm::SmallVector<llvm::StringRef, 3> fields;
    text.split(fields, ',');
    std::vector<uint64_t> values;
    for (llvm::StringRef field : fields)
      if (uint64_t value = 0; !field.getAsInteger(10, value))
        values.push_back(value);
    found.emplace_back(annotation, std::move(values));
  }
  return found;
}

/// What one attribute cannot check alone, once a kernel's declaration is whole (attributes may come
/// in any order): num_simd_work_items(N) needs a reqd_work_group_size whose first size N divides,
/// as Intel's aoc requires, because the hardware takes N work-items of one work-group a cycle;
/// num_compute_units asks for 1 to MaxComputeUnits copies in all, and a single work-item kernel's
/// copies would only differ by get_compute_id, which Loom gives autorun kernels; an autorun kernel
/// has no arguments, since nothing sets them, and runs a single work-item or one work-group.
class KernelAttributeChecker : public clang::ASTConsumer {
public:
  explicit KernelAttributeChecker(clang::DiagnosticsEngine &diagnostics) : diagnostics_(diagnostics) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group)
      if (const auto *kernel = llvm::dyn_cast<clang::FunctionDecl>(decl);
          kernel && kernel->hasAttr<clang::OpenCLKernelAttr>())
      {
        checkSimdWorkItems(*kernel);
        checkComputeUnits(*kernel);
        checkAutorun(*kernel);
      }
    return true;
  }

private:
  void checkSimdWorkItems(const clang::FunctionDecl &kernel) {
    for (const auto &[annotation, values] : vendorAnnotations(kernel, "num_simd_work_items")) {
      if (values.size() != 1 || values[0] <= 1)
        continue;
      const uint64_t lanes = values[0];
      const auto *reqd = kernel.getAttr<clang::ReqdWorkGroupSizeAttr>();
      if (reqd && reqd->getXDim() % lanes == 0)
        continue;
      unsigned id = diagnostics_.getCustomDiagID(
          clang::DiagnosticsEngine::Error,
          "'num_simd_work_items(%0)' needs reqd_work_group_size with a first size that %0 divides%1: the "
          "hardware takes %0 consecutive work-items of one work-group each cycle");
      diagnostics_.Report(annotation->getLocation(), id)
          << unsigned(lanes) << (reqd ? llvm::formatv(" (it is {0})", reqd->getXDim()).str() : std::string());
    }
  }

  void checkComputeUnits(const clang::FunctionDecl &kernel) {
    for (const auto &[annotation, values] : vendorAnnotations(kernel, "num_compute_units")) {
      uint64_t units = 1;
      for (uint64_t count : values)
        units = llvm::SaturatingMultiply(units, count);
      if (units < 1 || units > MaxComputeUnits) {
        unsigned id = diagnostics_.getCustomDiagID(
            clang::DiagnosticsEngine::Error, "'num_compute_units' asks for %0 compute units: Loom builds 1 to %1");
        diagnostics_.Report(annotation->getLocation(), id) << (units ? std::to_string(units) : "no") << MaxComputeUnits;
        continue;
      }
      if (units > 1 && singleWorkItem(kernel) && vendorAnnotations(kernel, "autorun").empty()) {
        unsigned id = diagnostics_.getCustomDiagID(
            clang::DiagnosticsEngine::Warning,
            "'num_compute_units' ignored on a single work-item kernel that is not autorun: its copies "
            "would differ only by get_compute_id, which Loom gives autorun kernels' copies; Loom builds "
            "one compute unit");
        diagnostics_.Report(annotation->getLocation(), id);
      }
    }
  }

  void checkAutorun(const clang::FunctionDecl &kernel) {
    for (const auto &[annotation, values] : vendorAnnotations(kernel, "autorun")) {
      unsigned id = 0;
      if (kernel.getNumParams() > 0)
        id = diagnostics_.getCustomDiagID(
            clang::DiagnosticsEngine::Error,
            "'autorun' kernel '%0' takes arguments: it starts when its program is built, with nothing to set "
            "them; it talks to other kernels through channels");
      else if (!singleWorkItem(kernel) && !kernel.hasAttr<clang::ReqdWorkGroupSizeAttr>())
        id = diagnostics_.getCustomDiagID(
            clang::DiagnosticsEngine::Error,
            "'autorun' kernel '%0' needs max_global_work_dim(0) or reqd_work_group_size: it runs without a host "
            "to give it a range, as one work-item or one work-group of that size");
      if (id)
        diagnostics_.Report(annotation->getLocation(), id) << kernel.getName();
    }
  }

  static bool singleWorkItem(const clang::FunctionDecl &kernel) {
    const auto dims = vendorAnnotations(kernel, "max_global_work_dim");
    return !dims.empty() && dims[0].second == std::vector<uint64_t>{0};
  }

  clang::DiagnosticsEngine &diagnostics_;
};

/// Vendors' statement attributes, and why Loom ignores each.
constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral> StatementAttributes[] = {
    {"xcl_pipeline_loop", "Loom pipelines every loop at the lowest II its recurrences allow; write "
                          "'#pragma ii N' before the loop to require an II"},
    {"xcl_pipeline_workitems", "Loom always pipelines an NDRange kernel's work-items, many in flight"},
    {"xcl_loop_tripcount", "it only feeds Vitis's estimates; Loom's report gives each loop's II and its "
                           "simulated cycles"},
    {"xcl_dependence", "Loom orders a loop's memory accesses by its own dependence analysis; write "
                       "'#pragma ivdep' before the loop to drop its carried order"},
};

/// Clang's printer, except that Clang 15's "unknown attribute ignored" for a vendor's statement
/// attribute becomes Loom's warning with the reason: Clang drops any plugin attribute written on a
/// statement with that warning before asking the plugin (Sema's ProcessStmtAttribute).
class VendorDiagnosticPrinter : public clang::TextDiagnosticPrinter {
public:
  VendorDiagnosticPrinter(llvm::raw_ostream &os, clang::DiagnosticOptions *options)
      : TextDiagnosticPrinter(os, options), os_(os), options_(options) {}

  void BeginSourceFile(const clang::LangOptions &languageOptions, const clang::Preprocessor *preprocessor) override {
    TextDiagnosticPrinter::BeginSourceFile(languageOptions, preprocessor);
    text_ = std::make_unique<clang::TextDiagnostic>(os_, languageOptions, options_);
  }

  void EndSourceFile() override {
    text_.reset();
    TextDiagnosticPrinter::EndSourceFile();
  }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    // Channels need no pragma (ProgramScopeFifos.h), but code written for aoc enables them with one.
    if (info.getID() == clang::diag::warn_pragma_unknown_extension && info.getNumArgs() > 0 &&
        info.getArgKind(0) == clang::DiagnosticsEngine::ak_identifierinfo && info.getArgIdentifier(0)) {
      const llvm::StringRef extension = info.getArgIdentifier(0)->getName();
      if (extension == "cl_intel_channels" || extension == "cl_altera_channels")
        return;
    }
    const llvm::StringRef *because = nullptr;
    if (info.getID() == clang::diag::warn_unknown_attribute_ignored && info.getNumArgs() > 0 &&
        info.getArgKind(0) == clang::DiagnosticsEngine::ak_identifierinfo && info.getArgIdentifier(0))
      for (const auto &[name, reason] : StatementAttributes)
        if (info.getArgIdentifier(0)->getName() == name)
          because = &reason;
    if (!because || !text_ || !info.hasSourceManager()) {
      TextDiagnosticPrinter::HandleDiagnostic(level, info);
      return;
    }
    DiagnosticConsumer::HandleDiagnostic(level, info); // counts the warning
    const std::string message =
        llvm::formatv("'{0}' ignored: {1}", info.getArgIdentifier(0)->getName(), *because).str();
    text_->emitDiagnostic(clang::FullSourceLoc(info.getLocation(), info.getSourceManager()), level, message,
                          info.getRanges(), {}, &info);
    os_.flush();
  }

private:
  llvm::raw_ostream &os_;
  clang::DiagnosticOptions *options_;
  std::unique_ptr<clang::TextDiagnostic> text_;
};

/// A vendor loop pragma: the tokens after its name, up to the end of the line.
struct PragmaLine {
  clang::SourceLocation at;
  std::vector<clang::Token> arguments;
  clang::SourceLocation end; ///< The end of the pragma's line.
};

PragmaLine readPragma(clang::Preprocessor &preprocessor, const clang::Token &name) {
  PragmaLine line{name.getLocation(), {}, {}};
  clang::Token token;
  for (preprocessor.Lex(token); token.isNot(clang::tok::eod); preprocessor.Lex(token))
    line.arguments.push_back(token);
  line.end = token.getLocation();
  return line;
}

/// The tokens as the user wrote them.
std::string spellingOf(clang::Preprocessor &preprocessor, const std::vector<clang::Token> &tokens) {
  if (tokens.empty())
    return "";
  auto range = clang::CharSourceRange::getCharRange(tokens.front().getLocation(), tokens.back().getEndLoc());
  return clang::Lexer::getSourceText(range, preprocessor.getSourceManager(), preprocessor.getLangOpts()).str();
}

template <unsigned N>
void diagnose(clang::Preprocessor &preprocessor, clang::SourceLocation at, clang::DiagnosticsEngine::Level level,
              const char (&format)[N], llvm::StringRef first, llvm::StringRef second = {}) {
  unsigned id = preprocessor.getDiagnostics().getCustomDiagID(level, format);
  preprocessor.Diag(at, id) << first << second;
}

/// Enters `_Pragma("clang loop HINTS")` after the pragma, so Clang attaches the hints to the loop
/// that follows (and says so when none does).
void enterClangLoopHints(clang::Preprocessor &preprocessor, clang::SourceLocation at, const std::string &hints) {
  auto tokens = std::make_unique<clang::Token[]>(4);
  for (unsigned i = 0; i < 4; ++i) {
    tokens[i].startToken();
    tokens[i].setLocation(at);
  }
  tokens[0].setKind(clang::tok::identifier);
  tokens[0].setIdentifierInfo(preprocessor.getIdentifierInfo("_Pragma"));
  tokens[1].setKind(clang::tok::l_paren);
  tokens[2].setKind(clang::tok::string_literal);
  preprocessor.CreateString("\"clang loop " + hints + "\"", tokens[2], at, at);
  tokens[3].setKind(clang::tok::r_paren);
  preprocessor.EnterTokenStream(std::move(tokens), 4, /*DisableMacroExpansion=*/false, /*IsReinject=*/false);
}

/// `#pragma ii N`: the loop's initiation interval, checked by the hardware flow against what the
/// loop's recurrences allow.
class InitiationIntervalPragma : public clang::PragmaHandler {
public:
  InitiationIntervalPragma() : PragmaHandler("ii") {}
  void HandlePragma(clang::Preprocessor &preprocessor, clang::PragmaIntroducer, clang::Token &name) override {
    PragmaLine line = readPragma(preprocessor, name);
    uint64_t ii = 0;
    if (line.arguments.size() != 1 || line.arguments[0].isNot(clang::tok::numeric_constant) ||
        llvm::StringRef(preprocessor.getSpelling(line.arguments[0])).getAsInteger(0, ii) || ii == 0 ||
        ii > 65535) {
      diagnose(preprocessor, line.at, clang::DiagnosticsEngine::Error,
               "'#pragma ii' takes one positive integer, the loop's initiation interval, not '%0'",
               spellingOf(preprocessor, line.arguments));
      return;
    }
    enterClangLoopHints(preprocessor, line.at, llvm::formatv("pipeline_initiation_interval({0})", ii));
  }
};

/// `#pragma ivdep`: the loop's iterations do not depend on each other through memory. Clang's
/// `vectorize(assume_safety)` says exactly that (llvm.loop.parallel_accesses); in hardware the
/// vectorizer is kept off the loop (width and interleave 1), on the CPU it may vectorize.
/// `#pragma ivdep safelen(N)`: iterations fewer than N apart do not depend on each other; the
/// hardware keeps the loop's memory order N iterations apart (loom.loop.ivdep_safelen, through
/// LoopPragmaBinding.h). `#pragma ivdep array(x)` [`safelen(N)`]: the same, for the loop's accesses
/// to x only (loom.loop.ivdep_array, naming x); the other accesses keep their order. The CPU device
/// orders every iteration's accesses as written under the last two.
class IvdepPragma : public clang::PragmaHandler {
public:
  IvdepPragma(Target target, LoopPragmaBindings &bindings)
      : PragmaHandler("ivdep"), target_(target), bindings_(bindings) {}
  void HandlePragma(clang::Preprocessor &preprocessor, clang::PragmaIntroducer, clang::Token &name) override {
    PragmaLine line = readPragma(preprocessor, name);
    if (line.arguments.empty()) {
      enterClangLoopHints(preprocessor, line.at,
                          target_ == Target::Hardware
                              ? "vectorize(assume_safety) vectorize_width(1) interleave_count(1)"
                              : "vectorize(assume_safety)");
      return;
    }
    // Clauses `safelen(N)` and `array(x)`, each at most once, in either order.
    const auto &args = line.arguments;
    uint64_t safelen = 0;
    std::string array;
    bool valid = args.size() % 4 == 0 && args.size() <= 8;
    for (size_t at = 0; valid && at < args.size(); at += 4) {
      const std::string clause = preprocessor.getSpelling(args[at]);
      valid = args[at].is(clang::tok::identifier) && args[at + 1].is(clang::tok::l_paren) &&
              args[at + 3].is(clang::tok::r_paren);
      if (valid && clause == "safelen" && !safelen)
        valid = args[at + 2].is(clang::tok::numeric_constant) &&
                !llvm::StringRef(preprocessor.getSpelling(args[at + 2])).getAsInteger(0, safelen) && safelen;
      else if (valid && clause == "array" && array.empty() && args[at + 2].is(clang::tok::identifier))
        array = preprocessor.getSpelling(args[at + 2]);
      else
        valid = false;
    }
    if (!valid) {
      diagnose(preprocessor, line.at, clang::DiagnosticsEngine::Warning,
               "'#pragma ivdep %0' ignored: Loom takes '#pragma ivdep', optionally with 'safelen(N)' (an "
               "integer above 0) and 'array(x)' (a variable the loop uses), so the loop keeps its memory order",
               spellingOf(preprocessor, line.arguments));
      return;
    }
    const unsigned distance = unsigned(std::min<uint64_t>(safelen, ~0u));
    if (array.empty())
      bindings_.record(line.at, line.end, "ivdep_safelen", distance);
    else
      bindings_.record(line.at, line.end, "ivdep_array", distance, array);
  }

private:
  Target target_;
  LoopPragmaBindings &bindings_;
};

/// `#pragma max_interleaving N`: at most N invocations of the loop that follows (N outer
/// iterations, or N work-items) are inside it at once; 0 is the default, as many as Loom's loops
/// admit. No Clang loop hint carries it: LoopPragmaBindings takes it to the loop's metadata.
class MaxInterleavingPragma : public clang::PragmaHandler {
public:
  explicit MaxInterleavingPragma(LoopPragmaBindings &bindings)
      : PragmaHandler("max_interleaving"), bindings_(bindings) {}
  void HandlePragma(clang::Preprocessor &preprocessor, clang::PragmaIntroducer, clang::Token &name) override {
    PragmaLine line = readPragma(preprocessor, name);
    uint64_t limit = 0;
    if (line.arguments.size() != 1 || line.arguments[0].isNot(clang::tok::numeric_constant) ||
        llvm::StringRef(preprocessor.getSpelling(line.arguments[0])).getAsInteger(0, limit) ||
        limit > MaxLoopInterleaving) {
      diagnose(preprocessor, line.at, clang::DiagnosticsEngine::Error,
               "'#pragma max_interleaving' takes an integer from 0 (the default) to %1, the loop's "
               "invocations in flight at once, not '%0'",
               spellingOf(preprocessor, line.arguments), std::to_string(MaxLoopInterleaving));
      return;
    }
    bindings_.record(line.at, line.end, "max_interleaving", unsigned(limit));
  }

private:
  LoopPragmaBindings &bindings_;
};

/// A loop pragma Loom accepts but does not act on: a warning with the reason.
class IgnoredLoopPragma : public clang::PragmaHandler {
public:
  IgnoredLoopPragma(llvm::StringRef name, const char *because) : PragmaHandler(name), because_(because) {}
  void HandlePragma(clang::Preprocessor &preprocessor, clang::PragmaIntroducer, clang::Token &name) override {
    PragmaLine line = readPragma(preprocessor, name);
    diagnose(preprocessor, line.at, clang::DiagnosticsEngine::Warning, "'#pragma %0' ignored: %1", getName(),
             because_);
  }

private:
  const char *because_;
};

} // namespace

namespace {

/// The text of annotation string `text` after VendorAnnotationPrefix; empty for another annotation.
llvm::StringRef vendorAnnotation(const llvm::Value *text) {
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(text->stripPointerCasts());
  const auto *data = global && global->hasInitializer()
                         ? llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer())
                         : nullptr;
  llvm::StringRef annotation = data && data->isCString() ? data->getAsCString() : "";
  return annotation.consume_front(VendorAnnotationPrefix) ? annotation : "";
}

/// Appends `annotation` to the VendorAttributesMetadata of `holder` (a function, a global or an alloca).
template <typename Holder> void addVendorAttribute(Holder &holder, llvm::StringRef annotation) {
  llvm::LLVMContext &context = holder.getContext();
  llvm::SmallVector<llvm::Metadata *, 4> attributes;
  if (const llvm::MDNode *existing = holder.getMetadata(VendorAttributesMetadata))
    attributes.append(existing->op_begin(), existing->op_end());
  attributes.push_back(llvm::MDString::get(context, annotation));
  holder.setMetadata(VendorAttributesMetadata, llvm::MDNode::get(context, attributes));
}

/// The strings only moved annotations used (the file name string too, once nothing else does).
void removeUnusedAnnotationStrings(llvm::Module &module) {
  for (llvm::GlobalVariable &global : llvm::make_early_inc_range(module.globals()))
    if (global.getSection() == "llvm.metadata" && global.isDiscardableIfUnused()) {
      global.removeDeadConstantUsers();
      if (global.use_empty())
        global.eraseFromParent();
    }
}

/// An argument's annotations are calls on the alloca Clang copies it into: they become string
/// attributes of the argument ("loom.local_mem_size" = "1024"), and the copy goes. False when
/// `alloca` holds no argument.
bool moveArgumentAnnotation(llvm::AllocaInst &alloca, llvm::StringRef annotation) {
  llvm::Argument *argument = nullptr;
  for (llvm::User *user : alloca.users())
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user); store && store->getPointerOperand() == &alloca)
      argument = llvm::dyn_cast<llvm::Argument>(store->getValueOperand());
  if (!argument)
    return false;
  auto [name, rest] = annotation.split('(');
  argument->getParent()->addParamAttr(
      argument->getArgNo(), llvm::Attribute::get(alloca.getContext(), ("loom." + name).str(), rest.drop_back()));
  // The copy only ever holds the argument (the annotation kept -O2 from forwarding it past calls
  // such as a barrier): its loads are the argument.
  const bool onlyCopies = llvm::all_of(alloca.users(), [&](llvm::User *user) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user))
      return store->getValueOperand() == argument;
    auto *load = llvm::dyn_cast<llvm::LoadInst>(user);
    return load && load->getType() == argument->getType();
  });
  if (onlyCopies) {
    for (llvm::User *user : llvm::make_early_inc_range(alloca.users())) {
      auto *instruction = llvm::cast<llvm::Instruction>(user);
      if (llvm::isa<llvm::LoadInst>(instruction))
        instruction->replaceAllUsesWith(argument);
      instruction->eraseFromParent();
    }
    alloca.eraseFromParent();
  }
  return true;
}

/// A private array's annotations are llvm.var.annotation calls on its alloca.
void moveVariableAnnotations(llvm::Module &module) {
  llvm::Function *intrinsic = module.getFunction("llvm.var.annotation");
  if (!intrinsic)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(intrinsic->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    auto *alloca = call ? llvm::dyn_cast<llvm::AllocaInst>(call->getArgOperand(0)->stripPointerCasts()) : nullptr;
    const llvm::StringRef annotation = call ? vendorAnnotation(call->getArgOperand(1)) : "";
    if (!alloca || annotation.empty())
      continue;
    llvm::Value *pointer = call->getArgOperand(0);
    call->eraseFromParent();
    if (auto *cast = llvm::dyn_cast<llvm::Instruction>(pointer); cast && cast->use_empty())
      cast->eraseFromParent();
    if (!moveArgumentAnnotation(*alloca, annotation))
      addVendorAttribute(*alloca, annotation);
  }
}

/// Functions' and globals' annotations are entries of llvm.global.annotations.
void moveGlobalAnnotations(llvm::Module &module) {
  llvm::GlobalVariable *annotations = module.getNamedGlobal("llvm.global.annotations");
  const auto *entries = annotations && annotations->hasInitializer()
                            ? llvm::dyn_cast<llvm::ConstantArray>(annotations->getInitializer())
                            : nullptr;
  if (!entries)
    return;
  std::vector<llvm::Constant *> others;
  for (const llvm::Use &use : entries->operands()) {
    auto *entry = llvm::cast<llvm::Constant>(use.get());
    auto *holder = entry->getNumOperands() >= 2
                       ? llvm::dyn_cast<llvm::GlobalObject>(entry->getOperand(0)->stripPointerCasts())
                       : nullptr;
    const llvm::StringRef annotation = holder ? vendorAnnotation(entry->getOperand(1)) : "";
    if (annotation.empty())
      others.push_back(entry);
    else
      addVendorAttribute(*holder, annotation);
  }
  if (others.size() == entries->getNumOperands())
    return;
  llvm::ArrayType *type = llvm::ArrayType::get(entries->getType()->getElementType(), others.size());
  llvm::Constant *remaining = llvm::ConstantArray::get(type, others);
  annotations->eraseFromParent();
  if (!others.empty()) {
    auto *kept = new llvm::GlobalVariable(module, type, /*isConstant=*/false, llvm::GlobalValue::AppendingLinkage,
                                          remaining, "llvm.global.annotations");
    kept->setSection("llvm.metadata");
  }
}

} // namespace

void moveVendorAnnotationsToMetadata(llvm::Module &module) {
  moveVariableAnnotations(module);
  moveGlobalAnnotations(module);
  removeUnusedAnnotationStrings(module);
}

std::unique_ptr<clang::ASTConsumer> createKernelAttributeChecker(clang::DiagnosticsEngine &diagnostics) {
  return std::make_unique<KernelAttributeChecker>(diagnostics);
}

void addVendorPragmas(clang::Preprocessor &preprocessor, Target target, LoopPragmaBindings &bindings) {
  preprocessor.AddPragmaHandler(new InitiationIntervalPragma);
  preprocessor.AddPragmaHandler(new IvdepPragma(target, bindings));
  preprocessor.AddPragmaHandler(new MaxInterleavingPragma(bindings));
  const std::pair<const char *, const char *> ignored[] = {
      {"loop_coalesce", "nested loops are not flattened: an outer iteration enters the inner loop while "
                        "earlier ones are still inside it wherever the inner trip count and the carried "
                        "values allow ('loomc --report' says so for each loop, or why not)"},
      {"max_concurrency", "a Loom loop pipelines its iterations at its II; '#pragma max_interleaving N' "
                          "bounds the invocations (outer iterations or work-items) inside it at once"},
      {"speculated_iterations", "Loom's loop control decides each iteration's exit before it starts "
                                "the next one's memory accesses, so it speculates no iterations"},
      {"disable_loop_pipelining", "every Loom loop is pipelined; its II is what its recurrences allow"},
  };
  for (const auto &[name, because] : ignored)
    preprocessor.AddPragmaHandler(new IgnoredLoopPragma(name, because));
}

clang::DiagnosticConsumer *createDiagnosticPrinter(llvm::raw_ostream &os, clang::DiagnosticOptions *options) {
  return new VendorDiagnosticPrinter(os, options);
}

} // namespace loom::frontend
