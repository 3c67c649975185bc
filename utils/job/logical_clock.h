//===- job/logical_clock.h - A job's clock condition ------------*- C++ -*-===//
//
// After the measured clock offsets (docs/mpi.md, "Clocks") a message may
// still seem to be received before it was sent: the offsets are measured at
// MPI_Init and MPI_Finalize only, with an error of part of a round trip.
// A controlled logical clock (Rabenseifner's, as Scalasca applies it)
// restores the clock condition: every receive is moved to at least its
// send's time plus a minimal latency, the move is carried forward to the
// rest of the receiving rank's events (so the rank's own intervals after it
// are kept, and what it sends later follows), and amortized backward: the
// rank's events since its previous message event are moved by a linearly
// growing part of it, so no interval jumps. Ranks are processed in the
// messages' happened-before order, so a send already carries every move
// of its rank before it.
//
// The result is one correction per rank: a non-decreasing shift, linear in
// pieces, of the rank's (already offset) times.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_JOB_LOGICAL_CLOCK_H
#define OTTER_JOB_LOGICAL_CLOCK_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace otter::job {

/// A matched message, by the job's clock (offsets applied): when the send
/// was made (the call that posted it began) and when the receive completed
/// (the call that completed it ended).
struct ClockMessage {
  std::uint32_t SendRank = 0;
  std::uint64_t SendNs = 0;
  std::uint32_t RecvRank = 0;
  std::uint64_t RecvNs = 0;
};

/// A rank's correction: Shift(t) is 0 before the first ramp, grows
/// linearly from 0 to Delta over [Start, End] of each ramp and stays.
class ClockShift {
public:
  struct Ramp {
    std::uint64_t Start, End, Delta;
  };
  bool empty() const { return Ramps.empty(); }
  std::uint64_t shift(std::uint64_t T) const;
  std::uint64_t apply(std::uint64_t T) const { return T + shift(T); }
  /// Ramps must come in time order and not overlap (Start >= previous End).
  void add(Ramp R);
  std::uint64_t total() const { return Sum.empty() ? 0 : Sum.back(); }

private:
  std::vector<Ramp> Ramps;
  std::vector<std::uint64_t> Sum; // Sum[i]: the deltas of Ramps[0..i]
};

struct ClockCondition {
  std::vector<ClockShift> Shifts;   // by rank
  std::size_t Corrected = 0;        // receives that were moved
  std::uint64_t MaxMoveNs = 0;      // the largest single move
  std::vector<std::uint32_t> Ranks; // the ranks moved, ascending
};

/// The controlled logical clock over Messages among Ranks ranks: each
/// receive ends at least MinLatencyNs after its send began.
ClockCondition enforceClockCondition(const std::vector<ClockMessage> &Messages,
                                     std::size_t Ranks,
                                     std::uint64_t MinLatencyNs = 1);

} // namespace otter::job

#endif // OTTER_JOB_LOGICAL_CLOCK_H
