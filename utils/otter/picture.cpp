//===- otter/picture.cpp - SVG pictures: scalability and the graph -------===//
//
// The scalability plot is drawn here (picture.h says why); the graphs are
// written in dot and laid out by Graphviz, run as a child process on temp
// files (no shell: the names go to dot as arguments).
//
//===----------------------------------------------------------------------===//
#include "picture.h"

#include "dot.h"
#include "graph/aggregate.h"
#include "graph/writers.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace otter::picture {

using namespace otter::analysis;

std::string xmlEscape(const std::string &S) {
  std::string O;
  O.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '<':
      O += "&lt;";
      break;
    case '>':
      O += "&gt;";
      break;
    case '&':
      O += "&amp;";
      break;
    case '"':
      O += "&quot;";
      break;
    default:
      if (static_cast<unsigned char>(C) >= 0x20 || C == '\n' || C == '\t')
        O += C;
    }
  }
  return O;
}

namespace {

std::string num(double X) {
  char B[32];
  std::snprintf(B, sizeof B, "%.1f", X);
  return B;
}

} // namespace

std::string scalabilitySvg(const sim::Prediction &Whole) {
  // Only the points that say something of the program (Prediction::Limit).
  sim::Prediction P = Whole;
  std::erase_if(P.Points, [&](const sim::Point &X) { return !P.applies(X); });
  const double W = 760, H = 440, L = 90, R = 240, T = 40, B = 60;
  const double PW = W - L - R, PH = H - T - B;
  std::ostringstream S;
  S << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
    << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
    << "\" font-family=\"Helvetica,Arial,sans-serif\" font-size=\"12\" "
       "class=\"otter-scalability\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << L
    << "\" y=\"24\" font-size=\"15\" "
       "font-weight=\"bold\">Predicted time on P cores</text>\n";
  if (P.Points.empty()) {
    S << "<text x=\"" << L << "\" y=\"" << T + 20
      << "\">no core counts</text>\n</svg>\n";
    return S.str();
  }
  // Ranges: cores on log2, time on log10, over everything drawn.
  double C0 = P.Points.front().Cores, C1 = P.Points.back().Cores;
  if (P.MeasuredThreads) {
    C0 = std::min(C0, double(P.MeasuredThreads));
    C1 = std::max(C1, double(P.MeasuredThreads));
  }
  if (C1 <= C0)
    C1 = C0 * 2;
  double Y0 = 1e300, Y1 = 0;
  auto see = [&](double V) {
    if (V > 0) {
      Y0 = std::min(Y0, V);
      Y1 = std::max(Y1, V);
    }
  };
  for (const sim::Point &X : P.Points) {
    see(double(X.PredictedNs));
    see(X.WorkBoundNs);
  }
  see(double(P.SpanNs));
  see(P.BurdenedSpanNs);
  see(double(P.MeasuredNs));
  if (Y1 <= 0)
    Y0 = 1, Y1 = 10;
  double LY0 = std::floor(std::log10(Y0)), LY1 = std::ceil(std::log10(Y1));
  if (LY1 <= LY0)
    LY1 = LY0 + 1;
  auto x = [&](double C) {
    return L + PW * (std::log2(C) - std::log2(C0)) /
                   (std::log2(C1) - std::log2(C0));
  };
  auto y = [&](double Ns) {
    double V = std::log10(std::max(Ns, 1e-3));
    return T + PH * (1 - (V - LY0) / (LY1 - LY0));
  };
  // Axes and grid.
  S << "<g stroke=\"#ddd\">\n";
  for (double D = LY0; D <= LY1; ++D)
    S << "<line x1=\"" << L << "\" x2=\"" << L + PW << "\" y1=\""
      << num(y(std::pow(10, D))) << "\" y2=\"" << num(y(std::pow(10, D)))
      << "\"/>\n";
  for (const sim::Point &X : P.Points)
    S << "<line x1=\"" << num(x(X.Cores)) << "\" x2=\"" << num(x(X.Cores))
      << "\" y1=\"" << T << "\" y2=\"" << T + PH << "\"/>\n";
  S << "</g>\n<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << PW
    << "\" height=\"" << PH << "\" fill=\"none\" stroke=\"#333\"/>\n";
  for (double D = LY0; D <= LY1; ++D)
    S << "<text x=\"" << L - 6 << "\" y=\"" << num(y(std::pow(10, D)) + 4)
      << "\" text-anchor=\"end\">" << xmlEscape(fmtNs(std::pow(10, D)))
      << "</text>\n";
  for (const sim::Point &X : P.Points)
    S << "<text x=\"" << num(x(X.Cores)) << "\" y=\"" << T + PH + 16
      << "\" text-anchor=\"middle\">" << X.Cores << "</text>\n";
  S << "<text x=\"" << L + PW / 2 << "\" y=\"" << H - 18
    << "\" text-anchor=\"middle\">cores</text>\n"
    << "<text transform=\"translate(18," << T + PH / 2
    << ") rotate(-90)\" text-anchor=\"middle\">time</text>\n";
  auto hline = [&](double Ns, const char *Color, const char *Dash) {
    if (Ns <= 0)
      return;
    S << "<line x1=\"" << L << "\" x2=\"" << L + PW << "\" y1=\"" << num(y(Ns))
      << "\" y2=\"" << num(y(Ns)) << "\" stroke=\"" << Color
      << "\" stroke-width=\"1.5\" stroke-dasharray=\"" << Dash << "\"/>\n";
  };
  hline(P.BurdenedSpanNs, "#c0392b", "2,3");
  hline(double(P.SpanNs), "#e67e22", "6,4");
  // work / P.
  S << "<polyline fill=\"none\" stroke=\"#7f8c8d\" stroke-width=\"1.5\" "
       "stroke-dasharray=\"6,4\" points=\"";
  for (const sim::Point &X : P.Points)
    S << num(x(X.Cores)) << "," << num(y(X.WorkBoundNs)) << " ";
  S << "\"/>\n";
  // The prediction.
  S << "<polyline fill=\"none\" stroke=\"#2471a3\" stroke-width=\"2.5\" "
       "points=\"";
  for (const sim::Point &X : P.Points)
    S << num(x(X.Cores)) << "," << num(y(double(X.PredictedNs))) << " ";
  S << "\"/>\n";
  for (const sim::Point &X : P.Points)
    S << "<circle cx=\"" << num(x(X.Cores)) << "\" cy=\""
      << num(y(double(X.PredictedNs))) << "\" r=\"3.5\" fill=\"#2471a3\">"
      << "<title>" << X.Cores
      << " cores: " << xmlEscape(fmtNs(double(X.PredictedNs))) << ", speed-up "
      << num(X.Speedup) << "</title></circle>\n";
  // The measured run.
  if (P.MeasuredThreads && P.MeasuredNs) {
    double MX = x(P.MeasuredThreads), MY = y(double(P.MeasuredNs));
    S << "<path d=\"M" << num(MX) << " " << num(MY - 6) << " L" << num(MX + 6)
      << " " << num(MY) << " L" << num(MX) << " " << num(MY + 6) << " L"
      << num(MX - 6) << " " << num(MY) << " Z\" fill=\"black\"><title>"
      << "measured: " << P.MeasuredThreads << " threads, "
      << xmlEscape(fmtNs(double(P.MeasuredNs))) << "</title></path>\n";
  }
  // Legend.
  double LX = L + PW + 16, LY = T + 10;
  auto legend = [&](const char *Color, const char *Dash, double Width,
                    const std::string &Text) {
    S << "<line x1=\"" << LX << "\" x2=\"" << LX + 26 << "\" y1=\"" << LY
      << "\" y2=\"" << LY << "\" stroke=\"" << Color << "\" stroke-width=\""
      << Width << "\"" << (Dash ? " stroke-dasharray=\"" : "")
      << (Dash ? Dash : "") << (Dash ? "\"" : "") << "/>\n<text x=\"" << LX + 32
      << "\" y=\"" << LY + 4 << "\">" << xmlEscape(Text) << "</text>\n";
    LY += 20;
  };
  legend("#2471a3", nullptr, 2.5, "predicted");
  legend("#7f8c8d", "6,4", 1.5, "work / P");
  legend("#e67e22", "6,4", 1.5, "span " + fmtNs(double(P.SpanNs)));
  legend("#c0392b", "2,3", 1.5, "burdened span " + fmtNs(P.BurdenedSpanNs));
  if (P.MeasuredThreads && P.MeasuredNs) {
    S << "<path d=\"M" << LX + 13 << " " << LY - 6 << " L" << LX + 19 << " "
      << LY << " L" << LX + 13 << " " << LY + 6 << " L" << LX + 7 << " " << LY
      << " Z\" fill=\"black\"/>\n<text x=\"" << LX + 32 << "\" y=\"" << LY + 4
      << "\">measured (" << P.MeasuredThreads << " threads)</text>\n";
  }
  S << "</svg>\n";
  return S.str();
}

namespace {

/// The aggregated graph's legend (a Graphviz HTML-like table, as graph.gv's
/// legend in graph/writers.cpp): shapes, shading, edge colours, and with
/// the path its marks, with Device what `(device)` means. Dir: the
/// directory paths are relative to.
std::string aggregateLegend(bool WithPath, bool Device,
                            const std::string &Dir) {
  auto row = [](const std::string &Mark, const std::string &Text) {
    return "<TR><TD>" + Mark + "</TD><TD ALIGN=\"LEFT\">" + Text + "</TD></TR>";
  };
  auto arrow = [](const char *Color) {
    return std::string("<FONT COLOR=\"") + Color + "\"><B>&#8594;</B></FONT>";
  };
  std::string L =
      "  legend [shape=none, margin=0, fontsize=10, style=filled, "
      "fillcolor=white, label=<<TABLE "
      "BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" "
      "COLOR=\"#999999\"><TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><B>legend: one "
      "node per source construct</B></TD></TR>" +
      row("ellipse", "task construct") + row("trapezium", "parallel region") +
      row("box", "other constructs (worksharing, synchronisation, ...)") +
      row("text", "kind, source line, instances, total time; the label its "
                  "tasks carry most (otter_task_label)") +
      "<TR><TD BGCOLOR=\"#ff9b37\">shade</TD><TD ALIGN=\"LEFT\">share of "
      "the run time: white none, orange all</TD></TR>" +
      row(arrow("darkgreen"), "creation, with its count") +
      row(arrow("purple"), "dependence (bold), with its count") +
      row(arrow("grey"), "program order or scope, with its count");
  if (WithPath)
    L += row("<FONT COLOR=\"#c0392b\"><B>red</B></FONT>",
             "on the longest path through the graph (the critical path); "
             "\"on the path\": its time there") +
         row(arrow("#c0392b"), "a step of that path; dashed: a step no "
                               "edge stands for (a completion into the "
                               "construct that waited)");
  if (Device)
    L += row("(device)", "a device's work, not the host program's: with "
                         "host offload, the kernels' threads");
  if (!Dir.empty())
    L += "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\">paths relative to " +
         xmlEscape(Dir) + "</TD></TR>";
  return L + "</TABLE>>];\n";
}

/// The source files the constructs of R are labelled with.
std::vector<std::string> constructFiles(const Result &R, const LabelFn &Label) {
  std::vector<std::string> Files;
  for (const ConstructStats &S : R.Constructs)
    if (S.Code)
      if (SourceLabel L = Label(S.Code); !L.File.empty())
        Files.push_back(L.File);
  return Files;
}

} // namespace

std::string constructDirectory(const Result &R, const LabelFn &Label) {
  return commonDirectory(constructFiles(R, Label));
}

LabelFn relativeLabels(LabelFn Label, std::string Dir) {
  if (Dir.empty())
    return Label;
  return [Label = std::move(Label), Dir = std::move(Dir)](std::uint64_t Code) {
    SourceLabel L = Label(Code);
    L.File = relativePath(L.File, Dir);
    return L;
  };
}

std::string aggregateDot(const AggregateGraph &A, const Result &R,
                         const LabelFn &FullLabel, bool WithPath) {
  std::string Dir = constructDirectory(R, FullLabel);
  LabelFn Label = relativeLabels(FullLabel, Dir);
  AggregateGraph::Built B = A.build(R, Label);
  const std::vector<Construct> &Nodes = B.Groups.Nodes;
  // The critical path on the nodes: time per node, steps between nodes.
  std::vector<std::uint64_t> OnPath(Nodes.size(), 0);
  std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> Steps;
  std::size_t Prev = ~std::size_t(0);
  for (const PathStep &P : R.CriticalPath) {
    if (!WithPath)
      break;
    std::size_t N = B.Groups.find(P.K, P.Code);
    if (N == std::string::npos)
      continue;
    OnPath[N] += P.Ns;
    if (Prev != ~std::size_t(0) && Prev != N)
      ++Steps[{Prev, N}];
    Prev = N;
  }
  double Run = double(std::max<std::uint64_t>(R.runNs(), 1));
  // The syntax is graph.gv's aggregation's (graph/aggregate.h).
  std::ostringstream S;
  AggregateDot Dot(S, "", "otter_aggregate",
                   "rankdir=TB, fontname=\"Helvetica\", fontsize=11",
                   "fontname=\"Helvetica\", fontsize=10, style=filled",
                   "fontname=\"Helvetica\", fontsize=9");
  for (std::size_t I = 0; I < Nodes.size(); ++I) {
    const Construct &C = Nodes[I];
    const char *Shape = C.S.K == Kind::Task       ? "ellipse"
                        : C.S.K == Kind::Parallel ? "trapezium"
                                                  : "box";
    // Shaded by the share of the run: white to orange.
    double Share = std::min(1.0, double(C.S.TotalNs) / Run);
    char Fill[16];
    std::snprintf(Fill, sizeof Fill, "#ff%02x%02x", unsigned(255 - 100 * Share),
                  unsigned(255 - 200 * Share));
    std::string Text = std::string(kindName(C.S.K)) + "\n" + C.where() + "\n" +
                       std::to_string(C.S.Instances) + "x, " +
                       fmtNs(double(C.S.TotalNs));
    if (OnPath[I])
      Text += "\non the path: " + fmtNs(double(OnPath[I]));
    if (std::string Labels = A.labelsText(C.S); !Labels.empty())
      Text += "\n" + Labels;
    Dot.node(I, Text, Shape, Fill,
             OnPath[I] ? ", color=\"#c0392b\", penwidth=3" : "");
  }
  for (auto &[F, T, K, N] : B.Edges) {
    const char *Style = K == "create"       ? "color=darkgreen"
                        : K == "dependence" ? "color=purple, style=bold"
                                            : "color=grey";
    bool OnIt = Steps.erase({F, T});
    Dot.edge(F, T, Style, OnIt ? ", color=\"#c0392b\", penwidth=2.5" : "",
             std::to_string(N));
  }
  // Steps of the critical path no counted edge stands for (a task's
  // completion into the construct that waited for it).
  for (auto &[FT, N] : Steps)
    Dot.edge(FT.first, FT.second,
             "color=\"#c0392b\", penwidth=2.5, style=dashed", "", "path step");
  const bool Device = std::any_of(Nodes.begin(), Nodes.end(),
                                  [](const Construct &C) { return C.S.Device; });
  Dot.close(aggregateLegend(WithPath, Device, Dir));
  return S.str();
}

bool renderDot(const std::string &Dot, std::string &Svg, std::string &Error) {
  char In[] = "/tmp/otter-picture-XXXXXX";
  int Fd = mkstemp(In);
  if (Fd < 0) {
    Error =
        std::string("cannot make a temporary file: ") + std::strerror(errno);
    return false;
  }
  bool Ok = write(Fd, Dot.data(), Dot.size()) == ssize_t(Dot.size());
  close(Fd);
  std::string Out = std::string(In) + ".svg";
  if (!Ok) {
    unlink(In);
    Error = "cannot write a temporary file";
    return false;
  }
  bool Drawn = runDot(In, Out, "draw the graph", Error);
  unlink(In);
  if (!Drawn) {
    unlink(Out.c_str());
    return false;
  }
  std::ifstream F(Out);
  std::ostringstream B;
  B << F.rdbuf();
  Svg = B.str();
  unlink(Out.c_str());
  return true;
}

std::pair<double, double> svgSizePt(const std::string &Svg) {
  // <svg width="1234pt" height="567pt" ...: Graphviz's root element.
  std::size_t Root = Svg.find("<svg");
  auto attr = [&](const char *Name) {
    std::size_t I = Svg.find(Name, Root);
    return I == std::string::npos
               ? 0.0
               : std::atof(Svg.c_str() + I + std::strlen(Name));
  };
  if (Root == std::string::npos)
    return {0, 0};
  return {attr(" width=\""), attr(" height=\"")};
}

namespace {

// What dot makes of the full graph, per node and per edge (node labels of
// two or three lines, default node and rank separation), for the estimate
// made before drawing it. The drawing is checked after all.
constexpr double RankPt = 100, NodeWidthPt = 130;
constexpr double SvgBytesPerNode = 520, SvgBytesPerEdge = 420;

/// The layers of a longest-path layering of G (the least depth dot's can
/// have), and the most nodes in one.
struct Layering {
  std::size_t Ranks = 0, Widest = 0;
};
Layering layering(const Graph &G) {
  std::vector<std::uint32_t> In(G.Nodes.size(), 0), Rank(G.Nodes.size(), 0);
  std::vector<std::vector<std::uint32_t>> Out(G.Nodes.size());
  for (const Edge &E : G.Edges)
    if (E.Source < G.Nodes.size() && E.Target < G.Nodes.size() &&
        E.Source != E.Target) {
      Out[E.Source].push_back(std::uint32_t(E.Target));
      ++In[E.Target];
    }
  std::vector<std::uint32_t> Ready;
  for (std::uint32_t I = 0; I < G.Nodes.size(); ++I)
    if (!In[I])
      Ready.push_back(I);
  while (!Ready.empty()) {
    std::uint32_t N = Ready.back();
    Ready.pop_back();
    for (std::uint32_t T : Out[N]) {
      Rank[T] = std::max(Rank[T], Rank[N] + 1);
      if (--In[T] == 0)
        Ready.push_back(T);
    }
  }
  Layering L;
  std::map<std::uint32_t, std::size_t> PerRank;
  for (std::uint32_t R : Rank)
    L.Widest = std::max(L.Widest, ++PerRank[R]);
  L.Ranks = PerRank.size();
  return L;
}

std::string thousands(double V) {
  std::string D = std::to_string(std::uint64_t(std::llround(V))), R;
  for (std::size_t I = 0; I < D.size(); ++I) {
    if (I && (D.size() - I) % 3 == 0)
      R += ',';
    R += D[I];
  }
  return R;
}

std::string sizeText(double Bytes) {
  return Bytes >= 1e6 ? num(Bytes / 1e6) + " MB"
                      : thousands(std::ceil(Bytes / 1e3)) + " kB";
}

std::string limitsText() {
  return thousands(MaxPicturePt) + " pt tall or wide, " +
         sizeText(double(MaxPictureBytes)) + " of SVG";
}

/// Why a drawn picture is over the limits ("" if within).
std::string overLimits(const std::string &Svg) {
  auto [W, H] = svgSizePt(Svg);
  if (H > MaxPicturePt)
    return thousands(H) + " pt tall";
  if (W > MaxPicturePt)
    return thousands(W) + " pt wide";
  if (Svg.size() > MaxPictureBytes)
    return sizeText(double(Svg.size())) + " of SVG";
  return "";
}

/// The full graph's dot: graph.gv's, its paths relative to the directory
/// its files share (writeDot says so in its legend; said on top here too).
std::string fullDot(Graph &G) {
  std::string Dir = labelDirectory(G);
  std::ostringstream OS;
  writeDot(G, OS);
  std::string Dot = OS.str();
  if (!Dir.empty()) // say so on top of the picture
    Dot.insert(Dot.find('{') + 1,
               "\n  label=\"" +
                   AggregateDot::escape("paths relative to " + Dir) + "\"" +
                   "; labelloc=t; labeljust=l;");
  return Dot;
}

} // namespace

bool drawGraph(const FullGraphFn &BuildFull, const Result &R,
               const AggregateGraph &Agg, const LabelFn &Label, GraphMode Mode,
               GraphPicture &Out, std::string &Error) {
  Out = GraphPicture();
  std::string Why; // why not the full graph
  std::uint64_t Tasks = R.ExplicitTasks + R.ImplicitTasks;
  if (Mode == GraphMode::Aggregate)
    Why = "as asked";
  else if (Mode == GraphMode::Auto &&
           double(Tasks) * SvgBytesPerNode > double(MaxPictureBytes))
    Why = "the run has " + thousands(double(Tasks)) +
          " tasks, a node each: more than a picture within " + limitsText() +
          " holds";
  if (Why.empty()) {
    Graph G;
    if (!BuildFull(G, Error))
      return false;
    Layering L = layering(G);
    double H = double(L.Ranks) * RankPt, W = double(L.Widest) * NodeWidthPt;
    double Bytes = double(G.Nodes.size()) * SvgBytesPerNode +
                   double(G.Edges.size()) * SvgBytesPerEdge;
    std::string Shape = thousands(double(G.Nodes.size())) + " nodes, " +
                        thousands(double(L.Ranks)) + " deep";
    if (Mode == GraphMode::Auto &&
        (H > MaxPicturePt || W > MaxPicturePt || Bytes > MaxPictureBytes))
      Why = "the full graph (" + Shape + ") would be about " + thousands(H) +
            " pt tall, " + thousands(W) + " pt wide and " + sizeText(Bytes) +
            ", over the limits (" + limitsText() + ")";
    else {
      if (!renderDot(fullDot(G), Out.Svg, Error))
        return false;
      std::string Over = overLimits(Out.Svg);
      if (Mode == GraphMode::Full || Over.empty()) {
        auto [Wd, Ht] = svgSizePt(Out.Svg);
        Out.Full = true;
        Out.Why = "the full task graph: " + Shape + ", " + thousands(Ht) +
                  " pt tall, " + thousands(Wd) + " pt wide, " +
                  sizeText(double(Out.Svg.size())) +
                  (Mode == GraphMode::Full
                       ? " (as asked" +
                             (Over.empty() ? std::string(")")
                                           : ", over the limits: " + Over + ")")
                       : " (within " + limitsText() + ")");
        return true;
      }
      Why = "the full graph (" + Shape + ") drawn was " + Over +
            ", over the limits (" + limitsText() + ")";
    }
  }
  if (!renderDot(aggregateDot(Agg, R, Label), Out.Svg, Error))
    return false;
  Out.Why = "the aggregated graph, one node per source construct: " + Why;
  if (std::string Over = overLimits(Out.Svg); !Over.empty())
    Out.Why += "; it is " + Over +
               " itself (the program has that many "
               "constructs)";
  return true;
}

std::string inlineSvg(const std::string &Svg) {
  std::size_t I = Svg.find("<svg");
  return I == std::string::npos ? Svg : Svg.substr(I);
}

} // namespace otter::picture
