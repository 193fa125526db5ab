/// <reference types="node" />
import { readFileSync } from 'node:fs';
import type { createRequire } from 'node:module';

/*
 * jsdom's style cascade with the rules that cannot match an element left out before matching
 * (CONTRIBUTING.md, "How long the fast loop takes"). For every element it works out a computed style
 * for, jsdom matches all 112 rules of its default style sheet, and it forgets every answer at every
 * change to the document: 11 of the component tests' 60 CPU-seconds, nearly all of it matching
 * selectors that name another element (`table`, `dialog:modal`) or an attribute the element does not
 * have (`[popover]`, `[dir]`). Now 3.6.
 *
 * A rule is left out only when no selector of its list can match: each names another element as its
 * subject (or lists others in `:is()`), requires an attribute at the top level of the subject that
 * the element lacks, or ends in a pseudo-element (jsdom computes no style for those). A list of only
 * names and attribute selectors, which cannot fail to parse, matches an element it names bare. Every
 * other rule is matched exactly as jsdom matches it, and the declaration is built and cached as jsdom
 * builds and caches it. `jsdom-environment.test.ts` compares every property of more than a hundred
 * elements, before and after changes, with a plain jsdom window's.
 */

type Declaration = {
  length: number;
  item: (i: number) => string;
  getPropertyValue: (name: string) => string;
  getPropertyPriority: (name: string) => string;
  setProperty: (name: string, value: string, priority?: string) => void;
  removeProperty: (name: string) => void;
};
type Rule = {
  selectorText?: string;
  style: Declaration;
  media?: ArrayLike<string>;
  cssRules?: ArrayLike<Rule>;
  styleSheet?: { cssRules: ArrayLike<Rule> } | null;
  constructor: { name: string };
};
type Sheet = { cssRules: ArrayLike<Rule> };
type DocumentImpl = {
  _styleCache: WeakMap<object, Declaration> | null;
  _parsingMode: string;
  _domSelector: { check: (selector: string, element: object) => { match: boolean; pseudoElement: unknown } };
  styleSheets: { _list: Sheet[] };
};
export type ElementImpl = {
  _localName: string;
  _namespaceURI: string | null;
  _ownerDocument: DocumentImpl;
  style: Declaration;
  _attributeList: { _namespace: string | null; _localName: string }[];
};

const htmlNamespace = 'http://www.w3.org/1999/xhtml';

/** What a rule's selector list asks of an element's name and attributes, or null to always match it. */
type Plan = null | {
  /** Per selector: the names its subject may have (null: any) and the attributes it must have. */
  branches: { names: Set<string> | null; attributes: string[] }[];
  /** Every selector ends in a pseudo-element (`::before`), for which jsdom computes no style. */
  never: boolean;
  /** Every selector a bare name or attribute selectors on one element: none can fail to parse. */
  simple: boolean;
  /** The selectors that are a bare element name. */
  bareNames: Set<string>;
};

const name = '[a-z][a-z0-9-]*';
const attributeSelector = `\\[\\s*${name}\\s*(?:[~|^$*]?=\\s*(?:"[^"]*"|'[^']*'|[a-z0-9_-]+)(?:\\s+[is])?)?\\s*\\]`;
const simpleSelector = new RegExp(`^(?:${name})?(?:${attributeSelector})*$`, 'i');
const bareName = new RegExp(`^${name}$`, 'i');
const leadingName = new RegExp(`^${name}`, 'i');
/** A subject that starts with `:is(...)` or `:where(...)` of bare names may only be one of them. */
const namesIs = new RegExp(`^:(?:is|where)\\(\\s*(${name}(?:\\s*,\\s*${name})*)\\s*\\)`, 'i');

/** Calls `visit` with each character outside quotes and the bracket and parenthesis depth it is at. */
function scan(text: string, visit: (char: string, index: number, depth: number) => void) {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else {
      if (char === ')' || char === ']') depth--;
      visit(char, i, depth);
      if (char === '(' || char === '[') depth++;
    }
  }
}

/** Splits at top-level occurrences of `at` (outside brackets, parentheses and quotes). */
function topLevelSplit(text: string, at: (char: string) => boolean): string[] {
  const parts: string[] = [];
  let start = 0;
  scan(text, (char, i, depth) => {
    if (depth === 0 && at(char)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  });
  parts.push(text.slice(start));
  return parts;
}

const attributeName = new RegExp(`^\\s*(${name})`, 'i');

/**
 * The attribute names of the attribute selectors at the top level of a compound (not in `:not()`);
 * '' for one whose name this reading misses.
 */
function requiredAttributes(compound: string): string[] {
  const names: string[] = [];
  scan(compound, (char, i, depth) => {
    if (char === '[' && depth === 0)
      names.push(attributeName.exec(compound.slice(i + 1))?.[1]?.toLowerCase() ?? '');
  });
  return names;
}

function planOf(selector: string): Plan {
  // Escapes and namespaces are rare and easy to misread: such a rule is always matched.
  if (/[\\|]/.test(selector)) return null;
  const branches = topLevelSplit(selector, (c) => c === ',').map((text) => text.trim());
  return {
    branches: branches.map((branch) => {
      // The subject: the compound after the last combinator.
      const compounds = topLevelSplit(branch, (c) => /[\s>+~]/.test(c)).filter(Boolean);
      const subject = compounds[compounds.length - 1] ?? '';
      const leading = leadingName.exec(subject)?.[0];
      const listed = namesIs.exec(subject)?.[1]?.split(',');
      const attributes = requiredAttributes(subject);
      return {
        names: leading
          ? new Set([leading.toLowerCase()])
          : listed
            ? new Set(listed.map((n) => n.trim().toLowerCase()))
            : null,
        // An attribute selector whose name this reading missed: no requirement is drawn from it.
        attributes: attributes.includes('') ? [] : attributes,
      };
    }),
    // Ending in a pseudo-element without arguments (`::before`, `::backdrop`; not `::slotted()`).
    never: !/["']/.test(selector) && branches.every((branch) => /::[a-z-]+$/i.test(branch)),
    simple: branches.every((branch) => branch !== '' && simpleSelector.test(branch)),
    bareNames: new Set(branches.filter((branch) => bareName.test(branch)).map((n) => n.toLowerCase())),
  };
}

const plans = new WeakMap<Rule, Plan>();

/** jsdom's selector text of a rule (it keeps only what follows a stray semicolon: cssstyle#193). */
const selectorOf = (rule: Rule) => rule.selectorText!.split(';').pop()!.trim();

/** Whether the element has the attribute, its name compared in any case (as selectors compare them). */
const hasAttribute = (element: ElementImpl, lowerName: string) =>
  element._attributeList.some((a) => a._namespace === null && a._localName.toLowerCase() === lowerName);

function mayMatch(rule: Rule, element: ElementImpl): boolean | 'check' {
  let plan = plans.get(rule);
  if (plan === undefined) {
    plan = planOf(selectorOf(rule));
    plans.set(rule, plan);
  }
  if (plan === null) return 'check';
  if (plan.never) return false;
  const name = element._localName;
  const html = element._namespaceURI === htmlNamespace && element._ownerDocument._parsingMode === 'html';
  // An HTML element's name in an HTML document is lower case (one made with createElementNS may not
  // be: then the selectors decide). Named by a selector of a list that cannot fail, it matches.
  if (plan.simple && html && name === name.toLowerCase() && plan.bareNames.has(name)) return true;
  const lowerName = name.toLowerCase();
  const possible = plan.branches.some(
    (b) =>
      (b.names === null || b.names.has(lowerName)) &&
      (!html || b.attributes.every((attribute) => hasAttribute(element, attribute))),
  );
  return possible ? 'check' : false;
}

/** jsdom's own match of one rule against one element. */
function matches(rule: Rule, element: ElementImpl): boolean {
  let verdict: boolean | 'check' = 'check';
  try {
    if (rule.selectorText) verdict = mayMatch(rule, element);
  } catch {
    // A selector this reading cannot take apart is matched by jsdom, as every other.
  }
  if (verdict !== 'check') return verdict;
  try {
    if (rule.selectorText) {
      const { match, pseudoElement } = element._ownerDocument._domSelector.check(selectorOf(rule), element);
      // jsdom computes no style for pseudo-elements.
      return pseudoElement ? false : match;
    }
  } catch {
    // As jsdom: a selector it cannot match matches nothing.
  }
  return false;
}

export function fastCascade(requireFromJsdom: ReturnType<typeof createRequire>) {
  const cssom = requireFromJsdom('@acemir/cssom') as { parse: (css: string) => Sheet };
  const { CSSStyleDeclaration } = requireFromJsdom('cssstyle') as {
    CSSStyleDeclaration: new () => Declaration;
  };
  const defaultSheet = cssom.parse(
    readFileSync(requireFromJsdom.resolve('./lib/jsdom/browser/default-stylesheet.css'), 'utf8'),
  );

  function forEachMatchingRule(element: ElementImpl, handle: (rule: Rule) => void) {
    const handleSheet = (sheet: Sheet) => {
      for (const rule of Array.from(sheet.cssRules)) {
        if (rule.media) {
          const media = Array.from(rule.media);
          if (rule.constructor.name === 'CSSImportRule') {
            if (rule.styleSheet && (media.length === 0 || media.includes('screen')))
              for (const inner of Array.from(rule.styleSheet.cssRules))
                if (matches(inner, element)) handle(inner);
          } else if (media.includes('screen')) {
            for (const inner of Array.from(rule.cssRules ?? [])) if (matches(inner, element)) handle(inner);
          }
        } else if (matches(rule, element)) handle(rule);
      }
    };
    handleSheet(defaultSheet);
    element._ownerDocument.styleSheets._list.forEach(handleSheet);
  }

  /** jsdom's getDeclarationForElement, with the rules that cannot match left out. */
  return function declarationFor(element: ElementImpl): Declaration {
    const document = element._ownerDocument;
    const cache = (document._styleCache ??= new WeakMap());
    const cached = cache.get(element);
    if (cached) return cached;
    const declaration = new CSSStyleDeclaration();
    const apply = (style: Declaration, property: string) => {
      const value = style.getPropertyValue(property);
      if (value === 'unset') declaration.removeProperty(property);
      else declaration.setProperty(property, value, style.getPropertyPriority(property));
    };
    forEachMatchingRule(element, (rule) => {
      for (let i = 0; i < rule.style.length; i++) apply(rule.style, rule.style.item(i));
    });
    for (let i = 0; i < element.style.length; i++) apply(element.style, element.style.item(i));
    cache.set(element, declaration);
    return declaration;
  };
}
