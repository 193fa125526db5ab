import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TruncatedText } from './truncated-text.tsx';

/** jsdom lays nothing out: the text's drawn width against its box is given here. */
function drawn(scrollWidth: number, clientWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scrollWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(clientWidth);
}
afterEach(() => vi.restoreAllMocks());

describe('TruncatedText', () => {
  it('is a tab stop only when cut, and then shows the whole text on focus until Escape', async () => {
    drawn(300, 120);
    render(<TruncatedText text="A remark longer than its column" />);
    const text = screen.getByText('A remark longer than its column', { selector: '.truncated-text' });
    expect(text.getAttribute('tabindex')).toBe('0');
    await userEvent.tab();
    expect(document.activeElement).toBe(text);
    const bubble = document.querySelector('.truncated-text-bubble');
    expect(bubble?.textContent).toBe('A remark longer than its column');
    // Drawn only: a screen reader has read the cell's own words.
    expect(bubble?.getAttribute('aria-hidden')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(document.querySelector('.truncated-text-bubble')).toBeNull();
    expect(document.activeElement).toBe(text);
  });

  it('shows the whole text while hovered, and hides it when the page scrolls', () => {
    drawn(300, 120);
    render(<TruncatedText text="clinic-with-a-long-name@example.com" />);
    const text = screen.getByText('clinic-with-a-long-name@example.com', { selector: '.truncated-text' });
    fireEvent.mouseEnter(text);
    expect(document.querySelector('.truncated-text-bubble')).not.toBeNull();
    fireEvent.scroll(window);
    expect(document.querySelector('.truncated-text-bubble')).toBeNull();
  });

  it('is plain text when it fits: no tab stop, no bubble', () => {
    drawn(80, 120);
    render(<TruncatedText text="Short" />);
    const text = screen.getByText('Short');
    expect(text.getAttribute('tabindex')).toBeNull();
    fireEvent.mouseEnter(text);
    expect(document.querySelector('.truncated-text-bubble')).toBeNull();
  });
});
