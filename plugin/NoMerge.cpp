//===- plugin/NoMerge.cpp - Keep each directive's runtime calls its own ---===//
//
// At -O1 and above, LLVM merges calls that two directives make to the same
// runtime entry point, which leaves one call site, with one label, for both:
//   - IR SimplifyCFG sinks the calls ending two arms of an if/else or the
//     cases of a switch into their common successor (differing ident_t
//     operands become a phi: the site pass finds no location, the label is
//     lost) and hoists identical calls starting both arms (omp_set_lock(&l):
//     the !srcloc that locates it is dropped);
//   - BranchFolding's tail merging, after instruction selection, merges the
//     calls ending two blocks when only the instructions loading their
//     arguments differ (MachineInstr::isIdenticalTo ignores the site's tag):
//     one call, one label, the other directive's events labelled with it.
// LLVM's `nomerge` call attribute forbids exactly these (SimplifyCFG's
// sinking and hoisting check CallBase::cannotMerge(), instruction selection
// turns it into MachineInstr::NoMerge, which tail merging checks). This pass
// puts it on every call the site pass will bracket, at the start of the
// optimisation pipeline, before any of them runs (docs/plugin.md, "Calls
// that optimisations would merge"; test/lit/labels/merge.c). It blocks
// merges only: duplication (tail duplication, unrolling, unswitching,
// inlining) still gives each copy its own site, labelled with its
// directive.
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace otter::plugin {

PreservedAnalyses OtterNoMergePass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (!isSiteEntry(F.getName()))
      continue;
    for (User *U : F.users()) {
      auto *CB = dyn_cast<CallBase>(U);
      // A call attribute, not the declaration's: it stays with the call
      // through inlining and LTO's linking of declarations.
      if (CB && CB->getCalledFunction() == &F &&
          !CB->hasFnAttr(Attribute::NoMerge)) {
        CB->addFnAttr(Attribute::NoMerge);
        Changed = true;
      }
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace otter::plugin
