//===- otter/input.cpp - Time-ordered event stream from an archive -------===//
//
// One reader thread per location, each with its own TraceReader decoding
// only that location, feeding a bounded queue; the calling thread merges the
// queues by timestamp (input.h says why).
//
//===----------------------------------------------------------------------===//
#include "input.h"

#include "trace/reader.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <queue>
#include <thread>
#include <unistd.h>
#include <vector>

namespace otter::cli {

namespace {

struct Batch {
  std::uint32_t Thread = 0;
  std::vector<Event> Events;
};

struct Shared;

/// One location's batches, produced by a reader thread.
struct Lane {
  std::mutex M;
  std::condition_variable CV;
  std::deque<Batch> Q;
  std::vector<std::vector<Event>> Spare; // consumed batches' storage
  bool Done = false, Failed = false;
  std::string Error;
  // Batches queued per lane: enough to keep the merge fed while a reader
  // decodes, small enough that memory does not follow the trace's length.
  static constexpr std::size_t Capacity = 8;

  void push(Batch &&B, const std::atomic<bool> &Stop) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Q.size() < Capacity || Stop.load(); });
    if (Stop.load())
      return;
    Q.push_back(std::move(B));
    CV.notify_all();
  }
  /// Storage for the next batch: a consumed one's, if any.
  std::vector<Event> spare() {
    std::lock_guard<std::mutex> G(M);
    if (Spare.empty())
      return {};
    std::vector<Event> V = std::move(Spare.back());
    Spare.pop_back();
    return V;
  }
  /// Next batch (Out's storage is kept for reuse); false at the end of the
  /// lane or when stopped.
  bool pop(Batch &Out, const std::atomic<bool> &Stop) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return !Q.empty() || Done || Stop.load(); });
    if (Q.empty() || Stop.load())
      return false;
    // Out's storage goes back to the reader for its next batch: no allocation
    // per batch once the lane is running (at most two kept).
    if (Out.Events.capacity() && Spare.size() < 2) {
      Out.Events.clear();
      Spare.push_back(std::move(Out.Events));
    }
    Out = std::move(Q.front());
    Q.pop_front();
    CV.notify_all();
    return true;
  }
  void wake() {
    std::lock_guard<std::mutex> G(M);
    CV.notify_all();
  }
};

/// Owned jointly by the merging thread and the readers, so that a reader
/// stuck inside OTF2 on a damaged file can be abandoned safely.
struct Shared {
  std::vector<std::unique_ptr<Lane>> Lanes;
  std::atomic<bool> Stop{false};
  std::atomic<std::size_t> Damaged{0}; // lanes whose thread file is damaged
  std::mutex M;
  std::condition_variable CV;
  std::size_t Finished = 0;
  void stopAll() {
    Stop.store(true);
    for (auto &L : Lanes)
      L->wake();
  }
  void finish(Lane &Ln, bool Ok, const std::string &E) {
    {
      std::lock_guard<std::mutex> G(Ln.M);
      Ln.Done = true;
      Ln.Failed = !Ok;
      Ln.Error = E;
      Ln.CV.notify_all();
    }
    if (!Ok)
      stopAll(); // one damaged location ends the whole read
    std::lock_guard<std::mutex> G(M);
    ++Finished;
    CV.notify_all();
  }
};

} // namespace

struct ArchiveInput::Impl {
  trace::TraceReader Main;
};

ArchiveInput::ArchiveInput() : P(std::make_unique<Impl>()) {}
ArchiveInput::~ArchiveInput() = default;

bool ArchiveInput::open(const std::string &Pth, std::string &Error) {
  Path = Pth;
  return P->Main.open(Pth, Error);
}
std::size_t ArchiveInput::threads() const { return P->Main.locationCount(); }
bool ArchiveInput::streamLocations(const std::vector<std::uint32_t> &Threads,
                                   const EventFn &Fn, std::string &Error) {
  return P->Main.readLocations(Threads, Fn, Error);
}
bool ArchiveInput::complete() const { return P->Main.complete(); }
const std::string &ArchiveInput::filter() const { return P->Main.filter(); }
std::uint64_t ArchiveInput::cutAtLimit() const {
  return P->Main.cutAtLimit();
}
std::uint64_t ArchiveInput::recordingCostNs() const {
  return P->Main.recordingCostNs();
}
const std::vector<std::string> &ArchiveInput::names() const {
  return P->Main.names();
}
SourceLabel ArchiveInput::label(std::uint64_t Code) const {
  return P->Main.label(Code);
}

bool ArchiveInput::streamRaw(
    const std::function<void(std::uint32_t, const Event *, std::size_t)> &Fn,
    std::string &Error) {
  return P->Main.readEvents(Fn, Error);
}

std::vector<std::uint32_t> ArchiveInput::locations() const {
  return P->Main.locations();
}

bool ArchiveInput::streamOrdered(const EventFn &Fn, std::string &Error) {
  std::size_t L = P->Main.locationCount();
  if (L <= 1)
    return P->Main.readEvents(Fn, Error);
  std::vector<LaneSource> Lanes;
  for (std::uint32_t Loc : P->Main.locations())
    Lanes.push_back({Path, Loc, {}});
  return streamLanes(Lanes, Fn, Error);
}

bool streamLanes(const std::vector<LaneSource> &Sources,
                 const ArchiveInput::EventFn &Fn, std::string &Error) {
  std::size_t L = Sources.size();
  auto Sh = std::make_shared<Shared>();
  for (std::size_t I = 0; I < L; ++I)
    Sh->Lanes.push_back(std::make_unique<Lane>());
  std::vector<std::thread> Readers;
  for (std::size_t J = 0; J < L; ++J) {
    Readers.emplace_back([Sh, J, Src = Sources[J]] {
      Lane &Ln = *Sh->Lanes[J];
      trace::TraceReader R;
      std::string E;
      if (!R.open(Src.Archive, E)) {
        Sh->finish(Ln, false, E);
        return;
      }
      // Each reader decodes its own location only.
      bool Ok = R.readLocations(
          {Src.Location},
          [&](std::uint32_t Th, const Event *Ev, std::size_t N) {
            if (Sh->Stop.load(std::memory_order_relaxed))
              return;
            Batch B;
            B.Thread = Th;
            B.Events = Ln.spare();
            B.Events.assign(Ev, Ev + N);
            if (Src.Transform)
              Src.Transform(B.Thread, B.Events.data(), B.Events.size());
            Ln.push(std::move(B), Sh->Stop);
          },
          E);
      // A damaged thread file (the reader warned once): this lane is
      // empty, the others are read; only all lanes damaged is an error.
      if (!Ok && R.damagedLocations() > 0) {
        Ok = Sh->Damaged.fetch_add(1) + 1 < Sh->Lanes.size();
        if (!Ok)
          E = "every thread's events in '" + Src.Archive +
              "' are damaged: " + E;
      }
      Sh->finish(Ln, Ok, E);
    });
  }
  // k-way merge by time.
  struct Head {
    std::uint64_t Time;
    std::size_t Lane;
    bool operator>(const Head &O) const {
      return Time != O.Time ? Time > O.Time : Lane > O.Lane;
    }
  };
  std::vector<Batch> Cur(L);
  std::vector<std::size_t> Pos(L, 0);
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> Heap;
  auto refill = [&](std::size_t J) {
    while (Pos[J] >= Cur[J].Events.size()) {
      Pos[J] = 0;
      Cur[J].Events.clear();
      if (!Sh->Lanes[J]->pop(Cur[J], Sh->Stop))
        return false;
    }
    return true;
  };
  for (std::size_t J = 0; J < L; ++J)
    if (refill(J))
      Heap.push({Cur[J].Events[0].Time, J});
  while (!Heap.empty() && !Sh->Stop.load(std::memory_order_relaxed)) {
    std::size_t J = Heap.top().Lane;
    Heap.pop();
    // Deliver this lane's events while it stays the earliest, in runs.
    std::uint64_t Limit = Heap.empty() ? ~0ull : Heap.top().Time;
    for (;;) {
      const std::vector<Event> &V = Cur[J].Events;
      std::size_t From = Pos[J], To = From;
      if (Limit == ~0ull)
        To = V.size();
      else
        while (To < V.size() && V[To].Time <= Limit)
          ++To;
      if (To > From)
        Fn(Cur[J].Thread, V.data() + From, To - From);
      Pos[J] = To;
      if (To < V.size() || !refill(J))
        break;
    }
    if (Pos[J] < Cur[J].Events.size())
      Heap.push({Cur[J].Events[Pos[J]].Time, J});
  }
  bool Failed = Sh->Stop.load();
  Sh->stopAll();
  {
    // Readers stop at their next batch; one stuck inside OTF2 on a damaged
    // file is abandoned (it owns its state) after a grace period.
    std::unique_lock<std::mutex> G(Sh->M);
    // After a failure a reader may be stuck on the damaged file: wait
    // briefly. Otherwise they are only finishing their last batch.
    Sh->CV.wait_for(G, std::chrono::seconds(Failed ? 2 : 60),
                    [&] { return Sh->Finished == L; });
  }
  for (std::thread &T : Readers) {
    bool Done;
    {
      std::lock_guard<std::mutex> G(Sh->M);
      Done = Sh->Finished == L;
    }
    if (Done)
      T.join();
    else
      T.detach();
  }
  for (auto &Ln : Sh->Lanes) {
    std::lock_guard<std::mutex> G(Ln->M);
    if (Ln->Failed) {
      Error = Ln->Error;
      return false;
    }
  }
  if (Failed) {
    Error = "reading '" + (L ? Sources[0].Archive : std::string()) +
            "' was interrupted";
    return false;
  }
  return true;
}

Progress::Progress(const char *W)
    : What(W), Enabled(isatty(2) != 0),
      Start(std::uint64_t(std::chrono::steady_clock::now()
                              .time_since_epoch()
                              .count())) {}
Progress::~Progress() { done(); }
void Progress::show(std::uint64_t Events) {
  std::uint64_t Now = std::uint64_t(
      std::chrono::steady_clock::now().time_since_epoch().count());
  double S = double(Now - Start) / 1e9;
  if (S < 0.5)
    return; // a short read prints nothing (and leaves nothing to erase)
  std::fprintf(stderr, "\rotter: %s: %.1fM events, %.1f s", What,
               double(Events) / 1e6, S);
  Shown = true;
}
void Progress::done() {
  if (Shown)
    std::fputs("\r\033[K", stderr);
  Shown = false;
}

} // namespace otter::cli
