import type { TestProject } from 'vitest/node';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/**
 * The suite's shared server: Tierdesk as `npm start` runs it, on a free port with a fresh DATA_DIR and demo data
 * (server.ts). Every file but those that start their own (mfa.e2e.ts) uses it, one file after another.
 */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseURL', server.baseURL);
  return () => server.stop();
}
