//===- graph/rules.cpp - The OpenMP rules of the task graph -------------===//
//
// The out-of-line parts of graph/rules.h: the id table's slow paths, the
// sub-kind classification and the dependence rules. See rules.h for what
// each rule is and why.
//
//===----------------------------------------------------------------------===//
#include "graph/rules.h"

#include <algorithm>

namespace otter::rules {

//===----------------------------------------------------------------------===//
// Task ids.
//===----------------------------------------------------------------------===//

std::uint32_t TaskIndex::findOther(TaskId Id) const {
  auto It = Other.find(Id);
  return It == Other.end() ? NoIndex : It->second;
}

std::uint32_t &TaskIndex::makeCell(TaskId Id) {
  std::uint64_t Hi = Id >> LoBits, Lo = Id & LoMask;
  if (Hi >= MaxHi || Lo >= MaxLo)
    return Other.try_emplace(Id, NoIndex).first->second;
  if (Direct.size() <= Hi)
    Direct.resize(Hi + 1);
  auto &Pages = Direct[Hi];
  std::size_t P = Lo >> PageShift;
  if (Pages.size() <= P)
    Pages.resize(P + 1);
  if (!Pages[P]) {
    Pages[P].reset(new std::uint32_t[std::size_t(1) << PageShift]);
    std::fill_n(Pages[P].get(), std::size_t(1) << PageShift, NoIndex);
  }
  return Pages[P][Lo & PageMask];
}

void TaskIndex::eraseOther(TaskId Id) {
  if ((Id >> LoBits) >= MaxHi || (Id & LoMask) >= MaxLo)
    Other.erase(Id);
}

void TaskIndex::clear() {
  for (RecentPage &R : Recent)
    R = RecentPage();
  decltype(Direct)().swap(Direct);
  decltype(Other)().swap(Other);
}

//===----------------------------------------------------------------------===//
// Constructs.
//===----------------------------------------------------------------------===//

// Each from the sub-kind rows of otter/constructs.def.

const char *constructName(Construct C) {
  static constexpr const char *Names[] = {
#define OTTER_CONSTRUCT(Construct, Name, Begin, End) Name,
#include "otter/constructs.def"
  };
  static_assert(std::size(Names) == std::size_t(Construct::Count));
  return std::size_t(C) < std::size_t(Construct::Count)
             ? Names[std::size_t(C)]
             : "?";
}

bool isBarrier(SyncKind K) {
  switch (K) {
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, C, Filter)                  \
  case SyncKind::Kind:                                                         \
    return Construct::C == Construct::Barrier ||                               \
           Construct::C == Construct::ImplicitBarrier;
#include "otter/constructs.def"
  }
  return false;
}

bool constructOfSync(SyncKind K, Construct &Out) {
  Construct Found = Construct::Count;
  switch (K) {
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, C, Filter)                  \
  case SyncKind::Kind:                                                         \
    Found = Construct::C;                                                      \
    break;
#include "otter/constructs.def"
  }
  if (Found == Construct::Count)
    return false;
  Out = Found;
  return true;
}

Construct constructOfWork(WorkKind K) {
  switch (K) {
#define OTTER_WORK_KIND(Kind, Value, Ompt, Region, C, Filter)                  \
  case WorkKind::Kind:                                                         \
    return Construct::C;
#include "otter/constructs.def"
  }
  return Construct::Workshare; // a value OMPT does not define
}

Construct constructOfMutex(MutexKind K) {
  switch (K) {
#define OTTER_MUTEX_KIND(Kind, Value, Ompt, Region, C, Filter)                 \
  case MutexKind::Kind:                                                        \
    return Construct::C;
#include "otter/constructs.def"
  }
  return Construct::Count;
}

//===----------------------------------------------------------------------===//
// Dependences.
//===----------------------------------------------------------------------===//

void DependenceRules::add(std::uint64_t Addr, DependenceType T,
                          std::uint32_t Child,
                          std::vector<std::uint32_t> &Preds) {
  auto isSet = [](DependenceType X) {
    return X == DependenceType::MutexInOutSet || X == DependenceType::InOutSet;
  };
  auto append = [&](const std::vector<std::uint32_t> &V) {
    Preds.insert(Preds.end(), V.begin(), V.end());
  };
  switch (T) {
  case DependenceType::In: {
    Address &A = ByAddr[Addr];
    append(A.LastSet);
    A.Readers.push_back(Child);
    break;
  }
  case DependenceType::Out:
  case DependenceType::InOut: {
    Address &A = ByAddr[Addr];
    append(!A.Readers.empty() ? A.Readers : A.LastSet);
    A.LastSet.assign(1, Child);
    A.SetType = DependenceType::InOut;
    A.Readers.clear();
    A.SetPreds.clear();
    break;
  }
  case DependenceType::MutexInOutSet:
  case DependenceType::InOutSet: {
    Address &A = ByAddr[Addr];
    if (A.SetType == T && A.Readers.empty() && isSet(T)) {
      // The next member of the current group: the group's predecessors.
      append(A.SetPreds);
      A.LastSet.push_back(Child);
    } else {
      // A new group: it follows what an out would follow.
      A.SetPreds = !A.Readers.empty() ? A.Readers : A.LastSet;
      append(A.SetPreds);
      A.LastSet.assign(1, Child);
      A.SetType = T;
      A.Readers.clear();
    }
    break;
  }
  default: // source/sink (doacross) are not task dependences
    break;
  }
}

} // namespace otter::rules
