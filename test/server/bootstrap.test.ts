import { describe, expect, it } from "vitest";
import { ensureTemplateStudy } from "../../src/server/bootstrap.ts";
import { BACKENDS, freshStore } from "./helpers.ts";

/** Issue 14 item 5: two servers starting on one empty database create one built-in study. */
describe.each(BACKENDS)("the built-in study on first start (%s)", (kind) => {
  it("is created once when several servers start at the same time", async () => {
    const store = await freshStore(kind);
    // Open (and migrate) once, then four connections as four servers would.
    const first = await store.open();
    const servers = [first, ...(await Promise.all([1, 2, 3].map(() => store.open())))];
    try {
      // On PostgreSQL the four race for real. better-sqlite3 is synchronous: in one process a
      // second connection would block the thread that has to commit the first, so SQLite's
      // servers start one after the other here (across processes SQLite's lock serialises them).
      const created =
        kind === "postgres"
          ? await Promise.all(servers.map((s) => ensureTemplateStudy(s.db)))
          : await servers.reduce<Promise<(number | null)[]>>(
              async (acc, s) => [...(await acc), await ensureTemplateStudy(s.db)],
              Promise.resolve([]),
            );
      expect(created.filter((id) => id !== null)).toHaveLength(1);
      const studies = await first.db.selectFrom("studies").select("id").execute();
      expect(studies).toHaveLength(1);
      expect(studies[0]!.id).toBe(created.find((id) => id !== null));
      // A later start changes nothing.
      expect(await ensureTemplateStudy(servers[2]!.db)).toBeNull();
    } finally {
      for (const s of servers) await s.db.destroy();
    }
  });
});
