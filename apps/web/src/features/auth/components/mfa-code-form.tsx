import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { FormField } from '#web/components/form-field.tsx';
import { signInFailureMessage } from './sign-in-submit.ts';

type Props = {
  /** The contract schema of the `code` field (TOTP only at enrolment, TOTP or recovery code at sign-in). */
  schema: z.ZodType<{ code: string }, { code: string }>;
  label: string;
  hint: string;
  submitLabel: string;
  /** Throws the API error on a wrong code: its message goes under the field. */
  onCode: (code: string) => Promise<void>;
};

/** One code field and a button; the field has focus, as the admin has just switched to the app. */
export function MfaCodeForm({ schema, label, hint, submitLabel, onCode }: Props) {
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<{ code: string }>({ resolver: zodResolver(schema), defaultValues: { code: '' } });

  useEffect(() => setFocus('code'), [setFocus]);

  const submit = async ({ code }: { code: string }) => {
    try {
      await onCode(code);
    } catch (error) {
      setError('code', { message: signInFailureMessage(error) }, { shouldFocus: true });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(submit)}>
      <FormField
        label={label}
        hint={hint}
        autoComplete="one-time-code"
        spellCheck={false}
        autoCapitalize="off"
        maxLength={32}
        error={errors.code?.message}
        {...register('code')}
      />
      <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
        {isSubmitting ? 'Checking...' : submitLabel}
      </button>
    </form>
  );
}
