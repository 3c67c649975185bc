//===- graph/writers.cpp - Task graph file formats -----------------------===//
#include "graph/writers.h"

#include <charconv>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace otter {

/// CSV field: quoted only when it must be (RFC 4180).
std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string Q = "\"";
  for (char C : S) {
    if (C == '"')
      Q += '"';
    Q += C;
  }
  return Q + "\"";
}

std::string dotEscape(const std::string &S) {
  std::string R;
  for (char C : S) {
    if (C == '"' || C == '\\')
      R += '\\';
    R += C;
  }
  return R;
}

namespace {

std::string hex(std::uint64_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%016llx", (unsigned long long)V);
  return B;
}

bool isTaskNode(NodeKind K) {
  return K == NodeKind::InitialTask || K == NodeKind::ImplicitTask ||
         K == NodeKind::Task;
}

std::string flagsText(const Node &N) {
  return isTaskNode(N.Kind) ? taskFlagsText(N.Flags) : nodeFlagsText(N);
}

} // namespace

DotStyle dotStyleOf(NodeKind K) {
  switch (K) {
  case NodeKind::InitialTask:
  case NodeKind::ImplicitTask:
    return {"box", "#d9d9d9"};
  case NodeKind::Task:
    return {"ellipse", "#8dd3c7"};
  case NodeKind::ParallelBegin:
  case NodeKind::ParallelEnd:
    return {"trapezium", "#80b1d3"};
  case NodeKind::Taskwait:
    return {"octagon", "#fb8072"};
  case NodeKind::Barrier:
  case NodeKind::BarrierImplicit:
    return {"octagon", "#fdb462"};
  case NodeKind::TaskgroupBegin:
  case NodeKind::TaskgroupEnd:
    return {"invhouse", "#fccde5"};
  case NodeKind::CriticalBegin:
  case NodeKind::CriticalEnd:
  case NodeKind::LockBegin:
  case NodeKind::LockEnd:
  case NodeKind::NestLockBegin:
  case NodeKind::NestLockEnd:
  case NodeKind::OrderedBegin:
  case NodeKind::OrderedEnd:
    return {"diamond", "#bebada"};
  case NodeKind::Cancel:
    return {"doubleoctagon", "#ff6666"};
  case NodeKind::MpiCall:
    return {"cds", "#ffed6f"};
  default: // worksharing, masked, taskloop
    return {"hexagon", "#b3de69"};
  }
}

const char *dotEdgeStyle(EdgeKind K) {
  switch (K) {
  case EdgeKind::Create:
    return "color=\"#1b9e77\"";
  case EdgeKind::Sync:
    return "color=\"#d95f02\", style=dashed";
  case EdgeKind::Dependence:
    return "color=\"#7570b3\", penwidth=2";
  default:
    return "color=\"#555555\"";
  }
}

namespace {

/// Output through a 1 MiB buffer: a graph has millions of lines, and one
/// ostream call per field (sentry, locale, virtual put) was most of the
/// time of writing it.
class Buffered {
public:
  explicit Buffered(std::ostream &OS) : OS(OS) { Buf.reserve(Cap + 4096); }
  ~Buffered() { flush(); }
  Buffered &operator<<(std::string_view S) {
    Buf.append(S);
    if (Buf.size() >= Cap)
      flush();
    return *this;
  }
  Buffered &operator<<(char C) {
    Buf.push_back(C);
    return *this;
  }
  Buffered &num(std::uint64_t V) {
    char T[24];
    auto R = std::to_chars(T, T + sizeof T, V);
    Buf.append(T, R.ptr);
    return *this;
  }
  void flush() {
    if (!Buf.empty())
      OS.write(Buf.data(), (std::streamsize)Buf.size());
    Buf.clear();
  }

private:
  static constexpr std::size_t Cap = std::size_t(1) << 20;
  std::ostream &OS;
  std::string Buf;
};

/// flagsText per (kind, flags): a few distinct values over millions of nodes.
class FlagsCache {
public:
  const std::string &operator()(const Node &N) {
    std::uint64_t Key = (std::uint64_t(N.Kind) << 32) | N.Flags;
    auto It = Cache.find(Key);
    if (It == Cache.end())
      It = Cache.emplace(Key, flagsText(N)).first;
    return It->second;
  }

private:
  std::unordered_map<std::uint64_t, std::string> Cache;
};

} // namespace

std::string nodeSourceText(const Graph &G, const Node &N) {
  const SourceLabel &L = G.Labels[N.Label];
  if (!L.File.empty() && L.Line)
    return L.File + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Col);
  if (!L.Function.empty())
    return "~" + L.Function;
  if (!L.Location.empty())
    return "~" + L.Location;
  return "?";
}

void writeNodesCsv(const Graph &G, std::ostream &OS) {
  // What a node's line takes from its label, made once per label.
  std::vector<std::string> Mid(G.Labels.size()), Tail(G.Labels.size());
  for (std::size_t I = 0; I < G.Labels.size(); ++I) {
    const SourceLabel &L = G.Labels[I];
    std::string &M = Mid[I];
    M = csvField(L.File) + ',';
    if (L.Line)
      M += std::to_string(L.Line);
    M += ',';
    if (L.Col)
      M += std::to_string(L.Col);
    M += ',' + csvField(L.Function) + ',';
    if (I)
      M += hex(L.RegionId);
    Tail[I] = csvField(L.Directive) + ',' + csvField(L.Location) + ',' +
              (I ? labelQualityName(L.Quality) : "") + '\n';
  }
  FlagsCache Flags;
  Buffered B(OS);
  B << "id,kind,parent,thread,file,line,col,function,region_id,flags,"
       "directive,location,label_quality\n";
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    B.num(I) << ',' << nodeKindName(N.Kind) << ',';
    if (N.Parent != NoNode)
      B.num(N.Parent);
    B << ',';
    if (N.Thread != NoThread)
      B.num(N.Thread);
    B << ',' << Mid[N.Label] << ',' << Flags(N) << ',' << Tail[N.Label];
  }
  B.flush();
}

void writeEdgesCsv(const Graph &G, std::ostream &OS) {
  Buffered B(OS);
  B << "source,target,kind\n";
  for (const Edge &E : G.Edges) {
    B.num(E.Source) << ',';
    B.num(E.Target) << ',' << edgeKindName(E.Kind) << '\n';
  }
  B.flush();
}

/// A header line's text: line breaks would end the comment.
static std::string oneLine(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r')
      C = ' ';
  return S;
}

void writeDot(const Graph &G, std::ostream &OS) {
  // The source part of a node's label, made once per label.
  std::vector<std::string> Src(G.Labels.size());
  for (std::size_t I = 0; I < G.Labels.size(); ++I) {
    Node N{.Kind = NodeKind::Task, .Label = (std::uint32_t)I};
    std::string S = nodeSourceText(G, N);
    if (S != "?")
      Src[I] = "\\n" + dotEscape(S);
  }
  FlagsCache Flags;
  Buffered B(OS);
  if (!G.Filtered.empty())
    B << "// filtered: " << oneLine(G.Filtered) << '\n';
  B << "digraph otter {\n"
       "  graph [rankdir=TB, fontname=\"Helvetica\"];\n"
       "  node [style=filled, fontname=\"Helvetica\", fontsize=10];\n"
       "  edge [arrowsize=0.7];\n";
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    DotStyle S = dotStyleOf(N.Kind);
    B << "  n";
    B.num(I) << " [label=\"" << nodeKindName(N.Kind) << Src[N.Label];
    const std::string &F = Flags(N);
    if (!F.empty())
      B << "\\n[" << F << ']';
    B << "\", shape=" << S.Shape << ", fillcolor=\"" << S.Color << "\"];\n";
  }
  for (const Edge &E : G.Edges) {
    B << "  n";
    B.num(E.Source) << " -> n";
    B.num(E.Target) << " [" << dotEdgeStyle(E.Kind) << "];\n";
  }
  B << "}\n";
  B.flush();
}

void writeCanonical(const Graph &G, std::ostream &OS) {
  std::vector<std::string> Src(G.Labels.size());
  for (std::size_t I = 0; I < G.Labels.size(); ++I) {
    Node N{.Kind = NodeKind::Task, .Label = (std::uint32_t)I};
    Src[I] = nodeSourceText(G, N);
  }
  FlagsCache Flags;
  Buffered B(OS);
  // Outgoing edges per node, already sorted by (source, target, kind).
  B << "# otter canonical graph v1: ";
  B.num(G.Nodes.size()) << " nodes, ";
  B.num(G.Edges.size()) << " edges\n";
  if (!G.Filtered.empty())
    B << "# filtered: " << oneLine(G.Filtered) << '\n';
  std::size_t E = 0;
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    B << 'n';
    B.num(I) << ' ' << nodeKindName(N.Kind) << " parent=";
    if (N.Parent != NoNode) {
      B << 'n';
      B.num(N.Parent);
    } else {
      B << '-';
    }
    B << " at=" << Src[N.Label];
    const std::string &F = Flags(N);
    if (!F.empty())
      B << " flags=" << F;
    B << '\n';
    while (E < G.Edges.size() && G.Edges[E].Source < I)
      ++E;
    for (; E < G.Edges.size() && G.Edges[E].Source == I; ++E) {
      B << "  -> n";
      B.num(G.Edges[E].Target) << ' ' << edgeKindName(G.Edges[E].Kind) << '\n';
    }
  }
  B.flush();
}

} // namespace otter
