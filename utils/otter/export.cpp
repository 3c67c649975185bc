//===- otter/export.cpp - Perfetto trace and aggregate graph exports -----===//
#include "export.h"

#include <cstdio>

namespace otter::analysis {

static std::string us(std::uint64_t Ns) {
  char B[40];
  std::snprintf(B, sizeof B, "%llu.%03llu", (unsigned long long)(Ns / 1000),
                (unsigned long long)(Ns % 1000));
  return B;
}

PerfettoWriter::PerfettoWriter(std::ostream &O, LabelFn L)
    : OS(O), Label(std::move(L)) {
  OS << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
}

const std::string &PerfettoWriter::name(Kind K, std::uint64_t Code) {
  auto [It, New] = Names.try_emplace({int(K), Code});
  if (New) {
    std::string W = K == Kind::Initial && !Code
                        ? std::string("(program)")
                        : sourceText(Code ? Label(Code) : SourceLabel{});
    It->second = jsonString(std::string(kindName(K)) + " " + W);
  }
  return It->second;
}

void PerfettoWriter::sep() {
  if (!First)
    OS << ",\n";
  First = false;
}

void PerfettoWriter::task(std::uint32_t Thread, std::uint64_t Id,
                          std::uint64_t Code, std::uint64_t Start,
                          std::uint64_t End, std::uint64_t ExecNs) {
  sep();
  ++Slices;
  OS << "{\"name\":" << name(Kind::Task, Code)
     << ",\"cat\":\"task\",\"ph\":\"X\",\"ts\":" << us(Start)
     << ",\"dur\":" << us(End > Start ? End - Start : 0)
     << ",\"pid\":1,\"tid\":" << Thread << ",\"args\":{\"task\":" << Id
     << ",\"exec_ns\":" << ExecNs << "}}";
  auto It = Pending.find(Id);
  if (It == Pending.end())
    return;
  for (auto [Flow, Dep] : It->second) {
    sep();
    OS << "{\"name\":\"" << (Dep ? "dependence" : "create") << "\",\"cat\":\""
       << (Dep ? "dependence" : "create")
       << "\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" << Flow
       << ",\"ts\":" << us(Start) << ",\"pid\":1,\"tid\":" << Thread << "}";
  }
  Pending.erase(It);
}

void PerfettoWriter::construct(std::uint32_t Thread, Kind K,
                               std::uint64_t Code, std::uint64_t Start,
                               std::uint64_t End) {
  sep();
  ++Slices;
  OS << "{\"name\":" << name(K, Code) << ",\"cat\":\"" << kindName(K)
     << "\",\"ph\":\"X\",\"ts\":" << us(Start)
     << ",\"dur\":" << us(End > Start ? End - Start : 0)
     << ",\"pid\":1,\"tid\":" << Thread << "}";
}

void PerfettoWriter::flow(bool Dep, std::uint32_t FromThread,
                          std::uint64_t FromTime, std::uint64_t ToTask) {
  std::uint64_t Id = NextFlow++;
  sep();
  OS << "{\"name\":\"" << (Dep ? "dependence" : "create") << "\",\"cat\":\""
     << (Dep ? "dependence" : "create") << "\",\"ph\":\"s\",\"id\":" << Id
     << ",\"ts\":" << us(FromTime) << ",\"pid\":1,\"tid\":" << FromThread
     << "}";
  Pending[ToTask].push_back({Id, Dep});
}

void PerfettoWriter::finish(std::uint32_t Threads) {
  sep();
  OS << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":"
        "\"OpenMP program\"}}";
  for (std::uint32_t T = 0; T < Threads; ++T) {
    OS << ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" << T
       << ",\"args\":{\"name\":\"OpenMP thread " << T << "\"}}";
  }
  OS << "\n]}\n";
}

void AggregateGraph::constructEdge(std::uint64_t FromCode, Kind FromKind,
                                   std::uint64_t ToCode, Kind ToKind,
                                   const char *EdgeKind) {
  ++Edges[{FromCode, ToCode, std::uint8_t(FromKind), std::uint8_t(ToKind),
           EdgeKind}];
}

AggregateGraph::Built AggregateGraph::build(const Result &R,
                                            const LabelFn &Label) const {
  Built B;
  B.Nodes = groupConstructs(R, Label);
  std::map<std::pair<int, std::string>, std::size_t> Index;
  auto keyOf = [&](Kind K, std::uint64_t Code) {
    SourceLabel L = Code ? Label(Code) : SourceLabel{};
    std::string Key = L.RegionId ? std::to_string(L.RegionId)
                      : L.Line   ? L.File + ":" + std::to_string(L.Line)
                                 : std::to_string(Code);
    return std::make_pair(int(K), Key);
  };
  for (std::size_t I = 0; I < B.Nodes.size(); ++I)
    Index.emplace(keyOf(B.Nodes[I].S.K, B.Nodes[I].S.Code), I);
  std::map<std::tuple<std::size_t, std::size_t, std::string>, std::uint64_t> M;
  for (auto &[K, N] : Edges) {
    auto F = Index.find(keyOf(Kind(K.FromK), K.From));
    auto T = Index.find(keyOf(Kind(K.ToK), K.To));
    if (F == Index.end() || T == Index.end())
      continue;
    M[{F->second, T->second, K.Kind}] += N;
  }
  for (auto &[K, N] : M)
    B.Edges.emplace_back(std::get<0>(K), std::get<1>(K), std::get<2>(K), N);
  return B;
}

void AggregateGraph::writeDot(const Result &R, const LabelFn &Label,
                              std::ostream &OS) const {
  Built B = build(R, Label);
  OS << "digraph otter_aggregate {\n  node [fontname=\"Helvetica\"];\n";
  for (std::size_t I = 0; I < B.Nodes.size(); ++I) {
    const Construct &C = B.Nodes[I];
    const char *Shape = C.S.K == Kind::Task ? "ellipse"
                        : C.S.K == Kind::Parallel ? "trapezium"
                                                  : "box";
    OS << "  n" << I << " [shape=" << Shape << ",label="
       << jsonString(std::string(kindName(C.S.K)) + "\n" + C.where() +
                     "\n" + std::to_string(C.S.Instances) + "x, " +
                     fmtNs(double(C.S.TotalNs)))
       << "];\n";
  }
  for (auto &[F, T, K, N] : B.Edges) {
    const char *Style = K == "create"       ? "color=darkgreen"
                        : K == "dependence" ? "color=purple,style=bold"
                                            : "color=grey";
    OS << "  n" << F << " -> n" << T << " [" << Style << ",label=\"" << N
       << "\"];\n";
  }
  OS << "}\n";
}

void AggregateGraph::writeCsv(const Result &R, const LabelFn &Label,
                              std::ostream &Nodes, std::ostream &Es) const {
  Built B = build(R, Label);
  Nodes << "id,kind,where,region_id,instances,total_ns\n";
  for (std::size_t I = 0; I < B.Nodes.size(); ++I) {
    const Construct &C = B.Nodes[I];
    Nodes << I << "," << kindName(C.S.K) << "," << jsonString(C.where())
          << "," << C.L.RegionId << "," << C.S.Instances << ","
          << C.S.TotalNs << "\n";
  }
  Es << "source,target,kind,count\n";
  for (auto &[F, T, K, N] : B.Edges)
    Es << F << "," << T << "," << K << "," << N << "\n";
}

} // namespace otter::analysis
