import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { zodResolver } from '@hookform/resolvers/zod';
import { Toaster } from 'sonner';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signatureMessages, type SignatureInput } from '@app/contract/signatures';
import { ApiError } from '../lib/api-client.ts';
import { ok } from '../test/fixtures.ts';
import { serveTestApi } from '../test/test-api.ts';
import { FormModal, useFormModal } from './form-modal.tsx';
import {
  blankSignature,
  SignatureFields,
  signatureErrorField,
  signatureFormSchema,
  type SignatureFormValues,
} from './signature-fields.tsx';

let twoStepOn = false;
serveTestApi((_request, url) =>
  url.pathname === '/api/v1/admin/profile/mfa'
    ? ok({ enabled: twoStepOn, recoveryCodesLeft: twoStepOn ? 10 : 0, required: false })
    : { status: 404, body: { code: 404, msg: 'Route not found', data: null } },
);

const schema = z.object({ signature: signatureFormSchema });
type Input = { signature: SignatureFormValues };
const blank: Input = { signature: blankSignature };

function Harness({ onSave }: { onSave: (body: { signature: SignatureInput }) => Promise<{ msg?: string }> }) {
  const form = useFormModal({ show: true, resolver: zodResolver(schema), blank });
  return (
    <FormModal
      form={form}
      show
      onClose={() => {}}
      title="Sign it"
      submitLabel="Sign"
      pending={false}
      onSave={onSave}
      saved="Signed"
      fieldOfError={signatureErrorField}
    >
      <SignatureFields form={form} />
    </FormModal>
  );
}

function renderHarness(onSave: (body: { signature: SignatureInput }) => Promise<{ msg?: string }>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness onSave={onSave} />
      <Toaster />
    </QueryClientProvider>,
  );
  return within(screen.getByRole('dialog', { name: 'Sign it' }));
}

describe('SignatureFields', () => {
  it('offers the four meanings and signs with the meaning and password; no code without two-step sign-in', async () => {
    twoStepOn = false;
    const user = userEvent.setup();
    const sent: { signature: SignatureInput }[] = [];
    const dialog = renderHarness(async (body) => {
      sent.push(body);
      return {};
    });
    const meaning = dialog.getByLabelText(/Meaning/);
    expect(
      within(meaning)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose the meaning', 'Approval', 'Review', 'Responsibility', 'Authorship']);
    expect(dialog.getByRole('group', { name: 'Electronic signature' })).toBeTruthy();
    await user.selectOptions(meaning, 'Review');
    await user.tab();
    // Enter in the password field signs.
    await user.keyboard('My-Passw0rd!{Enter}');
    expect(await screen.findByText('Signed')).toBeTruthy();
    expect(sent).toEqual([{ signature: { meaning: 'review', password: 'My-Passw0rd!' } }]);
    expect(dialog.queryByLabelText(/Your code/)).toBeNull();
  });

  it('says under each field what is missing, and sends nothing', async () => {
    twoStepOn = false;
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const dialog = renderHarness(async (body) => (sent.push(body), {}));
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    const meaning = dialog.getByLabelText(/Meaning/);
    expect(await dialog.findByText(signatureMessages.meaningRequired)).toBeTruthy();
    expect(meaning.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByText(signatureMessages.passwordRequired)).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('asks for the code when the signer has two-step sign-in, and shows a wrong password under its field', async () => {
    twoStepOn = true;
    const user = userEvent.setup();
    const sent: { signature: SignatureInput }[] = [];
    const dialog = renderHarness(async (body) => {
      sent.push(body);
      throw new ApiError(400, signatureMessages.passwordWrong, {
        errors: [{ path: 'signature.password', message: signatureMessages.passwordWrong }],
      });
    });
    const code = await dialog.findByLabelText(/Your code/);
    await user.selectOptions(dialog.getByLabelText(/Meaning/), 'Approval');
    await user.type(dialog.getByLabelText(/Your password/), 'Wrong-Passw0rd');
    await user.type(code, '12 34 56');
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    const error = await dialog.findByText(signatureMessages.passwordWrong);
    const password = dialog.getByLabelText(/Your password/);
    expect(password.getAttribute('aria-describedby')).toContain(error.id);
    expect(sent).toEqual([
      { signature: { meaning: 'approval', password: 'Wrong-Passw0rd', code: '123456' } },
    ]);
  });
});
