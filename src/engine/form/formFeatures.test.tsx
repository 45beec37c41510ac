import { describe, expect, it, vi } from 'vitest';
import { chooseOption, optionNames } from '../../design/components/testing';
import { WIDGET_TEXTS } from '../../design/rjsf/widgetTexts';
import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { allSettled, fork } from 'effector';
import type { FormDescriptor, JsonSchema } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { ApiError } from '../../api/ApiError';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import { SchemaForm } from './SchemaForm';
import { hookForm, hookSchema } from './formFeatures.fixture';
import { formActionClicked, runFormActionFx } from './model';
import { CRON_INVALID_MESSAGE, REQUIRED_MESSAGE } from '../messages';
import { getWidgetRegistry, resolveWidget } from './widgetRegistry';
import webhooksScreen from '../../../schemas/screens/webhooks.screen.json';
import webhookSchema from '../../../schemas/entities/webhook.schema.json';

type Props = {
  form?: FormDescriptor;
  schema?: JsonSchema;
  mode?: 'create' | 'edit';
  initial?: Row;
  choices?: Record<string, string[]>;
  onSubmit?: (payload: Row) => void;
  onAction?: (action: unknown, payload: Row) => void;
};

/** SchemaForm is controlled; the harness keeps its data the way the form model does. */
function Harness({
  form = hookForm,
  schema = hookSchema,
  mode = 'create',
  initial = { name: 'hook1', url: 'https://ci.example.com/hook' },
  choices,
  onSubmit = () => {},
  onAction,
}: Props) {
  const [data, setData] = useState<Row>(initial);
  return (
    <SchemaForm
      form={form}
      entitySchema={schema}
      mode={mode}
      formData={data}
      choices={choices}
      onChange={setData}
      onSubmit={onSubmit}
      onAction={onAction}
    >
      <button type="submit">Save</button>
    </SchemaForm>
  );
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));
const submitted = (onSubmit: ReturnType<typeof vi.fn>) => onSubmit.mock.calls[0]?.[0] as Row;

describe('the form engine for the next screens', () => {
  it('picks several values of an enum array with checkboxes, and saves them', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    const events = screen.getByRole('group', { name: 'Event Types' });
    await userEvent.click(within(events).getByRole('checkbox', { name: 'artifact' }));
    await userEvent.click(within(events).getByRole('checkbox', { name: 'docker' }));
    await save();
    expect(submitted(onSubmit).events).toEqual(['artifact', 'docker']);
  });

  it('shows enum titles (oneOf const/title) and saves the values', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    expect(await optionNames('Authentication')).toEqual([
      WIDGET_TEXTS.notSet,
      'None',
      'Secret Token',
      'Password',
    ]);
    await chooseOption('Authentication', 'Secret Token');
    const domains = screen.getByRole('group', { name: 'Domains' });
    await userEvent.click(within(domains).getByRole('checkbox', { name: 'Release Bundles' }));
    await save();
    expect(submitted(onSubmit)).toMatchObject({ authType: 'TOKEN', domains: ['release_bundle'] });
  });

  it("takes rjsf's standard widget names (radio, checkboxes) as well as Depot's", async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('radio', { name: 'pull' }));
    await save();
    expect(submitted(onSubmit).kind).toBe('pull');
    const widgets = getWidgetRegistry();
    expect(resolveWidget('checkboxes', widgets, { type: 'array' })).toBeTruthy();
    expect(() => resolveWidget('checkboxes', widgets, { type: 'string' })).toThrow(
      'No widget named "checkboxes" is registered for a field of type string',
    );
  });

  it("keeps the entity's if/then: a password authentication needs its secret", async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await chooseOption('Authentication', 'Password');
    await save();
    const secret = screen.getByLabelText(/^Secret/);
    expect(secret.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(REQUIRED_MESSAGE)).toHaveLength(1);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(secret, 's3cret!');
    await save();
    expect(submitted(onSubmit)).toMatchObject({ authType: 'PASSWORD', secret: 's3cret!' });
  });

  it("keeps the entity's dependentRequired: a proxy host needs its port", async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Proxy Host'), 'proxy.example.com');
    await save();
    expect(screen.getByLabelText('Proxy Port').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(REQUIRED_MESSAGE)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Proxy Port'), '3128');
    await save();
    expect(submitted(onSubmit)).toMatchObject({ proxyHost: 'proxy.example.com', proxyPort: 3128 });
  });

  it("groups the fields into the descriptor's sections, the unsectioned ones first", () => {
    render(<Harness />);
    const general = screen.getByRole('group', { name: 'General Settings' });
    expect(within(general).getByLabelText(/^Name/)).toBeTruthy();
    expect(within(general).getByLabelText('Authentication')).toBeTruthy();
    const events = screen.getByRole('group', { name: 'Events' });
    expect(events.closest('fieldset')?.querySelector('legend')?.textContent).toBe('Events');
    const legends = [...document.querySelectorAll('.form-section > legend')].map(
      (l) => l.textContent,
    );
    expect(legends).toEqual(['General Settings', 'Events', 'Repositories']);
    // Proxy Host is in no section: it comes before the first one.
    const first = document.querySelector('.form-section');
    const proxy = screen.getByLabelText('Proxy Host');
    expect(
      first && proxy.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it("shows an array's description, and the descriptor's empty-state text while it is empty", async () => {
    const schema: JsonSchema = {
      $id: 'bundle-filter',
      type: 'object',
      properties: {
        bundles: {
          type: 'array',
          title: 'Release Bundles',
          description: 'Names and patterns are kept until release bundles exist.',
          items: { type: 'string', title: 'Bundle' },
        },
        tags: { type: 'array', title: 'Tags', items: { type: 'string', title: 'Tag' } },
      },
    };
    const form: FormDescriptor = {
      fields: ['bundles', 'tags'],
      uiSchema: { bundles: { 'ui:options': { emptyText: 'No release bundles selected' } } },
    };
    render(<Harness form={form} schema={schema} initial={{}} />);
    const bundles = screen.getByRole('group', { name: 'Release Bundles' });
    const describedBy = bundles.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      'Names and patterns are kept until release bundles exist.',
    );
    expect(within(bundles).getByText('No release bundles selected')).toBeTruthy();
    // An array whose descriptor gives no empty-state text shows none.
    const tags = screen.getByRole('group', { name: 'Tags' });
    expect(tags.querySelector('.array-field-empty')).toBeNull();
    await userEvent.click(within(bundles).getByRole('button', { name: 'Add Bundle' }));
    expect(within(bundles).queryByText('No release bundles selected')).toBeNull();
    expect(within(bundles).getByRole('group', { name: 'Bundle 1' })).toBeTruthy();
  });

  it("shows the webhook form's Release Bundle help and empty state", () => {
    const form = webhooksScreen.form as FormDescriptor;
    render(<Harness form={form} schema={webhookSchema as JsonSchema} initial={{}} />);
    const names = screen.getByRole('group', { name: 'Release Bundles' });
    const describedBy = names.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      webhookSchema.properties.releaseBundleNames.description,
    );
    expect(
      within(names).getByText(
        (form.uiSchema?.releaseBundleNames as { 'ui:options': { emptyText: string } })['ui:options']
          .emptyText,
      ),
    ).toBeTruthy();
  });

  it("edits custom headers as key-value rows, with the schema's message for a half-filled one", async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Header' }));
    await userEvent.type(screen.getByLabelText('Name 1'), 'X-Token');
    await save();
    expect(screen.getByText('Header must contain name and value')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Value 1'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Add Header' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Header 2' }));
    await save();
    expect(submitted(onSubmit).headers).toEqual([{ name: 'X-Token', value: 'abc' }]);
  });

  it('masks a write-only secret, shows it on demand, and on edit keeps the saved one when left empty', async () => {
    const onSubmit = vi.fn();
    render(
      <Harness
        mode="edit"
        initial={{ name: 'hook1', url: 'https://ci.example.com/hook', authType: 'PASSWORD' }}
        onSubmit={onSubmit}
      />,
    );
    const secret = screen.getByLabelText(/^Secret/) as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.placeholder).toBe('Saved; leave empty to keep it');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(secret.type).toBe('text');
    await save();
    expect(submitted(onSubmit)).not.toHaveProperty('secret');
  });

  it('shows the next runs of a cron and refuses one that never runs', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    const cron = screen.getByLabelText('Cleanup Cron');
    await userEvent.type(cron, '0 0 2 ? * SAT');
    expect(screen.getByText('Next runs')).toBeTruthy();
    const runs = document.querySelectorAll('.cron-next-runs time');
    expect(runs).toHaveLength(3);
    expect([...runs].map((r) => new Date(r.getAttribute('datetime') ?? '').getDay())).toEqual([
      6, 6, 6,
    ]);
    await userEvent.clear(cron);
    await userEvent.type(cron, '0 0 0 30 2 ?');
    expect(screen.queryByText('Next runs')).toBeNull();
    await save();
    expect(screen.getByText(CRON_INVALID_MESSAGE)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("reads Ant patterns as a comma-separated list and shows an item's message on the field", async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    const patterns = screen.getByLabelText('Include Patterns');
    await userEvent.type(patterns, 'org/**, /abs/*, /x');
    await save();
    expect(screen.getAllByText('A pattern cannot start with a slash')).toHaveLength(1);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.clear(patterns);
    await userEvent.type(patterns, 'org/**, *.jar');
    await save();
    expect(submitted(onSubmit).includePatterns).toEqual(['org/**', '*.jar']);
  });

  it("feeds a single-value picker from the endpoint's choices", async () => {
    const onSubmit = vi.fn();
    const form = {
      ...hookForm,
      options: { proxyHost: { path: '/ui/proxies', valueKey: 'key' } },
    };
    render(
      <Harness
        form={form}
        choices={{ proxyHost: ['corp-proxy', 'lab-proxy'] }}
        onSubmit={onSubmit}
      />,
    );
    await chooseOption('Proxy Host', 'lab-proxy');
    await userEvent.type(screen.getByLabelText('Proxy Port'), '8080');
    await save();
    expect(submitted(onSubmit)).toMatchObject({ proxyHost: 'lab-proxy' });
  });

  it('runs a form action with the valid form only', async () => {
    const onAction = vi.fn();
    render(<Harness initial={{ name: 'hook1', url: 'not a url' }} onAction={onAction} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test' }));
    expect(screen.getByText('Enter a valid URL')).toBeTruthy();
    expect(onAction).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText(/^URL/));
    await userEvent.type(screen.getByLabelText(/^URL/), 'https://ci.example.com/hook');
    await userEvent.click(screen.getByRole('button', { name: 'Test' }));
    expect(onAction).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'test' }),
      expect.objectContaining({ name: 'hook1', url: 'https://ci.example.com/hook' }),
    );
  });
});

describe('form actions', () => {
  const action = hookForm.actions![0];
  const payload = { name: 'hook1', url: 'https://ci.example.com/hook' };
  /** A scope whose action answers as given; toasts stay put (their timer is not the point). */
  const scopeAnswering = (answer: () => Promise<string | undefined>) =>
    fork({
      handlers: new Map<unknown, unknown>([
        [dismissLaterFx, async () => -1],
        [runFormActionFx, answer],
      ]) as never,
    });
  const texts = (scope: ReturnType<typeof fork>) =>
    scope.getState($notifications).map((n) => n.text);

  it("shows the server's message, else the descriptor's", async () => {
    const answering = scopeAnswering(async () => 'Delivered in 12 ms');
    await allSettled(formActionClicked, { scope: answering, params: { action, payload } });
    expect(texts(answering)).toEqual(['Delivered in 12 ms']);
    const silent = scopeAnswering(async () => undefined);
    await allSettled(formActionClicked, { scope: silent, params: { action, payload } });
    expect(texts(silent)).toEqual(['A dummy hook was executed and sent to the configured URL']);
  });

  it("shows why it failed, in the server's words, else the descriptor's", async () => {
    const refused = (body: unknown) =>
      new ApiError({ message: '400', status: 400, method: 'POST', url: '/x', body });
    const silent = scopeAnswering(() => Promise.reject(refused({})));
    await allSettled(formActionClicked, { scope: silent, params: { action, payload } });
    expect(texts(silent)).toEqual(['Sending a dummy Webhook failed']);
    const saying = scopeAnswering(() => Promise.reject(refused({ message: 'Host unreachable' })));
    await allSettled(formActionClicked, { scope: saying, params: { action, payload } });
    expect(texts(saying)).toEqual(['Host unreachable']);
  });
});
