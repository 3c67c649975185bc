//===- otter/export.h - Perfetto trace and aggregate graph ------*- C++ -*-===//
//
// Two observers of the streaming analysis (analysis.h), for `otter export`:
// PerfettoWriter writes a timeline as the events are read, AggregateGraph
// counts edges between source constructs. Neither holds the trace: memory
// follows the tasks created and not yet started (pending flows), and the
// distinct constructs and edges.
// The full task graph is otter-graph's (main.cpp runs it).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_EXPORT_H
#define OTTER_UTILS_EXPORT_H

#include "analysis.h"
#include "report.h"

#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <unordered_map>
#include <vector>

namespace otter::analysis {

/// Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one track
/// per thread, a complete ("X") slice per task execution and per construct
/// instance, named "<kind> <file:line>", and flow arrows ("s"/"f") for
/// creation and dependence edges. Streams: memory is the pending flows.
class PerfettoWriter final : public Observer {
public:
  PerfettoWriter(std::ostream &OS, LabelFn Label);
  ~PerfettoWriter() override;
  void task(std::uint32_t Thread, std::uint64_t Id, std::uint64_t Code,
            std::uint64_t Start, std::uint64_t End,
            std::uint64_t ExecNs) override;
  void construct(std::uint32_t Thread, Kind K, std::uint64_t Code,
                 std::uint64_t Start, std::uint64_t End) override;
  void flow(bool Dependence, std::uint32_t FromThread, std::uint64_t FromTime,
            std::uint64_t ToTask) override;
  void constructEdge(std::uint64_t, Kind, std::uint64_t, Kind,
                     const char *) override {}
  /// The program's annotations (otter/otter.h): a slice per phase instance
  /// ("phase NAME", category phase), an instant event per mark ("mark
  /// NAME"), and a labelled task's slice named "task <file:line> [NAME]"
  /// with args.label. Names: the trace's name table (setNames).
  void phase(std::uint32_t Thread, std::uint32_t Name, std::uint64_t Begin,
             std::uint64_t End) override;
  void taskLabel(std::uint64_t Id, std::uint32_t Name) override;
  void mark(std::uint32_t Thread, std::uint32_t Name,
            std::uint64_t Time) override;
  void setNames(std::vector<std::string> N) { NameTable = std::move(N); }
  /// The state timeline (states.h): beside each thread's track, a track
  /// "OpenMP thread N state" with a slice per waiting interval ("waiting
  /// taskwait", category state) and per idle interval ("idle"); the gaps
  /// between them are the thread running its task (whose own slice spans
  /// its waits too).
  void state(std::uint32_t Thread, const StateInterval &I) override;
  bool wantsStates() const override { return true; }
  /// An MPI job: thread T of the stream is thread Local[T] of rank
  /// Rank[T], shown as process Rank[T] + 1 ("MPI rank N"). Before the
  /// first event.
  void setRanks(std::vector<std::uint32_t> Rank,
                std::vector<std::uint32_t> Local);
  /// A flow arrow for a message (or any edge between ranks): from
  /// FromThread at FromTime to ToThread at ToTime.
  /// Name: the arrow's name and category ("message", "collective").
  void message(std::uint32_t FromThread, std::uint64_t FromTime,
               std::uint32_t ToThread, std::uint64_t ToTime,
               const char *Name = "message");
  /// An MPI call's slice, named "<function> <file:line>" (MPI_Send
  /// ring.c:21; category mpi) with what the call did as args when
  /// setMpiCallArgs gave them (export_mpi.cpp).
  void mpiCall(std::uint32_t Thread, std::uint64_t Code,
               std::uint16_t Function, std::uint64_t Start,
               std::uint64_t End) override;
  /// The args object (JSON, "{...}") of each MPI call, by the stream's
  /// thread and the call's start on the stream's clock. Before the first
  /// event.
  using MpiCallKey = std::pair<std::uint32_t, std::uint64_t>;
  void setMpiCallArgs(std::map<MpiCallKey, std::string> Args) {
    MpiArgs = std::move(Args);
  }
  /// Writes the thread metadata, closes the JSON document and flushes.
  void finish(std::uint32_t Threads);
  std::uint64_t slices() const { return Slices; }
  /// Target offload: a slice on the device's track (a track per stream of
  /// overlapping slices, "device N stream S") and a flow from the host
  /// thread to it (export_device.cpp). Not in an MPI job's export.
  void device(std::uint32_t Thread, std::int32_t Device, const char *What,
              std::uint64_t Code, std::uint64_t Start, std::uint64_t End,
              std::uint64_t Bytes) override;

private:
  // Slices are formatted into a large buffer (std::to_chars, no iostream
  // per field) that goes to the stream in one write when full. Each record
  // but its name fits in Reserve bytes, so one room(Reserve) per record lets
  // lit() and num() write without a bounds check of their own.
  static constexpr std::size_t BufSize = 1 << 20, Reserve = 4096;
  const std::string &name(Kind K, std::uint64_t Code);
  void sep() {
    if (!First) {
      Cur[0] = ',';
      Cur[1] = '\n';
      Cur += 2;
    }
    First = false;
  }
  void room(std::size_t N) {
    if (std::size_t(End - Cur) < N)
      flush();
  }
  void flush();
  void put(const char *S, std::size_t N) {
    room(N);
    std::memcpy(Cur, S, N);
    Cur += N;
  }
  void put(const std::string &S) { put(S.data(), S.size()); }
  template <std::size_t N> void lit(const char (&S)[N]) {
    std::memcpy(Cur, S, N - 1);
    Cur += N - 1;
  }
  void putName(const std::string &Name); // then room for Reserve bytes
  void num(std::uint64_t X);
  // Numbers that follow each other closely (timestamps, ids) share their
  // leading digits: X = Hi * 10^4 + Lo prints as Hi's cached digits and
  // Lo's 4 digits.
  struct Prefix {
    std::uint64_t Hi = ~0ull;
    unsigned Len = 0;
    char Digits[24];
  };
  void num(std::uint64_t X, Prefix &P);
  void us(std::uint64_t Ns, Prefix &P); // "<us>.<ns, 3 digits>"
  // One prefix per number series. Task ids are makeId(thread, count)
  // (otter/events.h): one prefix per thread (mod 4), so interleaved threads
  // do not evict each other's.
  Prefix TsPrefix, DurPrefix, FlowPrefix, IdPrefix[4];
  std::ostream &OS;
  LabelFn Label;
  std::unique_ptr<char[]> Buf;
  char *Cur, *End;
  bool First = true;
  std::uint64_t Slices = 0, NextFlow = 1;
  std::vector<std::uint32_t> RankOf, LocalOf; // setRanks; empty: one process
  /// ,"pid":P,"tid":T of a stream thread.
  void pidTid(std::uint32_t Thread, bool StateTrack = false);
  /// A thread's state track: its tid + StateTid (thread ids are < 2^20).
  static constexpr std::uint32_t StateTid = 1u << 20;
  std::vector<bool> HasStates; // by stream thread
  void stateTrackNames();      // their thread_name metadata (finish)
  /// Device tracks (export_device.cpp): tid DeviceTid + index.
  static constexpr std::uint32_t DeviceTid = 2u << 20;
  struct DeviceTrack {
    std::int32_t Device;
    std::uint32_t Stream;
    std::uint64_t End; // of its last slice
  };
  std::vector<DeviceTrack> DevTracks;
  void deviceTrackNames(); // their thread_name metadata (finish)
  std::map<std::pair<int, std::uint64_t>, std::string> Names;
  std::vector<std::string> NameTable;                         // setNames
  std::map<MpiCallKey, std::string> MpiArgs; // setMpiCallArgs
  std::map<std::pair<std::uint16_t, std::uint64_t>, std::string> MpiNames;
  std::unordered_map<std::uint64_t, std::uint32_t> TaskNames; // labels
  std::string nameText(std::uint32_t N) const;
  std::string whereText(Kind K, std::uint64_t Code);
  struct NameCacheEntry {
    const std::string *Name = nullptr;
    std::uint64_t Code = 0;
    int K = 0;
  };
  NameCacheEntry NameCache[64];
  // Pending flows into tasks that have not started yet: task id -> the
  // first flow inline (an open-addressing table: as many entries as tasks
  // created and not yet started), further ones (dependences) in a side
  // table.
  struct FlowSet {
    std::uint64_t Task = 0, Flow = 0;
    bool Used = false, Dep = false, More = false;
  };
  class FlowTable {
  public:
    FlowSet *find(std::uint64_t Task);
    /// The entry of Task, a new one (Used, Task set) if absent.
    FlowSet &get(std::uint64_t Task, bool &New);
    void erase(FlowSet *E);

  private:
    std::size_t home(std::uint64_t Task) const {
      return std::size_t((Task * 0x9E3779B97F4A7C15ull) >> Shift);
    }
    void grow();
    std::vector<FlowSet> T = std::vector<FlowSet>(64);
    unsigned Shift = 64 - 6;
    std::size_t N = 0;
  };
  FlowTable Pending;
  std::unordered_map<std::uint64_t,
                     std::vector<std::pair<std::uint64_t, bool>>>
      PendingMore;
};

/// One node per source construct, edges (create, dependence, scope)
/// counted per pair of constructs (ConstructEdges in graph/aggregate.h,
/// as graph.gv's aggregation counts them).
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
  /// The aggregated graph in dot, as picture::aggregateDot writes it
  /// without the critical path.
  void writeDot(const Result &R, const LabelFn &Label, std::ostream &OS) const;
  /// A construct's task labels, as its node shows them: the most common
  /// one and its count, and how many more ("" if none is labelled).
  std::string labelsText(const ConstructStats &S) const;
  void writeCsv(const Result &R, const LabelFn &Label, std::ostream &Nodes,
                std::ostream &Edges) const;
  /// The trace's name table: a task construct's node names its tasks'
  /// labels (otter_task_label): the most common one, with its count, and
  /// how many distinct labels its tasks carry.
  void setNames(const std::vector<std::string> &N) { Names = N; }

  /// The graph: one node per source construct (groupConstructs' order),
  /// edges (from, to, kind, count) between them.
  struct Built {
    GroupedConstructs Groups; // the nodes, and which node a code is in
    std::vector<
        std::tuple<std::size_t, std::size_t, std::string, std::uint64_t>>
        Edges;
  };
  Built build(const Result &R, const LabelFn &Label) const;

  struct Key {
    std::uint64_t From, To;
    std::uint8_t FromK, ToK;
    const char *Kind;
    bool operator<(const Key &O) const {
      if (From != O.From) return From < O.From;
      if (To != O.To) return To < O.To;
      if (FromK != O.FromK) return FromK < O.FromK;
      if (ToK != O.ToK) return ToK < O.ToK;
      return std::strcmp(Kind, O.Kind) < 0;
    }
  };

private:
  std::vector<std::string> Names;
  std::map<Key, std::uint64_t> Edges;
  // A program has few distinct edges, counted over and over: a
  // direct-mapped cache of counters (map nodes are stable) in front of the
  // ordered map. EdgeKind is compared by address here (a literal).
  struct CacheEntry {
    std::uint64_t From = 0, To = 0;
    const char *Kind = nullptr;
    std::uint8_t FromK = 0, ToK = 0;
    std::uint64_t *Count = nullptr;
  };
  static constexpr std::size_t CacheSize = 1024;
  std::unique_ptr<CacheEntry[]> Cache{new CacheEntry[CacheSize]};
};

} // namespace otter::analysis

#endif
