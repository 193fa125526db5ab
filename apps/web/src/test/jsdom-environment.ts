/// <reference types="node" />
import { createRequire } from 'node:module';
// First: jsdom's modules require one another in cycles that only its entry point loads in a working order.
import 'jsdom';
import { builtinEnvironments, type Environment } from 'vitest/environments';
import { blankWindow, type TestDom } from './blank-window.ts';

/*
 * Vitest's jsdom environment with two changes: `fetch` takes the window's AbortSignal (at the end of
 * this file), and `getComputedStyle` works out a property's value when it is read, not all sixteen
 * of jsdom's resolved properties on every call.
 *
 * Testing Library asks for the computed style of every node whose accessible name or visibility it
 * works out (each `getByRole(..., { name })`), and user-event for the `pointer-events` of every
 * target. They read `display`, `visibility` and `pointer-events`; jsdom also resolved twelve colour
 * properties each time, each walking up to the root and parsing a colour at every level: a fifth of
 * the component tests' CPU time (CONTRIBUTING.md, "How long the fast loop takes"). Read, a value is
 * jsdom's own (its cascade and resolution, asked for that one property), so what tests see is
 * unchanged; `jsdom-environment.test.ts` compares the two.
 *
 * The environment runs outside the tests' VM context, with the jsdom that builds their window, so it
 * can reach jsdom's style helpers. A jsdom upgrade that moves them fails every web test at start.
 */

const requireHere = createRequire(import.meta.url);
const requireFromJsdom = createRequire(requireHere.resolve('jsdom/package.json'));
const styleRules = requireFromJsdom('./lib/jsdom/living/helpers/style-rules.js') as {
  getDeclarationForElement: (element: object) => CSSStyleDeclaration;
  getResolvedValue: (element: object, property: string) => string;
  propertiesWithResolvedValueImplemented: Record<string, unknown>;
};
const elementInterface = requireFromJsdom('./lib/jsdom/living/generated/Element.js') as {
  convert: (globalObject: object, value: unknown) => object;
};
const { CSSStyleDeclaration: Declaration } = requireFromJsdom('cssstyle') as {
  CSSStyleDeclaration: new () => CSSStyleDeclaration;
};
if (
  typeof styleRules.getDeclarationForElement !== 'function' ||
  typeof styleRules.getResolvedValue !== 'function' ||
  typeof elementInterface.convert !== 'function'
)
  throw new Error("jsdom-environment: jsdom's style helpers are not where they were; see this file");

/** The properties jsdom resolves, as written in CSS (`pointer-events`) and as read in JS (`pointerEvents`). */
const resolvedNames = Object.keys(styleRules.propertiesWithResolvedValueImplemented);
const resolvedByName = new Map<string, string>(
  resolvedNames.flatMap((name) => [
    [name, name],
    [name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()), name],
  ]),
);
/** Reading any of these reads every property: resolve them all first. */
const wholeDeclaration = new Set(['length', 'item', 'cssText']);

type StyleWindow = { getComputedStyle: (element: Element, pseudoElement?: string | null) => unknown };

function styleTheTestWindow(window: StyleWindow) {
  window.getComputedStyle = lazyComputedStyle(window);
}

function lazyComputedStyle(window: StyleWindow) {
  const jsdomComputedStyle = window.getComputedStyle;
  return function getComputedStyle(element: Element, pseudoElement?: string | null) {
    // Pseudo-elements: jsdom's own answer (it does not implement them either).
    if (pseudoElement !== undefined && pseudoElement !== null)
      return jsdomComputedStyle.call(window, element, pseudoElement);
    const impl = elementInterface.convert(window, element);
    const declaration = new Declaration();
    const cascaded = styleRules.getDeclarationForElement(impl);
    for (let i = 0; i < cascaded.length; i++) {
      const property = cascaded.item(i);
      declaration.setProperty(
        property,
        cascaded.getPropertyValue(property),
        cascaded.getPropertyPriority(property),
      );
    }
    const unresolved = new Set(resolvedNames);
    const resolve = (name: string) => {
      if (unresolved.delete(name)) declaration.setProperty(name, styleRules.getResolvedValue(impl, name));
    };
    const resolveAll = () => unresolved.forEach(resolve);
    return new Proxy(declaration, {
      get(target, key) {
        if (typeof key === 'symbol' || wholeDeclaration.has(key) || /^\d+$/.test(key)) resolveAll();
        else if (key === 'getPropertyValue' || key === 'getPropertyPriority')
          return (name: string) => {
            const resolvedName = resolvedByName.get(String(name).toLowerCase());
            if (resolvedName) resolve(resolvedName);
            return target[key](name);
          };
        else if (resolvedByName.has(key)) resolve(resolvedByName.get(key)!);
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
      has(target, key) {
        resolveAll();
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        resolveAll();
        return Reflect.ownKeys(target);
      },
    });
  };
}

type FetchWindow = { fetch: typeof fetch; Request: typeof Request };

/**
 * The window's `fetch` and `Request` are Node's and its `AbortController` is jsdom's, as in
 * Vitest's own jsdom environment. Node 24's (undici 7) refuse a signal that is not their own
 * AbortSignal, where Node 20 and 22 took anything shaped like one: every request made with a signal
 * failed at once (TanStack Query passes one to each query: lists showed "No ... found"), and so did
 * every navigation of a data router (React Router builds a Request with its signal). In a browser
 * they belong together; here a Node AbortController follows the window's signal. Node's are taken
 * when this module loads: without a VM context the window's globals replace them later.
 */
const node = { fetch, Request, AbortController, AbortSignal };

function withNodeSignal(init: RequestInit | undefined): RequestInit | undefined {
  const signal = init?.signal;
  // Typed alike, the two differ only at run time.
  if (!signal || (signal as unknown) instanceof node.AbortSignal) return init;
  const follower = new node.AbortController();
  if (signal.aborted) follower.abort(signal.reason);
  else signal.addEventListener('abort', () => follower.abort(signal.reason), { once: true });
  return { ...init, signal: follower.signal };
}

function fetchTakingWindowSignals(window: FetchWindow) {
  window.fetch = (input, init) => node.fetch(input, withNodeSignal(init));
  window.Request = class Request extends node.Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(input, withNodeSignal(init));
    }
  };
}

const jsdom = builtinEnvironments.jsdom;
const keptWindow = Symbol.for('jsdom-environment.kept-window');

export default {
  name: 'jsdom-lazy-styles',
  transformMode: 'web',
  async setupVM(options) {
    const environment = await jsdom.setupVM!(options);
    styleTheTestWindow(environment.getVmContext() as unknown as StyleWindow);
    fetchTakingWindowSignals(environment.getVmContext() as unknown as FetchWindow);
    return environment;
  },
  /*
   * Without a VM context (the threads pool, which `npm run test:fast` runs without isolation), a
   * worker keeps one window for all its files: the modules it keeps from file to file (Testing
   * Library's `screen`, React DOM) hold on to the document they were first loaded with. What a
   * file leaves in the window is undone before the next one (blank-window.ts).
   */
  async setup(global, options) {
    const kept = global as typeof globalThis & { [keptWindow]?: true };
    if (!kept[keptWindow]) {
      await jsdom.setup(global, options);
      styleTheTestWindow(global as StyleWindow);
      fetchTakingWindowSignals(global as FetchWindow);
      kept[keptWindow] = true;
    }
    return { teardown: () => blankWindow((global as unknown as { jsdom: TestDom }).jsdom) };
  },
} satisfies Environment;
