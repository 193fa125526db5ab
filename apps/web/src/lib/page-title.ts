/** docs/product.md §1: the product's title, for a page without one of its own. */
export const DEFAULT_TITLE = 'Device Admin Console';

/** docs/product.md §1: '<page title> | ADMIN', or the product's title for a page without one. */
export const pageTitle = (title?: string) => (title ? `${title} | ADMIN` : DEFAULT_TITLE);
