import { toast, type ExternalToast } from 'sonner';

/**
 * The one way the console shows toasts (SPEC 4: success, info, warning, error, loading; dismissible,
 * top-right). The <Toaster> that displays them is mounted once at the root.
 */
export type NotifyOptions = ExternalToast;
export type ToastId = string | number;

export const notify = {
  success: (message: string, options?: NotifyOptions) => toast.success(message, options),
  info: (message: string, options?: NotifyOptions) => toast.info(message, options),
  warning: (message: string, options?: NotifyOptions) => toast.warning(message, options),
  error: (message: string, options?: NotifyOptions) => toast.error(message, options),
  /** Stays until replaced: pass its id to success/error, or dismiss it. */
  loading: (message: string, options?: NotifyOptions) => toast.loading(message, options),
  dismiss: (id?: ToastId) => toast.dismiss(id),
};
