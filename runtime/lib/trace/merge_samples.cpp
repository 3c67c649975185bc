//===- trace/merge_samples.cpp - Samples' definitions in a job archive ----===//
//
// merge_samples.h: a second, small pass over a rank archive's global
// definitions for what its samples refer to, and their unification into
// the job archive's.
//
//===----------------------------------------------------------------------===//
#include "trace/merge_samples.h"
#include "trace/codec.h"
#include "trace/errors.h"

#include <cstdlib>
#include <cstring>

namespace otter::trace::merge {

namespace {

using CB = OTF2_CallbackCode;
constexpr CB Ok = OTF2_CALLBACK_SUCCESS;

struct Reading {
  RankSampleDefs *D;
  std::map<std::uint32_t, std::string> Strings;
  const std::string &str(std::uint32_t Ref) {
    return Strings[Ref]; // an unknown reference reads as ""
  }
};

Reading &reading(void *U) { return *static_cast<Reading *>(U); }

CB onString(void *U, OTF2_StringRef Self, const char *S) {
  reading(U).Strings[Self] = S ? S : "";
  return Ok;
}
CB onGenerator(void *U, OTF2_InterruptGeneratorRef Self, OTF2_StringRef Name,
               OTF2_InterruptGeneratorMode Mode, OTF2_Base Base,
               int64_t Exponent, uint64_t Period) {
  Reading &R = reading(U);
  R.D->Generators[Self] = {R.str(Name), Mode, Base, Exponent, Period};
  return Ok;
}
CB onContext(void *U, OTF2_CallingContextRef Self, OTF2_RegionRef Region,
             OTF2_SourceCodeLocationRef, OTF2_CallingContextRef Parent) {
  reading(U).D->Contexts[Self] = {Region, Parent};
  return Ok;
}
CB onContextProperty(void *U, OTF2_CallingContextRef Self, OTF2_StringRef Name,
                     OTF2_Type Type, OTF2_AttributeValue Value) {
  Reading &R = reading(U);
  R.D->Properties.push_back({Self, R.str(Name), Type, Value});
  return Ok;
}

} // namespace

bool readSampleDefs(const std::string &Anchor, RankSampleDefs &D,
                    std::string &Error) {
  OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
  if (!R) {
    Error = "cannot read '" + Anchor + "': " + lastOtf2Error();
    return false;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(R);
  char *V = nullptr;
  if (OTF2_Reader_GetProperty(R, ContentProperty, &V) == OTF2_SUCCESS && V)
    D.SamplesOnly = std::strcmp(V, ContentSamples) == 0;
  std::free(V);
  Reading St{&D, {}};
  bool Good = false;
  if (OTF2_GlobalDefReader *DR = OTF2_Reader_GetGlobalDefReader(R)) {
    OTF2_GlobalDefReaderCallbacks *C = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(C, onString);
    OTF2_GlobalDefReaderCallbacks_SetInterruptGeneratorCallback(C, onGenerator);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(C, onContext);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextPropertyCallback(
        C, onContextProperty);
    OTF2_Reader_RegisterGlobalDefCallbacks(R, DR, C, &St);
    OTF2_GlobalDefReaderCallbacks_Delete(C);
    uint64_t N = 0;
    Good = OTF2_Reader_ReadAllGlobalDefinitions(R, DR, &N) == OTF2_SUCCESS;
    OTF2_Reader_CloseGlobalDefReader(R, DR);
  }
  OTF2_Reader_Close(R);
  if (!Good)
    Error = "cannot read the sample definitions of '" + Anchor +
            "': " + lastOtf2Error();
  return Good;
}

void JobSampleDefs::add(const RankSampleDefs &D, const RefMap &Regions,
                        const Intern &S, RefMap &ContextMap,
                        RefMap &GeneratorMap) {
  for (const auto &[Ref, G] : D.Generators) {
    const std::string Key = G.Name + '\x1f' + std::to_string(G.Mode) + ':' +
                            std::to_string(G.Base) + ':' +
                            std::to_string(G.Exponent) + ':' +
                            std::to_string(G.Period);
    auto [It, New] =
        GeneratorIndex.try_emplace(Key, std::uint32_t(Generators.size()));
    if (New)
      Generators.push_back({S(G.Name), G.Mode, G.Base, G.Exponent, G.Period});
    GeneratorMap[Ref] = It->second;
  }
  // The job's references first (a parent may come after its child in the
  // rank's order), then the contexts with their parents mapped.
  std::uint64_t Next = Contexts.size();
  for (const auto &[Ref, C] : D.Contexts)
    ContextMap[Ref] = Next++;
  for (const auto &[Ref, C] : D.Contexts) {
    auto Region = Regions.find(C.Region);
    auto Parent = ContextMap.find(C.Parent);
    Contexts.push_back({Region == Regions.end() ? OTF2_UNDEFINED_REGION
                                                : std::uint32_t(Region->second),
                        Parent == ContextMap.end()
                            ? OTF2_UNDEFINED_CALLING_CONTEXT
                            : std::uint32_t(Parent->second)});
  }
  for (const RankSampleDefs::Property &P : D.Properties)
    if (auto It = ContextMap.find(P.Context); It != ContextMap.end())
      Properties.push_back(
          {std::uint32_t(It->second), S(P.Name), P.Type, P.Value});
}

void JobSampleDefs::write(OTF2_GlobalDefWriter *W) const {
  for (std::size_t I = 0; I < Generators.size(); ++I) {
    const Generator &G = Generators[I];
    OTF2_GlobalDefWriter_WriteInterruptGenerator(
        W, std::uint32_t(I), G.Name, G.Mode, G.Base, G.Exponent, G.Period);
  }
  for (std::size_t I = 0; I < Contexts.size(); ++I)
    OTF2_GlobalDefWriter_WriteCallingContext(
        W, std::uint32_t(I), Contexts[I].Region,
        OTF2_UNDEFINED_SOURCE_CODE_LOCATION, Contexts[I].Parent);
  for (const Property &P : Properties)
    OTF2_GlobalDefWriter_WriteCallingContextProperty(W, P.Context, P.Name,
                                                     P.Type, P.Value);
}

} // namespace otter::trace::merge
