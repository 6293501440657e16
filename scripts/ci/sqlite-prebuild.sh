#!/usr/bin/env bash
# better-sqlite3's install script (prebuild-install) downloads its maintainers' prebuilt binary,
# or, where it cannot, compiles SQLite: about 85 s on one core of the 2-core CI machine, which
# reaches only the npm and Debian registries. This keeps the binary a run compiled for the next.
#
#   sqlite-prebuild.sh name         the prebuild file name of the checkout's better-sqlite3
#                                   (package version, Node ABI, platform, architecture)
#   sqlite-prebuild.sh offer [DIR PROJECT]
#                                   point prebuild-install at the kept binaries (or at DIR):
#                                   a .prebuild-installrc in the checkout (or in PROJECT;
#                                   git-ignored), which it reads from the package's folder up
#   sqlite-prebuild.sh keep         after npm ci: keep the binary it compiled, under its name
#   sqlite-prebuild.sh pack DIR     write the checkout's binary to DIR under its name
#   sqlite-prebuild.sh compiled [PACKAGE]
#                                   succeed if the checkout's better-sqlite3 (or the one in the
#                                   folder PACKAGE) was compiled, not unpacked from a prebuild
#
# Binaries are kept in $ELICIT_PREBUILDS (default ~/.cache/elicit-ci/prebuilds). One is taken
# only under its exact name, and prebuild-install loads it before it accepts it; if it does not
# load, the install script compiles as before (`prebuild-install || node-gyp rebuild`). The
# first run on a machine compiles. Every step is best effort: a failure here costs time only.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir="${ELICIT_PREBUILDS:-$HOME/.cache/elicit-ci/prebuilds}"
pkg="node_modules/better-sqlite3"

name() {
  node -p "'better-sqlite3-v' + require('./$pkg/package.json').version + '-node-v' + process.versions.modules + '-' + process.platform + '-' + process.arch + '.tar.gz'"
}

# A compile leaves its object files beside the binary; an unpacked prebuild does not.
compiled() {
  [ -d "${1:-$pkg}/build/Release/obj.target" ]
}

# Pack the checkout's compiled binary into folder $1 (atomically: runs may share the folder).
pack() {
  local n
  n="$(name)" || return 1
  [ -f "$pkg/build/Release/better_sqlite3.node" ] || return 1
  mkdir -p "$1" &&
    tar -czf "$1/$n.$$.tmp" -C "$pkg" build/Release/better_sqlite3.node &&
    mv "$1/$n.$$.tmp" "$1/$n"
}

case "${1:-}" in
  name) name ;;
  offer)
    from="${2:-$dir}"
    mkdir -p "$from" && printf 'local-prebuilds=%s\n' "$from" >"${3:-.}/.prebuild-installrc"
    ;;
  compiled) compiled "${2:-}" ;;
  keep)
    if compiled; then
      pack "$dir" && echo "sqlite-prebuild: kept the compiled binary as $dir/$(name)"
    else
      echo "sqlite-prebuild: better-sqlite3 was installed from a kept binary, not compiled"
    fi
    ;;
  pack) pack "$2" ;;
  *)
    echo "usage: sqlite-prebuild.sh name | offer [DIR PROJECT] | keep | pack DIR | compiled [PACKAGE]" >&2
    exit 2
    ;;
esac
