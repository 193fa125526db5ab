import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

type Common = {
  label: string;
  /** The validation message shown under the control. */
  error?: string;
  hint?: ReactNode;
  /** Rendered after the control in an input group (a show-password button, a unit). */
  append?: ReactNode;
  /** Classes for the wrapper (default 'mb-3'). */
  wrapperClassName?: string;
};

type InputFieldProps = Common & {
  as?: 'input';
  ref?: Ref<HTMLInputElement>;
} & InputHTMLAttributes<HTMLInputElement>;
type SelectFieldProps = Common & {
  as: 'select';
  ref?: Ref<HTMLSelectElement>;
} & SelectHTMLAttributes<HTMLSelectElement>;
type TextareaFieldProps = Common & {
  as: 'textarea';
  ref?: Ref<HTMLTextAreaElement>;
} & TextareaHTMLAttributes<HTMLTextAreaElement>;

export type FormFieldProps = InputFieldProps | SelectFieldProps | TextareaFieldProps;

/**
 * Label, control and its error: spread react-hook-form's register into it.
 *   <FormField label="Email" type="email" error={errors.email?.message} {...register('email')} />
 */
export function FormField(props: FormFieldProps) {
  const generated = useId();
  const {
    label,
    error,
    hint,
    append,
    wrapperClassName = 'mb-3',
    id: givenId,
    className = '',
    ...rest
  } = props;
  const id = givenId ?? `${generated}-${rest.name ?? 'field'}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [rest['aria-describedby'], hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') ||
    undefined;
  const a11y = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;

  let control: ReactNode;
  if (rest.as === 'select') {
    const { as: _as, ...selectProps } = rest;
    control = (
      <select
        {...selectProps}
        {...a11y}
        className={`form-select${error ? ' is-invalid' : ''} ${className}`}
      />
    );
  } else if (rest.as === 'textarea') {
    const { as: _as, ...textareaProps } = rest;
    control = (
      <textarea
        {...textareaProps}
        {...a11y}
        className={`form-control${error ? ' is-invalid' : ''} ${className}`}
      />
    );
  } else {
    const { as: _as, ...inputProps } = rest;
    control = (
      <input {...inputProps} {...a11y} className={`form-control${error ? ' is-invalid' : ''} ${className}`} />
    );
  }

  return (
    <div className={wrapperClassName}>
      <label htmlFor={id} className="form-label">
        {label}
        {rest.required ? (
          <span className="text-danger" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {append ? (
        <div className={`input-group${error ? ' has-validation' : ''}`}>
          {control}
          {append}
        </div>
      ) : (
        control
      )}
      {hint ? (
        <div id={hintId} className="form-text">
          {hint}
        </div>
      ) : null}
      {error ? (
        <div id={errorId} className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </div>
  );
}
