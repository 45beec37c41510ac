import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../workers/module-worker.ts';
import { abbreviateDocument, mergePackuments, type Manifest } from './packument.ts';

export interface MergeRequest {
  id: number;
  texts: string[];
}
/** The worker's answer: the parts as UTF-8 bytes, moved (not copied) to the main thread. */
export type MergeReply =
  { id: number; full: Uint8Array[]; abbreviated: Uint8Array[] } | { id: number; error: string };

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

/**
 * The parts as bytes the worker hands over with their memory: received as strings, 20 MB of
 * them would be made on the main thread in one task, and the garbage collector's copying of
 * them would block it for tens of milliseconds.
 */
export function encodeParts(merged: MergedTexts) {
  const encoder = new TextEncoder();
  const full = merged.full.map((part) => encoder.encode(part));
  const abbreviated = merged.abbreviated.map((part) => encoder.encode(part));
  const transfer = [...full, ...abbreviated].map((bytes) => bytes.buffer as ArrayBuffer);
  return { full, abbreviated, transfer };
}

/** Bytes back to text a part at a time, yielding to other requests between slices. */
async function decodeParts(parts: Uint8Array[]): Promise<string[]> {
  const decoder = new TextDecoder();
  const texts: string[] = [];
  let done = 0;
  for (const part of parts) {
    texts.push(decoder.decode(part));
    done += part.length;
    if (done >= PART_CHARS * 2) {
      done = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return texts;
}

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
      return {
        full: await decodeParts(reply.full),
        abbreviated: await decodeParts(reply.abbreviated),
      };
    },

    async close(): Promise<void> {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
