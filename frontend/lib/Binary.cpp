//===- Binary.cpp - Write and validate .loom program binaries (ELF) -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Writes the ELF64 little-endian relocatable container by hand: ELF header, the section contents
// (16-byte aligned), .shstrtab, then the section header table. Reading goes through
// llvm::object::ELFFile, which bounds-checks every offset, so truncated or random input is an error.
//===----------------------------------------------------------------------===//
#include "loom/frontend/Binary.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFTypes.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <map>

namespace loom::frontend {

/// The machine of the simulation model inside (a host shared object), so binutils reads the file
/// without being told its format.
constexpr uint16_t LoomElfMachine = llvm::ELF::EM_X86_64;
namespace {

using ELFT = llvm::object::ELF64LE;
using Ehdr = ELFT::Ehdr; // Little-endian field types whatever the host's byte order.
using Shdr = ELFT::Shdr;

constexpr const char *MetaSection = ".loom.meta";
constexpr const char *VerilogSection = ".loom.verilog";
constexpr const char *ModelSection = ".loom.model";
constexpr const char *CpuSection = ".loom.cpu";
constexpr const char *LogSection = ".loom.log";
constexpr const char *HardwareSection = ".loom.hw";
constexpr const char *SumSection = ".loom.sum";
constexpr uint64_t DataAlignment = 16;

/// The checksummed sections, in checksum (and file) order.
constexpr const char *ContentSections[] = {MetaSection, VerilogSection, ModelSection, CpuSection,
                                           LogSection, HardwareSection};

llvm::Error binaryError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string checksumOf(llvm::ArrayRef<llvm::StringRef> contents) {
  std::string all;
  size_t total = 0;
  for (llvm::StringRef c : contents)
    total += c.size();
  all.reserve(total);
  for (llvm::StringRef c : contents)
    all.append(c.data(), c.size());
  return llvm::formatv("{0:x-16}", llvm::xxHash64(all)).str();
}

} // namespace

std::string ProgramBinary::board() const {
  if (auto b = meta.getString("board"))
    return b->str();
  return {};
}

std::string writeBinary(const ProgramBinary &binary) {
  llvm::json::Object meta = binary.meta;
  meta["format"] = static_cast<int64_t>(BinaryFormatVersion);
  std::string metaText = llvm::formatv("{0:2}", llvm::json::Value(std::move(meta))).str();

  std::vector<std::pair<std::string, llvm::StringRef>> sections = {
      {MetaSection, metaText}, {VerilogSection, binary.verilog}, {ModelSection, binary.model},
      {CpuSection, binary.cpuBitcode}, {LogSection, binary.log},
      {HardwareSection, binary.hardwareBitcode}};
  std::vector<llvm::StringRef> checksummed;
  for (auto &section : sections)
    checksummed.push_back(section.second);
  std::string sum = checksumOf(checksummed);
  sections.push_back({SumSection, sum});

  std::string shstrtab(1, '\0');
  std::vector<uint32_t> nameOffsets;
  for (auto &section : sections) {
    nameOffsets.push_back(static_cast<uint32_t>(shstrtab.size()));
    shstrtab += section.first;
    shstrtab.push_back('\0');
  }
  const uint32_t shstrtabName = static_cast<uint32_t>(shstrtab.size());
  shstrtab += ".shstrtab";
  shstrtab.push_back('\0');

  std::string out(sizeof(Ehdr), '\0');
  std::vector<Shdr> headers(1, Shdr{}); // Index 0: the null section.
  auto place = [&](uint32_t name, llvm::StringRef data, uint64_t align, uint32_t type) {
    out.resize(llvm::alignTo(out.size(), DataAlignment), '\0');
    Shdr header{};
    header.sh_name = name;
    header.sh_type = type;
    header.sh_flags = 0;
    header.sh_addr = 0;
    header.sh_offset = out.size();
    header.sh_size = data.size();
    header.sh_link = 0;
    header.sh_info = 0;
    header.sh_addralign = align;
    header.sh_entsize = 0;
    headers.push_back(header);
    out.append(data.data(), data.size());
  };
  for (size_t i = 0; i < sections.size(); ++i) {
    bool binaryData = sections[i].first == ModelSection || sections[i].first == CpuSection ||
                      sections[i].first == HardwareSection;
    place(nameOffsets[i], sections[i].second, binaryData ? DataAlignment : 1,
          llvm::ELF::SHT_PROGBITS);
  }
  place(shstrtabName, shstrtab, 1, llvm::ELF::SHT_STRTAB);

  out.resize(llvm::alignTo(out.size(), 8), '\0');
  const uint64_t sectionTableOffset = out.size();
  for (const Shdr &header : headers)
    out.append(reinterpret_cast<const char *>(&header), sizeof(Shdr));

  Ehdr ehdr{};
  std::memcpy(ehdr.e_ident, llvm::ELF::ElfMagic, 4);
  ehdr.e_ident[llvm::ELF::EI_CLASS] = llvm::ELF::ELFCLASS64;
  ehdr.e_ident[llvm::ELF::EI_DATA] = llvm::ELF::ELFDATA2LSB;
  ehdr.e_ident[llvm::ELF::EI_VERSION] = llvm::ELF::EV_CURRENT;
  ehdr.e_ident[llvm::ELF::EI_OSABI] = llvm::ELF::ELFOSABI_NONE;
  ehdr.e_type = llvm::ELF::ET_REL;
  ehdr.e_machine = LoomElfMachine;
  ehdr.e_version = llvm::ELF::EV_CURRENT;
  ehdr.e_entry = 0;
  ehdr.e_phoff = 0;
  ehdr.e_shoff = sectionTableOffset;
  ehdr.e_flags = 0;
  ehdr.e_ehsize = sizeof(Ehdr);
  ehdr.e_phentsize = 0;
  ehdr.e_phnum = 0;
  ehdr.e_shentsize = sizeof(Shdr);
  ehdr.e_shnum = static_cast<uint16_t>(headers.size());
  ehdr.e_shstrndx = static_cast<uint16_t>(headers.size() - 1);
  std::memcpy(out.data(), &ehdr, sizeof(ehdr));
  return out;
}

llvm::Expected<ProgramBinary> readBinary(llvm::StringRef bytes) {
  if (bytes.empty())
    return binaryError("not a Loom program binary: the input is empty");
  if (bytes.size() < sizeof(Ehdr) || !bytes.startswith(llvm::StringRef(llvm::ELF::ElfMagic, 4)))
    return binaryError("not a Loom program binary: no ELF header (recompile the program with loomc)");
  if (static_cast<uint8_t>(bytes[llvm::ELF::EI_CLASS]) != llvm::ELF::ELFCLASS64 ||
      static_cast<uint8_t>(bytes[llvm::ELF::EI_DATA]) != llvm::ELF::ELFDATA2LSB)
    return binaryError("not a Loom program binary: not a 64-bit little-endian ELF file");

  // ELFFile wants the section header table naturally aligned in memory.
  std::unique_ptr<llvm::MemoryBuffer> aligned;
  if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(Shdr) != 0) {
    aligned = llvm::MemoryBuffer::getMemBufferCopy(bytes, "loom binary");
    bytes = aligned->getBuffer();
  }

  auto file = llvm::object::ELFFile<ELFT>::create(bytes);
  if (!file)
    return binaryError("binary is corrupted: " + llvm::toString(file.takeError()));
  const Ehdr &header = file->getHeader();
  if (header.e_type != llvm::ELF::ET_REL || header.e_machine != LoomElfMachine)
    return binaryError("not a Loom program binary: an ELF file of another kind (e_type " +
                       llvm::Twine(static_cast<unsigned>(header.e_type)) + ", e_machine " +
                       llvm::Twine(static_cast<unsigned>(header.e_machine)) + ")");
  auto headers = file->sections();
  if (!headers)
    return binaryError("binary is corrupted: " + llvm::toString(headers.takeError()));

  std::map<std::string, llvm::StringRef> found;
  for (const Shdr &section : *headers) {
    auto name = file->getSectionName(section);
    if (!name)
      return binaryError("binary is corrupted: " + llvm::toString(name.takeError()));
    if (!name->startswith(".loom."))
      continue;
    if (section.sh_type != llvm::ELF::SHT_PROGBITS)
      return binaryError("binary is corrupted: section " + *name + " is not SHT_PROGBITS");
    auto contents = file->getSectionContents(section);
    if (!contents)
      return binaryError("binary is corrupted: " + llvm::toString(contents.takeError()));
    if (!found.emplace(name->str(), llvm::toStringRef(*contents)).second)
      return binaryError("binary is corrupted: section " + *name + " appears twice");
  }
  if (found.empty())
    return binaryError("not a Loom program binary: the ELF file has no .loom.* sections "
                       "(compile the program with loomc)");
  for (const char *name : ContentSections)
    if (!found.count(name))
      return binaryError(llvm::Twine("binary is corrupted: section ") + name + " is missing");
  if (!found.count(SumSection))
    return binaryError(llvm::Twine("binary is corrupted: section ") + SumSection + " is missing");

  std::vector<llvm::StringRef> checksummed;
  for (const char *name : ContentSections)
    checksummed.push_back(found[name]);
  const bool sumMatches = checksumOf(checksummed) == found[SumSection];

  // The version is looked at before the checksum verdict: another format may checksum differently.
  auto meta = llvm::json::parse(found[MetaSection]);
  if (!meta) {
    std::string reason = llvm::toString(meta.takeError());
    if (!sumMatches)
      return binaryError("binary is corrupted: checksum mismatch");
    return binaryError("binary is corrupted: .loom.meta is not valid JSON: " + reason);
  }
  llvm::json::Object *object = meta->getAsObject();
  llvm::Optional<int64_t> format = object ? object->getInteger("format") : llvm::None;
  if (format && *format != BinaryFormatVersion)
    return binaryError(llvm::formatv("binary format version {0} is not supported by this Loom "
                                     "(expects {1}): recompile with loomc",
                                     *format, BinaryFormatVersion));
  if (!sumMatches)
    return binaryError("binary is corrupted: checksum mismatch");
  if (!object || !format)
    return binaryError("binary is corrupted: .loom.meta has no \"format\" version");

  ProgramBinary binary;
  binary.meta = std::move(*object);
  binary.verilog = found[VerilogSection].str();
  binary.model = found[ModelSection].str();
  binary.cpuBitcode = found[CpuSection].str();
  binary.log = found[LogSection].str();
  binary.hardwareBitcode = found[HardwareSection].str();
  return binary;
}

} // namespace loom::frontend
