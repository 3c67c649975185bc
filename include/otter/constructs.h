//===- otter/constructs.h - Names of OMPT's construct sub-kinds --*- C++ -*-===//
//
// What otter/constructs.def says of each SyncKind, WorkKind and MutexKind
// value, for the readers of raw values (a trace's Sub, `otter dump`):
// OMPT's name and the OTF2 region's name. The table's promises (values fit
// the filter's sub-kind bit sets, no name missing) are checked here, at
// compile time.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CONSTRUCTS_H
#define OTTER_CONSTRUCTS_H

#include "otter/events.h"

namespace otter::constructs {

// OMPT's name of a sub-kind value (ompt_sync_region_t, ompt_work_t,
// ompt_mutex_t, without the prefix); null for a value OMPT does not define.
constexpr const char *omptSyncName(unsigned V) {
  switch (V) {
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  case Value:                                                                  \
    return Ompt;
#include "otter/constructs.def"
  }
  return nullptr;
}
constexpr const char *omptWorkName(unsigned V) {
  switch (V) {
#define OTTER_WORK_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  case Value:                                                                  \
    return Ompt;
#include "otter/constructs.def"
  }
  return nullptr;
}
constexpr const char *omptMutexName(unsigned V) {
  switch (V) {
#define OTTER_MUTEX_KIND(Kind, Value, Ompt, Region, Construct, Filter)         \
  case Value:                                                                  \
    return Ompt;
#include "otter/constructs.def"
  }
  return nullptr;
}

// The name of a sub-kind's OTF2 region (several values may share one); null
// for a value OMPT does not define.
constexpr const char *syncRegionName(unsigned V) {
  switch (V) {
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  case Value:                                                                  \
    return Region;
#include "otter/constructs.def"
  }
  return nullptr;
}
constexpr const char *workRegionName(unsigned V) {
  switch (V) {
#define OTTER_WORK_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  case Value:                                                                  \
    return Region;
#include "otter/constructs.def"
  }
  return nullptr;
}
constexpr const char *mutexRegionName(unsigned V) {
  switch (V) {
#define OTTER_MUTEX_KIND(Kind, Value, Ompt, Region, Construct, Filter)         \
  case Value:                                                                  \
    return Region;
#include "otter/constructs.def"
  }
  return nullptr;
}

/// Every sub-kind value fits a 32-bit set of sub-kinds (the filter's
/// per-kind masks, core/filter.h) and has both names.
constexpr bool subKindRowsValid() {
  bool Ok = true;
  auto row = [&](unsigned Value, const char *Ompt, const char *Region) {
    Ok = Ok && Value > 0 && Value < 32 && Ompt && *Ompt && Region && *Region;
  };
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  row(Value, Ompt, Region);
#define OTTER_WORK_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  row(Value, Ompt, Region);
#define OTTER_MUTEX_KIND(Kind, Value, Ompt, Region, Construct, Filter)         \
  row(Value, Ompt, Region);
#include "otter/constructs.def"
  return Ok;
}
static_assert(subKindRowsValid(),
              "otter/constructs.def: a sub-kind value must be 1..31 and have "
              "an OMPT name and a region name");

} // namespace otter::constructs

#endif // OTTER_CONSTRUCTS_H
