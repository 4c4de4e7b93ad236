import { describe, expect, it } from 'vitest';
import { footprintLine, IDLE_AFTER_MS, measureFootprint } from '../bench/server-footprint';
import { buildServer, COMPILED_SERVER } from '../compiled-server';

// The server as `npm start` runs it (issue 52): compiled JavaScript, a real process on the embedded database with
// demo data. Its warm start and idle memory are printed here against their budgets; `npm run bench` asserts them
// (this machine is shared while the suites run, so a figure here says little).
describe('the compiled server', () => {
  it(
    'starts from dist/server on a DATA_DIR that has its database, answers, and prints its start and idle memory',
    async () => {
      buildServer();
      const figures = await measureFootprint(COMPILED_SERVER, { warmStarts: 1 });
      console.log(`compiled server: ${footprintLine(figures)}`);
      expect(figures.warmStartSeconds).toBeGreaterThan(0);
      expect(figures.idleRssMb).toBeGreaterThan(0);
      expect(figures.firstStartRssMb).toBeGreaterThan(0);
    },
    IDLE_AFTER_MS + 240_000,
  );
});
