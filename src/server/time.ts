/** The current time as an ISO-8601 string (the storage format of every timestamp). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Milliseconds between two ISO timestamps. */
export function msBetween(from: string, to: string): number {
  return Date.parse(to) - Date.parse(from);
}
