//===- graph/names.cpp - Names of node and edge kinds, labels and flags -===//
//
// The spellings used in every output file and in the docs (event kinds
// are named by their row in otter/event_kinds.def). Changing one is a
// format change: update docs/graph.md and the tests.
//
//===----------------------------------------------------------------------===//
#include "graph/graph.h"
#include "otter/events.h"
#include "otter/mpi.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace otter {

const char *nodeKindName(NodeKind K) {
  static constexpr const char *Names[] = {
#define OTTER_NODE_KIND(Kind, Name, Shape, Fill) Name,
#include "otter/constructs.def"
  };
  static_assert(std::size(Names) == std::size_t(NodeKind::Count));
  return std::size_t(K) < std::size(Names) ? Names[std::size_t(K)]
                                           : "unknown";
}

namespace {
/// Node kind names are what every output's `kind` column holds: no two
/// alike, none empty (a reader maps them back).
constexpr bool nodeKindNamesDistinct() {
  constexpr std::string_view Names[] = {
#define OTTER_NODE_KIND(Kind, Name, Shape, Fill) Name,
#include "otter/constructs.def"
  };
  for (std::size_t I = 0; I < std::size(Names); ++I) {
    if (Names[I].empty())
      return false;
    for (std::size_t J = 0; J < I; ++J)
      if (Names[I] == Names[J])
        return false;
  }
  return true;
}
static_assert(nodeKindNamesDistinct(),
              "otter/constructs.def: node kind names must be distinct");
} // namespace

const char *edgeKindName(EdgeKind K) {
  switch (K) {
  case EdgeKind::Create: return "create";
  case EdgeKind::Sync: return "sync";
  case EdgeKind::Dependence: return "dependence";
  case EdgeKind::Scope: return "scope";
  case EdgeKind::Count: break;
  }
  return "unknown";
}

std::string taskFlagsText(std::uint32_t Flags) {
  std::string S;
  auto add = [&](std::uint32_t Bit, const char *Name) {
    if (Flags & Bit) {
      if (!S.empty())
        S += '|';
      S += Name;
    }
  };
  add(TaskUntied, "untied");
  add(TaskUndeferred, "undeferred");
  add(TaskFinal, "final");
  add(TaskMergeable, "mergeable");
  add(TaskIncluded, "included");
  add(TaskHasDependences, "has_dependences");
  return S;
}

std::string nodeFlagsText(const Node &N) {
  if (N.Kind == NodeKind::MpiCall)
    return mpi::functionName(mpi::Function(N.Flags));
  std::string S;
  auto add = [&](const char *F) {
    if (!S.empty())
      S += '|';
    S += F;
  };
  if (N.Flags & NodeSingleExecutor)
    add("executor");
  if (N.Flags & NodeCancelParallel)
    add("parallel");
  if (N.Flags & NodeCancelSections)
    add("sections");
  if (N.Flags & NodeCancelLoop)
    add("loop");
  if (N.Flags & NodeCancelTaskgroup)
    add("taskgroup");
  if (N.Flags & NodeReacquire)
    add("reacquire");
  return S;
}

// The graph's size limits (graph.h): one line each, as the runtime and
// otter-graph print them after "building the graph failed: ".
void throwNodeLimit() {
  throw std::length_error("more than 1,073,741,824 nodes, the graph's limit "
                          "(docs/graph.md, \"Limits\")");
}

void throwThreadLimit(std::uint32_t Thread) {
  throw std::length_error("thread number " + std::to_string(Thread) +
                          " is past 65,534, the graph's limit "
                          "(docs/graph.md, \"Limits\")");
}

} // namespace otter
