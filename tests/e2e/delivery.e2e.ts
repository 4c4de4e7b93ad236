import { describe, expect, inject, it } from 'vitest';

/** The built panel as `npm start` serves it: compressed hashed assets cached for a year, index.html checked. */
const baseURL = inject('baseURL');

describe('panel delivery', () => {
  it('sends index.html uncached and every script it loads brotli-compressed, cached for a year', async () => {
    const index = await fetch(`${baseURL}/auth`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const res = await fetch(`${baseURL}${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status, script).toBe(200);
      expect(res.headers.get('content-encoding'), script).toBe('br');
      expect(res.headers.get('cache-control'), script).toBe('public, max-age=31536000, immutable');
      // fetch decodes brotli: the script arrives whole.
      expect((await res.text()).length, script).toBeGreaterThan(1000);
    }
  });
});
