# shellcheck shell=bash
# Which of our rclnodejs patches still need applying (sourced by 50-rclnodejs.sh; needs lib.sh's
# die). Our patches change rclnodejs' native code (scripts/setup/patches/rclnodejs-<version>-*.patch,
# each file's header says why), so a build without them is a different program: it must never
# happen quietly. Hence:
#   - an rclnodejs version with no patch set is refused, naming the version and the versions that
#     have one (after an upgrade the patches must be ported, or the version pinned back);
#   - a patch that does not apply is refused, naming the patch and the version.
#
# rclnodejs_patch_plan PKG_DIR VERSION PATCH_DIR sets RCLNODEJS_PATCHES (every patch of the set, in
# name order) and RCLNODEJS_TODO (those still to apply, in order). Which are applied already is
# found on a scratch copy of the files they change: the first k are applied when reversing them
# (last first) succeeds there, since a later patch changes lines an earlier one's reversal needs;
# the rest must then apply on top. When no k fits, the patch named is the one that stopped the
# attempt that got furthest.
rclnodejs_patch_plan() {
  local pkg="$1" version="$2" dir="$3"
  RCLNODEJS_PATCHES=()
  RCLNODEJS_TODO=()
  local p
  for p in "$dir"/rclnodejs-"$version"-*.patch; do [ -e "$p" ] && RCLNODEJS_PATCHES+=("$p"); done
  if [ "${#RCLNODEJS_PATCHES[@]}" -eq 0 ]; then
    local sets
    sets="$(find "$dir" -maxdepth 1 -name 'rclnodejs-*.patch' -printf '%f\n' 2>/dev/null |
      sed -E 's/^rclnodejs-([0-9][^-]*)-.*/\1/' | sort -u | tr '\n' ' ')"
    die "rclnodejs $version has no patch set in ${dir#"${HTP_ROOT:-}"/} (patch sets exist for: ${sets:-none}): port the patches to $version, or pin rclnodejs to a version that has them (package.json); an unpatched rclnodejs is not built"
  fi
  # Beside the sources it copies, inside the package: npm ci removes it with the package.
  local scratch="$pkg/.htp-patch-check"
  rm -rf "$scratch" && mkdir -p "$scratch"
  local n="${#RCLNODEJS_PATCHES[@]}" k i q todo="" best=-1 stopped="" how=""
  local -a reversed
  for ((k = n; k >= 0; k--)); do
    rm -rf "${scratch:?}"/* && cp -r "$pkg/src" "$pkg/binding.gyp" "$pkg/types" "$scratch/"
    reversed=()
    for ((i = k - 1; i >= 0; i--)); do reversed+=("${RCLNODEJS_PATCHES[$i]}"); done
    local ok=1
    for q in "${reversed[@]}"; do
      patch -d "$scratch" -p1 -R -s -f <"$q" >/dev/null 2>&1 || { ok=0; break; }
    done
    [ "$ok" = 1 ] || continue
    rm -rf "${scratch:?}"/* && cp -r "$pkg/src" "$pkg/binding.gyp" "$pkg/types" "$scratch/"
    local done_here="$k"
    for q in "${RCLNODEJS_PATCHES[@]:k}"; do
      if ! patch -d "$scratch" -p1 -N -s -f <"$q" >/dev/null 2>&1; then
        ok=0
        if [ "$done_here" -gt "$best" ]; then
          best="$done_here"
          stopped="$q"
          how="$k of the set applied already"
        fi
        break
      fi
      done_here=$((done_here + 1))
    done
    if [ "$ok" = 1 ]; then todo="$k"; break; fi
  done
  rm -rf "$scratch"
  if [ -z "$todo" ]; then
    die "rclnodejs $version: patch $(basename "${stopped:-${RCLNODEJS_PATCHES[0]}}") does not apply to node_modules/rclnodejs (${how:-no prefix of the set is applied}); rclnodejs is not built unpatched. Sources changed by hand or by an older patch set: reinstall them (rm -rf node_modules/rclnodejs && scripts/bootstrap.sh 40 50); otherwise the patch needs porting to $version"
  fi
  RCLNODEJS_TODO=("${RCLNODEJS_PATCHES[@]:todo}")
}
