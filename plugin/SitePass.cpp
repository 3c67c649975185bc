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

#include <fnmatch.h>
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

/// libomptarget's entry points whose return address is the codeptr_ra of
/// a target construct's callbacks (docs/offload.md): the kernel launch and
/// the data constructs (target data, enter/exit data, update). Their first
/// argument is an ident_t, as for __kmpc_ calls.
bool isTargetEntry(StringRef Name) {
  static const char *const Entries[] = {
      "__tgt_target_kernel",
      "__tgt_target_data_begin_mapper",
      "__tgt_target_data_end_mapper",
      "__tgt_target_data_update_mapper",
      "__tgt_target_data_begin_nowait_mapper",
      "__tgt_target_data_end_nowait_mapper",
      "__tgt_target_data_update_nowait_mapper",
  };
  for (const char *E : Entries)
    if (Name == E)
      return true;
  return false;
}

bool isSiteEntry(StringRef Name) {
  if (isTargetEntry(Name))
    return true;
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

/// One row of otter/constructs.def's OTTER_PLUGIN_CALL table.
struct CallKind {
  const char *Callee, *Directive; // globs; nullptr: no call reports it
  filter_rules::ConstructKind Kind;
};
constexpr CallKind CallKinds[] = {
#define OTTER_PLUGIN_CALL(Callee, Directive, Filter)                           \
  {Callee, Directive, filter_rules::ConstructKind::Filter},
#include "otter/constructs.def"
};

/// Whether the table has a row for every filter kind: a kind added to
/// constructs.def must say which calls report it (or that none does).
constexpr bool everyFilterKindHasACall() {
  for (unsigned K = 0; K < unsigned(filter_rules::ConstructKind::Count); ++K) {
    bool Found = false;
    for (const CallKind &C : CallKinds)
      Found |= unsigned(C.Kind) == K;
    if (!Found)
      return false;
  }
  return true;
}
static_assert(everyFilterKindHasACall(),
              "otter/constructs.def: a filter kind without an "
              "OTTER_PLUGIN_CALL row");

/// The construct kind (otter/filter_rules.h) whose events a runtime call
/// reports, as OTTER prints it, for the filter's kind rules; Count: none.
/// The first OTTER_PLUGIN_CALL row (otter/constructs.def) that matches.
filter_rules::ConstructKind constructKindOfCall(StringRef Callee,
                                                StringRef DirKind) {
  std::string Name = Callee.str(), Dir = DirKind.str();
  for (const CallKind &C : CallKinds)
    if (C.Callee && fnmatch(C.Callee, Name.c_str(), 0) == 0 &&
        fnmatch(C.Directive, Dir.c_str(), 0) == 0)
      return C.Kind;
  return filter_rules::ConstructKind::Count;
}

} // namespace

namespace {

/// A call to bracket and the directive it belongs to.
struct Todo {
  CallBase *CB;
  std::size_t Dir;
};

/// Where a call's location points, for a diagnostic; none if unknown.
clang::SourceLocation diagLocation(const TUState &S, const CallLoc &L) {
  if (!S.SM || !L.Known)
    return {};
  auto FE = S.SM->getFileManager().getOptionalFileRef(L.File);
  if (!FE && !L.FullPath.empty())
    FE = S.SM->getFileManager().getOptionalFileRef(L.FullPath);
  if (!FE)
    return {};
  return S.SM->translateFileLineCol(*FE, L.Line, L.Col ? L.Col : 1);
}

//===----------------------------------------------------------------------===//
// Finding the sites.
//===----------------------------------------------------------------------===//

/// The calls of site entry points, by block, from the entry points' use
/// lists; visited in module order (a block's calls sorted when it has
/// several). Walking every instruction of the module touched far more
/// memory than the rest of the pass (-O0 code is mostly loads and stores).
/// Entry points that never reach OMPT with a codeptr_ra are left alone:
/// later passes (OpenMPOpt, GVN at LTO time) merge or drop some of them,
/// which would leave empty brackets behind.
DenseMap<const BasicBlock *, SmallVector<CallBase *, 2>>
siteCallsByBlock(Module &M) {
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
  return SiteCalls;
}

/// Every site call of M with the directive it belongs to, in module order.
/// A call with no location or no directive is warned about (never an
/// error) and left out; an API call the frontend did not see gets a
/// pseudo-directive of its own.
std::vector<Todo> findSites(Module &M, TUState &S) {
  clang::DiagnosticsEngine &Diags = *S.Diags;
  std::vector<Todo> Work;
  bool ReportedNoLoc = false;
  // Per ident_t string: its parsed location (several calls, e.g. a loop's
  // init, fini and barrier, share one).
  DenseMap<const GlobalVariable *, CallLoc> IdentLocs;
  auto SiteCalls = siteCallsByBlock(M);
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
        bool Kmpc = Name.starts_with("__kmpc_") || isTargetEntry(Name);
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
          locFromSrcLoc(*CB, S.SM, L);
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
        long D = S.find(L.File, L.Line, L.Col, Name);
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
          D = static_cast<long>(S.add(std::move(PD)));
        }
        if (D < 0) {
          if (S.Opts.WarnUnmatched && !isQuietEntry(Name)) {
            unsigned ID = Diags.getCustomDiagID(
                clang::DiagnosticsEngine::Warning,
                "otter: OpenMP runtime call '%0' at %1:%2:%3 matches no "
                "OpenMP directive; its events will be labelled approximately");
            Diags.Report(diagLocation(S, L), ID)
                << Name << L.File << L.Line << L.Col;
          }
          continue;
        }
        Work.push_back({CB, static_cast<std::size_t>(D)});
      }
    }
  }
  return Work;
}

//===----------------------------------------------------------------------===//
// The records: directives, the filter, machine-label tags.
//===----------------------------------------------------------------------===//

/// The records the sites point at, each made once per module: a
/// directive's note (asm, in a COMDAT group keyed by its contents), the
/// filter file's note, and the machine-label tags (MachineSites.cpp).
class SiteRecords {
public:
  SiteRecords(Module &M, const TUState &S) : Ctx(M.getContext()), S(S) {
    makeFilterAsm();
  }

  /// A directive record's symbol: keyed by its contents, so that equal
  /// records from several objects fold into one COMDAT group.
  static std::string directiveSymbol(const Directive &D) {
    std::uint64_t Key = site_table::regionId(D.File, D.Line, D.Col, D.Kind);
    for (const std::string *Str : {&D.Function, &D.Clauses})
      Key = site_table::fnv1a(Str->data(), Str->size(), Key ^ 0xff);
    unsigned Ends[2] = {D.EndLine, D.EndCol};
    Key = site_table::fnv1a(Ends, sizeof Ends, Key);
    return "__otter_d_" + utohexstr(Key, /*LowerCase=*/true, 16);
  }

  /// Directive Idx's note body and its symbol, built once per directive.
  const std::pair<std::string, std::string> &directiveAsm(std::size_t Idx) {
    auto It = DirAsm.find(Idx);
    if (It != DirAsm.end())
      return It->second;
    const Directive &D = S.Dirs[Idx];
    std::uint32_t DescSize = site_table::DirectiveFixedSize +
                             D.Kind.size() + D.File.size() +
                             D.Function.size() + D.Clauses.size() + 4;
    std::string Sym = directiveSymbol(D);
    std::string A;
    A += ".ifndef " + Sym + "\n";
    A += ".pushsection .note.otter,\"aG\",@note," + Sym + ",comdat\n";
    A += ".balign 4\n.weak " + Sym + "\n.hidden " + Sym + "\n" + Sym + ":\n";
    A += formatv(".long 6,{0},{1}\n", DescSize,
                 site_table::noteType(site_table::Version,
                                      site_table::DirectiveKind))
             .str();
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
  }

  /// The filter file's record (otter/site_table.h, FilterKind), for when a
  /// site of this module is filtered; empty without a filter file.
  const std::string &filterAsm() const { return FilterAsm; }

  /// A site's machine-label tag: it carries the record of its directive
  /// (or of the filter), written once per output. One per directive.
  MDNode *machineTag(bool Filtered, std::size_t DirIdx) {
    MDNode *&Tag = MachineTags[Filtered ? -1 : static_cast<long>(DirIdx)];
    if (!Tag)
      Tag = makeMachineTag(Filtered, DirIdx);
    return Tag;
  }

private:
  void makeFilterAsm() {
    const filter_rules::RuleSet *FS = S.Opts.Filter.get();
    if (!FS)
      return;
    // Once per output (COMDAT keyed by its text).
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

  MDString *str(StringRef V) { return MDString::get(Ctx, V); }
  Metadata *noteTypeOf(site_table::Kind K) {
    return ConstantAsMetadata::get(ConstantInt::get(
        Type::getInt32Ty(Ctx), site_table::noteType(site_table::Version, K)));
  }

  MDNode *makeMachineTag(bool Filtered, std::size_t DirIdx) {
    if (Filtered) {
      std::string Text = S.Opts.Filter->Source + ": " + S.Opts.Filter->text();
      std::string Sym =
          "__otter_f_" +
          utohexstr(site_table::fnv1a(Text.data(), Text.size()), true, 16);
      Text.push_back('\0');
      return MDNode::get(Ctx, {str(MachineSiteTag), str("f"), str(Sym),
                               noteTypeOf(site_table::FilterKind), str(Text)});
    }
    const Directive &D = S.Dirs[DirIdx];
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
    for (const std::string *Field :
         {&D.Kind, &D.File, &D.Function, &D.Clauses}) {
      Desc += *Field;
      Desc.push_back('\0');
    }
    // Operands every directive's tag shares, made once.
    if (!TagName) {
      TagName = str(MachineSiteTag);
      DirTagKind = str("d");
      DirNoteType = noteTypeOf(site_table::DirectiveKind);
    }
    // Distinct: one node per directive already (machineTag), no need for
    // the context to hash and unique it.
    return MDNode::getDistinct(
        Ctx,
        {TagName, DirTagKind,
         // A private (.L) symbol: the record goes outside any group
         // (MachineSites.cpp).
         str(D.MainFile ? ".L" + directiveSymbol(D) : directiveSymbol(D)),
         DirNoteType, str(Desc)});
  }

  LLVMContext &Ctx;
  const TUState &S;
  std::map<std::size_t, std::pair<std::string, std::string>> DirAsm;
  std::string FilterAsm;
  DenseMap<long, MDNode *> MachineTags; // by directive, -1: filtered
  Metadata *TagName = nullptr, *DirTagKind = nullptr, *DirNoteType = nullptr;
};

//===----------------------------------------------------------------------===//
// Labelling a site with asm.
//===----------------------------------------------------------------------===//

/// Puts numbered local labels around CB (site SiteNo of the module) and,
/// after it, its site record (or filtered-site record) with, under LTO, the
/// record it points at. ModuleDirs collects the directives to write once
/// into module-level asm.
void bracketWithAsm(CallBase *CB, std::size_t Dir, bool Filtered,
                    unsigned SiteNo, const TUState &S, SiteRecords &Records,
                    std::set<std::size_t> &ModuleDirs) {
  Function &F = *CB->getFunction();
  // Numeric local labels, unique per site in this module.
  unsigned LStart = 700000 + 2 * SiteNo, LEnd = LStart + 1;

  std::string Group;
  if (const Comdat *C = F.getComdat())
    if (isPlainSymbol(C->getName()))
      Group = C->getName().str();

  std::string After = formatv("{0}:\n", LEnd).str();
  if (Filtered) {
    if (S.PrepareForLTO)
      After += Records.filterAsm();
  } else if (S.PrepareForLTO) {
    After += Records.directiveAsm(Dir).first;
  } else {
    ModuleDirs.insert(Dir);
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
                site_table::FilteredSiteDescSize,
                site_table::noteType(site_table::Version,
                                     site_table::FilteredSiteKind),
                LStart, LEnd)
            .str();
  else
    After += formatv(".balign 4\n.long 6,{0},{1}\n.asciz \"Otter\"\n"
                     ".balign 4\n.long {2}b-.\n.long {3}b-.\n.long {4}-.\n"
                     ".popsection",
                     site_table::SiteDescSize,
                     site_table::noteType(site_table::Version,
                                          site_table::SiteKind),
                     LStart, LEnd, Records.directiveAsm(Dir).second)
                 .str();

  FunctionType *VoidFn =
      FunctionType::get(Type::getVoidTy(CB->getContext()), false);
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
}

/// -fplugin-arg-otter-verbose: one line per site.
void reportSite(const TUState &S, CallBase &CB, const Directive &D,
                bool Filtered) {
  if (!S.Opts.Verbose)
    return;
  CallLoc L;
  if (!locFromIdent(CB, L) && !locFromSrcLoc(CB, S.SM, L))
    locFromDebug(CB, L);
  errs() << "otter: site '" << CB.getCalledFunction()->getName() << "' in '"
         << functionDisplayName(*CB.getFunction()) << "' at " << L.File << ":"
         << L.Line << ":" << L.Col << " -> '" << D.Kind << "' at " << D.File
         << ":" << D.Line << ":" << D.Col << (Filtered ? " (filtered)" : "")
         << "\n";
}

/// Whether the filter file excludes the site of CB in directive D.
bool siteFiltered(const TUState &S, const CallBase &CB, const Directive &D) {
  const filter_rules::RuleSet *FS = S.Opts.Filter.get();
  if (!FS)
    return false;
  filter_rules::ConstructKind CK =
      constructKindOfCall(CB.getCalledFunction()->getName(), D.Kind);
  return FS->excludes(D.File, D.Function) ||
         (CK != filter_rules::ConstructKind::Count && FS->kindExcluded(CK));
}

} // namespace

//===----------------------------------------------------------------------===//
// The pass.
//===----------------------------------------------------------------------===//

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

  std::vector<Todo> Work = findSites(M, *S);
  SiteRecords Records(M, *S);
  bool AnyFiltered = false;
  bool GCMarked = false;
  std::vector<std::pair<CallBase *, MDNode *>> MachineTagged;
  std::set<std::size_t> ModuleDirs;
  unsigned SiteNo = 0;
  for (const Todo &T : Work) {
    CallBase *CB = T.CB;
    Function &F = *CB->getFunction();
    const Directive &D = S->Dirs[T.Dir];
    // Excluded by the filter file: a filtered-site record, no directive.
    bool Filtered = siteFiltered(*S, *CB, D);
    AnyFiltered |= Filtered;
    if (S->MachineLabels) {
      // Machine-level labels (MachineSites.cpp).
      if (auto *CI = dyn_cast<CallInst>(CB))
        CI->setTailCallKind(CallInst::TCK_NoTail);
      // Set after StripDebugInfo below, which drops !heapallocsite.
      MachineTagged.push_back({CB, Records.machineTag(Filtered, T.Dir)});
      // One function with the strategy makes the AsmPrinter call ours.
      if (!GCMarked && !F.hasGC()) {
        F.setGC(MachineSiteGC);
        GCMarked = true;
      }
    } else {
      bracketWithAsm(CB, T.Dir, Filtered, SiteNo++, *S, Records, ModuleDirs);
    }
    reportSite(*S, *CB, D, Filtered);
  }

  // Without LTO nothing after this pass moves code between modules: each
  // directive record goes once into module-level asm (cheaper to assemble).
  if (S->MachineLabels)
    ModuleDirs.clear(); // written with the sites (MachineSites.cpp)
  for (std::size_t Idx : ModuleDirs)
    M.appendModuleInlineAsm(Records.directiveAsm(Idx).first);
  // The runtime applies the filter's kind rules to the whole program's
  // events (docs/filter.md): an object with kind rules and no filtered site
  // (parallel regions only, under `exclude kind barrier_implicit`) still
  // names its filter. (With filtered sites, the record goes with them.)
  bool KindRecord = !AnyFiltered && !Work.empty() && S->Opts.Filter &&
                    S->Opts.Filter->has(filter_rules::Field::Kind);
  if ((AnyFiltered && !S->PrepareForLTO && !S->MachineLabels) || KindRecord)
    M.appendModuleInlineAsm(Records.filterAsm());
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
