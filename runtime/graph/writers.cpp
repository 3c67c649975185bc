//===- graph/writers.cpp - Task graph file formats -----------------------===//
#include "graph/writers.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace otter {

namespace {

/// CSV field: quoted only when it must be (RFC 4180).
std::string csv(const std::string &S) {
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

struct DotStyle {
  const char *Shape;
  const char *Color;
};

DotStyle styleOf(NodeKind K) {
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
  default: // worksharing, masked, taskloop
    return {"hexagon", "#b3de69"};
  }
}

const char *edgeStyle(EdgeKind K) {
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
  OS << "id,kind,parent,thread,file,line,col,function,region_id,flags,"
        "directive,location,label_quality\n";
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    const SourceLabel &L = G.Labels[N.Label];
    OS << I << ',' << nodeKindName(N.Kind) << ',';
    if (N.Parent != NoNode)
      OS << N.Parent;
    OS << ',';
    if (N.Thread != NoThread)
      OS << N.Thread;
    OS << ',' << csv(L.File) << ',';
    if (L.Line)
      OS << L.Line;
    OS << ',';
    if (L.Col)
      OS << L.Col;
    OS << ',' << csv(L.Function) << ',';
    if (N.Label)
      OS << hex(L.RegionId);
    OS << ',' << flagsText(N) << ',' << csv(L.Directive) << ','
       << csv(L.Location) << ','
       << (N.Label ? labelQualityName(L.Quality) : "") << '\n';
  }
}

void writeEdgesCsv(const Graph &G, std::ostream &OS) {
  OS << "source,target,kind\n";
  for (const Edge &E : G.Edges)
    OS << E.Source << ',' << E.Target << ',' << edgeKindName(E.Kind) << '\n';
}

void writeDot(const Graph &G, std::ostream &OS) {
  OS << "digraph otter {\n"
        "  graph [rankdir=TB, fontname=\"Helvetica\"];\n"
        "  node [style=filled, fontname=\"Helvetica\", fontsize=10];\n"
        "  edge [arrowsize=0.7];\n";
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    DotStyle S = styleOf(N.Kind);
    std::string Label = nodeKindName(N.Kind);
    std::string Src = nodeSourceText(G, N);
    if (Src != "?")
      Label += "\\n" + dotEscape(Src);
    std::string Flags = flagsText(N);
    if (!Flags.empty())
      Label += "\\n[" + Flags + "]";
    OS << "  n" << I << " [label=\"" << Label << "\", shape=" << S.Shape
       << ", fillcolor=\"" << S.Color << "\"];\n";
  }
  for (const Edge &E : G.Edges)
    OS << "  n" << E.Source << " -> n" << E.Target << " [" << edgeStyle(E.Kind)
       << "];\n";
  OS << "}\n";
}

void writeCanonical(const Graph &G, std::ostream &OS) {
  // Outgoing edges per node, already sorted by (source, target, kind).
  OS << "# otter canonical graph v1: " << G.Nodes.size() << " nodes, "
     << G.Edges.size() << " edges\n";
  std::size_t E = 0;
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    OS << 'n' << I << ' ' << nodeKindName(N.Kind) << " parent=";
    if (N.Parent != NoNode)
      OS << 'n' << N.Parent;
    else
      OS << '-';
    OS << " at=" << nodeSourceText(G, N);
    std::string Flags = flagsText(N);
    if (!Flags.empty())
      OS << " flags=" << Flags;
    OS << '\n';
    while (E < G.Edges.size() && G.Edges[E].Source < I)
      ++E;
    for (; E < G.Edges.size() && G.Edges[E].Source == I; ++E)
      OS << "  -> n" << G.Edges[E].Target << ' '
         << edgeKindName(G.Edges[E].Kind) << '\n';
  }
}

bool writeGraphFiles(const Graph &G, const std::string &Dir,
                     const GraphFormats &F, std::string &Error) {
  auto writeOne = [&](const char *Name, void (*Fn)(const Graph &,
                                                  std::ostream &)) {
    std::string Path = Dir + "/" + Name;
    std::ofstream OS(Path, std::ios::out | std::ios::trunc);
    if (!OS) {
      Error = "cannot write " + Path + ": " + std::strerror(errno);
      return false;
    }
    Fn(G, OS);
    OS.flush();
    if (!OS) {
      Error = "error writing " + Path + " (disk full?)";
      return false;
    }
    return true;
  };
  if (F.Csv && (!writeOne("nodes.csv", writeNodesCsv) ||
                !writeOne("graph.csv", writeEdgesCsv)))
    return false;
  if (F.Dot && !writeOne("graph.gv", writeDot))
    return false;
  if (F.Canonical && !writeOne("graph.txt", writeCanonical))
    return false;
  return true;
}

} // namespace otter
