import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DialogDescriptor, JsonSchema } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { buildFormSchema, initialFormData } from '../../engine/form/formSchema';
import { SchemaForm } from '../../engine/form/SchemaForm';
import buildsScreen from '../../../schemas/screens/builds.screen.json';
import promotionSchema from '../../../schemas/entities/build-promotion.schema.json';
import { promotionForm } from './PromoteDialog';
import { BUILD_LABELS as L } from './messages';

/** The Promote dialog's form as the builds descriptor and the build-promotion schema make it. */
const dialog: DialogDescriptor = {
  ...buildsScreen.dialogs.promote,
  entitySchema: promotionSchema as JsonSchema,
};

function PromoteForm({ onSubmit }: { onSubmit: (payload: Row) => void }) {
  const form = promotionForm(dialog, ['libs-release', 'libs-staging']);
  const [data, setData] = useState<Row>(() =>
    initialFormData(buildFormSchema(form, dialog.entitySchema, 'create').schema),
  );
  return (
    <SchemaForm
      form={form}
      entitySchema={dialog.entitySchema}
      mode="create"
      formData={data}
      onChange={setData}
      onSubmit={onSubmit}
    >
      <button type="submit">{L.promote}</button>
    </SchemaForm>
  );
}

describe('the Promote dialog form', () => {
  it('has the fields of the promotion, labelled as before, copying by default', () => {
    render(<PromoteForm onSubmit={() => {}} />);
    for (const label of [L.targetRepo, L.promoteStatus, L.comment])
      expect(screen.getByLabelText(new RegExp(`^${label}`))).toBeTruthy();
    expect((screen.getByLabelText(L.copy) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText(L.withDependencies) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText(L.dryRun) as HTMLInputElement).checked).toBe(false);
  });

  it('suggests the local repositories and still takes a typed key', async () => {
    const onSubmit = vi.fn();
    render(<PromoteForm onSubmit={onSubmit} />);
    const target = screen.getByLabelText(new RegExp(`^${L.targetRepo}`));
    const list = document.getElementById(target.getAttribute('list') ?? '');
    expect([...(list?.querySelectorAll('option') ?? [])].map((o) => o.value)).toEqual([
      'libs-release',
      'libs-staging',
    ]);
    await userEvent.type(target, 'typed-local');
    await userEvent.click(screen.getByLabelText(L.dryRun));
    await userEvent.click(screen.getByRole('button', { name: L.promote }));
    expect(onSubmit).toHaveBeenCalledWith({
      targetRepo: 'typed-local',
      copy: true,
      dependencies: false,
      dryRun: true,
    });
  });

  it('refuses an empty or blank target in the spec words, sending nothing', async () => {
    const onSubmit = vi.fn();
    render(<PromoteForm onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: L.promote }));
    expect(screen.getByText('You must fill in this field')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(new RegExp(`^${L.targetRepo}`)), '   ');
    await userEvent.click(screen.getByRole('button', { name: L.promote }));
    expect(screen.getByText('You must fill in this field')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
