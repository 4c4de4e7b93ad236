import { config } from 'zod/v4/core';

// The server's Content-Security-Policy allows no eval: zod must not even probe for it (the probe alone is
// reported as a violation), so its validators run without generated code. Imported first by main.tsx,
// before any module builds a schema; zod's core config alone, so the sign-in page does not load zod's schemas.
config({ jitless: true });
