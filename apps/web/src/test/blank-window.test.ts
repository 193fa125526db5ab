import { describe, expect, it } from 'vitest';
import { blankWindow } from './blank-window.ts';

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
    document.cookie = 'seen=1; path=/';
    history.pushState(null, '', '/admin/device?page=2#top');

    blankWindow(window);

    expect(document.documentElement.outerHTML).toBe('<html><head></head><body></body></html>');
    expect(document.head).toBe(head);
    expect(document.body).toBe(body);
    expect([localStorage.length, sessionStorage.length]).toEqual([0, 0]);
    expect(document.cookie).toBe('');
    expect(location.pathname + location.search + location.hash).toBe('/');
  });
});
