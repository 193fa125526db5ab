import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LazyToaster } from './lazy-toaster.tsx';
import { loadedToasts, notify } from '../lib/notify.ts';

// One file, one module state: the first test runs before sonner has loaded, the rest after.
describe('notify', () => {
  it('queues toasts fired before sonner loads and shows them in order, top-right and dismissible', async () => {
    expect(loadedToasts()).toBeNull();
    const { container } = render(<LazyToaster />);
    expect(container.innerHTML).toBe('');

    const working = notify.loading('Working on it');
    const dropped = notify.info('Never shown');
    notify.dismiss(dropped);
    notify.success('Saved', { id: working });
    notify.error('Could not save');
    expect(working).not.toBe(dropped);

    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(screen.getByText('Could not save')).toBeTruthy();
    expect(screen.queryByText('Working on it')).toBeNull();
    expect(screen.queryByText('Never shown')).toBeNull();
    const toaster = document.querySelector('[data-sonner-toaster]')!;
    expect(toaster.getAttribute('data-y-position')).toBe('top');
    expect(toaster.getAttribute('data-x-position')).toBe('right');
    expect(screen.getAllByRole('button', { name: 'Close toast' })).toHaveLength(2);
    notify.dismiss();
    await waitFor(() => expect(screen.queryByText('Saved')).toBeNull());
  });

  it('shows each of the five types once sonner is there', async () => {
    expect(loadedToasts()).not.toBeNull();
    render(<LazyToaster />);
    notify.success('A success');
    notify.info('An info');
    notify.warning('A warning');
    notify.error('An error');
    notify.loading('A loading');
    const types = await Promise.all(
      ['A success', 'An info', 'A warning', 'An error', 'A loading'].map(async (text) =>
        (await screen.findByText(text)).closest('[data-sonner-toast]')?.getAttribute('data-type'),
      ),
    );
    expect(types).toEqual(['success', 'info', 'warning', 'error', 'loading']);
    notify.dismiss();
  });
});
