import { useId, useLayoutEffect, type InputHTMLAttributes, type ReactNode } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { ApiError, notifyError } from '../lib/api-client.ts';
import { notify } from '../lib/notify.ts';
import { FormField } from './form-field.tsx';
import { Modal } from './modal.tsx';
import { ModalFormFooter } from './modal-form-footer.tsx';

/*
 * The one skeleton of a dialog that adds or edits a record (User, Role, Device, Subscription):
 * `useFormModal` is its react-hook-form, checked by the contract's schema and filled afresh each
 * time the dialog opens; `FormModal` is the dialog around it, with Cancel and the save button,
 * which saves, toasts the API's message, closes, and puts a refusal that names a field under that
 * field (a taken name) where every other refusal is a toast.
 */

type InputExtras = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'autoComplete' | 'readOnly' | 'required'
>;

type FormModalOptions<TInput extends FieldValues, TBody, TRecord> = {
  show: boolean;
  resolver: Resolver<TInput, unknown, TBody>;
  /** What the form holds when the dialog opens to add a record. */
  blank: TInput;
  /** The record being edited, if any: the dialog opens holding `valuesOf(record)`. */
  record?: TRecord | null;
  /** Keep it stable (a module-level function): the form is filled again when it changes. */
  valuesOf?: (record: TRecord) => TInput;
  /** Two fields a row on wide screens, in a large dialog; one by default. */
  columns?: 1 | 2;
};

export type FormModalForm<TInput extends FieldValues, TBody> = UseFormReturn<TInput, unknown, TBody> & {
  columns: 1 | 2;
  /** A required input for `name`, with its label and its error under it. */
  field: (name: Path<TInput>, label: string, extras?: InputExtras) => ReactNode;
  /** A required select for `name`; `options` are its `<option>`s. */
  select: (name: Path<TInput>, label: string, options: ReactNode, hint?: ReactNode) => ReactNode;
};

export function useFormModal<TInput extends FieldValues, TBody, TRecord = never>({
  show,
  resolver,
  blank,
  record,
  valuesOf,
  columns = 1,
}: FormModalOptions<TInput, TBody, TRecord>): FormModalForm<TInput, TBody> {
  const form = useForm<TInput, unknown, TBody>({ resolver, defaultValues: blank as DefaultValues<TInput> });
  const { reset, register, getFieldState, formState } = form;

  // Before the browser paints the opened dialog, so no keystroke can land first and be wiped.
  useLayoutEffect(() => {
    if (show) reset(record && valuesOf ? valuesOf(record) : blank);
  }, [show, record, valuesOf, blank, reset]);

  const wrapperClassName = columns === 2 ? 'col-md-6 mb-3' : undefined;
  const error = (name: Path<TInput>) => getFieldState(name, formState).error?.message;
  return {
    ...form,
    columns,
    field: (name, label, extras) => (
      <FormField
        label={label}
        required
        autoComplete="off"
        wrapperClassName={wrapperClassName}
        error={error(name)}
        {...extras}
        {...register(name)}
      />
    ),
    select: (name, label, options, hint) => (
      <FormField
        as="select"
        label={label}
        required
        wrapperClassName={wrapperClassName}
        error={error(name)}
        hint={hint}
        {...register(name)}
      >
        {options}
      </FormField>
    ),
  };
}

type FormModalProps<TInput extends FieldValues, TBody> = {
  form: FormModalForm<TInput, TBody>;
  show: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  /** The save is under way (the mutation's isPending): both buttons wait. */
  pending: boolean;
  /** Saves the checked values; the answer's msg is the success toast. */
  onSave: (body: TBody) => Promise<{ msg?: string }>;
  /** The success toast when the answer carries no msg. */
  saved: string;
  /** The field an API refusal belongs under (a name already taken); none: the refusal is a toast. */
  fieldOfError?: (error: ApiError) => Path<TInput> | undefined;
  children: ReactNode;
};

export function FormModal<TInput extends FieldValues, TBody>({
  form,
  show,
  onClose,
  title,
  submitLabel,
  pending,
  onSave,
  saved,
  fieldOfError,
  children,
}: FormModalProps<TInput, TBody>) {
  const id = useId();
  const submit = form.handleSubmit(async (body) => {
    try {
      const response = await onSave(body);
      notify.success(response.msg || saved);
      onClose();
    } catch (error) {
      const field = error instanceof ApiError ? fieldOfError?.(error) : undefined;
      if (field) form.setError(field, { message: (error as ApiError).msg });
      else notifyError(error);
    }
  });

  return (
    <Modal
      show={show}
      onClose={onClose}
      title={title}
      size={form.columns === 2 ? 'lg' : undefined}
      staticBackdrop
      footer={<ModalFormFooter onCancel={onClose} pending={pending} submitLabel={submitLabel} form={id} />}
    >
      <form id={id} noValidate onSubmit={submit} className={form.columns === 2 ? 'row' : undefined}>
        {children}
      </form>
    </Modal>
  );
}
