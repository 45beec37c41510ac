import { API_PREFIX, call } from './client';

/** A bundle as `GET ui/userSupport/listBundles` lists it (docs/support-bundles.md). */
export interface SupportBundle {
  id: string;
  name: string;
  description: string | null;
  create_date: string;
  status: string;
  statusClass: 'success' | 'failed' | 'in-progress';
  /** Percent done while in progress. */
  progress: number;
  size?: number;
  error?: string;
}

/** What the create form asks: dates as `YYYY-MM-DD`, the logs' range. */
export interface BundleRequest {
  name: string;
  description: string;
  startDate: string;
  endDate: string;
}

const bundlePath = (action: string, id: string) =>
  `/ui/userSupport/${action}/${encodeURIComponent(id)}`;

/** The support zone's calls (spec 02 "Support bundles"). */
export const supportBundlesApi = {
  list: () => call<SupportBundle[]>('GET', '/ui/userSupport/listBundles'),
  /** Starts a bundle; the server answers 202 with its row at once, in progress. */
  generate: (request: BundleRequest) =>
    call<SupportBundle>('POST', '/ui/userSupport/generateBundle', {
      json: {
        name: request.name.trim() || undefined,
        description: request.description.trim() || undefined,
        parameters: { logs: { start_date: request.startDate, end_date: request.endDate } },
      },
      // The form shows the server's refusal (a bad date) beside its fields.
      handledByCaller: () => true,
    }),
  remove: (id: string) => call<{ info: string }>('DELETE', bundlePath('deleteBundle', id)),
  /** The zip, for a plain link: the browser downloads it with the session's cookie. */
  downloadUrl: (id: string) => `${API_PREFIX}${bundlePath('downloadBundle', id)}`,
};
