import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../workers/module-worker.ts';
import { abbreviateDocument, mergePackuments, type Manifest } from './packument.ts';

export interface MergeRequest {
  id: number;
  texts: string[];
}
export type MergeReply = ({ id: number } & MergedTexts) | { id: number; error: string };

export interface MergedTexts {
  full: string[];
  abbreviated: string[];
}

/** Parts of about this many characters: what the event loop handles of a document at once. */
const PART_CHARS = 256 * 1024;

/**
 * Cuts a document's text into parts, each ending at a comma: the tarball marker holds none,
 * so no part splits one (documents.ts rewrites the marker part by part).
 */
function inParts(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (text.length - start > PART_CHARS) {
    const comma = text.indexOf(',', start + PART_CHARS);
    if (comma < 0) break;
    parts.push(text.slice(start, comma + 1));
    start = comma + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

/** Below this many characters in all, documents are merged in place: a thread costs more. */
const IN_PLACE_CHARS = 512 * 1024;

/** Merges the members' documents (first member first) into the full and abbreviated texts. */
export function mergeDocumentTexts(texts: string[]): MergedTexts {
  const document = mergePackuments(texts.map((text) => JSON.parse(text) as Manifest));
  return {
    full: inParts(JSON.stringify(document)),
    abbreviated: inParts(JSON.stringify(abbreviateDocument(document))),
  };
}

/**
 * Merges a virtual repository's package documents off the event loop (issue 6: a packument
 * of many megabytes never blocks it for 50 ms). One worker thread, started at the first
 * large merge, serves them in turn; it does not keep the process alive while idle.
 */
export function createDocumentMerger(callerUrl = import.meta.url) {
  let worker: Worker | undefined;
  let lastId = 0;
  const waiting = new Map<
    number,
    { resolve: (r: MergeReply) => void; reject: (e: Error) => void }
  >();

  function failAll(error: Error) {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    worker = undefined;
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = startModuleWorker(callerUrl, 'npm-merge-worker');
    started.on('message', (reply: MergeReply) => {
      waiting.get(reply.id)?.resolve(reply);
      waiting.delete(reply.id);
      if (waiting.size === 0) started.unref();
    });
    started.on('error', failAll);
    started.on('exit', (code) => failAll(new Error(`the npm merge thread exited (${code})`)));
    worker = started;
    return started;
  }

  return {
    async merge(texts: string[]): Promise<MergedTexts> {
      const size = texts.reduce((sum, text) => sum + text.length, 0);
      if (size < IN_PLACE_CHARS) return mergeDocumentTexts(texts);
      const id = ++lastId;
      const target = thread();
      const reply = await new Promise<MergeReply>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        target.ref();
        target.postMessage({ id, texts } satisfies MergeRequest);
      });
      if ('error' in reply) throw new Error(reply.error);
      return { full: reply.full, abbreviated: reply.abbreviated };
    },

    async close(): Promise<void> {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
