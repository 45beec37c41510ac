import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  PaginationModule,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { TextField } from '../../design/components/TextField';
import type { TokenRow } from './api';
import {
  $generateError,
  $issued,
  $tokens,
  createFx,
  generateSubmitted,
  pageOpened,
  revokeConfirmed,
} from './model';
import { EXPIRY_CHOICES, TOKEN_LABELS as L } from './messages';
import './access-tokens.css';
import { Select } from '../../design/components/Select';

ModuleRegistry.registerModules([ClientSideRowModelModule, PaginationModule]);

const when = (seconds?: number) => (seconds ? new Date(seconds * 1000).toLocaleString() : L.never);

function columns(onRevoke: (row: TokenRow) => void): ColDef<TokenRow>[] {
  return [
    { field: 'subject', headerName: L.subject, flex: 1 },
    { field: 'scope', headerName: L.scope, flex: 2 },
    { field: 'description', headerName: L.description, flex: 2 },
    { headerName: L.issuedAt, flex: 1, valueGetter: ({ data }) => when(data?.issued_at) },
    { headerName: L.expiresAt, flex: 1, valueGetter: ({ data }) => when(data?.expiry) },
    { field: 'token_id', headerName: L.tokenId, flex: 1 },
    {
      headerName: '',
      width: 110,
      sortable: false,
      cellRenderer: ({ data }: ICellRendererParams<TokenRow>) =>
        data && (
          <button
            type="button"
            className="btn btn-link"
            aria-label={L.revokeRow(data.token_id)}
            onClick={() => onRevoke(data)}
          >
            {L.revoke}
          </button>
        ),
    },
  ];
}

/**
 * Administration > Configuration > Access Tokens: every live token, revoke, and a new token
 * for a user, an admin or groups, shown once (docs/access-tokens.md).
 */
export default function AccessTokensPage() {
  const [tokens, opened, revoke] = useUnit([$tokens, pageOpened, revokeConfirmed]);
  const [pending, setPending] = useState<TokenRow | null>(null);
  const columnDefs = useMemo(() => columns(setPending), []);
  useEffect(() => opened(), [opened]);
  return (
    <section aria-labelledby="tokens-title" className="settings-page">
      <h1 id="tokens-title">{L.title}</h1>
      <GenerateForm />
      {tokens.length === 0 ? (
        <p role="status">{L.empty}</p>
      ) : (
        <AgGridReact<TokenRow>
          theme={depotGridTheme}
          localeText={depotGridLocaleText}
          rowData={tokens}
          columnDefs={columnDefs}
          getRowId={({ data }) => data.token_id}
          pagination
          paginationPageSize={50}
          paginationPageSizeSelector={false}
          domLayout="autoHeight"
        />
      )}
      {pending && (
        <ConfirmDialog
          title={L.revokeTitle}
          text={L.revokeText(pending.subject)}
          confirmLabel={L.revoke}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => {
            revoke(pending.token_id);
            setPending(null);
          }}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}

function GenerateForm() {
  const [issued, error, busy, generate] = useUnit([
    $issued,
    $generateError,
    createFx.pending,
    generateSubmitted,
  ]);
  const [username, setUsername] = useState('');
  const [scopeKind, setScopeKind] = useState<'user' | 'admin' | 'groups'>('user');
  const [groups, setGroups] = useState('');
  const [expiresIn, setExpiresIn] = useState(EXPIRY_CHOICES[3]!.seconds);
  const [description, setDescription] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const scope =
      scopeKind === 'groups'
        ? `applied-permissions/groups:${groups.replace(/\s+/g, '')}`
        : `applied-permissions/${scopeKind}`;
    generate({ username, scope, expires_in: expiresIn, description });
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={L.generate}>
      <h2>{L.generate}</h2>
      <TextField
        label={L.userName}
        required
        value={username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <div className="field">
        <Select
          label={L.scope}
          options={[
            { value: 'user', label: L.scopeUser },
            { value: 'admin', label: L.scopeAdmin },
            { value: 'groups', label: L.scopeGroups },
          ]}
          value={scopeKind}
          onChange={setScopeKind}
        />
      </div>
      {scopeKind === 'groups' && (
        <TextField
          label={L.groups}
          required
          value={groups}
          onChange={(e) => setGroups(e.target.value)}
        />
      )}
      <div className="field">
        <Select
          label={L.expiry}
          options={EXPIRY_CHOICES.map((choice) => ({
            value: String(choice.seconds),
            label: choice.label,
          }))}
          value={String(expiresIn)}
          onChange={(seconds) => setExpiresIn(Number(seconds))}
        />
      </div>
      <TextField
        label={L.description}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {issued && (
        <div role="status">
          <p>{L.issued}</p>
          <p className="issued-token">
            <code data-testid="issued-token">{issued.access_token}</code>
            <button
              type="button"
              className="btn"
              onClick={() => void navigator.clipboard?.writeText(issued.access_token)}
            >
              {L.copy}
            </button>
          </p>
        </div>
      )}
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy || !username || (scopeKind === 'groups' && !groups)}
      >
        {L.generate}
      </button>
    </form>
  );
}
