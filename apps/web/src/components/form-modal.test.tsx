import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { zodResolver } from '@hookform/resolvers/zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../lib/api-client.ts';
import { notify } from '../lib/notify.ts';
import { FormModal, useFormModal } from './form-modal.tsx';

const schema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  kind: z.string().min(1, 'Kind is required'),
});
type Thing = { name: string; kind: string };
const blank: Thing = { name: '', kind: '' };
const fromThing = (thing: Thing) => thing;
const kinds = (
  <>
    <option value="">Select kind</option>
    <option value="round">Round</option>
  </>
);

type HarnessProps = {
  show?: boolean;
  thing?: Thing | null;
  onSave?: (body: Thing) => Promise<{ msg?: string }>;
  onClose?: () => void;
  columns?: 1 | 2;
};

function Harness({
  show = true,
  thing,
  onSave = async () => ({}),
  onClose = () => {},
  columns,
}: HarnessProps) {
  const form = useFormModal({
    show,
    resolver: zodResolver(schema),
    blank,
    record: thing,
    valuesOf: fromThing,
    columns,
  });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title="Add Thing"
      submitLabel="Save Thing"
      pending={false}
      onSave={onSave}
      saved="Thing saved"
      fieldOfError={(error) => (error.status === 409 ? 'name' : undefined)}
    >
      {form.field('name', 'Name')}
      {form.select('kind', 'Kind', kinds, 'What shape it is')}
    </FormModal>
  );
}

const name = () => screen.getByLabelText<HTMLInputElement>(/^Name/);
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save Thing' }));
const fill = async () => {
  await userEvent.type(name(), '  Ann ');
  await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'round');
};

afterEach(() => vi.restoreAllMocks());

describe('FormModal', () => {
  it('opens blank to add and holding the record to edit, afresh each time it opens', async () => {
    const { rerender } = render(<Harness />);
    await userEvent.type(name(), 'typed');
    rerender(<Harness show={false} />);
    rerender(<Harness />);
    expect(name().value).toBe('');
    rerender(<Harness thing={{ name: 'Bob', kind: 'round' }} />);
    expect(name().value).toBe('Bob');
  });

  it("shows the schema's messages under their fields, and saves nothing while they stand", async () => {
    const onSave = vi.fn(async () => ({}));
    render(<Harness onSave={onSave} />);
    await save();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(name().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Kind is required')).toBeTruthy();
    expect(screen.getByText('What shape it is')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it("saves the checked values, toasts the answer's message or its own, and closes", async () => {
    const success = vi.spyOn(notify, 'success');
    const onClose = vi.fn();
    const onSave = vi.fn(async () => ({ msg: 'Created by the server' }));
    const { rerender } = render(<Harness onSave={onSave} onClose={onClose} />);
    await fill();
    await save();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith({ name: 'Ann', kind: 'round' });
    expect(success).toHaveBeenLastCalledWith('Created by the server');
    rerender(<Harness onSave={async () => ({ msg: '' })} onClose={onClose} />);
    await fill();
    await save();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    expect(success).toHaveBeenLastCalledWith('Thing saved');
  });

  it('puts a refusal that names a field under it, toasts any other, and stays open', async () => {
    const error = vi.spyOn(notify, 'error');
    const onClose = vi.fn();
    const { rerender } = render(
      <Harness onClose={onClose} onSave={() => Promise.reject(new ApiError(409, 'That name is taken'))} />,
    );
    await fill();
    await save();
    expect(await screen.findByText('That name is taken')).toBeTruthy();
    expect(name().getAttribute('aria-describedby')).toContain(
      screen.getByText('That name is taken').getAttribute('id'),
    );
    expect(error).not.toHaveBeenCalled();
    rerender(<Harness onClose={onClose} onSave={() => Promise.reject(new ApiError(500, 'It broke'))} />);
    await save();
    await waitFor(() => expect(error).toHaveBeenCalledWith('It broke'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Add Thing' })).toBeTruthy();
  });

  it('lays the fields two a row in a large dialog with two columns, one a row by default', () => {
    const { rerender } = render(<Harness columns={2} />);
    expect(screen.getByRole('dialog').querySelector('.modal-dialog.modal-lg')).toBeTruthy();
    expect(name().closest('.col-md-6')).toBeTruthy();
    rerender(<Harness />);
    expect(screen.getByRole('dialog').querySelector('.modal-lg')).toBeNull();
    expect(name().closest('.col-md-6')).toBeNull();
  });
});
