#!/usr/bin/env bash
# The Debian packages the checks need, installed in one apt-get call when any is missing:
# fonts-dejavu-core (labels of the PNG figures, resvg), python3-pandas and r-base-core (the
# exports' loading code runs in pandas and R: test/server/exports-load.test.ts), python3-sklearn
# (the scorer `elicit export-metric --to python` writes: test/metrics/portable/metric-code.test.ts), postgresql
# (the server suite and chaos on PostgreSQL) and chromium (the browser tests; never
# `npx playwright install`, which downloads a browser of its own).
set -uo pipefail
missing=()
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
/usr/bin/python3 -c "import pandas" >/dev/null 2>&1 || missing+=(python3-pandas)
/usr/bin/python3 -c "import sklearn.metrics" >/dev/null 2>&1 || missing+=(python3-sklearn)
command -v Rscript >/dev/null || missing+=(r-base-core)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "${#missing[@]}" -eq 0 ]; then echo "system packages: all present"; exit 0; fi
if [ "$(id -u)" -ne 0 ]; then echo "system packages: missing ${missing[*]} and not root"; exit 1; fi
echo "system packages: installing ${missing[*]}"
timeout 300 apt-get update -qq >/dev/null 2>&1 || { echo "system packages: apt-get update failed"; exit 1; }
DEBIAN_FRONTEND=noninteractive timeout 1200 apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
  { echo "system packages: apt-get install -y ${missing[*]} failed"; exit 1; }
echo "system packages: installed ${missing[*]}"
