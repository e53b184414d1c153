#!/usr/bin/env bash
# Debian packages of the arm64 lane: the aarch64 cross compiler (its sysroot
# /usr/aarch64-linux-gnu also holds the arm64 glibc and libstdc++ the emulated programs load),
# qemu-user and proot. Nothing here registers binfmt_misc handlers: proot starts every aarch64
# program through qemu itself. (Debian's qemu-user-static registers them on install only where
# binfmt-support is installed and the machine is not a container; the lane never relies on them.)
set -euo pipefail
source "$(dirname "$0")/../../lib.sh"
apt_install_missing g++-aarch64-linux-gnu qemu-user-static proot
