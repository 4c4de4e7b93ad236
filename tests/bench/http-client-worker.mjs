// Loads http-client.ts in its worker thread: Node 20 does not pass the bench's `--import tsx` on to workers.
import { register } from 'tsx/esm/api';

register();
await import('./http-client.ts');
