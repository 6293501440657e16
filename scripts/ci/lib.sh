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

# The machine's CPU time so far, in clock ticks: "busy stolen" (busy: user, nice, system, irq,
# softirq; stolen: time the virtual machine's host gave to others), from /proc/stat; "- -"
# where there is none. A stage's share of both says whether it kept the cores busy (running
# it beside another would not help) and how much of a slow day was the host's (issue 25).
cpu_ticks() {
  local _ user nice system idle iowait irq softirq steal
  if read -r _ user nice system idle iowait irq softirq steal _ </proc/stat 2>/dev/null; then
    echo "$((user + nice + system + irq + softirq)) $steal"
  else
    echo "- -"
  fi
}

# "cores busy C, stolen S" over a stage: the ticks between two cpu_ticks readings per second
# of wall clock (100 ticks a second), or nothing without /proc/stat.
cpu_share() {
  local b0 s0 b1 s1 seconds="$3"
  read -r b0 s0 <<<"$1"
  read -r b1 s1 <<<"$2"
  [ "$b0" = "-" ] || [ "$b1" = "-" ] && return 0
  local hz
  hz="$(getconf CLK_TCK 2>/dev/null || echo 100)"
  [ "$seconds" -gt 0 ] || seconds=1
  awk -v b="$((b1 - b0))" -v s="$((s1 - s0))" -v t="$seconds" -v hz="$hz" \
    'BEGIN { printf "%.2f\t%.2f", b / hz / t, s / hz / t }'
}

stage() {
  local name="$1" limit="$2" kind="$3" report="$4"
  shift 4
  [ "${1:-}" = "--" ] && shift
  echo "::: stage $name (limit ${limit} s)"
  local start end code counts cpu0 cpu1 share
  start=$(date +%s)
  cpu0="$(cpu_ticks)"
  timeout --kill-after=30 "$limit" "$@"
  code=$?
  end=$(date +%s)
  cpu1="$(cpu_ticks)"
  share="$(cpu_share "$cpu0" "$cpu1" "$((end - start))")"
  [ "$report" = "-" ] && report=""
  counts="$(node "$CI_LIB_DIR/count.mjs" "$kind" "$report" "$code")" || counts="0 1 the counter failed"
  local passed failed note
  read -r passed failed note <<<"$counts"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$((end - start))" "$limit" "$code" "$passed" "$failed" "${note:-}" "$share" >>"$CI_STAGES"
  local cores=""
  [ -n "$share" ] && cores="; cores busy ${share%%$'\t'*}, stolen ${share##*$'\t'}"
  echo "::: stage $name: $((end - start)) s of ${limit} s, exit $code, $passed passed, $failed failed${note:+ ($note)}$cores"
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
    // cores: CPU busy per second of the stage (all processes, of all the cores); stolen:
    // CPU the host gave to other machines meanwhile (empty without /proc/stat).
    console.log("stage                 seconds  limit  passed  failed  cores  stolen");
    for (const [name, s, limit, , p, f, note, busy = "", stolen = ""] of rows) {
      passed += Number(p); failed += Number(f); seconds += Number(s);
      console.log(`${name.padEnd(20)} ${s.padStart(8)} ${limit.padStart(6)} ${p.padStart(7)} ${f.padStart(7)} ${busy.padStart(6)} ${stolen.padStart(7)}${note ? `  ${note}` : ""}`);
    }
    const start = Number(process.env.CI_START || 0);
    const wall = start ? Math.round(Date.now() / 1000) - start : seconds;
    console.log(`stages ${seconds} s; wall clock ${wall} s (${(wall / 60).toFixed(1)} min); cores: ${require("os").availableParallelism()}`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed > 0 ? 1 : 0);
  ' "$CI_STAGES"
}
