//===- core/manifest.h - A run owns its output directory --------*- C++ -*-===//
//
// Each run writes, beside its files, a manifest (.otter-files) naming the
// files it wrote in the output directory; the next run into the same
// directory removes the files the previous manifest names before it writes
// its own (the trace directory is replaced by the trace sink itself). So a
// directory never mixes two runs' files (chol's graph.txt beside qsort's
// CSVs), and nothing OTTER did not write is touched (docs/trace.md,
// "Output directory"). In an MPI job each rank does so in its own rank-N/,
// and the rank that assembles the job's archive for the job's directory:
// its manifest names trace and the rank-N of the job's ranks, so a rerun
// with fewer ranks leaves no stale rank-N/ behind (docs/mpi.md).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_MANIFEST_H
#define OTTER_CORE_MANIFEST_H

#include <string>
#include <vector>

namespace otter {

inline constexpr const char *ManifestName = ".otter-files";

/// Removes the files the previous run's manifest in Dir names (plain names
/// inside Dir only: no '/', no "..") and the manifest. Returns how many were
/// removed. Never fails: a file already gone is no matter.
unsigned removePreviousRunFiles(const std::string &Dir);

/// Writes Dir's manifest naming Files (names relative to Dir; an entry may
/// hold several, separated by spaces, as FinishContext::Files). False: it
/// could not be written (Why says why); the run's files are written anyway.
bool writeRunManifest(const std::string &Dir,
                      const std::vector<std::string> &Files, std::string &Why);

/// Removes the OTF2 archive in Dir (its anchor, definitions and event
/// files, nothing else); nothing when Dir holds no traces.otf2.
void removeArchive(const std::string &Dir);

/// An MPI job's directory, by the rank that has assembled the archive of
/// the job's WorldSize ranks: removes what the previous job's manifest
/// names and this job did not write (a rank-N/ with N >= WorldSize: the
/// files its own manifest names, its archive, then the directory if that
/// left it empty; any other plain file named) and writes JobDir's manifest
/// (trace, rank-0 .. rank-<WorldSize-1>). False: it could not be written
/// (Why says why).
bool replaceJobManifest(const std::string &JobDir, int WorldSize,
                        std::string &Why);

} // namespace otter

#endif
