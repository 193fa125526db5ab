import type { RecordKind } from './logs.ts';

/** A route's words: its method, its path after the API's base, the words, and the record its id names. */
export type Phrase = [method: string, pattern: RegExp, text: string, record?: RecordKind];

/** The machines' app's calls (`/api/v1/app/...`) in words, for the Admin Logs (log-words.ts). */
export const appPhrases: Phrase[] = [
  ['POST', /^\/heartbeat$/, 'Machine checked in'],
  ['POST', /^\/enrol$/, 'Machine enrolled'],
  ['POST', /^\/login$/, 'Signed in on the machine'],
  ['POST', /^\/logout$/, 'Signed out on the machine'],
  ['POST', /^\/(doctors|patients|treatments|access-logs|error-logs)$/, 'Machine sent $1'],
  ['GET', /^\/(doctors|patients|treatments)$/, 'Machine read $1'],
  ['GET', /^\/updates\/latest$/, 'Machine checked for an app update'],
  ['GET', /^\/updates\/:id\/apk$/, "Machine downloaded an app update's file"],
  ['POST', /^\/token\/refresh$/, "Renewed a person's session on the machine"],
  ['GET', /^\/me$/, 'Machine read who is signed in'],
  ['GET', /^\/licence$/, 'Machine fetched its licence'],
  ['GET', /^\/settings$/, 'Machine fetched its settings'],
  ['POST', /^\/settings\/applied$/, 'Machine applied its settings'],
  ['GET', /^\/commands$/, 'Machine asked for its commands'],
  ['POST', /^\/commands\/:id\/result$/, 'Machine reported the result of a command'],
  ['PUT', /^\/commands\/:id\/diagnostics$/, 'Machine uploaded diagnostics'],
];
