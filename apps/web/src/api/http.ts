import { Message } from '@arco-design/web-react';
import { INVALID_LOGIN_CODES, SUCCESS_CODE } from '@atrium/contracts/errors';
import i18next from 'i18next';
import { noteServerRelease, RELEASE_HEADER } from '../services/release';
import { getDeviceId, getToken, getTokenFlag, hasSignedOutHere } from './storage';

export type Envelope<T> = { code: number; message: string; data: T };

/** A non-200 envelope or a transport failure. `code` is 0 when no envelope came back. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;
export type RequestOptions = {
  params?: Query;
  /** JSON, or a file (a Blob) sent as it is with its own type (an import). */
  body?: unknown;
  /** Do not toast errors (the caller shows them in place). Invalid-login handling still runs. */
  silent?: boolean;
  /** Logout itself: an invalid sign-in answer is expected, not a reason to ask again. */
  ignoreInvalidLogin?: boolean;
  signal?: AbortSignal;
};

const TOAST_DURATION = 5000;
/** Failures of this call never open the sign-in-expired dialog (spec 7). */
export const USER_INFO_URL = '/api/user/info';

function withQuery(url: string, params?: Query): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

type WithTemporal = { Temporal?: { Now: { timeZoneId(): string } } };
let timeZone: string | undefined;

/**
 * The browser's time zone: how this user reads a time. Asked when the first request goes out, not when
 * this module loads: Intl's answer costs 45–110 ms the first time a page asks (ICU builds its date
 * formats), which the sign-in page would pay before hydrating. Temporal, where the browser has it,
 * answers at once.
 */
export function browserTimeZone(): string {
  timeZone ??= (globalThis as WithTemporal).Temporal?.Now.timeZoneId() || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return timeZone;
}

/**
 * What every request says, downloads included: who asks, the app's language (not the browser's: what
 * the server writes — messages, exports — follows the language chosen in the app) and the browser's
 * time zone (times the server writes for people, in receipts and exports, are in the zone of the one who asked).
 */
function headers(contentType?: string): Headers {
  const h = new Headers({ 'device-type': 'web', 'Accept-Language': i18next.language || 'zh-CN' });
  if (contentType) h.set('Content-Type', contentType);
  const token = getToken();
  if (token) h.set('Authorization', `Bearer ${token}`);
  h.set('device', getDeviceId());
  h.set('X-Timezone', browserTimeZone());
  return h;
}

type InvalidLoginHandler = (reason?: string) => Promise<void>;
let invalidLoginHandler: InvalidLoginHandler | undefined;

/**
 * What an invalid sign-in answer does (sign out, or ask to sign in again): set by the composition root
 * (`main.tsx`), since the handler needs the session, which itself calls this module.
 */
export function setInvalidLoginHandler(handler: InvalidLoginHandler): void {
  invalidLoginHandler = handler;
}

async function handleInvalidLogin(url: string, data: unknown): Promise<void> {
  if (url === USER_INFO_URL && getTokenFlag()) return;
  // signed out here a moment ago: a background refresh of the closed session asks nothing
  if (!getToken() && hasSignedOutHere()) return;
  await invalidLoginHandler?.((data as { reason?: string } | null)?.reason);
}

/** 1022: the server asks for the second factor again before this change (step-up). */
const STEP_UP = 1022;
let stepUpHandler: (() => Promise<boolean>) | undefined;

/**
 * What a step-up answer does: the composition root (`main.tsx`) opens the verify dialog, which answers
 * true once the factor is proved; the request is then sent again, once.
 */
export function setStepUpHandler(handler: () => Promise<boolean>): void {
  stepUpHandler = handler;
}

async function send(method: string, url: string, options: RequestOptions): Promise<Response> {
  const { body } = options;
  const file = body instanceof Blob;
  let response: Response;
  try {
    response = await fetch(withQuery(url, options.params), {
      method,
      headers: headers(body === undefined ? undefined : file ? body.type || 'application/octet-stream' : 'application/json'),
      body: body === undefined ? undefined : file ? body : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    const message = (error instanceof Error && error.message) || i18next.t('http.requestError');
    if (!options.silent) Message.error({ content: message || 'Request Error', duration: TOAST_DURATION });
    throw new ApiError(message, 0, 0);
  }
  // a server of another release than this tab's code: offer a reload (ReleaseNotice)
  noteServerRelease(response.headers.get(RELEASE_HEADER));
  return response;
}

export async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  // the session this request speaks for: an answer about an older one (signed out, switched) asks nothing
  const sentWith = getToken();
  try {
    return await answerOf<T>(url, await send(method, url, options), options, sentWith);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === STEP_UP && (await stepUpHandler?.()))) throw error;
    return answerOf<T>(url, await send(method, url, options), options, sentWith);
  }
}

/** A file the server writes (an export), asked with the same headers as every request; a refusal is handled as any answer's. */
export async function download(url: string, options: RequestOptions = {}): Promise<Blob> {
  const sentWith = getToken();
  const response = await send('GET', url, options);
  if (response.ok && !response.headers.get('content-type')?.includes('application/json')) return response.blob();
  return answerOf<never>(url, response, options, sentWith);
}

async function answerOf<T>(url: string, response: Response, options: RequestOptions, sentWith: string | null): Promise<T> {
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope.code !== 'number') {
    const message = response.statusText || i18next.t('http.requestError');
    if (!options.silent) Message.error({ content: message, duration: TOAST_DURATION });
    throw new ApiError(message, 0, response.status);
  }
  if (envelope.code === SUCCESS_CODE) return envelope.data;
  const message = envelope.message || i18next.t('http.error');
  if (INVALID_LOGIN_CODES.includes(envelope.code)) {
    if (!options.ignoreInvalidLogin && sentWith === getToken()) await handleInvalidLogin(url, envelope.data);
  } else if (!options.silent && !(envelope.code === STEP_UP && stepUpHandler)) {
    Message.error({ content: message, duration: TOAST_DURATION });
  }
  throw new ApiError(message, envelope.code, response.status, envelope.data);
}

export const http = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, { ...options, body: body ?? {} }),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, { ...options, body: body ?? {} }),
  delete: <T>(url: string, options?: RequestOptions) => request<T>('DELETE', url, options),
  download,
};
