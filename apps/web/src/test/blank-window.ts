/**
 * What one test file may leave in a window that the next file of the same worker gets
 * (jsdom-environment.ts), undone: the document's nodes and attributes, both storages, the cookies
 * and the URL. The document keeps its head and body elements themselves: modules kept from file to
 * file hold on to them (Testing Library's `screen` queries this body).
 */
export function blankWindow(window: Window) {
  const { documentElement: root, head, body } = window.document;
  for (const element of [root, head, body]) {
    element.replaceChildren();
    for (const { name } of [...element.attributes]) element.removeAttribute(name);
  }
  root.append(head, body);
  window.localStorage.clear();
  window.sessionStorage.clear();
  for (const cookie of window.document.cookie.split(';')) {
    const name = cookie.split('=')[0]!.trim();
    if (name) window.document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  window.history.replaceState(null, '', '/');
}
