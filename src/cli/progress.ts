import { createRequire } from "node:module";
import type { SingleBar as Bar } from "cli-progress";

/**
 * A progress bar on stderr, drawn only when stderr is a terminal (results go to stdout).
 * cli-progress loads only then, so a single run or a piped one starts without it.
 * @example const bar = progressBar(50, "simulating"); for (...) bar.tick(); bar.stop();
 */
export function progressBar(total: number, label: string): { tick(): void; stop(): void } {
  if (!process.stderr.isTTY || total <= 1) return { tick() {}, stop() {} };
  const { SingleBar } = createRequire(import.meta.url)("cli-progress") as {
    SingleBar: typeof Bar;
  };
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${label} [{bar}] {value}/{total} ({percentage}%) eta {eta_formatted}`,
    hideCursor: true,
  });
  bar.start(total, 0);
  return { tick: () => bar.increment(), stop: () => bar.stop() };
}
