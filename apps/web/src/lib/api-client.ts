import { apiMessages, type Envelope } from '@app/contract/api-messages';
import { webMessages } from '@app/contract/web-messages';
import { navigateTo } from './navigation.ts';
import { notify } from './notify.ts';
import { noteSessionExpiresIn, SESSION_EXPIRES_HEADER } from './session-expiry.ts';
import { clearSession, getTimeZone, getToken } from './session-store.ts';
import { askForStepUp, stepUpAsked } from './step-up-prompt.ts';
import type { StepUpRequest } from '../components/step-up-dialog.tsx';

/**
 * The one HTTP client (docs/architecture.md §6, one HTTP client): nothing else calls fetch. It adds the bearer token and
 * X-Timezone, reads the { code, msg, data } envelope, throws ApiError, and applies the 401 rule
 * of docs/product.md §4.2: toast, clear the session (which clears the query cache), go to /login-admin after 100 ms.
 * A dangerous action refused for want of a step-up (403, `data.stepUpRequired`) asks for the password
 * and is sent once more (docs/decisions/046); the caller sees only the final answer.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The envelope's code (mirrors the HTTP status); 0 when the request never got an answer. */
  readonly code: number;
  /** The server's msg, '' when it gave none. */
  readonly msg: string;
  readonly data: unknown;
  /** True when the client already told the admin (the 401 rule), so callers stay quiet. */
  readonly handled: boolean;

  constructor(
    status: number,
    msg: string,
    data: unknown = null,
    options: { code?: number; handled?: boolean } = {},
  ) {
    // No answer at all (status 0) leaves the message empty so callers fall back to their own text.
    super(msg || (status ? `Request failed with status ${status}` : ''));
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code ?? status;
    this.msg = msg;
    this.data = data;
    this.handled = options.handled ?? false;
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: QueryParams;
  /** FormData is sent as multipart; anything else as JSON. */
  body?: unknown;
  /** Sign-in: send no credentials and leave a 401 to the caller (no sign-out, no redirect). */
  anonymous?: boolean;
  /** Logout: a 401 just means the session is already gone; skip the 401 rule. */
  ignoreUnauthorized?: boolean;
  /** docs/product.md §7.4 for list and detail fetches: HTTP 400 (or code 400 in the body) is an empty result. */
  emptyOn400?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Off for the step-up itself: a 403 asking for a step-up is then the caller's, with no dialog. */
  stepUp?: boolean;
};

// paths.signIn of lib/paths.ts, written out: the checkout's pages use this client and should not load
// the console's route registry (docs/decisions/028). paths.test.ts holds the two together.
export const SIGN_IN_PATH = '/login-admin';
export const UNAUTHORIZED_REDIRECT_MS = 100;

let baseUrl: string = import.meta.env.VITE_API_BASE ?? '';
let redirectTimer: ReturnType<typeof setTimeout> | undefined;

/** '' in the app (same origin); tests point it at their own server. */
export function setApiBaseUrl(url: string) {
  baseUrl = url.replace(/\/$/, '');
}

export function buildUrl(path: string, query?: QueryParams) {
  const url = `${baseUrl}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

type Body = { code?: unknown; msg?: unknown; data?: unknown };

function parseBody(text: string): Body | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Body) : { data: parsed };
  } catch {
    return null;
  }
}

/** Accept, and the bearer token and X-Timezone of the stored session. */
export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Timezone': getTimeZone() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

function signOutAfterUnauthorized(msg: string) {
  // One toast even when several calls fail at once.
  notify.error(msg || apiMessages.unauthorized, { id: 'unauthorized' });
  clearSession();
  clearTimeout(redirectTimer);
  redirectTimer = setTimeout(() => navigateTo(SIGN_IN_PATH), UNAUTHORIZED_REDIRECT_MS);
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  try {
    return await requestOnce<T>(path, options);
  } catch (error) {
    if (options.anonymous || options.stepUp === false) throw error;
    await stepUpAfter(error);
    return requestOnce<T>(path, options);
  }
}

/**
 * Returns once the admin has confirmed the password after a refusal that asked for it; any other
 * failure, or a cancelled dialog, is thrown back to the caller as it came (a form keeps its values).
 * Signed out meanwhile, the caller gets that handled 401 instead, so it stays quiet.
 */
async function stepUpAfter(error: unknown): Promise<void> {
  const asked = error instanceof ApiError ? stepUpAsked(error.status, error.data) : null;
  if (!asked) throw error;
  let signedOut: ApiError | null = null;
  // The step-up POST for the dialog, its answer as plain data.
  const send: StepUpRequest['send'] = async (path, body) => {
    try {
      await requestOnce(path, { method: 'POST', body, stepUp: false });
      return { ok: true };
    } catch (failure) {
      if (!(failure instanceof ApiError)) return { ok: false, msg: '', data: null, handled: false };
      if (failure.handled) signedOut = failure;
      return { ok: false, msg: failure.msg, data: failure.data, handled: failure.handled };
    }
  };
  if (!(await askForStepUp({ needsCode: asked.needsCode, send }))) throw signedOut ?? error;
}

async function requestOnce<T>(path: string, options: RequestOptions): Promise<Envelope<T>> {
  const {
    method = 'GET',
    query,
    body,
    anonymous = false,
    ignoreUnauthorized = false,
    emptyOn400 = false,
    signal,
  } = options;
  const headers: Record<string, string> = {
    ...(anonymous ? { Accept: 'application/json' } : authHeaders()),
    ...options.headers,
  };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), { method, headers, body: payload, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, '', null, { code: 0 });
  }

  // Every authenticated answer says how long the session has left (the idle warning reads it).
  if (!anonymous) noteSessionExpiresIn(response.headers.get(SESSION_EXPIRES_HEADER));
  return settle<T>(response.status, await response.text(), { anonymous, ignoreUnauthorized, emptyOn400 });
}

/** The envelope and the 401 rule, the same for fetch() and for upload()'s XMLHttpRequest. */
export function settle<T>(
  status: number,
  text: string,
  options: Pick<RequestOptions, 'anonymous' | 'ignoreUnauthorized' | 'emptyOn400'>,
): Envelope<T> {
  const parsed = parseBody(text);
  const msg = typeof parsed?.msg === 'string' ? parsed.msg : '';
  const code = typeof parsed?.code === 'number' ? parsed.code : status;

  if (status === 401 && !options.anonymous && !options.ignoreUnauthorized) {
    signOutAfterUnauthorized(msg);
    throw new ApiError(401, msg || apiMessages.unauthorized, parsed?.data ?? null, { code, handled: true });
  }
  if (options.emptyOn400 && (status === 400 || code === 400)) {
    return { code, msg, data: null as T };
  }
  if (status < 200 || status > 299) throw new ApiError(status, msg, parsed?.data ?? null, { code });
  return { code, msg, data: (parsed?.data ?? null) as T };
}

export type UploadProgress = { loaded: number; total: number; percent: number };

export type UploadOptions = {
  method?: 'POST' | 'PUT';
  /** Called as the body goes out (XMLHttpRequest upload progress; fetch cannot report it). */
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * Sends a FormData with upload progress. Same headers, envelope, 401 rule and step-up as request();
 * use it for large files, where the admin needs to see how far the upload is.
 */
export async function upload<T>(
  path: string,
  body: FormData,
  options: UploadOptions = {},
): Promise<Envelope<T>> {
  try {
    return await uploadOnce<T>(path, body, options);
  } catch (error) {
    await stepUpAfter(error);
    return uploadOnce<T>(path, body, options);
  }
}

function uploadOnce<T>(
  path: string,
  body: FormData,
  { method = 'POST', onProgress, signal }: UploadOptions,
): Promise<Envelope<T>> {
  return new Promise<Envelope<T>>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, buildUrl(path));
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (!onProgress || !event.lengthComputable) return;
      onProgress({
        loaded: event.loaded,
        total: event.total,
        percent: event.total ? Math.floor((event.loaded / event.total) * 100) : 0,
      });
    };
    xhr.onload = () => {
      noteSessionExpiresIn(xhr.getResponseHeader(SESSION_EXPIRES_HEADER));
      try {
        resolve(settle<T>(xhr.status, xhr.responseText, {}));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, '', null, { code: 0 }));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'DELETE' }),
  /** A list or detail fetch (docs/product.md §7.4): a 400 answer resolves with data null instead of throwing. */
  getList: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body' | 'emptyOn400'>) =>
    request<T | null>(path, { ...options, method: 'GET', emptyOn400: true }),
};

/** The text to show for a failed call: the server's msg, else the fallback (docs/product.md §8). */
export function errorMessage(error: unknown, fallback: string = webMessages.genericError) {
  return error instanceof ApiError && error.msg ? error.msg : fallback;
}

/** Toast a failed call unless the client already did (401). */
export function notifyError(error: unknown, fallback: string = webMessages.genericError) {
  if (error instanceof ApiError && error.handled) return;
  if (error instanceof DOMException && error.name === 'AbortError') return;
  notify.error(errorMessage(error, fallback));
}
