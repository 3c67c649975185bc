//===- trace_test.cpp - OTF2 writer -> reader round trip ------------------===//
#include "trace/codec.h"
#include "trace/reader.h"
#include "trace/writer.h"

#include <gtest/gtest.h>
#include <otf2/otf2.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace otter;

namespace {

std::string tempDir() {
  char T[] = "/tmp/otter-trace-test-XXXXXX";
  const char *D = mkdtemp(T);
  return D ? D : "/tmp";
}

Event ev(std::uint64_t Time, EventKind K, TaskId Task, std::uint32_t Seq,
         std::uint64_t A = 0, std::uint64_t Code = 0, std::uint32_t Aux = 0,
         std::uint16_t Sub = 0, std::uint32_t Extra = 0) {
  Event E;
  std::memset(&E, 0, sizeof E);
  E.Time = Time;
  E.Kind = K;
  E.Task = Task;
  E.Seq = Seq;
  E.A = A;
  E.Code = Code;
  E.Aux = Aux;
  E.Sub = Sub;
  E.Extra = Extra;
  return E;
}

SourceLabel labelFor(std::uint64_t Code) {
  SourceLabel L;
  L.File = "synthetic.c";
  L.Line = std::uint32_t(Code & 0xff);
  L.Col = 3;
  L.Function = "f";
  L.Directive = "task";
  L.RegionId = Code * 7;
  L.Location = "synthetic+0x" + std::to_string(Code);
  L.Quality = LabelQuality::Exact;
  return L;
}

constexpr TaskId id(std::uint32_t Thread, std::uint64_t N) {
  return makeId(Thread, N);
}

/// E (from its kind's constructor) at Time, as its task's Seq-th event.
Event at(std::uint64_t Time, std::uint32_t Seq, Event E, bool Folded = false) {
  E.Time = Time;
  E.Seq = Seq;
  if (Folded)
    E.foldWait();
  return E;
}

/// The events E stands for (unfoldEvent).
std::vector<Event> Pair(const Event &E) {
  Event P[MaxUnfolded];
  return std::vector<Event>(P, P + unfoldEvent(E, P));
}

/// A stream with every OpenMP kind, odd ids (0, non-OTTER ids),
/// unpredictable fields and a long steady part (many buffers).
std::vector<Event> stream(std::uint32_t Thread) {
  std::vector<Event> V;
  std::uint64_t T = 1000 + Thread;
  TaskId Init = id(Thread, 1);
  const auto TW = SyncKind::Taskwait;
  V.push_back(at(T++, 0, Event::threadBegin(0, ThreadType::Initial)));
  V.push_back(
      at(T++, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial)));
  V.push_back(
      at(T++, 1, Event::parallelBegin(0, Init, id(Thread, 2), 4, 0, 0x401000)));
  std::uint32_t Seq = 2;
  for (std::uint64_t I = 0; I < 20000; ++I) {
    TaskId C = id(Thread, 3 + I);
    V.push_back(at(T++, Seq++,
                   Event::taskCreate(0, Init, C, TaskExplicit,
                                     0x401100 + (I % 3 == 0 ? 16 : 0))));
    if (I % 7 == 0)
      V.push_back(at(
          T, 0,
          Event::taskDependence(0, C, 0xdead0 + I, DependenceType(1 + I % 3))));
    Event Switch =
        at(T++, Seq, Event::taskSchedule(0, Init, ScheduleStatus::Switch, C));
    if (I % 7 != 0 && I % 3 != 0) {
      // The switch right after the creation, folded into it (as the
      // adapter records an included task's), carrying the task's construct
      // (as the adapter's switches do).
      Switch.Code = V.back().Code;
      V.back().Extra =
          std::uint32_t(Switch.Time - V.back().Time) << 1 | CreateSwitchFolded;
      EXPECT_EQ(0, std::memcmp(&Switch, &Pair(V.back())[1], sizeof Switch));
    } else {
      V.push_back(Switch);
    }
    // A taskwait: mostly with its wait folded in (as the adapter records
    // it), sometimes with separate wait events.
    std::uint32_t S = I % 7 == 0 ? 1 : 0;
    bool Folded = I % 5 != 0;
    V.push_back(at(T, S++, Event::syncBegin(0, C, 0, TW, 0x401200), Folded));
    if (!Folded)
      V.push_back(at(T + 1, S++, Event::syncWaitBegin(0, C, 0, TW, 0x401200)));
    T += 2;
    if (!Folded)
      V.push_back(at(T - 1, S++, Event::syncWaitEnd(0, C, 0, TW, 0x401200)));
    V.push_back(at(T++, S, Event::syncEnd(0, C, 0, TW, 0x401200), Folded));
    if (Folded && I % 3 != 1) {
      // An empty taskwait (as the adapter records one on fast path): its
      // end folded into its begin too; sometimes only its wait's end, the
      // region's end recorded apart (a filtered report, say).
      const Event End = V.back();
      V.pop_back();
      Event &B = V.back();
      B.Extra = std::uint32_t(End.Time - B.Time) << SyncEndShift |
                SyncWaitEndFolded | SyncWaitFolded;
      if (I % 4) {
        B.Extra |= SyncEndFolded;
        const Event Back = foldedSyncEnd(B);
        EXPECT_EQ(0, std::memcmp(&End, &Back, sizeof End));
      } else {
        V.push_back(at(End.Time, S + 1, Event::syncEnd(0, C, 0, TW, 0x401200)));
      }
    }
    V.push_back(at(T++, 3,
                   Event::taskSchedule(0, C,
                                       I % 11 == 0 ? ScheduleStatus::Yield
                                                   : ScheduleStatus::Complete,
                                       Init)));
  }
  const auto Critical = MutexKind::Critical;
  V.push_back(
      at(T++, Seq++,
         Event::mutexAcquire(0, Init, Critical, 0x7fff12345678, 0x401300)));
  V.push_back(
      at(T++, Seq++,
         Event::mutexAcquired(0, Init, Critical, 0x7fff12345678, 0x401300)));
  V.push_back(
      at(T++, Seq++,
         Event::mutexReleased(0, Init, Critical, 0x7fff12345678, 0x401310)));
  V.push_back(at(T++, Seq++, Event::cancel(0, Init, 0x11, 0x401400)));
  // Dispatch (a chunk; one of more than 2^32 iterations; a section), flush,
  // reduction.
  const auto Chunk = DispatchKind::WsLoopChunk;
  V.push_back(at(T++, Seq++, Event::dispatch(0, Init, Chunk, 0, 3, 0)));
  V.push_back(at(T++, Seq++, Event::dispatch(0, Init, Chunk, 3, 3, 0)));
  V.push_back(
      at(T++, Seq++, Event::dispatch(0, Init, Chunk, 6, 0x100000002ull, 0)));
  V.push_back(at(T++, Seq++,
                 Event::dispatch(0, Init, DispatchKind::Section, 0, 0,
                                 0x401500)));
  V.push_back(at(T++, Seq++, Event::flush(0, Init, 0x401600)));
  V.push_back(at(T++, Seq++,
                 Event::syncBegin(0, Init, 0, SyncKind::Reduction, 0)));
  V.push_back(
      at(T++, Seq++, Event::syncEnd(0, Init, 0, SyncKind::Reduction, 0)));
  V.push_back(at(T++, 0, Event::taskSchedule(0, 0, ScheduleStatus::Switch, 0)));
  V.push_back(at(T++, 9, Event::taskCreate(0, 12345, 0xffffffffffffull, 3, 0)));
  V.push_back(
      at(T++, Seq++, Event::parallelEnd(0, Init, id(Thread, 2), 0x401000)));
  V.push_back(at(T++, 0, Event::threadEnd(0)));
  return V;
}

} // namespace

TEST(Trace, WriterReaderRoundTripIsExact) {
  std::string Dir = tempDir();
  trace::WriterOptions O;
  O.Dir = Dir;
  trace::TraceWriter W(O, labelFor);
  std::string Error;
  ASSERT_TRUE(W.open(Error)) << Error;
  std::vector<Event> In[2] = {stream(0), stream(1)};
  for (std::uint32_t L = 0; L < 2; ++L)
    for (std::size_t I = 0; I < In[L].size(); I += 4096) // like buffers
      W.write(L, 1, In[L].data() + I, std::min<std::size_t>(4096, In[L].size() - I));
  ASSERT_TRUE(W.close(Error)) << Error;
  EXPECT_EQ(W.stats().Events, In[0].size() + In[1].size());

  trace::TraceReader R;
  ASSERT_TRUE(R.open(Dir, Error)) << Error;
  std::vector<Event> Out[2];
  ASSERT_TRUE(R.readEvents(
      [&](std::uint32_t T, const Event *E, std::size_t N) {
        ASSERT_LT(T, 2u);
        Out[T].insert(Out[T].end(), E, E + N);
      },
      Error))
      << Error;
  for (int L = 0; L < 2; ++L) {
    // The reader gives folded sync and create events back as their pairs
    // (a switch's Code is no field of its kind: read back as 0).
    std::vector<Event> Want;
    for (const Event &E : In[L]) {
      Event Pair[MaxUnfolded];
      unsigned N = unfoldEvent(E, Pair);
      for (unsigned K = 0; K < N; ++K)
        if (Pair[K].Kind == EventKind::TaskSchedule)
          Pair[K].Code = 0;
      Want.insert(Want.end(), Pair, Pair + N);
    }
    ASSERT_GT(Want.size(), In[L].size());
    ASSERT_EQ(Want.size(), Out[L].size());
    for (std::size_t I = 0; I < Want.size(); ++I)
      ASSERT_EQ(0, std::memcmp(&Want[I], &Out[L][I], sizeof(Event)))
          << "location " << L << " event " << I << " kind "
          << int(Want[I].Kind);
  }
  SourceLabel Got = R.label(0x401210 - 0x10), Want = labelFor(0x401200);
  EXPECT_EQ(Got.File, Want.File);
  EXPECT_EQ(Got.Line, Want.Line);
  EXPECT_EQ(Got.RegionId, Want.RegionId);
  EXPECT_EQ(Got.Location, Want.Location);
  EXPECT_EQ(Got.Quality, Want.Quality);
  std::system(("rm -rf '" + Dir + "'").c_str());
}

namespace {
std::string fileBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}
} // namespace

// The hot records written in place into OTF2's chunk (otf2_direct.h) are
// OTF2's own bytes: the event files of the same streams written both ways
// are identical, across chunk boundaries (the smallest chunk OTF2 allows:
// several chunks per location) and with repeated timestamps.
TEST(Trace, DirectRecordsAreOtf2sBytes) {
  std::vector<Event> In[2] = {stream(0), stream(1)};
  std::string Dirs[2];
  for (int Direct = 0; Direct < 2; ++Direct) {
    Dirs[Direct] = tempDir();
    trace::WriterOptions O;
    O.Dir = Dirs[Direct];
    O.ChunkBytes = OTF2_CHUNK_SIZE_MIN;
    O.DirectRecords = Direct;
    trace::TraceWriter W(O, labelFor);
    std::string Error;
    ASSERT_TRUE(W.open(Error)) << Error;
    for (std::uint32_t L = 0; L < 2; ++L)
      for (std::size_t I = 0; I < In[L].size(); I += 4096)
        W.write(L, 1, In[L].data() + I,
                std::min<std::size_t>(4096, In[L].size() - I));
    ASSERT_TRUE(W.close(Error)) << Error;
    // In place only when asked (and this libotf2 is the one it knows).
    EXPECT_EQ(W.stats().DirectLocations, Direct ? 2u : 0u);
  }
  for (int L = 0; L < 2; ++L) {
    const std::string F = "/traces/" + std::to_string(L) + ".evt";
    std::string Api = fileBytes(Dirs[0] + F), Direct = fileBytes(Dirs[1] + F);
    ASSERT_GT(Api.size(), 3 * std::size_t(OTF2_CHUNK_SIZE_MIN)) << F;
    ASSERT_EQ(Api.size(), Direct.size()) << F;
    std::size_t At = 0;
    while (At < Api.size() && Api[At] == Direct[At])
      ++At;
    EXPECT_EQ(At, Api.size()) << F << ": first difference at byte " << At;
  }
  for (const std::string &D : Dirs)
    std::system(("rm -rf '" + D + "'").c_str());
}

// Writes two threads' streams Folded and, into another archive, Apart (the
// same events unfolded), records in place or not, in the smallest chunks,
// and expects the event and definition files to be byte for byte the same.
static void expectSameArchives(const std::vector<Event> (&Folded)[2],
                               const std::vector<Event> (&Apart)[2]) {
  for (int Direct = 0; Direct < 2; ++Direct) {
    std::string Dirs[2];
    for (int Fold = 0; Fold < 2; ++Fold) {
      Dirs[Fold] = tempDir();
      trace::WriterOptions O;
      O.Dir = Dirs[Fold];
      O.ChunkBytes = OTF2_CHUNK_SIZE_MIN;
      O.DirectRecords = Direct;
      trace::TraceWriter W(O, labelFor);
      std::string Error;
      ASSERT_TRUE(W.open(Error)) << Error;
      for (std::uint32_t L = 0; L < 2; ++L) {
        const std::vector<Event> &V = Fold ? Folded[L] : Apart[L];
        for (std::size_t I = 0; I < V.size(); I += 4096)
          W.write(L, 1, V.data() + I,
                  std::min<std::size_t>(4096, V.size() - I));
      }
      ASSERT_TRUE(W.close(Error)) << Error;
    }
    for (const std::string F :
         {"/traces/0.evt", "/traces/1.evt", "/traces.def"}) {
      std::string A = fileBytes(Dirs[0] + F), B = fileBytes(Dirs[1] + F);
      ASSERT_GT(A.size(), 0u) << F;
      ASSERT_EQ(A.size(), B.size()) << F << " direct " << Direct;
      std::size_t At = 0;
      while (At < A.size() && A[At] == B[At])
        ++At;
      EXPECT_EQ(At, A.size())
          << F << " direct " << Direct << ": first difference at byte " << At;
    }
    for (const std::string &D : Dirs)
      std::system(("rm -rf '" + D + "'").c_str());
  }
}

// A creation with the switch to the new task folded in (otter/events.h) is
// written as the two events are: the archives of a stream with folded
// creations and of the same stream with them unfolded are identical,
// records in place or not, across chunk boundaries.
TEST(Trace, FoldedCreateIsWrittenAsThePair) {
  std::vector<Event> Folded[2] = {stream(0), stream(1)}, Apart[2];
  for (int L = 0; L < 2; ++L) {
    std::size_t N = 0;
    for (const Event &E : Folded[L]) {
      if (E.Kind == EventKind::TaskCreate && (E.Extra & CreateSwitchFolded)) {
        ++N;
        for (const Event &P : Pair(E))
          Apart[L].push_back(P);
      } else {
        Apart[L].push_back(E);
      }
    }
    ASSERT_GT(N, 10000u);
  }
  expectSameArchives(Folded, Apart);
}

// A taskwait's begin with its end folded in (otter/events.h) is written as
// the two events it was folded from: the archives of a stream with folded
// ends and of the same stream with them apart are identical, records in
// place or not, across chunk boundaries.
TEST(Trace, FoldedSyncEndIsWrittenAsThePair) {
  std::vector<Event> Folded[2] = {stream(0), stream(1)}, Apart[2];
  for (int L = 0; L < 2; ++L) {
    std::size_t N = 0, WaitOnly = 0;
    for (const Event &E : Folded[L]) {
      if (E.Kind == EventKind::SyncBegin && (E.Extra & SyncWaitEndFolded)) {
        ++N;
        WaitOnly += !(E.Extra & SyncEndFolded);
        Event Begin = E;
        Begin.Extra = SyncWaitFolded;
        Apart[L].push_back(Begin);
        Apart[L].push_back(foldedSyncEnd(E));
      } else {
        Apart[L].push_back(E);
      }
    }
    ASSERT_GT(N, 8000u);
    ASSERT_GT(WaitOnly, 1000u);
  }
  expectSameArchives(Folded, Apart);
}

// The writer's fused Predictor::check must stay the reader's predict +
// update: same mispredicted fields, same state after every event, on
// random streams that hit every kind and every prediction rule.
TEST(Trace, WriterCheckEqualsPredictAndUpdate) {
  std::mt19937_64 Rng(12345);
  auto pick = [&](std::uint64_t N) { return Rng() % N; };
  trace::Predictor Fused(1), Plain(1);
  const TaskId Tasks[] = {0, id(1, 1), id(1, 2), id(1, 3), id(0, 7),
                          id(1, 1025), 42};
  std::uint32_t Seq = 0;
  for (int I = 0; I < 200000; ++I) {
    trace::Native N;
    N.Kind = EventKind(1 + pick(std::uint64_t(EventKind::LastKind)));
    N.Time = std::uint64_t(I);
    N.HasTask = pick(4) == 0;
    N.Task = Tasks[pick(7)];
    N.HasA = pick(2) == 0;
    N.A = Tasks[pick(7)];
    N.HasAux = pick(3) == 0;
    N.Aux = std::uint32_t(pick(3));
    N.HasSub = pick(2) == 0;
    N.Sub = std::uint16_t(pick(3));
    Event E;
    std::memset(&E, 0, sizeof E);
    E.Time = N.Time;
    E.Kind = N.Kind;
    // Mostly what the model predicts, sometimes not.
    Event Pr = Plain.predict(N);
    E.Task = pick(5) ? Pr.Task : Tasks[pick(7)];
    E.Seq = pick(5) ? Pr.Seq : (pick(2) ? Seq++ : std::uint32_t(pick(70)));
    E.A = pick(5) ? Pr.A : Tasks[pick(7)] + pick(2);
    E.Code = pick(5) ? Pr.Code : pick(4);
    E.Aux = pick(5) ? Pr.Aux : std::uint32_t(pick(3));
    E.Sub = pick(5) ? Pr.Sub : std::uint16_t(pick(3));
    E.Extra = pick(5) ? Pr.Extra : std::uint32_t(pick(2));
    unsigned Want = unsigned(Pr.Task != E.Task) << trace::AttrTask |
                    unsigned(Pr.Seq != E.Seq) << trace::AttrSeq |
                    unsigned(Pr.A != E.A) << trace::AttrA |
                    unsigned(Pr.Code != E.Code) << trace::AttrCode |
                    unsigned(Pr.Aux != E.Aux) << trace::AttrAux |
                    unsigned(Pr.Sub != E.Sub) << trace::AttrSub |
                    unsigned(Pr.Extra != E.Extra) << trace::AttrExtra;
    Plain.update(E);
    unsigned Got = Fused.check(N, E, std::uint32_t(E.Code));
    ASSERT_EQ(Want, Got) << "event " << I << " kind " << int(N.Kind);
    ASSERT_TRUE(Fused.sameState(Plain)) << "event " << I << " kind "
                                        << int(N.Kind);
  }
}

TEST(Trace, UnfoldGivesTheSyncRegionAndItsWait) {
  Event Pair[2];
  Event Plain = ev(5, EventKind::SyncBegin, id(0, 1), 3, 7, 0x400000, 0, 5);
  ASSERT_EQ(1u, unfoldEvent(Plain, Pair));
  EXPECT_EQ(0, std::memcmp(&Plain, &Pair[0], sizeof(Event)));
  Event Begin = Plain;
  Begin.Extra = SyncWaitFolded;
  ASSERT_EQ(2u, unfoldEvent(Begin, Pair));
  EXPECT_EQ(EventKind::SyncBegin, Pair[0].Kind);
  EXPECT_EQ(EventKind::SyncWaitBegin, Pair[1].Kind);
  Event End = Begin;
  End.Kind = EventKind::SyncEnd;
  ASSERT_EQ(2u, unfoldEvent(End, Pair));
  EXPECT_EQ(EventKind::SyncWaitEnd, Pair[0].Kind);
  EXPECT_EQ(EventKind::SyncEnd, Pair[1].Kind);
  for (const Event &E : Pair) {
    EXPECT_EQ(Begin.Time, E.Time);
    EXPECT_EQ(Begin.Task, E.Task);
    EXPECT_EQ(Begin.Seq, E.Seq);
    EXPECT_EQ(Begin.A, E.A);
    EXPECT_EQ(Begin.Code, E.Code);
    EXPECT_EQ(Begin.Sub, E.Sub);
  }
  Event Other = ev(5, EventKind::WorkBegin, id(0, 1), 3, 7, 0x400000, 0, 1,
                   SyncWaitFolded); // the flag means nothing elsewhere
  EXPECT_EQ(1u, unfoldEvent(Other, Pair));
}

// A taskwait's begin with its wait's end (and its own end) folded in: the
// four (three) events, the end's at the folded time and the next Seq.
TEST(Trace, UnfoldGivesTheFoldedSyncEnd) {
  Event Out[MaxUnfolded];
  Event Begin = ev(5, EventKind::SyncBegin, id(0, 1), 3, 7, 0x400000, 0, 5);
  Begin.Extra =
      40 << SyncEndShift | SyncEndFolded | SyncWaitEndFolded | SyncWaitFolded;
  ASSERT_EQ(4u, unfoldEvent(Begin, Out));
  const EventKind Kinds[] = {EventKind::SyncBegin, EventKind::SyncWaitBegin,
                             EventKind::SyncWaitEnd, EventKind::SyncEnd};
  for (unsigned I = 0; I < 4; ++I) {
    EXPECT_EQ(Kinds[I], Out[I].Kind) << I;
    EXPECT_EQ(I < 2 ? 5u : 45u, Out[I].Time) << I;
    EXPECT_EQ(I < 2 ? Begin.Seq : Begin.Seq + 1, Out[I].Seq) << I;
    EXPECT_EQ(0u, Out[I].Extra) << I;
    EXPECT_EQ(Begin.Task, Out[I].Task);
    EXPECT_EQ(Begin.A, Out[I].A);
    EXPECT_EQ(Begin.Code, Out[I].Code);
    EXPECT_EQ(Begin.Sub, Out[I].Sub);
  }
  Begin.Extra &= ~SyncEndFolded;
  ASSERT_EQ(3u, unfoldEvent(Begin, Out));
  EXPECT_EQ(EventKind::SyncWaitEnd, Out[2].Kind);
  EXPECT_EQ(45u, Out[2].Time);
}

TEST(Trace, ReaderErrorsAreOneLine) {
  trace::TraceReader R;
  std::string Error;
  EXPECT_FALSE(R.open("/nonexistent/otter", Error));
  EXPECT_NE(Error.find("cannot open"), std::string::npos);
  std::string Dir = tempDir();
  EXPECT_FALSE(R.open(Dir, Error));
  EXPECT_NE(Error.find("no OTF2 archive"), std::string::npos);
  std::system(("printf garbage > '" + Dir + "/traces.otf2'").c_str());
  trace::TraceReader R2;
  EXPECT_FALSE(R2.open(Dir, Error));
  EXPECT_EQ(Error.find('\n'), std::string::npos);
  std::system(("rm -rf '" + Dir + "'").c_str());
}

// A 147-byte anchor file with one corrupt size makes OTF2 calloc 2.9 GB
// when it opens the archive (found by the trace_reader fuzzer,
// test/fuzz/regressions/trace_reader/): the reader's probe gives OTF2
// 512 MiB, and the reader answers with one line instead of the allocation.
TEST(Trace, ADamagedAnchorCannotMakeTheReaderAllocateGigabytes) {
  static const unsigned char Anchor[] = {
      0x03, 0x42, 0x4f, 0x54, 0x46, 0x32, 0x00, 0x03, 0x02, 0x03, 0x00, 0x02,
      0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0xe2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4f,
      0x54, 0x54, 0x45, 0x52, 0x20, 0x28, 0x4f, 0x70, 0x65, 0x6e, 0x4d, 0x50,
      0x20, 0x54, 0x61, 0x73, 0x09, 0x6f, 0x74, 0x74, 0x65, 0x72, 0x3a, 0x61,
      0x00, 0x0a, 0x0d, 0x01, 0x0a, 0x6f, 0x74, 0x74, 0x65, 0x72, 0x3a, 0x63,
      0x6f, 0x64, 0x65, 0x00, 0x0a, 0x0c, 0x01, 0x0b, 0x6f, 0x74, 0x74, 0x65,
      0x72, 0x3a, 0x61, 0x75, 0x78, 0x00, 0x0a, 0x0c, 0x01, 0x0c, 0x6f, 0x74,
      0x74, 0x65, 0x72, 0x3a, 0x73, 0x75, 0x62, 0x00, 0x0a, 0x0e, 0x01, 0x0d,
      0x6f, 0x74, 0x74, 0x65, 0x72, 0x3a, 0x65, 0x78, 0x74, 0x72, 0x61, 0x00,
      0x0a, 0x10, 0x01, 0x0e, 0x6f, 0x74, 0x74, 0x65, 0x72, 0x3a, 0x70, 0x61,
      0x79, 0x6c, 0x6f};
  std::string Dir = tempDir();
  {
    std::ofstream Out(Dir + "/traces.otf2", std::ios::binary);
    Out.write(reinterpret_cast<const char *>(Anchor), sizeof Anchor);
  }
  trace::TraceReader R;
  std::string Error;
  EXPECT_FALSE(R.open(Dir, Error));
  // A sanitizer build's allocator dies at the limit instead of returning
  // null: the probe then says only that OTF2 fails on the anchor.
  EXPECT_TRUE(Error.find("is damaged: OTF2 would need more than 512 MiB of "
                         "memory to read its anchor file") !=
                  std::string::npos ||
              Error.find("is damaged: OTF2 fails on its anchor file") !=
                  std::string::npos)
      << Error;
  EXPECT_EQ(Error.find('\n'), std::string::npos);
  std::system(("rm -rf '" + Dir + "'").c_str());
}

// The name table's anchor property (annotations) reads back as written,
// escapes included.
TEST(Trace, NamesPropertyRoundTrips) {
  std::vector<std::string> Names = {"", "solve", "a\\b", "two\nlines", ""};
  EXPECT_EQ(otter::trace::decodeNames(otter::trace::encodeNames(Names)), Names);
  EXPECT_EQ(otter::trace::decodeNames(""), std::vector<std::string>{""});
}
