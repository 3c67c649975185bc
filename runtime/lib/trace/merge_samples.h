//===- trace/merge_samples.h - Samples' definitions in a job archive -*- C++
//-*-===//
//
// Part of the job archive's assembly (merge.cpp): the definitions the
// ranks' samples refer to (docs/sampling.md) -- interrupt generators,
// calling contexts and their properties (the code address) -- read from
// each rank's archive and written into the job's, so a sampled job's
// CallingContextSample records, whose event files the job archive links
// as they are, resolve there through each location's mapping tables. The
// sampled functions' regions are ordinary regions, unified with the others
// by merge.cpp. A calling context's code address is the rank process's own
// (each process has its own load addresses): it is kept as it is.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_MERGE_SAMPLES_H
#define OTTER_TRACE_MERGE_SAMPLES_H

#include <otf2/otf2.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace otter::trace::merge {

/// Local reference -> job reference, for one rank.
using RefMap = std::map<std::uint64_t, std::uint64_t>;

/// One rank archive's sample definitions.
struct RankSampleDefs {
  struct Generator {
    std::string Name;
    OTF2_InterruptGeneratorMode Mode;
    OTF2_Base Base;
    std::int64_t Exponent;
    std::uint64_t Period;
  };
  struct Context {
    std::uint32_t Region, Parent;
  };
  struct Property {
    std::uint32_t Context;
    std::string Name;
    OTF2_Type Type;
    OTF2_AttributeValue Value;
  };
  std::map<std::uint32_t, Generator> Generators;
  std::map<std::uint32_t, Context> Contexts;
  std::vector<Property> Properties;
  bool SamplesOnly = false; // the archive holds samples alone (codec.h)
};

/// Reads the sample definitions of the archive whose anchor is Anchor.
/// False (Error) when its definitions cannot be read.
bool readSampleDefs(const std::string &Anchor, RankSampleDefs &D,
                    std::string &Error);

/// The job's sample definitions: generators unified by value, every
/// rank's calling contexts kept (renumbered, in rank order).
class JobSampleDefs {
public:
  using Intern = std::function<std::uint32_t(const std::string &)>;
  /// Adds one rank's definitions: Regions maps its region references to
  /// the job's; Contexts and Generators receive its mappings. Strings are
  /// interned with S (the job's string table, written before these).
  void add(const RankSampleDefs &D, const RefMap &Regions, const Intern &S,
           RefMap &Contexts, RefMap &Generators);
  /// Writes the definitions (after the regions they refer to).
  void write(OTF2_GlobalDefWriter *W) const;
  bool empty() const { return Contexts.empty() && Generators.empty(); }

private:
  struct Generator {
    std::uint32_t Name;
    OTF2_InterruptGeneratorMode Mode;
    OTF2_Base Base;
    std::int64_t Exponent;
    std::uint64_t Period;
  };
  struct Context {
    std::uint32_t Region, Parent;
  };
  struct Property {
    std::uint32_t Context, Name;
    OTF2_Type Type;
    OTF2_AttributeValue Value;
  };
  std::map<std::string, std::uint32_t> GeneratorIndex;
  std::vector<Generator> Generators;
  std::vector<Context> Contexts;
  std::vector<Property> Properties;
};

} // namespace otter::trace::merge

#endif
