//===- core/names.cpp - The run's names: annotations' strings -------------===//
#include "core/names.h"

#include <cstring>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace otter::names {

namespace {
// Never destroyed: annotations may come after static destructors ran.
struct State {
  std::mutex M;
  std::vector<std::string> List{std::string()};
  std::unordered_map<std::string, std::uint16_t> Ids;
  std::unordered_map<TaskId, std::vector<std::uint16_t>> Open;
};
State &state() {
  static State *S = new State();
  return *S;
}
} // namespace

std::uint16_t intern(const char *Name) {
  if (!Name)
    return 0;
  std::string N(Name, strnlen(Name, MaxLength));
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  try {
    auto It = S.Ids.find(N);
    if (It != S.Ids.end())
      return It->second;
    if (S.List.size() > MaxNames)
      return 0;
    std::uint16_t Id = std::uint16_t(S.List.size());
    S.List.push_back(N);
    S.Ids.emplace(std::move(N), Id);
    return Id;
  } catch (...) {
    return 0;
  }
}

std::vector<std::string> snapshot() {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  return S.List;
}

void pushPhase(TaskId Task, std::uint16_t Name) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  try {
    S.Open[Task].push_back(Name);
  } catch (...) {
  }
}

bool popPhase(TaskId Task, std::uint16_t &Name) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  auto It = S.Open.find(Task);
  if (It == S.Open.end() || It->second.empty())
    return false;
  Name = It->second.back();
  It->second.pop_back();
  if (It->second.empty())
    S.Open.erase(It);
  return true;
}

} // namespace otter::names
