import type { BatchResult } from '@app/contract/device-api';

/*
 * What one machine sent and what the server answered, per kind of record, by item id. The final
 * check compares it with the console's lists: a machine must hold exactly as many rows of a kind
 * as distinct ids were accepted.
 */

export const recordKinds = ['doctors', 'patients', 'treatments', 'accessLogs', 'errorLogs'] as const;
export type RecordKind = (typeof recordKinds)[number];

export type Ledger = {
  answers: Record<RecordKind, Map<string, 'accepted' | 'refused'>>;
  /** Items made bad on purpose: they must be refused. */
  meantBad: Set<string>;
  /** Items re-sent with the same id on purpose, and how many of those were answered the same. */
  resent: number;
  resentSame: number;
  /** Anything the server answered that the app did not expect (shown, and the run fails). */
  surprises: string[];
};

export const newLedger = (): Ledger => ({
  answers: {
    doctors: new Map(),
    patients: new Map(),
    treatments: new Map(),
    accessLogs: new Map(),
    errorLogs: new Map(),
  },
  meantBad: new Set(),
  resent: 0,
  resentSame: 0,
  surprises: [],
});

/** Records a batch's per-item answers; a repeated id must get the answer it got the first time. */
export function recordAnswers(
  ledger: Ledger,
  kind: RecordKind,
  sentIds: string[],
  result: BatchResult,
  machine: string,
  resend = false,
) {
  if (result.results.length !== sentIds.length)
    ledger.surprises.push(
      `${machine} ${kind}: ${sentIds.length} items sent, ${result.results.length} answered`,
    );
  result.results.forEach((answer, i) => {
    const id = answer.id ?? sentIds[i]!;
    if (id !== sentIds[i])
      ledger.surprises.push(`${machine} ${kind}: answer ${i} names ${id}, not ${sentIds[i]}`);
    const before = ledger.answers[kind].get(id);
    if (resend) {
      ledger.resent++;
      if (before === answer.status) ledger.resentSame++;
    }
    if (before !== undefined && before !== answer.status)
      ledger.surprises.push(`${machine} ${kind} ${id}: answered ${answer.status} after ${before}`);
    const bad = ledger.meantBad.has(id);
    if (answer.status === 'refused' && !bad && before === undefined)
      ledger.surprises.push(`${machine} ${kind} ${id}: refused (${answer.reason ?? 'no reason'})`);
    if (answer.status === 'accepted' && bad)
      ledger.surprises.push(`${machine} ${kind} ${id}: a bad item was accepted`);
    // The first answer stands (a retry's answer must equal it; a difference is a surprise above).
    if (before === undefined) ledger.answers[kind].set(id, answer.status);
  });
}

export function tally(ledger: Ledger) {
  const accepted = {} as Record<RecordKind, number>;
  let refused = 0;
  let refusedMeant = 0;
  for (const kind of recordKinds) {
    accepted[kind] = 0;
    for (const [id, status] of ledger.answers[kind]) {
      if (status === 'accepted') accepted[kind]++;
      else {
        refused++;
        if (ledger.meantBad.has(id)) refusedMeant++;
      }
    }
  }
  return {
    accepted,
    refused,
    refusedMeant,
    acceptedTotal: recordKinds.reduce((sum, k) => sum + accepted[k], 0),
  };
}

/**
 * The surprises since the last call, and forgets every answer: a machine that runs for weeks (the
 * demo fleet) keeps nothing it no longer needs.
 */
export function takeSurprises(ledger: Ledger): string[] {
  for (const answers of Object.values(ledger.answers)) answers.clear();
  ledger.meantBad.clear();
  return ledger.surprises.splice(0);
}
