//===- KernelInfo.cpp - Kernel interfaces from kernel_arg_* metadata ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Reads the kernel_arg_* metadata Clang (-cl-kernel-arg-info) and SPIRV-LLVM-Translator attach to
// kernels, plus reqd_work_group_size / work_group_size_hint / vec_type_hint and the vendor attributes
// Loom honours (`loom.vendor_attributes`, see VendorExtensions.h), into KernelInfo, and
// converts KernelInfo to and from JSON. Address spaces come from the metadata (SPIR numbering), not
// from the IR types: on the Host target every IR pointer is in address space 0.
//===----------------------------------------------------------------------===//
#include "loom/frontend/KernelInfo.h"
#include "loom/lowering/WorkItemFunction.h"

#include "ProgramScopeFifos.h"
#include "VendorExtensions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

namespace loom::frontend {

/// The vendor attributes compileOpenCL left on `f`, as written: "name(1,2,3)".
std::vector<std::string> vendorAttributesOf(const llvm::Function &f) {
  std::vector<std::string> found;
  if (const llvm::MDNode *attributes = f.getMetadata(VendorAttributesMetadata))
    for (const llvm::MDOperand &op : attributes->operands())
      if (const auto *text = llvm::dyn_cast_or_null<llvm::MDString>(op.get()))
        found.push_back(text->getString().str());
  return found;
}

/// The integers of a vendor attribute written "name(1,2,3)", when it is `name`.
std::optional<std::vector<uint64_t>> argumentsOf(llvm::StringRef attribute, llvm::StringRef name) {
  if (!attribute.consume_front(name) || !attribute.consume_front("(") || !attribute.consume_back(")"))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> texts;
  attribute.split(texts, ',');
  std::vector<uint64_t> values;
  for (llvm::StringRef text : texts) {
    uint64_t value = 0;
    if (text.getAsInteger(10, value))
      return std::nullopt;
    values.push_back(value);
  }
  return values;
}

namespace {

constexpr uint32_t ClMemSize = 8; // sizeof(cl_mem) and sizeof(cl_sampler) on 64-bit hosts.

llvm::Error kernelError(const llvm::Function &f, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 ("kernel '" + f.getName() + "': " + message).str());
}

bool isKernel(const llvm::Function &f) {
  if (f.isDeclaration())
    return false;
  return f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL ||
         f.getMetadata("kernel_arg_addr_space") != nullptr;
}

/// The strings of a kernel_arg_* node, or an empty vector when the node is absent.
llvm::Expected<std::vector<std::string>> stringsOf(const llvm::Function &f, llvm::StringRef kind) {
  std::vector<std::string> out;
  const llvm::MDNode *node = f.getMetadata(kind);
  if (!node)
    return out;
  for (const llvm::MDOperand &op : node->operands()) {
    auto *str = llvm::dyn_cast_or_null<llvm::MDString>(op.get());
    if (!str)
      return kernelError(f, "metadata " + kind + " holds a non-string operand");
    out.push_back(str->getString().str());
  }
  return out;
}

std::optional<uint64_t> integerOf(const llvm::MDOperand &op) {
  auto *constant = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(op.get());
  if (!constant)
    return std::nullopt;
  auto *value = llvm::dyn_cast<llvm::ConstantInt>(constant->getValue());
  if (!value)
    return std::nullopt;
  return value->getZExtValue();
}

llvm::Expected<std::vector<uint64_t>> integersOf(const llvm::Function &f, llvm::StringRef kind) {
  std::vector<uint64_t> out;
  const llvm::MDNode *node = f.getMetadata(kind);
  if (!node)
    return out;
  for (const llvm::MDOperand &op : node->operands()) {
    auto value = integerOf(op);
    if (!value)
      return kernelError(f, "metadata " + kind + " holds a non-integer operand");
    out.push_back(*value);
  }
  return out;
}

llvm::Expected<AddressSpace> addressSpaceOf(const llvm::Function &f, uint64_t number) {
  switch (number) {
  case 0:
    return AddressSpace::Private;
  case 1:
    return AddressSpace::Global;
  case 2:
    return AddressSpace::Constant;
  case 3:
    return AddressSpace::Local;
  default:
    return kernelError(f, llvm::formatv("argument address space {0} is not an OpenCL kernel "
                                        "argument address space (0-3)",
                                        number));
  }
}

llvm::Expected<AccessQualifier> accessOf(const llvm::Function &f, llvm::StringRef text) {
  auto access = llvm::StringSwitch<std::optional<AccessQualifier>>(text)
                    .Case("none", AccessQualifier::None)
                    .Case("", AccessQualifier::None)
                    .Case("read_only", AccessQualifier::ReadOnly)
                    .Case("write_only", AccessQualifier::WriteOnly)
                    .Case("read_write", AccessQualifier::ReadWrite)
                    .Default(std::nullopt);
  if (!access)
    return kernelError(f, "unknown access qualifier '" + text + "'");
  return *access;
}

/// Qualifiers once each, space separated, in source order: SPIRV-LLVM-Translator can repeat them
/// ("restrict  restrict").
std::string normalizeQualifiers(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> words, unique;
  text.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef word : words)
    if (llvm::find(unique, word) == unique.end())
      unique.push_back(word);
  return llvm::join(unique, " ");
}

/// The OpenCL C name of a vec_type_hint type, e.g. "float4" or "uint".
std::string vecTypeName(llvm::Type *type, bool isSigned) {
  unsigned lanes = 1;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    lanes = vector->getNumElements();
    type = vector->getElementType();
  }
  std::string scalar;
  if (type->isHalfTy())
    scalar = "half";
  else if (type->isFloatTy())
    scalar = "float";
  else if (type->isDoubleTy())
    scalar = "double";
  else if (type->isIntegerTy()) {
    switch (type->getIntegerBitWidth()) {
    case 8: scalar = "char"; break;
    case 16: scalar = "short"; break;
    case 32: scalar = "int"; break;
    case 64: scalar = "long"; break;
    default: scalar = "int"; break;
    }
    if (!isSigned)
      scalar = "u" + scalar;
  } else {
    scalar = "unknown";
  }
  return lanes == 1 ? scalar : scalar + std::to_string(lanes);
}

/// CL_KERNEL_ATTRIBUTES text: the attributes as written in the source, space separated.
std::string attributesOf(const llvm::Function &f, const std::array<uint32_t, 3> &reqd) {
  std::vector<std::string> parts = vendorAttributesOf(f);
  if (reqd[0] || reqd[1] || reqd[2])
    parts.push_back(llvm::formatv("reqd_work_group_size({0},{1},{2})", reqd[0], reqd[1], reqd[2]));
  if (const llvm::MDNode *hint = f.getMetadata("work_group_size_hint");
      hint && hint->getNumOperands() == 3) {
    auto x = integerOf(hint->getOperand(0)), y = integerOf(hint->getOperand(1)),
         z = integerOf(hint->getOperand(2));
    if (x && y && z)
      parts.push_back(llvm::formatv("work_group_size_hint({0},{1},{2})", *x, *y, *z));
  }
  if (const llvm::MDNode *hint = f.getMetadata("vec_type_hint");
      hint && hint->getNumOperands() == 2) {
    auto *constant = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(hint->getOperand(0).get());
    auto isSigned = integerOf(hint->getOperand(1));
    if (constant && isSigned)
      parts.push_back("vec_type_hint(" + vecTypeName(constant->getType(), *isSigned != 0) + ")");
  }
  return llvm::join(parts, " ");
}

} // namespace

bool KernelArg::isPipe() const {
  llvm::SmallVector<llvm::StringRef, 4> words;
  llvm::StringRef(typeQualifiers).split(words, ' ', -1, /*KeepEmpty=*/false);
  return llvm::is_contained(words, "pipe");
}

size_t KernelInfo::userArgCount() const {
  return llvm::count_if(args, [](const KernelArg &arg) { return arg.programFifo.empty(); });
}

bool isLocalVariable(const llvm::GlobalVariable &variable) {
  return !variable.isConstant() && variable.hasLocalLinkage() && variable.hasInitializer() &&
         llvm::isa<llvm::UndefValue>(variable.getInitializer());
}

namespace {

/// The bytes of the __local variables `f` and the functions it calls use.
uint64_t localVariableBytes(const llvm::Function &f, const llvm::DataLayout &layout) {
  llvm::SmallPtrSet<const llvm::Function *, 8> seen;
  llvm::SmallPtrSet<const llvm::GlobalVariable *, 8> variables;
  std::vector<const llvm::Function *> work{&f};
  uint64_t bytes = 0;
  while (!work.empty()) {
    const llvm::Function *function = work.back();
    work.pop_back();
    if (!seen.insert(function).second)
      continue;
    for (const llvm::Instruction &inst : llvm::instructions(*function))
      for (const llvm::Value *operand : inst.operands()) {
        const llvm::Value *object = llvm::getUnderlyingObject(operand, /*MaxLookup=*/0);
        if (const auto *callee = llvm::dyn_cast<llvm::Function>(object); callee && !callee->isDeclaration())
          work.push_back(callee);
        const auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(object);
        if (variable && isLocalVariable(*variable) && variables.insert(variable).second)
          bytes += layout.getTypeAllocSize(variable->getValueType());
      }
  }
  return bytes;
}

/// The bytes of private memory a work-item of `f` keeps on its stack at most: `f`'s static allocas
/// (what optimisation left in memory: arrays indexed at run time) plus the largest such frame among
/// the functions it calls (OpenCL C has no recursion; `onPath` guards against it all the same).
uint64_t privateFrameBytes(const llvm::Function &f, const llvm::DataLayout &layout,
                           llvm::SmallPtrSetImpl<const llvm::Function *> &onPath) {
  if (!onPath.insert(&f).second)
    return 0;
  uint64_t own = 0, callees = 0;
  for (const llvm::Instruction &inst : llvm::instructions(f)) {
    if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst); alloca && alloca->isStaticAlloca())
      if (auto bits = alloca->getAllocationSizeInBits(layout))
        own += bits->getFixedSize() / 8;
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
      if (const llvm::Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
        callees = std::max(callees, privateFrameBytes(*callee, layout, onPath));
  }
  onPath.erase(&f);
  return own + callees;
}

llvm::Expected<KernelInfo> readKernel(const llvm::Function &f, const llvm::DataLayout &layout) {
  KernelInfo kernel;
  kernel.name = f.getName().str();
  const unsigned numArgs = f.arg_size();

  auto spaces = integersOf(f, "kernel_arg_addr_space");
  if (!spaces)
    return spaces.takeError();
  auto access = stringsOf(f, "kernel_arg_access_qual");
  if (!access)
    return access.takeError();
  auto types = stringsOf(f, "kernel_arg_type");
  if (!types)
    return types.takeError();
  auto qualifiers = stringsOf(f, "kernel_arg_type_qual");
  if (!qualifiers)
    return qualifiers.takeError();
  auto names = stringsOf(f, "kernel_arg_name");
  if (!names)
    return names.takeError();

  for (auto [kind, count] : {std::pair{"kernel_arg_addr_space", spaces->size()},
                             {"kernel_arg_access_qual", access->size()},
                             {"kernel_arg_type", types->size()},
                             {"kernel_arg_type_qual", qualifiers->size()},
                             {"kernel_arg_name", names->size()}}) {
    if (count != 0 && count != numArgs)
      return kernelError(f, llvm::formatv("metadata {0} describes {1} arguments but the function "
                                          "has {2}: was an argument split by the target ABI?",
                                          kind, count, numArgs));
  }

  for (unsigned i = 0; i < numArgs; ++i) {
    const llvm::Argument &irArg = *f.getArg(i);
    llvm::Type *irType = irArg.getType();
    KernelArg arg;
    arg.name = names->empty() ? irArg.getName().str() : (*names)[i];
    if (!types->empty()) {
      arg.typeName = (*types)[i];
      arg.isPointer = llvm::StringRef(arg.typeName).trim().endswith("*");
    } else {
      arg.isPointer = irType->isPointerTy() && !irArg.hasByValAttr();
    }
    if (!qualifiers->empty())
      arg.typeQualifiers = normalizeQualifiers((*qualifiers)[i]);
    if (!access->empty()) {
      auto qualifier = accessOf(f, (*access)[i]);
      if (!qualifier)
        return qualifier.takeError();
      arg.access = *qualifier;
    }
    uint64_t spaceNumber = spaces->empty()
                               ? (irType->isPointerTy() ? irType->getPointerAddressSpace() : 0)
                               : (*spaces)[i];
    auto space = addressSpaceOf(f, spaceNumber);
    if (!space)
      return space.takeError();
    arg.addressSpace = *space;

    llvm::StringRef typeName = arg.typeName;
    if (arg.isPointer && arg.addressSpace == AddressSpace::Local) {
      arg.size = layout.getPointerSize(irType->isPointerTy() ? irType->getPointerAddressSpace() : 0);
    } else if (arg.isPointer || typeName.startswith("image") || typeName == "sampler_t" || arg.isPipe() ||
               typeName == "queue_t") {
      arg.size = ClMemSize; // Buffers, images, pipes and samplers are handles.
    } else if (llvm::Type *byVal = irArg.getParamByValType()) {
      arg.size = static_cast<uint32_t>(layout.getTypeAllocSize(byVal).getFixedSize());
    } else if (irType->isSized()) {
      arg.size = static_cast<uint32_t>(layout.getTypeAllocSize(irType).getFixedSize());
    } else {
      return kernelError(f, "argument '" + arg.name + "' has a type without a size");
    }
    kernel.args.push_back(std::move(arg));
  }

  if (const llvm::MDNode *fifos = f.getMetadata(ProgramFifosMetadata)) {
    if (fifos->getNumOperands() > kernel.args.size())
      return kernelError(f, llvm::Twine("metadata ") + ProgramFifosMetadata + " describes more arguments than the kernel has");
    auto arg = kernel.args.end() - fifos->getNumOperands();
    for (const llvm::MDOperand &operand : fifos->operands()) {
      const auto *fifo = llvm::dyn_cast<llvm::MDNode>(operand.get());
      if (!fifo || fifo->getNumOperands() != 3 || !llvm::isa<llvm::MDString>(fifo->getOperand(0)))
        return kernelError(f, llvm::Twine("metadata ") + ProgramFifosMetadata + " holds a malformed FIFO");
      auto integer = [&](unsigned i) {
        return llvm::mdconst::extract<llvm::ConstantInt>(fifo->getOperand(i))->getZExtValue();
      };
      arg->programFifo = llvm::cast<llvm::MDString>(fifo->getOperand(0))->getString().str();
      arg->fifoDepth = integer(1);
      arg->fifoPacketBytes = integer(2);
      ++arg;
    }
  }

  auto reqd = integersOf(f, "reqd_work_group_size");
  if (!reqd)
    return reqd.takeError();
  if (!reqd->empty()) {
    if (reqd->size() != 3)
      return kernelError(f, "reqd_work_group_size must have three dimensions");
    for (unsigned d = 0; d < 3; ++d)
      kernel.reqdWorkGroupSize[d] = static_cast<uint32_t>((*reqd)[d]);
  }
  for (const std::string &attribute : vendorAttributesOf(f)) {
    kernel.autorun |= attribute == "autorun()";
    if (auto dims = argumentsOf(attribute, "max_global_work_dim")) {
      if ((*dims)[0] > 3)
        return kernelError(f, "max_global_work_dim must be 0, 1, 2 or 3");
      kernel.maxGlobalWorkDim = static_cast<uint32_t>((*dims)[0]);
    } else if (auto sizes = argumentsOf(attribute, "max_work_group_size")) {
      kernel.maxWorkGroupSize = 1;
      for (uint64_t size : *sizes)
        kernel.maxWorkGroupSize *= size;
      if (kernel.maxWorkGroupSize == 0)
        return kernelError(f, "max_work_group_size must be at least 1 in every dimension");
    }
  }
  kernel.attributes = attributesOf(f, kernel.reqdWorkGroupSize);
  kernel.uniformWorkGroups = lowering::hasUniformWorkGroups(f);
  kernel.localVariableBytes = localVariableBytes(f, layout);
  llvm::SmallPtrSet<const llvm::Function *, 8> onPath;
  kernel.privateBytes = privateFrameBytes(f, layout, onPath);
  return kernel;
}

const char *addressSpaceName(AddressSpace space) {
  switch (space) {
  case AddressSpace::Private: return "private";
  case AddressSpace::Global: return "global";
  case AddressSpace::Constant: return "constant";
  case AddressSpace::Local: return "local";
  }
  return "private";
}

const char *accessName(AccessQualifier access) {
  switch (access) {
  case AccessQualifier::None: return "none";
  case AccessQualifier::ReadOnly: return "read_only";
  case AccessQualifier::WriteOnly: return "write_only";
  case AccessQualifier::ReadWrite: return "read_write";
  }
  return "none";
}

bool fromJSON(const llvm::json::Value &value, KernelArg &arg, llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::string space, access;
  int64_t size = 0;
  if (!mapper || !mapper.map("name", arg.name) || !mapper.map("type", arg.typeName) ||
      !mapper.map("qualifiers", arg.typeQualifiers) || !mapper.map("addressSpace", space) ||
      !mapper.map("access", access) || !mapper.map("pointer", arg.isPointer) ||
      !mapper.map("size", size) || !mapper.mapOptional("programFifo", arg.programFifo) ||
      !mapper.mapOptional("fifoDepth", arg.fifoDepth) || !mapper.mapOptional("fifoPacketBytes", arg.fifoPacketBytes))
    return false;
  auto parsedSpace = llvm::StringSwitch<std::optional<AddressSpace>>(space)
                         .Case("private", AddressSpace::Private)
                         .Case("global", AddressSpace::Global)
                         .Case("constant", AddressSpace::Constant)
                         .Case("local", AddressSpace::Local)
                         .Default(std::nullopt);
  if (!parsedSpace) {
    path.field("addressSpace").report("expected private, global, constant or local");
    return false;
  }
  auto parsedAccess = llvm::StringSwitch<std::optional<AccessQualifier>>(access)
                          .Case("none", AccessQualifier::None)
                          .Case("read_only", AccessQualifier::ReadOnly)
                          .Case("write_only", AccessQualifier::WriteOnly)
                          .Case("read_write", AccessQualifier::ReadWrite)
                          .Default(std::nullopt);
  if (!parsedAccess) {
    path.field("access").report("expected none, read_only, write_only or read_write");
    return false;
  }
  if (size < 0 || size > UINT32_MAX) {
    path.field("size").report("expected a size in bytes");
    return false;
  }
  arg.addressSpace = *parsedSpace;
  arg.access = *parsedAccess;
  arg.size = static_cast<uint32_t>(size);
  return true;
}

} // namespace

llvm::Expected<std::vector<KernelInfo>> extractKernels(const llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  std::vector<KernelInfo> kernels;
  for (const llvm::Function &f : module) {
    if (!isKernel(f))
      continue;
    auto kernel = readKernel(f, layout);
    if (!kernel)
      return kernel.takeError();
    kernels.push_back(std::move(*kernel));
  }
  return kernels;
}

llvm::json::Value toJSON(const KernelInfo &kernel) {
  llvm::json::Array args;
  for (const KernelArg &arg : kernel.args) {
    llvm::json::Object object{{"name", arg.name},
                              {"type", arg.typeName},
                              {"qualifiers", arg.typeQualifiers},
                              {"addressSpace", addressSpaceName(arg.addressSpace)},
                              {"access", accessName(arg.access)},
                              {"pointer", arg.isPointer},
                              {"size", static_cast<int64_t>(arg.size)}};
    if (!arg.programFifo.empty()) {
      object["programFifo"] = arg.programFifo;
      object["fifoDepth"] = static_cast<int64_t>(arg.fifoDepth);
      object["fifoPacketBytes"] = static_cast<int64_t>(arg.fifoPacketBytes);
    }
    args.push_back(std::move(object));
  }
  return llvm::json::Object{
      {"name", kernel.name},
      {"args", std::move(args)},
      {"reqdWorkGroupSize",
       llvm::json::Array{static_cast<int64_t>(kernel.reqdWorkGroupSize[0]),
                         static_cast<int64_t>(kernel.reqdWorkGroupSize[1]),
                         static_cast<int64_t>(kernel.reqdWorkGroupSize[2])}},
      {"attributes", kernel.attributes},
      {"autorun", kernel.autorun},
      {"maxGlobalWorkDim", static_cast<int64_t>(kernel.maxGlobalWorkDim)},
      {"maxWorkGroupSize", static_cast<int64_t>(kernel.maxWorkGroupSize)},
      {"uniformWorkGroups", kernel.uniformWorkGroups},
      {"localVariableBytes", static_cast<int64_t>(kernel.localVariableBytes)},
      {"privateBytes", static_cast<int64_t>(kernel.privateBytes)}};
}

bool fromJSON(const llvm::json::Value &value, KernelInfo &kernel, llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::vector<int64_t> reqd;
  int64_t maxGlobalWorkDim = 3;
  KernelInfo parsed;
  if (!mapper || !mapper.map("name", parsed.name) || !mapper.map("attributes", parsed.attributes) ||
      !mapper.map("reqdWorkGroupSize", reqd) || !mapper.mapOptional("maxGlobalWorkDim", maxGlobalWorkDim) ||
      !mapper.mapOptional("maxWorkGroupSize", parsed.maxWorkGroupSize) ||
      !mapper.mapOptional("autorun", parsed.autorun) ||
      !mapper.mapOptional("uniformWorkGroups", parsed.uniformWorkGroups) ||
      !mapper.mapOptional("localVariableBytes", parsed.localVariableBytes) ||
      !mapper.mapOptional("privateBytes", parsed.privateBytes))
    return false;
  if (maxGlobalWorkDim < 0 || maxGlobalWorkDim > 3) {
    path.field("maxGlobalWorkDim").report("expected 0, 1, 2 or 3");
    return false;
  }
  parsed.maxGlobalWorkDim = static_cast<uint32_t>(maxGlobalWorkDim);
  const llvm::json::Array *args = value.getAsObject()->getArray("args");
  if (!args) {
    path.field("args").report("expected an array of arguments");
    return false;
  }
  llvm::json::Path argsPath = path.field("args");
  for (size_t i = 0; i < args->size(); ++i) {
    KernelArg arg;
    if (!fromJSON((*args)[i], arg, argsPath.index(i)))
      return false;
    parsed.args.push_back(std::move(arg));
  }
  if (reqd.size() != 3) {
    path.field("reqdWorkGroupSize").report("expected three sizes");
    return false;
  }
  for (unsigned d = 0; d < 3; ++d) {
    if (reqd[d] < 0 || reqd[d] > UINT32_MAX) {
      path.field("reqdWorkGroupSize").index(d).report("expected a work-group size");
      return false;
    }
    parsed.reqdWorkGroupSize[d] = static_cast<uint32_t>(reqd[d]);
  }
  kernel = std::move(parsed);
  return true;
}

} // namespace loom::frontend
