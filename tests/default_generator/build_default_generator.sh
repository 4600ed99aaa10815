#!/bin/sh
# build_default_generator.sh CMAKE SOURCE_DIR WORK_DIR
# Configures SOURCE_DIR with CMake's default generator (whatever CMAKE_GENERATOR in the caller's
# environment says is ignored), Release, warnings as errors, and builds the library target.
set -eu
cmake=$1 src=$2 work=$3
rm -rf "$work"
env -u CMAKE_GENERATOR "$cmake" -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=Release \
  -DLANCE_ND_WERROR=ON -DLANCE_ND_BUILD_TESTS=OFF >"$work.configure.log" 2>&1 ||
  { cat "$work.configure.log"; exit 1; }
grep -q 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles' "$work/CMakeCache.txt" ||
  { echo "default_generator: expected the default generator to be Unix Makefiles" >&2; exit 1; }
"$cmake" --build "$work" --target lance_nd -j 2
