//===- core/recorder.cpp - Per-thread event recording --------------------===//
//
// Slow paths of the recorder: thread registration, buffer flush, free-list
// refill. The registry mutex is taken once per thread (registration) and at
// finalize, never per event.
//
//===----------------------------------------------------------------------===//
#include "core/recorder.h"

#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace otter::recorder {

std::atomic<bool> Active{false};

namespace {

thread_local ThreadState *Current = nullptr;

std::mutex RegistryMutex;
std::vector<ThreadState *> &registry() {
  static auto *R = new std::vector<ThreadState *>(); // never destroyed:
  return *R; // threads may outlive static destructors
}
std::atomic<std::uint32_t> NextIndex{0};

EventSink *SinkList[4];
std::size_t SinkCount = 0;
std::size_t BufferEvents = 16384;

// Flushing one thread's buffer while another thread (finalize) flushes all
// must not overlap: a per-thread flag would do, but flushes are rare, so a
// mutex per flush keeps it simple and correct.
std::mutex FlushMutex;

} // namespace

void setSinks(EventSink **Sinks, std::size_t N) {
  SinkCount = N > 4 ? 4 : N;
  for (std::size_t I = 0; I < SinkCount; ++I)
    SinkList[I] = Sinks[I];
}

void setBufferEvents(std::size_t N) { BufferEvents = N; }

ThreadState *registerThread(std::uint32_t Type) {
  if (Current)
    return Current;
  auto *T = new (std::nothrow) ThreadState();
  if (!T)
    return nullptr;
  T->Index = NextIndex.fetch_add(1, std::memory_order_relaxed);
  T->Type = Type;
  T->Capacity = BufferEvents;
  T->Buffer = static_cast<Event *>(std::malloc(sizeof(Event) * T->Capacity));
  if (!T->Buffer) {
    delete T;
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> L(RegistryMutex);
    registry().push_back(T);
  }
  Current = T;
  return T;
}

ThreadState *thisThread() {
  ThreadState *T = Current;
  if (T) [[likely]]
    return T;
  return registerThread(uint32_t(ThreadType::Other));
}

TaskState *allocTask(ThreadState *T) {
  if (TaskState *S = T->FreeTasks) [[likely]] {
    T->FreeTasks = S->NextFree;
    return S;
  }
  constexpr std::size_t Batch = 1024;
  auto *Block =
      static_cast<TaskState *>(std::malloc(sizeof(TaskState) * Batch));
  if (!Block)
    return nullptr;
  for (std::size_t I = 1; I < Batch; ++I)
    freeTask(T, &Block[I]);
  return &Block[0];
}

void flush(ThreadState *T) {
  std::lock_guard<std::mutex> L(FlushMutex);
  if (T->Count == 0)
    return;
  for (std::size_t I = 0; I < SinkCount; ++I)
    SinkList[I]->consume(*T, T->Buffer, T->Count);
  T->EventsRecorded += T->Count;
  T->Count = 0;
  ++T->Flushes;
}

void flushAll() {
  std::vector<ThreadState *> Snapshot;
  {
    std::lock_guard<std::mutex> L(RegistryMutex);
    Snapshot = registry();
  }
  for (ThreadState *T : Snapshot)
    flush(T);
}

std::size_t threadCount() {
  std::lock_guard<std::mutex> L(RegistryMutex);
  return registry().size();
}

ThreadState *threadAt(std::size_t I) {
  std::lock_guard<std::mutex> L(RegistryMutex);
  return I < registry().size() ? registry()[I] : nullptr;
}

} // namespace otter::recorder
