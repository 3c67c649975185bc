//===- job_writers.cpp - The job graph's file formats --------------===//
//
// The formats of a rank's graph (writers.cpp), for the whole job: every
// rank's nodes and edges under job-wide ids, the collective nodes, the
// message and collective edges, and two tables that say what those are
// (messages.csv, collectives.csv). Deterministic: nothing depends on
// threads, times or addresses that vary between runs.
//
//===----------------------------------------------------------------------===//
#include "job_graph.h"
#include "graph/aggregate.h"
#include "graph/outputs.h"
#include "graph/writers.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <unordered_map>

namespace otter {

namespace {

bool isTaskNode(NodeKind K) {
  return K == NodeKind::InitialTask || K == NodeKind::ImplicitTask ||
         K == NodeKind::Task;
}

std::string flagsOf(const Node &N) {
  return isTaskNode(N.Kind) ? taskFlagsText(N.Flags) : nodeFlagsText(N);
}

std::string hex(std::uint64_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%016llx", (unsigned long long)V);
  return B;
}

const char *opName(mpi::CollectiveOp Op) {
  const char *N = mpi::collectiveOpName(Op);
  return N ? N : "?";
}

/// Canonical name of a job node: r<rank>.n<node>, or c<k>.
std::string nameOf(const JobGraph &J, JobNodeId Id) {
  std::uint32_t R = J.rankOf(Id);
  if (R >= J.Ranks.size())
    return "c" + std::to_string(Id - J.Offset.back());
  return "r" + std::to_string(R) + ".n" + std::to_string(Id - J.Offset[R]);
}

/// Every edge of the job in (source, target, kind) order, the ranks' own
/// kinds before message and collective: Fn(source, target, kind name,
/// cross-rank?).
void forEachEdge(
    const JobGraph &J,
    const std::function<void(JobNodeId, JobNodeId, const char *, bool)> &Fn) {
  std::size_t X = 0;
  auto crossUpTo = [&](JobNodeId Source, bool Inclusive) {
    for (; X < J.Edges.size() && (J.Edges[X].Source < Source ||
                                  (Inclusive && J.Edges[X].Source == Source));
         ++X)
      Fn(J.Edges[X].Source, J.Edges[X].Target, jobEdgeKindName(J.Edges[X].Kind),
         true);
  };
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R) {
    const std::vector<Edge> &E = J.Ranks[R].Edges;
    for (std::size_t I = 0; I < E.size();) {
      JobNodeId S = J.id(R, E[I].Source);
      crossUpTo(S, false);
      // This source's rank edges and cross edges, by target.
      for (; I < E.size() && J.id(R, E[I].Source) == S; ++I) {
        JobNodeId T = J.id(R, E[I].Target);
        for (; X < J.Edges.size() && J.Edges[X].Source == S &&
               J.Edges[X].Target < T;
             ++X)
          Fn(S, J.Edges[X].Target, jobEdgeKindName(J.Edges[X].Kind), true);
        Fn(S, T, edgeKindName(E[I].kind()), false);
      }
      crossUpTo(S, true);
    }
  }
  crossUpTo(~JobNodeId(0), true);
}

/// The program's name of node I of a rank (otter/otter.h), "" if none: as
/// a rank's own files show it (writers.cpp).
std::string nodeName(const Graph &G, NodeId I) {
  return G.NodeNames.empty() ? std::string() : G.nameOf(I);
}

/// The rank node a collective node takes its label from.
const Node *labelNode(const JobGraph &J, const JobCollective &C) {
  if (C.LabelRank >= J.Ranks.size() ||
      C.LabelNode >= J.Ranks[C.LabelRank].Nodes.size())
    return nullptr;
  return &J.Ranks[C.LabelRank].Nodes[C.LabelNode];
}

} // namespace

std::string jobNodeSourceText(const JobGraph &J, JobNodeId Id) {
  std::uint32_t R = J.rankOf(Id);
  if (R < J.Ranks.size())
    return nodeSourceText(J.Ranks[R], J.Ranks[R].Nodes[Id - J.Offset[R]]);
  const JobCollective &C = J.Collectives[Id - J.Offset.back()];
  const Node *N = labelNode(J, C);
  return N ? nodeSourceText(J.Ranks[C.LabelRank], *N) : "?";
}

void writeJobNodesCsv(const JobGraph &J, std::ostream &OS) {
  OS << "id,rank,node,kind,parent,thread,file,line,col,function,region_id,"
        "flags,directive,location,label_quality,name,bytes_to,bytes_from\n";
  auto labelFields = [&](const Graph &G, const Node &N) {
    const SourceLabel &L = G.Labels[N.Label];
    OS << csvField(L.File) << ',';
    if (L.Line)
      OS << L.Line;
    OS << ',';
    if (L.Col)
      OS << L.Col;
    OS << ',' << csvField(L.Function) << ',';
    if (N.Label)
      OS << hex(L.RegionId);
  };
  // Name: the program's name of a phase, mark or labelled task
  // (otter/otter.h), as in a rank's nodes.csv; collectives have none.
  // Bytes: a target construct's, as in a rank's nodes.csv (none: empty).
  auto labelTail = [&](const Graph &G, const Node &N, const std::string &Name,
                       const TargetBytes *Bytes) {
    const SourceLabel &L = G.Labels[N.Label];
    OS << ',' << csvField(L.Directive) << ',' << csvField(L.Location) << ','
       << (N.Label ? labelQualityName(L.Quality) : "") << ','
       << (Name.empty() ? Name : csvField(Name)) << ',';
    if (Bytes)
      OS << Bytes->To << ',' << Bytes->From;
    else
      OS << ',';
    OS << '\n';
  };
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R) {
    const Graph &G = J.Ranks[R];
    for (NodeId I = 0; I < G.Nodes.size(); ++I) {
      const Node &N = G.Nodes[I];
      OS << J.id(R, I) << ',' << R << ',' << I << ',' << nodeKindName(N.Kind)
         << ',';
      if (N.Parent != NoNode)
        OS << J.id(R, N.Parent);
      OS << ',';
      if (N.Thread != NoThread)
        OS << N.Thread;
      OS << ',';
      labelFields(G, N);
      OS << ',' << flagsOf(N);
      auto B = G.NodeBytes.find(I);
      labelTail(G, N, nodeName(G, I),
                B == G.NodeBytes.end() ? nullptr : &B->second);
    }
  }
  for (std::size_t K = 0; K < J.Collectives.size(); ++K) {
    const JobCollective &C = J.Collectives[K];
    OS << J.collectiveId(K) << ",," << K << ",mpi_collective,,,";
    if (const Node *N = labelNode(J, C)) {
      labelFields(J.Ranks[C.LabelRank], *N);
      OS << ',' << mpi::functionName(C.Function);
      labelTail(J.Ranks[C.LabelRank], *N, {}, nullptr);
    } else {
      OS << ",,,,," << mpi::functionName(C.Function) << ",,,,,,\n";
    }
  }
}

void writeJobEdgesCsv(const JobGraph &J, std::ostream &OS) {
  OS << "source,target,kind\n";
  forEachEdge(J, [&](JobNodeId S, JobNodeId T, const char *K, bool) {
    OS << S << ',' << T << ',' << K << '\n';
  });
}

void writeJobMessagesCsv(const JobGraph &J, std::ostream &OS) {
  OS << "status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,"
        "comm,tag,bytes\n";
  auto side = [&](std::uint32_t R, NodeId N) {
    if (R == mpi::NoRank) {
      OS << ",,";
      return;
    }
    OS << R << ',';
    if (N != NoNode && R < J.Ranks.size() && N < J.Ranks[R].Nodes.size())
      OS << N << ','
         << csvField(nodeSourceText(J.Ranks[R], J.Ranks[R].Nodes[N]));
    else
      OS << ',';
  };
  for (const JobMessage &M : J.Messages) {
    OS << jobMessageStatusName(M.State) << ',';
    side(M.SendRank, M.SendNode);
    OS << ',';
    side(M.RecvRank, M.RecvNode);
    OS << ',' << csvField(jobCommText(J, M.Comm, M.SendRank)) << ','
       << (M.Tag == mpi::AnyTag ? std::string("any") : std::to_string(M.Tag))
       << ',' << M.Bytes << '\n';
  }
}

void writeJobCollectivesCsv(const JobGraph &J, std::ostream &OS) {
  OS << "id,function,collective,comm,instance,root,ranks,size,at\n";
  for (std::size_t K = 0; K < J.Collectives.size(); ++K) {
    const JobCollective &C = J.Collectives[K];
    OS << J.collectiveId(K) << ',' << mpi::functionName(C.Function) << ','
       << opName(C.Op) << ',' << csvField(jobCommText(J, C.Comm, C.LabelRank))
       << ',' << C.Instance << ',';
    if (C.Root != mpi::NoRank)
      OS << C.Root;
    OS << ',' << C.Members.size() << ',';
    if (C.Size)
      OS << C.Size;
    OS << ',' << csvField(jobNodeSourceText(J, J.collectiveId(K))) << '\n';
  }
}

void writeJobDot(const JobGraph &J, std::ostream &OS) {
  // Paths relative to the directory every rank's files share, as in the
  // pictures (graph/writers.h), said on top.
  std::vector<std::string> Files;
  for (const Graph &G : J.Ranks)
    for (const SourceLabel &L : G.Labels)
      Files.push_back(L.File);
  std::string Dir = commonDirectory(Files);
  auto rel = [&](const std::string &Text) {
    return Text.starts_with('~') ? "~" + relativePath(Text.substr(1), Dir)
                                 : relativePath(Text, Dir);
  };
  OS << "digraph otter_job {\n"
        "  graph [rankdir=TB, fontname=\"Helvetica\", compound=true";
  if (!Dir.empty())
    OS << ", label=\"" << dotEscape("paths relative to " + Dir)
       << "\", labelloc=t, labeljust=l";
  OS << "];\n"
        "  node [style=filled, fontname=\"Helvetica\", fontsize=10];\n"
        "  edge [arrowsize=0.7];\n";
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R) {
    const Graph &G = J.Ranks[R];
    if (G.Nodes.empty())
      continue;
    OS << "  subgraph cluster_rank" << R << " {\n    label=\"rank " << R
       << "\";\n    color=\"#999999\";\n";
    for (NodeId I = 0; I < G.Nodes.size(); ++I) {
      const Node &N = G.Nodes[I];
      DotStyle S = dotStyleOf(N.Kind);
      std::string Src = nodeSourceText(G, N, Dir), F = flagsOf(N);
      OS << "    n" << J.id(R, I) << " [label=\"" << nodeKindName(N.Kind);
      if (Src != "?")
        OS << "\\n" << dotEscape(Src);
      if (!F.empty())
        OS << "\\n[" << dotEscape(F) << ']';
      if (std::string Name = nodeName(G, I); !Name.empty())
        OS << "\\n\\\"" << dotEscape(Name) << "\\\"";
      OS << "\", shape=" << S.Shape << ", fillcolor=\"" << S.Color << "\"];\n";
    }
    OS << "  }\n";
  }
  for (std::size_t K = 0; K < J.Collectives.size(); ++K) {
    const JobCollective &C = J.Collectives[K];
    OS << "  n" << J.collectiveId(K) << " [label=\""
       << mpi::functionName(C.Function) << "\\n"
       << dotEscape(rel(jobNodeSourceText(J, J.collectiveId(K)))) << "\\ncomm "
       << dotEscape(jobCommText(J, C.Comm, C.LabelRank)) << " #" << C.Instance
       << "\", shape=octagon, fillcolor=\"#ffed6f\"];\n";
  }
  forEachEdge(J, [&](JobNodeId S, JobNodeId T, const char *K, bool Cross) {
    OS << "  n" << S << " -> n" << T << " [";
    if (!Cross) {
      for (int E = 0; E < int(EdgeKind::Count); ++E)
        if (std::strcmp(K, edgeKindName(EdgeKind(E))) == 0)
          OS << dotEdgeStyle(EdgeKind(E));
    } else if (std::strcmp(K, "message") == 0) {
      OS << "color=\"#e31a1c\", penwidth=2, constraint=false";
    } else {
      OS << "color=\"#1f78b4\", style=dashed";
    }
    OS << "];\n";
  });
  OS << "}\n";
}

/// The job's graph.gv when it has more nodes than OTTER_DOT_MAX_NODES, as a
/// rank's is (writers.h, writeAggregatedDot): one node per rank and
/// construct (node kind and label) and one per collective call site, with
/// counts; one edge per pair and kind, messages and collectives included.
void writeJobAggregatedDot(const JobGraph &J, std::ostream &OS,
                           std::size_t MaxNodes) {
  constexpr unsigned CollectiveKind = unsigned(NodeKind::Count);
  // Identity: the rank in the high half, the label in the low one.
  ConstructGroups Groups(CollectiveKind + 1, 0);
  std::vector<std::uint32_t> GroupOf(J.nodeCount());
  std::vector<std::uint32_t> RankOfGroup;
  std::unordered_map<std::uint32_t, std::size_t> FirstCollective; // by group
  auto add = [&](JobNodeId Id, unsigned Kind, std::uint32_t Rank,
                 std::uint32_t Label) {
    std::size_t Before = Groups.size();
    GroupOf[Id] = Groups.add(Kind, std::uint64_t(Rank) << 32 | Label);
    if (Groups.size() > Before)
      RankOfGroup.push_back(Rank);
  };
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R)
    for (NodeId I = 0; I < J.Ranks[R].Nodes.size(); ++I)
      add(J.id(R, I), unsigned(J.Ranks[R].Nodes[I].Kind), R,
          J.Ranks[R].Nodes[I].Label);
  for (std::size_t K = 0; K < J.Collectives.size(); ++K) {
    const JobCollective &C = J.Collectives[K];
    const Node *N = C.LabelRank < J.Ranks.size() &&
                            C.LabelNode < J.Ranks[C.LabelRank].Nodes.size()
                        ? &J.Ranks[C.LabelRank].Nodes[C.LabelNode]
                        : nullptr;
    add(J.collectiveId(K), CollectiveKind, C.LabelRank, N ? N->Label : 0);
    FirstCollective.try_emplace(GroupOf[J.collectiveId(K)], K);
  }
  // Edge kinds: a rank's, then message and collective.
  constexpr unsigned MessageEdge = unsigned(EdgeKind::Count),
                     CollectiveEdge = MessageEdge + 1;
  ConstructEdges Counted(Groups.size());
  std::uint64_t Edges = 0;
  forEachEdge(J, [&](JobNodeId S, JobNodeId T, const char *K, bool Cross) {
    unsigned Kind = CollectiveEdge;
    if (Cross && std::strcmp(K, "message") == 0)
      Kind = MessageEdge;
    else if (!Cross)
      for (unsigned E = 0; E < unsigned(EdgeKind::Count); ++E)
        if (std::strcmp(K, edgeKindName(EdgeKind(E))) == 0)
          Kind = E;
    Counted.add(GroupOf[S], GroupOf[T], Kind);
    ++Edges;
  });
  std::string Comments =
      "// otter aggregated job graph: " + std::to_string(J.nodeCount()) +
      " nodes and " + std::to_string(Edges) +
      " edges, more than OTTER_DOT_MAX_NODES=" + std::to_string(MaxNodes) +
      ", drawn as one node per rank and construct (node kind and source) and\n"
      "// one per collective call site, with counts, and one edge per pair "
      "and edge kind with its count. The full graph: nodes.csv and\n"
      "// graph.csv, or graph.gv from `otter-graph JOB --dot-max-nodes 0` "
      "(docs/graph.md).\n";
  AggregateDot Dot(OS, Comments, "otter_job",
                   "rankdir=TB, fontname=\"Helvetica\", label=\"aggregated: " +
                       std::to_string(J.nodeCount()) + " nodes in " +
                       std::to_string(Groups.size()) +
                       " constructs of " + std::to_string(J.Ranks.size()) +
                       " ranks\", labelloc=t",
                   "style=filled, fontname=\"Helvetica\", fontsize=10",
                   "arrowsize=0.7, fontname=\"Helvetica\", fontsize=9");
  std::vector<bool> NodeSeen(std::size_t(NodeKind::Count), false),
      EdgeSeen(std::size_t(EdgeKind::Count), false);
  for (std::uint32_t G = 0; G < Groups.size(); ++G) {
    std::uint32_t R = RankOfGroup[G];
    std::uint32_t Label = std::uint32_t(Groups.identity(G));
    std::string Count = "\n\u00d7" + std::to_string(Groups.count(G));
    if (Groups.kind(G) == CollectiveKind) {
      std::size_t K = FirstCollective[G];
      Dot.node(G,
               std::string(mpi::functionName(J.Collectives[K].Function)) +
                   "\n" + jobNodeSourceText(J, J.collectiveId(K)) + Count,
               "octagon", "#ffed6f");
      continue;
    }
    Node N{.Kind = NodeKind(Groups.kind(G)), .Label = Label};
    NodeSeen[std::size_t(N.Kind)] = true;
    std::string Text = "rank " + std::to_string(R) + "\n" +
                       nodeKindName(N.Kind);
    if (R < J.Ranks.size())
      if (std::string Src = nodeSourceText(J.Ranks[R], N); Src != "?")
        Text += "\n" + Src;
    DotStyle S = dotStyleOf(N.Kind);
    Dot.node(G, Text + Count, S.Shape, S.Color);
  }
  std::uint64_t MaxCount = Counted.maxCount();
  for (const ConstructEdges::Counted &E : Counted.edges()) {
    std::string Style =
        E.Kind == MessageEdge
            ? "color=\"#e31a1c\", penwidth=2, constraint=false"
        : E.Kind == CollectiveEdge ? "color=\"#1f78b4\", style=dashed"
                                   : dotEdgeStyle(EdgeKind(E.Kind));
    if (E.Kind < unsigned(EdgeKind::Count))
      EdgeSeen[E.Kind] = true;
    Dot.edge(E.From, E.To, Style,
             E.Kind == MessageEdge || E.Kind == CollectiveEdge
                 ? ""
                 : ", penwidth=" + AggregateDot::penWidth(E.Count, MaxCount),
             std::to_string(E.Count));
  }
  std::vector<NodeKind> Kinds;
  std::vector<EdgeKind> EdgeKinds;
  for (std::size_t K = 0; K < NodeSeen.size(); ++K)
    if (NodeSeen[K])
      Kinds.push_back(NodeKind(K));
  for (std::size_t K = 0; K < EdgeSeen.size(); ++K)
    if (EdgeSeen[K])
      EdgeKinds.push_back(EdgeKind(K));
  Dot.close(dotLegendNode(
      Kinds, EdgeKinds,
      "one node per rank and construct, &#215;: the nodes it stands for; "
      "octagons: collective call sites; red: messages, dashed blue: "
      "collectives; edge labels: the edges"));
}

void writeJobCanonical(const JobGraph &J, std::ostream &OS) {
  std::uint64_t Edges = 0;
  for (const Graph &G : J.Ranks)
    Edges += G.Edges.size();
  Edges += J.Edges.size();
  OS << "# otter canonical job graph v1: " << J.Ranks.size() << " ranks, "
     << J.nodeCount() << " nodes, " << Edges << " edges, " << J.Stats.Messages
     << " messages, " << J.Collectives.size() << " collectives\n";
  if (J.Stats.UnmatchedSends || J.Stats.UnmatchedReceives ||
      J.Stats.IncompleteCollectives || J.Stats.MissingRanks)
    OS << "# unmatched: " << J.Stats.UnmatchedSends << " sends, "
       << J.Stats.UnmatchedReceives << " receives; "
       << J.Stats.IncompleteCollectives << " incomplete collectives; "
       << J.Stats.MissingRanks << " ranks without a graph\n";
  // Each node's line, then its outgoing edges (forEachEdge's order is by
  // source, and node ids follow rank and node order).
  JobNodeId Next = 0;
  auto nodesUpTo = [&](JobNodeId Id) {
    for (; Next <= Id && Next < J.nodeCount(); ++Next) {
      std::uint32_t R = J.rankOf(Next);
      OS << nameOf(J, Next) << ' ';
      if (R < J.Ranks.size()) {
        const Graph &G = J.Ranks[R];
        const Node &N = G.Nodes[Next - J.Offset[R]];
        OS << nodeKindName(N.Kind) << " parent=";
        if (N.Parent != NoNode)
          OS << nameOf(J, J.id(R, N.Parent));
        else
          OS << '-';
        OS << " at=" << nodeSourceText(G, N);
        std::string F = flagsOf(N);
        if (!F.empty())
          OS << " flags=" << F;
        if (std::string Name = nodeName(G, Next - J.Offset[R]); !Name.empty())
          OS << " name=\"" << dotEscape(Name) << '"';
      } else {
        const JobCollective &C = J.Collectives[Next - J.Offset.back()];
        OS << "mpi_collective at=" << jobNodeSourceText(J, Next)
           << " flags=" << mpi::functionName(C.Function) << " comm=";
        // A name the program gave is quoted, as node names are.
        if (J.CommNames.count(C.Comm))
          OS << '"' << dotEscape(jobCommText(J, C.Comm, C.LabelRank)) << '"';
        else
          OS << jobCommText(J, C.Comm, C.LabelRank);
        OS << " instance=" << C.Instance << " ranks=" << C.Members.size();
        if (C.Size)
          OS << '/' << C.Size;
      }
      OS << '\n';
    }
  };
  forEachEdge(J, [&](JobNodeId S, JobNodeId T, const char *K, bool Cross) {
    nodesUpTo(S);
    OS << "  -> " << nameOf(J, T) << ' ' << K;
    if (Cross)
      OS << " at=" << jobNodeSourceText(J, T);
    OS << '\n';
  });
  if (J.nodeCount())
    nodesUpTo(J.nodeCount() - 1);
}

bool writeJobGraphFiles(const JobGraph &J, const std::string &Dir,
                        const GraphFormats &F, std::string &Error) {
  auto writeOne = [&](const char *Name,
                      void (*Fn)(const JobGraph &, std::ostream &)) {
    return writeOutputFile(
        Dir + "/" + Name, [&](std::ostream &OS) { Fn(J, OS); }, Error);
  };
  // The two big tables zstd-compressed (.zst) above the limits F gives.
  auto writeTable = [&](const char *Name, bool Compressed,
                        void (*Fn)(const JobGraph &, std::ostream &)) {
    if (!Compressed)
      return writeOne(Name, Fn);
    return writeZstdOutputFile(
        Dir + "/" + Name + ".zst", [&](std::ostream &OS) { Fn(J, OS); },
        Error);
  };
  if (F.Csv &&
      (!writeTable("nodes.csv", F.nodesCsvCompressed(J.nodeCount()),
                   writeJobNodesCsv) ||
       !writeTable("graph.csv", F.edgesCsvCompressed(J.nodeCount()),
                   writeJobEdgesCsv) ||
                !writeOne("messages.csv", writeJobMessagesCsv) ||
                !writeOne("collectives.csv", writeJobCollectivesCsv)))
    return false;
  if (F.Dot && F.dotAggregated(J.nodeCount())) {
    if (!writeOutputFile(
            Dir + "/graph.gv",
            [&](std::ostream &OS) {
              writeJobAggregatedDot(J, OS, F.DotMaxNodes);
            },
            Error))
      return false;
  } else if (F.Dot && !writeOne("graph.gv", writeJobDot)) {
    return false;
  }
  if (F.Canonical && !writeOne("graph.txt", writeJobCanonical))
    return false;
  return true;
}

} // namespace otter
