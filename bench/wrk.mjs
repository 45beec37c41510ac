// wrk rounds for the storage benchmark (bench/storage.mjs, bench/metrics-cost.mjs), with the
// CPU time the measured server and wrk itself spent in them, read from /proc.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds (user and system) a process has used, or with `reaped` its waited-for children. */
export function cpuSeconds(pid = 'self', reaped = false) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const [user, system] = reaped ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return (Number(user) + Number(system)) / 100;
}

function wrkArgs({ url, headers = [], seconds, connections = 32, threads = 2 }) {
  return [
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    ...headers.flatMap((h) => ['-H', h]),
    url,
  ];
}

/**
 * wrk's report: the requests, the round's measured length and rate. A round with connection
 * errors or answers other than 2xx and 3xx throws: its rate would not be the rate of the
 * download measured.
 */
function parseWrk(out, url) {
  // wrk prints these lines only when something went wrong. A request wrk gave up waiting for
  // (2 s) is counted and reported: on a loaded machine that is the machine, not the server.
  const refused = /Non-2xx or 3xx responses: \d+/.exec(out);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  );
  if (refused || socketErrors?.slice(1, 4).some((count) => count !== '0'))
    throw new Error(`wrk against ${url}: ${refused?.[0] ?? socketErrors[0]}`);
  const [, requests, length, unit] = /(\d+) requests in ([\d.]+)(ms|s|m)\b/.exec(out);
  return {
    requests: Number(requests),
    seconds: Number(length) * { ms: 0.001, s: 1, m: 60 }[unit],
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    timeouts: Number(socketErrors?.[4] ?? 0),
  };
}

/**
 * One wrk round of `seconds` against `url` (keep-alive connections, wrk's default): wrk's
 * report (parseWrk) and the CPU seconds the server `pid` (when given) and wrk spent in it.
 */
export function wrkRound(round) {
  const serverBefore = round.pid ? cpuSeconds(round.pid) : 0;
  const wrkBefore = cpuSeconds('self', true);
  const out = execFileSync('wrk', wrkArgs(round)).toString();
  return {
    ...parseWrk(out, round.url),
    serverCpu: round.pid ? cpuSeconds(round.pid) - serverBefore : undefined,
    wrkCpu: cpuSeconds('self', true) - wrkBefore,
  };
}
