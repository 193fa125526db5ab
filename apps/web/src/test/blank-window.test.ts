import { describe, expect, it } from 'vitest';
import { blankWindow, type TestDom } from './blank-window.ts';

type CookieJar = TestDom['cookieJar'] & {
  setCookieSync(cookie: string, url: string): void;
  getCookiesSync(url: string): unknown[];
};
/** The JSDOM instance that made this file's window. */
const dom = (globalThis as unknown as { jsdom: TestDom & { cookieJar: CookieJar } }).jsdom;

describe('blankWindow', () => {
  it('leaves an empty document with the same head and body, empty storage, no cookies, at /', () => {
    const { documentElement: root, head, body } = document;
    root.setAttribute('data-bs-theme', 'dark');
    body.className = 'modal-open';
    body.setAttribute('inert', '');
    head.innerHTML = '<style>p { color: red }</style>';
    body.innerHTML = '<main><p>Left behind</p></main><div id="toasts"></div>';
    root.append(document.createElement('aside'));
    localStorage.setItem('auth', '{}');
    sessionStorage.setItem('sidebar', 'open');
    document.cookie = 'theme=dark; path=/';
    document.cookie = 'seen=1; path=/admin';
    // Set by an answer of the tests' API server, on its own origin.
    dom.cookieJar.setCookieSync('sid=1', 'http://127.0.0.1:4100/api');
    history.pushState(null, '', '/admin/device?page=2#top');

    expect(dom.window.document).toBe(document);
    blankWindow(dom);

    expect(document.documentElement.outerHTML).toBe('<html><head></head><body></body></html>');
    expect(document.head).toBe(head);
    expect(document.body).toBe(body);
    expect([localStorage.length, sessionStorage.length]).toEqual([0, 0]);
    expect(document.cookie).toBe('');
    for (const url of ['http://localhost:3000/admin', 'http://127.0.0.1:4100/api'])
      expect(dom.cookieJar.getCookiesSync(url)).toEqual([]);
    expect(location.pathname + location.search + location.hash).toBe('/');
  });
});
