import { SingleBar } from "cli-progress";

/** A progress bar on stderr, drawn only when stderr is a terminal (results go to stdout). */
export function progressBar(total: number, label: string): { tick(): void; stop(): void } {
  if (!process.stderr.isTTY || total <= 1) return { tick() {}, stop() {} };
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${label} [{bar}] {value}/{total} ({percentage}%) eta {eta_formatted}`,
    hideCursor: true,
  });
  bar.start(total, 0);
  return { tick: () => bar.increment(), stop: () => bar.stop() };
}
