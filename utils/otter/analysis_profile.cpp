//===- otter/analysis_profile.cpp - Per-construct statistics -------------===//
//
// What `otter summary` and `otter diagnose` report per source construct
// (docs/utils.md): instances and time per construct, execution-time
// histograms of tasks, waiting and lock contention, imbalance among sibling
// tasks and among a team's threads; and the aggregate graph's program-order
// edges for the exporters. Constructs are keyed by (code index, kind); the
// report merges the code addresses of one directive.
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

#include <algorithm>
#include <cmath>

namespace otter::analysis {

//===----------------------------------------------------------------------===//
// Histograms: 4 buckets per power of two.
//===----------------------------------------------------------------------===//

/// Bucket 4L + S holds [2^L (1 + S/4), 2^L (1 + (S+1)/4)): L the highest
/// set bit, S the next two bits. Below 4 ns a bucket per value.
unsigned bucketOf(std::uint64_t Ns) {
  if (Ns < 4)
    return unsigned(Ns);
  unsigned L = 63 - unsigned(__builtin_clzll(Ns)); // >= 2
  unsigned Sub = unsigned((Ns >> (L - 2)) & 3);
  unsigned B = L * 4 + Sub;
  return B < HistBuckets ? B : HistBuckets - 1;
}

namespace {
double bucketMid(unsigned B) {
  if (B < 4)
    return B;
  unsigned L = B / 4, Sub = B % 4;
  double Lo = std::ldexp(1.0, int(L)) * (1.0 + Sub / 4.0);
  double Hi = std::ldexp(1.0, int(L)) * (1.0 + (Sub + 1) / 4.0);
  return (Lo + Hi) / 2;
}
} // namespace

/// The median's bucket, as its midpoint: within 12.5% of the true median.
double histMedian(const std::vector<std::uint32_t> &H) {
  std::uint64_t N = 0;
  for (std::uint32_t X : H)
    N += X;
  if (!N)
    return 0;
  std::uint64_t Half = (N + 1) / 2, Acc = 0;
  for (unsigned B = 0; B < H.size(); ++B) {
    Acc += H[B];
    if (Acc >= Half)
      return bucketMid(B);
  }
  return 0;
}

double histPercentile(const std::vector<std::uint32_t> &H, double Fraction) {
  std::uint64_t N = 0;
  for (std::uint32_t X : H)
    N += X;
  if (!N)
    return 0;
  auto Rank = std::uint64_t(std::ceil(Fraction * double(N)));
  Rank = std::max<std::uint64_t>(1, std::min(Rank, N));
  std::uint64_t Acc = 0;
  for (unsigned B = 0; B < H.size(); ++B) {
    Acc += H[B];
    if (Acc >= Rank)
      return bucketMid(B);
  }
  return 0;
}

double schedulingCostNs(const std::vector<std::uint32_t> &DispatchHist) {
  return histPercentile(DispatchHist, SchedulingCostPercentile);
}

std::uint64_t ConstructStats::medianNs() const {
  return std::uint64_t(std::llround(histMedian(Hist)));
}

//===----------------------------------------------------------------------===//
// Constructs and their statistics.
//===----------------------------------------------------------------------===//

std::uint32_t Analyzer::Impl::code(std::uint64_t Addr) {
  if (!Addr)
    return 0;
  // Fibonacci hashing (2^64 / golden ratio), top bits: code addresses are
  // aligned and clustered, so their low bits alone would collide.
  CodeCacheEntry &C =
      CodeCache[((Addr * 0x9E3779B97F4A7C15ull) >> 56) & (CodeCacheSize - 1)];
  if (C.Addr == Addr)
    return C.Index;
  auto [It, New] = CodeIndex.try_emplace(Addr, std::uint32_t(Codes.size()));
  if (New)
    Codes.push_back(Addr);
  C.Addr = Addr;
  C.Index = It->second;
  return It->second;
}

/// Dense: (code index, kind) -> Stats index + 1 (codes are few).
ConstructStats &Analyzer::Impl::stat(std::uint32_t Code, Kind K) {
  std::size_t Key =
      std::size_t(Code) * std::size_t(Kind::Count) + std::size_t(K);
  // Grown for every code index known so far plus some, not one key at a
  // time: new codes keep arriving early in a run.
  if (Key >= StatOf.size())
    StatOf.resize(std::max<std::size_t>(Key + 1, (Codes.size() + 16) *
                                                     std::size_t(Kind::Count)),
                  0);
  std::uint32_t &I = StatOf[Key];
  if (!I) {
    Stats.emplace_back();
    Stats.back().Code = Codes[Code];
    Stats.back().K = K;
    I = std::uint32_t(Stats.size());
  }
  return Stats[I - 1];
}

void Analyzer::Impl::instance(std::uint32_t Code, Kind K, std::uint64_t Ns) {
  ConstructStats &S = stat(Code, K);
  ++S.Instances;
  S.TotalNs += Ns;
  S.MaxNs = std::max(S.MaxNs, Ns);
}

/// A completed explicit task: one instance, and its execution time in the
/// construct's histogram.
void Analyzer::Impl::taskInstance(const Slot &T) {
  ConstructStats &St = stat(T.Code, Kind::Task);
  ++St.Instances;
  St.TotalNs += T.Exec;
  St.MaxNs = std::max(St.MaxNs, T.Exec);
  if (St.Hist.empty())
    St.Hist.assign(HistBuckets, 0);
  ++St.Hist[bucketOf(T.Exec)];
  if (!LabelOfTask.empty()) // the program names tasks (otter_task_label)
    if (auto It = LabelOfTask.find(T.Id); It != LabelOfTask.end())
      ++St.TaskLabels[It->second];
}

/// Sibling imbalance (diagnose): the completed children of one creator from
/// one construct, up to the construct that waits for them.
void Analyzer::Impl::siblingCompleted(CreatorState &C, const Slot &T) {
  // The siblings compared are the children of the construct whose child
  // completed first since the last wait; another construct's children in
  // the same stretch are other work, not part of the imbalance.
  if (C.SibN == 0 || C.SibCode == T.Code) {
    C.SibCode = T.Code;
    ++C.SibN;
    C.SibSum += T.Exec;
    C.SibMax = std::max(C.SibMax, T.Exec);
  }
}

void Analyzer::Impl::evalSiblings(std::uint32_t S) {
  Slot &T = Slots[S];
  if (T.Extra == None)
    return;
  CreatorState &C = Creators[T.Extra];
  if (C.SibN >= 2) {
    double Mean = double(C.SibSum) / C.SibN;
    ConstructStats &St = stat(C.SibCode, Kind::Task);
    ++St.SibGroups;
    // The wait for the group lasts as long as its longest member: the
    // excess over the mean is what balancing could have saved.
    St.SibLostNs += std::uint64_t(std::max(0.0, double(C.SibMax) - Mean));
    if (Mean > 0)
      St.SibWorstRatio = std::max(St.SibWorstRatio, double(C.SibMax) / Mean);
  }
  C.SibN = 0;
  C.SibSum = C.SibMax = 0;
}

/// Thread imbalance of a worksharing loop (diagnose): once every member of
/// the team has ended the loop's instance.
void Analyzer::Impl::loopMemberEnded(Team &Tm, const OpenFrame &F,
                                     std::uint64_t End) {
  WorkInst &W = Tm.Works[F.WorkIndex];
  W.Code = F.Code;
  ++W.N;
  std::uint64_t Dur = End - std::min(End, F.Start);
  W.Sum += Dur;
  W.Max = std::max(W.Max, Dur);
  // Judged once every member has ended this instance (its n-th worksharing
  // construct: WorkIndex), as a team's figures are.
  if (W.N < Tm.Size)
    return;
  if (W.N >= 2 && W.Sum) {
    double Mean = double(W.Sum) / W.N;
    ConstructStats &St = stat(W.Code, Kind::Loop);
    ++St.TeamImbInstances;
    St.TeamImbLostNs += W.Max * W.N - W.Sum;
    St.TeamImbWorstRatio = std::max(St.TeamImbWorstRatio, double(W.Max) / Mean);
  }
  Tm.Works.erase(F.WorkIndex);
}

//===----------------------------------------------------------------------===//
// Program order (the aggregate graph's scope edges).
//===----------------------------------------------------------------------===//

/// The next construct K at Code in S's program order. A taskgroup's edge
/// is held back by one event (onSyncBegin), so that a taskloop's implicit
/// taskgroup follows the taskloop, as in the graph (rules.h, rule 6).
void Analyzer::Impl::programOrder(ThreadSt &TS, std::uint32_t S,
                                  std::uint32_t Code, Kind K) {
  if (!Obs || S == None)
    return;
  if (TS.DeferredGroupTask != None) {
    if (TS.DeferredGroupTask == S && K == Kind::Taskloop) {
      emitOrder(S, Code, K);
      flushDeferredOrder(TS);
      return;
    }
    flushDeferredOrder(TS);
  }
  emitOrder(S, Code, K);
}

void Analyzer::Impl::flushDeferredOrder(ThreadSt &TS) {
  std::uint32_t S = TS.DeferredGroupTask;
  TS.DeferredGroupTask = None;
  if (S != None && S < Slots.size())
    emitOrder(S, TS.DeferredGroupCode, Kind::Taskgroup);
}

void Analyzer::Impl::emitOrder(std::uint32_t S, std::uint32_t Code, Kind K) {
  Slot &T = Slots[S];
  std::uint32_t FromCode = T.LastCode ? T.LastCode : T.Code;
  Kind FromK = T.LastCode ? T.LastKind : T.K;
  Obs->constructEdge(Codes[FromCode], FromK, Codes[Code], K, "scope");
  T.LastCode = Code;
  T.LastKind = K;
}

//===----------------------------------------------------------------------===//
// Construct instances on a thread: worksharing, masked, sync, mutexes.
//===----------------------------------------------------------------------===//

/// Closes the innermost open construct of kind K of task T (tolerates
/// missing ends a few levels deep): one instance of its wall time.
bool Analyzer::Impl::closeOpen(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                               Kind K, std::uint64_t Time, OpenFrame *Out) {
  // At most 8 frames deep: enough to step over ends that never came, and a
  // bound on the search when a damaged trace leaves many frames open.
  std::size_t Limit = TS.Open.size() > 8 ? TS.Open.size() - 8 : 0;
  for (std::size_t I = TS.Open.size(); I-- > Limit;) {
    OpenFrame &F = TS.Open[I];
    if (F.K != K || (F.Task != T && T != None && F.Task != None))
      continue;
    OpenFrame G = F;
    TS.Open.resize(I);
    // A region's instance is counted by onParallelEnd, from its begin.
    if (K != Kind::Parallel) {
      std::uint64_t Dur = Time - std::min(Time, G.Start);
      instance(G.Code, K, Dur);
    }
    if (Obs)
      Obs->construct(Th, K, Codes[G.Code], G.Start, Time);
    if (Out)
      *Out = G;
    return true;
  }
  return false;
}

/// A sync wait of T ended: its time is the construct's waiting time.
void Analyzer::Impl::popWait(ThreadSt &TS, std::uint32_t T) {
  for (std::size_t I = TS.Waits.size(); I-- > 0;) {
    WaitFrame &W = TS.Waits[I];
    if (W.Mutex || (W.Task != T && T != None))
      continue;
    // Frames above it (never ended) are dropped with it.
    for (std::size_t J = I; J < TS.Waits.size(); ++J)
      retireWait(TS.Waits[J]);
    TS.Waits.resize(I);
    return;
  }
}

void Analyzer::Impl::onWorkBegin(ThreadSt &TS, std::uint32_t T,
                                 const Event &E) {
  std::uint32_t Code = code(E.code());
  Kind K = rules::constructOfWork(E.workKind());
  std::uint32_t Index = 0; // the member's n-th worksharing construct
  if (!TS.Impl.empty() && TS.Impl.back().Task == T)
    Index = TS.Impl.back().Works++;
  TS.Open.push_back({T, Code, K, E.Time, Index});
  programOrder(TS, T, Code, K);
}

void Analyzer::Impl::onWorkEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                               const Event &E) {
  WorkKind WK = E.workKind();
  Kind K = rules::constructOfWork(WK);
  OpenFrame F;
  if (!closeOpen(TS, Th, T, K, E.Time, &F))
    return;
  TS.LastWorkCode = F.Code;
  if (T == None)
    return;
  if (K == Kind::Loop && Slots[T].K == Kind::Implicit && Slots[T].Team != None)
    loopMemberEnded(Teams[Slots[T].Team], F, E.Time);
}

namespace {
Kind mutexConstruct(MutexKind M) {
  Kind K = rules::constructOfMutex(M);
  return K == Kind::Count ? Kind::Lock : K; // not an OMPT kind: a lock
}
} // namespace

void Analyzer::Impl::onMutexAcquire(ThreadSt &TS, std::uint32_t T,
                                    const Event &E) {
  // A mutex event without a known task is the running task's.
  std::uint32_t Who = T != None ? T : TS.Cur;
  TS.Waits.push_back(
      {Who, code(E.code()), mutexConstruct(E.mutexKind()), true, 0, E.Time});
}

void Analyzer::Impl::onMutexAcquired(ThreadSt &TS, std::uint32_t T,
                                     const Event &E) {
  std::uint32_t Who = T != None ? T : TS.Cur;
  Kind K = mutexConstruct(E.mutexKind());
  std::uint32_t Code = code(E.code());
  if (!TS.Waits.empty() && TS.Waits.back().Mutex) {
    // The acquisition: waiting time, contention; the lock's row is the one
    // the acquire named.
    WaitFrame W = TS.Waits.back();
    TS.Waits.pop_back();
    std::uint64_t Wall = E.Time - std::min(E.Time, W.Start);
    ConstructStats &St = stat(W.Code, W.K);
    // The waiting time the timeline counted (the wall time of the
    // acquisition unless the thread did something else meanwhile).
    St.WaitNs += W.Ns;
    if (Wall > 1000)
      ++St.Contended;
    Code = W.Code;
    K = W.K;
  }
  TS.Open.push_back({Who, Code, K, E.Time, 0});
  programOrder(TS, Who, Code, K);
}

void Analyzer::Impl::onMutexReleased(ThreadSt &TS, std::uint32_t Th,
                                     const Event &E) {
  // The innermost held mutex, whatever its kind (a lock taken by
  // omp_test_lock is released as a lock).
  for (std::size_t I = TS.Open.size(); I-- > 0;) {
    OpenFrame &F = TS.Open[I];
    if (F.K == Kind::Critical || F.K == Kind::Lock || F.K == Kind::NestLock ||
        F.K == Kind::Ordered || F.K == Kind::Atomic) {
      OpenFrame G = F;
      TS.Open.erase(TS.Open.begin() + std::ptrdiff_t(I));
      std::uint64_t Held = E.Time - std::min(E.Time, G.Start);
      instance(G.Code, G.K, Held);
      if (Obs)
        Obs->construct(Th, G.K, Codes[G.Code], G.Start, E.Time);
      break;
    }
  }
}

} // namespace otter::analysis
