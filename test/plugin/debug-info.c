// Without -g the plugin's own line tables are stripped again: no .debug_*
// section in the object or the executable; with -g the user's debug info
// stays, and the site table is the same either way.
// RUN: %clang -fopenmp -O2 -fplugin=%otter_plugin -c %S/Inputs/prog.c -o %t.nog.o
// RUN: llvm-readelf -S %t.nog.o | FileCheck --check-prefix=NODEBUG %s
// RUN: %clang -fopenmp -O0 -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.nog
// RUN: llvm-readelf -S %t.nog | FileCheck --check-prefix=NODEBUG %s
// RUN: %clang -fopenmp -O2 -g -fplugin=%otter_plugin -c %S/Inputs/prog.c -o %t.g.o
// RUN: llvm-readelf -S %t.g.o | FileCheck --check-prefix=DEBUG %s
// RUN: otter-sites %t.nog.o | grep -v "^file:" | sort > %t.nog.sites
// RUN: otter-sites %t.g.o | grep -v "^file:" | sort > %t.g.sites
// RUN: diff %t.nog.sites %t.g.sites
// NODEBUG: .note.otter
// NODEBUG-NOT: .debug_
// DEBUG: .debug_info
// DEBUG: .debug_line
