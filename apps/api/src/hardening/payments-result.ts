import { writeHardeningResult } from './result-file.ts';

/** The counts the payments suite reports. */
export const newPaymentFigures = () => ({
  sequences: 0,
  delivered: 0,
  applied: 0,
  replays: 0,
  concurrentDuplicates: 0,
  forged: 0,
  permutations: 0,
  mismatches: 0,
  unexpectedAnswers: 0,
  refused: 0,
});
export type PaymentFigures = ReturnType<typeof newPaymentFigures>;

/** The payments suite's result file: passed only when all four properties held and nothing differed from the model. */
export function writePaymentsResult(figures: PaymentFigures, results: Record<string, boolean>) {
  const passed =
    Object.values(results).length === 4 &&
    Object.values(results).every(Boolean) &&
    figures.mismatches === 0 &&
    figures.unexpectedAnswers === 0;
  writeHardeningResult({
    suite: 'payments',
    title: 'Payments: webhook replay, out-of-order events, forged signatures',
    passed,
    figures: [
      { name: 'Random event sequences', value: figures.sequences },
      { name: 'Signed events delivered', value: figures.delivered },
      { name: 'Events applied once', value: figures.applied },
      { name: 'Replays of an applied event (answered duplicate, nothing changed)', value: figures.replays },
      { name: 'Concurrent duplicate deliveries (applied exactly once)', value: figures.concurrentDuplicates },
      { name: 'Forged, tampered, stale or missing signatures (400, nothing changed)', value: figures.forged },
      { name: 'Out-of-order renewals (invoice orders tried)', value: figures.permutations },
      { name: 'Events for a payment not on record (refused, nothing changed)', value: figures.refused },
      { name: 'State differing from the model', value: figures.mismatches, target: '0' },
      { name: 'Unexpected answers', value: figures.unexpectedAnswers, target: '0' },
    ],
    notes: [
      'Model of a one-time link: Pending → Failed on payment_failed, → Complete on succeeded; Complete is final (a stale payment_failed after the payment changes nothing); a replayed event id is answered `duplicate: true` and changes nothing.',
      'Recurring links: the same invoice.paid / invoice.payment_failed events in every delivered order give the same end state (Complete until the latest period end; a first invoice that failed only counts while nothing is paid); an event whose payment is not the one on record (no checkout opened, another payment id, another amount or currency) is recorded as refused and changes nothing.',
      'Signatures: Stripe.webhooks.generateTestHeaderString with the right secret; forged = wrong secret, tampered body, timestamp outside the 300 s tolerance, garbage header, or none.',
    ],
  });
}
