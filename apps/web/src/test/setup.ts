import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Lazy routes compile on first use in a cold test run: give findBy/waitFor room.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  document.title = '';
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
