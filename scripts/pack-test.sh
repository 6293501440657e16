#!/usr/bin/env bash
# The package as a user gets it (issue 13): build, `npm pack`, install the tarball into an
# empty project, then there: import every public subpath by name and run elicitations
# (scripts/pack-test/smoke.mjs), type-check a TypeScript consumer against the shipped .d.ts
# (scripts/pack-test/consumer.ts), run the three examples/ scripts, and run the installed
# `elicit` (--version, --help, simulate). Prints one line per check and ends with
# "pack: N passed, N failed"; exits 1 if any check failed. `npm pack` runs prepack, which
# builds dist/ and web/dist in this checkout.
#
# Dependency install scripts stay blocked (npm 11's default), as for a user who runs plain
# `npm install`: nothing here needs better-sqlite3's native build (`elicit serve` would).
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

app="$work/app"
mkdir -p "$app"
cd "$app"
if ! npm install --no-audit --no-fund "$tarball" >"$work/install.log" 2>&1; then
  fail "npm install <tarball> in an empty folder" "$work/install.log"; finish
fi
pass "npm install <tarball> in an empty folder"
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

# TypeScript users: the shipped .d.ts type every subpath (strict, module nodenext).
cp "$root/scripts/pack-test/consumer.ts" "$app/consumer.ts"
cat >"$app/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "types": []
  },
  "files": ["consumer.ts"]
}
JSON
check "TypeScript consumer type-checks against the shipped .d.ts" "$root/node_modules/.bin/tsc" -p "$app/tsconfig.json"

for example in "$root"/examples/*.mjs; do
  cp "$example" "$app/"
  check "examples/$(basename "$example")" node "$app/$(basename "$example")"
done

check "npx elicit --version prints the package version" bash -c \
  "[ \"\$(npx --no-install elicit --version)\" = \"$(node -p "require('$root/package.json').version")\" ]"
check "npx elicit --help lists the commands" bash -c \
  "npx --no-install elicit --help | grep -q 'simulate \[options\]'"
check "npx elicit simulate (binary LPM on the bundled data)" bash -c \
  "npx --no-install elicit simulate --truth '{\"tp\":0.6,\"tn\":0.8}' | grep -q '^questions   28'"
finish
