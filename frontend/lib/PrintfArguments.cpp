//===- PrintfArguments.cpp - printf arguments no conversion prints ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "PrintfArguments.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"

namespace loom::frontend {

namespace {

class PrintfArgumentChecker : public clang::ASTConsumer, public clang::RecursiveASTVisitor<PrintfArgumentChecker> {
public:
  explicit PrintfArgumentChecker(clang::DiagnosticsEngine &diagnostics) : diagnostics_(diagnostics) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group)
      TraverseDecl(decl);
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier() || callee->getName() != "printf")
      return true;
    // The format comes first; everything after it is printed by a conversion.
    for (unsigned i = 1; i < call->getNumArgs(); ++i) {
      const clang::Expr *argument = call->getArg(i);
      clang::QualType type = argument->getType();
      if (!type->isRecordType())
        continue;
      unsigned id = diagnostics_.getCustomDiagID(
          clang::DiagnosticsEngine::Error,
          "printf cannot print a %select{struct|union}0 (%1): no conversion specifier takes one; print its fields");
      diagnostics_.Report(argument->getExprLoc(), id) << type->isUnionType() << type;
    }
    return true;
  }

private:
  clang::DiagnosticsEngine &diagnostics_;
};

} // namespace

std::unique_ptr<clang::ASTConsumer> createPrintfArgumentChecker(clang::DiagnosticsEngine &diagnostics) {
  return std::make_unique<PrintfArgumentChecker>(diagnostics);
}

} // namespace loom::frontend
