//===- graph/builder_ingest.cpp - The builder's ingest, per thread --------===//
//
// GraphBuilder::addEvents: each event reduced at once to what the walk reads
// (builder_store.h, "Ingest"), into the store of the thread that recorded
// it (no lock between threads); build() merges the stores and walks the
// result (builder.cpp).
//
//===----------------------------------------------------------------------===//
#include "graph/builder_store.h"
#include "otter/event_info.h"

#include <stdexcept>

namespace otter {

using namespace builder_detail;

namespace {

/// The events the builder reads: the event table's Graph column
/// (otter/event_kinds.def); the others are trace only.
bool isGraphEvent(EventKind K) { return kindInfo(K).Graph != GraphRole::None; }

/// ompt_cancel_flag_t: a cancel the task itself activated.
constexpr std::uint32_t CancelActivated = 0x10;

} // namespace

namespace {
std::uint8_t narrowSub(std::uint16_t Sub) {
  // Every valid sub-kind is small; a larger value is no valid kind, and 255
  // is none either, so the walk treats both alike.
  return Sub < 255 ? std::uint8_t(Sub) : std::uint8_t(255);
}
} // namespace

void GraphBuilder::Store::add(std::uint32_t Thread, const Event *Ev,
                              std::size_t N) {
  std::uint16_t Th = NoThreadIndex;
  // The live runtime's events (folded) and the trace reader's (unfolded)
  // are read in the same form (rules.h, rule 1).
  rules::forEachEvent(Ev, N, [&](const Event &E) { addOne(Thread, Th, E); });
}

/// An implicit task begins on thread Th: a member of its team, the root
/// of an initial task, or (host teams) a member of the league the thread
/// began.
void GraphBuilder::Store::implicitTaskBegin(std::uint16_t Th, const Event &E) {
  std::uint32_t X = task(E.task());
  TaskIn &T = Tasks[X];
  T.Bits |= TaskIn::Known | TaskIn::Implicit;
  T.Flags = E.implicitFlags();
  T.Thread = Th;
  if ((T.Flags & TaskInitial) && !E.parallel() && OpenLeague) {
    // Host teams: the initial task of the team the thread that began
    // the league runs. It is a member of that league even when no teams
    // barrier says so (a league of one team reports none): its inner
    // parallel region then carries the teams construct's label too.
    Tasks[X].Bits |= TaskIn::InLeague;
    Parallels[parallel(OpenLeague)].Members.emplace_back(E.index(), X);
    Roots[X] = RootIn{E.Time, E.task()};
  } else if (T.Flags & TaskInitial) {
    Roots[X] = RootIn{E.Time, E.task()};
    InitialIndex[X] = E.index();
  }
  OpenLeague = 0;
  if (E.parallel() && !(E.implicitFlags() & TaskInitial))
    Parallels[parallel(E.parallel())].Members.emplace_back(E.index(), X);
}

/// A task schedule event on thread Th: what it says of the next task's
/// thread.
void GraphBuilder::Store::taskScheduled(std::uint16_t Th, const Event &E) {
  // A task's thread: the first schedule event naming it as next, in the
  // order (prior task id, seq, arrival), unless an implicit-task begin
  // gives it. (For a tied task every such event is on the one thread
  // that runs it.) Only the key of the best event so far is kept.
  if (E.next()) {
    TaskIn &T = Tasks[task(E.next())];
    if (!(T.Bits & TaskIn::HasSched) || E.prior() < T.SchedPrior ||
        (E.prior() == T.SchedPrior && E.Seq < T.SchedSeq)) {
      T.Bits |= TaskIn::HasSched;
      T.SchedPrior = E.prior();
      T.SchedSeq = E.Seq;
      if (!(T.Bits & TaskIn::Implicit))
        T.Thread = Th;
    }
  }
}

void GraphBuilder::Store::addOne(std::uint32_t Thread, std::uint16_t &Th,
                                 const Event &E) {
  if (!isGraphEvent(E.Kind))
    return;
  ++Events;
  if (Th == NoThreadIndex)
    Th = thread(Thread); // Stats.Threads: threads with graph events
  auto item = [&](std::uint32_t Payload) {
    if (E.Task == 0)
      return; // belongs to no task: no strand has it
    std::uint32_t T = task(E.Task);
    countRecs(T);
    Recs.push_back(
        Rec{T, E.Seq,
            Item{std::uint8_t(E.Kind), narrowSub(E.subKind()), Th, Payload}});
  };
  switch (E.Kind) {
  case EventKind::TaskCreate: {
    std::uint32_t C = task(E.child());
    TaskIn &T = Tasks[C];
    T.Bits |= TaskIn::Known;
    T.Flags = E.flags() | TaskExplicit;
    T.Code = code(E.code());
    if (T.Flags & TaskInitial)
      Roots[C] = RootIn{E.Time, E.child()};
    item(C);
    break;
  }
  case EventKind::ImplicitTaskBegin:
    implicitTaskBegin(Th, E);
    break;
  case EventKind::ParallelBegin: {
    std::uint32_t P = parallel(E.parallel());
    Parallels[P].Code = code(E.code());
    OpenLeague = E.parallelFlags() == 1 ? E.parallel() : 0; // a league
    item(P);
    break;
  }
  case EventKind::TaskSchedule:
    taskScheduled(Th, E);
    break;
  case EventKind::TaskDependence:
    item(wide(E.address(), 0, 0));
    break;
  case EventKind::SyncBegin:
  case EventKind::SyncEnd: {
    SyncKind K = E.syncKind();
    // Only the begin of a taskwait / barrier makes a node; a taskgroup
    // makes two; a reduction none.
    if (K == SyncKind::Reduction ||
        (E.Kind == EventKind::SyncEnd && K != SyncKind::Taskgroup))
      break;
    // Host teams: OMPT gives each team's initial task no parallel region,
    // but its teams barrier names the league (the teams construct's
    // parallel_begin): it is a member of that league, as an implicit task
    // is of its team, rather than a root of its own.
    if (K == SyncKind::BarrierTeams && E.parallel() && E.Task) {
      std::uint32_t X = task(E.Task);
      auto It = InitialIndex.find(X);
      if (It != InitialIndex.end()) {
        Tasks[X].Bits |= TaskIn::InLeague;
        Parallels[parallel(E.parallel())].Members.emplace_back(It->second, X);
        InitialIndex.erase(It);
      }
    }
    item(code(E.code()));
    break;
  }
  case EventKind::WorkBegin:
  case EventKind::WorkEnd:
  case EventKind::MaskedBegin:
  case EventKind::MaskedEnd:
  case EventKind::NestLockBegin:
  case EventKind::NestLockEnd:
    item(code(E.code()));
    break;
  case EventKind::MutexAcquired:
  case EventKind::MutexReleased:
    item(wide(E.waitId(), E.code(), 0));
    break;
  case EventKind::PhaseBegin:
  case EventKind::PhaseEnd:
  case EventKind::Mark:
    item(wide(E.name(), E.code(), 0));
    break;
  case EventKind::TaskLabel:
    item(wide(E.name(), 0, 0));
    break;
  case EventKind::TargetBegin:
  case EventKind::TargetEnd:
    item(code(E.code())); // Sub: the TargetKind
    break;
  case EventKind::TargetDataOpBegin:
    // Only a transfer adds to its construct's node (its bytes, Sub: the
    // direction's DataOpKind); allocations and deletions make nothing.
    if (rules::transferOf(E.dataOpKind()) != 0)
      item(wide(E.bytes(), E.code(), 0));
    break;
  case EventKind::TargetSubmitBegin:
    item(0); // a kernel: labelled with its target region's code
    break;
  case EventKind::ToolControl:
    // A pause and the start after it bracket the gap in the recording;
    // flush and end leave the graph as it is.
    if (E.command() == ControlCommand::Pause ||
        E.command() == ControlCommand::Start)
      item(code(E.code()));
    break;
  case EventKind::Cancel:
    // Only a cancel the task itself activated is program order; libomp's
    // "detected" (at a cancellation point or barrier) and "discarded task"
    // reports depend on timing, so they make no node.
    if (E.cancelFlags() & CancelActivated)
      item(wide(0, E.code(), E.cancelFlags()));
    break;
  default: { // ThreadBegin: only counted; MPI: see graph/mpi_graph.h
    if (!mpi::isMpi(E.Kind))
      break;
    MpiIngest::Done Call;
    {
      std::lock_guard<std::mutex> L(Shared->Mutex);
      if (!Shared->Mpi.add(Thread, E, Call))
        break;
      if (Shared->CallCodes.size() <= Call.Call)
        Shared->CallCodes.resize(Call.Call + 1, 0);
      Shared->CallCodes[Call.Call] = Call.Code;
    }
    // Made at the call's end, with its begin's Seq: the task's records
    // are no longer known to be in its order.
    MaybeUnordered = true;
    std::uint32_t T = task(Call.Task);
    countRecs(T);
    Recs.push_back(
        Rec{T, Call.Seq,
            Item{std::uint8_t(EventKind::MpiCallBegin),
                 narrowSub(std::uint16_t(Call.Function)), Th, Call.Call}});
    break;
  }
  }
}

/// Folds the shard Src into this store: each of Src's indices (task, code,
/// thread, parallel, wide) becomes this store's, and what both say about a
/// task or a parallel region is combined as addOne would have combined the
/// events in one store. Src's records are released page by page as they
/// are copied, so the merge adds little to the peak memory.
void GraphBuilder::Store::merge(Store &Src) {
  std::vector<std::uint16_t> ThMap(Src.ThreadIds.size());
  for (std::size_t I = 0; I < ThMap.size(); ++I)
    ThMap[I] = thread(Src.ThreadIds[I]);
  std::vector<std::uint32_t> CodeMap(Src.Codes.size());
  for (std::size_t I = 0; I < CodeMap.size(); ++I)
    CodeMap[I] = code(Src.Codes[I]);
  std::vector<std::uint32_t> TaskMap(Src.Tasks.size(), NoIndex);
  Src.Ids.forEach([&](TaskId Id, std::uint32_t I) { TaskMap[I] = task(Id); });
  Src.Ids.clear();
  for (std::size_t I = 0; I < Src.Tasks.size(); ++I) {
    const TaskIn &X = Src.Tasks[I];
    TaskIn &D = Tasks[TaskMap[I]];
    if (X.Code && !D.Code)
      D.Code = CodeMap[X.Code];
    if ((X.Bits & TaskIn::Known) && !(D.Bits & TaskIn::Known))
      D.Flags = X.Flags;
    // The task's thread: its implicit-task begin's, else the schedule
    // event's first in (prior, seq) order.
    if (X.Bits & TaskIn::Implicit)
      D.Thread = ThMap[X.Thread];
    if ((X.Bits & TaskIn::HasSched) &&
        (!(D.Bits & TaskIn::HasSched) || X.SchedPrior < D.SchedPrior ||
         (X.SchedPrior == D.SchedPrior && X.SchedSeq < D.SchedSeq))) {
      D.SchedPrior = X.SchedPrior;
      D.SchedSeq = X.SchedSeq;
      if (!((D.Bits | X.Bits) & TaskIn::Implicit))
        D.Thread = ThMap[X.Thread];
    }
    D.Bits |= X.Bits;
    // A task with records in two stores (it moved between threads): its
    // records here follow the stores' order, not necessarily its own.
    if (std::uint32_t N = X.Recs < 255 ? X.Recs : Src.ManyRecs.at(I)) {
      if (D.Recs)
        MaybeUnordered = true;
      countRecs(TaskMap[I], N);
    }
    if (((I + 1) & (PagedVec<TaskIn>::PageSize - 1)) == 0)
      Src.Tasks.releasePageOf(I);
  }
  Src.Tasks.clear();
  std::vector<std::uint32_t> ParMap(Src.Parallels.size());
  for (std::size_t P = 0; P < ParMap.size(); ++P) {
    ParMap[P] = parallel(Src.ParallelIds[P]);
    ParallelIn &D = Parallels[ParMap[P]];
    if (Src.Parallels[P].Code)
      D.Code = CodeMap[Src.Parallels[P].Code];
    for (const auto &[Index, Task] : Src.Parallels[P].Members)
      D.Members.emplace_back(Index, TaskMap[Task]);
  }
  const auto WideBase = (std::uint32_t)Wides.size();
  for (const Wide &W : Src.Wides)
    Wides.push_back({W.A, CodeMap[W.Code], W.Aux});
  for (const auto &[Task, Root] : Src.Roots)
    Roots.try_emplace(TaskMap[Task], Root);
  for (const auto &[Task, Index] : Src.InitialIndex)
    InitialIndex.try_emplace(TaskMap[Task], Index);
  Events += Src.Events;
  MaybeUnordered |= Src.MaybeUnordered;
  for (std::size_t I = 0; I < Src.Recs.size(); ++I) {
    Rec R = Src.Recs[I];
    R.Task = TaskMap[R.Task];
    R.It.Thread = ThMap[R.It.Thread];
    switch (payloadOf(R.It.kind())) {
    case PayloadOf::Task:
      R.It.Payload = TaskMap[R.It.Payload];
      break;
    case PayloadOf::Parallel:
      R.It.Payload = ParMap[R.It.Payload];
      break;
    case PayloadOf::Wide:
      R.It.Payload += WideBase;
      break;
    case PayloadOf::MpiCall: // numbered for the whole stream already
      break;
    case PayloadOf::Code:
      R.It.Payload = CodeMap[R.It.Payload];
      break;
    }
    Recs.push_back(R);
    if (((I + 1) & (PagedVec<Rec>::PageSize - 1)) == 0)
      Src.Recs.releasePageOf(I);
  }
  Src = Store();
}

GraphBuilder::GraphBuilder(Resolver R)
    : Resolve(std::move(R)), Sh(std::make_unique<Shards>()) {}

GraphBuilder::~GraphBuilder() = default;

void GraphBuilder::addEvents(std::uint32_t Thread, const Event *E,
                             std::size_t N) {
  if (Store *S = Sh->get(Thread)) {
    S->add(Thread, E, N);
    return;
  }
  std::lock_guard<std::mutex> L(Sh->OverflowMutex);
  if (!Sh->Overflow) {
    Sh->Overflow = std::make_unique<Store>();
    Sh->Overflow->Shared = &Sh->Mpi;
    Sh->Overflow->MaybeUnordered = true; // several threads' records
  }
  Sh->Overflow->add(Thread, E, N);
}

std::size_t GraphBuilder::eventCount() const {
  std::size_t N = 0;
  Sh->forEach([&](const Store &S) { N += S.Events; });
  return N;
}

Graph GraphBuilder::build() {
  Graph G;
  build(G, Hooks{});
  return G;
}

void GraphBuilder::build(Graph &Out,
                         const std::function<void(Graph &)> &NodesDone) {
  Hooks H;
  H.NodesDone = NodesDone;
  build(Out, H);
}

void GraphBuilder::build(Graph &Out, const Hooks &H) {
  // One store: the shards merged in thread order (a single shard as it
  // is), then the MPI calls' part.
  std::vector<Store *> Parts;
  Sh->forEach([&](Store &S) { Parts.push_back(&S); });
  Store Merged;
  Store &All = Parts.size() == 1 ? *Parts[0] : Merged;
  if (Parts.size() > 1)
    for (Store *P : Parts)
      All.merge(*P);
  All.Mpi = std::move(Sh->Mpi.Mpi);
  All.MpiCodes.resize(Sh->Mpi.CallCodes.size());
  for (std::size_t I = 0; I < All.MpiCodes.size(); ++I)
    All.MpiCodes[I] = All.code(Sh->Mpi.CallCodes[I]);
  walkStore(All, Resolve, Out, H);
  Sh = std::make_unique<Shards>(); // everything collected is in Out now
}

} // namespace otter
