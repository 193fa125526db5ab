/** The parts of a JSDOM instance this needs (Vitest keeps the instance at `globalThis.jsdom`). */
export type TestDom = { window: Window; cookieJar: { removeAllCookiesSync(): void } };

/**
 * What one test file may leave in a window that the next file of the same worker gets
 * (jsdom-environment.ts), undone: the document's nodes and attributes, both storages, every cookie
 * (of any site the tests' requests went to) and the URL. The document keeps its head and body
 * elements themselves: modules kept from file to file hold on to them (Testing Library's `screen`
 * queries this body).
 */
export function blankWindow({ window, cookieJar }: TestDom) {
  const { documentElement: root, head, body } = window.document;
  for (const element of [root, head, body]) {
    element.replaceChildren();
    for (const { name } of [...element.attributes]) element.removeAttribute(name);
  }
  root.append(head, body);
  window.localStorage.clear();
  window.sessionStorage.clear();
  cookieJar.removeAllCookiesSync();
  window.history.replaceState(null, '', '/');
}
