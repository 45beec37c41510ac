import type { FastifyBaseLogger } from 'fastify';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import type { RemoteService } from '../../modules/remote/service.ts';
import { UpstreamError } from '../../modules/remote/upstream-error.ts';
import type { Page } from './listings.ts';
import { upstreamImage } from './remote-images.ts';

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

/** An upstream's page of names, and whether it said more follow. */
export interface UpstreamNames {
  names: string[];
  more: boolean;
}

/**
 * How many pages of an upstream listing are followed when the client asked for no page size:
 * a registry answers a page of its own size (the distribution registry's catalog 1000 names).
 */
const MAX_FOLLOWED_PAGES = 20;
const NEXT_LINK = /<([^>]+)>\s*;\s*rel="?next"?/;

const namesIn = (body: unknown, field: 'tags' | 'repositories') => {
  const list = (body as Record<string, unknown> | null)?.[field];
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
};

const pageQuery = (page: Page) => {
  const query = new URLSearchParams();
  if (page.n !== undefined) query.set('n', String(page.n));
  if (page.last !== undefined) query.set('last', page.last);
  const text = query.toString();
  return text ? `?${text}` : '';
};

/**
 * A remote Docker repository's upstream listings (docs/docker.md, "Remote repositories"):
 * its tags of an image and its catalog, asked through the remote machinery (address guard,
 * credentials, Bearer challenge, proxy, offline modes). Undefined when the upstream cannot
 * or will not answer: the cache then answers alone.
 */
export function createRemoteListings(remote: RemoteService) {
  /**
   * The names of one listing: the page asked for (n and last passed on), or, without `n`,
   * every page the upstream links to, up to MAX_FOLLOWED_PAGES.
   */
  async function listing(
    repo: RepositoryRow,
    path: string,
    field: 'tags' | 'repositories',
    page: Page,
    log: FastifyBaseLogger,
  ): Promise<UpstreamNames | undefined> {
    const names: string[] = [];
    let next: string | undefined = `${path}${pageQuery(page)}`;
    try {
      for (let pages = 0; next !== undefined && pages < MAX_FOLLOWED_PAGES; pages++) {
        const answer = await remote.askJsonAnswer(repo, next);
        if (!answer) return pages === 0 ? undefined : { names, more: false };
        names.push(...namesIn(answer.body, field));
        // The upstream's next page, as it links to it (a path on its host, or a whole URL).
        next = answer.link === undefined ? undefined : NEXT_LINK.exec(answer.link)?.[1];
        if (page.n !== undefined) return { names, more: next !== undefined };
      }
      return { names, more: false };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      log.warn({ repo: repo.key, err: error.message }, 'upstream listing unavailable, cache used');
      return undefined;
    }
  }

  return {
    /** The upstream's tags of an image (Docker Hub's single names in `library/`). */
    tags: (repo: RepositoryRow, image: string, page: Page, log: FastifyBaseLogger) =>
      listing(repo, `v2/${upstreamImage(image)}/tags/list`, 'tags', page, log),

    /** The upstream's catalog, whole, where it allows it (Docker Hub does not). */
    catalog: (repo: RepositoryRow, log: FastifyBaseLogger) =>
      listing(repo, 'v2/_catalog', 'repositories', {}, log),
  };
}

export type RemoteListings = ReturnType<typeof createRemoteListings>;
