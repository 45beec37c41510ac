import { parentPort } from 'node:worker_threads';
import { encodeParts, mergeDocumentTexts, type MergeRequest, type MergeReply } from './merge.ts';

/**
 * The worker thread that merges a virtual repository's package documents (merge.ts): parsing
 * and writing documents of many megabytes here keeps the server's event loop free.
 */
parentPort!.on('message', (request: MergeRequest) => {
  let reply: MergeReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const encoded = encodeParts(mergeDocumentTexts(request.texts));
    transfer = encoded.transfer;
    reply = { id: request.id, full: encoded.full, abbreviated: encoded.abbreviated };
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message };
  }
  // The parts' memory moves to the main thread rather than being copied there.
  parentPort!.postMessage(reply, transfer);
});
