// The benchmark's HTTP client, in a worker thread of its own: the calls' JavaScript (requests, timing) runs
// beside the server's event loop, as a browser or another machine would, instead of queueing on the server's
// own thread and being counted as the server's time. node:http with keep-alive, as a browser keeps its
// connections. One job in ({ url, token, sequential, concurrent }), its status and figures out.
import http from 'node:http';
import { parentPort, Worker } from 'node:worker_threads';
import { type Figures, measure } from './measure';

export interface HttpJob {
  url: string;
  token: string;
  sequential: number;
  concurrent: number;
}
type Answer = { status: number; figures: Figures } | { error: string };

const port = parentPort;
if (port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  port.on('message', async (job: HttpJob) => {
    let status = 0;
    const call = () =>
      new Promise<void>((resolve, reject) => {
        const request = http.get(
          job.url,
          { agent, headers: { 'x-auth-token': `bearer ${job.token}` } },
          (response) => {
            status = response.statusCode ?? 0;
            response.on('end', resolve).on('error', reject).resume();
          },
        );
        request.on('error', reject);
      });
    try {
      const figures = await measure(call, job);
      port.postMessage({ status, figures } satisfies Answer);
    } catch (error) {
      port.postMessage({ error: String(error) } satisfies Answer);
    }
  });
}

/** Starts a client worker: `measure(job)` runs one call's figures in it, one job at a time. */
export function httpClient() {
  const worker = new Worker(new URL('./http-client-worker.mjs', import.meta.url));
  return {
    measure(job: HttpJob): Promise<{ status: number; figures: Figures }> {
      return new Promise((resolve, reject) => {
        worker.once('message', (answer: Answer) =>
          'error' in answer ? reject(new Error(answer.error)) : resolve(answer),
        );
        worker.postMessage(job);
      });
    },
    close: () => worker.terminate(),
  };
}
