#!/usr/bin/env bash
# Installs the Debian 12 packages Loom needs to build, test and benchmark; skips what is already there.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config git
  llvm-15-dev clang-15 libclang-15-dev libclang-cpp15-dev
  libllvmspirvlib-15-dev llvm-spirv-15 libclc-15
  verilator libsystemc-dev libboost-graph-dev catch2
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers opencl-clhpp-headers
  pocl-opencl-icd clinfo python3-pyopencl yosys binutils
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
