/**
 * Runs `fn` with process.stderr.write captured (nothing reaches the terminal) and restores it
 * however `fn` ends: the start-up banner and CLI warnings are read from what it wrote.
 * @example const { value: app, text } = await capturedStderr(() => serve(options));
 */
export async function capturedStderr<T>(
  fn: () => T | Promise<T>,
): Promise<{ value: T; text: string }> {
  const written: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    const value = await fn();
    return { value, text: written.join("") };
  } finally {
    process.stderr.write = original;
  }
}
