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
 * of results (AQL's range).
 */
export function streamResults<T>(
  rows: AsyncIterable<T>,
  render: (chunk: T[]) => Promise<object[]> | object[],
  tail: (count: number) => object = () => ({}),
): Readable {
  async function* json() {
    let count = 0;
    yield '{"results":[';
    for await (const chunk of chunks(rows)) {
      const rendered = await render(chunk);
      const text = rendered.map((entry) => JSON.stringify(entry)).join(',');
      yield count === 0 ? text : `,${text}`;
      count += chunk.length;
    }
    const rest = JSON.stringify(tail(count)).slice(1, -1);
    yield rest ? `],${rest}}` : ']}';
  }
  return Readable.from(json());
}
