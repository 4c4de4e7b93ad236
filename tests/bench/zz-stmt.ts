import pg from 'pg';
const orig = pg.Client.prototype.query;
export const timings = new Map<string, number[]>();
let enabled = false;
export const enable = (on: boolean) => { enabled = on; };
pg.Client.prototype.query = function (this: unknown, ...a: unknown[]) {
  const q = a[0] as { text?: string } | string;
  const key = (typeof q === 'string' ? q : q.text ?? '?').trim().slice(0, 40);
  const t0 = performance.now();
  const r = (orig as Function).apply(this, a);
  if (enabled && r && typeof r.then === 'function') r.then(() => { const l = timings.get(key) ?? []; l.push(performance.now() - t0); timings.set(key, l); }, () => {});
  return r;
} as never;
