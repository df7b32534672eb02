//===- BankingAttributes.cpp - An on-chip array's banks from its vendor attributes ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Intel's `numbanks(N)`, `bankwidth(W)` and `bank_bits(b, ...)` and Xilinx's `xcl_array_partition`
// all say which bits of an element's byte address pick the bank (the memory) that holds it. Once a
// variable's declaration is whole (its attributes may come in any order), this consumer resolves
// them against the array's type into one annotation, `loom:bank_bits(b0,b1,...)` (ascending byte
// address bits; none for one bank), which hls/ reads from the variable's metadata:
// - numbanks(N) with bankwidth(W) (default: the size of the array's innermost element): the log2(N)
//   bits above the W bytes of a bank's word; bank_bits gives them directly (numbanks, if also
//   given, must count 2^bits banks, and each bit must lie above bankwidth's bytes).
// - xcl_array_partition(cyclic, F, d): the low log2(F) bits of dimension d's index (element i goes to
//   bank i mod F); (block, F, d): its high log2(F) bits (consecutive runs); (complete, d): all of
//   them, and (complete, 0) all of the array's (any shape: each element a bank). The dimensions
//   inside d, and d itself unless it is the outermost, must have a power-of-two size, so that d's
//   index is a run of the element index's bits; otherwise the partition is ignored with a warning
//   that says why (Vitis takes it as a hint too: results do not depend on it).
// - register: every element a bank of its own, a register (at most MaxBanks elements).
// Every bit must lie inside the array; more than MaxBanks banks are ignored with a warning.
//===----------------------------------------------------------------------===//
#include "VendorExtensions.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <set>

namespace loom::frontend {
namespace {

constexpr llvm::StringLiteral BankingNames[] = {"numbanks", "bankwidth", "bank_bits", "xcl_array_partition",
                                                 "register"};

/// One banking annotation the attribute plugin left: its name and arguments, as written.
struct BankingAttribute {
  clang::AnnotateAttr *annotation;
  llvm::StringRef name;
  llvm::SmallVector<llvm::StringRef, 4> arguments;

  uint64_t integer(unsigned i) const {
    uint64_t value = 0;
    arguments[i].getAsInteger(10, value);
    return value;
  }
};

class BankingResolver : public clang::ASTConsumer, public clang::RecursiveASTVisitor<BankingResolver> {
public:
  explicit BankingResolver(clang::DiagnosticsEngine &diagnostics) : diagnostics_(diagnostics) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group)
      TraverseDecl(decl);
    return true;
  }

  bool VisitVarDecl(clang::VarDecl *variable) {
    std::vector<BankingAttribute> attributes = bankingAttributes(*variable);
    if (attributes.empty())
      return true;
    // The raw annotations give way to the resolved one (or to none, after an error).
    llvm::erase_if(variable->getAttrs(), [&](const clang::Attr *attr) {
      return llvm::any_of(attributes, [&](const BankingAttribute &a) { return a.annotation == attr; });
    });
    llvm::Optional<std::set<unsigned>> bits = bankBits(*variable, attributes);
    if (!bits || bits->empty())
      return true;
    std::vector<std::string> values;
    for (unsigned bit : *bits)
      values.push_back(std::to_string(bit));
    clang::AnnotateAttr *first = attributes.front().annotation;
    variable->addAttr(clang::AnnotateAttr::Create(
        variable->getASTContext(),
        llvm::formatv("{0}bank_bits({1})", VendorAnnotationPrefix, llvm::join(values, ",")).str(), nullptr, 0,
        first->getRange()));
    return true;
  }

private:
  static std::vector<BankingAttribute> bankingAttributes(clang::VarDecl &variable) {
    std::vector<BankingAttribute> found;
    for (clang::AnnotateAttr *annotation : variable.specific_attrs<clang::AnnotateAttr>()) {
      llvm::StringRef text = annotation->getAnnotation();
      BankingAttribute attribute{annotation, {}, {}};
      if (!text.consume_front(VendorAnnotationPrefix))
        continue;
      std::tie(attribute.name, text) = text.split('(');
      if (!llvm::is_contained(BankingNames, attribute.name))
        continue;
      text.consume_back(")");
      text.split(attribute.arguments, ',');
      found.push_back(std::move(attribute));
    }
    return found;
  }

  template <unsigned N> clang::DiagnosticBuilder error(const BankingAttribute &at, const char (&format)[N]) {
    unsigned id = diagnostics_.getCustomDiagID(clang::DiagnosticsEngine::Error, format);
    return diagnostics_.Report(at.annotation->getLocation(), id);
  }
  template <unsigned N> clang::DiagnosticBuilder warning(const BankingAttribute &at, const char (&format)[N]) {
    unsigned id = diagnostics_.getCustomDiagID(clang::DiagnosticsEngine::Warning, format);
    return diagnostics_.Report(at.annotation->getLocation(), id);
  }

  static const BankingAttribute *find(const std::vector<BankingAttribute> &attributes, llvm::StringRef name) {
    auto found = llvm::find_if(attributes, [&](const BankingAttribute &a) { return a.name == name; });
    return found == attributes.end() ? nullptr : &*found;
  }

  /// The byte-address bits that pick the bank, or None after an error.
  llvm::Optional<std::set<unsigned>> bankBits(const clang::VarDecl &variable,
                                              const std::vector<BankingAttribute> &attributes) {
    const clang::ASTContext &context = variable.getASTContext();
    std::vector<uint64_t> dimensions;
    clang::QualType element = variable.getType();
    while (const clang::ConstantArrayType *array = context.getAsConstantArrayType(element)) {
      dimensions.push_back(array->getSize().getZExtValue());
      element = array->getElementType();
    }
    const BankingAttribute &first = attributes.front();
    if (dimensions.empty()) {
      error(first, "'%0' applies to arrays: '%1' is not an array") << first.name << variable.getName();
      return llvm::None;
    }
    const uint64_t elementBytes = context.getTypeSizeInChars(element).getQuantity();
    uint64_t elements = 1;
    for (uint64_t size : dimensions)
      elements *= size;
    const bool intel = find(attributes, "numbanks") || find(attributes, "bankwidth") || find(attributes, "bank_bits");
    const BankingAttribute *partition = find(attributes, "xcl_array_partition");
    const BankingAttribute *registers = find(attributes, "register");
    if ((intel || partition) && registers) {
      error(*registers, "'%0' cannot be combined with banks on '%1': it makes every element a register")
          << registers->name << variable.getName();
      return llvm::None;
    }
    if (intel && partition) {
      error(*partition, "'%0' cannot be combined with Intel's numbanks, bankwidth or bank_bits on '%1'")
          << partition->name << variable.getName();
      return llvm::None;
    }
    std::set<unsigned> bits;
    if (registers) {
      // Every element its own one-word bank: a register, read through a multiplexer.
      if (!llvm::isPowerOf2_64(elementBytes) || elements > MaxBanks) {
        error(*registers, "'%0' keeps at most %1 elements of a power-of-two size in registers: '%2' has %3 of %4 "
                          "bytes")
            << registers->name << MaxBanks << variable.getName() << unsigned(elements) << unsigned(elementBytes);
        return llvm::None;
      }
      for (unsigned i = 0; i < llvm::Log2_64_Ceil(elements); ++i)
        bits.insert(i + llvm::Log2_64(elementBytes));
    } else if (intel) {
      if (!intelBankBits(attributes, elementBytes, bits))
        return llvm::None;
    } else {
      for (const BankingAttribute &attribute : attributes)
        if (!partitionBankBits(attribute, dimensions, elementBytes, bits))
          return llvm::None;
    }
    const unsigned arrayBits = llvm::Log2_64_Ceil(std::max<uint64_t>(1, elements * elementBytes));
    if (!bits.empty() && *bits.rbegin() >= arrayBits) {
      error(first, "'%0' puts the banks of '%1' on address bit %2, beyond its %3 bytes")
          << first.name << variable.getName() << *bits.rbegin() << unsigned(elements * elementBytes);
      return llvm::None;
    }
    if (bits.size() > llvm::Log2_32(MaxBanks)) {
      // A request for speed, not for results (Vitis takes partitions as hints): one memory serves.
      warning(first, "'%0' ignored: it splits '%1' into %2 banks, and Loom builds at most %3; the array stays "
                     "one memory")
          << first.name << variable.getName() << (uint64_t(1) << bits.size()) << MaxBanks;
      return std::set<unsigned>();
    }
    return bits;
  }

  bool intelBankBits(const std::vector<BankingAttribute> &attributes, uint64_t elementBytes, std::set<unsigned> &bits) {
    const BankingAttribute *numbanks = find(attributes, "numbanks");
    const BankingAttribute *bankwidth = find(attributes, "bankwidth");
    const BankingAttribute *explicitBits = find(attributes, "bank_bits");
    if (!bankwidth && !llvm::isPowerOf2_64(elementBytes)) {
      error(explicitBits ? *explicitBits : *numbanks,
            "'%0' needs bankwidth on an array of %1-byte elements (not a power of two)")
          << (explicitBits ? explicitBits : numbanks)->name << unsigned(elementBytes);
      return false;
    }
    const unsigned wordBits = llvm::Log2_64(bankwidth ? bankwidth->integer(0) : elementBytes);
    if (!explicitBits) {
      const unsigned count = numbanks ? llvm::Log2_64(numbanks->integer(0)) : 0;
      for (unsigned i = 0; i < count; ++i)
        bits.insert(wordBits + i);
      return true;
    }
    for (unsigned i = 0; i < explicitBits->arguments.size(); ++i) {
      const uint64_t bit = explicitBits->integer(i);
      if (bit < wordBits || bit >= 64 || !bits.insert(unsigned(bit)).second) {
        error(*explicitBits, "'%0' takes distinct address bits above the bank's %1-byte words, not %2")
            << explicitBits->name << (1u << wordBits) << unsigned(bit);
        return false;
      }
    }
    if (numbanks && numbanks->integer(0) != (uint64_t(1) << bits.size())) {
      error(*numbanks, "'%0(%1)' disagrees with bank_bits, whose %2 bits select %3 banks")
          << numbanks->name << unsigned(numbanks->integer(0)) << unsigned(bits.size()) << (1u << bits.size());
      return false;
    }
    return true;
  }

  bool partitionBankBits(const BankingAttribute &partition, const std::vector<uint64_t> &dimensions,
                         uint64_t elementBytes, std::set<unsigned> &bits) {
    const llvm::StringRef kind = partition.arguments[0];
    const uint64_t factor = partition.integer(1), dimension = partition.integer(2);
    if (dimension > dimensions.size() || (dimension == 0 && kind != "complete")) {
      error(partition, "'%0' names dimension %1 of an array of %2 dimensions (counted from 1)")
          << partition.name << unsigned(dimension) << unsigned(dimensions.size());
      return false;
    }
    // Dimension d's index occupies element-index bits [low, low + width) when every dimension
    // inside it has a power-of-two size, and so has d unless it is the outermost (nothing above it
    // mixes into its bits, which hold its size rounded up). (complete, 0) takes the whole index,
    // one bank per element, whatever the shape.
    unsigned low = 0, width = 0;
    if (dimension == 0) {
      uint64_t elements = 1;
      for (uint64_t size : dimensions)
        elements *= size;
      width = llvm::Log2_64_Ceil(elements);
    }
    for (size_t d = dimensions.size(); dimension != 0 && d-- > dimension - 1;) {
      const bool roundedUp = d == 0;
      if (!llvm::isPowerOf2_64(dimensions[d]) && !roundedUp) {
        warning(partition, "'%0' on dimension %1 ignored: dimension %2 has %3 elements, not a power of two, so "
                           "no run of address bits picks its banks; the array stays one memory")
            << partition.name << unsigned(dimension) << unsigned(d + 1) << unsigned(dimensions[d]);
        return true;
      }
      low += width;
      width = roundedUp ? llvm::Log2_64_Ceil(dimensions[d]) : llvm::Log2_64(dimensions[d]);
    }
    if (!llvm::isPowerOf2_64(elementBytes)) {
      error(partition, "'%0' needs elements of a power-of-two size, not %1 bytes")
          << partition.name << unsigned(elementBytes);
      return false;
    }
    unsigned from = low, count = width;
    if (kind != "complete") {
      if (!llvm::isPowerOf2_64(factor) || llvm::Log2_64(factor) > width) {
        error(partition, "'%0' needs a power-of-two factor up to the dimension's size %1, not %2")
            << partition.name << (1u << width) << unsigned(factor);
        return false;
      }
      count = llvm::Log2_64(factor);
      from = kind == "cyclic" ? low : low + width - count;
    }
    for (unsigned i = 0; i < count; ++i)
      bits.insert(from + i + llvm::Log2_64(elementBytes));
    return true;
  }

  clang::DiagnosticsEngine &diagnostics_;
};

} // namespace

std::unique_ptr<clang::ASTConsumer> createBankingResolver(clang::DiagnosticsEngine &diagnostics) {
  return std::make_unique<BankingResolver>(diagnostics);
}

} // namespace loom::frontend
