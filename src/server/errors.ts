import { httpErrorNames } from '../shared/errors';

/** An error whose status and message may be shown to the caller as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string | string[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.messages = message;
  }
  readonly messages: string | string[];
  get errorName(): string {
    return httpErrorNames[this.statusCode] ?? 'Error';
  }
}

export const badRequest = (m: string | string[]) => new HttpError(400, m);
export const forbidden = (m: string) => new HttpError(403, m);
export const notFound = (m: string) => new HttpError(404, m);
export const conflict = (m: string, extra?: Record<string, unknown>) => new HttpError(409, m, extra);
export const notImplemented = (m: string) => new HttpError(501, m);
