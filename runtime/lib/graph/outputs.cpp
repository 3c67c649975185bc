//===- graph/outputs.cpp - Graph files by name; the output-list parser ----===//
#include "graph/outputs.h"
#include "graph/graph.h"
#include "graph/mpi_graph.h"
#include "graph/node_feed.h"
#include "graph/writers.h"
#include "graph/zstd_file.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>

namespace otter {

bool writeOutputFile(const std::string &Path,
                     const std::function<void(std::ostream &)> &Fn,
                     std::string &Error) {
  std::ofstream OS(Path, std::ios::out | std::ios::trunc);
  if (!OS) {
    Error = "cannot write " + Path + ": " + std::strerror(errno);
    return false;
  }
  errno = 0;
  Fn(OS);
  OS.flush();
  if (!OS) {
    Error = "error writing " + Path +
            (errno ? std::string(": ") + std::strerror(errno)
                   : std::string(" (disk full?)")) +
            "; removed it";
    OS.close();
    std::remove(Path.c_str());
    return false;
  }
  return true;
}

bool writeZstdOutputFile(const std::string &Path,
                         const std::function<void(std::ostream &)> &Fn,
                         std::string &Error, int Workers) {
  errno = 0;
  // Level 1: the tables compress ~6x at it, at several hundred MB/s; higher
  // levels cost more time at exit than they save on disk.
  ZstdFileBuf Buf(Path, 1, Workers);
  if (!Buf.isOpen()) {
    Error = "cannot write " + Path + ": " + std::strerror(errno);
    return false;
  }
  {
    std::ostream OS(&Buf);
    Fn(OS);
    OS.flush();
  }
  if (!Buf.finish()) {
    Error = "error writing " + Path +
            (errno ? std::string(": ") + std::strerror(errno)
                   : std::string(" (disk full?)")) +
            "; removed it";
    std::remove(Path.c_str());
    return false;
  }
  return true;
}

namespace {

/// Graphs with more nodes write nodes.csv and graph.csv in two threads.
constexpr std::size_t ParallelWriteNodes = 100000;

/// libzstd's threads compressing the edges' table of a big graph while
/// its rows are formatted: the table is the last thing the exit waits for
/// (the nodes' table was written during the walk), and it compresses at a
/// third of the speed of the nodes' table (numbers against repeated text).
constexpr int EdgesZstdWorkers = 2;

bool writeFile(const Graph &G, const std::string &Dir, const char *Name,
               void (*Fn)(const Graph &, std::ostream &), std::string &Error,
               bool Zstd = false, int Workers = 0) {
  if (Zstd)
    return writeZstdOutputFile(
        Dir + "/" + Name + ".zst", [&](std::ostream &OS) { Fn(G, OS); }, Error,
        Workers);
  return writeOutputFile(
      Dir + "/" + Name, [&](std::ostream &OS) { Fn(G, OS); }, Error);
}

/// The tables; an MPI rank's graph also has its calls' table, mpi.csv
/// (docs/mpi.md), which the "wrote" line does not list.
bool writeCsv(const Graph &G, const std::string &Dir, const GraphFormats &F,
              std::string &Error, NodesTable *Early) {
  bool Z = F.nodesCsvCompressed(G.Nodes.size());
  bool ZEdges = F.edgesCsvCompressed(G.Nodes.size());
  // The two big tables side by side when they are big: each is formatted
  // (and compressed) by its own thread; at exit the program's threads are
  // idle. Sequential if a thread cannot be made.
  NodesTable Own;
  NodesTable &Nodes = Early && Early->Thread.joinable() ? *Early : Own;
  if (&Nodes == &Own)
    startNodesTable(G, Dir, F, Own);
  if (!Nodes.Thread.joinable())
    Nodes.Ok = writeFile(G, Dir, "nodes.csv", writeNodesCsv, Nodes.Error, Z);
  bool EdgesOk =
      writeFile(G, Dir, "graph.csv", writeEdgesCsv, Error, ZEdges,
                G.Edges.size() > ParallelWriteNodes ? EdgesZstdWorkers : 0);
  Nodes.join();
  if (Nodes.Redo) {
    Nodes.Redo = false;
    Nodes.Ok = writeFile(G, Dir, "nodes.csv", writeNodesCsv, Nodes.Error, Z);
  }
  bool NodesOk = Nodes.Ok;
  if (!NodesOk)
    Error = Nodes.Error;
  return NodesOk && EdgesOk &&
         (G.Mpi.empty() || writeFile(
                               G, Dir, "mpi.csv",
                               [](const Graph &G, std::ostream &OS) {
                                 writeMpiCsv(G.Mpi, G.Names, OS);
                               },
                               Error, Z));
}

bool writeGv(const Graph &G, const std::string &Dir, const GraphFormats &F,
             std::string &Error, NodesTable *) {
  if (F.dotAggregated(G.Nodes.size()))
    return writeOutputFile(
        Dir + "/graph.gv",
        [&](std::ostream &OS) { writeAggregatedDot(G, OS, F.DotMaxNodes); },
        Error);
  return writeFile(G, Dir, "graph.gv", writeDot, Error);
}

bool writeTxt(const Graph &G, const std::string &Dir, const GraphFormats &,
              std::string &Error, NodesTable *) {
  return writeFile(G, Dir, "graph.txt", writeCanonical, Error);
}

constexpr GraphOutput Outputs[] = {
    {"csv", "", "nodes.csv graph.csv", &GraphFormats::Csv, writeCsv},
    {"dot", "gv", "graph.gv", &GraphFormats::Dot, writeGv},
    {"canon", "canonical txt", "graph.txt", &GraphFormats::Canonical,
     writeTxt},
};

std::string lowerTrimmed(std::string_view S) {
  std::size_t B = S.find_first_not_of(" \t");
  if (B == std::string_view::npos)
    return "";
  S = S.substr(B, S.find_last_not_of(" \t") - B + 1);
  std::string R(S);
  for (char &C : R)
    C = char(std::tolower((unsigned char)C));
  return R;
}

/// Whether Item is Name or one of the space-separated Aliases.
bool names(const OutputChoice &C, std::string_view Item) {
  if (Item == C.Name)
    return true;
  std::string_view A = C.Aliases;
  while (!A.empty()) {
    std::size_t Sp = A.find(' ');
    if (A.substr(0, Sp) == Item)
      return true;
    A = Sp == std::string_view::npos ? std::string_view() : A.substr(Sp + 1);
  }
  return false;
}

std::vector<OutputChoice> graphChoices() {
  std::vector<OutputChoice> C;
  for (const GraphOutput &O : Outputs)
    C.push_back({O.Name, O.Aliases});
  return C;
}

} // namespace

std::span<const GraphOutput> graphOutputs() { return Outputs; }

bool parseOutputList(std::string_view List,
                     std::span<const OutputChoice> Choices, bool AllowNone,
                     std::vector<bool> &On, std::string &Bad) {
  std::vector<bool> Got(Choices.size(), false);
  while (true) {
    std::size_t Comma = List.find(',');
    std::string Item = lowerTrimmed(List.substr(0, Comma));
    bool Known = false;
    if (Item == "all") {
      Got.assign(Choices.size(), true);
      Known = true;
    } else if (AllowNone && Item == "none") {
      Known = true;
    } else {
      for (std::size_t I = 0; I < Choices.size(); ++I)
        if (names(Choices[I], Item)) {
          Got[I] = true;
          Known = true;
        }
    }
    if (!Known) {
      Bad = Item;
      return false;
    }
    if (Comma == std::string_view::npos)
      break;
    List = List.substr(Comma + 1);
  }
  On = std::move(Got);
  return true;
}

std::string outputListNames(std::span<const OutputChoice> Choices,
                            bool AllowNone) {
  std::string S;
  for (const OutputChoice &C : Choices)
    S += std::string(C.Name) + ", ";
  return S + (AllowNone ? "all, none" : "all");
}

bool parseGraphFormats(std::string_view List, bool AllowNone, GraphFormats &F,
                       std::string &Bad) {
  std::vector<OutputChoice> Choices = graphChoices();
  std::vector<bool> On;
  if (!parseOutputList(List, Choices, AllowNone, On, Bad))
    return false;
  for (std::size_t I = 0; I < On.size(); ++I)
    F.*Outputs[I].Flag = On[I];
  return true;
}

std::string graphFormatNames(bool AllowNone) {
  return outputListNames(graphChoices(), AllowNone);
}

std::string csvFiles(const GraphFormats &F, std::size_t Nodes,
                     const char *Between) {
  return std::string(F.nodesCsvCompressed(Nodes) ? "nodes.csv.zst"
                                                 : "nodes.csv") +
         Between +
         (F.edgesCsvCompressed(Nodes) ? "graph.csv.zst" : "graph.csv");
}

std::string graphFormatFiles(const GraphFormats &F, std::size_t Nodes) {
  std::string S;
  for (const GraphOutput &O : Outputs) {
    if (!(F.*O.Flag))
      continue;
    if (O.Flag == &GraphFormats::Csv) {
      S += (S.empty() ? "" : " ") + csvFiles(F, Nodes, " ");
      continue;
    }
    S += (S.empty() ? "" : " ") + std::string(O.Files);
  }
  return S;
}

void startNodesTable(const Graph &G, const std::string &Dir,
                     const GraphFormats &F, NodesTable &T) {
  if (!F.Csv || G.Nodes.size() <= ParallelWriteNodes || T.Thread.joinable())
    return;
  bool Z = F.nodesCsvCompressed(G.Nodes.size());
  T.Path = Dir + (Z ? "/nodes.csv.zst" : "/nodes.csv");
  try {
    T.Thread = std::thread([&G, &T, Dir, Z] {
      T.Ok = writeFile(G, Dir, "nodes.csv", writeNodesCsv, T.Error, Z);
    });
  } catch (...) { // no thread: writeGraphFiles writes it
  }
}

NodeFeed *startNodesStream(const Graph &G, const std::string &Dir,
                           const GraphFormats &F, NodesTable &T,
                           std::size_t MaxNodes) {
  if (!F.Csv || MaxNodes <= ParallelWriteNodes || T.Thread.joinable())
    return nullptr;
  bool Z = F.nodesCsvCompressed(MaxNodes);
  T.Path = Dir + (Z ? "/nodes.csv.zst" : "/nodes.csv");
  try {
    T.Feed = std::make_unique<NodeFeed>();
    T.Thread = std::thread([&G, &T, Z, F] {
      NodeFeed &Feed = *T.Feed;
      auto Rows = [&](std::ostream &OS) { writeNodesCsvFed(G, Feed, OS); };
      T.Ok = Z ? writeZstdOutputFile(T.Path, Rows, T.Error)
               : writeOutputFile(T.Path, Rows, T.Error);
      // Read or not (a file that cannot be opened), the walk goes on
      // without waiting; the name was right only if the graph is as big as
      // it could be.
      Feed.abandon();
      if (F.nodesCsvCompressed(Feed.waitEnd()) != Z) {
        std::remove(T.Path.c_str());
        T.Ok = true;
        T.Error.clear();
        T.Redo = true;
      }
    });
  } catch (...) { // no thread: writeGraphFiles writes it
    T.Feed.reset();
    return nullptr;
  }
  return T.Feed.get();
}

NodesTable::NodesTable() = default;

NodesTable::~NodesTable() {
  if (Feed)
    Feed->abandon();
  join();
}

void NodesTable::discard() {
  if (Feed)
    Feed->abandon();
  if (!Thread.joinable())
    return;
  Thread.join();
  if (!Path.empty() && !Redo)
    std::remove(Path.c_str());
}

bool writeGraphFiles(const Graph &G, const std::string &Dir,
                     const GraphFormats &F, std::string &Error,
                     NodesTable *Early, std::string *Written) {
  // A big graph's graph.gv is written on a thread of its own beside the
  // tables (it reads the sorted edges too, and would otherwise wait for
  // them to be written).
  std::size_t Aside = std::size(Outputs);
  bool AsideOk = true;
  std::string AsideError;
  std::thread AsideThread;
  if (F.Csv && F.Dot && G.Nodes.size() > ParallelWriteNodes)
    for (std::size_t I = 0; I < std::size(Outputs); ++I)
      if (Outputs[I].Flag == &GraphFormats::Dot) {
        try {
          AsideThread = std::thread([&, I] {
            AsideOk = Outputs[I].Write(G, Dir, F, AsideError, nullptr);
          });
          Aside = I;
        } catch (...) { // no thread: written in turn below
        }
      }
  // Every output is attempted; each failure is named, in table order.
  std::vector<std::string> Errors(std::size(Outputs));
  std::vector<bool> Ok(std::size(Outputs), true);
  for (std::size_t I = 0; I < std::size(Outputs); ++I)
    if (I != Aside && F.*Outputs[I].Flag)
      Ok[I] = Outputs[I].Write(G, Dir, F, Errors[I], Early);
  if (Early) // its file is part of the tables, written first
    Early->join();
  if (AsideThread.joinable())
    AsideThread.join();
  if (Aside < std::size(Outputs)) {
    Ok[Aside] = AsideOk;
    Errors[Aside] = AsideError;
  }
  Error.clear();
  std::string Files;
  for (std::size_t I = 0; I < std::size(Outputs); ++I) {
    if (!(F.*Outputs[I].Flag))
      continue;
    if (!Ok[I]) {
      Error += (Error.empty() ? "" : "; ") + Errors[I];
      continue;
    }
    Files += (Files.empty() ? "" : " ") +
             (Outputs[I].Flag == &GraphFormats::Csv
                  ? csvFiles(F, G.Nodes.size(), " ")
                  : std::string(Outputs[I].Files));
  }
  if (Written)
    *Written = Files;
  return Error.empty();
}

} // namespace otter
