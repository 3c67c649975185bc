//===- otter/export.h - Perfetto trace and aggregate graph exports -*- C++ -*-===//
#ifndef OTTER_UTILS_EXPORT_H
#define OTTER_UTILS_EXPORT_H

#include "analysis.h"
#include "report.h"

#include <map>
#include <ostream>
#include <unordered_map>

namespace otter::analysis {

/// Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one track
/// per thread, a complete ("X") slice per task execution and per construct
/// instance, named "<kind> <file:line>", and flow arrows ("s"/"f") for
/// creation and dependence edges. Streams: memory is the pending flows.
class PerfettoWriter final : public Observer {
public:
  PerfettoWriter(std::ostream &OS, LabelFn Label);
  void task(std::uint32_t Thread, std::uint64_t Id, std::uint64_t Code,
            std::uint64_t Start, std::uint64_t End,
            std::uint64_t ExecNs) override;
  void construct(std::uint32_t Thread, Kind K, std::uint64_t Code,
                 std::uint64_t Start, std::uint64_t End) override;
  void flow(bool Dependence, std::uint32_t FromThread, std::uint64_t FromTime,
            std::uint64_t ToTask) override;
  void constructEdge(std::uint64_t, Kind, std::uint64_t, Kind,
                     const char *) override {}
  /// Writes the thread metadata and closes the JSON document.
  void finish(std::uint32_t Threads);
  std::uint64_t slices() const { return Slices; }

private:
  const std::string &name(Kind K, std::uint64_t Code);
  void sep();
  std::ostream &OS;
  LabelFn Label;
  bool First = true;
  std::uint64_t Slices = 0, NextFlow = 1;
  std::map<std::pair<int, std::uint64_t>, std::string> Names;
  std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint64_t, bool>>>
      Pending; // task id -> (flow id, dependence)
};

/// One node per source construct, edges (create, dependence, scope)
/// counted per pair of constructs.
class AggregateGraph final : public Observer {
public:
  void task(std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t,
            std::uint64_t, std::uint64_t) override {}
  void construct(std::uint32_t, Kind, std::uint64_t, std::uint64_t,
                 std::uint64_t) override {}
  void flow(bool, std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void constructEdge(std::uint64_t FromCode, Kind FromKind,
                     std::uint64_t ToCode, Kind ToKind,
                     const char *EdgeKind) override;
  void writeDot(const Result &R, const LabelFn &Label, std::ostream &OS) const;
  void writeCsv(const Result &R, const LabelFn &Label, std::ostream &Nodes,
                std::ostream &Edges) const;

  struct Key {
    std::uint64_t From, To;
    std::uint8_t FromK, ToK;
    const char *Kind;
    bool operator<(const Key &O) const {
      if (From != O.From) return From < O.From;
      if (To != O.To) return To < O.To;
      if (FromK != O.FromK) return FromK < O.FromK;
      if (ToK != O.ToK) return ToK < O.ToK;
      return std::string(Kind) < O.Kind;
    }
  };

private:
  struct Built {
    std::vector<Construct> Nodes;
    std::vector<std::tuple<std::size_t, std::size_t, std::string, std::uint64_t>>
        Edges;
  };
  Built build(const Result &R, const LabelFn &Label) const;
  std::map<Key, std::uint64_t> Edges;
};

} // namespace otter::analysis

#endif
