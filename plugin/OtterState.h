//===- plugin/OtterState.h - State shared by the AST action and the pass -===//
//
// One TUState per compiled source file (one clang process may compile
// several). The AST visitor fills the directive table; the LLVM pass, which
// runs later in the same CompilerInstance, looks runtime call sites up in it
// and writes the site table (include/otter/site_table.h).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_PLUGIN_OTTERSTATE_H
#define OTTER_PLUGIN_OTTERSTATE_H

#include "otter/filter_rules.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class CodeGenOptions;
class OMPExecutableDirective;
class SourceManager;
}

namespace otter::plugin {

struct Options {
  bool Verbose = false;
  bool WarnUnmatched = true;
  /// -fplugin-arg-otter-filter=FILE (docs/filter.md): the call sites it
  /// excludes get a filtered-site record and no label. Null: none.
  std::shared_ptr<const filter_rules::RuleSet> Filter;
};

/// A source directive, or a pseudo-directive for an OpenMP API call that
/// reaches OMPT (kind = the function name, e.g. "omp_set_lock").
struct Directive {
  std::string Kind, File, Function, Clauses;
  unsigned Line = 0, Col = 0, EndLine = 0, EndCol = 0;
  std::uint64_t RegionId = 0;
  bool Pseudo = false;
  /// Written in the compiled file itself (not an #include): no other object
  /// has this record, so its machine-label record needs no COMDAT group.
  bool MainFile = false;
  clang::SourceLocation Loc; // for diagnostics
};

using LineCol = std::pair<unsigned, unsigned>;

struct TUState {
  Options Opts;
  /// The user asked for debug info; otherwise the plugin switched on line
  /// tables itself and the pass strips them again.
  bool UserDebugInfo = false;
  bool ForcedDebugInfo = false;
  /// Bitcode for (Thin)LTO: every site's asm must carry its directive
  /// record (later cross-module inlining); otherwise once per module.
  bool PrepareForLTO = false;
  /// Clang writes the object (or assembly) itself for x86-64 ELF: sites are
  /// labelled at assembly printing time (MachineSites.cpp), not with asm.
  bool MachineLabels = false;
  /// clang -fmerge-functions: LLVM's MergeFunctions runs after the site
  /// pass, which then keeps it from merging functions with sites
  /// (SitePass.cpp).
  bool MergeFunctions = false;
  /// Without -g and with MachineLabels: no line tables; call locations come
  /// from ident_t (clang switched to LocTrackingOnly once its code generator
  /// exists, see OtterPlugin.cpp) and !srcloc (API calls).
  bool LateLocations = false;
  bool LocationsOn = false;
  /// LateLocations at -O0: once the sites are placed, every ident_t gets
  /// clang's default location back (ResetIdents.cpp).
  bool ResetIdents = false;
  clang::CodeGenOptions *CGO = nullptr;
  clang::DiagnosticsEngine *Diags = nullptr;
  clang::SourceManager *SM = nullptr;
  std::string MainFile;

  std::vector<Directive> Dirs;
  /// file -> begin line:col -> directives starting there (several when
  /// expanded from one macro).
  std::map<std::string, std::map<LineCol, std::vector<std::size_t>>> ByFile;
  std::map<std::string, std::vector<std::string>> FilesByBaseName;

  /// Adds (or finds) a directive; returns its index.
  std::size_t add(Directive D);
  /// The directive whose range contains File:Line:Col and whose kind suits
  /// Callee; -1 if none.
  long find(const std::string &File, unsigned Line, unsigned Col,
            llvm::StringRef Callee) const;
  /// find()'s kind checks, memoised: callee -> directive kind -> suits.
  mutable llvm::StringMap<llvm::StringMap<bool>> SuitsMemo;
  /// Directives moved to a location they share with others of their
  /// function (-O0 without line tables, SharedLocations.cpp), by file and
  /// line:col of that location: each with the entry families it may call,
  /// pairwise disjoint. find() places a call there by its callee's family.
  std::map<std::string,
           std::map<LineCol, std::vector<std::pair<std::size_t, unsigned>>>>
      Shared;
};

/// The family of a __kmpc_* entry point (a bit), 0 if none is listed
/// (SharedLocations.cpp).
unsigned entryFamily(llvm::StringRef Callee);
/// The entry families a directive may call at its own location, clauses
/// included; 0 if it must keep a location of its own (SharedLocations.cpp).
unsigned directiveFamilies(const clang::OMPExecutableDirective &E);

/// The module pass (SitePass.cpp).
class OtterSitePass : public llvm::PassInfoMixin<OtterSitePass> {
public:
  explicit OtterSitePass(std::shared_ptr<TUState> S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::shared_ptr<TUState> S;
};

/// Without line tables (TUState::LateLocations), at the start of the
/// pipeline: inlines otter.h's annotation functions into their callers and
/// gives the API calls they make on the caller's behalf the caller's !srcloc
/// (AnnotationPass.cpp).
class OtterAnnotationPass : public llvm::PassInfoMixin<OtterAnnotationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// At the start of the optimisation pipeline (not at -O0): marks the calls
/// the site pass will bracket `nomerge`, so that no optimisation merges two
/// directives' calls into one site (NoMerge.cpp).
class OtterNoMergePass : public llvm::PassInfoMixin<OtterNoMergePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// TUState::ResetIdents (-O0 without -g), after the sites are placed:
/// every ident_t gets clang's default location back (ResetIdents.cpp).
/// Returns whether it changed the module.
bool resetIdents(llvm::Module &M);

/// The GC strategy name that brings in MachineSites.cpp's AsmPrinter
/// handler, and the first operand of a site call's !heapallocsite tag.
extern const char MachineSiteGC[];
extern const char MachineSiteTag[];
/// The message of the implicit warning attribute that makes clang put
/// !srcloc on calls (OtterPlugin.cpp); "dontcall-warn" with it is removed.
extern const char SrcLocMarker[];

/// API functions whose call sites are bracketed: OpenMP API functions whose
/// OMPT callbacks report codeptr_ra, and the MPI functions the wrapper
/// library records (otter/mpi_functions.def; their label is the call).
bool isOmptApiFunction(llvm::StringRef Name);
/// __kmpc_* entry points that never report a codeptr_ra to a tool: not
/// sites (SitePass.cpp).
bool isQuietEntry(llvm::StringRef Name);
/// The callees whose calls get a site (SitePass.cpp brackets them,
/// NoMerge.cpp keeps optimisations from merging them): __kmpc_* entry
/// points but the quiet ones, and the API functions above.
bool isSiteEntry(llvm::StringRef Name);
/// libomptarget's entry points of target constructs (sites, with an ident_t).
bool isTargetEntry(llvm::StringRef Name);

} // namespace otter::plugin

#endif // OTTER_PLUGIN_OTTERSTATE_H
