import { describe, expect, it } from 'vitest';
import userSchema from '../../../schemas/entities/user.schema.json';
import usersDescriptor from '../../../schemas/screens/users.screen.json';
import type { FormDescriptor } from '../../api/descriptor';
import { buildFormSchema, confirmKey, initialFormData, toPayload } from './formSchema';

const form = usersDescriptor.form as FormDescriptor;

describe('buildFormSchema', () => {
  it('keeps only the form fields that are not read-only, in the form order with the retype after its field', () => {
    const { schema, uiSchema } = buildFormSchema(form, userSchema, 'create');
    expect(Object.keys(schema.properties ?? {})).not.toContain('realm');
    expect(uiSchema['ui:order']).toEqual([
      'name',
      'email',
      'password',
      confirmKey('password'),
      'admin',
      'profileUpdatable',
      'disableUIAccess',
      'internalPasswordDisabled',
      'groups',
    ]);
  });

  it('requires requiredOnCreate fields only when creating', () => {
    expect(buildFormSchema(form, userSchema, 'create').schema.required).toEqual([
      'name',
      'email',
      'password',
    ]);
    expect(buildFormSchema(form, userSchema, 'edit').schema.required).toEqual(['name', 'email']);
  });

  it('disables readOnlyOnEdit fields only when editing', () => {
    expect(buildFormSchema(form, userSchema, 'edit').uiSchema.name['ui:disabled']).toBe(true);
    expect(
      buildFormSchema(form, userSchema, 'create').uiSchema.name?.['ui:disabled'],
    ).toBeUndefined();
  });

  it('masks the retype field like the field it repeats and titles it with the confirm label', () => {
    const { schema, uiSchema } = buildFormSchema(form, userSchema, 'create');
    expect(uiSchema[confirmKey('password')]['ui:widget']).toBe('password');
    expect((schema.properties?.[confirmKey('password')] as { title: string }).title).toBe(
      'Retype Password',
    );
  });

  it('turns options fields into multi-selects over the fetched choices', () => {
    const { uiSchema } = buildFormSchema(form, userSchema, 'create', { groups: ['readers'] });
    expect(uiSchema.groups['ui:widget']).toBe('MultiSelectWidget');
    expect(uiSchema.groups['ui:options'].choices).toEqual(['readers']);
  });

  it('carries no $id, so create and edit variants never share a compiled validator', () => {
    expect(buildFormSchema(form, userSchema, 'create').schema.$id).toBeUndefined();
  });
});

describe('initialFormData and toPayload', () => {
  const { schema } = buildFormSchema(form, userSchema, 'edit');

  it('starts from schema defaults overlaid with the entity, without read-only fields', () => {
    const data = initialFormData(schema, {
      name: 'jo',
      admin: true,
      realm: 'internal',
      disableUIAccess: null,
    });
    expect(data).toEqual({
      name: 'jo',
      admin: true,
      profileUpdatable: true,
      disableUIAccess: false,
      internalPasswordDisabled: false,
    });
  });

  it('sends form fields only, without the retype field or empty values', () => {
    const payload = toPayload(schema, {
      name: 'jo',
      email: '',
      password: undefined,
      [confirmKey('password')]: 'x',
      realm: 'internal',
    });
    expect(payload).toEqual({ name: 'jo' });
  });
});
