import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { FormField } from './form-field.tsx';

function RoleForm() {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ roleName: string; type: string }>({ defaultValues: { roleName: '', type: '' } });
  return (
    <form noValidate onSubmit={handleSubmit(() => {})}>
      <FormField
        label="Role Name"
        error={errors.roleName?.message}
        {...register('roleName', { required: 'Role Name is required' })}
      />
      <FormField
        as="select"
        label="Type"
        hint="App or Web"
        error={errors.type?.message}
        {...register('type', { required: 'Type is required' })}
      >
        <option value="">Select</option>
        <option value="admin">Web</option>
      </FormField>
      <button type="submit">Save</button>
    </form>
  );
}

describe('FormField', () => {
  it('labels the control and ties the error under it with aria-invalid and aria-describedby', async () => {
    render(<RoleForm />);
    const name = screen.getByLabelText('Role Name');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Role Name is required')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Role Name is required',
    );
    const type = screen.getByRole('combobox', { name: 'Type' });
    expect(
      type
        .getAttribute('aria-describedby')!
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent),
    ).toEqual(['App or Web', 'Type is required']);
    await userEvent.type(name, 'Support');
    expect(screen.queryByText('Role Name is required')).toBeNull();
  });
});
