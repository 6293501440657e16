/** An error with an HTTP status and a stable code, sent as `{ error: { code, message } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what = "not found") => new ApiError(404, "not_found", what);
