/**
 * Marks an element directly in <body> that stays usable while a modal is open (the toasts).
 * A module of its own: the toaster is on every screen, and importing it from components/modal.tsx
 * put the whole dialog on the sign-in screen's first load.
 */
export const outsideModalsAttribute = 'data-outside-modals';
