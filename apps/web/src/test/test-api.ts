import { afterAll, beforeAll, beforeEach } from 'vitest';
import { setApiBaseUrl } from '../lib/api-client.ts';
import { startTestServer, type Answer, type Recorded } from './http-server.ts';

export type TestApi = {
  /** Every request the page sent since the test began. */
  readonly requests: Recorded[];
  /** The GET requests to `path`, as their query parameters. */
  queries: (path: string) => URLSearchParams[];
};

/**
 * A real API stand-in for the tests of one file: started before them, pointed at by the api client,
 * its request log emptied before each test and closed after all of them.
 */
export function serveTestApi(respond: (request: Recorded, url: URL) => Answer | Promise<Answer>): TestApi {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  beforeAll(async () => {
    server = await startTestServer((request) => respond(request, new URL(request.url, 'http://api')));
    setApiBaseUrl(server.url);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    server?.requests.splice(0);
  });
  const requests = () => server?.requests ?? [];
  return {
    get requests() {
      return requests();
    },
    queries: (path) =>
      requests()
        .map((r) => new URL(r.url, 'http://api'))
        .filter((url) => url.pathname === path)
        .map((url) => url.searchParams),
  };
}

/** An answer the test releases when it wants: until then the page shows its loading state. */
export function heldAnswer() {
  let release!: (answer: Answer) => void;
  const answer = new Promise<Answer>((resolve) => (release = resolve));
  return { answer, release };
}
