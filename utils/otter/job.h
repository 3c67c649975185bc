//===- otter/job.h - An MPI job as one event stream for the analyses -*- C++
//-*-===//
//
// `otter` reads an MPI job (its directory, or its merged archive) as one
// program: every rank's archive is read (job/job_input.h finds them) and
// their events are merged by time into ONE streaming analysis
// (analysis.h), so that work, span and the critical path are the job's and
// the path can cross ranks where a message or a collective joins them.
//
// Why one merged stream rather than a longest path over the job graph
// (job_graph.h): the analysis' definitions of work and span (each
// task's own execution time, waits excluded, the OpenMP rules of
// graph/rules.h) need the events, which the graph does not keep (a node has
// no time); and the stream costs memory per live task, the graph ~83 bytes
// per task of every rank. The job graph is still what says which calls are
// joined: a first, cheap pass reads only the MPI events of each rank
// (graph/mpi_graph.h), matches them with the job graph's own matcher, and
// turns every message and collective into a link (analysis.h, LinkSource)
// that the second pass follows: the send publishes its task's path, the
// call that completes the receive merges it.
//
// To be one stream, each rank's events are put in the job's terms as they
// are read: task and region ids and thread numbers offset per rank (ids
// keep their thread-and-counter form, so the analysis' id table stays
// direct), code addresses tagged with the rank in bits 48 and up (labels
// are looked up in that rank's archive), and times moved to rank 0's clock
// with the offsets the ranks measured (MpiClockOffset; none on one host).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_JOB_H
#define OTTER_UTILS_JOB_H

#include "analysis.h"
#include "input.h"
#include "job_input.h"
#include "logical_clock.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace otter::cli {

using analysis::codeAddress;
using analysis::codeRank;
using analysis::CodeRankShift;

class JobInput : public analysis::LinkSource {
public:
  JobInput();
  ~JobInput() override;

  /// Opens every rank's archive and reads their MPI events (the first
  /// pass). False: Error says why (no rank could be read).
  bool open(const job::Layout &L, std::string &Error);

  struct Rank {
    std::string Dir;
    bool Read = false, Complete = false;
    std::string Error;
    std::uint32_t ThreadBase = 0, Threads = 0; // the job's thread numbers
    std::uint64_t IdBase = 0;                  // added to ids' thread part
    /// Clock offsets (local time, offset to rank 0's clock), by time.
    std::vector<std::pair<std::uint64_t, std::int64_t>> Offsets;
    /// The controlled logical clock's move of this rank's times (on the
    /// offset clock; job/logical_clock.h).
    job::ClockShift Logical;
    /// Rank's local time to the job's (rank 0's) clock: the offsets, then
    /// the logical clock's move.
    std::uint64_t toJobTime(std::uint64_t T) const {
      return Logical.apply(offsetTime(T));
    }
    /// The offsets only.
    std::uint64_t offsetTime(std::uint64_t T) const;
  };
  const std::vector<Rank> &ranks() const { return Ranks; }
  const std::string &dir() const { return Dir; }
  /// The rank of one of the job's thread numbers.
  std::uint32_t rankOfThread(std::uint32_t Thread) const;
  std::size_t threads() const;
  /// For each of the job's thread numbers its rank (Rank) and its thread
  /// number in that rank (Local): rows grouped by rank in the views.
  void threadPlaces(std::vector<std::uint32_t> &Rank,
                    std::vector<std::uint32_t> &Local) const;

  /// The job's matching (messages, collectives; unmatched ones), over the
  /// ranks' MPI calls (graph nodes stand for calls: Ranks[r].Mpi.Calls,
  /// in the order they were made; times are the rank's own clock).
  const JobGraph &matching() const { return Match; }
  /// Matched messages received before they were sent by the offset clocks,
  /// which the controlled logical clock moved (logical_clock.h).
  const job::ClockCondition &clockCondition() const { return Clock; }

  /// Every event of every rank in the job's terms, merged by time.
  bool streamOrdered(const ArchiveInput::EventFn &Fn, std::string &Error);
  /// The label of a job's code (any rank's).
  SourceLabel label(std::uint64_t Code) const;
  /// The job's name table (annotations, otter/otter.h): every rank's names,
  /// each once, [0] "". The stream's name fields index it (toJob maps each
  /// rank's own ids).
  const std::vector<std::string> &names() const { return Names; }
  /// OTTER's recording cost per event: the largest any rank measured (the
  /// analysis takes one figure out of every rank's intervals).
  std::uint64_t recordingCostNs() const { return RecordingCostNs; }

  // analysis::LinkSource: the matched messages and the collectives.
  const analysis::MpiLinks *links(std::uint32_t Thread,
                                  const Event &Begin) override;
  std::size_t slots() const override { return Consumers.size(); }
  std::uint32_t consumers(std::uint32_t S) const override {
    return Consumers[S];
  }

private:
  std::string Dir;
  std::vector<Rank> Ranks;
  std::vector<std::unique_ptr<ArchiveInput>> Inputs; // by rank; null: unread
  JobGraph Match;
  job::ClockCondition Clock;
  std::vector<std::string> Names{""};
  std::uint64_t RecordingCostNs = 0;
  /// Per rank: its name ids to the job's (NameMap[r][id]).
  std::vector<std::vector<std::uint16_t>> NameMap;
  void mapNames(std::uint32_t R, const std::vector<std::string> &RankNames);
  /// (task id in the job's terms, seq of its MpiCallBegin) -> its links.
  struct KeyHash {
    std::size_t
    operator()(const std::pair<std::uint64_t, std::uint32_t> &K) const {
      return std::hash<std::uint64_t>()(K.first * 0x9e3779b97f4a7c15ull ^
                                        K.second);
    }
  };
  std::unordered_map<std::pair<std::uint64_t, std::uint32_t>,
                     analysis::MpiLinks, KeyHash>
      Links;
  std::vector<std::uint32_t> Consumers;
  /// Per rank, per call (Match's node): its MpiCallBegin's (task, seq).
  std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>> CallKeys;

  void makeLinks();
  /// Runs the controlled logical clock over the matched messages.
  void enforceClockCondition();
  /// Puts a batch of rank R's events in the job's terms.
  void toJob(std::uint32_t R, std::uint32_t &Thread, Event *E,
             std::size_t N) const;

public:
  /// A rank's id in the job's terms.
  std::uint64_t jobId(std::uint32_t R, std::uint64_t Id) const;
  /// The (task, seq) of a call of rank R, in the job's terms.
  std::pair<std::uint64_t, std::uint32_t> callKey(std::uint32_t R,
                                                  NodeId Call) const {
    return {jobId(R, CallKeys[R][Call].first), CallKeys[R][Call].second};
  }
};

} // namespace otter::cli

#endif // OTTER_UTILS_JOB_H
