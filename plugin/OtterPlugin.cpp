//===- plugin/OtterPlugin.cpp - OTTER's Clang frontend plugin -------------===//
//
// Usage: clang -fopenmp -fplugin=otter.so [-fplugin-arg-otter-<opt>] ...
//
// Runs before the main (codegen) action and
//  1. records every OpenMP executable directive (kind, presumed file, the
//     pragma's begin/end line:col, enclosing function, clause text) and every
//     call of an OpenMP API function whose OMPT callbacks report codeptr_ra;
//  2. when the user did not ask for -g: has clang write real
//     ";file;func;line;col;;" strings into ident_t (debug info level
//     LocTrackingOnly, set once clang's code generator exists, so no debug
//     location is made) and put !srcloc on calls of API functions (an
//     implicit warning attribute); for LTO bitcode, -emit-llvm, precompiled
//     headers and modules it switches on line tables instead, which the
//     pass strips again;
//  3. registers the site pass (SitePass.cpp) at the optimizer's last
//     extension point (runs at -O0 too), and at the pipeline's start the pass
//     that keeps optimisations from merging two directives' runtime calls
//     (NoMerge.cpp).
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"
#include "otter/site_table.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendOptions.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace otter::plugin {

static const char *const ApiFunctions[] = {
    "omp_init_lock",          "omp_init_lock_with_hint",
    "omp_destroy_lock",       "omp_set_lock",
    "omp_unset_lock",         "omp_test_lock",
    "omp_init_nest_lock",     "omp_init_nest_lock_with_hint",
    "omp_destroy_nest_lock",  "omp_set_nest_lock",
    "omp_unset_nest_lock",    "omp_test_nest_lock",
    "omp_control_tool",       "omp_target_alloc",
    "omp_target_free",        "omp_target_memcpy",
    "omp_target_memcpy_rect", "omp_target_memcpy_async",
    "omp_target_memcpy_rect_async", "omp_target_associate_ptr",
    "omp_target_disassociate_ptr",  "omp_target_memset",
    "omp_target_memset_async",
};

// The MPI functions the wrapper library records (lib/libotter-mpi.so): their
// return address is the call site the runtime labels, as for omp_* calls.
static const char *const MpiFunctions[] = {
#define OTTER_MPI_FUNCTION(Name, ...) "MPI_" #Name,
#include "otter/mpi_functions.def"
};

bool isOmptApiFunction(llvm::StringRef Name) {
  if (Name.starts_with("MPI_")) {
    for (const char *F : MpiFunctions)
      if (Name == F)
        return true;
    return false;
  }
  if (!Name.starts_with("omp_"))
    return false;
  for (const char *F : ApiFunctions)
    if (Name == F)
      return true;
  return false;
}

static bool isApiName(llvm::StringRef Name) {
  return Name.starts_with("omp_") || Name.starts_with("MPI_");
}

std::size_t TUState::add(Directive D) {
  D.RegionId = site_table::regionId(D.File, D.Line, D.Col, D.Kind);
  auto &Begins = ByFile[D.File];
  auto &Here = Begins[{D.Line, D.Col}];
  for (std::size_t I : Here)
    if (Dirs[I].Kind == D.Kind && Dirs[I].EndLine == D.EndLine &&
        Dirs[I].EndCol == D.EndCol)
      return I;
  if (Begins.size() == 1 && Here.empty()) {
    auto &Same = FilesByBaseName[llvm::sys::path::filename(D.File).str()];
    Same.push_back(D.File);
  }
  Dirs.push_back(std::move(D));
  Here.push_back(Dirs.size() - 1);
  return Dirs.size() - 1;
}

/// Does a runtime entry point belong to a directive of this kind? Used only
/// to choose among directives that share a location (_Pragma in a macro).
static bool kindSuits(llvm::StringRef Callee, llvm::StringRef Kind) {
  if (isApiName(Callee))
    return Kind == Callee;
  if (isApiName(Kind))
    return false;
  auto Has = [&](llvm::StringRef W) { return Kind.contains(W); };
  if (isTargetEntry(Callee)) // a kernel or a data construct
    return Kind.starts_with("target");
  if (Callee.contains("fork_call") || Callee.contains("serialized_parallel") ||
      Callee.contains("push_num_threads") || Callee.contains("push_proc_bind"))
    return Has("parallel");
  if (Callee.contains("fork_teams") || Callee.contains("num_teams"))
    return Has("teams");
  if (Callee.contains("taskloop"))
    return Has("taskloop");
  if (Callee.contains("taskwait"))
    return Has("taskwait");
  if (Callee.contains("taskgroup"))
    return Has("taskgroup") || Has("taskloop");
  if (Callee.contains("taskyield"))
    return Has("taskyield");
  if (Callee.contains("omp_task") || Callee.contains("omp_target_task"))
    return Kind == "task" || Kind.starts_with("target");
  if (Callee.contains("single"))
    return Has("single");
  if (Callee.contains("master"))
    return Has("master");
  if (Callee.contains("masked"))
    return Has("masked");
  if (Callee.contains("critical"))
    return Has("critical");
  if (Callee.contains("ordered"))
    return Has("ordered");
  if (Callee.contains("dist_"))
    return Has("distribute");
  if (Callee.contains("for_static") || Callee.contains("dispatch"))
    return Has("for") || Has("sections") || Has("distribute") ||
           Has("loop") || Has("section");
  if (Callee.contains("cancel"))
    return Has("cancel") || Has("barrier") || Has("for") || Has("sections") ||
           Has("single");
  if (Callee.contains("barrier"))
    return Has("barrier") || Has("single") || Has("for") ||
           Has("sections") || Has("loop") || Has("workshare") ||
           Has("scope") || Has("distribute");
  if (Callee.contains("reduce"))
    return Has("for") || Has("sections") || Has("parallel") ||
           Has("teams") || Has("loop") || Has("scope");
  if (Callee.contains("flush"))
    return Has("flush") || Has("atomic") || Has("critical");
  return true; // global_thread_num, ...
}

long TUState::find(const std::string &File, unsigned Line, unsigned Col,
                   llvm::StringRef Callee) const {
  if (!Shared.empty()) {
    auto FI = Shared.find(File);
    if (FI != Shared.end()) {
      auto At = FI->second.find({Line, Col});
      if (At != FI->second.end()) {
        // Members' families are disjoint: at most one can make this call.
        unsigned Family = entryFamily(Callee);
        for (auto [Idx, Families] : At->second)
          if (Families & Family)
            return static_cast<long>(Idx);
        return -1;
      }
    }
  }
  llvm::StringMap<bool> &Suits = SuitsMemo[Callee];
  bool CalleeIsApi = isApiName(Callee);
  auto Lookup = [&](const std::string &F) -> long {
    auto FI = ByFile.find(F);
    if (FI == ByFile.end())
      return -1;
    const auto &Begins = FI->second;
    auto It = Begins.upper_bound({Line, Col});
    long Fallback = -1;
    // Ranges of distinct pragmas do not overlap; look back a few entries
    // for robustness (several macro expansions on one line).
    for (int Steps = 0; It != Begins.begin() && Steps < 8; ++Steps) {
      --It;
      for (auto R = It->second.rbegin(); R != It->second.rend(); ++R) {
        const Directive &D = Dirs[*R];
        LineCol End{D.EndLine, D.EndCol};
        if (End < LineCol{Line, Col})
          continue;
        auto [Memo, New] = Suits.try_emplace(D.Kind);
        if (New)
          Memo->second = kindSuits(Callee, D.Kind);
        if (Memo->second)
          return static_cast<long>(*R);
        if (Fallback < 0 && !D.Pseudo && !CalleeIsApi)
          Fallback = static_cast<long>(*R);
      }
    }
    return Fallback;
  };
  long R = Lookup(File);
  if (R >= 0 || ByFile.count(File))
    return R;
  // Debug info may spell the file differently (compilation directory
  // stripped, -fdebug-prefix-map): try files with the same base name.
  auto BI = FilesByBaseName.find(llvm::sys::path::filename(File).str());
  if (BI == FilesByBaseName.end())
    return -1;
  for (const std::string &F : BI->second)
    if ((R = Lookup(F)) >= 0)
      return R;
  return -1;
}

namespace {

class DirectiveVisitor : public RecursiveASTVisitor<DirectiveVisitor> {
public:
  DirectiveVisitor(ASTContext &Ctx, TUState &S)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), S(S) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(Decl *D) {
    auto *FD = llvm::dyn_cast_or_null<FunctionDecl>(D);
    if (FD && FD->hasBody())
      Functions.push_back(functionName(FD));
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    if (FD && FD->hasBody())
      Functions.pop_back();
    return R;
  }

  bool TraverseLambdaExpr(LambdaExpr *L, DataRecursionQueue *Q = nullptr) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L->getBeginLoc()));
    std::string Name = Functions.empty() ? std::string() : Functions.back();
    Name += "::(lambda";
    if (P.isValid())
      Name += " at line " + std::to_string(P.getLine()) + ":" +
              std::to_string(P.getColumn());
    Name += ")";
    Functions.push_back(Name);
    // No queue: traverse the body now, while the name is on the stack.
    (void)Q;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L, nullptr);
    Functions.pop_back();
    return R;
  }

  bool VisitOMPExecutableDirective(OMPExecutableDirective *E) {
    Directive D;
    D.Kind = llvm::omp::getOpenMPDirectiveName(E->getDirectiveKind()).str();
    if (!setRange(D, E->getBeginLoc(), E->getEndLoc()))
      return true;
    D.Function = Functions.empty() ? std::string() : Functions.back();
    std::string Clauses;
    llvm::raw_string_ostream OS(Clauses);
    if (auto *C = llvm::dyn_cast<OMPCriticalDirective>(E))
      if (!C->getDirectiveName().getAsString().empty())
        OS << "(" << C->getDirectiveName().getAsString() << ")";
    OMPClausePrinter Printer(OS, Ctx.getPrintingPolicy());
    for (OMPClause *C : E->clauses()) {
      if (!C || C->isImplicit())
        continue;
      if (!Clauses.empty())
        OS << ' ';
      Printer.Visit(C);
    }
    OS.flush();
    D.Clauses = std::move(Clauses);
    Executable.push_back({E, S.add(std::move(D))});
    return true;
  }

  /// The directives visited, with their index in TUState::Dirs, for
  /// OtterConsumer::HandleTranslationUnit.
  std::vector<std::pair<OMPExecutableDirective *, std::size_t>> Executable;

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !isOmptApiFunction(Callee->getName()))
      return true;
    Directive D;
    D.Kind = Callee->getName().str();
    D.Pseudo = true;
    if (!setRange(D, CE->getBeginLoc(), CE->getEndLoc()))
      return true;
    D.Function = Functions.empty() ? std::string() : Functions.back();
    S.add(std::move(D));
    return true;
  }

private:
  std::string functionName(const FunctionDecl *FD) {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    PrintingPolicy P = Ctx.getPrintingPolicy();
    P.SuppressTemplateArgsInCXXConstructors = true;
    FD->printQualifiedName(OS, P);
    return OS.str();
  }

  bool setRange(Directive &D, SourceLocation B, SourceLocation E) {
    if (B.isInvalid())
      return false;
    SourceLocation BL = SM.getExpansionLoc(B);
    SourceLocation EL = E.isValid() ? SM.getExpansionRange(E).getEnd() : BL;
    PresumedLoc PB = SM.getPresumedLoc(BL);
    PresumedLoc PE = SM.getPresumedLoc(EL);
    if (PB.isInvalid())
      return false;
    D.File = PB.getFilename();
    D.Line = PB.getLine();
    D.Col = PB.getColumn();
    if (PE.isValid() && PE.getFileID() == PB.getFileID() &&
        std::make_pair(PE.getLine(), PE.getColumn()) >=
            std::make_pair(PB.getLine(), PB.getColumn())) {
      D.EndLine = PE.getLine();
      D.EndCol = PE.getColumn();
    } else {
      D.EndLine = D.Line;
      D.EndCol = D.Col;
    }
    D.Loc = BL;
    D.MainFile = SM.isWrittenInMainFile(BL);
    return true;
  }

  ASTContext &Ctx;
  SourceManager &SM;
  TUState &S;
  std::vector<std::string> Functions;
};

class OtterConsumer : public ASTConsumer {
public:
  explicit OtterConsumer(std::shared_ptr<TUState> S) : S(std::move(S)) {}

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    if (!S->LateLocations)
      return true;
    if (!S->LocationsOn) {
      // clang's code generator exists now (it was made without debug
      // info): ident_t gets real ";file;func;line;col;;" strings from here
      // on, without a single debug location being made. The pass switches
      // it back.
      S->CGO->setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
      S->LocationsOn = true;
    }
    for (Decl *D : DG)
      tagCallees(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    S->SM = &Ctx.getSourceManager();
    DirectiveVisitor V(Ctx, *S);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
    if (S->LateLocations && S->CGO->OptimizationLevel == 0) {
      // Most functions are generated after this (CodeGenModule::Release).
      // Calls that clang locates at a directive's end (implicit barriers,
      // reductions, loop ends) get its beginning instead: the same
      // directive in the table (its range is recorded above), and one
      // ident_t string less per such directive for clang to make: each new
      // string scans every global of the module (quadratic). No debug info
      // is made in this mode, the only other user of the end location.
      // Only at -O0, where the pass resets every ident_t anyway: at -O2
      // the object keeps clang's usual ident_t, one per location.
      for (auto [E, Idx] : V.Executable)
        if (E->getBeginLoc().isValid())
          E->setLocEnd(E->getBeginLoc());
      shareLocations(V.Executable);
    }
    if (S->Opts.Verbose)
      for (const Directive &D : S->Dirs)
        llvm::errs() << "otter: directive '" << D.Kind << "' at " << D.File
                     << ":" << D.Line << ":" << D.Col << "-" << D.EndLine
                     << ":" << D.EndCol << " in '" << D.Function << "'"
                     << (D.Clauses.empty() ? "" : " clauses '") << D.Clauses
                     << (D.Clauses.empty() ? "" : "'") << " region 0x"
                     << llvm::format_hex_no_prefix(D.RegionId, 16) << "\n";
  }

private:
  /// -O0 without line tables: the directives of a function go into groups
  /// whose members call disjoint entry families (SharedLocations.cpp), each
  /// moved to its group's first location, so that clang makes one ident_t
  /// string per group instead of one per directive.
  void shareLocations(
      const std::vector<std::pair<OMPExecutableDirective *, std::size_t>>
          &Executable) {
    // A position several directives share (a macro expanded twice at one
    // place) keeps them apart: not shared.
    std::map<std::size_t, unsigned> Uses;
    for (auto [E, Idx] : Executable)
      ++Uses[Idx];
    struct Group {
      SourceLocation Anchor;
      std::size_t AnchorDir;
      unsigned Families;
      struct Member {
        OMPExecutableDirective *E;
        std::size_t Dir;
        unsigned Families;
      };
      std::vector<Member> Members;
    };
    // By function and file, in source order.
    std::map<std::string, std::vector<Group>> Groups;
    for (auto [E, Idx] : Executable) {
      const Directive &D = S->Dirs[Idx];
      if (!E->getBeginLoc().isFileID() || Uses[Idx] != 1 ||
          S->ByFile[D.File][{D.Line, D.Col}].size() != 1)
        continue;
      unsigned Families = directiveFamilies(*E);
      if (!Families)
        continue;
      std::vector<Group> &Gs = Groups[D.Function + '\0' + D.File];
      Group *G = nullptr;
      for (Group &Candidate : Gs)
        if (!(Candidate.Families & Families)) {
          G = &Candidate;
          break;
        }
      if (!G)
        G = &Gs.emplace_back(Group{E->getBeginLoc(), Idx, 0, {}});
      G->Families |= Families;
      G->Members.push_back({E, Idx, Families});
    }
    for (auto &[Key, Gs] : Groups)
      for (Group &G : Gs) {
        if (G.Members.size() < 2)
          continue;
        const Directive &A = S->Dirs[G.AnchorDir];
        auto &At = S->Shared[A.File][{A.Line, A.Col}];
        for (const Group::Member &M : G.Members) {
          M.E->setLocStart(G.Anchor);
          M.E->setLocEnd(G.Anchor);
          At.push_back({M.Dir, M.Families});
        }
      }
  }

  /// API functions (and otter.h's annotation functions, which call one on
  /// their caller's behalf) get an implicit warning attribute: clang then
  /// puts the call's source location on every call of them (!srcloc), which
  /// is how the pass places API calls without debug locations. The pass
  /// removes the attribute's "dontcall-warn" again.
  void tagCallees(Decl *D) {
    if (auto *DC = llvm::dyn_cast<LinkageSpecDecl>(D)) {
      for (Decl *Inner : DC->decls())
        tagCallees(Inner);
      return;
    }
    auto *FD = llvm::dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->getIdentifier() || FD->hasAttr<ErrorAttr>())
      return;
    llvm::StringRef Name = FD->getName();
    // __kmpc_*: a runtime call the user wrote (no ident_t of clang's).
    bool Api = isOmptApiFunction(Name) || Name.starts_with("__kmpc_");
    if (!Api) {
      if (!FD->hasBody() || !FD->isInlined())
        return;
      SourceManager &SM = FD->getASTContext().getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(FD->getLocation()));
      if (P.isInvalid() ||
          !llvm::StringRef(P.getFilename()).ends_with("otter/otter.h"))
        return;
    }
    FD->addAttr(ErrorAttr::CreateImplicit(FD->getASTContext(), SrcLocMarker,
                                          FD->getSourceRange(),
                                          ErrorAttr::GNU_warning));
  }

  std::shared_ptr<TUState> S;
};

class OtterAction : public PluginASTAction {
public:
  ActionType getActionType() override { return AddBeforeMainAction; }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    bool OK = true;
    for (const std::string &A : Args) {
      if (A == "help") {
        printHelp(llvm::errs());
      } else if (A == "verbose") {
        Opts.Verbose = true;
      } else if (A == "no-warn-unmatched") {
        Opts.WarnUnmatched = false;
      } else if (llvm::StringRef(A).starts_with("filter=")) {
        auto Set = std::make_shared<filter_rules::RuleSet>();
        std::string Error;
        if (!filter_rules::parseFile(A.substr(7), *Set, Error)) {
          DiagnosticsEngine &D = CI.getDiagnostics();
          unsigned ID =
              D.getCustomDiagID(DiagnosticsEngine::Error, "otter: %0");
          D.Report(ID) << Error;
          OK = false;
        } else {
          // The one exception to "a filtered construct makes no node"
          // (docs/filter.md), said once: a remark, which -Werror leaves
          // as it is.
          if (Set->kindExcluded(filter_rules::ConstructKind::BarrierImplicit)) {
            DiagnosticsEngine &D = CI.getDiagnostics();
            unsigned ID = D.getCustomDiagID(
                DiagnosticsEngine::Remark,
                "otter: %0 excludes kind barrier_implicit: its events are "
                "dropped, but the graph keeps one barrier_implicit node at "
                "the end of each parallel region (the region's join), as "
                "at run time (docs/filter.md)");
            D.Report(ID) << A.substr(7);
          }
          Opts.Filter = std::move(Set);
        }
      } else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        unsigned ID = D.getCustomDiagID(
            DiagnosticsEngine::Error,
            "otter: unknown plugin option '%0' (try -fplugin-arg-otter-help)");
        D.Report(ID) << A;
        OK = false;
      }
    }
    return OK;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef File) override {
    auto S = std::make_shared<TUState>();
    S->Opts = Opts;
    S->Diags = &CI.getDiagnostics();
    S->MainFile = File.str();
    const LangOptions &LO = CI.getLangOpts();
    CodeGenOptions &CGO = CI.getCodeGenOpts();
    S->UserDebugInfo =
        CGO.getDebugInfo() != llvm::codegenoptions::NoDebugInfo;
    S->PrepareForLTO = CGO.PrepareForLTO || CGO.PrepareForThinLTO;
    S->MergeFunctions = CGO.MergeFunctions;
    // Labels placed by the AsmPrinter need clang to run it (object or
    // assembly output, not bitcode) and a target whose call lowering keeps
    // !heapallocsite (x86-64); ELF for the note sections.
    const llvm::Triple &T = CI.getTarget().getTriple();
    frontend::ActionKind Act = CI.getFrontendOpts().ProgramAction;
    S->MachineLabels =
        !S->PrepareForLTO && T.getArch() == llvm::Triple::x86_64 &&
        T.isOSBinFormatELF() &&
        (Act == frontend::EmitObj || Act == frontend::EmitAssembly);
    if (!LO.OpenMP || LO.OpenMPIsTargetDevice)
      return std::make_unique<ASTConsumer>();
    // API declarations from a precompiled header or a module never pass
    // through HandleTopLevelDecl (no !srcloc on their calls): line tables.
    bool PrebuiltDecls = !CI.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
                         LO.Modules || LO.CPlusPlusModules;
    // The OpenMPIRBuilder path (-fopenmp-enable-irbuilder) writes ident_t
    // from the debug location alone: line tables too.
    if (!S->UserDebugInfo && S->MachineLabels && !PrebuiltDecls &&
        !LO.OpenMPIRBuilder) {
      // Locations without debug info (HandleTopLevelDecl above).
      S->LateLocations = true;
      S->CGO = &CGO;
    } else if (!S->UserDebugInfo) {
      // Real ";file;func;line;col;;" in ident_t and debug locations on
      // calls; stripped again by the pass.
      CGO.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
      if (CGO.DwarfVersion == 0)
        CGO.DwarfVersion = 5;
      CGO.DebugColumnInfo = true;
      S->ForcedDebugInfo = true;
    }
    CGO.PassBuilderCallbacks.push_back([S](llvm::PassBuilder &PB) {
      PB.registerPipelineStartEPCallback(
          [S](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level) {
            if (S->LateLocations)
              MPM.addPass(OtterAnnotationPass());
            // Before anything can merge two directives' calls (NoMerge.cpp);
            // -O0 merges none.
            if (Level != llvm::OptimizationLevel::O0)
              MPM.addPass(OtterNoMergePass());
          });
      PB.registerOptimizerLastEPCallback(
          [S](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level) {
            // Only at -O0: nothing merges calls in code generation there,
            // so equal ident_t operands are safe (see resetIdents).
            S->ResetIdents =
                S->LateLocations && Level == llvm::OptimizationLevel::O0;
            MPM.addPass(OtterSitePass(S));
          });
    });
    return std::make_unique<OtterConsumer>(S);
  }

  static void printHelp(llvm::raw_ostream &OS) {
    OS << "otter: OTTER (OpenMP Task Tracer) clang plugin\n"
          "usage: clang -fopenmp -fplugin=otter.so "
          "[-fplugin-arg-otter-OPTION]... FILE...\n"
          "Records every OpenMP directive, brackets each OpenMP runtime call "
          "with labels and\nwrites the site table (ELF note .note.otter) "
          "that libotter.so uses to label events.\n"
          "options:\n"
          "  help               print this help\n"
          "  verbose            list each directive and each tagged call "
          "site on stderr\n"
          "  no-warn-unmatched  do not warn about runtime calls that match "
          "no directive\n"
          "  filter=FILE        leave out the call sites FILE excludes (no "
          "label; the runtime\n"
          "                     drops their events; see docs/filter.md)\n";
  }

private:
  Options Opts;
};

} // namespace
} // namespace otter::plugin

static clang::FrontendPluginRegistry::Add<otter::plugin::OtterAction>
    X("otter", "OTTER: record OpenMP directives and runtime call sites");
