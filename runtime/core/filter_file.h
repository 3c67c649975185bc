//===- core/filter_file.h - Filter files into the filter stage ---*- C++
//-*-===//
//
// What a run filters, from its two sources (docs/filter.md): the filter
// file OTTER_FILTER names (read here with otter/filter_rules.h, compiled
// into filter::Rules) and the call sites the plugin's filter excluded at
// compile time (the site table's filtered sites, which the runtime drops
// by code address). The session installs the result before any thread
// records; the graph and the trace carry its one-line description.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_FILTER_FILE_H
#define OTTER_CORE_FILTER_FILE_H

#include "core/filter.h"
#include "otter/filter_rules.h"

#include <functional>
#include <string>
#include <vector>

namespace otter::filter {

/// Kind rules of Set into Groups and Subs of R (file and function rules
/// are left to codeRule()).
void addKindRules(const filter_rules::RuleSet &Set, Rules &R);

/// The kind rules of a compile-time filter record's text (site_table.h,
/// FilterKind: "PATH: exclude kind taskwait; ..."), into Out. False: it
/// has none (or does not parse).
bool compileKindRules(const std::string &Text, filter_rules::RuleSet &Out);

/// The DropCode rule of a run: drops an address when FilteredSite says the
/// plugin filtered its call site, or when Set's file or function rules
/// exclude the directive of its label (Resolve: the site index; only exact
/// and fallback labels, from the plugin, name a directive's file and
/// function). Null when neither can drop anything (UseSet false, no
/// filtered sites).
std::function<bool(std::uint64_t)>
codeRule(const filter_rules::RuleSet &Set, bool UseSet,
         std::function<SourceLabel(std::uint64_t)> Resolve,
         std::function<bool(std::uint64_t)> FilteredSite, bool AnyFilteredSite);

/// The whole of a run's filtering, as the session sets it up.
struct RunFilter {
  Rules R;
  /// One line for graph headers and the trace ("" : nothing filtered):
  /// "run time OTTER_FILTER=f.txt: exclude kind taskwait | compile time
  /// src.filter: exclude function solver_*".
  std::string Text;
  /// One-line warnings to print (a bad file, rules that cannot apply).
  std::vector<std::string> Warnings;
};

/// Reads FilterFile (empty: none), combines it with the compile-time
/// filters (CompileTexts: the site table's filter records), and gives the
/// rules. Never fails: a bad file gives a warning and is ignored.
/// PluginLabels: whether any loaded object has a site table (else file and
/// function rules cannot apply, and a warning says so).
RunFilter readRunFilter(const std::string &FilterFile,
                        const std::vector<std::string> &CompileTexts,
                        std::size_t FilteredSites, bool PluginLabels,
                        std::function<SourceLabel(std::uint64_t)> Resolve,
                        std::function<bool(std::uint64_t)> FilteredSite);

} // namespace otter::filter

#endif // OTTER_CORE_FILTER_FILE_H
