/**
 * What the server may write to its log. Participant tokens travel in URL paths (`/p/TOKEN`,
 * `/api/p/TOKEN/...`) and a token is the participant's only credential, so request URLs are
 * logged with the token replaced; query values are dropped (keys kept); headers (cookies,
 * authorisation) are never logged.
 */
import type { FastifyServerOptions } from "fastify";

const TOKEN_PATH = /(^|\/)(p)\/[^/?#]+/g;

/**
 * A request URL safe to log: participant tokens and query values replaced.
 * @example redactUrl("/api/p/abc123/answer?x=1") // "/api/p/[token]/answer?x=[redacted]"
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q < 0 ? url : url.slice(0, q)).replace(TOKEN_PATH, "$1$2/[token]");
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
