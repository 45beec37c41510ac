import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import userSchema from '../../../schemas/entities/user.schema.json';
import groupSchema from '../../../schemas/entities/group.schema.json';
import usersDescriptor from '../../../schemas/screens/users.screen.json';
import groupsDescriptor from '../../../schemas/screens/groups.screen.json';
import type { FormDescriptor, JsonSchema } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { SchemaForm } from './SchemaForm';
import { REQUIRED_MESSAGE } from '../messages';
import { createRegistry } from '../registry';

type Props = {
  form: FormDescriptor;
  schema: JsonSchema;
  mode?: 'create' | 'edit';
  initial?: Row;
  onSubmit?: (p: Row) => void;
};

/** SchemaForm is controlled; the harness keeps its data the way the form model does. */
function Harness({ form, schema, mode = 'create', initial = {}, onSubmit = () => {} }: Props) {
  const [data, setData] = useState<Row>(initial);
  return (
    <SchemaForm
      form={form}
      entitySchema={schema}
      mode={mode}
      formData={data}
      onChange={setData}
      onSubmit={onSubmit}
      choices={{ groups: ['readers', 'writers'] }}
    >
      <button type="submit">Save</button>
    </SchemaForm>
  );
}

const userForm = usersDescriptor.form as FormDescriptor;
const groupForm = groupsDescriptor.form as FormDescriptor;

describe('SchemaForm with the real user schema', () => {
  it('shows "Please enter a valid email" for a bad email and does not submit', async () => {
    const onSubmit = vi.fn();
    render(<Harness form={userForm} schema={userSchema} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText(/User Name/), 'jo');
    await userEvent.type(screen.getByLabelText(/Email Address/), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a valid email')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("saves the seeded admin's record: an address on a single-label host is valid", async () => {
    const onSubmit = vi.fn();
    const admin = { name: 'admin', email: 'admin@localhost', admin: true };
    render(
      <Harness
        form={userForm}
        schema={userSchema}
        mode="edit"
        initial={admin}
        onSubmit={onSubmit}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(screen.queryByText('Please enter a valid email')).toBeNull();
  });

  it('says "You must fill in this field" for empty required fields', async () => {
    render(<Harness form={userForm} schema={userSchema} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // name, email, and the password that is required on create
    expect((await screen.findAllByText(REQUIRED_MESSAGE)).length).toBe(3);
  });

  it('rejects illegal name characters and a short password with the schema wording', async () => {
    render(<Harness form={userForm} schema={userSchema} />);
    await userEvent.type(screen.getByLabelText(/User Name/), 'jo doe!');
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name contains illegal characters')).toBeTruthy();
    expect(screen.getByText('Password is not satisfy the policy')).toBeTruthy();
  });

  it('asks for the password twice and says "Password fields must be equal"', async () => {
    render(<Harness form={userForm} schema={userSchema} />);
    await userEvent.type(screen.getByLabelText(/^Password/), 'password123');
    await userEvent.type(screen.getByLabelText(/Retype Password/), 'password124');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Password fields must be equal')).toBeTruthy();
  });

  it('submits valid data without the retype field and without read-only properties', async () => {
    const onSubmit = vi.fn();
    render(<Harness form={userForm} schema={userSchema} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText(/User Name/), 'jo');
    await userEvent.type(screen.getByLabelText(/Email Address/), 'jo@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'password123');
    await userEvent.type(screen.getByLabelText(/Retype Password/), 'password123');
    await userEvent.click(screen.getByRole('checkbox', { name: 'readers' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const payload = onSubmit.mock.calls[0][0];
    expect(payload).toMatchObject({
      name: 'jo',
      email: 'jo@example.com',
      password: 'password123',
      groups: ['readers'],
    });
    expect(Object.keys(payload).some((k) => k.startsWith('_'))).toBe(false);
    expect(screen.queryByLabelText(/Last Login/)).toBeNull();
  });

  it('on edit, disables the name and does not require a password', async () => {
    const onSubmit = vi.fn();
    render(
      <Harness
        form={userForm}
        schema={userSchema}
        mode="edit"
        initial={{ name: 'jo', email: 'jo@example.com' }}
        onSubmit={onSubmit}
      />,
    );
    expect((screen.getByLabelText(/User Name/) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'jo', email: 'jo@example.com' }),
    );
    expect(onSubmit.mock.calls[0][0].password).toBeUndefined();
  });

  it('shows a server message on the field it names', () => {
    render(
      <SchemaForm
        form={userForm}
        entitySchema={userSchema}
        mode="create"
        formData={{ name: 'jo' }}
        onChange={() => {}}
        onSubmit={() => {}}
        serverErrors={{ name: ["User 'jo' already exists"] }}
      >
        <button type="submit">Save</button>
      </SchemaForm>,
    );
    expect(screen.getByText("User 'jo' already exists")).toBeTruthy();
  });
});

describe('SchemaForm with the real group schema', () => {
  it('rejects a group name with a slash', async () => {
    render(<Harness form={groupForm} schema={groupSchema} />);
    await userEvent.type(screen.getByLabelText(/Group Name/), 'a/b');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name contains illegal characters')).toBeTruthy();
  });

  it('throws, naming it, when the uiSchema asks for an unregistered widget', () => {
    const form = { ...groupForm, uiSchema: { description: { 'ui:widget': 'colourWheel' } } };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() =>
      render(
        <SchemaForm
          form={form}
          entitySchema={groupSchema}
          mode="create"
          formData={{}}
          widgets={createRegistry<never>('widget', {})}
          onChange={() => {}}
          onSubmit={() => {}}
        >
          <button type="submit">Save</button>
        </SchemaForm>,
      ),
    ).toThrow('No widget named "colourWheel" is registered');
  });
});
