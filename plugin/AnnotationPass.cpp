//===- plugin/AnnotationPass.cpp - Inline the annotation wrappers --------===//
//
// The pass that runs first in the optimizer: the wrappers of otter/otter.h's
// annotations (marked with SrcLocMarker by the frontend) are inlined into
// their callers, and the OMPT API calls inside them take the annotation's
// !srcloc, so OtterSitePass places them at the user's call.
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <set>

using namespace llvm;

namespace otter::plugin {

PreservedAnalyses OtterAnnotationPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  auto Annotation = [](const Function *F) {
    return F && !F->isDeclaration() &&
           F->getFnAttribute("dontcall-warn").getValueAsString() ==
               SrcLocMarker;
  };
  std::vector<CallBase *> Work;
  for (Function &F : M)
    if (Annotation(&F))
      for (User *U : F.users())
        if (auto *CB = dyn_cast<CallBase>(U))
          if (CB->getCalledFunction() == &F)
            Work.push_back(CB);
  if (Work.empty())
    return PreservedAnalyses::all();
  std::set<Function *> Inlined;
  while (!Work.empty()) {
    CallBase *CB = Work.back();
    Work.pop_back();
    MDNode *Loc = CB->getMetadata("srcloc");
    Function *Callee = CB->getCalledFunction();
    Function *Caller = CB->getFunction();
    // The calls the caller has before: the inlined ones are the others.
    // (IFI.InlinedCallSites does not do: inlined through an invoke -- C++
    // code that may unwind, e.g. in a parallel region -- the inlined calls
    // become new invokes, which keep no !srcloc.)
    std::set<const CallBase *> Before;
    for (Instruction &I : instructions(*Caller))
      if (auto *C = dyn_cast<CallBase>(&I))
        Before.insert(C);
    InlineFunctionInfo IFI;
    if (!InlineFunction(*CB, IFI, /*MergeAttributes=*/true, nullptr,
                        /*InsertLifetime=*/false)
             .isSuccess())
      continue;
    Inlined.insert(Callee);
    for (Instruction &I : instructions(*Caller)) {
      auto *Inner = dyn_cast<CallBase>(&I);
      if (!Inner || Before.count(Inner))
        continue;
      const Function *F = Inner->getCalledFunction();
      bool Api = F && isOmptApiFunction(F->getName());
      if (Loc && (Api || Annotation(F)))
        Inner->setMetadata("srcloc", Loc);
      if (Annotation(F))
        Work.push_back(Inner);
    }
  }
  // Nothing calls them now (one calls another: until none is left).
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (auto It = Inlined.begin(); It != Inlined.end();) {
      Function *F = *It;
      if (F->hasLocalLinkage() && F->use_empty()) {
        F->eraseFromParent();
        It = Inlined.erase(It);
        Erased = true;
      } else {
        ++It;
      }
    }
  }
  return PreservedAnalyses::none();
}

} // namespace otter::plugin
