import { describe, expect, it } from 'vitest';

/*
 * The tests' window works out a computed style's properties when they are read
 * (jsdom-environment.ts). What they read must be what jsdom's own getComputedStyle gives: compared
 * here, property by property, against a plain jsdom window holding the same page. That window comes
 * from the JSDOM class that built this one (Vitest leaves the instance at \`globalThis.jsdom\`): jsdom
 * itself does not load inside the tests' VM context.
 */
type PlainWindow = { document: Document; getComputedStyle: (element: Element) => CSSStyleDeclaration };
const PlainJsdom = (
  globalThis as unknown as { jsdom: { constructor: new (html: string) => { window: PlainWindow } } }
).jsdom.constructor;

const page = `
  <style>
    .muted { color: rgb(108, 117, 125); visibility: hidden; }
    .shown { visibility: visible; }
    .inert { pointer-events: none; }
    .block { display: block; }
  </style>
  <main style="color: navy">
    <p id="plain">Plain <span id="inherits">inherits navy</span></p>
    <div class="muted" id="muted"><button id="reshown" class="shown">Shown again</button></div>
    <div class="inert"><a id="inert" href="#x">Not clickable</a></div>
    <span class="block" id="block">A block</span>
    <section hidden id="hidden"><input id="in-hidden" /></section>
    <b id="inline" style="display: none; border-top-color: red">Inline</b>
  </main>`;

const ids = ['plain', 'inherits', 'muted', 'reshown', 'inert', 'block', 'hidden', 'in-hidden', 'inline'];
const properties = [
  'display',
  'visibility',
  'pointer-events',
  'color',
  'background-color',
  'border-top-color',
  'caret-color',
  'outline-color',
];
const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe("the tests' getComputedStyle", () => {
  it('reads every property as a plain jsdom window does, by name and by getPropertyValue', () => {
    document.body.innerHTML = page;
    const reference = new PlainJsdom(`<!DOCTYPE html><body>${page}</body>`).window;
    const names = (style: CSSStyleDeclaration) =>
      Array.from({ length: style.length }, (_, i) => style.item(i)).sort();
    for (const id of ids) {
      const theirs = reference.getComputedStyle(reference.document.getElementById(id)!);
      // Every property at once, before any is read: what a caller that walks the declaration sees.
      expect(names(getComputedStyle(document.getElementById(id)!)), id).toEqual(names(theirs));
      // Each read on a declaration of its own, so no other read has worked its value out before.
      const ours = () => getComputedStyle(document.getElementById(id)!);
      for (const property of properties) {
        const expected = theirs.getPropertyValue(property);
        expect(ours().getPropertyValue(property), `${id} ${property}`).toBe(expected);
        expect(ours()[camel(property) as 'color'], `${id} ${camel(property)}`).toBe(expected);
      }
      const read = ours();
      for (const property of properties) read.getPropertyValue(property);
      // Some read, then all: the rest are worked out as well.
      expect(names(read), id).toEqual(names(theirs));
      expect(read.cssText, id).toHaveLength(theirs.cssText.length);
    }
  });

  it('sees what the page shows and hides, as Testing Library asks', () => {
    document.body.innerHTML = page;
    const style = (id: string) => getComputedStyle(document.getElementById(id)!);
    expect(style('hidden').display).toBe('none');
    expect(style('inline').display).toBe('none');
    expect(style('muted').visibility).toBe('hidden');
    expect(style('reshown').visibility).toBe('visible');
    expect(style('inert').pointerEvents).toBe('none');
    expect(style('inherits').color).toBe('rgb(0, 0, 128)');
  });

  it('reads a property after a change to the page as the page now is', () => {
    document.body.innerHTML = page;
    const element = document.getElementById('plain')!;
    const style = getComputedStyle(element);
    element.setAttribute('style', 'visibility: hidden');
    expect(style.visibility).toBe('hidden');
    expect(getComputedStyle(element).visibility).toBe('hidden');
  });

  it('refuses what is not an element, as jsdom does', () => {
    expect(() => getComputedStyle(document as unknown as Element)).toThrow(TypeError);
  });
});
