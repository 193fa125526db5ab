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
/** Every element and attribute the default style sheet's rules name, and some they do not. */
const everyRulePage = `
  <address>a</address><blockquote>b</blockquote><center>c</center><dialog>d</dialog><dialog open>e</dialog>
  <figure><figcaption>f</figcaption></figure><footer>g</footer><form><fieldset><legend>h</legend>
  <legend align="left">i</legend><legend align="CENTER">j</legend><legend align="right">k</legend></fieldset></form>
  <header>l</header><hr><listing>m</listing><main>n</main><p>o</p><pre dir="auto">p</pre><search>q</search><xmp>r</xmp>
  <cite>s</cite><dfn>t</dfn><em>u</em><i>v</i><var>w</var><b>x</b><strong>y</strong><code>z</code><kbd>k</kbd>
  <samp>s</samp><tt>t</tt><big>b</big><small>s</small><sub>s</sub><sup>s</sup><ruby>r<rt>t</rt></ruby>
  <a href="#a">link</a><a>no link</a><abbr title="t">ab</abbr><acronym title="t">ac</acronym><abbr>ab</abbr>
  <ins>i</ins><u>u</u><del>d</del><s>s</s><strike>s</strike><q>q</q><br><nobr>n<wbr>w</nobr><bdi>b</bdi>
  <bdo dir="rtl">b</bdo><span dir="ltr">l</span><span dir="RTL">r</span><span dir="auto">a</span>
  <article><aside><h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6></aside></article>
  <hgroup>h</hgroup><nav><section><h1>deep</h1></section></nav>
  <dir><li>d</li></dir><dl><dt>t</dt><dd>d</dd></dl><menu><li>m</li></menu>
  <ol><li>o<ul><li>u<ol><li>o</li></ol><menu><li>m</li></menu></li></ul></li></ol>
  <table rules="all" frame="box"><caption>c</caption><colgroup><col></colgroup><colgroup hidden><col hidden></colgroup>
    <thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr><tr hidden><td>h</td></tr></tbody>
    <tfoot hidden><tr><td>f</td></tr></tfoot></table>
  <table><tr><td>bare</td></tr></table>
  <input><input type="hidden"><input type="FILE"><input type="image"><input type="checkbox"><input type="radio">
  <input type="reset"><input type="button"><input type="submit"><input type="color"><input type="search" dir="auto">
  <input type="tel"><input type="range"><select><option>o</option></select><button>b</button>
  <textarea dir="auto">t</textarea><iframe></iframe><video></video><img sizes="auto" alt=""><img alt="">
  <details open><summary>s</summary><summary>second</summary>x</details><details><summary>closed</summary></details>
  <marquee>m</marquee><meter></meter><progress></progress><template><p>t</p></template><slot></slot>
  <div hidden>h</div><div hidden="until-found">u</div><embed hidden><div popover>p</div><div popover="manual">m</div>
  <div style="display: unset; color: red !important">unset</div><span style="display: block">s</span>
  <svg><title>t</title><a href="#s"><text>x</text></a></svg><custom-element>c</custom-element>`;
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

  it("builds each element's cascade as jsdom does, across the rules of its default style sheet", () => {
    const reference = new PlainJsdom(`<!DOCTYPE html><body>${everyRulePage}</body>`).window;
    document.body.innerHTML = everyRulePage;
    // An element made with createElementNS and an upper-case name: the selectors decide for it.
    document.body.append(document.createElementNS('http://www.w3.org/1999/xhtml', 'DIV'));
    reference.document.body.append(reference.document.createElementNS('http://www.w3.org/1999/xhtml', 'DIV'));
    const cascade = (style: CSSStyleDeclaration) =>
      Object.fromEntries(
        Array.from({ length: style.length }, (_, i) => style.item(i))
          .sort()
          .map((name) => [name, style.getPropertyValue(name)]),
      );
    const compareAll = (when: string) => {
      const ours = Array.from(document.body.querySelectorAll('*'));
      const theirs = Array.from(reference.document.body.querySelectorAll('*'));
      expect(ours.map((e) => e.localName)).toEqual(theirs.map((e) => e.localName));
      ours.forEach((element, i) => {
        const label = `${when}: ${element.outerHTML.slice(0, 80)}`;
        expect(cascade(getComputedStyle(element)), label).toEqual(
          cascade(reference.getComputedStyle(theirs[i]!)),
        );
      });
      return ours.length;
    };
    expect(compareAll('as written')).toBeGreaterThan(100);
    // Attributes the rules ask about, changed on both pages.
    for (const doc of [document, reference.document]) {
      doc.querySelector('dialog')!.setAttribute('open', '');
      doc.querySelector('[hidden]')!.removeAttribute('hidden');
      doc.querySelector('table')!.setAttribute('rules', 'groups');
      doc.querySelector('p')!.setAttribute('dir', 'rtl');
    }
    compareAll('after changes');
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
