//===- Printf.cpp - printf calls to records, records to text -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Both halves of the record format (Printf.h): the lowering that writes records, and the host
// formatting that reads them, so the two cannot disagree.
//===----------------------------------------------------------------------===//
#include "loom/lowering/Printf.h"

#include "loom/frontend/SourceLocation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdio>
#include <cstring>

namespace loom::lowering {

using namespace llvm;
using Kind = PrintfArgument::Kind;

namespace {

/// One conversion of a format: `%[flags][width][.precision][vN][length]conversion`.
struct Conversion {
  std::string flags;  ///< Flags, width and precision as written.
  unsigned lanes = 1; ///< N of OpenCL C's vector specifier vN; 1 without one.
  std::string length; ///< "", "hh", "h", "hl", "l".
  char conversion = 0;
};

/// A format split into literal text and conversions: pieces[i] precedes conversions[i], and the
/// last piece follows the last conversion. An incomplete conversion stays text.
struct ParsedFormat {
  std::vector<std::string> pieces{""};
  std::vector<Conversion> conversions;
};

ParsedFormat parseFormat(StringRef format) {
  ParsedFormat parsed;
  size_t i = 0;
  while (i < format.size()) {
    if (format[i] != '%') {
      parsed.pieces.back() += format[i++];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      parsed.pieces.back() += '%';
      i += 2;
      continue;
    }
    Conversion conversion;
    size_t j = i + 1;
    while (j < format.size() && StringRef("-+ #0123456789.").contains(format[j]))
      conversion.flags += format[j++];
    if (j < format.size() && format[j] == 'v') {
      size_t digits = j + 1;
      while (digits < format.size() && isDigit(format[digits]))
        ++digits;
      format.slice(j + 1, digits).getAsInteger(10, conversion.lanes);
      j = digits;
    }
    for (StringRef length : {"hh", "hl", "h", "ll", "l"})
      if (format.substr(j).startswith(length)) {
        conversion.length = length.str();
        j += length.size();
        break;
      }
    if (j < format.size() && StringRef("diouxXfFeEgGaAcsp").contains(format[j]) && conversion.lanes >= 1) {
      conversion.conversion = format[j];
      parsed.conversions.push_back(conversion);
      parsed.pieces.emplace_back();
      i = j + 1;
    } else {
      parsed.pieces.back() += format.slice(i, j).str();
      i = j;
    }
  }
  return parsed;
}

bool isSignedConversion(char conversion) { return conversion == 'd' || conversion == 'i' || conversion == 'c'; }

Error printfError(const Instruction &at, const Twine &message) {
  return createStringError(inconvertibleErrorCode(), frontend::diagnosticPrefix(at) + "error: " + message);
}

/// The 32-bit words a lane `value` takes (`extend` says how narrow integers widen).
void appendLaneWords(IRBuilder<> &b, Value *value, bool signedExtend, SmallVectorImpl<Value *> &words) {
  Type *type = value->getType();
  if (type->isFloatTy()) {
    words.push_back(b.CreateBitCast(value, b.getInt32Ty()));
    return;
  }
  if (type->isPointerTy())
    value = b.CreatePtrToInt(value, b.getInt64Ty());
  if (value->getType()->getIntegerBitWidth() > 32) {
    Value *wide = b.CreateZExtOrTrunc(value, b.getInt64Ty());
    words.push_back(b.CreateTrunc(wide, b.getInt32Ty()));
    words.push_back(b.CreateTrunc(b.CreateLShr(wide, 32), b.getInt32Ty()));
    return;
  }
  words.push_back(signedExtend ? b.CreateSExt(value, b.getInt32Ty()) : b.CreateZExt(value, b.getInt32Ty()));
}

/// printf's float arguments arrive promoted to double (which neither device computes in): the
/// float before the promotion, or the constant rounded to float.
Value *unpromotedFloat(IRBuilder<> &b, Value *value) {
  if (auto *extended = dyn_cast<FPExtInst>(value))
    if (extended->getSrcTy()->isFloatTy())
      return extended->getOperand(0);
  if (auto *constant = dyn_cast<ConstantFP>(value)) {
    APFloat single = constant->getValueAPF();
    bool lost = false;
    single.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    return ConstantFP::get(b.getFloatTy(), single);
  }
  return b.CreateFPTrunc(value, b.getFloatTy());
}

/// Operand `operand` of `call` as the vector `conversion` (a %vN one) prints. The host ABI passes
/// small vectors in an integer or a double of their size (char4 as i32, float2 as double) and large
/// ones by address (long16 byval): the vector comes back by a bitcast or a load.
Value *printedVector(IRBuilder<> &b, const CallInst &call, unsigned operand, const Conversion &conversion) {
  Value *value = call.getArgOperand(operand);
  if (Type *passed = call.getParamByValType(operand))
    return b.CreateLoad(passed, value);
  const StringRef length = conversion.length;
  Type *element = StringRef("fFeEgGaA").contains(conversion.conversion) ? b.getFloatTy()
                  : length == "hh"                                      ? b.getInt8Ty()
                  : length == "h"                                       ? b.getInt16Ty()
                  : length == "l"                                       ? b.getInt64Ty()
                                                                        : b.getInt32Ty();
  // A 3-lane vector takes a 4-lane one's storage.
  auto *vector = FixedVectorType::get(element, conversion.lanes == 3 ? 4 : conversion.lanes);
  const DataLayout &layout = call.getModule()->getDataLayout();
  Type *type = value->getType();
  if (!type->isVectorTy() && (type->isIntegerTy() || type->isDoubleTy()) &&
      layout.getTypeSizeInBits(type) == layout.getTypeSizeInBits(vector))
    return b.CreateBitCast(value, vector);
  return value;
}

/// Describes operand `operand` of `call`, printed by `conversion`, and appends its words.
Expected<PrintfArgument> describeArgument(IRBuilder<> &b, const CallInst &call, unsigned operand,
                                          const Conversion &conversion, SmallVectorImpl<Value *> &words) {
  PrintfArgument argument;
  const bool signedExtend = isSignedConversion(conversion.conversion);
  Value *value = conversion.lanes > 1 ? printedVector(b, call, operand, conversion) : call.getArgOperand(operand);
  Type *type = value->getType();
  if (type->isPointerTy()) {
    if (conversion.conversion == 's') {
      StringRef text;
      if (!getConstantStringInfo(value, text))
        return printfError(call, "the argument of printf's %s must be a string literal in OpenCL C");
      argument.kind = Kind::String;
      argument.laneWords = 0;
      argument.text = text.str();
      return argument;
    }
    argument.kind = Kind::Pointer;
    argument.laneWords = 2;
    appendLaneWords(b, value, false, words);
    return argument;
  }
  if (type->isDoubleTy()) {
    argument.kind = Kind::Float;
    appendLaneWords(b, unpromotedFloat(b, value), false, words);
    return argument;
  }
  auto *vector = dyn_cast<FixedVectorType>(type);
  Type *element = vector ? vector->getElementType() : type;
  if (!element->isFloatTy() && !element->isIntegerTy())
    return printfError(call, "printf cannot print an argument of this type");
  argument.kind = element->isFloatTy() ? Kind::Float : Kind::Integer;
  argument.lanes = vector ? vector->getNumElements() : 1;
  argument.laneWords = element->isIntegerTy() && element->getIntegerBitWidth() > 32 ? 2 : 1;
  for (unsigned lane = 0; lane < argument.lanes; ++lane)
    appendLaneWords(b, vector ? b.CreateExtractElement(value, lane) : value, signedExtend, words);
  return argument;
}

/// Replaces `call` by the code that appends its record, the call being table entry `index`.
Expected<PrintfCall> lowerCall(CallInst &call, unsigned index, unsigned globalAddressSpace) {
  PrintfCall described;
  StringRef format;
  if (!getConstantStringInfo(call.getArgOperand(0), format))
    return printfError(call, "printf's format must be a string literal in OpenCL C");
  described.format = format.str();
  const ParsedFormat parsed = parseFormat(format);

  IRBuilder<> b(&call);
  SmallVector<Value *, 16> words{b.getInt32(index + 1)};
  // Arguments past the format's conversions are never printed, so their records keep nothing of
  // them (the CTS's printf("", "foo"): a string's address would be a pointer the board cannot take).
  const unsigned printed = std::min<unsigned>(call.arg_size(), parsed.conversions.size() + 1);
  for (unsigned i = 1; i < printed; ++i) {
    auto argument = describeArgument(b, call, i, parsed.conversions[i - 1], words);
    if (!argument)
      return argument.takeError();
    described.arguments.push_back(std::move(*argument));
  }

  Module &module = *call.getModule();
  Type *bufferType = b.getInt8Ty()->getPointerTo(globalAddressSpace);
  FunctionCallee bufferFunction = module.getOrInsertFunction(PrintfBufferFunction, bufferType);
  if (auto *declared = dyn_cast<Function>(bufferFunction.getCallee())) {
    declared->setDoesNotThrow();
    declared->setDoesNotAccessMemory();
    declared->setWillReturn();
  }
  Value *buffer = b.CreateCall(bufferFunction, {}, "printf.buffer");
  const uint32_t bytes = described.recordBytes();
  Value *at = b.CreateAtomicRMW(AtomicRMWInst::Add, b.CreateBitCast(buffer, b.getInt32Ty()->getPointerTo(globalAddressSpace)),
                                b.getInt32(bytes), MaybeAlign(4), AtomicOrdering::Monotonic);
  Value *fits = b.CreateICmpULE(b.CreateAdd(b.CreateZExt(at, b.getInt64Ty()), b.getInt64(bytes)),
                                b.getInt64(PrintfBufferBytes), "printf.fits");
  Value *result = b.CreateSelect(fits, b.getInt32(0), b.getInt32(-1));
  Instruction *write = SplitBlockAndInsertIfThen(fits, &call, /*Unreachable=*/false);
  b.SetInsertPoint(write);
  Value *record = b.CreateBitCast(b.CreateInBoundsGEP(b.getInt8Ty(), buffer, b.CreateZExt(at, b.getInt64Ty())),
                                  b.getInt32Ty()->getPointerTo(globalAddressSpace), "printf.record");
  for (unsigned w = 0; w < words.size(); ++w)
    b.CreateAlignedStore(words[w], b.CreateConstInBoundsGEP1_64(b.getInt32Ty(), record, w), Align(4));
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return described;
}

// -- The host side ------------------------------------------------------------------------------

uint32_t wordAt(ArrayRef<uint8_t> buffer, size_t offset) {
  uint32_t word;
  std::memcpy(&word, buffer.data() + offset, sizeof(word));
  return word;
}

/// Lane `lane` of `argument`, whose words start at `words`, as raw bits zero-extended.
uint64_t laneBits(const PrintfArgument &argument, ArrayRef<uint8_t> buffer, size_t words, unsigned lane) {
  const size_t at = words + size_t(lane) * argument.laneWords * 4;
  uint64_t bits = wordAt(buffer, at);
  if (argument.laneWords == 2)
    bits |= uint64_t(wordAt(buffer, at + 4)) << 32;
  return bits;
}

/// One lane printed by `conversion`, as the C library prints the value OpenCL C's length modifier
/// names (hh: char, h: short, hl or none: int, l: long).
std::string formatLane(const Conversion &conversion, const PrintfArgument &argument, uint64_t bits) {
  char text[512];
  const std::string spec = "%" + conversion.flags;
  const char c = conversion.conversion;
  const unsigned valueBits = argument.laneWords * 32;
  const StringRef length = conversion.length;
  const unsigned kept = std::min(length == "hh" ? 8u : length == "h" ? 16u : length.startswith("l") ? 64u : 32u,
                                 valueBits);
  if (c == 's') {
    std::snprintf(text, sizeof(text), (spec + "s").c_str(), argument.kind == Kind::String ? argument.text.c_str() : "");
  } else if (c == 'p') {
    std::snprintf(text, sizeof(text), (spec + "p").c_str(), reinterpret_cast<void *>(uintptr_t(bits)));
  } else if (StringRef("fFeEgGaA").contains(c)) {
    float value;
    const uint32_t word = uint32_t(bits);
    std::memcpy(&value, &word, sizeof(value));
    std::snprintf(text, sizeof(text), (spec + c).c_str(), double(value));
  } else if (c == 'c') {
    std::snprintf(text, sizeof(text), (spec + "c").c_str(), int(uint8_t(bits)));
  } else if (isSignedConversion(c)) {
    const long long value = kept == 64 ? (long long)bits : (long long)SignExtend64(bits, kept);
    std::snprintf(text, sizeof(text), (spec + "ll" + c).c_str(), value);
  } else {
    const unsigned long long value = kept == 64 ? bits : bits & maskTrailingOnes<uint64_t>(kept);
    std::snprintf(text, sizeof(text), (spec + "ll" + c).c_str(), value);
  }
  return text;
}

} // namespace

uint32_t PrintfCall::recordBytes() const {
  uint32_t words = 1;
  for (const PrintfArgument &argument : arguments)
    words += argument.lanes * argument.laneWords;
  return words * 4;
}

Expected<std::vector<PrintfCall>> lowerPrintfCalls(Module &module) {
  std::vector<PrintfCall> calls;
  Function *printf = module.getFunction("printf");
  if (!printf)
    return calls;
  // Global memory: address space 1 in spir64 modules, 0 (the only one) on the host.
  const unsigned globalAddressSpace = Triple(module.getTargetTriple()).isSPIR() ? 1 : 0;
  SmallVector<CallInst *, 8> sites;
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<CallInst>(&instruction); call && call->getCalledFunction() == printf)
        sites.push_back(call);
  for (CallInst *site : sites) {
    auto lowered = lowerCall(*site, calls.size(), globalAddressSpace);
    if (!lowered)
      return lowered.takeError();
    calls.push_back(std::move(*lowered));
  }
  if (printf->use_empty())
    printf->eraseFromParent();
  return calls;
}

std::string formatPrintfRecords(ArrayRef<PrintfCall> calls, ArrayRef<uint8_t> buffer, bool &lostRecords) {
  std::string out;
  lostRecords = false;
  if (buffer.size() < PrintfHeaderBytes)
    return out;
  const uint64_t used = wordAt(buffer, 0);
  lostRecords = used > buffer.size();
  std::vector<ParsedFormat> formats;
  for (const PrintfCall &call : calls)
    formats.push_back(parseFormat(call.format));
  size_t offset = PrintfHeaderBytes;
  while (offset + 4 <= std::min<uint64_t>(used, buffer.size())) {
    const uint32_t tag = wordAt(buffer, offset);
    if (tag == 0 || tag > calls.size())
      break; // The first record that did not fit, and every one after it, was not written.
    const PrintfCall &call = calls[tag - 1];
    if (offset + call.recordBytes() > buffer.size())
      break;
    const ParsedFormat &parsed = formats[tag - 1];
    size_t words = offset + 4;
    for (size_t i = 0; i < parsed.conversions.size(); ++i) {
      out += parsed.pieces[i];
      if (i >= call.arguments.size())
        continue;
      const PrintfArgument &argument = call.arguments[i];
      const Conversion &conversion = parsed.conversions[i];
      const unsigned lanes = std::min(argument.lanes, conversion.lanes);
      for (unsigned lane = 0; lane < std::max(lanes, 1u); ++lane) {
        if (lane)
          out += ',';
        out += formatLane(conversion, argument, argument.laneWords ? laneBits(argument, buffer, words, lane) : 0);
      }
      words += size_t(argument.lanes) * argument.laneWords * 4;
    }
    out += parsed.pieces.back();
    offset += call.recordBytes();
  }
  return out;
}

json::Value toJSON(const PrintfCall &call) {
  json::Array arguments;
  for (const PrintfArgument &argument : call.arguments) {
    static const char *const kinds[] = {"integer", "float", "pointer", "string"};
    json::Object entry{{"kind", kinds[static_cast<int>(argument.kind)]},
                       {"lanes", argument.lanes},
                       {"lane_words", argument.laneWords}};
    if (argument.kind == Kind::String)
      entry["text"] = argument.text;
    arguments.push_back(std::move(entry));
  }
  return json::Object{{"format", call.format}, {"arguments", std::move(arguments)}};
}

bool fromJSON(const json::Value &value, PrintfCall &call, json::Path path) {
  json::ObjectMapper mapper(value, path);
  const json::Array *arguments = value.getAsObject() ? value.getAsObject()->getArray("arguments") : nullptr;
  if (!mapper || !mapper.map("format", call.format) || !arguments) {
    path.report("expected a printf call with a format and arguments");
    return false;
  }
  call.arguments.clear();
  const json::Path argumentsPath = path.field("arguments"); // a Path refers to its parent
  for (size_t i = 0; i < arguments->size(); ++i) {
    json::Path at = argumentsPath.index(i);
    json::ObjectMapper entry((*arguments)[i], at);
    std::string kind;
    int64_t lanes = 0, laneWords = 0;
    PrintfArgument argument;
    if (!entry || !entry.map("kind", kind) || !entry.map("lanes", lanes) || !entry.map("lane_words", laneWords) ||
        !entry.mapOptional("text", argument.text))
      return false;
    if (kind == "integer")
      argument.kind = Kind::Integer;
    else if (kind == "float")
      argument.kind = Kind::Float;
    else if (kind == "pointer")
      argument.kind = Kind::Pointer;
    else if (kind == "string")
      argument.kind = Kind::String;
    else {
      at.field("kind").report("unknown printf argument kind");
      return false;
    }
    if (lanes < 1 || lanes > 16 || laneWords < 0 || laneWords > 2) {
      at.report("printf argument lanes or words out of range");
      return false;
    }
    argument.lanes = unsigned(lanes);
    argument.laneWords = unsigned(laneWords);
    call.arguments.push_back(std::move(argument));
  }
  return true;
}

} // namespace loom::lowering
