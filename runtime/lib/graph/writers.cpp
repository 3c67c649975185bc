//===- graph/writers.cpp - Task graph file formats -----------------------===//
#include "graph/writers.h"
#include "graph/aggregate.h"
#include "graph/decimal.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string_view>
#include <tuple>
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
#define OTTER_NODE_KIND(Kind, Name, Shape, Fill)                               \
  case NodeKind::Kind:                                                         \
    return {Shape, Fill};
#include "otter/constructs.def"
  case NodeKind::Count:
    break;
  }
  return {"hexagon", "#b3de69"};
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

/// What an edge kind stands for, in the legend.
const char *edgeLegendText(EdgeKind K) {
  switch (K) {
  case EdgeKind::Create:
    return ": the creating task to the task it creates";
  case EdgeKind::Sync:
    return " (dashed): a task's completion to the construct that waits for "
           "it";
  case EdgeKind::Dependence:
    return " (bold): a task's completion to a task that depends on it";
  default:
    return ": program order within a task; a team's fork and join";
  }
}

/// The colour in an edge kind's dot attributes ("color=\"#...\"").
std::string edgeColor(EdgeKind K) {
  std::string S = dotEdgeStyle(K);
  std::size_t B = S.find('#');
  return B == std::string::npos ? "#555555" : S.substr(B, 7);
}

} // namespace

std::string dotLegendNode(const std::vector<NodeKind> &Nodes,
                          const std::vector<EdgeKind> &Edges,
                          const std::string &Note) {
  // Kinds that share a style share a row: "parallel_begin, parallel_end".
  std::vector<std::pair<DotStyle, std::string>> Rows;
  for (NodeKind K : Nodes) {
    DotStyle S = dotStyleOf(K);
    auto It = std::find_if(Rows.begin(), Rows.end(), [&](const auto &R) {
      return std::strcmp(R.first.Shape, S.Shape) == 0 &&
             std::strcmp(R.first.Color, S.Color) == 0;
    });
    if (It == Rows.end())
      Rows.push_back({S, nodeKindName(K)});
    else
      It->second += std::string(", ") + nodeKindName(K);
  }
  std::string L = "  legend [shape=none, margin=0, fontsize=10, style=filled, "
                  "fillcolor=white, label=<"
                  "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
                  "CELLPADDING=\"3\" COLOR=\"#999999\"><TR><TD COLSPAN=\"2\" "
                  "ALIGN=\"LEFT\"><B>legend</B></TD></TR>";
  for (const auto &[S, Names] : Rows)
    L += std::string("<TR><TD BGCOLOR=\"") + S.Color + "\" BORDER=\"1\">" +
         S.Shape + "</TD><TD ALIGN=\"LEFT\">" + Names + "</TD></TR>";
  for (EdgeKind K : Edges)
    L += "<TR><TD><FONT COLOR=\"" + edgeColor(K) +
         "\"><B>&#8594;</B></FONT></TD><TD ALIGN=\"LEFT\"><FONT COLOR=\"" +
         edgeColor(K) + "\">" + edgeKindName(K) + "</FONT>" +
         edgeLegendText(K) + "</TD></TR>";
  if (!Note.empty())
    L += "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\">" + Note + "</TD></TR>";
  return L + "</TABLE>>];\n";
}

std::string commonDirectory(const std::vector<std::string> &Files) {
  std::string Dir;
  bool Any = false;
  for (const std::string &F : Files) {
    if (F.empty() || F[0] != '/')
      continue;
    std::string D = F.substr(0, F.rfind('/') + 1);
    if (!Any) {
      Dir = D;
      Any = true;
      continue;
    }
    std::size_t N = 0;
    while (N < Dir.size() && N < D.size() && Dir[N] == D[N])
      ++N;
    Dir.resize(N);
    Dir.resize(Dir.rfind('/') + 1); // a whole directory
  }
  return Dir.size() > 1 ? Dir : "";
}

std::string relativePath(const std::string &File, const std::string &Dir) {
  if (!Dir.empty() && File.size() > Dir.size() &&
      File.compare(0, Dir.size(), Dir) == 0)
    return File.substr(Dir.size());
  return File;
}

std::string labelDirectory(const Graph &G) {
  std::vector<std::string> Files;
  for (const SourceLabel &L : G.Labels)
    Files.push_back(L.File);
  return commonDirectory(Files);
}

namespace {

/// "paths relative to DIR" for a legend (HTML-like text); "" without Dir.
std::string relativeNote(const std::string &Dir) {
  if (Dir.empty())
    return "";
  std::string N = "paths relative to ";
  for (char C : Dir)
    N += C == '&' ? "&amp;" : C == '<' ? "&lt;" : C == '>' ? "&gt;"
                                                : std::string(1, C);
  return N;
}

/// Output through a 1 MiB buffer: a graph has millions of lines, and one
/// ostream call per field (sentry, locale, virtual put) was most of the
/// time of writing it. A plain array, not a std::string: its push_back per
/// separator was a call with a capacity check (~360 instructions per fib
/// task in the nodes' table).
class Buffered {
public:
  explicit Buffered(std::ostream &OS)
      : OS(OS), Buf(std::make_unique_for_overwrite<char[]>(Size)) {}
  ~Buffered() { flush(); }
  Buffered &operator<<(std::string_view S) {
    if (S.size() > Size - Len) {
      flush();
      if (S.size() > Size) { // longer than the buffer: straight through
        OS.write(S.data(), (std::streamsize)S.size());
        return *this;
      }
    }
    std::memcpy(Buf.get() + Len, S.data(), S.size());
    Len += S.size();
    if (Len >= Cap)
      flush();
    return *this;
  }
  Buffered &operator<<(char C) {
    if (Len == Size)
      flush();
    Buf[Len++] = C;
    return *this;
  }
  Buffered &num(std::uint64_t V) {
    if (Size - Len < decimal::MaxLen)
      flush();
    Len = std::size_t(decimal::put(Buf.get() + Len, V) - Buf.get());
    return *this;
  }
  /// A row written in place: at least N bytes (N <= Room) at the returned
  /// place, the row's end given back with done(). One check per row instead
  /// of one per field; rows may copy a few bytes past their end (fixed-size
  /// copies are cheaper than exact ones), within the N.
  static constexpr std::size_t Room = 4096;
  char *room(std::size_t N) {
    if (Size - Len < N)
      flush();
    return Buf.get() + Len;
  }
  void done(char *End) {
    Len = std::size_t(End - Buf.get());
    if (Len >= Cap)
      flush();
  }
  void flush() {
    if (Len)
      OS.write(Buf.get(), (std::streamsize)Len);
    Len = 0;
  }

private:
  static constexpr std::size_t Cap = std::size_t(1) << 20;
  // Room past Cap, so that a line's small pieces rarely flush mid-line.
  static constexpr std::size_t Size = Cap + Room;
  std::ostream &OS;
  std::unique_ptr<char[]> Buf;
  std::size_t Len = 0;
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

std::string nodeSourceText(const Graph &G, const Node &N,
                           const std::string &Dir) {
  const SourceLabel &L = G.Labels[N.Label];
  if (!L.File.empty() && L.Line)
    return approximateMark(L) + relativePath(L.File, Dir) + ":" +
           std::to_string(L.Line) + ":" + std::to_string(L.Col);
  if (!L.Function.empty())
    return "~" + L.Function;
  if (!L.Location.empty())
    return "~" + L.Location;
  return "?";
}

namespace {

/// nodes.csv's rows, for all of a graph's nodes at once or for them in
/// pieces as the walk makes them (writeNodesCsvFed). Most of a row is the
/// same for every node of one construct at one site: its kind, and what it
/// takes from its label (file, line, column, function, region, directive,
/// location, label quality) and its flags. That text is made once per
/// (label, kind, flags) -- a "site" -- and copied, around the node's own
/// numbers: its id (counted up in text), parent and thread.
class NodesRows {
public:
  explicit NodesRows(std::ostream &OS) : B(OS) {
    B << "id,kind,parent,thread,file,line,col,function,region_id,flags,"
         "directive,location,label_quality,name,bytes_to,bytes_from\n";
  }
  /// Makes the label parts of G's labels up to N (those it has not made).
  void labels(const Graph &G, std::size_t N) {
    for (std::size_t I = Mid.size(); I < N; ++I) {
      const SourceLabel &L = G.Labels[I];
      std::string M = csvField(L.File) + ',';
      if (L.Line)
        M += std::to_string(L.Line);
      M += ',';
      if (L.Col)
        M += std::to_string(L.Col);
      M += ',' + csvField(L.Function) + ',';
      if (I)
        M += hex(L.RegionId);
      Mid.push_back(std::move(M));
      Tail.push_back(csvField(L.Directive) + ',' + csvField(L.Location) + ',' +
                     (I ? labelQualityName(L.Quality) : ""));
    }
  }
  /// Whether the label parts of label L are made.
  bool hasLabel(std::uint32_t L) const { return L < Mid.size(); }
  /// Node I's row (its label's parts made).
  void row(const Graph &G, std::size_t I, const Node &N) {
    const Site &S = site(N);
    if (Id.value() != I)
      Id.set(I);
    // The most the row takes, the fixed-size copies' overshoot included.
    std::size_t Max = S.Pre + S.Post + 2 * decimal::MaxLen + 3 * Pad;
    if (Max > Buffered::Room || !G.NodeNames.empty() || !G.NodeBytes.empty()) {
      slowRow(G, I, N, S);
      return;
    }
    char *P = B.room(Max);
    P = Id.copy(P);
    const char *T = S.Text.data();
    if (S.Pre <= Pad) // Text has Pad bytes past its end
      std::memcpy(P, T, Pad);
    else
      std::memcpy(P, T, S.Pre);
    P += S.Pre;
    if (N.Parent != NoNode)
      P = decimal::put(P, N.Parent);
    *P++ = ',';
    if (N.Thread != NoThread)
      P = decimal::put(P, std::uint32_t(N.Thread));
    std::memcpy(P, T + S.Pre, S.Post);
    B.done(P + S.Post);
    Id.next();
  }
  void flush() { B.flush(); }

private:
  /// A site's text: ",kind," (Pre bytes), then ",file,...,label_quality,"
  /// and the empty name, bytes_to and bytes_from and the line's end
  /// (",,\n": Post bytes), then Pad bytes of padding.
  struct Site {
    std::string Text;
    std::uint32_t Pre = 0, Post = 0;
  };
  static constexpr std::size_t Pad = decimal::CounterCopy;
  static constexpr std::uint32_t NoSite = ~std::uint32_t(0);
  static constexpr std::size_t Kinds = std::size_t(NodeKind::Count);

  const Site &site(const Node &N) {
    std::size_t K = std::size_t(N.Label) * Kinds + std::size_t(N.Kind);
    if (K >= First.size())
      First.resize(std::max(K + 1, 2 * First.size()));
    Slot &F = First[K];
    if (F.Site == NoSite) {
      F = {N.Flags, makeSite(N)};
    } else if (F.Flags != N.Flags) { // a second set of flags: rare
      auto [It, New] =
          Others.try_emplace(std::make_tuple(N.Label, N.Kind, N.Flags), 0);
      if (New)
        It->second = makeSite(N);
      return Sites[It->second];
    }
    return Sites[F.Site];
  }
  std::uint32_t makeSite(const Node &N) {
    Site S;
    S.Text = std::string(",") + nodeKindName(N.Kind) + ',';
    S.Pre = std::uint32_t(S.Text.size());
    S.Text +=
        ',' + Mid[N.Label] + ',' + flagsText(N) + ',' + Tail[N.Label] + ",,,\n";
    S.Post = std::uint32_t(S.Text.size()) - S.Pre;
    S.Text.append(Pad, '\0');
    Sites.push_back(std::move(S));
    return std::uint32_t(Sites.size() - 1);
  }
  /// A row with a name, or too long for Buffered::room.
  void slowRow(const Graph &G, std::size_t I, const Node &N, const Site &S) {
    const char *T = S.Text.data();
    B << std::string_view(Id.text(), Id.size()) << std::string_view(T, S.Pre);
    if (N.Parent != NoNode)
      B.num(N.Parent);
    B << ',';
    if (N.Thread != NoThread)
      B.num(N.Thread);
    B << std::string_view(T + S.Pre, S.Post - 3); // without ",,\n"
    // The program's name of a phase, mark or labelled task (otter/otter.h).
    if (!G.NodeNames.empty())
      if (std::string Name = G.nameOf(NodeId(I)); !Name.empty())
        B << csvField(Name);
    B << ',';
    // A target construct's bytes to and from the device (Graph::NodeBytes).
    auto Bytes = G.NodeBytes.find(NodeId(I));
    if (Bytes != G.NodeBytes.end()) {
      B.num(Bytes->second.To) << ',';
      B.num(Bytes->second.From);
    } else {
      B << ',';
    }
    B << '\n';
    Id.next();
  }

  // What a node's line takes from its label, made once per label.
  std::vector<std::string> Mid, Tail;
  /// The site of the first flags met per (label, kind), at
  /// label * Kinds + kind; the others' in Others.
  struct Slot {
    std::uint32_t Flags = 0;
    std::uint32_t Site = NoSite;
  };
  std::vector<Slot> First;
  std::map<std::tuple<std::uint32_t, NodeKind, std::uint32_t>, std::uint32_t>
      Others;
  std::vector<Site> Sites;
  decimal::DecimalCounter Id;
  Buffered B;
};

} // namespace

void writeNodesCsv(const Graph &G, std::ostream &OS) {
  NodesRows R(OS);
  R.labels(G, G.Labels.size());
  for (std::size_t I = 0; I < G.Nodes.size(); ++I)
    R.row(G, I, G.Nodes[I]);
  R.flush();
}

void writeNodesCsvFed(const Graph &G, NodeFeed &Feed, std::ostream &OS) {
  NodesRows R(OS);
  std::size_t Done = 0;
  for (;;) {
    std::size_t N = Feed.wait(Done);
    if (N == Done)
      break; // the walk has ended
    // Read only now: the nodes may have moved while none was published
    // beyond Done (NodeFeed::grow).
    const Node *Nodes = G.Nodes.data();
    for (std::size_t I = Done; I < N; ++I) {
      const Node &Nd = Nodes[I];
      if (!R.hasLabel(Nd.Label)) { // a label the walk has added since
        std::lock_guard<std::mutex> L(Feed.labelsLock());
        R.labels(G, G.Labels.size());
      }
      R.row(G, I, Nd);
    }
    Done = N;
    Feed.seen(Done);
  }
  R.flush();
}

void writeEdgesCsv(const Graph &G, std::ostream &OS) {
  Buffered B(OS);
  B << "source,target,kind\n";
  // A row is "source,target,kind\n". The edges are sorted by source, which
  // is often the previous row's: its text ("source,") is kept; the kinds'
  // texts (",kind\n") are made once. Both are copied a fixed 16 bytes.
  constexpr std::size_t Fixed = 16;
  struct Text {
    char T[Fixed] = {};
    unsigned Len = 0;
  };
  Text Kinds[4];
  for (unsigned K = 0; K < 4; ++K) {
    std::string S = std::string(",") + edgeKindName(EdgeKind(K)) + '\n';
    if (S.size() > Fixed) { // never (the names are short): one by one
      for (const Edge &E : G.Edges) {
        B.num(E.Source) << ',';
        B.num(E.Target) << ',' << edgeKindName(E.kind()) << '\n';
      }
      B.flush();
      return;
    }
    std::memcpy(Kinds[K].T, S.data(), S.size());
    Kinds[K].Len = unsigned(S.size());
  }
  // A NodeId's text and a comma: at most 11 bytes.
  Text Src;
  std::uint64_t Last = ~std::uint64_t(0); // no NodeId
  for (const Edge &E : G.Edges) {
    char *P = B.room(3 * Fixed + decimal::MaxLen);
    if (E.Source != Last) {
      Last = E.Source;
      char *End = decimal::put(Src.T, E.Source);
      *End++ = ',';
      Src.Len = unsigned(End - Src.T);
    }
    std::memcpy(P, Src.T, Fixed);
    P = decimal::put(P + Src.Len, NodeId(E.Target));
    const Text &K = Kinds[unsigned(E.kind())];
    std::memcpy(P, K.T, Fixed);
    B.done(P + K.Len);
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

/// The legend of the node and edge kinds marked seen (by kind; the last
/// entry, Count, stands for any kind out of range and is not listed).
static std::string seenLegend(const bool *NodeSeen, const bool *EdgeSeen,
                              const std::string &Note) {
  std::vector<NodeKind> Nodes;
  std::vector<EdgeKind> Edges;
  for (std::size_t K = 0; K < std::size_t(NodeKind::Count); ++K)
    if (NodeSeen[K])
      Nodes.push_back(NodeKind(K));
  for (std::size_t K = 0; K < std::size_t(EdgeKind::Count); ++K)
    if (EdgeSeen[K])
      Edges.push_back(EdgeKind(K));
  return dotLegendNode(Nodes, Edges, Note);
}

namespace {
/// The kernel whose device work each node is (NoNode: none): a kernel node,
/// the items of its task's strand from it to the target region's end (the
/// host plugin runs the kernel as parallel regions there: docs/offload.md)
/// and every node beneath those. A node's parent is made before it.
std::vector<NodeId> deviceWorkOf(const Graph &G) {
  std::vector<NodeId> Of(G.Nodes.size(), NoNode);
  std::unordered_map<NodeId, NodeId> OpenKernel; // by the target's task
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    if (N.Kind == NodeKind::Kernel) {
      OpenKernel[N.Parent] = NodeId(I);
      Of[I] = NodeId(I);
    } else if (N.Kind == NodeKind::TargetEnd) {
      OpenKernel.erase(N.Parent);
    } else if (auto It = OpenKernel.find(N.Parent); It != OpenKernel.end()) {
      Of[I] = It->second;
    } else if (N.Parent < I) {
      Of[I] = Of[N.Parent];
    }
  }
  return Of;
}
} // namespace

void writeDot(const Graph &G, std::ostream &OS) {
  // The source part of a node's label, made once per label.
  // Paths relative to the directory they share, as in the pictures.
  std::string Dir = labelDirectory(G);
  std::vector<std::string> Src(G.Labels.size());
  for (std::size_t I = 0; I < G.Labels.size(); ++I) {
    Node N{.Kind = NodeKind::Task, .Label = (std::uint32_t)I};
    std::string S = nodeSourceText(G, N, Dir);
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
  bool NodeSeen[std::size_t(NodeKind::Count) + 1] = {};
  auto WriteNode = [&](std::size_t I) {
    const Node &N = G.Nodes[I];
    NodeSeen[std::min(std::size_t(N.Kind), std::size_t(NodeKind::Count))] =
        true;
    DotStyle S = dotStyleOf(N.Kind);
    B << "  n";
    B.num(I) << " [label=\"" << nodeKindName(N.Kind) << Src[N.Label];
    const std::string &F = Flags(N);
    if (!F.empty())
      B << "\\n[" << F << ']';
    if (!G.NodeNames.empty())
      if (std::string Name = G.nameOf(NodeId(I)); !Name.empty())
        B << "\\n\\\"" << dotEscape(Name) << "\\\"";
    auto Bytes = G.NodeBytes.find(NodeId(I));
    if (Bytes != G.NodeBytes.end()) {
      B << "\\n";
      B.num(Bytes->second.To) << " B to, ";
      B.num(Bytes->second.From) << " B from device\", bytes_to=";
      B.num(Bytes->second.To) << ", bytes_from=";
      B.num(Bytes->second.From);
    } else {
      B << '"';
    }
    B << ", shape=" << S.Shape << ", fillcolor=\"" << S.Color << "\"];\n";
  };
  // A kernel's device work in a dashed box of its own (host offload: with
  // a GPU the device runs it and these nodes do not exist).
  std::vector<NodeId> Device = deviceWorkOf(G);
  std::map<NodeId, std::vector<std::size_t>> Boxes;
  for (std::size_t I = 0; I < G.Nodes.size(); ++I) {
    if (Device[I] == NoNode)
      WriteNode(I);
    else
      Boxes[Device[I]].push_back(I);
  }
  for (const auto &[Kernel, Members] : Boxes) {
    B << "  subgraph cluster_device_";
    B.num(Kernel) << " {\n  label=\"device work: kernel"
                  << Src[G.Nodes[Kernel].Label]
                  << "\"; style=dashed; color=\"#08519c\"; "
                     "fontcolor=\"#08519c\"; fontsize=9;\n";
    for (std::size_t I : Members)
      WriteNode(I);
    B << "  }\n";
  }
  bool EdgeSeen[std::size_t(EdgeKind::Count) + 1] = {};
  for (const Edge &E : G.Edges) {
    EdgeSeen[std::min(std::size_t(E.kind()), std::size_t(EdgeKind::Count))] =
        true;
    B << "  n";
    B.num(E.Source) << " -> n";
    B.num(E.Target) << " [" << dotEdgeStyle(E.kind()) << "];\n";
  }
  std::string Note = relativeNote(Dir);
  if (!Boxes.empty())
    Note = "dashed box: a kernel's device work (host offload runs it on "
           "host threads)" +
           (Note.empty() ? "" : "<BR ALIGN=\"LEFT\"/>" + Note);
  B << seenLegend(NodeSeen, EdgeSeen, Note) << "}\n";
  B.flush();
}

namespace {
/// "2,692,536"
std::string grouped(std::uint64_t V) {
  std::string D = std::to_string(V), R;
  for (std::size_t I = 0; I < D.size(); ++I) {
    if (I && (D.size() - I) % 3 == 0)
      R += ',';
    R += D[I];
  }
  return R;
}
} // namespace

void writeAggregatedDot(const Graph &G, std::ostream &OS,
                        std::size_t MaxNodes) {
  // Constructs: (node kind, label), grouped and their edges counted as
  // `otter`'s construct graph does (graph/aggregate.h).
  ConstructGroups Groups(std::size_t(NodeKind::Count), G.Labels.size());
  std::vector<std::uint32_t> NodeGroup(G.Nodes.size());
  for (std::size_t I = 0; I < G.Nodes.size(); ++I)
    NodeGroup[I] = Groups.add(unsigned(G.Nodes[I].Kind), G.Nodes[I].Label);
  ConstructEdges Counted(Groups.size());
  for (const Edge &E : G.Edges)
    Counted.add(NodeGroup[E.Source], NodeGroup[E.Target], unsigned(E.kind()));
  std::uint64_t MaxCount = Counted.maxCount();
  std::string Comments;
  if (!G.Filtered.empty())
    Comments += "// filtered: " + oneLine(G.Filtered) + '\n';
  Comments +=
      "// otter aggregated task graph: " + grouped(G.Nodes.size()) +
      " nodes and " + grouped(G.Edges.size()) +
      " edges, more than OTTER_DOT_MAX_NODES=" + grouped(MaxNodes) +
      ", drawn as one node per construct (node kind and source) with its\n"
      "// count, and one edge per pair of constructs and edge kind with its "
      "count. The full graph: nodes.csv and graph.csv, or graph.gv from\n"
      "// OTTER_DOT_MAX_NODES=0 or `otter-graph DIR --format dot "
      "--dot-max-nodes 0` (docs/graph.md).\n";
  AggregateDot Dot(OS, Comments, "otter",
                   "rankdir=TB, fontname=\"Helvetica\", label=\"aggregated: " +
                       grouped(G.Nodes.size()) + " nodes in " +
                       grouped(Groups.size()) + " constructs\", labelloc=t",
                   "style=filled, fontname=\"Helvetica\", fontsize=10",
                   "arrowsize=0.7, fontname=\"Helvetica\", fontsize=9");
  bool NodeSeen[std::size_t(NodeKind::Count) + 1] = {};
  bool EdgeSeen[std::size_t(EdgeKind::Count) + 1] = {};
  std::string Dir = labelDirectory(G);
  for (std::uint32_t I = 0; I < Groups.size(); ++I) {
    Node N{.Kind = NodeKind(Groups.kind(I)),
           .Label = std::uint32_t(Groups.identity(I))};
    NodeSeen[std::min(std::size_t(N.Kind), std::size_t(NodeKind::Count))] =
        true;
    std::string Text = nodeKindName(N.Kind);
    if (std::string Src = nodeSourceText(G, N, Dir); Src != "?")
      Text += "\n" + Src;
    DotStyle S = dotStyleOf(N.Kind);
    Dot.node(I, Text + "\n\u00d7" + grouped(Groups.count(I)), S.Shape, S.Color);
  }
  for (const ConstructEdges::Counted &E : Counted.edges()) {
    EdgeSeen[std::min(std::size_t(E.Kind), std::size_t(EdgeKind::Count))] =
        true;
    Dot.edge(E.From, E.To, dotEdgeStyle(EdgeKind(E.Kind)),
             ", penwidth=" + AggregateDot::penWidth(E.Count, MaxCount),
             grouped(E.Count));
  }
  std::string Note = "one node per construct, &#215;: the nodes it stands "
                     "for; edge labels: the edges";
  if (!Dir.empty())
    Note += "; " + relativeNote(Dir);
  Dot.close(seenLegend(NodeSeen, EdgeSeen, Note));
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
    if (!G.NodeNames.empty())
      if (std::string Name = G.nameOf(NodeId(I)); !Name.empty())
        B << " name=\"" << dotEscape(Name) << '"';
    if (auto Bytes = G.NodeBytes.find(NodeId(I)); Bytes != G.NodeBytes.end()) {
      B << " bytes_to=";
      B.num(Bytes->second.To) << " bytes_from=";
      B.num(Bytes->second.From);
    }
    B << '\n';
    while (E < G.Edges.size() && G.Edges[E].Source < I)
      ++E;
    for (; E < G.Edges.size() && G.Edges[E].Source == I; ++E) {
      B << "  -> n";
      B.num(G.Edges[E].Target)
          << ' ' << edgeKindName(G.Edges[E].kind()) << '\n';
    }
  }
  B.flush();
}

} // namespace otter
