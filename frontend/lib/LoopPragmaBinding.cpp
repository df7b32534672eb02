//===- LoopPragmaBinding.cpp - Vendor loop pragmas that no Clang loop hint carries ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "LoopPragmaBinding.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace loom::frontend {

void LoopPragmaBindings::record(clang::SourceLocation at, clang::SourceLocation end, llvm::StringRef name,
                                unsigned value, llvm::StringRef variable) {
  Pragma pragma;
  pragma.at = at;
  pragma.end = end;
  pragma.name = name.str();
  pragma.value = value;
  pragma.variable = variable.str();
  pragmas_.push_back(std::move(pragma));
}

namespace {

/// Whether the source between a pragma and a statement holds nothing else: blank lines, comments,
/// other pragmas and attributes (what may stand between a loop pragma and its loop).
bool onlyPragmasBetween(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.empty() && !line.startswith("#") && !line.startswith("//") && !line.startswith("/*") &&
        !line.startswith("*") && !line.startswith("__attribute__"))
      return false;
  }
  return true;
}

/// `file` made absolute against `directory` (the current one when empty), as debug information and
/// the source manager may name one file differently ("qor/rows.cl", "/work/qor/rows.cl").
std::string absolutePath(llvm::StringRef directory, llvm::StringRef file) {
  llvm::SmallString<256> path(file);
  if (directory.empty())
    llvm::sys::fs::make_absolute(path);
  else
    llvm::sys::fs::make_absolute(directory, path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path);
}

/// Whether `statement` refers to a variable (or parameter) called `name`.
bool refersTo(const clang::Stmt *statement, llvm::StringRef name) {
  if (const auto *reference = llvm::dyn_cast<clang::DeclRefExpr>(statement))
    if (llvm::isa<clang::VarDecl>(reference->getDecl()) && reference->getDecl()->getName() == name)
      return true;
  return llvm::any_of(statement->children(),
                      [&](const clang::Stmt *child) { return child && refersTo(child, name); });
}

} // namespace

class LoopPragmaBinder : public clang::ASTConsumer, public clang::RecursiveASTVisitor<LoopPragmaBinder> {
public:
  LoopPragmaBinder(LoopPragmaBindings &bindings, clang::DiagnosticsEngine &diagnostics, clang::SourceManager &sources)
      : bindings_(bindings), diagnostics_(diagnostics), sources_(sources) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group)
      if (const auto *function = llvm::dyn_cast<clang::FunctionDecl>(decl); function && function->hasBody())
        TraverseStmt(function->getBody());
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext &) override {
    for (const LoopPragmaBindings::Pragma &pragma : bindings_.pragmas_)
      if (pragma.line == 0) {
        unsigned id = diagnostics_.getCustomDiagID(clang::DiagnosticsEngine::Warning,
                                                   "'#pragma %0' ignored: no loop follows it");
        diagnostics_.Report(pragma.at, id) << pragma.name;
      }
  }

  bool VisitForStmt(clang::ForStmt *loop) { return bind(loop); }
  bool VisitWhileStmt(clang::WhileStmt *loop) { return bind(loop); }
  bool VisitDoStmt(clang::DoStmt *loop) { return bind(loop); }

private:
  bool bind(const clang::Stmt *loop) {
    const clang::SourceLocation begin = sources_.getExpansionLoc(loop->getBeginLoc());
    const auto [file, offset] = sources_.getDecomposedLoc(begin);
    for (LoopPragmaBindings::Pragma &pragma : bindings_.pragmas_) {
      if (pragma.line != 0)
        continue;
      const clang::SourceLocation end = sources_.getExpansionLoc(pragma.end);
      const auto [pragmaFile, pragmaEnd] = sources_.getDecomposedLoc(end);
      if (pragmaFile != file || pragmaEnd > offset)
        continue;
      llvm::StringRef between(sources_.getCharacterData(end), offset - pragmaEnd);
      if (!onlyPragmasBetween(between))
        continue;
      // Clang's debug locations are presumed locations (they follow #line).
      const clang::PresumedLoc start = sources_.getPresumedLoc(begin);
      pragma.file = absolutePath("", start.getFilename());
      pragma.line = start.getLine();
      pragma.column = start.getColumn();
      if (!pragma.variable.empty() && !refersTo(loop, pragma.variable)) {
        unsigned id = diagnostics_.getCustomDiagID(
            clang::DiagnosticsEngine::Warning, "the loop after this pragma does not use '%0': the pragma has no effect");
        diagnostics_.Report(pragma.at, id) << pragma.variable;
      }
    }
    return true;
  }

  LoopPragmaBindings &bindings_;
  clang::DiagnosticsEngine &diagnostics_;
  clang::SourceManager &sources_;
};

std::unique_ptr<clang::ASTConsumer> LoopPragmaBindings::createBinder(clang::DiagnosticsEngine &diagnostics,
                                                                     clang::SourceManager &sources) {
  return std::make_unique<LoopPragmaBinder>(*this, diagnostics, sources);
}

llvm::MDNode *LoopPragmaBindings::withPragmas(llvm::MDNode *id) const {
  const auto *start = id->getNumOperands() > 1 ? llvm::dyn_cast<llvm::DILocation>(id->getOperand(1)) : nullptr;
  if (!start)
    return id;
  const std::string file = absolutePath(start->getDirectory(), start->getFilename());
  llvm::LLVMContext &context = id->getContext();
  llvm::SmallVector<llvm::Metadata *, 8> operands(id->op_begin(), id->op_end());
  bool changed = false;
  for (const Pragma &pragma : pragmas_) {
    if (pragma.line != start->getLine() || pragma.column != start->getColumn() || pragma.file != file)
      continue;
    const std::string key = "loom.loop." + pragma.name;
    // A later pragma of the same name (and variable) replaces an earlier one.
    llvm::erase_if(operands, [&](llvm::Metadata *operand) {
      const auto *node = llvm::dyn_cast_or_null<llvm::MDNode>(operand);
      const auto *name = node && node != id && node->getNumOperands() > 0
                             ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0))
                             : nullptr;
      const auto *variable = name && node->getNumOperands() == 3 ? llvm::dyn_cast<llvm::MDString>(node->getOperand(1))
                                                                 : nullptr;
      return name && name->getString() == key && (variable ? variable->getString() : "") == pragma.variable;
    });
    llvm::SmallVector<llvm::Metadata *, 3> attribute{llvm::MDString::get(context, key)};
    if (!pragma.variable.empty())
      attribute.push_back(llvm::MDString::get(context, pragma.variable));
    attribute.push_back(
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), pragma.value)));
    operands.push_back(llvm::MDNode::get(context, attribute));
    changed = true;
  }
  if (!changed)
    return id;
  llvm::MDNode *replacement = llvm::MDNode::getDistinct(context, operands);
  replacement->replaceOperandWith(0, replacement);
  return replacement;
}

void LoopPragmaBindings::applyTo(llvm::Module &module) const {
  if (llvm::none_of(pragmas_, [](const Pragma &pragma) { return pragma.line != 0; }))
    return;
  // A loop's latches share its metadata node: each node is rewritten once.
  llvm::DenseMap<llvm::MDNode *, llvm::MDNode *> rewritten;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (llvm::MDNode *id = inst.getMetadata(llvm::LLVMContext::MD_loop)) {
          auto [it, added] = rewritten.try_emplace(id, nullptr);
          if (added)
            it->second = withPragmas(id);
          inst.setMetadata(llvm::LLVMContext::MD_loop, it->second);
        }
}

} // namespace loom::frontend
