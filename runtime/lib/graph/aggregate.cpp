//===- graph/aggregate.cpp - The aggregated graph: grouping, edges, dot ---===//
//
// aggregate.h: ConstructGroups and ConstructEdges (each a table or a hash
// map, read back in order of first appearance), SourceConstructs' key,
// AggregateDot's syntax.
//
//===----------------------------------------------------------------------===//
#include "graph/aggregate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace otter {

namespace {
constexpr std::size_t DenseMax = std::size_t(1) << 20; // table entries
} // namespace

ConstructGroups::ConstructGroups(std::size_t Kinds, std::size_t Identities)
    : Kinds(Kinds),
      Identities(Kinds && Identities <= DenseMax / Kinds ? Identities : 0) {
  Table.assign(this->Identities * Kinds, None);
  Hashed.resize(Kinds);
}

std::uint32_t ConstructGroups::find(unsigned Kind,
                                    std::uint64_t Identity) const {
  if (Identity < Identities)
    return Table[std::size_t(Identity) * Kinds + Kind];
  auto It = Hashed[Kind].find(Identity);
  return It == Hashed[Kind].end() ? None : It->second;
}

std::string SourceConstructs::keyOf(const SourceLabel &L,
                                    std::uint64_t Address) {
  // Prefixed, so that a region id, a file:line and an address never meet.
  return L.RegionId ? "r" + std::to_string(L.RegionId)
         : L.Line   ? "l" + L.File + ":" + std::to_string(L.Line)
                    : "a" + std::to_string(Address);
}

std::uint64_t SourceConstructs::identity(const SourceLabel &L,
                                         std::uint64_t Address) {
  return Ids.try_emplace(keyOf(L, Address), Ids.size()).first->second;
}

std::uint64_t SourceConstructs::find(const SourceLabel &L,
                                     std::uint64_t Address) const {
  auto It = Ids.find(keyOf(L, Address));
  return It == Ids.end() ? ~std::uint64_t(0) : It->second;
}

ConstructEdges::ConstructEdges(std::size_t Groups)
    : Groups(Groups), Dense(Groups * Groups * MaxKinds <= DenseMax) {
  if (Dense)
    Table.assign(Groups * Groups * MaxKinds, 0);
}

std::uint64_t ConstructEdges::countOf(std::uint64_t Key) const {
  std::size_t From = Key >> 34, To = (Key >> 4) & 0x3fffffff,
              Kind = Key & (MaxKinds - 1);
  if (Dense)
    return Table[(From * Groups + To) * MaxKinds + Kind];
  auto It = Hashed.find(Key);
  return It == Hashed.end() ? 0 : It->second;
}

std::vector<ConstructEdges::Counted> ConstructEdges::edges() const {
  std::vector<Counted> E;
  E.reserve(Order.size());
  for (std::uint64_t Key : Order)
    E.push_back({std::uint32_t(Key >> 34),
                 std::uint32_t((Key >> 4) & 0x3fffffff),
                 unsigned(Key & (MaxKinds - 1)), countOf(Key)});
  return E;
}

std::uint64_t ConstructEdges::maxCount() const {
  std::uint64_t M = 1;
  for (std::uint64_t Key : Order)
    M = std::max(M, countOf(Key));
  return M;
}

AggregateDot::AggregateDot(std::ostream &OS, const std::string &Comments,
                           const char *Name, const std::string &GraphAttrs,
                           const char *NodeAttrs, const char *EdgeAttrs)
    : OS(OS) {
  OS << Comments << "digraph " << Name << " {\n  graph [" << GraphAttrs
     << "];\n  node [" << NodeAttrs << "];\n  edge [" << EdgeAttrs << "];\n";
}

void AggregateDot::node(std::size_t Id, const std::string &Text,
                        const char *Shape, const char *Fill,
                        const char *Extra) {
  OS << "  c" << Id << " [label=\"" << escape(Text) << "\", shape=" << Shape
     << ", fillcolor=\"" << Fill << '"' << Extra << "];\n";
}

void AggregateDot::edge(std::size_t From, std::size_t To,
                        const std::string &Style, const std::string &Extra,
                        const std::string &Text) {
  OS << "  c" << From << " -> c" << To << " [" << Style << Extra << ", label=\""
     << escape(Text) << "\"];\n";
}

void AggregateDot::close(const std::string &Legend) { OS << Legend << "}\n"; }

std::string AggregateDot::escape(const std::string &S) {
  std::string O;
  O.reserve(S.size());
  for (char C : S) {
    if (C == '\n') {
      O += "\\n";
      continue;
    }
    if (C == '"' || C == '\\')
      O += '\\';
    O += C;
  }
  return O;
}

std::string AggregateDot::penWidth(std::uint64_t Count, std::uint64_t Max) {
  double W = 1.0 + 5.0 * std::log10(double(std::max<std::uint64_t>(Count, 1))) /
                       std::max(1.0, std::log10(double(Max)));
  char B[16];
  std::snprintf(B, sizeof B, "%.1f", W);
  return B;
}

} // namespace otter
