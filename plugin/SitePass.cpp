//===- plugin/SitePass.cpp - Bracket OpenMP runtime calls, write the table -===//
//
// Runs at the optimizer's last extension point (also at -O0). For every
// direct call of a __kmpc_* entry point or of an OpenMP API function that
// reaches OMPT with a codeptr_ra, it finds the directive whose pragma range
// contains the call's source location (from the ident_t string, else from the
// call's debug location), then
//   - marks the call notail (otherwise -O2 turns it into a jump and the
//     return address OMPT reports lies in the caller's caller),
//   - puts a label right before and right after it (inline asm, numeric local
//     labels: a copy made by later code duplication -- tail duplication,
//     inlining at LTO time -- defines its own pair and refers to it, so no
//     duplicate symbols),
//   - emits, from the "after" asm, a site record and (once per assembly
//     output, in a COMDAT group keyed by its contents) the directive record,
//     both as ELF notes in .note.otter (format: include/otter/site_table.h).
// Every asm statement is self-contained, so the table survives LTO, ThinLTO
// importing and inlining across translation units.
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"
#include "otter/filter_rules.h"
#include "otter/site_table.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <set>

using namespace llvm;

namespace otter::plugin {

const char SrcLocMarker[] = "otter: call site location";

/// Entry points that never report a codeptr_ra to a tool: no warning or
/// error when they cannot be placed (OpenMPOpt hoists and merges some).
bool isQuietEntry(StringRef Name) {
  static const char *const Quiet[] = {
      "__kmpc_global_thread_num", "__kmpc_push_",
      "__kmpc_omp_task_alloc",    "__kmpc_omp_target_task_alloc",
      "__kmpc_threadprivate",     "__kmpc_alloc",
      "__kmpc_free",              "__kmpc_aligned_alloc",
      "__kmpc_calloc",            "__kmpc_realloc",
      "__kmpc_get_",              "__kmpc_taskred",
      "__kmpc_task_reduction",    "__kmpc_omp_reg_task_with_affinity",
      "__kmpc_init_allocator",    "__kmpc_destroy_allocator",
      "__kmpc_begin",             "__kmpc_end",
      "__kmpc_doacross_init",
  };
  for (const char *Q : Quiet)
    if (Name.starts_with(Q) && !(StringRef(Q) == "__kmpc_end" &&
                                 Name.size() > strlen("__kmpc_end")))
      return true;
  return false;
}

bool isSiteEntry(StringRef Name) {
  return Name.starts_with("__kmpc_") ? !isQuietEntry(Name)
                                     : isOmptApiFunction(Name);
}

namespace {

struct CallLoc {
  std::string File;
  std::string FullPath; // for diagnostics (debug info splits off the dir)
  unsigned Line = 0, Col = 0;
  bool Known = false;
};

/// The global holding the ident_t string of the call's first argument.
const GlobalVariable *identString(const CallBase &CB) {
  if (CB.arg_size() == 0 || !CB.getArgOperand(0)->getType()->isPointerTy())
    return nullptr;
  auto *GV = dyn_cast<GlobalVariable>(CB.getArgOperand(0)->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return nullptr;
  auto *CS = dyn_cast<ConstantStruct>(GV->getInitializer());
  if (!CS || CS->getNumOperands() != 5)
    return nullptr;
  auto *SG = dyn_cast<GlobalVariable>(CS->getOperand(4)->stripPointerCasts());
  return SG && SG->hasInitializer() ? SG : nullptr;
}

/// ";file;func;line;col;;" from an ident_t string (identString).
bool locFromIdentString(const GlobalVariable &SG, CallLoc &L) {
  auto *CDS = dyn_cast<ConstantDataSequential>(SG.getInitializer());
  if (!CDS || !CDS->isCString())
    return false;
  StringRef Str = CDS->getAsCString();
  if (!Str.consume_front(";") || !Str.consume_back(";;"))
    return false;
  auto [Rest1, ColS] = Str.rsplit(';');
  auto [Rest2, LineS] = Rest1.rsplit(';');
  auto [FileS, FuncS] = Rest2.rsplit(';');
  (void)FuncS;
  unsigned Line = 0, Col = 0;
  if (LineS.getAsInteger(10, Line) || ColS.getAsInteger(10, Col))
    return false;
  if (FileS == "unknown" || Line == 0)
    return false;
  L.File = FileS.str();
  L.Line = Line;
  L.Col = Col;
  L.Known = true;
  return true;
}

/// ";file;func;line;col;;" from the ident_t passed as first argument.
bool locFromIdent(const CallBase &CB, CallLoc &L) {
  const GlobalVariable *SG = identString(CB);
  return SG && locFromIdentString(*SG, L);
}

/// The call's source location that clang attached as !srcloc (calls of
/// functions the frontend gave SrcLocMarker's attribute: API functions).
bool locFromSrcLoc(const CallBase &CB, const clang::SourceManager *SM,
                   CallLoc &L) {
  const MDNode *MD = CB.getMetadata("srcloc");
  if (!SM || !MD || MD->getNumOperands() < 1)
    return false;
  auto *Raw = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0));
  if (!Raw)
    return false;
  clang::SourceLocation Loc = clang::SourceLocation::getFromRawEncoding(
      static_cast<clang::SourceLocation::UIntTy>(Raw->getZExtValue()));
  if (Loc.isInvalid())
    return false;
  clang::PresumedLoc P = SM->getPresumedLoc(SM->getExpansionLoc(Loc));
  if (P.isInvalid() || P.getLine() == 0)
    return false;
  L.File = P.getFilename();
  L.Line = P.getLine();
  L.Col = P.getColumn();
  L.Known = true;
  return true;
}

/// True for a location inside OTTER's annotation header (otter/otter.h),
/// whose always-inline functions make the omp_control_tool call on the
/// caller's behalf.
static bool inAnnotationHeader(const DILocation &DL) {
  return DL.getFilename().ends_with("otter/otter.h");
}

bool locFromDebug(const CallBase &CB, CallLoc &L) {
  const DILocation *DL = CB.getDebugLoc().get();
  // An annotation's call is labelled with the line that called
  // otter_mark() & co., not the line of otter.h it was inlined from.
  while (DL && DL->getInlinedAt() && inAnnotationHeader(*DL))
    DL = DL->getInlinedAt();
  if (!DL || DL->getLine() == 0)
    return false;
  L.File = DL->getFilename().str();
  if (!sys::path::is_absolute(L.File) && !DL->getDirectory().empty()) {
    SmallString<256> P(DL->getDirectory());
    sys::path::append(P, L.File);
    L.FullPath = P.str().str();
  }
  L.Line = DL->getLine();
  L.Col = DL->getColumn();
  L.Known = true;
  return true;
}

void appendAsciz(std::string &Out, StringRef S) {
  Out += ".asciz \"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += static_cast<char>(C);
    } else if (C == '$') {
      Out += "$$"; // LLVM inline asm escape
    } else if (C < 0x20 || C >= 0x7f) {
      char Buf[8];
      snprintf(Buf, sizeof Buf, "\\%03o", C);
      Out += Buf;
    } else {
      Out += static_cast<char>(C);
    }
  }
  Out += "\"\n";
}

bool isPlainSymbol(StringRef S) {
  if (S.empty() || isDigit(S[0]))
    return false;
  for (char C : S)
    if (!isAlnum(C) && C != '_' && C != '.')
      return false;
  return true;
}

std::string functionDisplayName(const Function &F) {
  if (const DISubprogram *SP = F.getSubprogram())
    if (!SP->getName().empty())
      return SP->getName().str();
  return llvm::demangle(F.getName());
}

/// The construct kind (otter/filter_rules.h) whose events a runtime call
/// reports, as OTTER prints it, for the filter's kind rules; Count: none.
filter_rules::ConstructKind constructKindOfCall(StringRef Callee,
                                                StringRef DirKind) {
  using CK = filter_rules::ConstructKind;
  if (Callee.starts_with("MPI_"))
    return CK::Mpi;
  if (Callee.starts_with("omp_"))
    return Callee.contains("nest_lock") ? CK::NestLock
           : Callee.contains("lock")    ? CK::Lock
                                        : CK::Count;
  if (Callee.contains("fork_call") || Callee.contains("fork_teams") ||
      Callee.contains("serialized_parallel"))
    return CK::Parallel;
  if (Callee.contains("taskloop") ||
      (Callee.contains("taskgroup") && DirKind.contains("taskloop")))
    return CK::Taskloop;
  if (Callee.contains("taskwait"))
    return CK::Taskwait;
  if (Callee.contains("taskgroup"))
    return CK::Taskgroup;
  if (Callee.contains("taskyield"))
    return CK::Count;
  if (Callee.contains("omp_task") || Callee.contains("omp_target_task"))
    return CK::Task;
  if (Callee.contains("cancel"))
    return CK::Cancel;
  if (Callee.contains("barrier"))
    return DirKind == "barrier" ? CK::Barrier : CK::BarrierImplicit;
  if (Callee.contains("single"))
    return CK::Single;
  if (Callee.contains("master") || Callee.contains("masked"))
    return CK::Masked;
  if (Callee.contains("critical"))
    return CK::Critical;
  if (Callee.contains("ordered"))
    return CK::Ordered;
  if (Callee.contains("reduce"))
    return CK::Reduction;
  if (Callee.contains("flush"))
    return CK::Flush;
  if (Callee.contains("atomic"))
    return CK::Atomic;
  if (Callee.contains("for_static") || Callee.contains("dispatch") ||
      Callee.contains("dist_"))
    return DirKind.contains("sections")     ? CK::Sections
           : DirKind.contains("distribute") ? CK::Distribute
                                            : CK::Loop;
  return CK::Count;
}

/// clang's ident_t string for a call with no location.
constexpr StringLiteral DefaultLocStr = ";unknown;unknown;0;0;;";

/// TUState::ResetIdents (-O0 without -g): the ";file;func;line;col;;"
/// strings in ident_t were there only to place the sites, which now carry
/// their own records. Every ident_t gets clang's default location back, as
/// in a build without the plugin, so the object does not carry (and the
/// AsmPrinter and assembler do not emit) a string and an ident_t per
/// location. Only at -O0, where nothing merges calls; at -O2 the object
/// keeps clang's usual ident_t, one per location (distinct operands alone
/// would not keep two directives' calls apart: NoMerge.cpp does). Returns
/// whether it changed the module.
bool resetIdents(Module &M) {
  StructType *IdentTy =
      StructType::getTypeByName(M.getContext(), "struct.ident_t");
  if (!IdentTy || IdentTy->getNumElements() != 5)
    return false;
  auto StringOf = [](const ConstantStruct &CS) -> GlobalVariable * {
    auto *SG = dyn_cast<GlobalVariable>(CS.getOperand(4)->stripPointerCasts());
    if (!SG || !SG->hasInitializer())
      return nullptr;
    auto *CDS = dyn_cast<ConstantDataSequential>(SG->getInitializer());
    return CDS && CDS->isCString() ? SG : nullptr;
  };
  GlobalVariable *DefaultStr = nullptr;
  DenseMap<Constant *, GlobalVariable *> Defaults; // by initializer
  std::vector<GlobalVariable *> Located;
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getValueType() != IdentTy || !GV.isConstant() ||
        !GV.hasInitializer() || !GV.hasPrivateLinkage())
      continue;
    auto *CS = dyn_cast<ConstantStruct>(GV.getInitializer());
    GlobalVariable *SG = CS ? StringOf(*CS) : nullptr;
    if (!SG)
      continue;
    if (cast<ConstantDataSequential>(SG->getInitializer())->getAsCString() ==
        DefaultLocStr) {
      DefaultStr = SG;
      Defaults[CS] = &GV;
    } else {
      Located.push_back(&GV);
    }
  }
  if (Located.empty())
    return false;
  LLVMContext &Ctx = M.getContext();
  if (!DefaultStr) {
    DefaultStr = new GlobalVariable(
        M, ArrayType::get(Type::getInt8Ty(Ctx), DefaultLocStr.size() + 1),
        /*isConstant=*/true, GlobalValue::PrivateLinkage,
        ConstantDataArray::getString(Ctx, DefaultLocStr));
    DefaultStr->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    DefaultStr->setAlignment(Align(1));
  }
  SetVector<GlobalVariable *> Strings; // shared by the idents of a location
  for (GlobalVariable *GV : Located) {
    auto *CS = cast<ConstantStruct>(GV->getInitializer());
    // reserved_1, flags, reserved_2 stay; reserved_3 is the string's size.
    Constant *Fields[5] = {
        CS->getOperand(0), CS->getOperand(1), CS->getOperand(2),
        ConstantInt::get(CS->getOperand(3)->getType(), DefaultLocStr.size()),
        DefaultStr};
    Constant *Init = ConstantStruct::get(IdentTy, Fields);
    GlobalVariable *&D = Defaults[Init];
    if (!D) {
      D = new GlobalVariable(M, IdentTy, /*isConstant=*/true, GV->getLinkage(),
                             Init);
      D->setUnnamedAddr(GV->getUnnamedAddr());
      D->setAlignment(GV->getAlign());
    }
    Strings.insert(StringOf(*CS));
    GV->replaceAllUsesWith(D);
    GV->eraseFromParent();
  }
  for (GlobalVariable *SG : Strings) {
    if (SG == DefaultStr)
      continue;
    SG->removeDeadConstantUsers();
    if (SG->use_empty())
      SG->eraseFromParent();
  }
  return true;
}

} // namespace

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

PreservedAnalyses OtterSitePass::run(Module &M, ModuleAnalysisManager &) {
  if (M.getNamedMetadata("otter.sites"))
    return PreservedAnalyses::all(); // already done (never twice)
  M.getOrInsertNamedMetadata("otter.sites");
  if (S->LocationsOn) {
    // Code generation is over: no debug info level, as the user asked.
    S->CGO->setDebugInfo(llvm::codegenoptions::NoDebugInfo);
    S->LocationsOn = false;
  }
  // The frontend's marker attribute asks for a warning at every call that
  // reaches instruction selection: not ours to give.
  for (Function &F : M)
    if (F.getFnAttribute("dontcall-warn").getValueAsString() == SrcLocMarker)
      F.removeFnAttr("dontcall-warn");

  clang::DiagnosticsEngine &Diags = *S->Diags;
  auto DiagLoc = [&](const CallLoc &L) -> clang::SourceLocation {
    if (!S->SM || !L.Known)
      return {};
    auto FE = S->SM->getFileManager().getOptionalFileRef(L.File);
    if (!FE && !L.FullPath.empty())
      FE = S->SM->getFileManager().getOptionalFileRef(L.FullPath);
    if (!FE)
      return {};
    return S->SM->translateFileLineCol(*FE, L.Line, L.Col ? L.Col : 1);
  };

  struct Todo {
    CallBase *CB;
    std::size_t Dir;
  };
  std::vector<Todo> Work;
  bool ReportedNoLoc = false;
  // Per ident_t string: its parsed location (several calls, e.g. a loop's
  // init, fini and barrier, share one).
  DenseMap<const GlobalVariable *, CallLoc> IdentLocs;
  // The calls of site entry points, by block, from the entry points' use
  // lists; visited below in module order (a block's calls sorted when it
  // has several). Walking every instruction of the module touched far more
  // memory than the rest of the pass (-O0 code is mostly loads and stores).
  // Entry points that never reach OMPT with a codeptr_ra are left alone:
  // later passes (OpenMPOpt, GVN at LTO time) merge or drop some of them,
  // which would leave empty brackets behind.
  DenseMap<const BasicBlock *, SmallVector<CallBase *, 2>> SiteCalls;
  for (Function &Callee : M) {
    if (!isSiteEntry(Callee.getName()))
      continue;
    for (Use &U : Callee.uses())
      if (auto *CB = dyn_cast<CallBase>(U.getUser()))
        if (CB->isCallee(&U) && CB->getCalledFunction() == &Callee &&
            !isa<CallBrInst>(CB))
          SiteCalls[CB->getParent()].push_back(CB);
  }

  for (Function &F : M) {
    for (BasicBlock &BB : F) {
      auto Calls = SiteCalls.find(&BB);
      if (Calls == SiteCalls.end())
        continue;
      if (Calls->second.size() > 1)
        llvm::sort(Calls->second, [](const CallBase *A, const CallBase *B) {
          return A->comesBefore(B);
        });
      for (CallBase *CB : Calls->second) {
        StringRef Name = CB->getCalledFunction()->getName();
        bool Kmpc = Name.starts_with("__kmpc_");
        CallLoc L;
        if (Kmpc) {
          if (const GlobalVariable *SG = identString(*CB)) {
            auto [It, New] = IdentLocs.try_emplace(SG);
            if (New)
              locFromIdentString(*SG, It->second);
            L = It->second;
          }
        }
        if (!L.Known)
          locFromSrcLoc(*CB, S->SM, L);
        if (!L.Known)
          locFromDebug(*CB, L);
        if (!L.Known) {
          // Never an error (a build must not fail because of the plugin):
          // the call gets no label, and its events the approximate label
          // of an uninstrumented call.
          if (!ReportedNoLoc) {
            unsigned ID = Diags.getCustomDiagID(
                clang::DiagnosticsEngine::Warning,
                "otter: cannot place the call of '%0' in function '%1' (no "
                "source location in its ident_t, !srcloc or debug "
                "location): its events will be labelled approximately; "
                "-gline-tables-only (or -g) gives exact labels (said once)");
            Diags.Report(ID) << Name << functionDisplayName(F);
            ReportedNoLoc = true;
          }
          continue;
        }
        long D = S->find(L.File, L.Line, L.Col, Name);
        if (D < 0 && !Kmpc) { // an API function
          // An API call the frontend did not see (e.g. from a macro or
          // expanded differently): a pseudo-directive at the call itself.
          Directive PD;
          PD.Kind = Name.str();
          PD.File = L.File;
          PD.Line = PD.EndLine = L.Line;
          PD.Col = PD.EndCol = L.Col;
          PD.Function = functionDisplayName(F);
          PD.Pseudo = true;
          D = static_cast<long>(S->add(std::move(PD)));
        }
        if (D < 0) {
          if (S->Opts.WarnUnmatched && !isQuietEntry(Name)) {
            unsigned ID = Diags.getCustomDiagID(
                clang::DiagnosticsEngine::Warning,
                "otter: OpenMP runtime call '%0' at %1:%2:%3 matches no "
                "OpenMP directive; its events will be labelled approximately");
            Diags.Report(DiagLoc(L), ID)
                << Name << L.File << L.Line << L.Col;
          }
          continue;
        }
        Work.push_back({CB, static_cast<std::size_t>(D)});
      }
    }
  }

  LLVMContext &Ctx = M.getContext();
  FunctionType *VoidFn = FunctionType::get(Type::getVoidTy(Ctx), false);
  const std::uint32_t SiteType =
      site_table::noteType(site_table::Version, site_table::SiteKind);
  const std::uint32_t DirType =
      site_table::noteType(site_table::Version, site_table::DirectiveKind);

  // A directive record's symbol: keyed by its contents, so that equal
  // records from several objects fold into one COMDAT group.
  auto directiveSymbol = [](const Directive &D) {
    std::uint64_t Key = site_table::regionId(D.File, D.Line, D.Col, D.Kind);
    for (const std::string *Str : {&D.Function, &D.Clauses})
      Key = site_table::fnv1a(Str->data(), Str->size(), Key ^ 0xff);
    unsigned Ends[2] = {D.EndLine, D.EndCol};
    Key = site_table::fnv1a(Ends, sizeof Ends, Key);
    return "__otter_d_" + utohexstr(Key, /*LowerCase=*/true, 16);
  };

  // Directive note bodies, built once per directive.
  std::map<std::size_t, std::pair<std::string, std::string>> DirAsm;
  auto directiveAsm = [&](std::size_t Idx)
      -> const std::pair<std::string, std::string> & {
    auto It = DirAsm.find(Idx);
    if (It != DirAsm.end())
      return It->second;
    const Directive &D = S->Dirs[Idx];
    std::uint32_t DescSize = site_table::DirectiveFixedSize +
                             D.Kind.size() + D.File.size() +
                             D.Function.size() + D.Clauses.size() + 4;
    std::string Sym = directiveSymbol(D);
    std::string A;
    A += ".ifndef " + Sym + "\n";
    A += ".pushsection .note.otter,\"aG\",@note," + Sym + ",comdat\n";
    A += ".balign 4\n.weak " + Sym + "\n.hidden " + Sym + "\n" + Sym + ":\n";
    A += formatv(".long 6,{0},{1}\n", DescSize, DirType).str();
    A += ".asciz \"Otter\"\n.balign 4\n";
    A += formatv(".quad 0x{0}\n.long {1},{2},{3},{4},0\n",
                 utohexstr(D.RegionId, true), D.Line,
                 D.Col, D.EndLine, D.EndCol)
             .str();
    appendAsciz(A, D.Kind);
    appendAsciz(A, D.File);
    appendAsciz(A, D.Function);
    appendAsciz(A, D.Clauses);
    A += ".balign 4\n.popsection\n.endif\n";
    return DirAsm.emplace(Idx, std::make_pair(std::move(A), Sym))
        .first->second;
  };

  // The filter file's record (otter/site_table.h, FilterKind), once per
  // output (COMDAT keyed by its text), when a site of this module is
  // filtered.
  std::string FilterAsm;
  if (const filter_rules::RuleSet *FS = S->Opts.Filter.get()) {
    std::string Text = FS->Source + ": " + FS->text();
    std::string Sym =
        "__otter_f_" +
        utohexstr(site_table::fnv1a(Text.data(), Text.size()), true, 16);
    FilterAsm = ".ifndef " + Sym + "\n.pushsection .note.otter,\"aG\",@note," +
                Sym + ",comdat\n.balign 4\n.weak " + Sym + "\n.hidden " + Sym +
                "\n" + Sym + ":\n" +
                formatv(".long 6,{0},{1}\n", Text.size() + 1,
                        site_table::noteType(site_table::Version,
                                             site_table::FilterKind))
                    .str() +
                ".asciz \"Otter\"\n.balign 4\n";
    appendAsciz(FilterAsm, Text);
    FilterAsm += ".balign 4\n.popsection\n.endif\n";
  }
  const std::uint32_t FilteredType =
      site_table::noteType(site_table::Version, site_table::FilteredSiteKind);
  bool AnyFiltered = false;

  // Machine-level labels (MachineSites.cpp): the site's tag carries the
  // record of its directive (or of the filter), written once per output.
  // Operands every directive's tag shares, made once.
  Metadata *TagName = nullptr, *DirTagKind = nullptr, *DirNoteType = nullptr;
  auto makeMachineTag = [&](bool Filtered, std::size_t DirIdx) -> MDNode * {
    auto Str = [&](StringRef V) { return MDString::get(Ctx, V); };
    auto Type = [&](site_table::Kind K) {
      return ConstantAsMetadata::get(ConstantInt::get(
          Type::getInt32Ty(Ctx), site_table::noteType(site_table::Version, K)));
    };
    if (Filtered) {
      std::string Text = S->Opts.Filter->Source + ": " + S->Opts.Filter->text();
      std::string Sym =
          "__otter_f_" +
          utohexstr(site_table::fnv1a(Text.data(), Text.size()), true, 16);
      Text.push_back('\0');
      return MDNode::get(Ctx, {Str(MachineSiteTag), Str("f"), Str(Sym),
                               Type(site_table::FilterKind), Str(Text)});
    }
    const Directive &D = S->Dirs[DirIdx];
    std::string Desc;
    Desc.reserve(site_table::DirectiveFixedSize + D.Kind.size() +
                 D.File.size() + D.Function.size() + D.Clauses.size() + 4);
    auto Put = [&](std::uint64_t V, unsigned Bytes) {
      for (unsigned I = 0; I < Bytes; ++I)
        Desc.push_back(static_cast<char>(V >> (8 * I)));
    };
    Put(D.RegionId, 8);
    for (unsigned V : {D.Line, D.Col, D.EndLine, D.EndCol, 0u})
      Put(V, 4);
    for (const std::string *Str : {&D.Kind, &D.File, &D.Function, &D.Clauses}) {
      Desc += *Str;
      Desc.push_back('\0');
    }
    if (!TagName) {
      TagName = Str(MachineSiteTag);
      DirTagKind = Str("d");
      DirNoteType = Type(site_table::DirectiveKind);
    }
    // Distinct: one node per directive already (machineTag below), no need
    // for the context to hash and unique it.
    return MDNode::getDistinct(
        Ctx,
        {TagName, DirTagKind,
         // A private (.L) symbol: the record goes outside any group
         // (MachineSites.cpp).
         Str(D.MainFile ? ".L" + directiveSymbol(D) : directiveSymbol(D)),
         DirNoteType, Str(Desc)});
  };
  DenseMap<long, MDNode *> MachineTags; // by directive, -1: filtered
  auto machineTag = [&](bool Filtered, std::size_t DirIdx) -> MDNode * {
    MDNode *&Tag = MachineTags[Filtered ? -1 : static_cast<long>(DirIdx)];
    if (!Tag)
      Tag = makeMachineTag(Filtered, DirIdx);
    return Tag;
  };
  bool GCMarked = false;
  std::vector<std::pair<CallBase *, MDNode *>> MachineTagged;

  auto Report = [&](CallBase &CB, const Directive &D, bool Filtered) {
    if (!S->Opts.Verbose)
      return;
    CallLoc L;
    if (!locFromIdent(CB, L) && !locFromSrcLoc(CB, S->SM, L))
      locFromDebug(CB, L);
    errs() << "otter: site '" << CB.getCalledFunction()->getName() << "' in '"
           << functionDisplayName(*CB.getFunction()) << "' at " << L.File
           << ":" << L.Line << ":" << L.Col << " -> '" << D.Kind << "' at "
           << D.File << ":" << D.Line << ":" << D.Col
           << (Filtered ? " (filtered)" : "") << "\n";
  };

  std::set<std::size_t> ModuleDirs;
  unsigned SiteNo = 0;
  for (const Todo &T : Work) {
    CallBase *CB = T.CB;
    Function &F = *CB->getFunction();
    const Directive &D = S->Dirs[T.Dir];
    // Excluded by the filter file: a filtered-site record, no directive.
    const filter_rules::RuleSet *FS = S->Opts.Filter.get();
    bool Filtered = false;
    if (FS) {
      filter_rules::ConstructKind CK =
          constructKindOfCall(CB->getCalledFunction()->getName(), D.Kind);
      Filtered =
          FS->excludes(D.File, D.Function) ||
          (CK != filter_rules::ConstructKind::Count && FS->kindExcluded(CK));
    }
    if (S->MachineLabels) {
      if (Filtered)
        AnyFiltered = true;
      if (auto *CI = dyn_cast<CallInst>(CB))
        CI->setTailCallKind(CallInst::TCK_NoTail);
      // Set after StripDebugInfo below, which drops !heapallocsite.
      MachineTagged.push_back({CB, machineTag(Filtered, T.Dir)});
      // One function with the strategy makes the AsmPrinter call ours.
      if (!GCMarked && !F.hasGC()) {
        F.setGC(MachineSiteGC);
        GCMarked = true;
      }
      Report(*CB, D, Filtered);
      continue;
    }
    // Numeric local labels, unique per site in this module.
    unsigned LStart = 700000 + 2 * SiteNo, LEnd = LStart + 1;
    ++SiteNo;

    std::string Group;
    if (const Comdat *C = F.getComdat())
      if (isPlainSymbol(C->getName()))
        Group = C->getName().str();

    std::string After = formatv("{0}:\n", LEnd).str();
    if (Filtered) {
      AnyFiltered = true;
      if (S->PrepareForLTO)
        After += FilterAsm;
    } else if (S->PrepareForLTO) {
      After += directiveAsm(T.Dir).first;
    } else {
      ModuleDirs.insert(T.Dir);
    }
    if (Group.empty())
      After += ".pushsection .note.otter,\"a\",@note\n";
    else
      After += ".pushsection .note.otter,\"aG\",@note," + Group + ",comdat\n";
    if (Filtered)
      After +=
          formatv(".balign 4\n.long 6,{0},{1}\n.asciz \"Otter\"\n"
                  ".balign 4\n.long {2}b-.\n.long {3}b-.\n"
                  ".popsection",
                  site_table::FilteredSiteDescSize, FilteredType, LStart, LEnd)
              .str();
    else
      After += formatv(".balign 4\n.long 6,{0},{1}\n.asciz \"Otter\"\n"
                       ".balign 4\n.long {2}b-.\n.long {3}b-.\n.long {4}-.\n"
                       ".popsection",
                       site_table::SiteDescSize, SiteType, LStart, LEnd,
                       directiveAsm(T.Dir).second)
                   .str();

    auto MakeAsm = [&](const std::string &Text) {
      InlineAsm *IA = InlineAsm::get(VoidFn, Text, "", /*sideeffect=*/true);
      CallInst *C = CallInst::Create(IA);
      C->addFnAttr(Attribute::NoUnwind);
      C->setDebugLoc(CB->getDebugLoc());
      return C;
    };
    CallInst *Before = MakeAsm(formatv("{0}:", LStart).str());
    Before->insertBefore(CB);
    CallInst *AfterI = MakeAsm(After);
    if (auto *CI = dyn_cast<CallInst>(CB)) {
      CI->setTailCallKind(CallInst::TCK_NoTail);
      AfterI->insertAfter(CI);
    } else if (auto *II = dyn_cast<InvokeInst>(CB)) {
      BasicBlock *ND = II->getNormalDest();
      if (!ND->getSinglePredecessor())
        ND = SplitEdge(II->getParent(), ND);
      AfterI->insertBefore(&*ND->getFirstInsertionPt());
    }

    Report(*CB, D, Filtered);
  }

  // Without LTO nothing after this pass moves code between modules: each
  // directive record goes once into module-level asm (cheaper to assemble).
  if (S->MachineLabels)
    ModuleDirs.clear(); // written with the sites (MachineSites.cpp)
  for (std::size_t Idx : ModuleDirs)
    M.appendModuleInlineAsm(directiveAsm(Idx).first);
  if (AnyFiltered && !S->PrepareForLTO && !S->MachineLabels)
    M.appendModuleInlineAsm(FilterAsm);
  bool Reset = S->ResetIdents && resetIdents(M);
  if (S->ForcedDebugInfo && !S->UserDebugInfo)
    StripDebugInfo(M);
  for (auto [CB, Tag] : MachineTagged)
    CB->setMetadata("heapallocsite", Tag);
  // MergeFunctions (clang -fmerge-functions) runs after this pass and
  // ignores the tags: two functions whose only difference is their sites'
  // directives (the same API call on two lines) would become one, with
  // one's labels. It compares function attributes, so each function with
  // sites gets one of its own. (Sites labelled with asm differ in their
  // asm already.)
  if (S->MergeFunctions) {
    std::set<Function *> WithSites;
    for (auto [CB, Tag] : MachineTagged)
      if (WithSites.insert(CB->getFunction()).second)
        CB->getFunction()->addFnAttr("otter-sites",
                                     CB->getFunction()->getName());
  }
  return Work.empty() && !S->ForcedDebugInfo && !Reset
             ? PreservedAnalyses::all()
             : PreservedAnalyses::none();
}

} // namespace otter::plugin
