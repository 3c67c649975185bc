//===- graph/edge_sort.cpp - The graph's edges in order, in place --------===//
//
// The builder makes edges in the order of the walk (by target, roughly) and
// the writers want them by (source, target, kind): millions of them at
// exit, on the critical path of the default mode. An Edge read as one
// number is that order (Edge::key), so they are sorted by its bytes, most
// significant first, in place (an American flag sort: no second array
// beside the graph, whose peak memory matters as much as the time), each
// byte one counting pass and one pass of swaps; small buckets by insertion.
//
//===----------------------------------------------------------------------===//
#include "graph/graph.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace otter {

namespace {

void insertionSort(Edge *B, Edge *E) {
  for (Edge *I = B + 1; I < E; ++I) {
    Edge V = *I;
    std::uint64_t K = V.key();
    Edge *J = I;
    for (; J > B && K < (J - 1)->key(); --J)
      *J = *(J - 1);
    *J = V;
  }
}

/// Sorts [B, E), whose keys agree above bit Shift + 8, by the bits from
/// Shift + 7 down.
void radixSort(Edge *B, Edge *E, int Shift) {
  for (;;) {
    std::size_t N = std::size_t(E - B);
    if (N <= 48) {
      insertionSort(B, E);
      return;
    }
    auto digit = [Shift](const Edge &X) {
      return unsigned(X.key() >> Shift) & 0xff;
    };
    std::size_t Count[256] = {};
    for (const Edge *P = B; P != E; ++P)
      ++Count[digit(*P)];
    if (Count[digit(*B)] == N) { // one bucket: the next byte
      if (Shift == 0)
        return;
      Shift -= 8;
      continue;
    }
    std::size_t End[256], Next[256];
    std::size_t Sum = 0;
    for (unsigned D = 0; D < 256; ++D) {
      Next[D] = Sum;
      Sum += Count[D];
      End[D] = Sum;
    }
    // Each element is swapped straight into its bucket's next free place.
    for (unsigned D = 0; D < 256; ++D)
      while (Next[D] < End[D]) {
        Edge V = B[Next[D]];
        unsigned VD = digit(V);
        while (VD != D) {
          std::swap(V, B[Next[VD]++]);
          VD = digit(V);
        }
        B[Next[D]++] = V;
      }
    if (Shift == 0)
      return;
    std::size_t Begin = 0;
    for (unsigned D = 0; D < 256; ++D) {
      if (End[D] - Begin > 1)
        radixSort(B + Begin, B + End[D], Shift - 8);
      Begin = End[D];
    }
    return;
  }
}

} // namespace

void sortEdges(std::vector<Edge> &Edges) {
  if (Edges.size() < 2)
    return;
  std::uint64_t Max = 0;
  for (const Edge &X : Edges)
    Max = std::max(Max, X.key());
  // The most significant byte that is not zero in every key.
  int Top = Max ? (63 - std::countl_zero(Max)) / 8 * 8 : 0;
  radixSort(Edges.data(), Edges.data() + Edges.size(), Top);
}

} // namespace otter
