import { useEffect, useRef, useState } from 'react';
import { apiPaths } from '@app/contract/paths';
import type { PaymentProviderName } from '@app/contract/checkout';
import { apiClient } from '#web/lib/api-client.ts';

export type PaymentIntent = { clientSecret: string; provider: PaymentProviderName };

/** POST subscription/checkout {subcriptionId} → {clientSecret}; the amount is the server's, never the browser's. */
export async function createPaymentIntent(subscriptionId: string): Promise<PaymentIntent> {
  const response = await apiClient.post<PaymentIntent>(apiPaths.checkout, { subcriptionId: subscriptionId });
  return response.data;
}

export type PaymentIntentState =
  { status: 'pending' } | { status: 'success'; data: PaymentIntent } | { status: 'error'; error: unknown };

/**
 * Made when the payment step opens, again each time it reopens (the server hands back the same open
 * intent), and never kept: a stale secret must not be reused after a payment. One request per opening,
 * also under StrictMode's second effect run. The payment step shows the error itself.
 */
export function usePaymentIntent(subscriptionId: string): PaymentIntentState {
  const [state, setState] = useState<PaymentIntentState>({ status: 'pending' });
  const request = useRef<Promise<PaymentIntent> | null>(null);
  useEffect(() => {
    let live = true;
    request.current ??= createPaymentIntent(subscriptionId);
    request.current.then(
      (data) => live && setState({ status: 'success', data }),
      (error: unknown) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [subscriptionId]);
  return state;
}
