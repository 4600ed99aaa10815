#!/usr/bin/env bash
# Install what lance-nd needs on Debian 12, skipping packages already present (idempotent),
# then the interop oracle's npm packages (exact pins from interop/package-lock.json).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libprotobuf-dev protobuf-compiler libzstd-dev liblz4-dev libroaring-dev
  libflatbuffers-dev flatbuffers-compiler nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libnetcdf-dev netcdf-bin ferret-datasets gmt-dcw
  clang clang-format clang-tidy libclang-rt-14-dev
  nodejs npm
  python3-dev python3-pybind11 pybind11-dev python3-numpy python3-xarray python3-dask
  python3-distributed python3-pytest python3-netcdf4
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# node/npm may come from elsewhere than Debian (e.g. a newer install); accept any working one.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]}")
fi
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [[ $(id -u) -eq 0 ]] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi

# The oracle: LanceDB 0.39.0 (Lance 12) + apache-arrow 18.1.0. `npm ci` refuses this lock
# (other platforms' LanceDB builds are not served), so `npm install` from the committed lock.
if [[ ! -d interop/node_modules/@lancedb/lancedb || interop/package-lock.json -nt interop/node_modules/.package-lock.json ]]; then
  (cd interop && npm install --no-audit --no-fund --loglevel=error)
else
  echo "setup: interop/node_modules up to date"
fi
