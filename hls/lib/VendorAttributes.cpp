//===- VendorAttributes.cpp - The FPGA vendors' kernel attributes the frontend honoured -===//
// SPDX-License-Identifier: Apache-2.0
//
// The frontend leaves each honoured vendor attribute in the `loom.vendor_attributes` metadata of
// the kernel ("num_simd_work_items(16)", "num_compute_units(2,2,1)") or of the array it is written
// on ("bank_bits(2,3)", "private_copies(4)"); see frontend/lib/VendorExtensions.h. The hardware
// flow reads them here, and the program-scope channels' metadata (frontend/lib/ProgramScopeFifos.h).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

namespace loom::hls {
namespace {

constexpr llvm::StringLiteral AttributesMetadata = "loom.vendor_attributes";

/// The arguments of attribute `name` in `attributes`, or None when it is not there.
llvm::Optional<llvm::SmallVector<uint64_t, 3>> vendorAttribute(const llvm::MDNode *attributes, llvm::StringRef name) {
  if (!attributes)
    return llvm::None;
  for (const llvm::MDOperand &operand : attributes->operands()) {
    const auto *text = llvm::dyn_cast_or_null<llvm::MDString>(operand.get());
    llvm::StringRef attribute = text ? text->getString() : "";
    if (!attribute.consume_front(name) || !attribute.consume_front("(") || !attribute.consume_back(")"))
      continue;
    llvm::SmallVector<llvm::StringRef, 3> fields;
    attribute.split(fields, ',');
    llvm::SmallVector<uint64_t, 3> values;
    for (llvm::StringRef field : fields)
      if (uint64_t value = 0; !field.trim().getAsInteger(10, value))
        values.push_back(value);
    return values;
  }
  return llvm::None;
}

llvm::Optional<llvm::SmallVector<uint64_t, 3>> vendorAttribute(const llvm::Function &kernel, llvm::StringRef name) {
  return vendorAttribute(kernel.getMetadata(AttributesMetadata), name);
}

/// An array's attribute `name`: on its alloca or its global.
llvm::Optional<llvm::SmallVector<uint64_t, 3>> arrayAttribute(const llvm::Value &array, llvm::StringRef name) {
  if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&array))
    return vendorAttribute(alloca->getMetadata(AttributesMetadata), name);
  if (const auto *global = llvm::dyn_cast<llvm::GlobalObject>(&array))
    return vendorAttribute(global->getMetadata(AttributesMetadata), name);
  return llvm::None;
}

} // namespace

unsigned simdWorkItemsOf(const llvm::Function &kernel) {
  // A kernel with barriers runs its lanes in its loops over a group's work-items (formWorkGroupLoops);
  // its invocations, the work-groups, come one at a time.
  if (kernel.hasFnAttribute(WorkGroupInvocationAttribute))
    return 1;
  auto lanes = vendorAttribute(kernel, "num_simd_work_items");
  return lanes && lanes->size() == 1 && (*lanes)[0] >= 1 ? unsigned((*lanes)[0]) : 1;
}

unsigned computeUnitsOf(const llvm::Function &kernel) {
  // A single work-item kernel's replicas would all do the same work (they differ only by
  // get_compute_id, which only autorun kernels' copies have, made kernels of their own by the
  // frontend): the frontend warned and it stays one unit.
  auto dims = vendorAttribute(kernel, "max_global_work_dim");
  if (dims && dims->size() == 1 && (*dims)[0] == 0)
    return 1;
  auto units = vendorAttribute(kernel, "num_compute_units");
  if (!units || units->empty())
    return 1;
  uint64_t product = 1;
  for (uint64_t count : *units)
    product *= count;
  return product >= 1 ? unsigned(product) : 1;
}

std::vector<unsigned> bankBitsOf(const llvm::Value &array) {
  std::vector<unsigned> bits;
  if (auto values = arrayAttribute(array, "bank_bits"))
    for (uint64_t bit : *values)
      bits.push_back(unsigned(bit));
  llvm::sort(bits);
  return bits;
}

unsigned privateCopiesOf(const llvm::Value &array) {
  auto copies = arrayAttribute(array, "private_copies");
  return copies && copies->size() == 1 ? unsigned(std::min<uint64_t>((*copies)[0], ~0u)) : 0;
}

bool isDoublePumped(const llvm::Value &array) { return arrayAttribute(array, "doublepump").has_value(); }

bool isAutorun(const llvm::Function &kernel) { return vendorAttribute(kernel, "autorun").hasValue(); }

std::vector<ProgramFifo> programFifosOf(const llvm::Function &kernel) {
  std::vector<ProgramFifo> fifos;
  const llvm::MDNode *node = kernel.getMetadata("loom.program_fifos");
  for (const llvm::MDOperand &operand : node ? node->operands() : llvm::ArrayRef<llvm::MDOperand>()) {
    const auto *fifo = llvm::dyn_cast_or_null<llvm::MDNode>(operand.get());
    if (!fifo || fifo->getNumOperands() != 3)
      continue;
    const auto *name = llvm::dyn_cast_or_null<llvm::MDString>(fifo->getOperand(0).get());
    const auto *depth = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(fifo->getOperand(1));
    const auto *bytes = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(fifo->getOperand(2));
    if (name && depth && bytes)
      fifos.push_back({name->getString().str(), depth->getZExtValue(), bytes->getZExtValue()});
  }
  return fifos;
}

} // namespace loom::hls
