import { z } from 'zod';

// The server's Content-Security-Policy allows no eval: zod must not even probe for it (the probe alone is
// reported as a violation), so its validators run without generated code. Imported first by main.tsx,
// before any module builds a schema.
z.config({ jitless: true });
