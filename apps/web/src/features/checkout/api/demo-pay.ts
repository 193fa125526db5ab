import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

export type DemoPayBody = {
  subcriptionId: string;
  clientSecret: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
};

/** POST subscription/demo-pay: the built-in provider decides by Stripe's test card numbers. */
export const demoPay = (body: DemoPayBody) =>
  apiClient.post<{ status: 'succeeded' }>(apiPaths.subscriptionDemoPay, body);
