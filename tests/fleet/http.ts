// The fleet test's HTTP client: node:http with keep-alive, each "person" on a loopback address of its own
// (127.0.0.0/8 is all this machine's), so HAProxy's X-Forwarded-For tells the servers apart who is asking.
// Every exchange is written down (when it started and ended, its status, which server answered) for the checks
// that no 5xx reached a client outside the kill window.
import http from 'node:http';

export const XSRF = 'fleet-test-xsrf';
/** HAProxy names the server that answered in this header (scripts/fleet.sh). */
export const SERVED_BY = 'x-tierdesk-server';

export interface Exchange {
  method: string;
  path: string;
  /** The base URL the request went to: HAProxy's or one server's own. */
  base: string;
  started: number;
  ended: number;
  /** 0 when no answer came (connection refused or reset). */
  status: number;
  server?: string;
  /** The Retry-After header of the answer, when it had one. */
  retryAfter?: string;
  /** The message of a failed answer (5xx), when it had one. */
  message?: string;
  error?: string;
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field by the caller
  body: any;
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
  server?: string;
}

export interface RequestOptions {
  token?: string;
  /** JSON body (sent with the XSRF cookie and header, as the panel does). */
  json?: unknown;
  /** Raw body with its own content type (a signed callback, a multipart form). */
  raw?: { bytes: Buffer; contentType: string };
  headers?: Record<string, string>;
}

const agents = new Map<string, http.Agent>();
const agentFor = (localAddress: string) => {
  let agent = agents.get(localAddress);
  if (!agent) {
    // Idle connections are let go before HAProxy's keep-alive timeout ends them, so a request is never sent on a
    // connection HAProxy is closing.
    agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 4_000 });
    agents.set(localAddress, agent);
  }
  return agent;
};

/** Closes every kept-alive connection (at the end, so the process can exit). */
export const closeAgents = () => {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
};

export class Journal {
  readonly exchanges: Exchange[] = [];
  add(exchange: Exchange) {
    this.exchanges.push(exchange);
  }
}

/** Requests to one base URL (HAProxy or a server) from one loopback address. */
export class Client {
  constructor(
    readonly base: string,
    readonly localAddress: string,
    readonly journal: Journal,
  ) {}

  /** The same person (address) talking to another base URL. */
  to(base: string) {
    return new Client(base, this.localAddress, this.journal);
  }

  request(method: string, path: string, opts: RequestOptions = {}): Promise<Answer> {
    const url = new URL(path, this.base);
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    let body: Buffer | undefined;
    if (opts.json !== undefined) {
      body = Buffer.from(JSON.stringify(opts.json));
      headers['content-type'] = 'application/json';
    } else if (opts.raw) {
      body = opts.raw.bytes;
      headers['content-type'] = opts.raw.contentType;
    }
    if (method !== 'GET') {
      headers.cookie = `XSRF-TOKEN=${XSRF}`;
      headers['x-xsrf-token'] = XSRF;
    }
    if (opts.token) headers['x-auth-token'] = `bearer ${opts.token}`;
    if (body) headers['content-length'] = String(body.length);
    const exchange: Exchange = { method, path, base: this.base, started: Date.now(), ended: 0, status: 0 };
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          headers,
          agent: agentFor(this.localAddress),
          localAddress: this.localAddress,
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => finish(error));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const server = res.headers[SERVED_BY] as string | undefined;
            exchange.status = res.statusCode ?? 0;
            exchange.server = server;
            exchange.retryAfter = res.headers['retry-after'];
            let parsed: unknown;
            try {
              parsed = JSON.parse(raw.toString('utf8'));
            } catch {
              parsed = undefined;
            }
            if (exchange.status >= 500)
              exchange.message = (parsed as { message?: string } | undefined)?.message;
            finish(undefined, { status: exchange.status, body: parsed, raw, headers: res.headers, server });
          });
        },
      );
      let done = false;
      const finish = (error?: Error, answer?: Answer) => {
        if (done) return;
        done = true;
        exchange.ended = Date.now();
        if (error) exchange.error = error.message;
        this.journal.add(exchange);
        if (answer) resolve(answer);
        else reject(error);
      };
      req.on('timeout', () => req.destroy(new Error('no answer within 60 s')));
      req.on('error', (error) => finish(error));
      req.end(body);
    });
  }

  get(path: string, opts: RequestOptions = {}) {
    return this.request('GET', path, opts);
  }

  post(path: string, opts: RequestOptions = {}) {
    return this.request('POST', path, opts);
  }
}

/** A multipart form as bytes and its content type (with the boundary), as fetch would send it. */
export async function formBytes(form: FormData) {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    bytes: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? 'multipart/form-data',
  };
}
