//===- trace/sample_reader.cpp - The samples of an OTF2 archive -----------===//
//
// readArchiveSamples (sample_reader.h): the definitions first (the sample
// calling contexts -- those whose region is a sampled function's, codec.h
// -- with their parents and addresses; the sample attributes by name; the
// interrupt generator), then every location's CallingContextSample
// records.
//
//===----------------------------------------------------------------------===//
#include "trace/sample_reader.h"
#include "trace/codec.h"
#include "trace/errors.h"

#include <otf2/otf2.h>

#include <cstdlib>

#include <unordered_map>
#include <unordered_set>

namespace otter::trace {

namespace {

using CB = OTF2_CallbackCode;
constexpr CB Ok = OTF2_CALLBACK_SUCCESS;

struct State {
  std::unordered_map<std::uint32_t, std::string> Strings;
  struct Ctx {
    std::uint32_t Parent = OTF2_UNDEFINED_CALLING_CONTEXT;
    std::uint64_t Address = 0;
  };
  std::unordered_map<std::uint32_t, Ctx> Ctxs;
  std::unordered_set<std::uint32_t> SampledRegions;
  std::unordered_map<std::uint32_t, unsigned> Attrs; // ref -> index
  std::vector<std::uint64_t> Locations;
  std::uint64_t PeriodNs = 0;
  std::uint32_t Thread = 0;
  std::vector<ArchiveSample> *Out = nullptr;
};

CB defString(void *U, OTF2_StringRef Self, const char *S) {
  static_cast<State *>(U)->Strings[Self] = S ? S : "";
  return Ok;
}
CB defAttribute(void *U, OTF2_AttributeRef Self, OTF2_StringRef Name,
                OTF2_StringRef, OTF2_Type) {
  auto *P = static_cast<State *>(U);
  const std::string &N = P->Strings[Name];
  for (unsigned I = 0; I < SampleAttrCount; ++I)
    if (N == SampleAttrNames[I])
      P->Attrs[Self] = I;
  return Ok;
}
CB defLocation(void *U, OTF2_LocationRef Self, OTF2_StringRef,
               OTF2_LocationType Type, uint64_t, OTF2_LocationGroupRef) {
  if (Type == OTF2_LOCATION_TYPE_CPU_THREAD)
    static_cast<State *>(U)->Locations.push_back(Self);
  return Ok;
}
CB defGenerator(void *U, OTF2_InterruptGeneratorRef, OTF2_StringRef,
                OTF2_InterruptGeneratorMode Mode, OTF2_Base Base,
                int64_t Exponent, uint64_t Period) {
  // OTTER writes the period in ns (decimal, 10^-9 s).
  if (Mode == OTF2_INTERRUPT_GENERATOR_MODE_TIME &&
      Base == OTF2_BASE_DECIMAL && Exponent == -9)
    static_cast<State *>(U)->PeriodNs = Period;
  return Ok;
}
CB defRegion(void *U, OTF2_RegionRef Self, OTF2_StringRef, OTF2_StringRef Canon,
             OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag,
             OTF2_StringRef, uint32_t, uint32_t) {
  auto *P = static_cast<State *>(U);
  if (P->Strings[Canon] == SampleRegionCanon)
    P->SampledRegions.insert(Self);
  return Ok;
}
CB defContext(void *U, OTF2_CallingContextRef Self, OTF2_RegionRef Region,
              OTF2_SourceCodeLocationRef, OTF2_CallingContextRef Parent) {
  auto *P = static_cast<State *>(U);
  if (P->SampledRegions.count(Region))
    P->Ctxs[Self].Parent = Parent;
  return Ok;
}
CB defContextProperty(void *U, OTF2_CallingContextRef Self,
                      OTF2_StringRef Name, OTF2_Type Type,
                      OTF2_AttributeValue V) {
  auto *P = static_cast<State *>(U);
  if (Type == OTF2_TYPE_UINT64 && P->Strings[Name] == SampleAddressProperty)
    if (auto It = P->Ctxs.find(Self); It != P->Ctxs.end())
      It->second.Address = V.uint64;
  return Ok;
}

CB evSample(OTF2_LocationRef, OTF2_TimeStamp Time, uint64_t, void *U,
            OTF2_AttributeList *AL, OTF2_CallingContextRef Ctx, uint32_t,
            OTF2_InterruptGeneratorRef) {
  auto *P = static_cast<State *>(U);
  ArchiveSample S;
  S.Thread = P->Thread;
  S.TimeNs = Time;
  const std::uint32_t N = AL ? OTF2_AttributeList_GetNumberOfElements(AL) : 0;
  for (std::uint32_t I = 0; I < N; ++I) {
    OTF2_AttributeRef Ref;
    OTF2_Type T;
    OTF2_AttributeValue V;
    if (OTF2_AttributeList_GetAttributeByIndex(AL, I, &Ref, &T, &V) !=
        OTF2_SUCCESS)
      continue;
    auto It = P->Attrs.find(Ref);
    if (It == P->Attrs.end())
      continue;
    const std::uint64_t X = T == OTF2_TYPE_UINT64   ? V.uint64
                            : T == OTF2_TYPE_UINT32 ? V.uint32
                                                    : 0;
    switch (AttrCount + It->second) {
    case SampleAttrState: S.State = std::uint32_t(X); break;
    case SampleAttrWeight: S.Weight = std::uint32_t(X); break;
    case SampleAttrWaitId: S.WaitId = X; break;
    case SampleAttrTask: S.Task = X; break;
    case SampleAttrFlags: S.Flags = std::uint32_t(X); break;
    case SampleAttrRegion: S.Region = X; break;
    default: break;
    }
  }
  // The path, innermost first (a context of address 0: nothing unwound).
  for (unsigned Depth = 0;
       Ctx != OTF2_UNDEFINED_CALLING_CONTEXT && Depth < 4096; ++Depth) {
    auto It = P->Ctxs.find(Ctx);
    if (It == P->Ctxs.end())
      break;
    if (It->second.Address)
      S.Stack.push_back(It->second.Address);
    Ctx = It->second.Parent;
  }
  P->Out->push_back(std::move(S));
  return Ok;
}

} // namespace

bool readArchiveSamples(const std::string &Anchor,
                        std::vector<ArchiveSample> &Out, unsigned &Hz,
                        std::string &Error) {
  installQuietOtf2Errors();
  Hz = 0;
  OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
  if (!R) {
    Error = "cannot open OTF2 archive '" + Anchor + "': " + lastOtf2Error();
    return false;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(R);
  State St;
  St.Out = &Out;
  bool Good = false;
  if (OTF2_GlobalDefReader *DR = OTF2_Reader_GetGlobalDefReader(R)) {
    OTF2_GlobalDefReaderCallbacks *C = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(C, defString);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(C, defAttribute);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(C, defLocation);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(C, defRegion);
    OTF2_GlobalDefReaderCallbacks_SetInterruptGeneratorCallback(C,
                                                                defGenerator);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(C, defContext);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextPropertyCallback(
        C, defContextProperty);
    OTF2_Reader_RegisterGlobalDefCallbacks(R, DR, C, &St);
    OTF2_GlobalDefReaderCallbacks_Delete(C);
    uint64_t N = 0;
    Good = OTF2_Reader_ReadAllGlobalDefinitions(R, DR, &N) == OTF2_SUCCESS;
    OTF2_Reader_CloseGlobalDefReader(R, DR);
  }
  if (!Good) {
    Error = "cannot read the definitions of '" + Anchor + "': " +
            lastOtf2Error();
    OTF2_Reader_Close(R);
    return false;
  }
  if (St.PeriodNs)
    Hz = unsigned(1000000000ull / St.PeriodNs);
  if (St.Ctxs.empty() || St.Locations.empty()) { // no samples
    OTF2_Reader_Close(R);
    return true;
  }
  for (std::uint64_t L : St.Locations)
    OTF2_Reader_SelectLocation(R, L);
  if (OTF2_Reader_OpenEvtFiles(R) != OTF2_SUCCESS) {
    Error = "cannot open the event files of '" + Anchor +
            "': " + lastOtf2Error();
    OTF2_Reader_Close(R);
    return false;
  }
  OTF2_EvtReaderCallbacks *C = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetCallingContextSampleCallback(C, evSample);
  for (std::uint64_t L : St.Locations) {
    OTF2_EvtReader *ER = OTF2_Reader_GetEvtReader(R, L);
    if (!ER)
      continue;
    OTF2_Reader_RegisterEvtCallbacks(R, ER, C, &St);
    St.Thread = std::uint32_t(L);
    uint64_t N = 0;
    // A damaged location: the samples read before the damage are kept.
    OTF2_Reader_ReadAllLocalEvents(R, ER, &N);
    OTF2_Reader_CloseEvtReader(R, ER);
  }
  OTF2_EvtReaderCallbacks_Delete(C);
  OTF2_Reader_CloseEvtFiles(R);
  OTF2_Reader_Close(R);
  return true;
}

namespace {
bool holdsSamplesOnly(OTF2_Reader *R) {
  char *V = nullptr;
  const bool Only =
      OTF2_Reader_GetProperty(R, ContentProperty, &V) == OTF2_SUCCESS && V &&
      std::string(V) == ContentSamples;
  std::free(V);
  return Only;
}
} // namespace

bool archiveHoldsSamplesOnly(const std::string &Anchor) {
  installQuietOtf2Errors();
  OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
  if (!R)
    return false;
  const bool Only = holdsSamplesOnly(R);
  OTF2_Reader_Close(R);
  return Only;
}

bool samplesOnlyArchive(OTF2_Reader *R, const std::string &Anchor,
                        std::string &Error) {
  if (!holdsSamplesOnly(R))
    return false;
  const std::size_t Slash = Anchor.rfind('/');
  std::string Dir = Slash == std::string::npos ? "." : Anchor.substr(0, Slash);
  if (Dir.size() > 6 && Dir.compare(Dir.size() - 6, 6, "/trace") == 0)
    Dir.resize(Dir.size() - 6);
  Error = "'" + Anchor +
          "' holds only samples (a run sampled alone: OTTER_SAMPLE with "
          "OTTER_TRACE=0), no events to read; otter profile " +
          Dir + " reads them (trace the run, OTTER_TRACE=1, for this command)";
  return true;
}

} // namespace otter::trace
