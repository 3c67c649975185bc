# lit configuration for OTTER's end-to-end tests (test/lit/ and test/plugin/).
# Paths come from lit.site.cfg.py, which CMake generates in the build tree.
import os
import lit.formats

# Build-tree paths: from the generated site file named by
# --param otter_site_config=<build>/test/lit.site.cfg.py (ctest passes it).
if not hasattr(config, "otter_build_dir"):
    site = lit_config.params.get("otter_site_config")
    if not site or not os.path.exists(site):
        lit_config.fatal("run the tests through ctest, or pass "
                         "--param otter_site_config=<build>/test/lit.site.cfg.py")
    exec(open(site).read(), {"config": config, "lit_config": lit_config})

config.name = "OTTER"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".f90", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.otter_build_dir, "test", "lit-out")

# Tools: FileCheck and not from llvm-19-tools, our utils from the build.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.join(config.otter_build_dir, "bin"),
     config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("OMP_NUM_THREADS", "OMP_TOOL_LIBRARIES", "OTTER_OUTPUT_DIR",
            "OTTER_GRAPH_FORMAT", "OTTER_TRACE", "OTTER_VERBOSE",
            "OTTER_BUFFER_EVENTS", "OMP_TOOL", "OTTER_FILTER",
            "OTTER_MAX_TRACE_SIZE", "OTTER_FLUSH_INTERVAL"):
    config.environment.pop(var, None)

# Sanitizer build (-DOTTER_SANITIZE=...; scripts/sanitize.sh): OTTER's code
# is instrumented but the programs that load it (the traced programs, clang
# loading the plugin, libomp) are not, so the shared sanitizer runtime must be
# loaded first: LD_PRELOAD it into every command. Leak checking is off here
# because those uninstrumented programs (clang above all) leave memory
# allocated at exit by design; the unit tests, run by ctest outside lit, keep
# it on. Reports also go to files under <build>/sanitizer-logs, so a finding
# in a step a test expects to fail (`not ...`) still fails scripts/sanitize.sh.
sanitize = getattr(config, "otter_sanitize", "")
if sanitize:
    logs = os.path.join(config.otter_build_dir, "sanitizer-logs")
    os.makedirs(logs, exist_ok=True)
    config.environment["LD_PRELOAD"] = config.otter_sanitizer_rt
    # handle_*=0: the runtime has its own crash handlers (trace/crash.h),
    # which save the trace of a crashing program and then let the signal
    # end it as before; tests crash programs on purpose to check that. ASan
    # taking those signals would end the program with status 1 instead.
    # Memory errors ASan finds are still reported: they are not signals.
    keep_signals = "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:"
    if "address" in sanitize:
        config.available_features.add("asan")
        config.environment["ASAN_OPTIONS"] = (
            keep_signals + "detect_leaks=0:abort_on_error=0:log_path=" +
            os.path.join(logs, "asan"))
    if "undefined" in sanitize:
        config.environment["UBSAN_OPTIONS"] = (
            keep_signals + "print_stacktrace=1:log_path=" +
            os.path.join(logs, "ubsan"))
    if "thread" in sanitize:
        config.available_features.add("tsan")
        config.environment["TSAN_OPTIONS"] = (
            "log_path=" + os.path.join(logs, "tsan"))

plugin = os.path.join(config.otter_build_dir, "lib", "otter.so")
libotter = os.path.join(config.otter_build_dir, "lib", "libotter.so")
clang = os.path.join(config.llvm_tools_dir, "clang")
clangxx = os.path.join(config.llvm_tools_dir, "clang++")

config.substitutions.append(("%clangxx", clangxx))
config.substitutions.append(("%clang", clang))
config.substitutions.append(("%otter_plugin", plugin))
config.substitutions.append(("%libotter", libotter))
# Compile an OpenMP program with the plugin, and run one under the tool.
config.substitutions.append(
    ("%otter-cc", f"{clang} -fopenmp -fplugin={plugin} -Wno-unused"))
config.substitutions.append(
    ("%otter-cxx", f"{clangxx} -fopenmp -fplugin={plugin} -Wno-unused"))
config.substitutions.append(
    ("%otter-run", f"env OMP_TOOL_LIBRARIES={libotter} OTTER_GRAPH_FORMAT=all"))
config.substitutions.append(("%otter_env", f"OMP_TOOL_LIBRARIES={libotter}"))
config.substitutions.append(("%otter_src", config.otter_source_dir))
# %check-rebuild [--format LIST] DIR: the graph files otter-graph rebuilds
# from the trace in DIR equal the ones the runtime wrote there at exit
# (default formats canon,csv; see the script's header).
config.substitutions.append(
    ("%check-rebuild",
     "sh " + os.path.join(config.test_source_root, "lit", "Inputs",
                          "check-rebuild.sh")))
# %check-trace [--allow-open] TRACE: the archive is balanced per location and
# OTF2's own tools accept it (check-rebuild runs it too).
config.substitutions.append(
    ("%check-trace",
     "python3 " + os.path.join(config.test_source_root, "lit", "Inputs",
                               "check-trace.py")))
# %check-states [--report] [--expect-wait KIND]... DIR: the state timeline
# of the trace in DIR covers each thread's wall time and agrees with `otter
# dump`, `summary`, `diagnose` (and the report's timeline; see the script).
config.substitutions.append(
    ("%check-states",
     "python3 " + os.path.join(config.test_source_root, "lit", "Inputs",
                               "check-states.py")))
config.substitutions.append(("%otter_bin", config.otter_build_dir))
# A test that sets LD_PRELOAD itself writes LD_PRELOAD=%sanitizer_preload<its
# list>: in a sanitizer build the shared sanitizer runtime stays first in the
# list (it must be loaded before anything else), elsewhere it is empty.
# %sanitizer_rt alone (or empty): what a test that prints LD_PRELOAD expects.
config.substitutions.append(
    ("%sanitizer_preload",
     config.otter_sanitizer_rt + ":" if sanitize else ""))
config.substitutions.append(
    ("%sanitizer_rt", config.otter_sanitizer_rt if sanitize else ""))
# %check-graph GRAPH_TXT: no cycle, every node reachable from its initial
# task and reaching its end (see the script's header).
config.substitutions.append(
    ("%check-graph",
     "python3 " + os.path.join(config.test_source_root, "lit", "Inputs",
                               "check-graph.py")))

if os.path.exists(plugin):
    config.available_features.add("plugin")
# Tests with x86-64 assembly (e.g. sampling/bad-frame-pointer.c).
if os.uname().machine == "x86_64":
    config.available_features.add("x86_64")
# Headless Chromium for the HTML report's browser test (scripts/setup.sh
# installs it).
import shutil
if shutil.which("chromium"):
    config.available_features.add("chromium")

# Host offload (docs/offload.md): clang's offload driver needs
# clang-offload-packager (clang-tools-19, scripts/setup.sh), the program
# libomptarget from LLVM's library directory. %offload-cc compiles for the
# x86_64 host device with the plugin, through otter-clang (which compiles
# the host code in one step: docs/offload.md); %offload_env runs with
# libomptarget found (otter-run does that itself).
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
if (os.path.exists(os.path.join(config.llvm_tools_dir,
                                "clang-offload-packager")) and
        os.path.exists(os.path.join(llvm_lib_dir, "libomptarget.so"))):
    config.available_features.add("host-offload")
config.substitutions.append(
    ("%offload-cc",
     os.path.join(config.otter_build_dir, "bin", "otter-clang") +
     " -fopenmp-targets=x86_64-unknown-linux-gnu -Wno-unused"))
config.substitutions.append(
    ("%offload_env", f"LD_LIBRARY_PATH={llvm_lib_dir}"))

# MPI: compile with the plugin against Open MPI, run N ranks in a bounded
# time. As root (containers, CI) Open MPI wants its two confirmations; more
# ranks than cores is the normal case on a CI machine (--oversubscribe);
# shared memory between ranks without the CMA single-copy path, which
# containers often forbid (ptrace restrictions).
libotter_mpi = os.path.join(config.otter_build_dir, "lib", "libotter-mpi.so")
if getattr(config, "otter_have_mpi", False) and os.path.exists(libotter_mpi):
    config.available_features.add("mpi")
    incs = " ".join("-I" + d for d in config.otter_mpi_include_dirs.split(";") if d)
    libs = []
    for lib in config.otter_mpi_libraries.split(";"):
        if lib:
            libs.append(lib)
            libs.append("-Wl,-rpath," + os.path.dirname(lib))
    mpi_libs = " ".join(libs)
    config.substitutions.append(
        ("%mpicc", f"{clang} -fopenmp -fplugin={plugin} -Wno-unused {incs} {mpi_libs}"))
    config.substitutions.append(("%mpi_cflags", incs))
    config.substitutions.append(("%mpi_libs", mpi_libs))
    config.substitutions.append(("%libotter_mpi", libotter_mpi))
    # In a sanitizer build, mpiexec itself (Open MPI's, no code of OTTER's
    # in it) runs without the sanitizer runtime: ASan found a use after free
    # inside its own PMIx log handling (orte_rml_oob_send_buffer_nb, after
    # MPI_Abort), which is not ours to fix. The ranks get the runtime back
    # with -x, first in their LD_PRELOAD as everywhere else.
    mpi_env, mpi_rt = "env", ""
    if sanitize:
        mpi_env = "env -u LD_PRELOAD"
        mpi_rt = f" -x LD_PRELOAD={config.otter_sanitizer_rt}"
    config.substitutions.append(
        ("%mpirun", f"{mpi_env} OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                    f"timeout 120 {config.otter_mpiexec}{mpi_rt} --oversubscribe "
                    "--mca btl self,vader --mca btl_vader_single_copy_mechanism none"))
    # Fortran MPI programs (mpi/fortran.f90): Open MPI's compiler wrapper
    # around gfortran (no plugin: the calls are labelled from the debug
    # information).
    mpifort = shutil.which("mpifort")
    if mpifort and shutil.which("gfortran"):
        config.available_features.add("fortran")
        config.substitutions.append(("%mpifort", f"{mpifort} -g"))
for var in ("LD_PRELOAD", "OTTER_MPI_CLOCK_SYNC"):
    config.environment.pop(var, None)
# ...except the sanitizer runtime of a sanitizer build (see above).
if sanitize:
    config.environment["LD_PRELOAD"] = config.otter_sanitizer_rt
