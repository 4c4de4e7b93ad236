// The benchmark's HTTP client, in a worker thread of its own: the calls' JavaScript (requests, timing) runs
// beside the server's event loop, as a browser or another machine would, instead of queueing on the server's
// own thread and being counted as the server's time. node:http with keep-alive, as a browser keeps its
// connections. One job in ({ url, token, sequential, concurrent }): its status, the sequential calls' times and
// the requests/s of the concurrent ones out.
import http from 'node:http';
import { parentPort, Worker } from 'node:worker_threads';
import { type Figures, latencies, sequentialTimes, throughput } from './measure';

export interface HttpJob {
  url: string;
  token: string;
  /** The Cookie header a browser would send with the call (the panel's XSRF-TOKEN cookie), if any. */
  cookie?: string;
  /** Sequential calls to time (after a warm-up); 0 for none. */
  sequential: number;
  /** Untimed calls before the sequential ones (3 unless told). */
  warmUp?: number;
  /** Calls to make ten at a time for requests/s; 0 for none. */
  concurrent: number;
}
export interface HttpRun {
  status: number;
  times: number[];
  reqPerSec: number;
}
type Answer = HttpRun | { error: string };

const port = parentPort;
if (port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  port.on('message', async (job: HttpJob) => {
    let status = 0;
    const call = () =>
      new Promise<void>((resolve, reject) => {
        const request = http.get(
          job.url,
          {
            agent,
            headers: { 'x-auth-token': `bearer ${job.token}`, ...(job.cookie ? { cookie: job.cookie } : {}) },
          },
          (response) => {
            status = response.statusCode ?? 0;
            response.on('end', resolve).on('error', reject).resume();
          },
        );
        request.on('error', reject);
      });
    try {
      const times = job.sequential > 0 ? await sequentialTimes(call, job.sequential, job.warmUp) : [];
      const reqPerSec = job.concurrent > 0 ? await throughput(call, job.concurrent) : 0;
      port.postMessage({ status, times, reqPerSec } satisfies Answer);
    } catch (error) {
      port.postMessage({ error: String(error) } satisfies Answer);
    }
  });
}

/** Starts a client worker: `run(job)` runs one job in it, one at a time; `measure(job)` gives its figures. */
export function httpClient() {
  const worker = new Worker(new URL('./http-client-worker.mjs', import.meta.url));
  const run = (job: HttpJob): Promise<HttpRun> =>
    new Promise((resolve, reject) => {
      worker.once('message', (answer: Answer) =>
        'error' in answer ? reject(new Error(answer.error)) : resolve(answer),
      );
      worker.postMessage(job);
    });
  return {
    run,
    async measure(job: HttpJob): Promise<{ status: number; figures: Figures }> {
      const { status, times, reqPerSec } = await run(job);
      return { status, figures: { ...latencies(times), reqPerSec } };
    },
    close: () => worker.terminate(),
  };
}
