/**
 * What the server may write to its log. Participant tokens travel in URL paths (`/p/TOKEN`,
 * `/api/p/TOKEN/...`) and a token is the participant's only credential, so request URLs are
 * logged with the token replaced; query values are dropped (keys kept); headers (cookies,
 * authorisation) are never logged.
 */
import type { FastifyServerOptions } from "fastify";

/** A path segment long and plain enough to be a token (ours are 43 base64url characters). */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{16,}$/;

/** A path segment with its percent escapes decoded (as the router reads it). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A request URL safe to log: every segment that follows a `p` segment, or that looks like a
 * token, replaced whatever its spelling (`/P/`, `/api/%70/`, `/api/p//`: issue 28 item 5),
 * and query values replaced (keys kept).
 * @example redactUrl("/api/p/abc123/answer?x=1") // "/api/p/[token]/answer?x=[redacted]"
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  let afterP = false;
  const path = (q < 0 ? url : url.slice(0, q))
    .split("/")
    .map((segment) => {
      if (segment === "") return segment;
      const d = decoded(segment);
      const secret = afterP || TOKEN_LIKE.test(d) || /[^A-Za-z0-9._~-]/.test(d);
      afterP = d.toLowerCase() === "p";
      return secret && !afterP ? "[token]" : afterP ? "p" : segment;
    })
    .join("/");
  if (q < 0) return path;
  const keys = url
    .slice(q + 1)
    .split("&")
    .filter((part) => part !== "")
    .map((part) => `${part.split("=")[0]}=[redacted]`);
  return `${path}?${keys.join("&")}`;
}

interface LoggedRequest {
  readonly method?: string;
  readonly url?: string;
  readonly hostname?: string;
  readonly ip?: string;
}

/**
 * Fastify logger options for `elicit serve`: pino JSON lines at `level`, with the request
 * serialiser replaced by one that logs the method, the redacted URL and the client address.
 * @example Fastify({ logger: serverLogger("info") })
 */
export function serverLogger(
  level: string,
  stream?: { write(line: string): void },
): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
