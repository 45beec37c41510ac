import { parentPort } from 'node:worker_threads';
import { mergeDocumentTexts, type MergeRequest, type MergeReply } from './merge.ts';

/**
 * The worker thread that merges a virtual repository's package documents (merge.ts): parsing
 * and writing documents of many megabytes here keeps the server's event loop free.
 */
parentPort!.on('message', (request: MergeRequest) => {
  let reply: MergeReply;
  try {
    reply = { id: request.id, ...mergeDocumentTexts(request.texts) };
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
