import * as z from './zod';

/** Every error answer: `{ statusCode, message, error }`; `message` is a string or a list of strings. */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const httpErrorNames: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** How the client shows a failed mutation (spec section 8): `status: message`, a 400 as 'Bad Request Exception'. */
export function toastText(status: number, body: unknown): string {
  if (status === 400) return '400: Bad Request Exception';
  const parsed = ErrorBody.safeParse(body);
  const message = parsed.success
    ? Array.isArray(parsed.data.message)
      ? parsed.data.message.join(', ')
      : parsed.data.message
    : httpErrorNames[status] ?? 'Request failed';
  return `${status}: ${message}`;
}
