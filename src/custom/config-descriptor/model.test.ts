import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import {
  $busy,
  $canSave,
  $dirty,
  $securityXml,
  $xml,
  configPageMounted,
  fetchConfigFx,
  fetchSecurityFx,
  resetClicked,
  saveClicked,
  saveConfigFx,
  securityPageMounted,
  xmlChanged,
} from './model';

const STORED =
  '<config version="1">\n  <general><serverName>Depot</serverName></general>\n</config>';
const EDITED = STORED.replace('Depot', 'Team Depot');

function scopeWith(save: () => Promise<unknown>) {
  const fetch = vi.fn(async () => STORED);
  return {
    fetch,
    scope: fork({
      handlers: [
        [fetchConfigFx, fetch],
        [saveConfigFx, save],
        [
          fetchSecurityFx,
          vi.fn(async () => '<security><anonAccessEnabled>false</anonAccessEnabled></security>'),
        ],
        [dismissLaterFx, vi.fn(async () => -1)],
      ],
    }),
  };
}

describe('config descriptor model', () => {
  it('loads the XML, saves the edited document whole and reads it back', async () => {
    const save = vi.fn(async () => ({ info: 'Configuration saved successfully' }));
    const { scope, fetch } = scopeWith(save);
    await allSettled(configPageMounted, { scope });
    expect(scope.getState($xml)).toBe(STORED);
    expect(scope.getState($canSave)).toBe(false);
    await allSettled(xmlChanged, { scope, params: EDITED });
    expect(scope.getState($dirty)).toBe(true);
    await allSettled(saveClicked, { scope });
    expect(save).toHaveBeenCalledWith(EDITED);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(scope.getState($notifications).map((n) => n.text)).toEqual([
      'Configuration saved successfully',
    ]);
  });

  it('stays busy until the saved document has been read back, so no edit is overwritten', async () => {
    const { scope, fetch } = scopeWith(
      vi.fn(async () => ({ info: 'Configuration saved successfully' })),
    );
    await allSettled(configPageMounted, { scope });
    let answerReadBack: (xml: string) => void = () => {};
    fetch.mockImplementationOnce(
      () => new Promise<string>((resolve) => (answerReadBack = resolve)),
    );
    await allSettled(xmlChanged, { scope, params: EDITED });
    const saved = allSettled(saveClicked, { scope });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(scope.getState($busy)).toBe(true);
    expect(scope.getState($canSave)).toBe(false);
    answerReadBack(EDITED);
    await saved;
    expect(scope.getState($busy)).toBe(false);
    expect(scope.getState($xml)).toBe(EDITED);
    expect(scope.getState($dirty)).toBe(false);
  });

  it('shows the refusal naming its place, keeps the edit, and Reset brings the stored XML back', async () => {
    const refusal = new ApiError({
      message: 'Bad Request',
      status: 400,
      body: {
        errors: [
          { status: 400, message: 'general.serverName: Too long', field: 'general.serverName' },
        ],
      },
      method: 'PUT',
      url: '/ui/api/v1/ui/configdescriptor',
    });
    const { scope } = scopeWith(vi.fn(async () => Promise.reject(refusal)));
    await allSettled(configPageMounted, { scope });
    await allSettled(xmlChanged, { scope, params: EDITED });
    await allSettled(saveClicked, { scope });
    expect(scope.getState($notifications).map((n) => n.text)).toEqual([
      'general.serverName: Too long',
    ]);
    expect(scope.getState($xml)).toBe(EDITED);
    await allSettled(resetClicked, { scope });
    expect(scope.getState($xml)).toBe(STORED);
    expect(scope.getState($dirty)).toBe(false);
  });

  it('reads the security descriptor', async () => {
    const { scope } = scopeWith(vi.fn());
    await allSettled(securityPageMounted, { scope });
    expect(scope.getState($securityXml)).toContain('<security>');
  });
});
