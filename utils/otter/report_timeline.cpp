//===- otter/report_timeline.cpp - The report's per-thread timeline ------===//
//
// Binning of the state intervals (states.h) and the section's SVG, legend
// and data. Waiting is drawn hatched (a pattern per kind of wait), so it
// can never be mistaken for a task's colour; idle is light grey; a bin
// with less than 30% of its time in any one class is left blank. A
// device's row (target offload) shows in each bin what the device did
// most there, however briefly: kernels, transfers to and from the device,
// other data operations (allocations, deletions), a colour each; a dashed
// line joins each kernel's host thread to its device's row.
//
//===----------------------------------------------------------------------===//
#include "report_timeline.h"

#include "picture.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace otter::html {

using namespace otter::analysis;
using picture::xmlEscape;

namespace {

std::string fmt2(double X) {
  char B[64];
  std::snprintf(B, sizeof B, "%.2f", X);
  return B;
}

const char *TaskPalette[] = {"#2e86c1", "#28b463", "#d68910", "#8e44ad",
                             "#c0392b", "#16a085", "#d35400", "#2c3e50",
                             "#7d3c98", "#a93226", "#1abc9c", "#b7950b"};

/// The drawing of each class but Task (which has a colour per construct):
/// an SVG fill, the legend swatch's CSS background, the legend's text, the
/// character in the data block's bin string.
struct ClassStyle {
  const char *Fill, *Swatch, *Text;
  char Letter;
};
const ClassStyle Styles[Timeline::Classes] = {
    {"", "", "", 't'},
    {"#aed6f1", "#aed6f1", "running its implicit (or initial) task's own code",
     'i'},
    {"url(#wait-sync)",
     "repeating-linear-gradient(45deg,#555 0 2px,#ddd 2px 5px)",
     "waiting in a taskwait, taskgroup or barrier", 'w'},
    {"url(#wait-mutex)",
     "repeating-linear-gradient(45deg,#c0392b 0 2px,#f5d5d1 2px 5px)",
     "waiting for a lock, critical or ordered", 'l'},
    {"url(#wait-mpi)",
     "repeating-linear-gradient(45deg,#1f618d 0 2px,#d4e6f1 2px 5px)",
     "waiting in an MPI call", 'm'},
    {"url(#wait-device)",
     "repeating-linear-gradient(45deg,#b7950b 0 2px,#fcf3cf 2px 5px)",
     "waiting for a device (in a target construct)", 'v'},
    {"#e5e7e9", "#e5e7e9", "idle (no task on the thread)", '-'},
    {"#17202a", "#17202a",
     "OTTER's own time (writing out its event buffer, recording events)",
     'o'},
};

/// A device row's classes: fill, legend text, data block character.
const ClassStyle DeviceStyles[Timeline::DeviceClasses] = {
    {"#f4d03f", "#f4d03f", "device: kernel", 'k'},
    {"#ec7063", "#ec7063", "device: transfer to the device", 't'},
    {"#af7ac5", "#af7ac5", "device: transfer from the device", 'f'},
    {"#abb2b9", "#abb2b9", "device: allocation, deletion (no bytes moved)",
     'd'},
};

unsigned deviceClassOf(const char *What) {
  std::string W = What ? What : "";
  if (W == "kernel")
    return Timeline::Kernel;
  if (W == "transfer to device")
    return Timeline::ToDevice;
  if (W == "transfer from device")
    return Timeline::FromDevice;
  return Timeline::DataOp;
}

const char *Patterns =
    "<defs><pattern id=\"wait-sync\" width=\"5\" height=\"5\" "
    "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
    "<rect width=\"5\" height=\"5\" fill=\"#ddd\"/><rect width=\"2\" "
    "height=\"5\" fill=\"#555\"/></pattern><pattern id=\"wait-mutex\" "
    "width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"5\" height=\"5\" "
    "fill=\"#f5d5d1\"/><rect width=\"2\" height=\"5\" fill=\"#c0392b\"/>"
    "</pattern><pattern id=\"wait-mpi\" width=\"5\" height=\"5\" "
    "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
    "<rect width=\"5\" height=\"5\" fill=\"#d4e6f1\"/><rect width=\"2\" "
    "height=\"5\" fill=\"#1f618d\"/></pattern><pattern id=\"wait-device\" "
    "width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"5\" height=\"5\" "
    "fill=\"#fcf3cf\"/><rect width=\"2\" height=\"5\" fill=\"#b7950b\"/>"
    "</pattern></defs>";

} // namespace

Timeline::Class Timeline::classOfWait(Kind K) {
  if (isTargetConstruct(K))
    return WaitDevice;
  switch (K) {
  case Kind::Critical:
  case Kind::Lock:
  case Kind::NestLock:
  case Kind::Ordered:
    return WaitMutex;
  case Kind::Mpi:
    return WaitMpi;
  default:
    return WaitSync;
  }
}

namespace {

/// The class an interval is drawn as.
unsigned classOf(const StateInterval &I) {
  switch (I.State) {
  case ThreadState::Running:
    return I.TaskKind == Kind::Task ? Timeline::Task : Timeline::Implicit;
  case ThreadState::Waiting:
    return Timeline::classOfWait(I.Construct);
  case ThreadState::Tool:
    return Timeline::Tool;
  default:
    return Timeline::Idle;
  }
}

} // namespace

Timeline::Timeline(std::uint64_t From, std::uint64_t To, unsigned Bins)
    : Start(From), FixedEnd(To), NBins(std::max(16u, Bins)), Fixed(To > From) {
  if (Fixed)
    Width = std::max<std::uint64_t>(1, (To - From + NBins - 1) / NBins);
}

void Timeline::setOrigin(std::uint64_t T) { Origin = T; }

void Timeline::mark(std::uint32_t Thread, std::uint32_t Name,
                    std::uint64_t Time) {
  ++MarkCounts[Name];
  if (Marks.size() < MaxMarks)
    Marks.push_back({Thread, Name, Time - std::min(Time, Origin)});
}

int Timeline::Bin::shown(std::uint64_t W) const {
  auto Max = std::max_element(Ns.begin(), Ns.end());
  if (*Max < 0.3 * double(W))
    return -1;
  return int(Max - Ns.begin());
}

int Timeline::DeviceBin::shown() const {
  auto Max = std::max_element(Ns.begin(), Ns.end());
  return *Max > 0 ? int(Max - Ns.begin()) : -1;
}

/// Doubles the bin width (merging pairs) until Until (relative) fits.
void Timeline::grow(std::uint64_t Until) {
  while (Until > Start + Width * NBins) {
    for (auto &[D, Bins] : Devices) {
      for (unsigned I = 0; I < NBins / 2; ++I)
        for (unsigned C = 0; C < DeviceClasses; ++C)
          Bins[I].Ns[C] = Bins[2 * I].Ns[C] + Bins[2 * I + 1].Ns[C];
      std::fill(Bins.begin() + NBins / 2, Bins.end(), DeviceBin());
    }
    for (auto &Th : Threads) {
      for (unsigned I = 0; I < NBins / 2; ++I) {
        Bin &A = Th[2 * I], &B = Th[2 * I + 1], M;
        for (unsigned C = 0; C < Classes; ++C)
          M.Ns[C] = A.Ns[C] + B.Ns[C];
        const Bin &T = A.TopNs >= B.TopNs ? A : B;
        M.TopCode = T.TopCode;
        M.TopNs = A.TopCode == B.TopCode ? A.TopNs + B.TopNs : T.TopNs;
        Th[I] = M;
      }
      std::fill(Th.begin() + NBins / 2, Th.end(), Bin());
    }
    Width *= 2;
  }
}

void Timeline::state(std::uint32_t Thread, const StateInterval &I) {
  if (Thread > 4096 || I.End <= I.Start)
    return;
  // The exact totals, clipped to the window.
  std::uint64_t S = I.Start > Origin ? I.Start - Origin : 0;
  std::uint64_t E = I.End > Origin ? I.End - Origin : 0;
  S = std::max(S, Start);
  if (Fixed)
    E = std::min(E, FixedEnd);
  if (E > S) {
    if (Thread >= Sums.size())
      Sums.resize(Thread + 1);
    Sums[Thread].Ns[std::size_t(I.State)] += E - S;
    if (I.State == ThreadState::Waiting)
      Sums[Thread].WaitingBy[I.Construct] += E - S;
  }
  add(Thread, I.Start, I.End, classOf(I), I.TaskCode);
}

void Timeline::device(std::uint32_t Thread, std::int32_t Device,
                      const char *What, std::uint64_t, std::uint64_t S,
                      std::uint64_t E, std::uint64_t) {
  S = S > Origin ? S - Origin : 0;
  E = E > Origin ? E - Origin : 0;
  if (!Fixed)
    grow(E);
  std::uint64_t End = Start + Width * NBins;
  unsigned Cls = deviceClassOf(What);
  Device = deviceKey(Thread, Device);
  if (Cls == Kernel && S >= Start && S < End && Links.size() < MaxLinks)
    Links.push_back({Thread, Device, S});
  S = std::max(S, Start);
  E = std::min(E, End);
  auto [It, New] = Devices.try_emplace(Device);
  if (New) {
    It->second.resize(NBins);
    DeviceSums[Device] = {};
  }
  if (E <= S)
    return;
  DeviceSums[Device][Cls] += E - S;
  for (std::uint64_t B = (S - Start) / Width; B < NBins; ++B) {
    std::uint64_t BS = Start + B * Width, BE = BS + Width;
    if (BS >= E)
      break;
    It->second[B].Ns[Cls] += double(std::min(E, BE) - std::max(S, BS));
  }
}

void Timeline::add(std::uint32_t Thread, std::uint64_t S, std::uint64_t E,
                   unsigned Cls, std::uint64_t Code) {
  S = S > Origin ? S - Origin : 0;
  E = E > Origin ? E - Origin : 0;
  if (!Fixed)
    grow(E);
  std::uint64_t End = Start + Width * NBins;
  S = std::max(S, Start);
  E = std::min(E, End);
  if (E <= S)
    return;
  if (Thread >= Threads.size())
    Threads.resize(Thread + 1, std::vector<Bin>(NBins));
  std::vector<Bin> &Th = Threads[Thread];
  for (std::uint64_t B = (S - Start) / Width; B < NBins; ++B) {
    std::uint64_t BS = Start + B * Width, BE = BS + Width;
    if (BS >= E)
      break;
    double Ns = double(std::min(E, BE) - std::max(S, BS));
    Bin &X = Th[B];
    X.Ns[Cls] += Ns;
    if (Cls != Task)
      continue;
    if (X.TopCode == Code)
      X.TopNs += Ns;
    else if (Ns > X.TopNs) {
      X.TopCode = Code;
      X.TopNs = Ns;
    }
  }
}

void Timeline::finish(std::uint64_t RunNs) {
  if (Fixed)
    return;
  grow(RunNs);
  // Drop the bins past the run's end (at most half of them).
  std::uint64_t N = std::min<std::uint64_t>(
      NBins, std::max<std::uint64_t>(
                 1, (RunNs - std::min(RunNs, Start) + Width - 1) / Width));
  for (auto &Th : Threads)
    Th.resize(N);
  for (auto &[D, Bins] : Devices)
    Bins.resize(N);
  NBins = unsigned(N);
}

namespace {
/// Per thread its time in the window per state, exactly (the data block's
/// totals), waiting split by construct: the numbers behind the picture.
void writeTotalsTable(const Timeline &T, std::ostream &OS) {
  OS << "<table class=\"sort\" id=\"timeline-totals\"><thead><tr>"
        "<th>" << (T.hasRanks() ? "rank.thread" : "thread")
     << "</th><th class=\"n\">running</th><th class=\"n\">"
        "waiting</th><th>waiting in</th><th class=\"n\">idle</th>"
        "<th class=\"n\" title=\"OTTER's own time: writing out its event "
        "buffer, recording events\">OTTER</th>"
        "<th class=\"n\">total</th></tr></thead><tbody>";
  auto cell = [&](std::uint64_t Ns, std::uint64_t All) {
    char Share[32];
    std::snprintf(Share, sizeof Share, " (%.1f%%)",
                  All ? 100.0 * double(Ns) / double(All) : 0.0);
    OS << "<td class=\"n\" data-v=\"" << Ns << "\">"
       << xmlEscape(fmtNs(double(Ns))) << Share << "</td>";
  };
  for (std::size_t Th = 0; Th < T.totals().size(); ++Th) {
    const Timeline::Totals &X = T.totals()[Th];
    std::uint64_t All = 0;
    for (std::uint64_t N : X.Ns)
      All += N;
    if (!All)
      continue;
    OS << "<tr><td>"
       << (T.hasRanks() ? std::to_string(T.rankOf(Th)) + "." +
                              std::to_string(T.localOf(Th))
                        : std::to_string(Th))
       << "</td>";
    cell(X.Ns[std::size_t(ThreadState::Running)], All);
    cell(X.Ns[std::size_t(ThreadState::Waiting)], All);
    OS << "<td>";
    bool First = true;
    for (const auto &[K, Ns] : X.WaitingBy) {
      OS << (First ? "" : ", ") << kindName(K) << " "
         << xmlEscape(fmtNs(double(Ns)));
      First = false;
    }
    OS << "</td>";
    cell(X.Ns[std::size_t(ThreadState::Idle)], All);
    cell(X.Ns[std::size_t(ThreadState::Tool)], All);
    OS << "<td class=\"n\" data-v=\"" << All << "\">"
       << xmlEscape(fmtNs(double(All))) << "</td></tr>";
  }
  OS << "</tbody></table>";
}
} // namespace

namespace {
/// The legend's entries of the thread classes after the task colours;
/// waiting for a device only in programs with target constructs.
void writeClassLegend(const Timeline &T, bool Devices, std::ostream &OS) {
  const bool DeviceWaits =
      Devices || std::any_of(T.totals().begin(), T.totals().end(),
                             [](const Timeline::Totals &X) {
                               for (const auto &KV : X.WaitingBy)
                                 if (Timeline::classOfWait(KV.first) ==
                                     Timeline::WaitDevice)
                                   return true;
                               return false;
                             });
  for (unsigned Cls = Timeline::Implicit; Cls < Timeline::Classes; ++Cls)
    if (Cls != Timeline::WaitDevice || DeviceWaits)
      OS << "<span><i class=\"sw\" style=\"background:"
         << Styles[Cls].Swatch << "\"></i>" << Styles[Cls].Text << "</span>";
}
} // namespace

void writeTimelineSection(const Timeline *T, const std::vector<Construct> &Cs,
                          const LabelFn &Label, std::ostream &OS) {
  OS << "<section id=\"timeline\"><h2>Per-thread timeline</h2>";
  if (!T || T->bins().empty()) {
    OS << "<div class=\"muted\">no events in the window</div></section>\n";
    return;
  }
  const auto &B = T->bins();
  std::size_t N = B[0].size();
  // A colour per task construct (source line: all its code addresses), by
  // its total time.
  std::map<std::string, std::string> Colors;
  std::size_t NextColor = 0;
  for (const Construct &C : Cs)
    if (C.S.K == Kind::Task && !Colors.count(C.where()))
      Colors[C.where()] = TaskPalette[NextColor++ % 12];
  std::map<std::uint64_t, std::string> ColorOfCode;
  auto colorOf = [&](std::uint64_t Code) -> const std::string & {
    auto [It, New] = ColorOfCode.try_emplace(Code, "#566573");
    if (New && Label) {
      auto C = Colors.find(sourceText(Label(Code)));
      if (C != Colors.end())
        It->second = C->second;
    }
    return It->second;
  };
  const double W = 1000, Row = 22, L = T->hasRanks() ? 110 : 70;
  const auto &Dev = T->deviceBins();
  // The device rows beneath the threads, after a gap.
  const double DevY = 4 + Row * double(B.size()) + 6;
  double H = Row * double(B.size() + Dev.size()) + 30 + (Dev.empty() ? 0 : 6);
  OS << "<div class=\"muted\">window "
     << xmlEscape(fmtNs(double(T->windowStart()))) << " to "
     << xmlEscape(fmtNs(double(T->windowEnd())))
     << " from the run's first event (--window), in " << N << " bins of "
     << xmlEscape(fmtNs(double(T->binWidth())))
     << ": each shows what the thread did most there (its state timeline: "
        "a task waiting in its taskwait is waiting, not running).</div>"
     << "<div class=\"pic\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << L + W + 10 << "\" height=\"" << H
     << "\" font-family=\"Helvetica,Arial,sans-serif\" font-size=\"11\">"
     << Patterns;
  double BW = W / double(N);
  for (std::size_t Th = 0; Th < B.size(); ++Th) {
    double Y = 4 + Row * double(Th);
    OS << "<text x=\"4\" y=\"" << Y + 14 << "\">" << T->rowName(Th)
       << "</text>";
    // A line above each rank's first row but the first: rows by rank.
    if (T->hasRanks() && Th > 0 && T->rankOf(Th) != T->rankOf(Th - 1))
      OS << "<line x1=\"0\" x2=\"" << L + W << "\" y1=\"" << Y - 2
         << "\" y2=\"" << Y - 2 << "\" stroke=\"#888\"/>";
    // Runs of bins of one colour: one rectangle each.
    std::string Prev, PrevState;
    std::size_t From = 0;
    auto flush = [&](std::size_t To) {
      if (!Prev.empty())
        OS << "<rect x=\"" << fmt2(L + BW * double(From)) << "\" y=\"" << Y
           << "\" width=\"" << fmt2(BW * double(To - From)) << "\" height=\""
           << Row - 4 << "\" fill=\"" << Prev << "\" data-state=\"" << PrevState
           << "\"/>";
    };
    for (std::size_t I = 0; I < N; ++I) {
      const Timeline::Bin &X = B[Th][I];
      int Cls = X.shown(T->binWidth());
      std::string C, St;
      if (Cls == Timeline::Task) {
        C = colorOf(X.TopCode);
        St = "running";
      } else if (Cls >= 0) {
        C = Styles[Cls].Fill;
        St = Cls == Timeline::Implicit ? "running"
             : Cls == Timeline::Idle   ? "idle"
             : Cls == Timeline::Tool   ? "tool"
                                       : "waiting";
      }
      if (C != Prev) {
        flush(I);
        Prev = C;
        PrevState = St;
        From = I;
      }
    }
    flush(N);
  }
  std::size_t DI = 0;
  for (const auto &[D, Bins] : Dev) {
    double Y = DevY + Row * double(DI++);
    OS << "<text x=\"4\" y=\"" << Y + 14 << "\">"
       << xmlEscape(T->deviceRowName(D)) << "</text>";
    for (std::size_t I = 0; I < N && I < Bins.size();) {
      int Cls = Bins[I].shown();
      std::size_t J = I + 1;
      while (J < N && J < Bins.size() && Bins[J].shown() == Cls)
        ++J;
      if (Cls >= 0)
        OS << "<rect x=\"" << fmt2(L + BW * double(I)) << "\" y=\"" << Y
           << "\" width=\"" << fmt2(BW * double(J - I)) << "\" height=\""
           << Row - 4 << "\" fill=\"" << DeviceStyles[Cls].Fill
           << "\" data-device=\"" << T->deviceOfKey(D) << "\" data-op=\""
           << DeviceStyles[Cls].Letter << "\"/>";
      I = J;
    }
  }
  // Host-to-device links: a dashed line from the thread that submitted
  // each kernel (the first MaxLinks) down to its device's row.
  std::map<std::int32_t, std::size_t> DevRow;
  for (const auto &[D, Bins] : Dev)
    DevRow.emplace(D, DevRow.size());
  double Span = double(T->windowEnd() - T->windowStart());
  for (const Timeline::Link &K : T->links()) {
    auto It = DevRow.find(K.Device);
    if (It == DevRow.end() || K.Thread >= B.size() || Span <= 0)
      continue;
    double X = L + W * double(K.Ns - T->windowStart()) / Span;
    OS << "<line x1=\"" << fmt2(X) << "\" y1=\""
       << 4 + Row * double(K.Thread) + Row - 4 << "\" x2=\"" << fmt2(X)
       << "\" y2=\"" << DevY + Row * double(It->second)
       << "\" stroke=\"#b7950b\" stroke-dasharray=\"2,2\" "
          "data-link=\"kernel\"/>";
  }
  OS << "<text x=\"" << L << "\" y=\"" << H - 6 << "\">"
     << xmlEscape(fmtNs(double(T->windowStart()))) << "</text><text x=\""
     << L + W << "\" y=\"" << H - 6 << "\" text-anchor=\"end\">"
     << xmlEscape(fmtNs(double(T->windowEnd()))) << "</text></svg></div>"
     << "<div class=\"legend\" id=\"timeline-legend\">";
  std::size_t Shown = 0;
  for (const Construct &C : Cs)
    if (C.S.K == Kind::Task && Shown < 12 && Colors.count(C.where())) {
      OS << "<span><i class=\"sw\" style=\"background:" << Colors[C.where()]
         << "\"></i>task " << xmlEscape(C.where()) << " running</span>";
      ++Shown;
      Colors.erase(C.where());
    }
  writeClassLegend(*T, !Dev.empty(), OS);
  if (!Dev.empty()) {
    for (const ClassStyle &X : DeviceStyles)
      OS << "<span><i class=\"sw\" style=\"background:" << X.Swatch
         << "\"></i>" << X.Text << "</span>";
    OS << "<span><i class=\"sw\" style=\"background:repeating-linear-"
          "gradient(90deg,#b7950b 0 2px,#fff 2px 4px)\"></i>dashed line: "
          "a kernel submitted by the thread above to the device (the first "
       << Timeline::MaxLinks << ")</span>";
  }
  OS << "<span><i class=\"sw\"></i>no event (before the thread's first, "
        "after its last)</span></div>";
  writeTotalsTable(*T, OS);
  OS << "</section>\n";
}

void writeTimelineJson(const Timeline &T, std::ostream &OS) {
  OS << "\"timeline\":{\"window_start_ns\":" << T.windowStart()
     << ",\"window_end_ns\":" << T.windowEnd() << ",\"bin_ns\":" << T.binWidth()
     << ",\"threads\":[";
  std::size_t Threads = std::max(T.bins().size(), T.totals().size());
  for (std::size_t Th = 0; Th < Threads; ++Th) {
    OS << (Th ? "," : "") << "{\"thread\":" << Th;
    if (T.hasRanks())
      OS << ",\"rank\":" << T.rankOf(Th) << ",\"rank_thread\":"
         << T.localOf(Th);
    Timeline::Totals Zero;
    const Timeline::Totals &S = Th < T.totals().size() ? T.totals()[Th] : Zero;
    for (unsigned St = 0; St < ThreadStateCount; ++St)
      OS << ",\"" << stateName(ThreadState(St)) << "_ns\":" << S.Ns[St];
    OS << ",\"waiting_by\":{";
    bool First = true;
    for (const auto &[K, Ns] : S.WaitingBy) {
      OS << (First ? "" : ",") << '"' << kindName(K) << "\":" << Ns;
      First = false;
    }
    OS << "},\"bins\":\"";
    if (Th < T.bins().size())
      for (const Timeline::Bin &X : T.bins()[Th]) {
        int Cls = X.shown(T.binWidth());
        OS << (Cls < 0 ? '.' : Styles[Cls].Letter);
      }
    OS << "\"}";
  }
  // Offload devices: exact time per class, one character per bin.
  OS << "],\"devices\":[";
  bool FirstDev = true;
  for (const auto &[D, Bins] : T.deviceBins()) {
    OS << (FirstDev ? "" : ",") << "{\"device\":" << T.deviceOfKey(D);
    if (T.hasRanks())
      OS << ",\"rank\":" << D / Timeline::DeviceKeyRanks;
    FirstDev = false;
    const auto &Sum = T.deviceTotals().at(D);
    static const char *Keys[] = {"kernel_ns", "to_device_ns",
                                 "from_device_ns", "data_op_ns"};
    for (unsigned C = 0; C < Timeline::DeviceClasses; ++C)
      OS << ",\"" << Keys[C] << "\":" << Sum[C];
    OS << ",\"bins\":\"";
    for (const Timeline::DeviceBin &X : Bins) {
      int Cls = X.shown();
      OS << (Cls < 0 ? '.' : DeviceStyles[Cls].Letter);
    }
    OS << "\"}";
  }
  OS << "]}";
}

} // namespace otter::html
