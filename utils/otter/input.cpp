//===- otter/input.cpp - Time-ordered event stream from an archive -------===//
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

/// One location's batches, produced by a reader thread.
struct Lane {
  std::mutex M;
  std::condition_variable CV;
  std::deque<Batch> Q;
  bool Done = false, Failed = false;
  std::string Error;
  static constexpr std::size_t Capacity = 8;

  void push(Batch &&B, const std::atomic<bool> &Stop) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Q.size() < Capacity || Stop.load(); });
    if (Stop.load())
      return;
    Q.push_back(std::move(B));
    CV.notify_all();
  }
  void finish(bool Ok, const std::string &E) {
    std::lock_guard<std::mutex> L(M);
    Done = true;
    Failed = !Ok;
    Error = E;
    CV.notify_all();
  }
  /// Next batch; false at the end of the lane.
  bool pop(Batch &Out) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return !Q.empty() || Done; });
    if (Q.empty())
      return false;
    Out = std::move(Q.front());
    Q.pop_front();
    CV.notify_all();
    return true;
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
SourceLabel ArchiveInput::label(std::uint64_t Code) const {
  return P->Main.label(Code);
}

bool ArchiveInput::streamRaw(
    const std::function<void(std::uint32_t, const Event *, std::size_t)> &Fn,
    std::string &Error) {
  return P->Main.readEvents(Fn, Error);
}

bool ArchiveInput::streamOrdered(const EventFn &Fn, std::string &Error) {
  std::size_t L = P->Main.locationCount();
  if (L <= 1)
    return P->Main.readEvents(
        [&](std::uint32_t Th, const Event *E, std::size_t N) {
          for (std::size_t I = 0; I < N; ++I)
            Fn(Th, E[I]);
        },
        Error);
  std::vector<std::unique_ptr<Lane>> Lanes;
  for (std::size_t I = 0; I < L; ++I)
    Lanes.push_back(std::make_unique<Lane>());
  std::atomic<bool> Stop{false};
  std::vector<std::thread> Readers;
  for (std::size_t J = 0; J < L; ++J) {
    Readers.emplace_back([&, J] {
      Lane &Ln = *Lanes[J];
      trace::TraceReader R;
      std::string E;
      if (!R.open(Path, E)) {
        Ln.finish(false, E);
        return;
      }
      // Locations arrive one after another: keep the J-th.
      std::size_t Ordinal = 0;
      bool Any = false;
      std::uint32_t Cur = 0;
      bool Ok = R.readEvents(
          [&](std::uint32_t Th, const Event *Ev, std::size_t N) {
            if (Stop.load(std::memory_order_relaxed))
              return;
            if (!Any) {
              Any = true;
              Cur = Th;
            } else if (Th != Cur) {
              ++Ordinal;
              Cur = Th;
            }
            if (Ordinal != J)
              return;
            Batch B;
            B.Thread = Th;
            B.Events.assign(Ev, Ev + N);
            Ln.push(std::move(B), Stop);
          },
          E);
      Ln.finish(Ok, E);
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
      if (!Lanes[J]->pop(Cur[J]))
        return false;
    }
    return true;
  };
  for (std::size_t J = 0; J < L; ++J)
    if (refill(J))
      Heap.push({Cur[J].Events[0].Time, J});
  while (!Heap.empty()) {
    std::size_t J = Heap.top().Lane;
    Heap.pop();
    // Deliver this lane's events while it stays the earliest.
    std::uint64_t Limit = Heap.empty() ? ~0ull : Heap.top().Time;
    for (;;) {
      const Event &E = Cur[J].Events[Pos[J]];
      if (E.Time > Limit)
        break;
      Fn(Cur[J].Thread, E);
      ++Pos[J];
      if (!refill(J))
        break;
    }
    if (Pos[J] < Cur[J].Events.size())
      Heap.push({Cur[J].Events[Pos[J]].Time, J});
  }
  Stop.store(true);
  for (auto &Ln : Lanes) {
    std::lock_guard<std::mutex> G(Ln->M);
    Ln->CV.notify_all();
  }
  for (std::thread &T : Readers)
    T.join();
  for (auto &Ln : Lanes)
    if (Ln->Failed) {
      Error = Ln->Error;
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
    return;
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
