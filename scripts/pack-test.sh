#!/usr/bin/env bash
# The package as a user gets it (issue 13): build, `npm pack`, install the tarball into an
# empty project, then there: import every public subpath by name and run elicitations
# (scripts/pack-test/smoke.mjs), type-check a TypeScript consumer against the shipped .d.ts
# (scripts/pack-test/consumer.ts with TypeScript 7 and 5.9, moduleResolution nodenext, node16
# and bundler; scripts/pack-test/consumer-browser.ts with no Node types), run the three
# examples/ scripts, run the installed `elicit` (--version, --help, simulate) and
# `npx elicit serve` (/healthz, the web app; and the one-line error when better-sqlite3 has no
# compiled binary). Prints one line per check and ends with "pack: N passed, N failed";
# exits 1 if any check failed. `npm pack` runs prepack, which builds dist/ and web/dist in
# this checkout.
#
# The tarball is installed with plain `npm install`, as a user would. npm 11.19 runs
# better-sqlite3's install script with a warning ("install scripts not yet covered by
# allowScripts"; it fetches a prebuilt binary or compiles one, which can take minutes); an
# npm that blocks it (strict-allow-scripts) leaves no binary, and then this script runs what
# `elicit serve`'s error tells the user to run.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/elicit-pack.XXXXXX)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "pack: ok $1"; }
fail() { failed=$((failed + 1)); echo "pack: FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | tail -n 20; }
finish() { echo "pack: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# Run a check: `check <name> <command...>`; its output goes to a log shown on failure.
check() {
  local name="$1"; shift
  local log="$work/log.txt"
  if "$@" >"$log" 2>&1; then pass "$name"; else fail "$name" "$log"; fi
}

cd "$root"
if ! npm pack --pack-destination "$work" >"$work/pack.log" 2>&1; then
  fail "npm pack (with prepack: build of dist/ and web/dist)" "$work/pack.log"; finish
fi
tarball="$(ls "$work"/metric-elicitation-*.tgz 2>/dev/null | head -n 1)"
if [ -z "$tarball" ]; then fail "npm pack made no tarball" "$work/pack.log"; finish; fi
pass "npm pack: $(basename "$tarball"), $(tar -tzf "$tarball" | wc -l) files"

# The tarball ships the compiled code, the data and the UI, and no TypeScript sources.
listing="$work/listing.txt"
tar -tzf "$tarball" >"$listing"
check "tarball holds dist/, data/, web/dist/ and bin/, no src/" bash -c "
  grep -qx 'package/dist/cli/main.js' '$listing' &&
  grep -qx 'package/dist/exports/binary.d.ts' '$listing' &&
  grep -qx 'package/data/breast_cancer_wisconsin_diagnostic.csv' '$listing' &&
  grep -qx 'package/web/dist/index.html' '$listing' &&
  grep -qx 'package/bin/elicit.js' '$listing' &&
  ! grep -q '^package/src/' '$listing'"
check "tarball holds README.md, LICENSE and CHANGELOG.md" bash -c "
  grep -qx 'package/README.md' '$listing' &&
  grep -qx 'package/LICENSE' '$listing' &&
  grep -qx 'package/CHANGELOG.md' '$listing'"
# Nothing a user does not need and nothing private: no tests, sources, scripts, benchmarks,
# databases, environment files, keys or the README's example password file.
check "tarball holds no tests, databases, .env, keys or pw.txt" bash -c "
  ! grep -E '^package/(test|src|scripts|bench|examples|docs|\\.elicit-data|test-results|node_modules)/|\\.(sqlite|sqlite-wal|db|pem|key|log|tgz)\$|/\\.env|/\\.npmrc\$|/pw\\.txt\$|\\.test\\.|\\.spec\\.' '$listing'"

# better-sqlite3's install script (prebuild-install) downloads the maintainers' prebuilt
# binary on a user's machine; this machine has no route to GitHub, so it compiled SQLite
# instead: about 85 s on one core, the compile npm ci had run minutes before. The checkout's own
# binary (same package version, Node ABI and platform) is offered as a local prebuild, named in
# a .prebuild-installrc in the project (scripts/ci/sqlite-prebuild.sh), so the install takes the
# path a user's does: the install script unpacks a prebuilt binary and loads it. If the
# tarball's range resolves to another version, the name does not match and the script compiles
# as before. PACK_TEST_COMPILE=1 compiles regardless.
prebuilds=""
if [ -z "${PACK_TEST_COMPILE:-}" ] && "$root/scripts/ci/sqlite-prebuild.sh" pack "$work/prebuilds"; then
  prebuilds="$work/prebuilds"
fi

app="$work/app"
mkdir -p "$app"
cd "$app"
[ -n "$prebuilds" ] && "$root/scripts/ci/sqlite-prebuild.sh" offer "$prebuilds" "$app"
if ! npm install --no-audit --no-fund "$tarball" >"$work/install.log" 2>&1; then
  fail "npm install <tarball> in an empty folder" "$work/install.log"; finish
fi
pass "npm install <tarball> in an empty folder"
# Every dependency's `engines` agrees with ours (issue 13): `overrides` do not apply when the
# package is a dependency, so the pinned versions alone must keep npm quiet on Node 20.
check "npm install <tarball> prints no EBADENGINE warning" bash -c "
  ! grep -A2 EBADENGINE '$work/install.log' | grep -o \"package: '[^']*'\""
check "tsx is not installed (a development dependency only)" test ! -e node_modules/tsx

cp "$root/scripts/pack-test/smoke.mjs" "$app/smoke.mjs"
node smoke.mjs >"$work/smoke.log" 2>&1
smoke_status=$?
while IFS= read -r line; do
  case "$line" in
    "ok "*) pass "${line#ok }" ;;
    "FAIL "*) fail "${line#FAIL }" ;;
  esac
done <"$work/smoke.log"
if [ "$smoke_status" -ne 0 ] || ! grep -q '^ok ' "$work/smoke.log"; then
  fail "smoke.mjs exited $smoke_status" "$work/smoke.log"
fi

# TypeScript users: the shipped .d.ts type every subpath (strict, every .d.ts checked, Node's
# types from this checkout's @types/node), with the project's TypeScript 7 and with
# TypeScript 5.9 (scripts/typedoc's), under each module resolution that reads `exports`.
# consumer.mts: an ES module whatever the consumer's package.json says.
cp "$root/scripts/pack-test/consumer.ts" "$app/consumer.mts"
cp "$root/scripts/pack-test/consumer-browser.ts" "$app/consumer-browser.mts"
for tsc in "$root/node_modules/.bin/tsc" "$root/scripts/typedoc/node_modules/.bin/tsc"; do
  tsv="$("$tsc" --version 2>/dev/null | sed 's/^Version /TypeScript /')"
  [ -n "$tsv" ] || { fail "no TypeScript at $tsc"; continue; }
  for pair in NodeNext:NodeNext Node16:Node16 Bundler:ESNext; do
    resolution="${pair%%:*}"
    module="${pair##*:}"
    cat >"$app/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "$module",
    "moduleResolution": "$resolution",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false,
    "typeRoots": ["$root/node_modules/@types"],
    "types": ["node"]
  },
  "files": ["consumer.mts"]
}
JSON
    check "$tsv, moduleResolution $resolution: a TypeScript consumer of every subpath type-checks" \
      "$tsc" -p "$app/tsconfig.json"
  done
  # A browser project: no Node types, DOM library; the engine subpaths alone.
  cat >"$app/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022", "DOM"],
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false,
    "types": []
  },
  "files": ["consumer-browser.mts"]
}
JSON
  check "$tsv, browser project (no Node types): the engine subpaths type-check" \
    "$tsc" -p "$app/tsconfig.json"
done

for example in "$root"/examples/*.mjs; do
  cp "$example" "$app/"
  check "examples/$(basename "$example")" node "$app/$(basename "$example")"
done
# The replay example on a log the installed `elicit simulate --strategy adaptive --log` wrote
# (the README says it reads such logs; test/cli/replay-example.test.ts runs it from the checkout).
check "examples/replay-answer-log.mjs replays an adaptive log of the installed elicit" bash -c "
  npx --no-install elicit simulate --truth '{\"tp\":0.6,\"tn\":0.8}' --strategy adaptive \
    --log '$work/adaptive-log.json' >/dev/null &&
  node '$app/replay-answer-log.mjs' '$work/adaptive-log.json' | grep -q '^all [0-9]* answers: elicited tp '"

check "npx elicit --version prints the package version" bash -c \
  "[ \"\$(npx --no-install elicit --version)\" = \"$(node -p "require('$root/package.json').version")\" ]"
check "npx elicit --help lists the commands" bash -c \
  "npx --no-install elicit --help | grep -q 'simulate \[options\]'"
check "npx elicit simulate (binary LPM on the bundled data)" bash -c \
  "npx --no-install elicit simulate --truth '{\"tp\":0.6,\"tn\":0.8}' | grep -q '^questions   28'"

# `elicit serve` needs better-sqlite3's compiled binary, which its install script provides.
sqlite_dir="$app/node_modules/better-sqlite3"
sqlite_bin="$sqlite_dir/build/Release/better_sqlite3.node"
if [ -e "$sqlite_bin" ]; then
  pass "npm install ran better-sqlite3's install script (build/Release/better_sqlite3.node)"
  if "$root/scripts/ci/sqlite-prebuild.sh" compiled "$sqlite_dir"; then
    echo "pack: note: the install script compiled better-sqlite3"
  else
    echo "pack: note: the install script unpacked a prebuilt better-sqlite3 binary"
  fi
else
  echo "pack: note: npm install skipped better-sqlite3's install script; running what elicit serve's error names"
  check "npm install-scripts approve better-sqlite3 && npm rebuild better-sqlite3" bash -c \
    "npm install-scripts approve better-sqlite3 && npm rebuild better-sqlite3 && test -e '$sqlite_bin'"
fi
# Without the binary (--ignore-scripts, or an npm that blocks the script): one line saying
# what to run, no stack trace, a non-zero exit.
if [ -d "$sqlite_dir/build" ] && mv "$sqlite_dir/build" "$work/sqlite-build"; then
  check "npx elicit serve without better-sqlite3's binary: one line naming npm rebuild, no stack trace" bash -c '
    out="$(npx --no-install elicit serve --port 0 --data-dir "$1" 2>&1)" && exit 1
    printf "%s\n" "$out"
    [ "$(printf "%s\n" "$out" | grep -c "^elicit: error: ")" = 1 ] &&
      printf "%s\n" "$out" | grep -q "^elicit: error: .*npm rebuild better-sqlite3" &&
      ! printf "%s\n" "$out" | grep -q "^ *at "' _ "$work/data-nobinary"
  mv "$work/sqlite-build" "$sqlite_dir/build"
else
  fail "better-sqlite3 has no build/ folder to hide"
fi
cp "$root/scripts/pack-test/serve.mjs" "$app/serve.mjs"
node serve.mjs "$work/data" >"$work/serve.log" 2>&1
serve_status=$?
while IFS= read -r line; do
  case "$line" in
    "ok "*) pass "${line#ok }" ;;
    "FAIL "*) fail "${line#FAIL }" ;;
  esac
done <"$work/serve.log"
if [ "$serve_status" -ne 0 ] || ! grep -q '^ok ' "$work/serve.log"; then
  fail "serve.mjs exited $serve_status" "$work/serve.log"
fi
finish
