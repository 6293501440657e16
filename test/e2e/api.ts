// HTTP helpers for the browser tests: sign in as the researcher, make invite links, and move a
// participant through phases directly (to reach Phase II quickly).

import type { ParticipantState, Phase } from "../../web/src/api/types.ts";
import { RESEARCHER } from "./server.ts";
import { recordCookieHeader, recordTokensIn } from "./server-log.ts";

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text}`);
  return (text === "" ? {} : JSON.parse(text)) as T;
}

export class ResearcherClient {
  private constructor(
    private readonly base: string,
    private readonly cookie: string,
  ) {}

  static async login(base: string): Promise<ResearcherClient> {
    const res = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(RESEARCHER),
    });
    await json(res);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    recordCookieHeader(cookie);
    return new ResearcherClient(base, cookie);
  }

  async request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
    });
    return json<T>(res);
  }

  async studies(): Promise<{ id: number | string; name: string; status: string }[]> {
    return (
      await this.request<{ studies: { id: number; name: string; status: string }[] }>(
        "GET",
        "/api/studies",
      )
    ).studies;
  }

  /** Single-use participant links of the built-in study (the first live one). */
  async invite(count = 1, studyId?: number | string): Promise<string[]> {
    const id = studyId ?? (await this.studies()).find((s) => s.status === "live")!.id;
    // Links are relative unless the server has a public URL: resolve them as the UI does.
    return (
      await this.request<{ links: string[] }>("POST", `/api/studies/${id}/invites`, { count })
    ).links.map((l) => new URL(l, this.base).href);
  }
}

export function tokenOf(link: string): string {
  recordTokensIn(link);
  return new URL(link, "http://localhost").pathname.split("/").pop()!;
}

export async function getState(base: string, token: string): Promise<ParticipantState> {
  recordTokensIn(`/p/${token}`);
  return json<ParticipantState>(await fetch(`${base}/api/p/${token}`));
}

/** POST as a participant; waits and retries when the server's rate limit says "slow down". */
async function post(base: string, token: string, path: string, body: unknown): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}/api/p/${token}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 429 || attempt >= 50) return json(res);
    await res.text();
    const wait = Number(res.headers.get("retry-after") ?? "0.2");
    await new Promise((r) => setTimeout(r, Math.min(2000, Math.max(100, wait * 1000))));
  }
}

/** Answer whatever is asked (simply, always "left") until the participant reaches `target`. */
export async function advanceTo(
  base: string,
  token: string,
  target: Phase,
): Promise<ParticipantState> {
  for (let step = 0; step < 500; step++) {
    const s = await getState(base, token);
    if (s.phase === target) return s;
    switch (s.phase) {
      case "consent":
        await post(base, token, "consent", { agree: true });
        break;
      case "questionnaire":
        await post(base, token, "questionnaire", {
          answers: Object.fromEntries(
            s.questionnaire!.fields.map((f) => [
              f.id,
              f.options?.[0] ?? (f.kind === "number" ? "30" : "x"),
            ]),
          ),
        });
        break;
      case "story":
        await post(base, token, "story", {});
        break;
      case "comprehension":
        await post(base, token, "comprehension", {
          questionId: s.comprehension!.question.id,
          answer: s.comprehension!.question.options[0],
        });
        break;
      case "guess":
        await post(base, token, "guess", { ratio: 4 });
        break;
      case "elicitation":
        await post(base, token, "answer", {
          questionId: (s.elicitation ?? s.multiclassElicitation ?? s.fairElicitation)!.question.id,
          choice: "left",
        });
        break;
      case "evaluation":
        await post(base, token, "evaluation", {
          questionId: (s.evaluation ?? s.multiclassEvaluation ?? s.fairEvaluation)!.question.id,
          choice: "left",
        });
        break;
      case "post":
        await post(base, token, "post", {
          answers: Object.fromEntries(s.post!.fields.map((f) => [f.id, "fine"])),
        });
        break;
      default:
        throw new Error(`cannot advance from ${s.phase} to ${target}`);
    }
  }
  throw new Error(`did not reach ${target}`);
}
