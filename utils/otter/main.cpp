//===- otter/main.cpp - The `otter` command ------------------------------===//
//
// otter <command> [options] <archive>: graph, summary, parallelism,
// diagnose, export, dump, simulate, picture, report, diff -- the rows of
// the command table (commands.h, command_table.cpp), run by its one
// parser and dispatcher (cli.cpp). Errors are one line "otter: error:
// ..." and a non-zero exit status (2: a usage error, 1: the input or the
// output failed; docs/utils.md).
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include <exception>
#include <new>

int main(int argc, char **argv) {
  using otter::cli::fail;
  try {
    return otter::cli::runOtter(argc, argv);
  } catch (const std::bad_alloc &) {
    return fail("out of memory");
  } catch (const std::exception &E) {
    return fail(E.what());
  }
}
