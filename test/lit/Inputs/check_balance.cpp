//===- check_balance.cpp - Region balance of OTF2 archives, fast ----------===//
//
// otter-check-balance [--allow-open] ANCHOR...: for each OTF2 archive (its
// traces.otf2), per location, every Leave closes the innermost open Enter
// (same region), time never goes back, and -- unless --allow-open -- no
// region is left open at the end (docs/trace.md, "Balanced regions"). The
// check of check-trace.py without otf2-print's text: check-all-traces.py
// (ctest lit-traces/balanced) runs it over every archive the lit tests
// write, some of them tens of megabytes. Prints one line per problem (at
// most 5 per archive), "ANCHOR: ...", and exits 1 if there was any.
//
//===----------------------------------------------------------------------===//
#include <otf2/otf2.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Loc {
  std::vector<std::uint32_t> Stack;
  std::uint64_t Last = 0;
};

struct Check {
  std::string Anchor;
  std::vector<std::uint64_t> Ids; // location refs, definition order
  Loc *Cur = nullptr;
  std::uint64_t CurId = 0;
  unsigned Problems = 0;
  void problem(const std::string &What) {
    if (Problems++ < 5)
      std::printf("%s: %s\n", Anchor.c_str(), What.c_str());
  }
  void time(OTF2_TimeStamp T) {
    if (T < Cur->Last)
      problem("location " + std::to_string(CurId) + ": time goes back at " +
              std::to_string(T));
    Cur->Last = T;
  }
};

OTF2_CallbackCode onLocation(void *U, OTF2_LocationRef Self, OTF2_StringRef,
                             OTF2_LocationType, uint64_t,
                             OTF2_LocationGroupRef) {
  static_cast<Check *>(U)->Ids.push_back(Self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onEnter(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t,
                          void *U, OTF2_AttributeList *, OTF2_RegionRef R) {
  auto *C = static_cast<Check *>(U);
  C->time(T);
  C->Cur->Stack.push_back(R);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLeave(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t,
                          void *U, OTF2_AttributeList *, OTF2_RegionRef R) {
  auto *C = static_cast<Check *>(U);
  C->time(T);
  std::vector<std::uint32_t> &S = C->Cur->Stack;
  const std::string Where =
      "location " + std::to_string(C->CurId) + ": Leave of region " +
      std::to_string(R) + " at " + std::to_string(T);
  if (S.empty())
    C->problem(Where + " with no open region");
  else if (S.back() != R)
    C->problem(Where + " while region " + std::to_string(S.back()) +
               " is the innermost open one");
  if (!S.empty())
    S.pop_back();
  return OTF2_CALLBACK_SUCCESS;
}

/// A record of a kind this OTF2 does not know: only its time.
OTF2_CallbackCode onOther(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t,
                          void *U, OTF2_AttributeList *) {
  static_cast<Check *>(U)->time(T);
  return OTF2_CALLBACK_SUCCESS;
}

bool check(const std::string &Anchor, bool AllowOpen) {
  Check C;
  C.Anchor = Anchor;
  OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
  if (!R) {
    C.problem("OTF2 cannot open it");
    return false;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(R);
  OTF2_GlobalDefReader *GD = OTF2_Reader_GetGlobalDefReader(R);
  OTF2_GlobalDefReaderCallbacks *GC = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(GC, onLocation);
  uint64_t N = 0;
  if (!GD ||
      OTF2_Reader_RegisterGlobalDefCallbacks(R, GD, GC, &C) != OTF2_SUCCESS ||
      OTF2_Reader_ReadAllGlobalDefinitions(R, GD, &N) != OTF2_SUCCESS)
    C.problem("its definitions do not read");
  OTF2_GlobalDefReaderCallbacks_Delete(GC);
  for (std::uint64_t L : C.Ids)
    OTF2_Reader_SelectLocation(R, L);
  if (!C.Ids.empty() && OTF2_Reader_OpenEvtFiles(R) != OTF2_SUCCESS)
    C.problem("its event files do not open");
  OTF2_EvtReaderCallbacks *EC = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(EC, onEnter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(EC, onLeave);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(EC, onOther);
  for (std::uint64_t L : C.Ids) {
    if (C.Problems)
      break;
    Loc Here;
    C.Cur = &Here;
    C.CurId = L;
    OTF2_EvtReader *ER = OTF2_Reader_GetEvtReader(R, L);
    if (!ER) {
      C.problem("location " + std::to_string(L) + ": no event reader");
      break;
    }
    OTF2_Reader_RegisterEvtCallbacks(R, ER, EC, &C);
    uint64_t Read = 0;
    if (OTF2_Reader_ReadAllLocalEvents(R, ER, &Read) != OTF2_SUCCESS)
      C.problem("location " + std::to_string(L) + ": events do not read");
    OTF2_Reader_CloseEvtReader(R, ER);
    if (!AllowOpen && !Here.Stack.empty())
      C.problem("location " + std::to_string(L) + ": " +
                std::to_string(Here.Stack.size()) +
                " region(s) left open at the end");
  }
  OTF2_EvtReaderCallbacks_Delete(EC);
  OTF2_Reader_Close(R);
  return C.Problems == 0;
}

} // namespace

int main(int Argc, char **Argv) {
  bool AllowOpen = false, Ok = true;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--allow-open")) {
      AllowOpen = true;
      continue;
    }
    Ok &= check(Argv[I], AllowOpen);
  }
  return Ok ? 0 : 1;
}
