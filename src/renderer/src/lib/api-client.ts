/**
 * Typed client for the Parley server, derived from the shared route table (src/shared/api/routes.ts): the
 * route name picks method, path, and the request and answer types; answers are parsed with the route's zod
 * schema. Nothing here is typed by hand.
 *
 *   const me = await api('getMe');
 *   const page = await api('listSegments', { params: { workspaceId }, query: { limit: 200 } });
 *   await api('createSegment', { body: { name, filters, workspaceId } });
 *   const { photoUrl } = await apiUpload('uploadProfilePhoto', { file });
 */
import { toast } from 'sonner';
import type { z } from 'zod';
import { toastText } from '@shared/errors';
import { buildPath, routes, type RouteName, type Routes } from '@shared/api/routes';
import { apiBaseUrl } from './config';

type Def<N extends RouteName> = Routes[N];
type InputOf<N extends RouteName, K extends 'params' | 'query' | 'body'> =
  Def<N> extends { [P in K]: infer S extends z.ZodType } ? z.input<S> : undefined;

/** A field is required when its schema is present and needs something (not undefined, not all-optional). */
type Field<K extends string, T> = undefined extends T
  ? { [P in K]?: T }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type ApiArgs<N extends RouteName> = Field<'params', InputOf<N, 'params'>> &
  Field<'query', InputOf<N, 'query'>> &
  Field<'body', InputOf<N, 'body'>> & { signal?: AbortSignal };

export type ApiResponse<N extends RouteName> = z.output<Def<N>['response']>;
export type ApiBody<N extends RouteName> = InputOf<N, 'body'>;

type OptionalIfEmpty<A> = object extends A ? [args?: A] : [args: A];

/** Routes that take a file upload (multipart). */
export type UploadRouteName = {
  [N in RouteName]: Def<N> extends { multipart: object } ? N : never;
}[RouteName];

/** A failed call: HTTP status (0 when the server could not be reached), the message (a list joined), the body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}

type TokenProvider = () => Promise<string | null | undefined>;
let tokenProvider: TokenProvider = async () => null;

/** lib/auth.ts registers the signed-in user's ID token source here (web: firebase SDK; desktop: IPC later). */
export function setIdTokenProvider(provider: TokenProvider): void {
  tokenProvider = provider;
}

function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body) {
    const m = (body as { message: unknown }).message;
    if (Array.isArray(m)) return m.map(String).join(', ');
    if (typeof m === 'string') return m;
  }
  return status ? `Request failed with status ${status}` : 'Request failed';
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

async function send<N extends RouteName>(
  name: N,
  init: { params?: unknown; query?: unknown; body?: BodyInit | null; json?: unknown; signal?: AbortSignal },
): Promise<ApiResponse<N>> {
  const def = routes[name];
  const url =
    apiBaseUrl() +
    buildPath(def.path, init.params as Record<string, string> | undefined) +
    queryString(init.query as Record<string, unknown> | undefined);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = await tokenProvider();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | null | undefined = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }

  let res: Response;
  try {
    res = await fetch(url, { method: def.method, headers, body, signal: init.signal });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'Could not reach the Parley server', null);
  }

  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(res.status, parsed), parsed);
  const result = def.response.safeParse(parsed);
  if (!result.success) {
    // The server answered something the contract does not describe: a bug on one side, not the user's fault.
    console.error(`[api] ${name}: answer does not match the contract`, result.error.issues);
    throw new ApiError(res.status, 'The server answered in an unexpected shape', parsed);
  }
  return result.data as ApiResponse<N>;
}

/** Calls a route of the table by name. */
export function api<N extends RouteName>(name: N, ...rest: OptionalIfEmpty<ApiArgs<N>>): Promise<ApiResponse<N>> {
  const args = (rest[0] ?? {}) as { params?: unknown; query?: unknown; body?: unknown; signal?: AbortSignal };
  return send(name, { params: args.params, query: args.query, json: args.body, signal: args.signal });
}

export type UploadArgs<N extends UploadRouteName> = Field<'params', InputOf<N, 'params'>> & {
  file: Blob;
  /** File name sent with the part (defaults to the File's own name). */
  fileName?: string;
  signal?: AbortSignal;
};

/** Uploads one file to a multipart route (the part is named as the route table says). */
export function apiUpload<N extends UploadRouteName>(name: N, args: UploadArgs<N>): Promise<ApiResponse<N>> {
  const def = routes[name] as Def<N> & { multipart: { field: string } };
  const form = new FormData();
  const fileName = args.fileName ?? (args.file instanceof File ? args.file.name : 'upload');
  form.append(def.multipart.field, args.file, fileName);
  return send(name, { params: (args as { params?: unknown }).params, body: form, signal: args.signal });
}

/** Follows `nextCursor` for the small lists of settings screens (attributes, segments, members ...). */
export async function fetchAllPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
  maxPages = 20,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const p = await page(cursor);
    all.push(...p.items);
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  return all;
}

/** The toast text of a failed mutation (spec section 8): `status: message`, a 400 as `Bad Request Exception`. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return err.message;
    return toastText(err.status, { statusCode: err.status, message: err.message, error: '' });
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Shows a failed mutation as a toast (spec section 8). */
export function toastError(err: unknown): void {
  toast.error(errorText(err));
}
