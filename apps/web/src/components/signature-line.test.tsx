import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Signature } from '@app/contract/signatures';
import { formatDateTime } from '../lib/format.ts';
import { SignatureLine, SignatureLines } from './signature-line.tsx';

const hash = 'a1b2c3d4e5f6'.padEnd(64, '7');
const signature: Signature = {
  id: 's1',
  signerName: 'Ada Signer',
  signerEmail: 'ada@example.com',
  meaning: 'approval',
  signedAt: '2026-11-29T08:12:30.000Z',
  contentHash: hash,
};

afterEach(() => vi.restoreAllMocks());

describe('SignatureLine', () => {
  it('says who signed, when and what it means, with the hash shortened on screen and whole for screen readers', () => {
    render(<SignatureLine signature={signature} />);
    const time = formatDateTime(signature.signedAt);
    expect(screen.getByText(`Signed by Ada Signer · ${time} · Approval`)).toBeTruthy();
    expect(screen.getByText('a1b2c3d4e5f6…')).toBeTruthy();
    expect(screen.queryByText(hash)).toBeNull();
    const spoken = screen.getByText(`Content hash ${hash}`);
    expect(spoken.className).toBe('visually-hidden');
    // The shortened hash is hidden from screen readers, which read the whole one instead.
    expect(screen.getByText('a1b2c3d4e5f6…').closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('copies the whole hash by keyboard', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    render(
      <>
        <SignatureLine signature={signature} />
        <Toaster />
      </>,
    );
    await user.tab();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: "Copy the content hash of Ada Signer's signature" }),
    );
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledWith(hash);
    expect(await screen.findByText('Hash copied')).toBeTruthy();
  });
});

describe('SignatureLines', () => {
  it('lists a record’s signatures in order, and nothing for an unsigned record', () => {
    const { rerender } = render(
      <SignatureLines
        signatures={[signature, { ...signature, id: 's2', signerName: 'Bo Reviewer', meaning: 'review' }]}
      />,
    );
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('Signed by Ada Signer');
    expect(items[1]).toMatch(/Signed by Bo Reviewer · .* · Review/);
    rerender(<SignatureLines signatures={[]} />);
    expect(screen.queryByRole('list', { name: 'Signatures' })).toBeNull();
  });
});
