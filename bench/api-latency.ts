/**
 * Append-to-visible through the public GraphQL API, shared by `bench:projections` and
 * `bench:distributed`: a client sends `sendMessage` over HTTP, then asks
 * `message(id, consistentWith: <its token>)`, which answers once the read model shows the message
 * (polled if the bounded wait ran out or the token was refused). Latency is from just before the
 * mutation to the answer that shows the message.
 */

import { gql } from '../test/distributed/multi-process/api-client';

export interface Latency {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Nearest-rank percentiles (p99 of 200 samples is the second largest), in ms to 0.1. */
export function percentiles(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1]), n: sorted.length };
}

const SEND = 'mutation($text: String!) { sendMessage(text: $text) { messageId consistencyToken } }';
const VISIBLE = 'query($id: ID!, $token: String) { message(id: $id, consistentWith: $token) { id } }';

export interface AppendToVisibleOptions {
  url: string;
  token: string;
  /** Measured messages, after `warmup` unmeasured ones. */
  messages: number;
  warmup: number;
  /** One message every paceMs (a message's later work, its task and turn, must not pile up). */
  paceMs: number;
  label: string;
  note: (line: string) => void;
}

/** Sends paced messages through one API and times each until the read model shows it. */
export async function appendToVisible(options: AppendToVisibleOptions): Promise<Latency> {
  const { url, token, label, note } = options;
  const total = options.warmup + options.messages;
  const samples: number[] = [];
  for (let i = 0; i < total; i += 1) {
    const started = nowMs();
    const sent = await gql<{ sendMessage: { messageId: string; consistencyToken: string } }>(url, token, SEND, {
      text: `Bench message ${i}: a thought about the harbour mural`,
    });
    if (sent.errors !== undefined || sent.data == null) {
      throw new Error(`${label}: sendMessage failed: ${JSON.stringify(sent.errors)}`);
    }
    const { messageId, consistencyToken } = sent.data.sendMessage;
    let visible = false;
    let variables: Record<string, unknown> = { id: messageId, token: consistencyToken };
    while (!visible) {
      const read = await gql<{ message: { id: string } | null }>(url, token, VISIBLE, variables);
      visible = read.data?.message != null;
      if (!visible) {
        if (nowMs() - started > 30_000) throw new Error(`${label}: message ${messageId} not visible after 30 s`);
        // The bounded wait ran out (or the token was refused): plain polling from here.
        variables = { id: messageId };
        await sleep(5);
      }
    }
    const elapsed = nowMs() - started;
    if (i >= options.warmup) samples.push(elapsed);
    if ((i + 1) % 50 === 0) note(`${label}: ${i + 1}/${total} messages`);
    await sleep(options.paceMs - elapsed);
  }
  // Latency that grows with the run (documents accumulating) shows as early vs late medians.
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  note(
    `${label}: p50 of the first ${quarter} messages ${percentiles(samples.slice(0, quarter)).p50} ms, of the last ${quarter} ${percentiles(samples.slice(-quarter)).p50} ms`,
  );
  return percentiles(samples);
}
