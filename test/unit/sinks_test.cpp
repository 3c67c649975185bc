//===- sinks_test.cpp - The runtime's sinks and their registry ------------===//
//
// core/sinks.h on its own: which sinks the configuration asks for, the
// recorder handing buffers to any number of sinks, the graph sink's end of
// run, the trace sink's one-line failure to start, and memory running out
// in the OTF2 writer: the buffer is counted, and reported once.
//
//===----------------------------------------------------------------------===//
#include "core/recorder.h"
#include "core/sinks.h"
#include "trace/reader.h"
#include "trace/writer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace otter;

// Memory that runs out on request: while FailNew is set on a thread, every
// operator new there throws std::bad_alloc. Replaces the global operator
// new of the whole test program; it behaves as the default one otherwise.
// (GCC takes the free() below for a mismatch: it is this operator new's.)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
thread_local bool FailNew = false;
}
void *operator new(std::size_t N) {
  if (FailNew)
    throw std::bad_alloc();
  if (void *P = std::malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}
void *operator new[](std::size_t N) { return ::operator new(N); }
// The nothrow forms too: the runtime allocates with new (std::nothrow) and
// frees with delete, which is replaced above (ASan found the mismatch).
void *operator new(std::size_t N, const std::nothrow_t &) noexcept {
  return FailNew ? nullptr : std::malloc(N ? N : 1);
}
void *operator new[](std::size_t N, const std::nothrow_t &T) noexcept {
  return ::operator new(N, T);
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete[](void *P) noexcept { std::free(P); }
void operator delete(void *P, std::size_t) noexcept { std::free(P); }
void operator delete[](void *P, std::size_t) noexcept { std::free(P); }

namespace {

std::string tempDir() {
  char T[] = "/tmp/otter-sinks-test-XXXXXX";
  const char *D = mkdtemp(T);
  return D ? D : "/tmp";
}

Event event(EventKind K, TaskId Task, std::uint32_t Seq, std::uint64_t A = 0,
            std::uint64_t Code = 0, std::uint32_t Aux = 0,
            std::uint16_t Sub = 0, std::uint32_t Extra = 0) {
  Event E;
  std::memset(&E, 0, sizeof E);
  E.Time = 1000 + Seq;
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

/// One thread's run: the initial task creates Tasks tasks that complete.
std::vector<Event> run(unsigned Tasks) {
  constexpr TaskId Init = (1ull << 40) | 1;
  std::vector<Event> V;
  std::uint32_t Seq = 0;
  V.push_back(event(EventKind::ThreadBegin, 0, 0, 0, 0, 0,
                    std::uint16_t(ThreadType::Initial)));
  V.push_back(event(EventKind::ImplicitTaskBegin, Init, Seq++, 0, 0, 1, 0,
                    TaskInitial));
  for (unsigned I = 0; I < Tasks; ++I) {
    TaskId C = (1ull << 40) | (2 + I);
    V.push_back(
        event(EventKind::TaskCreate, Init, Seq++, C, 0x401000, TaskExplicit));
    V.push_back(event(EventKind::TaskSchedule, Init, Seq, C, 0, 0, 7));
    V.push_back(event(EventKind::TaskSchedule, C, 0, Init, 0, 0, 1));
  }
  V.push_back(event(EventKind::ImplicitTaskEnd, Init, Seq++));
  return V;
}

struct Lines {
  std::vector<std::string> All;
  FinishContext context(const Config &Cfg) {
    return FinishContext{Cfg,
                         0,
                         [this](const char *Level, const std::string &Text) {
                           All.push_back(std::string(Level) + Text);
                         },
                         false,
                         {},
                         {},
                         {}};
  }
};

const SinkSpec &spec(const char *Name) {
  for (const SinkSpec &S : sinkRegistry())
    if (std::string(S.Name) == Name)
      return S;
  ADD_FAILURE() << "no sink " << Name;
  return sinkRegistry()[0];
}

class Collector final : public EventSink {
public:
  void consume(const ThreadInfo &T, const Event *, std::size_t N) override {
    Index = T.Index;
    Events += N;
  }
  std::uint32_t Index = ~0u;
  std::size_t Events = 0;
};

} // namespace

TEST(Sinks, TheRegistryAndWhatTheConfigurationAsksFor) {
  std::set<std::string> Names;
  for (const SinkSpec &S : sinkRegistry()) {
    EXPECT_TRUE(Names.insert(S.Name).second) << S.Name;
    EXPECT_NE(S.Wanted, nullptr);
    EXPECT_NE(S.Make, nullptr);
  }
  EXPECT_EQ(Names, (std::set<std::string>{"graph", "samples", "trace"}));
  Config C;
  EXPECT_TRUE(spec("graph").Wanted(C));
  EXPECT_TRUE(spec("trace").Wanted(C));
  // Samples only when sampling is asked for (OTTER_SAMPLE, off by default).
  EXPECT_FALSE(spec("samples").Wanted(C));
  C.SampleHz = 1000;
  EXPECT_TRUE(spec("samples").Wanted(C));
  C.Formats = GraphFormats{false, false, false};
  C.Trace = false;
  EXPECT_FALSE(spec("graph").Wanted(C));
  // Sampling alone: the archive of the samples alone (docs/sampling.md).
  EXPECT_TRUE(spec("trace").Wanted(C));
  C.SampleHz = 0;
  EXPECT_FALSE(spec("trace").Wanted(C));
  C.Formats.Canonical = true;
  EXPECT_TRUE(spec("graph").Wanted(C));
}

TEST(Sinks, TheRecorderFeedsAnyNumberOfSinks) {
  // Used to be at most 4, the rest silently dropped.
  std::vector<Collector> Sinks(7);
  std::vector<EventSink *> List;
  for (Collector &S : Sinks)
    List.push_back(&S);
  recorder::setSinks(List.data(), List.size());
  std::uint32_t Index = ~0u;
  std::thread([&] {
    ThreadState *T = recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    Index = T->Index;
    for (int I = 0; I < 10; ++I)
      recorder::append(T) = event(EventKind::TaskCreate, 7, I);
    recorder::flush(T);
  }).join();
  recorder::setSinks(nullptr, 0);
  for (const Collector &S : Sinks) {
    EXPECT_EQ(S.Events, 10u);
    EXPECT_EQ(S.Index, Index);
  }
}

TEST(Sinks, TheGraphSinkWritesTheSelectedFilesAndSaysWhat) {
  Config Cfg;
  Cfg.OutputDir = tempDir();
  Cfg.Formats = GraphFormats{false, true, true};
  std::string Why;
  std::unique_ptr<RunSink> S = spec("graph").Make(Cfg, Why);
  ASSERT_NE(S, nullptr) << Why;
  std::vector<Event> V = run(3);
  S->consume(ThreadInfo{0, std::uint32_t(ThreadType::Initial)}, V.data(),
             V.size());
  Lines L;
  FinishContext C = L.context(Cfg);
  S->close(C);
  EXPECT_FALSE(C.Wrote); // nothing before the output directory exists
  S->write(C);
  EXPECT_TRUE(C.Wrote);
  EXPECT_EQ(C.Files,
            (std::vector<std::string>{"nodes.csv graph.csv graph.txt"}));
  EXPECT_NE(C.Details.find(", 0 parallel regions, 3 tasks, "),
            std::string::npos)
      << C.Details;
  EXPECT_TRUE(std::filesystem::exists(Cfg.OutputDir + "/graph.txt"));
  EXPECT_FALSE(std::filesystem::exists(Cfg.OutputDir + "/graph.gv"));
  S->report(C);
  ASSERT_EQ(L.All.size(), 1u);
  EXPECT_EQ(L.All[0].rfind("code addresses: ", 0), 0u) << L.All[0];
  std::filesystem::remove_all(Cfg.OutputDir);
}

TEST(Sinks, TheTraceSinkThatCannotStartSaysWhyInOneLine) {
  Config Cfg;
  Cfg.OutputDir = "/proc/otter-cannot-write";
  std::string Why;
  EXPECT_EQ(spec("trace").Make(Cfg, Why), nullptr);
  EXPECT_EQ(Why.find('\n'), std::string::npos);
  EXPECT_EQ(Why.rfind("cannot write the trace to '/proc/otter-cannot-write/"
                      "trace': ",
                      0),
            0u)
      << Why;
}

TEST(Sinks, MemoryRunningOutInTheTraceIsCountedAndSaidOnce) {
  Config Cfg;
  Cfg.OutputDir = tempDir();
  std::string Why;
  std::unique_ptr<RunSink> S = spec("trace").Make(Cfg, Why);
  ASSERT_NE(S, nullptr) << Why;
  std::vector<Event> V = run(1);
  ThreadInfo T{0, std::uint32_t(ThreadType::Initial)};
  S->consume(T, V.data(), 2); // thread begin, initial task
  // A new code address needs room in the writer's tables: none left.
  FailNew = true;
  S->consume(T, V.data() + 2, V.size() - 2);
  FailNew = false;
  Lines L;
  FinishContext C = L.context(Cfg);
  S->close(C);
  EXPECT_TRUE(C.Wrote); // what was encoded is in the archive
  ASSERT_EQ(L.All.size(), 1u);
  EXPECT_EQ(L.All[0], "error: ran out of memory writing the trace; " +
                          std::to_string(V.size() - 2) + " of " +
                          std::to_string(V.size()) +
                          " events are missing from it");
  std::filesystem::remove_all(Cfg.OutputDir);
}

// Threads that fill and flush their buffers at the same time, into the real
// graph and trace sinks: each sink takes buffers from several threads at
// once (the TSan run of scripts/sanitize.sh watches this), and nothing is
// lost or mixed up: the archive holds every thread's events in order.
TEST(Sinks, ThreadsFlushIntoTheGraphAndTheTraceAtOnce) {
  Config Cfg;
  Cfg.OutputDir = tempDir();
  Cfg.Formats = GraphFormats{false, false, true};
  std::string Why;
  std::unique_ptr<RunSink> Graph = spec("graph").Make(Cfg, Why);
  ASSERT_NE(Graph, nullptr) << Why;
  std::unique_ptr<RunSink> Trace = spec("trace").Make(Cfg, Why);
  ASSERT_NE(Trace, nullptr) << Why;
  EventSink *List[] = {Graph.get(), Trace.get()};
  recorder::setSinks(List, 2);
  recorder::setBufferEvents(1024); // several flushes per thread
  constexpr unsigned Threads = 4, Tasks = 600;
  const std::vector<Event> V = run(Tasks);
  std::vector<std::thread> Pool;
  for (unsigned I = 0; I < Threads; ++I)
    Pool.emplace_back([&V] {
      ThreadState *T =
          recorder::registerThread(std::uint32_t(ThreadType::Other));
      ASSERT_NE(T, nullptr);
      // This thread's own task ids (made by its index, as the runtime's).
      const TaskId Mine = TaskId(T->Index + 1) << 40;
      for (Event E : V) {
        if (E.Task)
          E.Task = Mine | (E.Task & 0xffffffffffull);
        if (E.Kind == EventKind::TaskCreate ||
            E.Kind == EventKind::TaskSchedule)
          E.A = Mine | (E.A & 0xffffffffffull);
        recorder::append(T) = E;
      }
      recorder::flush(T);
    });
  for (std::thread &Th : Pool)
    Th.join();
  recorder::setSinks(nullptr, 0);

  Lines L;
  FinishContext C = L.context(Cfg);
  Graph->close(C);
  Trace->close(C);
  Graph->write(C);
  EXPECT_TRUE(C.Wrote);
  EXPECT_TRUE(L.All.empty()) << L.All[0];

  trace::TraceReader R;
  ASSERT_TRUE(R.open(Cfg.OutputDir, Why)) << Why;
  std::map<std::uint32_t, std::vector<Event>> Got;
  ASSERT_TRUE(R.readEvents(
      [&](std::uint32_t Th, const Event *E, std::size_t N) {
        // The recorder's own (its flushes, the thread's CPU use) apart.
        for (std::size_t I = 0; I < N; ++I)
          if (E[I].Kind != EventKind::ToolBegin &&
              E[I].Kind != EventKind::ToolEnd &&
              E[I].Kind != EventKind::ThreadCpu)
            Got[Th].push_back(E[I]);
      },
      Why))
      << Why;
  EXPECT_EQ(Got.size(), std::size_t(Threads));
  for (auto &[Th, Events] : Got) {
    ASSERT_EQ(Events.size(), V.size()) << "thread " << Th;
    for (std::size_t I = 0; I < V.size(); ++I)
      EXPECT_EQ(Events[I].Kind, V[I].Kind) << "thread " << Th << " #" << I;
  }
  std::filesystem::remove_all(Cfg.OutputDir);
}
