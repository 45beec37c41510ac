import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { Dialog } from '../../design/components/Dialog';
import { TextField } from '../../design/components/TextField';
import type { ScreenComponentProps } from '../../engine/registry';
import { bucketsApi, type Bucket } from './api';
import { BUCKET_LABELS as L, BUCKET_MESSAGES as M, BUCKETS_PATH } from './messages';
import {
  $buckets,
  $done,
  $formError,
  $report,
  addSubmitted,
  attachSubmitted,
  deleteConfirmed,
  listOpened,
  reportOpened,
  splitSubmitted,
} from './model';
import { BucketReportPage } from './BucketReportPage';
import { countProblem, fileProblem, nameProblem, urlProblem } from './validation';

ModuleRegistry.registerModules([ClientSideRowModelModule]);

/**
 * Administration > License Management > License Buckets (spec 01 §2): the list, add, attach
 * and report pages of docs/license-buckets.md.
 */
export default function LicenseBucketsPage({ view }: ScreenComponentProps) {
  const { pathname } = useLocation();
  if (view === 'new') return <AddBucketForm />;
  if (view === 'edit') return <AttachForm />;
  if (pathname.includes('/report/')) return <BucketReportPage />;
  return <BucketList />;
}

/** Leaves a form for the list once its call succeeded. */
function useBackToListWhenDone() {
  const navigate = useNavigate();
  const done = useUnit($done);
  const [start] = useState(done);
  useEffect(() => {
    if (done !== start) navigate(BUCKETS_PATH);
  }, [done, start, navigate]);
}

function ServerError() {
  const error = useUnit($formError);
  return error ? (
    <p className="error-text" role="alert">
      {error}
    </p>
  ) : null;
}

function BucketList() {
  const [buckets, opened, remove] = useUnit([$buckets, listOpened, deleteConfirmed]);
  const [deleting, setDeleting] = useState<Bucket | null>(null);
  const [splitting, setSplitting] = useState<Bucket | null>(null);
  useEffect(() => opened(), [opened]);
  const columnDefs = useMemo<ColDef<Bucket>[]>(
    () => [
      { field: 'name', headerName: L.columns.name, flex: 1 },
      { field: 'identifier', headerName: L.columns.identifier, flex: 1 },
      { field: 'licenseType', headerName: L.columns.licenseType, flex: 1 },
      { field: 'issueDate', headerName: L.columns.issueDate, width: 130 },
      { field: 'expiryDate', headerName: L.columns.expiryDate, width: 130 },
      {
        headerName: L.columns.used,
        width: 160,
        valueGetter: ({ data }) => data && `${data.used} / ${data.size}`,
      },
      { field: 'customerName', headerName: L.columns.customerName, flex: 1 },
      { field: 'totalProjects', headerName: L.columns.totalProjects, width: 130 },
      {
        headerName: L.actions,
        width: 340,
        sortable: false,
        cellRenderer: ({ data }: ICellRendererParams<Bucket>) =>
          data && <RowActions bucket={data} onDelete={setDeleting} onSplit={setSplitting} />,
      },
    ],
    [],
  );
  return (
    <section aria-labelledby="buckets-title" className="settings-page">
      <h1 id="buckets-title">{L.title}</h1>
      <p>
        <Link className="btn btn-primary" to={`${BUCKETS_PATH}/add`}>
          {L.add}
        </Link>
      </p>
      {buckets.length === 0 ? (
        <p role="status">{L.empty}</p>
      ) : (
        <AgGridReact<Bucket>
          theme={depotGridTheme}
          localeText={depotGridLocaleText}
          rowData={buckets}
          columnDefs={columnDefs}
          getRowId={({ data }) => data.identifier}
          domLayout="autoHeight"
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={L.deleteTitle}
          text={
            deleting.parent
              ? L.deleteSplit(deleting.name, deleting.parent)
              : L.deleteParent(deleting.name)
          }
          confirmLabel={L.delete}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => {
            remove(deleting.identifier);
            setDeleting(null);
          }}
          onCancel={() => setDeleting(null)}
        />
      )}
      {splitting && <SplitDialog source={splitting} onClose={() => setSplitting(null)} />}
    </section>
  );
}

function RowActions(props: {
  bucket: Bucket;
  onDelete: (bucket: Bucket) => void;
  onSplit: (bucket: Bucket) => void;
}) {
  const { bucket } = props;
  const id = encodeURIComponent(bucket.identifier);
  const label = (action: string) => `${action} ${bucket.name}`;
  return (
    <span className="row-actions">
      <Link
        className="btn btn-link"
        aria-label={label(L.report)}
        to={`${BUCKETS_PATH}/report/${id}`}
      >
        {L.report}
      </Link>
      <Link
        className="btn btn-link"
        aria-label={label(L.attach)}
        to={`${BUCKETS_PATH}/attach/${id}`}
      >
        {L.attach}
      </Link>
      {!bucket.parent && (
        <button
          type="button"
          className="btn btn-link"
          aria-label={label(L.split)}
          onClick={() => props.onSplit(bucket)}
        >
          {L.split}
        </button>
      )}
      {!bucket.parent && (
        <a
          className="btn btn-link"
          aria-label={label(L.download)}
          href={bucketsApi.downloadUrl(bucket.identifier)}
          download
        >
          {L.download}
        </a>
      )}
      <button
        type="button"
        className="btn btn-link"
        aria-label={label(L.delete)}
        onClick={() => props.onDelete(bucket)}
      >
        {L.delete}
      </button>
    </span>
  );
}

function SplitDialog({ source, onClose }: { source: Bucket; onClose: () => void }) {
  const [split, done] = useUnit([splitSubmitted, $done]);
  const [start] = useState(done);
  const [name, setName] = useState('');
  const [licenses, setLicenses] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (done !== start) onClose();
  }, [done, start, onClose]);
  const problems = { name: nameProblem(name), licenses: countProblem(licenses, source.available) };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problems.name || problems.licenses) return;
    split({ id: source.identifier, name, licenses: Number(licenses) });
  };
  return (
    <Dialog
      title={L.splitTitle}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form="split-bucket-form" className="btn btn-primary">
            {L.split}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {L.cancel}
          </button>
        </>
      }
    >
      <form id="split-bucket-form" onSubmit={submit} noValidate aria-label={L.splitTitle}>
        <TextField label={L.sourceBucket} value={source.name} readOnly />
        <TextField label={L.totalLicense} value={String(source.size)} readOnly />
        <TextField label={L.availableLicense} value={String(source.available)} readOnly />
        <TextField
          label={L.bucketName}
          required
          value={name}
          error={touched ? problems.name : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label={L.numberOfLicenses}
          required
          inputMode="numeric"
          value={licenses}
          error={touched ? problems.licenses : undefined}
          onChange={(e) => setLicenses(e.target.value)}
        />
        <ServerError />
      </form>
    </Dialog>
  );
}

function AddBucketForm() {
  const add = useUnit(addSubmitted);
  useBackToListWhenDone();
  const [fromUrl, setFromUrl] = useState(false);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [url, setUrl] = useState('');
  const [signedUrl, setSignedUrl] = useState('');
  const [key, setKey] = useState('');
  const [touched, setTouched] = useState(false);
  const problems = fromUrl
    ? {
        name: nameProblem(name),
        url: urlProblem(url),
        signedUrl: urlProblem(signedUrl),
        key: key.trim() === '' ? M.mandatory : undefined,
      }
    : { name: nameProblem(name), file: fileProblem(file) };
  const shown = (field: keyof typeof problems) => (touched ? problems[field] : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.values(problems).some(Boolean)) return;
    add(fromUrl ? { name, url, signedUrl, key } : { name, file: file! });
  };
  return (
    <section aria-labelledby="add-bucket-title" className="settings-page">
      <h1 id="add-bucket-title">{L.addTitle}</h1>
      <form className="card" onSubmit={submit} noValidate aria-label={L.addTitle}>
        <TextField
          label={L.name}
          required
          value={name}
          error={shown('name')}
          onChange={(e) => setName(e.target.value)}
        />
        <fieldset>
          <label>
            <input type="radio" checked={!fromUrl} onChange={() => setFromUrl(false)} />{' '}
            {L.fileUpload}
          </label>{' '}
          <label>
            <input type="radio" checked={fromUrl} onChange={() => setFromUrl(true)} /> {L.fromUrl}
          </label>
        </fieldset>
        {fromUrl ? (
          <>
            <TextField
              label={L.url}
              required
              value={url}
              error={shown('url')}
              onChange={(e) => setUrl(e.target.value)}
            />
            <TextField
              label={L.signedUrl}
              required
              value={signedUrl}
              error={shown('signedUrl')}
              onChange={(e) => setSignedUrl(e.target.value)}
            />
            <TextField
              label={L.key}
              required
              value={key}
              error={shown('key')}
              onChange={(e) => setKey(e.target.value)}
            />
          </>
        ) : (
          <TextField
            label={L.file}
            required
            type="file"
            accept=".json,application/json"
            error={shown('file')}
            onChange={(e) => setFile(e.target.files?.[0])}
          />
        )}
        <ServerError />
        <button type="submit" className="btn btn-primary">
          {L.save}
        </button>
        <Link className="btn" to={BUCKETS_PATH}>
          {L.cancel}
        </Link>
      </form>
    </section>
  );
}

function AttachForm() {
  const { licenseBucketID = '' } = useParams();
  const [report, open, attach] = useUnit([$report, reportOpened, attachSubmitted]);
  useBackToListWhenDone();
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    open(licenseBucketID);
  }, [open, licenseBucketID]);
  if (!report) return null;
  const wanted = Object.entries(counts).filter(([, text]) => text.trim() !== '');
  const total = wanted.reduce((sum, [, text]) => sum + Number(text), 0);
  const problem =
    wanted.length === 0
      ? M.mandatory
      : (wanted.map(([, text]) => countProblem(text, Infinity)).find(Boolean) ??
        (total > report.available ? M.overAvailable : undefined));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    attach({
      id: report.identifier,
      attachments: wanted.map(([deployment, text]) => ({ deployment, licenses: Number(text) })),
    });
  };
  return (
    <section aria-labelledby="attach-title" className="settings-page">
      <h1 id="attach-title">{L.attachTitle(report.name)}</h1>
      <p>
        {L.availableLicense}: {report.available}
      </p>
      <form className="card" onSubmit={submit} noValidate aria-label={L.attachTitle(report.name)}>
        <table className="table">
          <thead>
            <tr>
              <th>{L.deployment}</th>
              <th>{L.status}</th>
              <th>{L.licensesToAttach}</th>
              <th>{L.licenses}</th>
            </tr>
          </thead>
          <tbody>
            {report.deployments.map((deployment) => {
              const attachable = deployment.status === 'ONLINE' || deployment.status === 'PARTIAL';
              return (
                <tr key={deployment.id}>
                  <td>{deployment.name}</td>
                  <td>{deployment.status}</td>
                  <td>
                    <input
                      className="input"
                      aria-label={`${L.licensesToAttach} ${deployment.name}`}
                      inputMode="numeric"
                      disabled={!attachable}
                      value={counts[deployment.id] ?? ''}
                      onChange={(e) => setCounts({ ...counts, [deployment.id]: e.target.value })}
                    />
                  </td>
                  <td>{deployment.licenses}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {touched && problem && (
          <p className="error-text" role="alert">
            {problem}
          </p>
        )}
        <ServerError />
        <button type="submit" className="btn btn-primary">
          {L.attach}
        </button>
        <Link className="btn" to={BUCKETS_PATH}>
          {L.cancel}
        </Link>
      </form>
    </section>
  );
}
