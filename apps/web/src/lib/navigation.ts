/**
 * Route changes from outside React (the 401 rule, the logout timer). The router's root registers
 * its navigate; before that (or in a test without a router) a full page load does the job.
 */
type Navigate = (to: string) => void;

const pageLoad: Navigate = (to) => window.location.assign(to);
let current: Navigate = pageLoad;

export function setNavigator(navigate: Navigate) {
  current = navigate;
  return () => {
    if (current === navigate) current = pageLoad;
  };
}

export function navigateTo(to: string) {
  current(to);
}
