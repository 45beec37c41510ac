import { Readable } from 'node:stream';

/** Rows per round of rendering: answers that add properties look them up a chunk at a time. */
const CHUNK = 500;

async function* chunks<T>(rows: AsyncIterable<T>): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for await (const row of rows) {
    chunk.push(row);
    if (chunk.length === CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * `{"results":[...], ...tail}` written as the rows arrive: a search has no result cap, so an
 * answer of a million items is streamed, never held whole in memory. `tail` gets the count
 * of results (AQL's range). The first chunk is read before anything is sent, so that a
 * failing query is still an ordinary error answer rather than a connection cut mid-body.
 */
export async function streamResults<T>(
  rows: AsyncIterable<T>,
  render: (chunk: T[]) => Promise<object[]> | object[],
  tail: (count: number) => object = () => ({}),
): Promise<Readable> {
  const pending = chunks(rows);
  const first = await pending.next();
  const firstText = first.done ? undefined : await renderChunk(first.value, render);
  async function* json() {
    let count = first.done ? 0 : first.value.length;
    yield '{"results":[';
    if (firstText !== undefined) yield firstText;
    for await (const chunk of pending) {
      yield `,${await renderChunk(chunk, render)}`;
      count += chunk.length;
    }
    const rest = JSON.stringify(tail(count)).slice(1, -1);
    yield rest ? `],${rest}}` : ']}';
  }
  return Readable.from(json());
}

async function renderChunk<T>(
  chunk: T[],
  render: (chunk: T[]) => Promise<object[]> | object[],
): Promise<string> {
  return (await render(chunk)).map((entry) => JSON.stringify(entry)).join(',');
}
