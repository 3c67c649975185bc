//===- otter/commands.h - simulate, report, diff ----------------*- C++ -*-===//
//
// The `otter` subcommands that answer "how would it scale", "show me" and
// "what changed": simulate, report and diff. They parse their own options
// (main.cpp hands them the command line), so main.cpp knows only their
// names and help lines.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_COMMANDS_H
#define OTTER_UTILS_COMMANDS_H

#include <string>

namespace otter::cli {

/// Lines for `otter --help`, one per command.
extern const char *ReportCommandsHelp;

/// Runs Command if it is simulate, report or diff (argv[1] is the command):
/// true, with its exit status in Rc. False: not one of these.
bool runReportCommand(const std::string &Command, int argc, char **argv,
                      int &Rc);

} // namespace otter::cli

#endif
