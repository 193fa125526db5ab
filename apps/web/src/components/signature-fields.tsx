import { useQuery } from '@tanstack/react-query';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import type { MfaStatus } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import {
  signatureInputSchema,
  signatureMeaningLabels,
  signatureMeanings,
  signatureMessages,
  type SignatureMeaning,
} from '@app/contract/signatures';
import { apiClient, type ApiError } from '../lib/api-client.ts';
import { createQueryKeys } from '../lib/query-keys.ts';
import { FormField } from './form-field.tsx';

/*
 * The fields of an electronic signature (decision 083), for a FormModal whose form holds
 * `signature`: the meaning from the list, the signer's password, and the code when their two-step
 * sign-in is on. The form's schema takes `signature: signatureFormSchema`; `blankSignature` fills it;
 * `signatureErrorField` puts the API's refusal (a wrong password or code) under its field.
 */

export type SignatureFormValues = { meaning: string; password: string; code: string };
export const blankSignature: SignatureFormValues = { meaning: '', password: '', code: '' };

const { shape } = signatureInputSchema;

/** The form's values to the API's `signature`: an empty code is no code; a meaning must be chosen. */
export const signatureFormSchema = z.object({
  meaning: z.string().min(1, signatureMessages.meaningRequired).pipe(shape.meaning),
  password: shape.password,
  code: z
    .string()
    .transform((v) => v.replace(/\s/g, ''))
    .pipe(
      z.union([
        z.literal('').transform(() => undefined),
        z.string().regex(/^\d{6}$/, signatureMessages.codeFormat),
      ]),
    ),
});

type SignaturePath = 'signature.meaning' | 'signature.password' | 'signature.code';
const paths: readonly string[] = ['signature.meaning', 'signature.password', 'signature.code'];

/** The signature field a refused save is about (`data.errors[0].path`), if it is one. */
export function signatureErrorField(error: ApiError): SignaturePath | undefined {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  return error.status === 400 && typeof path === 'string' && paths.includes(path)
    ? (path as SignaturePath)
    : undefined;
}

// The profile's own key for the admin's two-step status: one cache, refreshed when it changes there.
const mfaKey = createQueryKeys('profile').detail('mfa');

/** Whether the signed-in admin's two-step sign-in is on, so a signature asks for the code. */
export function useSignerNeedsCode(): boolean {
  const status = useQuery({
    queryKey: mfaKey,
    queryFn: async ({ signal }) => (await apiClient.get<MfaStatus>(apiPaths.profileMfa, { signal })).data,
  });
  return status.data?.enabled === true;
}

type WithSignature = { signature: SignatureFormValues };

export function SignatureFields<T extends FieldValues>({
  form,
  meanings = signatureMeanings,
  legend = 'Electronic signature',
}: {
  form: UseFormReturn<T, unknown, unknown>;
  /** The meanings this record may be signed with, in the order offered (default: all). */
  meanings?: readonly SignatureMeaning[];
  legend?: string;
}) {
  const needsCode = useSignerNeedsCode();
  const f = form as unknown as UseFormReturn<WithSignature, unknown, unknown>;
  const errors = f.formState.errors.signature;
  return (
    <fieldset className="border rounded p-3 mb-3">
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-2">{legend}</legend>
      <p className="small text-body-secondary">
        Your password signs this with your name, the time and the meaning you choose.
      </p>
      <FormField
        as="select"
        label="Meaning"
        required
        error={errors?.meaning?.message}
        {...f.register('signature.meaning')}
      >
        <option value="">Choose the meaning</option>
        {meanings.map((m) => (
          <option key={m} value={m}>
            {signatureMeaningLabels[m]}
          </option>
        ))}
      </FormField>
      <FormField
        label="Your password"
        type="password"
        autoComplete="current-password"
        required
        error={errors?.password?.message}
        {...f.register('signature.password')}
      />
      {needsCode || errors?.code ? (
        <FormField
          label="Your code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          hint="The 6 digits from your authenticator app"
          error={errors?.code?.message}
          {...f.register('signature.code')}
        />
      ) : null}
    </fieldset>
  );
}
