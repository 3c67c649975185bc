//===- otter/commands_advice.cpp - otter diagnose with its advice --------===//
//
// `otter diagnose` on one process's archive: one pass reads the analysis
// and the replayable program with its steps' sites; the findings
// (report.h) get the advice replayed on the traced number of cores
// (advice.h), with the scheduling cost every view uses.
//
//===----------------------------------------------------------------------===//
#include "advice.h"
#include "commands.h"
#include "input.h"
#include "simulate.h"
#include "stream.h"

#include <iostream>

namespace otter::cli {

int diagnoseArchive(const std::string &Path, bool Json,
                    const std::string &Phase, bool NoAdvice) {
  ArchiveInput In;
  analysis::Result R;
  sim::Program G;
  std::string Error;
  if (!readArchive(In, Path, R, NoAdvice ? nullptr : &G, nullptr, Error, {},
                   Phase, /*Sites=*/true))
    return fail(Error);
  LabelCache<ArchiveInput> L{In, {}};
  std::vector<analysis::Finding> F =
      analysis::diagnose(R, L.fn(), In.names());
  if (!NoAdvice) {
    sim::Options O;
    sim::DispatchSource From;
    if (!simOptions(false, "", R, O, From, Error))
      return fail(Error);
    calibrateMeasured(G, R, O, From);
    std::vector<analysis::Advice> A =
        advice::advise(G, R, O, L.fn(), std::max(1u, R.Threads));
    G = sim::Program();
    advice::attachAdvice(F, A);
  }
  analysis::printFindings(R, F, Json, std::cout);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

} // namespace otter::cli
