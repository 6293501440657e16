# CI stages, sourced by .ci/run (and by test/ci/count.test.ts on fixture suites).
#
#   stage NAME LIMIT KIND REPORT -- COMMAND...
#
# runs COMMAND under `timeout LIMIT` (seconds), prints its duration against its limit and
# counts its checks with scripts/ci/count.mjs (KIND: exit, vitest, playwright or lines; REPORT:
# the report file, "-" for KIND exit). Each stage appends "name seconds limit exit passed
# failed note" to $CI_STAGES; ci_summary prints the table and the one count line, and returns
# non-zero when anything failed.
CI_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${CI_STAGES:=$(mktemp /tmp/elicit-ci-stages.XXXXXX)}"
export CI_STAGES

stage() {
  local name="$1" limit="$2" kind="$3" report="$4"
  shift 4
  [ "${1:-}" = "--" ] && shift
  echo "::: stage $name (limit ${limit} s)"
  local start end code counts
  start=$(date +%s)
  timeout --kill-after=30 "$limit" "$@"
  code=$?
  end=$(date +%s)
  [ "$report" = "-" ] && report=""
  counts="$(node "$CI_LIB_DIR/count.mjs" "$kind" "$report" "$code")" || counts="0 1 the counter failed"
  local passed failed note
  read -r passed failed note <<<"$counts"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$((end - start))" "$limit" "$code" "$passed" "$failed" "${note:-}" >>"$CI_STAGES"
  echo "::: stage $name: $((end - start)) s of ${limit} s, exit $code, $passed passed, $failed failed${note:+ ($note)}"
  return "$code"
}

# A stage that could not run at all (a missing tool): one failed check with its reason.
stage_failed() {
  printf '%s\t0\t0\t1\t0\t1\t%s\n' "$1" "$2" >>"$CI_STAGES"
  echo "::: stage $1: not run, counted as 1 failed ($2)"
}

ci_summary() {
  node -e '
    const rows = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)
      .map((l) => l.split("\t"));
    let passed = 0, failed = 0, seconds = 0;
    console.log("stage                 seconds  limit  passed  failed");
    for (const [name, s, limit, , p, f, note] of rows) {
      passed += Number(p); failed += Number(f); seconds += Number(s);
      console.log(`${name.padEnd(20)} ${s.padStart(8)} ${limit.padStart(6)} ${p.padStart(7)} ${f.padStart(7)}${note ? `  ${note}` : ""}`);
    }
    const start = Number(process.env.CI_START || 0);
    const wall = start ? Math.round(Date.now() / 1000) - start : seconds;
    console.log(`stages ${seconds} s; wall clock ${wall} s (${(wall / 60).toFixed(1)} min)`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed > 0 ? 1 : 0);
  ' "$CI_STAGES"
}
