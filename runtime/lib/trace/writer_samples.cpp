//===- trace/writer_samples.cpp - Samples as calling-context samples ------===//
//
// OTTER_SAMPLE with the trace on: each thread's samples, drained from its
// ring off the hot path (core/samples.h), go into the thread's location as
// CallingContextSample records, merged in time order with its events at
// each buffer flush (writeWithSamples), the way Score-P writes them: a
// calling context per (caller's context, code address) -- the sampled
// call path as a tree, outermost frame at the root --, a region per
// sampled function, one interrupt generator (the timer). A sample's calling
// context takes a code id of its own (CodeEntry::SampleCtx), so that the
// calling context refs, code id - 1, stay dense and a parent comes before
// its children (otf2-print warns otherwise). The OpenMP state,
// weight, wait id, task and flags of a sample are attributes of its
// record. docs/trace.md, "Samples".
//
//===----------------------------------------------------------------------===//
#include "trace/writer_impl.h"

#include <cinttypes>
#include <cstdio>

namespace otter::trace {

/// The calling context of each sample (its innermost frame's), made as
/// needed: Out[I] for S[I].
void TraceWriter::Impl::sampleContexts(const TraceSample *S, std::size_t N,
                                       std::vector<std::uint32_t> &Out) {
  Out.resize(N);
  std::lock_guard<std::mutex> G(M);
  auto function = [&](std::uint64_t Address) {
    std::string Name = Opt.FrameName && Address ? Opt.FrameName(Address) : "";
    if (Name.empty()) {
      char Hex[24];
      std::snprintf(Hex, sizeof Hex, "0x%" PRIx64, Address);
      Name = Address ? Hex : "(no frames)";
    }
    auto [It, New] = SampleFunctionIds.try_emplace(
        Name, std::uint32_t(SampleFunctions.size()));
    if (New)
      SampleFunctions.push_back(Name);
    return It->second;
  };
  auto context = [&](std::uint32_t Parent, std::uint64_t Address) {
    auto [It, New] = SampleCtxIds.try_emplace({Parent, Address}, 0);
    if (New) {
      try {
        CodeEntry E;
        E.SampleCtx = std::uint32_t(SampleCtxs.size());
        SampleCtxs.push_back({Address, Parent, function(Address)});
        Codes.push_back(std::move(E));
      } catch (...) {
        SampleCtxIds.erase(It);
        throw;
      }
      It->second = std::uint32_t(Codes.size() - 2); // code id - 1
    }
    return It->second;
  };
  for (std::size_t I = 0; I < N; ++I) {
    std::uint32_t Ctx = OTF2_UNDEFINED_CALLING_CONTEXT;
    for (std::uint32_t K = S[I].Depth; K-- > 0;) // outermost first
      Ctx = context(Ctx, S[I].Frames[K]);
    if (!S[I].Depth) // nothing unwound: one context of its own
      Ctx = context(OTF2_UNDEFINED_CALLING_CONTEXT, 0);
    Out[I] = Ctx;
  }
}

/// One sample's record, no earlier than the location's last record (a
/// sample taken between an event's time and a record the encoder writes
/// later than it, a folded task switch, is moved to that record's time).
void TraceWriter::Impl::writeSample(Location &L, const TraceSample &S,
                                    std::uint32_t Ctx) {
  if (L.Failed)
    return;
  const std::uint64_t Time = Opt.Ticks.toNs(S.Time);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T = Time > Latest ? Time : Latest;
  L.LastT.store(T, std::memory_order_relaxed);
  if (L.MinT.load(std::memory_order_relaxed) == ~0ull)
    L.MinT.store(T, std::memory_order_relaxed);
  OTF2_AttributeList *AL = L.Attrs;
  OTF2_AttributeList_AddUint32(AL, SampleAttrState, S.State);
  if (S.Weight != 1)
    OTF2_AttributeList_AddUint32(AL, SampleAttrWeight, S.Weight);
  if (S.WaitId)
    OTF2_AttributeList_AddUint64(AL, SampleAttrWaitId, S.WaitId);
  if (S.Task)
    OTF2_AttributeList_AddUint64(AL, SampleAttrTask, S.Task);
  if (S.Flags)
    OTF2_AttributeList_AddUint32(AL, SampleAttrFlags, S.Flags);
  if (S.Region)
    OTF2_AttributeList_AddUint64(AL, SampleAttrRegion, S.Region);
  // The unwind distance: the whole path was unwound (no Enter/Leave of
  // calling contexts to share a prefix with).
  const std::uint32_t Unwound = S.Depth ? S.Depth : 1;
  if (viaOtf2(L, [&] {
        return OTF2_EvtWriter_CallingContextSample(L.W, AL, T, Ctx, Unwound,
                                                   0);
      }) != OTF2_SUCCESS)
    return writeFailed(L);
  SampleCount.fetch_add(1, std::memory_order_relaxed);
}

/// The events of a buffer with the samples merged in: each sample before
/// the first event later than it. Returns the samples consumed.
std::size_t TraceWriter::Impl::encodeWithSamples(Location &L,
                                                 const Event *Events,
                                                 std::size_t N,
                                                 const TraceSample *S,
                                                 std::size_t NS, bool Rest) {
  std::vector<std::uint32_t> Ctx;
  sampleContexts(S, NS, Ctx);
  std::size_t J = 0;
  for (std::size_t I = 0; I < N; ++I) {
    for (; J < NS && S[J].Time <= Events[I].Time; ++J)
      writeSample(L, S[J], Ctx[J]);
    encodeOne(L, Events[I]);
  }
  if (Rest)
    for (; J < NS; ++J)
      writeSample(L, S[J], Ctx[J]);
  return J;
}

std::size_t TraceWriter::writeWithSamples(const ThreadInfo &T,
                                          const Event *Events, std::size_t N,
                                          const TraceSample *Samples,
                                          std::size_t NS, bool Rest) {
  if (!NS) {
    if (N)
      write(T.Index, T.Type, Events, N);
    return 0;
  }
  Location *L = nullptr;
  try {
    L = T.Index < Impl::FastLocs
            ? P->LocFast[T.Index].load(std::memory_order_acquire)
            : nullptr;
    if (!L && !(L = P->location(T.Index, T.Type)))
      return NS; // no location (closed, or out of memory): dropped
  } catch (...) {
    return NS;
  }
  std::lock_guard<std::mutex> G(L->M);
  if (L->Closed || L->Failed || P->Full.load(std::memory_order_relaxed))
    return NS; // as write() drops events then
  std::size_t Done = 0;
  try {
    struct Taken {
      Otf2Direct &D;
      ~Taken() { D.end(); }
    } Take{L->D};
    L->D.begin();
    L->BufEnd = Events + N;
    if (L->TryOpen && N) {
      L->TryOpen = false; // as in write() (writer_close.cpp)
      P->testLockTried(*L, Events);
    }
    Done = P->encodeWithSamples(*L, Events, N, Samples, NS, Rest);
    L->Events += N;
    if (P->Opt.MaxBytes)
      P->countBytes(*L);
  } catch (...) { // out of memory: this buffer and its samples are lost
    std::lock_guard<std::mutex> G2(P->M);
    P->DroppedEvents += N;
    return NS;
  }
  return Done;
}

/// The strings of the samples' definitions (interned before any
/// definition is written).
TraceWriter::Impl::SampleStrings TraceWriter::Impl::sampleStrings(
    const std::function<std::uint32_t(const std::string &)> &S) {
  SampleStrings R;
  if (!Opt.SampleHz)
    return R;
  R.Generator = S("OTTER_SAMPLE timer");
  R.Address = S(SampleAddressProperty);
  R.Canon = S(SampleRegionCanon);
  R.Empty = S("");
  for (unsigned I = 0; I < SampleAttrCount; ++I)
    R.Attr[I] = S(SampleAttrNames[I]);
  R.Function.reserve(SampleFunctions.size());
  for (const std::string &F : SampleFunctions)
    R.Function.push_back(S(F));
  return R;
}

/// The samples' definitions: the interrupt generator (ref 0), the
/// attributes and a region per sampled function (refs from FirstRegion);
/// their calling contexts are written among the code addresses' (code id
/// order: writeCallingContexts).
void TraceWriter::Impl::writeSampleDefinitions(OTF2_GlobalDefWriter *D,
                                               const SampleStrings &S,
                                               std::uint32_t FirstRegion) {
  if (!Opt.SampleHz)
    return;
  OTF2_GlobalDefWriter_WriteInterruptGenerator(
      D, 0, S.Generator, OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL,
      -9, 1000000000ull / Opt.SampleHz);
  for (unsigned I = 0; I < SampleAttrCount; ++I) {
    const bool Wide =
        I + AttrCount == SampleAttrWaitId || I + AttrCount == SampleAttrTask ||
        I + AttrCount == SampleAttrRegion;
    OTF2_GlobalDefWriter_WriteAttribute(D, AttrCount + I, S.Attr[I], S.Empty,
                                        Wide ? OTF2_TYPE_UINT64
                                             : OTF2_TYPE_UINT32);
  }
  for (std::size_t I = 0; I < S.Function.size(); ++I)
    OTF2_GlobalDefWriter_WriteRegion(
        D, FirstRegion + std::uint32_t(I), S.Function[I], S.Canon, S.Empty,
        OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING,
        OTF2_REGION_FLAG_NONE, S.Empty, 0, 0);
}

/// A sample's calling context (ref Self), with its code address as the
/// property otter:sample_address.
void TraceWriter::Impl::writeSampleContext(OTF2_GlobalDefWriter *D,
                                           std::uint32_t Self,
                                           const SampleCtx &C,
                                           const SampleStrings &S,
                                           std::uint32_t FirstRegion) {
  OTF2_GlobalDefWriter_WriteCallingContext(D, Self, FirstRegion + C.Function,
                                           OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
                                           C.Parent);
  OTF2_AttributeValue V;
  V.uint64 = C.Address;
  OTF2_GlobalDefWriter_WriteCallingContextProperty(D, Self, S.Address,
                                                   OTF2_TYPE_UINT64, V);
}

} // namespace otter::trace
