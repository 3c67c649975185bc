//===- otter/profile_svg.cpp - `otter profile --svg`: a flame graph -------===//
//
// The profile's folded stacks (profile.h) drawn as a flame graph by OTTER
// itself: one self-contained SVG (no script, no external font or style),
// 1200 px wide, the whole run at the bottom and each call on the frame
// that made it, a box's width its share of the samples. Boxes narrower
// than half a pixel are left out (their time stays in their parent's
// box), which bounds the file's size; every box has a <title> (name,
// time, share) and a label cut to fit. Colours: constructs blue, the
// runtime's own time ("[idle]", ...) grey, functions warm, by a hash of
// the name so a function has the same colour everywhere.
//
//===----------------------------------------------------------------------===//
#include "picture.h"
#include "profile.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>

namespace otter::profile {

namespace {

struct Node {
  std::uint64_t Count = 0;
  std::map<std::string, std::unique_ptr<Node>> Children;
};

constexpr double Width = 1200, Margin = 10, RowHeight = 17, CharWidth = 6.6;

std::string colour(const std::string &Name, bool Construct) {
  if (!Name.empty() && Name[0] == '[')
    return "#b8b8b8";
  std::uint32_t H = 2166136261u;
  for (unsigned char C : Name)
    H = (H ^ C) * 16777619u;
  char B[16];
  if (Construct)
    std::snprintf(B, sizeof B, "#%02x%02x%02x", 80 + (H & 31),
                  140 + ((H >> 5) & 31), 220 + ((H >> 10) & 31));
  else
    std::snprintf(B, sizeof B, "#%02x%02x%02x", 215 + (H & 31),
                  90 + ((H >> 5) & 127), 40 + ((H >> 12) & 31));
  return B;
}

struct Drawer {
  const Profile &P;
  double PerCount; // px per timer period
  unsigned Rows;
  std::ostringstream OS;

  void draw(const std::string &Name, const Node &N, double X, unsigned Depth) {
    const double W = double(N.Count) * PerCount;
    if (W < 0.5)
      return;
    const double Y = Margin + 30 + double(Rows - 1 - Depth) * RowHeight;
    const bool Construct = P.ConstructNames.count(Name) != 0;
    const double Ms = double(N.Count * P.PeriodNs) / 1e6;
    const double Share =
        P.TotalNs ? 100.0 * double(N.Count * P.PeriodNs) / double(P.TotalNs)
                  : 0;
    char Info[64];
    std::snprintf(Info, sizeof Info, " (%.1f ms, %.1f%%)", Ms, Share);
    OS << "<g><title>" << picture::xmlEscape(Name) << Info
       << "</title><rect x=\"" << X << "\" y=\"" << Y << "\" width=\"" << W
       << "\" height=\"" << RowHeight - 1 << "\" fill=\"" << colour(Name, Construct)
       << "\" rx=\"2\"/>";
    const std::size_t Fit = std::size_t((W - 6) / CharWidth);
    if (Fit >= 3) {
      std::string Label =
          Name.size() <= Fit ? Name : Name.substr(0, Fit - 2) + "..";
      OS << "<text x=\"" << X + 3 << "\" y=\"" << Y + RowHeight - 5 << "\">"
         << picture::xmlEscape(Label) << "</text>";
    }
    OS << "</g>\n";
    double ChildX = X;
    for (const auto &[ChildName, Child] : N.Children) {
      draw(ChildName, *Child, ChildX, Depth + 1);
      ChildX += double(Child->Count) * PerCount;
    }
  }
};

unsigned depthOf(const Node &N) {
  unsigned D = 0;
  for (const auto &KV : N.Children)
    D = std::max(D, depthOf(*KV.second));
  return D + 1;
}

} // namespace

std::string flameGraphSvg(const Profile &P, const std::string &Title) {
  Node Root;
  for (const auto &[Stack, Count] : P.Folded) {
    Root.Count += Count;
    Node *N = &Root;
    std::size_t Pos = 0;
    while (Pos <= Stack.size()) {
      std::size_t End = Stack.find(';', Pos);
      if (End == std::string::npos)
        End = Stack.size();
      std::unique_ptr<Node> &C = N->Children[Stack.substr(Pos, End - Pos)];
      if (!C)
        C = std::make_unique<Node>();
      C->Count += Count;
      N = C.get();
      Pos = End + 1;
    }
  }
  Drawer D{P,
           Root.Count ? (Width - 2 * Margin) / double(Root.Count) : 0,
           depthOf(Root),
           {}};
  const double Height = Margin * 2 + 30 + D.Rows * RowHeight + 16;
  D.OS << "<?xml version=\"1.0\" standalone=\"no\"?>\n"
       << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Width
       << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << " "
       << Height << "\" font-family=\"monospace\" font-size=\"11\">\n"
       << "<rect width=\"100%\" height=\"100%\" fill=\"#fdfdf8\"/>\n"
       << "<text x=\"" << Width / 2
       << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
       << picture::xmlEscape(Title) << "</text>\n";
  D.draw("all", Root, Margin, 0);
  D.OS << "<text x=\"" << Margin << "\" y=\"" << Height - 8
       << "\">a box's width: its share of the samples (each on its "
          "user-model call path, callers below); blue: constructs, grey: "
          "the OpenMP runtime; hover a box for its time</text>\n</svg>\n";
  return D.OS.str();
}

} // namespace otter::profile
