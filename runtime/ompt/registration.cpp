//===- ompt/registration.cpp - Registering the adapter's callbacks --------===//
#include "ompt/registration.h"

namespace otter::ompt {

namespace {

bool refused(const CallbackSpec &S, int R) {
  if (R == ompt_set_impossible) // the event never occurs: nothing is lost
    return false;
  // A required callback delivered only sometimes would leave task records
  // and ids half-maintained.
  return R < (S.Required ? int(ompt_set_always) : int(ompt_set_sometimes));
}

} // namespace

const char *setResultName(int Result) {
  static const char *Names[] = {
      "error", "never", "impossible", "sometimes", "sometimes_paired",
      "always"};
  return Result >= 0 && Result <= 5 ? Names[Result] : "?";
}

Registration registerCallbacks(std::span<const CallbackSpec> Table,
                               const SetCallback &Set, GroupSet Unwanted) {
  Registration Reg;
  CallbackSet Drop = 0;
  GroupSet WarnedGroups = 0;
  for (const CallbackSpec &S : Table) {
    CallbackOutcome O{&S};
    if (S.Required || !(Unwanted & groupBit(S.Group))) {
      O.Result = Set(S.Which, S.Fn);
      O.Refused = refused(S, O.Result);
    }
    if (O.Refused) {
      Drop |= S.Dependents;
      // An optional group that says what its refusal costs (offload) gets
      // one line, for its first refused callback.
      if (!S.Required && *S.Loss && !(WarnedGroups & groupBit(S.Group))) {
        WarnedGroups |= groupBit(S.Group);
        Reg.Warnings.push_back(
            std::string("the OpenMP runtime refuses ompt_callback_") + S.Name +
            " (" + setResultName(O.Result) + "): " + S.Loss);
      }
      if (S.Required) {
        std::string Lost;
        for (const CallbackSpec &D : Table)
          if (&D != &S && (S.Dependents & callbackBit(D.Which)))
            Lost += (Lost.empty() ? "" : ", ") + std::string(D.Name);
        Reg.Warnings.push_back(
            std::string("the OpenMP runtime refuses ompt_callback_") + S.Name +
            " (" + setResultName(O.Result) +
            "): " + (*S.Loss ? std::string(S.Loss) : "its events are lost") +
            (Lost.empty() ? "" : "; not recording " + Lost + " either"));
      }
    }
    Reg.Outcomes.push_back(O);
  }
  for (CallbackOutcome &O : Reg.Outcomes)
    if ((Drop & callbackBit(O.Spec->Which)) && O.Result >= 0 && !O.Refused) {
      Set(O.Spec->Which, nullptr); // OMPT: a null callback disables it
      O.Dropped = true;
    }
  return Reg;
}

std::vector<std::string> Registration::report() const {
  std::vector<std::string> Lines;
  for (unsigned G = 0; G < unsigned(EventGroup::Count); ++G) {
    std::string Line;
    bool Required = false;
    for (const CallbackOutcome &O : Outcomes) {
      if (unsigned(O.Spec->Group) != G)
        continue;
      Required |= O.Spec->Required;
      Line += (Line.empty() ? "" : ", ") + std::string(O.Spec->Name) + " " +
              (O.Result < 0 ? "not registered (filtered out)"
               : O.Dropped  ? "dropped (depends on a refused callback)"
                            : setResultName(O.Result));
      if (O.Refused)
        Line += " (refused)";
    }
    if (!Line.empty())
      Lines.push_back("callbacks, " +
                      std::string(eventGroupName(EventGroup(G))) +
                      (Required ? " (required): " : ": ") + Line);
  }
  return Lines;
}

} // namespace otter::ompt
