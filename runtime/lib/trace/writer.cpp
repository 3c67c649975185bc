//===- trace/writer.cpp - OTF2 archive from flushed event buffers ---------===//
//
// The trace writer's public side (writer.h) and the archive's life: open,
// a thread's location at its first buffer, close (the final definitions,
// and what is kept when writing fails), statistics. The rest of the
// writer: writer_impl.h.
//
//===----------------------------------------------------------------------===//
#include "trace/writer.h"
#include "trace/errors.h"
#include "trace/merge.h"
#include "trace/writer_impl.h"

#include <otf2/OTF2_Pthread_Locks.h>
#include <otf2/otf2.h>

#include <mutex>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace otter::trace {

TraceWriter::TraceWriter(WriterOptions O, Resolver R)
    : P(std::make_unique<Impl>()) {
  P->Opt = std::move(O);
  P->Resolve = std::move(R);
  P->Codes.emplace_back(); // id 0: no address
}

TraceWriter::~TraceWriter() {
  for (Location *L : P->Locs)
    delete L;
}

bool TraceWriter::open(std::string &Error) {
  installQuietOtf2Errors();
  std::lock_guard<std::mutex> G(P->M);
  // A previous run's archive in the same directory would make OTF2 refuse.
  for (const char *F : {"/traces.otf2", "/traces.def"})
    ::unlink((P->Opt.Dir + F).c_str());
  P->Archive = OTF2_Archive_Open(P->Opt.Dir.c_str(), "traces",
                                 OTF2_FILEMODE_WRITE, P->Opt.ChunkBytes,
                                 DefinitionChunkBytes, OTF2_SUBSTRATE_POSIX,
                                 OTF2_COMPRESSION_NONE);
  if (!P->Archive) {
    Error = "cannot create OTF2 archive in '" + P->Opt.Dir + "': " +
            lastOtf2Error();
    return false;
  }
  ::unlink((P->Opt.Dir + "/.checkpoint/traces.otf2").c_str());
  ::unlink((P->Opt.Dir + "/.checkpoint/traces.def").c_str());
  if (OTF2_Archive_SetFlushCallbacks(P->Archive, &WriterFlushCallbacks,
                                     P.get()) != OTF2_SUCCESS ||
      OTF2_Archive_SetMemoryCallbacks(P->Archive, &WriterMemoryCallbacks,
                                      P.get()) != OTF2_SUCCESS ||
      OTF2_Archive_SetSerialCollectiveCallbacks(P->Archive) != OTF2_SUCCESS ||
      OTF2_Pthread_Archive_SetLockingCallbacks(P->Archive, nullptr) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetCreator(P->Archive, P->Opt.Creator.c_str()) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetProperty(P->Archive, FormatProperty, FormatVersion,
                               true) != OTF2_SUCCESS ||
      OTF2_Archive_SetProperty(P->Archive, StateProperty, StateComplete,
                               true) != OTF2_SUCCESS ||
      (P->Opt.SamplesOnly &&
       OTF2_Archive_SetProperty(P->Archive, ContentProperty, ContentSamples,
                                true) != OTF2_SUCCESS) ||
      (!P->Opt.Filter.empty() &&
       OTF2_Archive_SetProperty(P->Archive, FilterProperty,
                                P->Opt.Filter.c_str(), true) != OTF2_SUCCESS) ||
      OTF2_Archive_OpenEvtFiles(P->Archive) != OTF2_SUCCESS) {
    Error = "cannot set up OTF2 archive in '" + P->Opt.Dir + "': " +
            lastOtf2Error();
    OTF2_Archive_Close(P->Archive);
    P->Archive = nullptr;
    return false;
  }
  P->Open = true;
  P->ErrorsAtOpen = otf2ErrorCount();
  return true;
}

Location *TraceWriter::Impl::location(std::uint32_t Index,
                                      std::uint32_t Type) {
  std::lock_guard<std::mutex> G(M);
  if (!Open || Closed)
    return nullptr;
  if (Index < Locs.size() && Locs[Index])
    return Locs[Index];
  if (Index >= Locs.size())
    Locs.resize(Index + 1, nullptr);
  auto *L = new Location(Index); // bad_alloc: write() counts the loss
  L->Type = Type;
  L->W = OTF2_Archive_GetEvtWriter(Archive, Index);
  L->Attrs = OTF2_AttributeList_New();
  if (!L->W || !L->Attrs) {
    if (L->Attrs)
      OTF2_AttributeList_Delete(L->Attrs);
    delete L;
    return nullptr;
  }
  if (Opt.DirectRecords)
    L->D.attach(L->W, Archive, Index, Opt.ChunkBytes);
  Locs[Index] = L;
  if (Index < FastLocs)
    LocFast[Index].store(L, std::memory_order_release);
  return L;
}

/// The archive's last write at close: a region for every code id, the
/// properties, the definitions, the event and local definition files
/// closed, the anchor written. False: some of it failed.
static bool writeFinalArchive(TraceWriter::Impl &P,
                              const std::vector<Location *> &Locs) {
  // Every code id needs a region for its calling context.
  for (std::size_t I = 1; I < P.Codes.size(); ++I)
    if (P.Codes[I].Region == NoRef && P.Codes[I].SampleCtx == NoRef) {
      P.Codes[I].Region = std::uint32_t(P.Regions.size());
      P.Regions.push_back({RegionClass::Site, 0, std::uint32_t(I)});
    }
  // Target offload's devices: their streams' events (writer_device.cpp).
  bool Ok = P.writeDevices(Locs);
  Ok &= P.setNames(P.Archive);
  if (P.Full.load() &&
      OTF2_Archive_SetProperty(
          P.Archive, CutProperty,
          (std::to_string(P.Opt.MaxBytes) + " " +
           std::to_string(P.CutNs.load(std::memory_order_relaxed)))
              .c_str(),
          true) != OTF2_SUCCESS)
    Ok = false;
  if (!P.ClockOffsets.empty() &&
      OTF2_Archive_SetProperty(P.Archive, ClockOffsetsProperty,
                               P.ClockOffsets.c_str(), true) != OTF2_SUCCESS)
    Ok = false;
  if (!P.setRecordingCost(P.Archive))
    Ok = false;
  OTF2_GlobalDefWriter *D = OTF2_Archive_GetGlobalDefWriter(P.Archive);
  if (!D)
    Ok = false;
  else
    P.writeDefinitions(D, false);
  for (Location *L : Locs)
    if (L) {
      // A copy of the chunk being filled (a flush on request, a periodic
      // one: writer_disk.cpp) and its terminator a chunk further on go:
      // OTF2 writes that chunk for real now, at the same offset, and maybe
      // shorter; the file then ends where OTF2's records do.
      if (L->Fd >= 0 && L->FlushedEvents > L->DiskEvents &&
          ::ftruncate(L->Fd, off_t(L->DiskEnd)) == 0)
        L->FlushedEvents = 0;
      if (OTF2_Archive_CloseEvtWriter(P.Archive, L->W) != OTF2_SUCCESS)
        Ok = false;
      OTF2_AttributeList_Delete(L->Attrs);
    }
  if (OTF2_Archive_CloseEvtFiles(P.Archive) != OTF2_SUCCESS)
    Ok = false;
  // Empty local definition files: readers expect one per location.
  if (OTF2_Archive_OpenDefFiles(P.Archive) == OTF2_SUCCESS) {
    for (Location *L : Locs)
      if (L)
        if (OTF2_DefWriter *DW = OTF2_Archive_GetDefWriter(P.Archive, L->Index))
          OTF2_Archive_CloseDefWriter(P.Archive, DW);
    for (const TraceWriter::Impl::DeviceStream &S : P.DevStreams)
      if (OTF2_DefWriter *DW = OTF2_Archive_GetDefWriter(P.Archive, S.Ref))
        OTF2_Archive_CloseDefWriter(P.Archive, DW);
    OTF2_Archive_CloseDefFiles(P.Archive);
  }
  if (OTF2_Archive_Close(P.Archive) != OTF2_SUCCESS)
    Ok = false;
  return Ok;
}

bool TraceWriter::close(std::string &Error) {
  std::vector<Location *> Locs;
  {
    std::lock_guard<std::mutex> G(P->M);
    if (!P->Open || P->Closed)
      return true;
    P->Closed = true; // no new locations
    P->Closing.store(true, std::memory_order_release);
    Locs = P->Locs;
  }
  // Wait for flushes in progress (unlocked below). Not holding M here: a
  // flush takes its location's lock first, then M (new code addresses).
  for (Location *L : Locs)
    if (L) {
      L->M.lock();
      L->Closed = true;
    }
  std::lock_guard<std::mutex> G(P->M);
  const std::string Dir = P->Opt.Dir, Tmp = Dir + "/.checkpoint";
  auto finish = [&] {
    for (Location *L : Locs)
      if (L) {
        if (L->Fd >= 0)
          ::close(L->Fd);
        L->Fd = -1;
        L->M.unlock();
      }
    for (const char *F :
         {"/traces.otf2", "/traces.def", "/kept.otf2", "/kept.def"})
      ::unlink((Tmp + F).c_str());
    ::rmdir((Tmp + "/traces").c_str());
    ::rmdir(Tmp.c_str());
  };
  auto incomplete = [&] {
    // OTF2's out-of-memory errors say "... with the given memory ...".
    bool Memory = P->WriteError.find("memory") != std::string::npos;
    Error = "the trace in '" + Dir + "' is incomplete: writing it failed (" +
            P->WriteError +
            (Memory ? "); memory ran out (an address-space limit, ulimit -v?)"
                    : "); is the disk full, or a file-size limit (ulimit -f) "
                      "reached? (OTTER_OUTPUT_DIR chooses where it goes)");
  };
  if (!P->WriteError.empty()) {
    // The disk filled up while the program ran. Closing the archive would
    // replace the anchor and the definitions of the last checkpoint with
    // files that do not fit: keep what is on disk readable instead (every
    // event file ends after its last complete chunk), with the newest
    // definitions if they still fit (written aside, renamed in if whole).
    P->checkpoint();
    for (Location *L : Locs)
      if (L)
        P->cutBackToDisk(*L);
    finish();
    incomplete();
    return false;
  }
  // Regions still open (threads the runtime never ended, a worker still in
  // a barrier, a task never fulfilled) end with the run (writer_close.cpp).
  OTF2_TimeStamp End = 0;
  for (Location *L : Locs)
    if (L && L->LastT.load(std::memory_order_relaxed) > End)
      End = L->LastT.load(std::memory_order_relaxed);
  P->closeOpenRegions(End);
  // Closing writes the anchor and the definitions anew: keep the last
  // checkpoint's aside (renamed, which needs no space; OTF2 truncates the
  // file it writes, so a hard link would not keep anything) in case that
  // fails.
  ::mkdir(Tmp.c_str(), 0777);
  auto localDef = [&](std::uint32_t I) {
    return Dir + "/traces/" + std::to_string(I) + ".def";
  };
  auto keptDef = [&](std::uint32_t I) {
    return Tmp + "/kept-" + std::to_string(I) + ".def";
  };
  bool Kept = false;
  if (::rename((Dir + "/traces.def").c_str(), (Tmp + "/kept.def").c_str()) ==
      0) {
    Kept = ::rename((Dir + "/traces.otf2").c_str(),
                    (Tmp + "/kept.otf2").c_str()) == 0;
    if (!Kept)
      ::rename((Tmp + "/kept.def").c_str(), (Dir + "/traces.def").c_str());
  }
  if (Kept) // and the (empty) local definition files the checkpoint listed
    for (Location *L : Locs)
      if (L && L->OnDisk)
        ::rename(localDef(L->Index).c_str(), keptDef(L->Index).c_str());
  bool Ok = writeFinalArchive(*P, Locs);
  P->Archive = nullptr;
  // OTF2 does not hand every failed write back (closing the event writers,
  // the anchor file): any error it reported since open() means a file may
  // be incomplete.
  if (otf2ErrorCount() != P->ErrorsAtOpen)
    P->WriteError = firstOtf2ErrorAfter(P->ErrorsAtOpen);
  if (!P->WriteError.empty() && Kept) {
    // Back to the last checkpoint: its anchor and definitions, and every
    // event file cut back to the end it had then.
    ::rename((Tmp + "/kept.def").c_str(), (Dir + "/traces.def").c_str());
    ::rename((Tmp + "/kept.otf2").c_str(), (Dir + "/traces.otf2").c_str());
    for (Location *L : Locs)
      if (L) {
        if (L->OnDisk)
          ::rename(keptDef(L->Index).c_str(), localDef(L->Index).c_str());
        P->cutBackToDisk(*L);
      }
  }
  for (Location *L : Locs)
    if (L)
      ::unlink(keptDef(L->Index).c_str());
  finish();
  if (!P->WriteError.empty())
    incomplete();
  else if (!Ok)
    Error = "writing the OTF2 archive in '" + Dir +
            "' failed: " + lastOtf2Error();
  return Ok && P->WriteError.empty();
}

WriterStats TraceWriter::stats() const {
  std::lock_guard<std::mutex> G(P->M);
  WriterStats S;
  S.Events = P->EventCount;
  S.DroppedEvents = P->DroppedEvents;
  for (Location *L : P->Locs)
    if (L) {
      S.Events += L->Events;
      ++S.Locations;
      S.DirectLocations += L->D.attached();
      S.AttributeEvents += L->AttrEvents;
    }
  S.Samples = P->SampleCount.load(std::memory_order_relaxed);
  S.Cut = P->Full.load();
  S.Regions = P->Regions.size();
  S.Codes = P->Codes.size() - 1 - P->SampleCtxs.size();
  return S;
}

} // namespace otter::trace
