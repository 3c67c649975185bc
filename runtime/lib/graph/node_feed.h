//===- graph/node_feed.h - Nodes read as the walk makes them -*- C++ -*-===//
//
// The builder's walk makes a graph's nodes one after the other, and a node
// is final once the next one is made (only the node just made may still
// get its LabelInherited bit; a name or a target construct's bytes come
// later, so a graph with names or target constructs is never fed this
// way). The nodes' table of a graph of millions of nodes
// takes longer to write than the walk takes to make them: it is written by
// another thread while the walk runs (GraphBuilder::build's WalkStarts
// hook, outputs.h's startNodesStream), which reads the nodes through this
// feed:
//  - the walk publishes how many nodes are final (every few thousand nodes,
//    and all of them at its end, finish());
//  - the reader reads only nodes below that count, and says how far it got;
//  - the graph's nodes never move while the reader may read them: they are
//    reserved before the walk, and should the reservation be too small the
//    walk waits for the reader to catch up before growing them (grow()); the
//    labels (Graph::Labels), which the walk adds to as it meets new code
//    addresses, grow under labelsLock(), which the reader takes when it
//    meets a label it has not seen yet.
// The reader never makes the walk wait otherwise, and it waits for the walk
// by sleeping briefly (a condition variable per few thousand nodes would
// cost the walk more than the reader's polling).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_NODE_FEED_H
#define OTTER_GRAPH_NODE_FEED_H

#include <atomic>
#include <cstddef>
#include <ctime>
#include <mutex>

namespace otter {

class NodeFeed {
public:
  /// Nodes are published in batches of this many (the walk's side).
  static constexpr std::size_t Batch = 4096;

  // The walk's side.
  /// Nodes [0, N) are final.
  void publish(std::size_t N) { Made.store(N, std::memory_order_release); }
  /// The walk ends: nodes [0, N) are all there is.
  void finish(std::size_t N) {
    Final.store(N, std::memory_order_relaxed);
    publish(N);
    Done.store(true, std::memory_order_release);
  }
  /// Nodes [0, N) are final and the graph's node storage is about to move:
  /// returns once the reader has read them all (it then reads no node until
  /// more are published).
  void grow(std::size_t N) {
    publish(N);
    while (Seen.load(std::memory_order_acquire) < N &&
           !Abandoned.load(std::memory_order_acquire))
      pause();
  }
  std::mutex &labelsLock() { return Labels; }

  // The reader's side.
  /// Waits until more than From nodes are final or the walk has ended;
  /// returns how many are final (From: no more will come).
  std::size_t wait(std::size_t From) {
    for (;;) {
      bool Ended = Done.load(std::memory_order_acquire);
      std::size_t N = Made.load(std::memory_order_acquire);
      if (N > From || Ended)
        return N;
      pause();
    }
  }
  /// The reader has read nodes [0, N) and reads none of them again.
  void seen(std::size_t N) { Seen.store(N, std::memory_order_release); }
  /// The reader stops reading (the walk then never waits for it).
  void abandon() { Abandoned.store(true, std::memory_order_release); }
  /// Waits for the walk's end; returns its node count.
  std::size_t waitEnd() {
    while (!Done.load(std::memory_order_acquire))
      pause();
    return Final.load(std::memory_order_relaxed);
  }

private:
  static void pause() {
    const timespec T = {0, 200 * 1000};
    nanosleep(&T, nullptr);
  }
  std::atomic<std::size_t> Made{0}, Seen{0}, Final{0};
  std::atomic<bool> Done{false}, Abandoned{false};
  std::mutex Labels;
};

} // namespace otter

#endif // OTTER_GRAPH_NODE_FEED_H
