//===- otter/report_timeline.h - The report's timeline ----------*- C++ -*-===//
//
// `otter report`'s section "Per-thread timeline": each thread's state
// timeline (states.h, the analysis' one time model) of a window, binned,
// drawn as an SVG row per thread with a legend, and its exact totals in
// the page's data block. A task waiting in its own taskwait is drawn as
// waiting, not as the task running: the bins add up the analysis' state
// intervals, not the tasks' first-start-to-completion slices. Beneath the
// threads, a row per offload device: its kernels and data operations
// (analysis_offload.cpp, as the host saw them), binned the same way.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_REPORT_TIMELINE_H
#define OTTER_UTILS_REPORT_TIMELINE_H

#include "analysis.h"
#include "report.h"
#include "states.h"

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace otter::html {

/// Per-thread timelines of a window, binned: in each bin, how long the
/// thread ran explicit tasks (and the construct with most time there),
/// ran an implicit or initial task's own code, waited in a taskwait,
/// taskgroup or barrier, waited for a lock, critical or ordered, waited in
/// an MPI call, or was idle. A bin shows what the thread did most there.
/// An analysis observer, streaming: a window given in advance has fixed
/// bins; the whole run (not known until the end) starts with 1 us bins
/// and doubles their width, merging pairs, whenever an interval ends past
/// the last: memory is Bins per thread, whatever the trace's length.
class Timeline final : public analysis::Observer {
public:
  /// What a bin is drawn as (the legend's entries).
  enum Class : unsigned {
    Task,
    Implicit,
    WaitSync,
    WaitMutex,
    WaitMpi,
    WaitDevice,
    Idle,
    Tool
  };
  static constexpr unsigned Classes = 8;
  /// The class of waiting in a construct of kind K.
  static Class classOfWait(analysis::Kind K);

  /// Window in ns from the run's first event; To == 0: the whole run.
  Timeline(std::uint64_t From, std::uint64_t To, unsigned Bins);
  /// The run's first event (before any interval).
  void setOrigin(std::uint64_t T);
  /// An MPI job: stream thread T is thread Local[T] of rank Rank[T]; rows
  /// are labelled "rank R thread L" (a line between ranks) and the data
  /// block gives both. Empty: one process, rows "thread T".
  void setRanks(std::vector<std::uint32_t> Rank,
                std::vector<std::uint32_t> Local) {
    RankOf = std::move(Rank);
    LocalOf = std::move(Local);
  }
  bool hasRanks() const { return !RankOf.empty(); }
  std::uint32_t rankOf(std::size_t T) const {
    return T < RankOf.size() ? RankOf[T] : 0;
  }
  std::uint32_t localOf(std::size_t T) const {
    return T < LocalOf.size() ? LocalOf[T] : std::uint32_t(T);
  }
  /// A device row's key: the device number, or in a job the rank's device
  /// (rank x DeviceKeyRanks + device: each rank's devices are its own).
  static constexpr std::int32_t DeviceKeyRanks = 1 << 12;
  std::int32_t deviceKey(std::uint32_t Thread, std::int32_t Device) const {
    return hasRanks() ? std::int32_t(rankOf(Thread)) * DeviceKeyRanks + Device
                      : Device;
  }
  std::int32_t deviceOfKey(std::int32_t Key) const {
    return hasRanks() ? Key % DeviceKeyRanks : Key;
  }
  /// "device 0", or "rank 1 device 0" in a job.
  std::string deviceRowName(std::int32_t Key) const {
    return hasRanks() ? "rank " + std::to_string(Key / DeviceKeyRanks) +
                            " device " + std::to_string(Key % DeviceKeyRanks)
                      : "device " + std::to_string(Key);
  }
  /// "thread 3", or "rank 1 thread 0" in a job.
  std::string rowName(std::size_t T) const {
    return hasRanks() ? "rank " + std::to_string(rankOf(T)) + " thread " +
                            std::to_string(localOf(T))
                      : "thread " + std::to_string(T);
  }
  void task(std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t,
            std::uint64_t, std::uint64_t) override {}
  void construct(std::uint32_t, analysis::Kind, std::uint64_t, std::uint64_t,
                 std::uint64_t) override {}
  void flow(bool, std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void constructEdge(std::uint64_t, analysis::Kind, std::uint64_t,
                     analysis::Kind, const char *) override {}
  void state(std::uint32_t Thread, const analysis::StateInterval &I) override;
  bool wantsStates() const override { return true; }
  /// Target offload: a kernel or a data operation on Device, from Start to
  /// End (the host's times), binned in the device's row.
  void device(std::uint32_t Thread, std::int32_t Device, const char *What,
              std::uint64_t Code, std::uint64_t Start, std::uint64_t End,
              std::uint64_t Bytes) override;
  /// What a device's bin is drawn as (the legend's entries).
  enum DeviceClass : unsigned { Kernel, ToDevice, FromDevice, DataOp };
  static constexpr unsigned DeviceClasses = 4;
  struct DeviceBin {
    std::array<double, DeviceClasses> Ns{};
    /// The class with most time, however little (a short kernel shows);
    /// -1: nothing on the device there.
    int shown() const;
  };
  /// Per device number, its bins and its exact time per class in the
  /// window (overlapping operations add up).
  const std::map<std::int32_t, std::vector<DeviceBin>> &deviceBins() const {
    return Devices;
  }
  const std::map<std::int32_t, std::array<std::uint64_t, DeviceClasses>> &
  deviceTotals() const {
    return DeviceSums;
  }
  /// Host-to-device links: the first MaxLinks kernel submissions in the
  /// window, each the host thread that made it, its device and its begin
  /// (from the origin).
  struct Link {
    std::uint32_t Thread = 0;
    std::int32_t Device = 0;
    std::uint64_t Ns = 0;
  };
  static constexpr std::size_t MaxLinks = 200;
  const std::vector<Link> &links() const { return Links; }
  /// The program's marks (otter_mark): the first MaxMarks kept, in time
  /// order per thread, each relative to the origin; all counted.
  void mark(std::uint32_t Thread, std::uint32_t Name,
            std::uint64_t Time) override;
  struct Mark {
    std::uint32_t Thread = 0, Name = 0;
    std::uint64_t Ns = 0; // from the origin
  };
  static constexpr std::size_t MaxMarks = 1000;
  const std::vector<Mark> &marks() const { return Marks; }
  /// Marks per name id, all of them.
  const std::map<std::uint32_t, std::uint64_t> &marksByName() const {
    return MarkCounts;
  }

  struct Bin {
    std::array<double, Classes> Ns{};
    std::uint64_t TopCode = 0; // the task construct with most time here
    double TopNs = 0;
    /// The class with most time, if it covers >= 30% of Width; else -1.
    int shown(std::uint64_t Width) const;
  };
  /// A thread's exact time per state in the window, and waiting per
  /// construct kind.
  struct Totals {
    std::array<std::uint64_t, analysis::ThreadStateCount> Ns{};
    std::map<analysis::Kind, std::uint64_t> WaitingBy;
  };
  std::uint64_t origin() const { return Origin; }
  /// The window, relative to the origin, and the bin width.
  std::uint64_t windowStart() const { return Start; }
  std::uint64_t windowEnd() const { return Start + Width * NBins; }
  std::uint64_t binWidth() const { return Width; }
  const std::vector<std::vector<Bin>> &bins() const { return Threads; }
  const std::vector<Totals> &totals() const { return Sums; }
  /// Cuts the whole-run window at the run's end (relative).
  void finish(std::uint64_t RunNs);

private:
  std::vector<std::uint32_t> RankOf, LocalOf; // setRanks
  void add(std::uint32_t Thread, std::uint64_t S, std::uint64_t E, unsigned Cls,
           std::uint64_t Code);
  void grow(std::uint64_t Until);
  std::uint64_t Origin = 0, Start = 0, Width = 1000, FixedEnd = 0;
  unsigned NBins;
  bool Fixed;
  std::vector<std::vector<Bin>> Threads;
  std::vector<Totals> Sums;
  std::map<std::int32_t, std::vector<DeviceBin>> Devices;
  std::map<std::int32_t, std::array<std::uint64_t, DeviceClasses>> DeviceSums;
  std::vector<Link> Links;
  std::vector<Mark> Marks;
  std::map<std::uint32_t, std::uint64_t> MarkCounts;
};

/// The section (an SVG row per thread, a legend); Cs: the constructs, by
/// total time, whose task constructs get a colour each (a bin's task code
/// finds its construct through Label).
void writeTimelineSection(const Timeline *T,
                          const std::vector<analysis::Construct> &Cs,
                          const analysis::LabelFn &Label, std::ostream &OS);
/// The data block's "timeline" member (after a comma): the window, the bin
/// width, per thread its totals per state and a string of one character
/// per bin (docs/utils.md, "otter report").
void writeTimelineJson(const Timeline &T, std::ostream &OS);

} // namespace otter::html

#endif // OTTER_UTILS_REPORT_TIMELINE_H
