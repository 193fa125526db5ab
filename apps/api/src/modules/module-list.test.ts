import { readdir } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { appModules } from './module-list.ts';

/*
 * Every module folder is registered through the list, once (issue 33): a folder with a
 * `<name>-module.ts` that the list forgets fails here, as does a name given twice.
 */

it('lists every module folder once, by its name', async () => {
  const folders = (await readdir(new URL('.', import.meta.url), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const withModule: string[] = [];
  for (const folder of folders) {
    const files = await readdir(new URL(`./${folder}/`, import.meta.url));
    if (files.includes(`${folder}-module.ts`)) withModule.push(folder);
  }
  expect(appModules.map((m) => m.name).sort()).toEqual(withModule.sort());
  expect(folders.filter((f) => !withModule.includes(f))).toEqual([]);
});
