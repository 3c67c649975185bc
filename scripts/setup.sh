#!/usr/bin/env bash
# Installs OTTER's build and run dependencies from Debian 12's packages (when
# any is missing) and builds OTTER into ./build. Safe to run again: it only
# installs what is missing and rebuilds what changed.
#   OTTER_BUILD_DIR  build directory (default: <repo>/build)
#   OTTER_SKIP_APT=1 never call apt-get (you installed the packages yourself)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OTTER_BUILD_DIR:-$repo/build}"

packages=(build-essential cmake python3 git file
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libomp-19-dev
  libotf2-trace-dev otf2-tools graphviz libgtest-dev libgmock-dev pkg-config
  libzstd-dev zstd
  openmpi-bin libopenmpi-dev chromium
  gfortran # Fortran MPI programs (test/lit/mpi/fortran.f90)
  libclang-rt-19-dev # sanitizer and libFuzzer runtimes (scripts/sanitize.sh)
  clang-tools-19 # clang-offload-packager: host offload (docs/offload.md)
  llvm-19 # llvm-symbolizer-19: `otter profile` names the samples' addresses
  valgrind) # the instruction-count regression guard (bench/run.py guard)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] && [ "${OTTER_SKIP_APT:-0}" != 1 ]; then
  echo "otter setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOTTER_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs"
echo "otter setup: built into $build"
