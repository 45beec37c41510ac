import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { ArchiveView } from '../archive-view/service.ts';
import { readHead } from '../archive-view/entry-source.ts';
import { locateNode, type LocatedNode } from '../tree-browser/locate-node.ts';
import { FILE_VIEW_MAX_BYTES } from './limits.ts';
import { FILE_VIEW_MESSAGES } from './messages.ts';
import { isBinary, looksLikeText } from './text-rules.ts';
import { PACKAGE_JSON_ENTRY, pomPathFor, viewApplies, type FileView } from './view-rules.ts';

/** Text as stored; a file that does not decode shows replacement characters, as a browser would. */
const utf8 = (bytes: Buffer) => bytes.toString('utf8');

/**
 * The package views of a file (spec 02 §2): its POM (a jar's is the .pom beside it), an XML
 * file's text, an npm tarball's package.json. Each reads at most FILE_VIEW_MAX_BYTES.
 */
export function createFileViews(services: Services, archiveView: ArchiveView) {
  const { artifacts, filestore } = services;

  /** A stored file's text, refused past the limit before anything is read. */
  async function fileText(located: LocatedNode): Promise<string> {
    const node = located.node!;
    const where = `${located.repo.key}/${located.path}`;
    if (Number(node.size) > FILE_VIEW_MAX_BYTES)
      throw new BadRequest(FILE_VIEW_MESSAGES.tooLarge(where));
    const { head } = await readHead(filestore.read(node.sha256!), FILE_VIEW_MAX_BYTES);
    return utf8(head);
  }

  /** The POM beside a jar, or the .pom itself: a missing one is a 404 naming it. */
  async function pomText(located: LocatedNode): Promise<string> {
    const pomPath = pomPathFor(located.path, located.repo.package_type)!;
    if (pomPath === located.path) return fileText(located);
    const where = `${located.repo.key}/${located.path}`;
    const pom = await locateNode(artifacts, located.repo.key, pomPath).catch((error: unknown) => {
      if (error instanceof NotFound) throw new NotFound(FILE_VIEW_MESSAGES.noPom(where, pomPath));
      throw error;
    });
    if (pom.type !== 'file') throw new NotFound(FILE_VIEW_MESSAGES.noPom(where, pomPath));
    return fileText(pom);
  }

  /** package/package.json from inside an npm tarball, as stored. */
  async function packageJson(located: LocatedNode): Promise<string> {
    const where = `${located.repo.key}/${located.path}`;
    const archive = await archiveView.storedArchive(located.repo.key, located.path);
    const entry = await archiveView.entryContent(archive, PACKAGE_JSON_ENTRY, FILE_VIEW_MAX_BYTES);
    if (entry.kind !== 'file')
      throw new NotFound(FILE_VIEW_MESSAGES.noPackageJson(where, PACKAGE_JSON_ENTRY));
    if (entry.truncated)
      throw new BadRequest(FILE_VIEW_MESSAGES.tooLarge(`${where}!/${PACKAGE_JSON_ENTRY}`));
    return utf8(entry.head);
  }

  return {
    async view(repoKey: string, path: string, view: FileView): Promise<{ fileContent: string }> {
      const located = await locateNode(artifacts, repoKey, path);
      const where = `${located.repo.key}/${path}`;
      if (located.type !== 'file' || !viewApplies(view, path, located.repo.package_type))
        throw new BadRequest(FILE_VIEW_MESSAGES.notApplicable(view, where));
      if (view === 'PomView') return { fileContent: await pomText(located) };
      if (view === 'GeneralXml') return { fileContent: await fileText(located) };
      return { fileContent: await packageJson(located) };
    },

    /** The View action's code view: a text file's content, at most FILE_VIEW_MAX_BYTES. */
    async text(repoKey: string, path: string): Promise<{ fileContent: string }> {
      const located = await locateNode(artifacts, repoKey, path);
      const where = `${located.repo.key}/${path}`;
      if (located.type !== 'file') throw new BadRequest(FILE_VIEW_MESSAGES.folderNotViewed(where));
      if (!looksLikeText(path, located.node!.mime_type))
        throw new BadRequest(FILE_VIEW_MESSAGES.notText(where));
      const content = await fileText(located);
      if (isBinary(content)) throw new BadRequest(FILE_VIEW_MESSAGES.notText(where));
      return { fileContent: content };
    },
  };
}

export type FileViews = ReturnType<typeof createFileViews>;
